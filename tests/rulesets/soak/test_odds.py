"""soak exact odds: exploding dice cut at the ruleset's depth, checked against icepool
and against an independent enumeration of the rules written here; 20,000 seeded
attacks against the exact distribution (chi-square)."""

from __future__ import annotations

import dataclasses
from collections import Counter, defaultdict
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import icepool
import pytest

from fracas.dice.source import GivenDice, RandomDice
from fracas.engine.play import plan
from fracas.model import Damaged, fold
from fracas.odds.action import Odds
from fracas.rulesets.base import decided
from fracas.rulesets.soak import Soak
from fracas.rulesets.soak.attack import Attack
from fracas.rulesets.soak.data import ODDS_MAX_ROLLS
from fracas.rulesets.steps import roll_all
from tests.rulesets.builders import merged_chisquare
from tests.rulesets.soak.support import act, doc, odds_of, state_and_action, who


def icepool_dist(die: Any) -> dict[int, Fraction]:
    den = die.denominator()
    return {int(outcome): Fraction(q, den) for outcome, q in die.items() if q}


def knife_attack(**params: Any) -> dict[str, Any]:
    """A proficient 1d6 with no bonus against AV 0: the damage is the exploding d6."""
    return doc(
        who("ana", proficiencies=["knife"], weapons=[{"name": "knife", "dice": "1d6"}]),
        who("bo", (1, 0), max_hp=999),
        actions=[act("ana", "attack", "bo", dice={"attack": 15}, **params)],
    )


def test_the_default_depth_is_the_rulesets() -> None:
    assert Soak.contract.odds_max_rolls == ODDS_MAX_ROLLS == 12
    assert odds_of(knife_attack()).depth == 12


@pytest.mark.parametrize("depth", [None, 1, 2, 5, 9])
def test_SK_7_an_exploding_d6_equals_icepools_explode_at_the_same_depth(depth: int | None) -> None:
    odds = odds_of(knife_attack(), max_rolls=depth)
    d = odds.depth
    assert d == (depth or ODDS_MAX_ROLLS)
    # The attack die is given: every roll of a path is the d6 or an explosion of it.
    # icepool's depth counts the extra dice and keeps a last 6 as 6: its outcome 6d is
    # exactly the path we cut, and only that one.
    theirs = icepool_dist(icepool.d6.explode(depth=d - 1))
    assert theirs.pop(6 * d) == odds.truncated == Fraction(1, 6**d)
    assert odds.combatants["bo"].damage == theirs
    assert sum(theirs.values()) + odds.truncated == 1


# --- an independent enumeration of P-SK-1 --------------------------------------------------

Dice = dict[tuple[int, bool, bool], Fraction]


def one_die(sides: int, crit: bool, explodes: bool, depth: int) -> Dice:
    """One die's (sum, showed its maximum, cut) outcomes. SK-5: a crit puts it at its
    maximum without a roll; SK-7: with proficiency it explodes from there, again while the
    maximum repeats. A die at its maximum ``depth`` times in a row is cut there, counted
    with the least it can reach (a 1 after)."""
    out: Dice = defaultdict(Fraction)
    base = sides if crit else 0
    if not explodes:
        if crit:
            out[(sides, True, False)] += 1
        else:
            for f in range(1, sides + 1):
                out[(f, f == sides, False)] += Fraction(1, sides)
        return out
    for k in range(depth):  # k maxima in a row, then a face under the maximum
        for f in range(1, sides):
            out[(base + k * sides + f, crit or k > 0, False)] += Fraction(1, sides ** (k + 1))
    out[(base + depth * sides + 1, True, True)] += Fraction(1, sides**depth)
    return out


def dice_outcomes(sizes: tuple[int, ...], crit: bool, explodes: bool, depth: int) -> Dice:
    """Every (sum, a face showed its maximum, some die was cut) of the dice in order."""
    states: Dice = {(0, False, False): Fraction(1)}
    for sides in sizes:
        new: Dice = defaultdict(Fraction)
        for (total, maxed, cut), p in states.items():
            for (t, m, c), q in one_die(sides, crit, explodes, depth).items():
                new[(total + t, maxed or m, cut or c)] += p * q
        states = new
    return states


