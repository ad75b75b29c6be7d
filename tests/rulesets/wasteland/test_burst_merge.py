"""A burst's hits merged by what they leave (``FireOn.odds_key``, ``fracas.rulesets.steps``): the
exact odds follow one node per (first hit, the others' damage after DT summed), not one
per pattern of limbs and damage, and harm once per sum of all its hits before DR
(``Harmed.odds_key``), the last hit's dice enumerated once for every sum of the hits before
it (``FireOn.odds_shared``), a path cut in its CRIT die followed there too (a lower bound); they
must equal following every path whole (WL-14, WL-15: hits summed, DR once; WL-9, WL-17:
CRIT and Sneak on the first hit; WL-13: cover stops a hit; WL-19: death saves; WL-24: a
creature behind the target)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from fracas.engine.play import Engine
from fracas.odds.action import Odds, action_odds
from fracas.rulesets.wasteland.fire import FireOn, Harmed
from tests.helpers import load_text
from tests.rulesets.wasteland.support import act, damage, doc, fight, rolled, who

SMALL = {"name": "smg", "damage": "1d2+1", "crit_dice": "1d4", "ap": 3, "burst": 3}
LIMBS = {"torso": {"dt": {"physical": 2}}, "head": {"dt": {"physical": 3}}}
COVER = {"type": "half", "hardness": 2}


def _odds(d: dict[str, Any], **how: Any) -> Odds:
    ef = load_text(json.dumps(d))
    engine = Engine(ef.ruleset, ef.start, ef.seed)
    engine.begin(ef.dice, ef.order)
    return action_odds(ef.ruleset, engine.state, ef.actions[-1], max_rolls=8, seconds=None, **how)


def _check(d: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> Odds:
    """The merged odds equal the steps followed per pattern of hits, exactly, and every
    path followed whole (which knows less of a path cut in its CRIT die: whether it hit,
    by at most the cut mass)."""
    merged = _odds(d)
    whole = _odds(d, steps=False)
    with monkeypatch.context() as m:
        m.delattr(FireOn, "odds_key")
        m.delattr(Harmed, "odds_key")
        m.delattr(FireOn, "odds_shared")
        apart = _odds(d)
    with monkeypatch.context() as m:  # the last hit's dice enumerated per node: the same
        m.delattr(FireOn, "odds_shared")
        assert _odds(d).combatants == merged.combatants
    assert merged.combatants == apart.combatants
    assert merged.truncated == apart.truncated == whole.truncated
    assert merged.paths < min(apart.paths, whole.paths), (merged.paths, apart.paths)
    for cid, w in whole.combatants.items():
        o = merged.combatants[cid]
        assert (o.damage, o.down, o.cut, o.at_least) == (w.damage, w.down, w.cut, w.at_least)
        assert w.hit is not None and o.hit is not None
        assert 0 <= o.hit - w.hit <= whole.truncated
    return merged


CASES: dict[str, tuple[dict[str, Any], dict[str, Any], dict[str, Any]]] = {
    "limbs of every DT, legs in cover, DR": (
        {},
        {"limbs": LIMBS, "cover": COVER, "dr": {"physical": 10}, "hp": 6, "max_hp": 20},
        {},
    ),
    "a death save, cover all or nothing, CRIT through": (
        {"crit_min": 18},
        {"limbs": LIMBS, "cover": COVER, "hp": 5, "perks": ["deal_with_the_reaper"]},
        {"cover_rule": "all_or_nothing", "cover_stops_crit": False},
    ),
    "a Sneak Attack, Glancing by the first shot": (
        {"hidden": "hidden", "skills": {"guns": 2, "sneak": 2}},
        {"limbs": LIMBS, "unaware": True, "hp": 7},
        {"burst_glancing": "first_shot", "crit_after_full_dt": False},
    ),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_WL_15_merged_burst_hits_equal_every_path_followed_whole(
    case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    shooter, target, options = CASES[case]
    d = doc(
        who("a", weapons=[SMALL], **{"skills": {"guns": 2}, **shooter}),
        who("b", at=(3, 0), **target),
        actions=[
            act("a", "attack", "b", burst=True, **({"sneak": True} if "hidden" in shooter else {}))
        ],
        options=options,
    )
    b = _check(d, monkeypatch).combatants["b"]
    # WL-19: the save leaves 1 HP instead of dying, once; the others may go down.
    assert (b.down == 0) == ("perks" in target)


def test_WL_24_merged_burst_hits_with_a_creature_behind_the_target(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    two = {**SMALL, "burst": 2}
    d = doc(
        who("a", weapons=[two], skills={"guns": 2}),
        who("b", at=(3, 0), limbs=LIMBS, hp=4),
        who("c", at=(5, 0), evasion_mod=-4, hp=3),
        actions=[act("a", "attack", "b", burst=True)],
    )
    assert set(_check(d, monkeypatch).combatants) == {"b", "c"}


@pytest.mark.parametrize("after_full_dt", [True, False])
def test_WL_A4_a_bursts_crit_die_follows_the_last_hit_unless_dt_stopped_the_first(
    after_full_dt: bool,
) -> None:
    # WL-15: a first-shot CRIT hits with every shot; its one CRIT die is rolled after the
    # last hit's damage, on the first hit, unless DT mitigated that fully (WL-A4 option).
    dice: dict[str, Any] = {"attack:1": 20}
    for n in (1, 2, 3):
        dice |= {f"location:{n}": 5, f"damage:{n}": [1]}
    if after_full_dt:
        dice["crit"] = [2]
    p = fight(
        who("a", weapons=[SMALL], skills={"guns": 2}),
        who("b", at=(3, 0), dt={"physical": 5}),
        actions=[act("a", "attack", "b", burst=True, dice=dice)],
        options={"crit_after_full_dt": after_full_dt},
    )
    labels = [label for label, _ in rolled(p)]
    assert labels[-2:] == (["damage:3", "crit"] if after_full_dt else ["location:3", "damage:3"])
    assert damage(p) == {"b": 2 if after_full_dt else 0}  # every hit's 2 stopped by DT 5


def test_WL_15_a_bursts_last_hit_shared_with_its_locations_given(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The last hit's dice are enumerated once per (what the hits before it leave but their
    # sum, the given dice taken so far): with the limbs given, as when following every
    # path whole, and as when enumerated per node.
    d = doc(
        who("a", weapons=[SMALL], skills={"guns": 2}, crit_min=18),
        who("b", at=(3, 0), limbs=LIMBS, cover=COVER, dr={"physical": 10}, hp=9),
        actions=[
            act("a", "attack", "b", burst=True,
                dice={"location:1": 5, "location:2": 3, "location:3": 1})
        ],
    )  # fmt: skip
    merged = _odds(d)
    whole = _odds(d, steps=False)
    with monkeypatch.context() as m:
        m.delattr(FireOn, "odds_shared")
        assert _odds(d).combatants == merged.combatants
    b, w = merged.combatants["b"], whole.combatants["b"]
    assert (b.damage, b.down, b.cut, b.at_least) == (w.damage, w.down, w.cut, w.at_least)
    assert b.down > 0
