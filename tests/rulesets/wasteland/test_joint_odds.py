"""wasteland's joint draws in the exact odds against the plain enumeration: a single
shot's damage and CRIT dice (WL-9, WL-13, WL-14, WL-A4) and a blast's (P-WL-3, WL-27,
WL-28) drawn as one class of what harm reads, equal to rolling every die and following
every path whole. Every damage value below what a cut path can deal must be equal
exactly; the rest (hit, down, the largest values) within the two cut masses."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

from fracas.engine.play import Engine
from fracas.odds.action import Odds, action_odds
from tests.helpers import load_text
from tests.rulesets.wasteland.support import act, doc, who

DEPTH = 10
"""Rolls per path: with a d20 location and one damage die, a plain path is cut only
after 8 CRIT dice (7 sixes: a CRIT of 43 or more)."""
EXACT_BELOW = 38
"""Damage a cut path cannot deal under (DR 10% of 43, floored)."""
HALF = {"type": "half", "hardness": 3}
GRENADE = {"name": "grenade", "kind": "explosive", "damage": "1d6+1", "ap": 4, "count": 2}


def _both(d: dict[str, Any]) -> tuple[Odds, Odds]:
    ef = load_text(json.dumps(d))
    engine = Engine(ef.ruleset, ef.start, ef.seed)
    engine.begin(ef.dice, ef.order)
    action = ef.actions[-1]
    fast = action_odds(ef.ruleset, engine.state, action, max_rolls=DEPTH, seconds=None)
    plain = action_odds(
        ef.ruleset, engine.state, action, max_rolls=DEPTH, seconds=None, steps=False, pools=False
    )
    return fast, plain


def _equal(fast: Odds, plain: Odds) -> None:
    assert fast.paths < plain.paths
    slack = fast.truncated + plain.truncated
    assert 0 < slack < Fraction(1, 10**5)
    assert fast.combatants.keys() == plain.combatants.keys()
    for cid, p in plain.combatants.items():
        f = fast.combatants[cid]
        assert abs((f.hit or Fraction(0)) - (p.hit or Fraction(0))) <= slack, cid
        assert abs(f.down - p.down) <= slack, cid
        for d in f.damage.keys() | p.damage.keys():
            mine, theirs = f.damage.get(d, Fraction(0)), p.damage.get(d, Fraction(0))
            if d < EXACT_BELOW:
                assert mine == theirs, (cid, d)
            else:
                assert abs(mine - theirs) <= slack, (cid, d)


SHOTS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "open ground": ({}, {}),
    "legs in cover, its CRIT stopped with the hit": ({"cover": HALF}, {}),
    "cover all or nothing, CRIT through a stopped hit": (
        {"cover": HALF},
        {"cover_stops_crit": False, "cover_rule": "all_or_nothing"},
    ),
    "DT 4, no CRIT after full DT (WL-A4)": (
        {"dt": {"physical": 4}},
        {"crit_after_full_dt": False},
    ),
    "torso DT 5, DR rounded to the nearest": (
        {"limbs": {"torso": {"dt": {"physical": 5}}}},
        {"dr_rounding": "nearest"},
    ),
}


@pytest.mark.parametrize("case", SHOTS, ids=list(SHOTS))
def test_WL_9_a_single_shot_crit_drawn_with_its_damage_equals_the_plain_enumeration(
    case: str,
) -> None:
    target, options = SHOTS[case]
    pistol = {"name": "pistol", "damage": "1d6", "crit_dice": "1d6", "ap": 4}
    d = doc(
        who("a", weapons=[pistol], skills={"guns": 2}, crit_min=15),
        who("b", at=(3, 0), dr={"physical": 10}, **target),
        actions=[act("a", "attack", "b")],
        options=options,
    )
    fast, plain = _both(d)
    _equal(fast, plain)
    b = fast.combatants["b"]
    assert b.hit == Fraction(12, 20)  # 9..20 beat Evasion 10


def test_P_WL_3_a_blast_drawn_as_each_victims_final_damage_equals_the_plain_enumeration() -> None:
    d = doc(
        who("a", weapons=[GRENADE], skills={"explosives": 3}, per_mod=1, crit_min=16),
        who("b", at=(4, 0)),
        who("c", at=(4, 1), dt={"physical": 1}, dr={"physical": 20}),
        who("e", at=(5, 1), dr={"physical": 10}, cover={"type": "half", "attenuation": 2}),
        actions=[act("a", "throw", "b")],
        options={"dr_rounding": "nearest"},
    )
    fast, plain = _both(d)
    _equal(fast, plain)
    # 7..20: total over 10, or CRIT; a path cut in its CRIT dice is known no further
    # than the throw's start (one step): short of it by at most the cut mass.
    hit = fast.combatants["b"].hit
    assert hit is not None and 0 <= Fraction(14, 20) - hit <= fast.truncated