def reference(
    *,
    bonus: int,
    need: int,
    sizes: tuple[int, ...],
    extra: tuple[int, ...] = (),
    explodes: bool,
    flat: int,
    av: int,
    hp: int,
    edge: str | None = None,
    percent: int = 100,
    depth: int,
) -> tuple[dict[int, Fraction], Fraction, Fraction, Fraction]:
    """(damage distribution, hit, down, cut mass) of one melee attack, from the rules.

    A cut path (some die cut at the depth) is left out of the damage distribution; its
    hit counts (the d20 decided it), and its down counts where its least damage downs."""
    d20: list[tuple[tuple[int, ...], int, Fraction]]
    if edge is None:
        d20 = [((n,), n, Fraction(1, 20)) for n in range(1, 21)]
    else:
        keep = max if edge == "advantage" else min
        d20 = [((a, b), keep(a, b), Fraction(1, 400)) for a in range(1, 21) for b in range(1, 21)]
    damage: dict[int, Fraction] = defaultdict(Fraction)
    hit = down = cut = Fraction(0)
    for _faces, natural, p in d20:
        crit = natural == 20
        if not (crit or natural + bonus >= need):  # SK-3, SK-5
            damage[0] += p
            continue
        for (total, _maxed, cut1), q in dice_outcomes(sizes, crit, explodes, depth).items():
            base = total + flat  # SK-8
            through = base > av  # SK-12
            dealt = base - av if through else 0
            for (rolled, _m, cut2), r in dice_outcomes(extra, crit, explodes, depth).items():
                total_damage = dealt + rolled * percent // 100  # SK-16
                prob = p * q * r
                hit += prob
                down += prob if total_damage >= hp else 0
                if cut1 or cut2:
                    cut += prob
                else:
                    damage[total_damage] += prob
    return {k: v for k, v in damage.items() if v}, hit, down, cut


def check(odds: Odds, want: tuple[dict[int, Fraction], Fraction, Fraction, Fraction]) -> None:
    damage, hit, down, cut = want
    bo = odds.combatants["bo"]
    assert odds.truncated == cut
    assert bo.damage == damage
    assert (bo.hit, bo.down) == (hit, down)
    assert sum(bo.damage.values()) == 1 - odds.truncated


def sword_case(depth: int | None, **bo: Any) -> Odds:
    sword = {"name": "sword", "dice": "1d8", "upgrades": ["1d4"]}
    d = doc(
        who(
            "ana",
            agility=3,
            strength=2,
            skills={"dueling": 3},
            proficiencies=["sword"],
            weapons=[sword],
        ),
        who("bo", (1, 0), ev=11, av=5, hp=18, max_hp=30, **bo),
        actions=[act("ana", "attack", "bo")],
    )
    return odds_of(d, max_rolls=depth)


@pytest.mark.parametrize("depth", [4, 8, None])
def test_odds_of_an_exploding_sword_equal_the_rules_enumerated_here(depth: int | None) -> None:
    want = reference(
        bonus=6, need=11, sizes=(8, 4), explodes=True, flat=5, av=5, hp=18, depth=depth or 12
    )
    check(sword_case(depth), want)


@pytest.mark.parametrize("edge", ["advantage", "disadvantage"])
def test_odds_with_an_edge_and_additional_damage_equal_the_rules_enumerated_here(edge: str) -> None:
    axe = {"name": "axe", "dice": "1d6", "additional": {"dice": "1d4", "type": "fire"}}
    d = doc(
        who("ana", agility=1, skills={"dueling": 1}, proficiencies=["axe"], weapons=[axe]),
        who("bo", (1, 0), ev=12, av=3, hp=7, material="leather"),
        actions=[act("ana", "attack", "bo", **{edge: True})],
        options={"material_percent": {"leather/fire": 150}},
    )
    want = reference(
        bonus=2, need=12, sizes=(6,), extra=(4,), explodes=True, flat=1, av=3, hp=7,
        edge=edge, percent=150, depth=6,
    )  # fmt: skip
    check(odds_of(d, max_rolls=6), want)


def test_odds_without_proficiency_are_exact_and_uncut() -> None:
    d = doc(
        who("ana", strength=4, weapons=[{"name": "maul", "dice": "2d6"}]),
        who("bo", (1, 0), ev=14, av=4, hp=5),
        actions=[act("ana", "attack", "bo")],
    )
    want = reference(bonus=0, need=14, sizes=(6, 6), explodes=False, flat=0, av=4, hp=5, depth=12)
    odds = odds_of(d)
    check(odds, want)
    assert odds.truncated == 0
    assert "truncated" not in odds.to_json()


