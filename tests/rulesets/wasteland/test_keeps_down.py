"""Events that declare ``keeps_down`` (``fracas.odds.outcomes``: exact odds skip them when a
finished path is folded only to see who is down) must never change who is down: the
wasteland limb damage of shots, bursts and blasts that leave creatures dying, played
over many seeds, folded with and without them (WL-19, WL-20 to WL-22, WL-28)."""

from __future__ import annotations

import json

from fracas.engine.play import Engine
from fracas.model import fold
from fracas.rulesets.base import is_down
from tests.helpers import load_text
from tests.rulesets.wasteland.support import SMG, act, doc, who

GRENADE = {"name": "grenade", "kind": "explosive", "damage": "6d6", "ap": 2, "count": 3}
RIFLE = {"name": "rifle", "damage": "4d6", "ap": 2}


def test_WL_19_limb_damage_never_changes_who_is_down() -> None:
    d = doc(
        who("a", weapons=[GRENADE, RIFLE, SMG], skills={"explosives": 3, "guns": 3}, ap=12),
        who("b", at=(3, 0), max_hp=8, hp=8),
        who("c", at=(3, 1), max_hp=12, hp=5, limbs={"torso": {"ct": 1}}),
        who("d", at=(4, 0), max_hp=30, hp=30, dt={"physical": 1}),
        actions=[
            act("a", "attack", "b", weapon="rifle"),
            act("a", "attack", "d", weapon="smg", burst=True),
            act("a", "throw", "b", weapon="grenade"),
        ],
    )
    ef = load_text(json.dumps(d))
    ruleset = ef.ruleset
    skipped = dropped = 0
    for seed in range(1, 41):
        engine = Engine(ruleset, ef.start, seed)
        engine.begin(ef.dice, ef.order)
        for action in ef.actions:
            before = engine.state
            events = engine.act(action).events
            kept = [e for e in events if not getattr(type(e), "keeps_down", False)]
            skipped += len(events) - len(kept)
            whole, short = fold(before, events), fold(before, kept)
            for cid in whole.combatants:
                down = is_down(ruleset, whole.get(cid))
                assert down == is_down(ruleset, short.get(cid)), (seed, action.do, cid)
                dropped += down
    assert skipped > 100 and dropped > 20  # limbs were hurt, creatures went down
