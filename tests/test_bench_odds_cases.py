"""The benchmark's icepool models (``bench/odds_cases.py``) equal our exact odds.

``bench/bench_odds.py`` asserts, at full size, that each icepool model gives the same
distribution as ``action_odds``; here each model is checked on one small instance with
other numbers (bonuses, ratings, a shallow explosion depth), so a model cannot drift
from the rules unnoticed. Where exploding dice are cut, the enumerated values must be
equal, and the cut mass and the least damage of a cut path equal to the model's cut
bucket.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction

import pytest

from bench.odds_cases import (
    CASES,
    Case,
    advantage_case,
    contest_case,
    grenade_case,
    longsword_case,
    molotov_case,
    pistol_case,
    pistol_crit_case,
    split,
    whelm_case,
)
from fracas.engine.play import Engine
from fracas.io.files import parse_text
from fracas.odds.action import Odds, action_odds

SMALL: dict[str, Callable[[], Case]] = {
    "DC-37_DC-39_pistol_crit_and_fumble": lambda: pistol_case(bonus=-2),
    "DC-G2_DC-5_greataxe_with_advantage": lambda: advantage_case(bonus=-1, defend=0),
    "DC-32_DC-34_molotov_scatters_on_two": lambda: molotov_case(victims=2, bonus=4),
    "TD-1_TD-4_melee_contest": lambda: contest_case(bo_reflex=5, ana_reflex=0),
    # Depth 4 for wasteland: at a smaller max_rolls the engine still cuts whole paths
    # before the CRIT die (every CRIT path cut, at_least 0): the pistol at depth 3 or
    # less in commit 9b7b68d, the 2d6 grenade at depth 2 in /work/main's newer code.
    "WL-9_WL-14_pistol_crit_explodes_depth_4": lambda: pistol_crit_case(
        depth=4, agi=0, evasion_agi=0
    ),
    "WL-27_grenade_on_two_depth_4": lambda: grenade_case(depth=4, per=-1),
    "ES-9_ES-11_whelm_on_two": lambda: whelm_case(rating=4, gob_rating=1),
    "SK-5_SK-7_longsword_explodes_depth_2": lambda: longsword_case(depth=2, ev=14, av=9),
}


def odds_of(case: Case) -> Odds:
    ef = parse_text(json.dumps(case.doc), "case.json")
    engine = Engine(ef.ruleset, ef.start, 1)
    engine.begin(ef.dice, ef.order)
    for action in ef.actions[:-1]:
        engine.act(action)
    return action_odds(
        ef.ruleset, engine.state, ef.actions[-1], seconds=None, max_rolls=case.max_rolls
    )


def test_every_benchmark_case_has_a_small_instance() -> None:
    names = {make().name for make in CASES}
    assert names == {make().name for make in SMALL.values()}


@pytest.mark.parametrize("make", SMALL.values(), ids=SMALL.keys())
def test_icepool_model_equals_action_odds_exactly(make: Callable[[], Case]) -> None:
    case = make()
    odds = odds_of(case)
    model = case.model()
    assert odds.estimate is None
    for cid, dist in model.items():
        theirs, ours = split(dist), odds.combatants[cid]
        assert sum(dist.values()) == 1
        assert ours.damage == theirs.damage, cid
        assert (ours.cut, ours.at_least) == (theirs.cut, theirs.at_least), cid
    if case.max_rolls is not None:  # the small instances do cut: the bucket is checked
        assert all(split(dist).cut > 0 for dist in model.values())
    assert odds.truncated == max((split(d).cut for d in model.values()), default=Fraction(0))