def test_SK_3_the_hit_stays_exact_under_the_cut_of_exploding_damage() -> None:
    # The d20 decides the hit and never explodes: whatever the depth the damage dice are
    # cut at, the hit is exactly the d20's chance (it once came out short by the cut).
    odds = sword_case(None)
    hit = odds.combatants["bo"].hit
    # Natural 20, or d20 + 6 >= 11: 16 faces of 20.
    assert hit == Fraction(16, 20)
    assert 0 < odds.truncated < Fraction(2, 10**6)
    mass = f"{odds.truncated.numerator}/{odds.truncated.denominator}"
    out = odds.to_json()
    assert out["truncated"] == {
        "depth": 12,
        "mass": mass,
        "at_least": 50,  # the d4 at its maximum 12 times, then a 1; the d8 a 1; +5 -AV 5
        "combatants": {"bo": {"mass": mass, "at_least": 50}},
    }
    for depth in (3, 6):
        assert sword_case(depth).combatants["bo"].hit == Fraction(16, 20)


# --- sampling against the exact distribution ----------------------------------------------

SAMPLES = 20_000


CHI_DEPTH = 9
"""The sampled attack rolls four exploding chains: its odds are cut a little earlier than
the ruleset's default, and the cut mass joins the last cell."""


def sword_doc(proficient: bool) -> dict[str, Any]:
    sword = {
        "name": "sword",
        "dice": "1d8",
        "upgrades": ["1d4"],
        "additional": {"dice": "1d4", "type": "fire"},
    }
    return doc(
        who("ana", agility=3, strength=2, skills={"dueling": 3},
            proficiencies=["sword"] if proficient else [], weapons=[sword]),
        who("bo", (1, 0), ev=11, av=5, hp=18, max_hp=30),
        actions=[act("ana", "attack", "bo")],
    )  # fmt: skip


@pytest.fixture(scope="module")
def exact() -> dict[int, Fraction]:
    return odds_of(sword_doc(True), max_rolls=CHI_DEPTH).combatants["bo"].damage


@pytest.fixture(scope="module")
def samples() -> Counter[int]:
    ruleset, state, action = state_and_action(sword_doc(True))
    dice = RandomDice(20_260_502)
    counts: Counter[int] = Counter()
    for _ in range(SAMPLES):
        events = plan(ruleset, state, action, dice)
        counts[sum(e.amount for e in events if isinstance(e, Damaged))] += 1
    return counts


def test_sampled_damage_fits_the_exact_odds(
    samples: Counter[int], exact: dict[int, Fraction]
) -> None:
    assert sum(samples.values()) == SAMPLES
    assert max(samples) > 8 + 4 + 4 + 5 - 5  # explosions were sampled
    assert merged_chisquare(samples, exact, cut=True, min_cells=10) > 0.001


def rejects(samples: Counter[int], expected: Mapping[int, Fraction]) -> bool:
    try:
        return merged_chisquare(samples, expected, cut=True, min_cells=10) < 1e-6
    except AssertionError:  # a damage the distribution cannot give was sampled
        return True


def test_the_chisquare_rejects_wrong_distributions(
    samples: Counter[int], exact: dict[int, Fraction]
) -> None:
    no_explosions = odds_of(sword_doc(False)).combatants["bo"].damage  # nor Strength
    assert rejects(samples, no_explosions)
    plus_one = {k + 1 if k else 0: p for k, p in exact.items()}  # one more on every hit
    assert rejects(samples, plus_one)
    assert not rejects(samples, exact)


def test_P_SK_1_is_decided_once_by_value_then_rolled() -> None:
    # Decide (every refusal, the weapon, EV, the dice) needs no die; the base keeps the
    # decision per (state, action) by value, with no memo of the ruleset's own.
    d = doc(
        who("ana", agility=2, skills={"dueling": 1}, weapons=[{"name": "sword", "dice": "1d8"}]),
        who("bo", (1, 0), ev=12, av=1),
        actions=[act("ana", "attack", "bo")],
    )
    ruleset, state, action = state_and_action(d)
    decision = decided(ruleset, state, action)
    assert isinstance(decision, Attack)
    assert (decision.need, decision.against, decision.parts, decision.sizes) == (
        12,
        "EV 12",
        (("agility", 2), ("dueling", 1)),
        (8,),
    )
    equal = dataclasses.replace(state, combatants=dict(state.combatants))
    assert equal == state and equal is not state
    assert decided(ruleset, equal, action) is decision
    assert set(vars(ruleset)) == {"options"}  # the memo is the process's, not the ruleset's
    events = roll_all(ruleset, state, decision, GivenDice({"attack": (10,), "damage": (5,)}, None))
    assert [type(e).__name__ for e in events] == [
        "APSpent",
        "ActionUsed",
        "AttackRolled",
        "Attempted",
        "DamageRolled",
        "Soaked",
        "Eroded",
        "Harmed",
    ]
    assert fold(state, events).get("bo").hp == 20 - (5 + 1 - 1)
