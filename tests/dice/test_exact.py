"""The exact enumerator: every face of every die, exact fractions, truncation, limits."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.dice.budget import Budget
from fracas.dice.exact import DEFAULT_MAX_ROLLS, Distribution, enumerate_exact
from fracas.dice.notation import parse
from fracas.dice.source import Dice
from fracas.errors import DiceError, FracasError


def icepool_dist(die: Any) -> dict[Any, Fraction]:
    """An icepool die as ``{outcome: exact probability}``."""
    den = die.denominator()
    return {outcome: Fraction(q, den) for outcome, q in die.items() if q}


def total(dist: Distribution[Any]) -> Fraction:
    return sum(dist.outcomes.values(), Fraction(0)) + dist.truncated


def two_d6(dice: Dice) -> int:
    return dice.roll(6, "a") + dice.roll(6, "b")


def exploding_d6(dice: Dice) -> int:
    out = face = dice.roll(6, "d")
    while face == 6:
        face = dice.roll(6, "d")
        out += face
    return out


def test_2d6_exact() -> None:
    d = enumerate_exact(two_d6)
    assert d.outcomes == {s: Fraction(6 - abs(s - 7), 36) for s in range(2, 13)}
    assert d.paths == 36
    assert d.truncated == 0 and d.truncated_paths == 0
    assert total(d) == 1


def test_2d6_equals_icepool() -> None:
    assert enumerate_exact(two_d6).outcomes == icepool_dist(2 @ icepool.d6)


def test_no_dice_is_one_certain_path() -> None:
    d = enumerate_exact(lambda dice: "calm")
    assert d.outcomes == {"calm": Fraction(1)}
    assert d.paths == 1


def test_every_path_visited_exactly_once() -> None:
    seen: list[tuple[int, int, int]] = []

    def fn(dice: Dice) -> int:
        faces = (dice.roll(2, "a"), dice.roll(3, "b"), dice.roll(4, "c"))
        seen.append(faces)
        return 0

    d = enumerate_exact(fn)
    assert sorted(seen) == list(itertools.product(range(1, 3), range(1, 4), range(1, 5)))
    assert len(seen) == len(set(seen)) == d.paths == 24


def test_paths_of_different_lengths_weigh_what_they_should() -> None:
    # A d2: on 1 stop; on 2 roll a d6 as well. 1 has 1/2, each 2+k has 1/12.
    def fn(dice: Dice) -> int:
        first = dice.roll(2, "a")
        return 0 if first == 1 else dice.roll(6, "b")

    d = enumerate_exact(fn)
    assert d.outcomes == {0: Fraction(1, 2), **{k: Fraction(1, 12) for k in range(1, 7)}}
    assert d.paths == 7
    assert total(d) == 1


def test_die_sizes_may_depend_on_earlier_faces() -> None:
    # A d3 chooses the size of the next die: the mix is exact.
    def fn(dice: Dice) -> int:
        size = dice.roll(3, "size") * 2  # d2, d4 or d6
        return dice.roll(size, "x")

    d = enumerate_exact(fn)
    expected = icepool_dist(icepool.d3.map(lambda s: icepool.Die(range(1, 2 * s + 1))))
    assert d.outcomes == expected
    assert d.paths == 2 + 4 + 6


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=8), min_size=1, max_size=4))
def test_sum_of_dice_equals_icepool(sizes: list[int]) -> None:
    def fn(dice: Dice) -> int:
        return sum(dice.roll(s, f"d{i}") for i, s in enumerate(sizes))

    d = enumerate_exact(fn)
    pool = icepool.Die([0])
    paths = 1
    for s in sizes:
        pool = pool + icepool.Die(range(1, s + 1))
        paths *= s
    assert d.outcomes == icepool_dist(pool)
    assert d.paths == paths
    assert total(d) == 1


# --- given dice condition the result ----------------------------------------------------


def test_a_given_die_conditions_the_result() -> None:
    d = enumerate_exact(two_d6, given={"a": [3]})
    assert d.outcomes == {3 + k: Fraction(1, 6) for k in range(1, 7)}
    assert d.paths == 6


def test_all_dice_given_is_one_path() -> None:
    d = enumerate_exact(two_d6, given={"a": [3], "b": [5]})
    assert d.outcomes == {8: Fraction(1)}
    assert d.paths == 1


def test_given_dice_match_by_short_label() -> None:
    def fn(dice: Dice) -> tuple[int, int]:
        return dice.roll(20, "attack"), dice.roll(20, "defend", of="bo")

    d = enumerate_exact(fn, given={"defend": [17]})
    assert d.outcomes == {(a, 17): Fraction(1, 20) for a in range(1, 21)}


def test_given_list_fixes_the_first_explosions() -> None:
    # 6 then 2: the exploding die is fixed at 8 whatever else.
    d = enumerate_exact(exploding_d6, given={"d": [6, 2]})
    assert d.outcomes == {8: Fraction(1)}
    # 6 given, the rest enumerated: 6 + an exploding d6.
    d = enumerate_exact(exploding_d6, given={"d": [6]}, max_rolls=5)
    free = enumerate_exact(exploding_d6, max_rolls=5)
    assert d.outcomes == {6 + k: p for k, p in free.outcomes.items()}
    assert d.truncated == free.truncated


def test_a_given_die_out_of_range_is_refused() -> None:
    with pytest.raises(DiceError) as exc:
        enumerate_exact(two_d6, given={"a": [7]})
    assert exc.value.code == "die_out_of_range"


def test_a_given_die_no_path_rolls_is_refused() -> None:
    with pytest.raises(DiceError) as exc:
        enumerate_exact(two_d6, given={"c": [2]})
    assert exc.value.code == "unused_die"


def test_a_given_list_longer_than_any_path_is_refused() -> None:
    with pytest.raises(DiceError) as exc:
        enumerate_exact(two_d6, given={"a": [2, 3]})
    assert exc.value.code == "unused_die"


def test_a_given_list_some_paths_use_is_accepted() -> None:
    # Only the paths that explode take the second value.
    d = enumerate_exact(exploding_d6, given={"d": [6, 6]}, max_rolls=5)
    assert min(d.outcomes) == 13


# --- truncation of exploding dice ----------------------------------------------------------


@pytest.mark.parametrize("depth", [1, 2, 3, 5, 8])
def test_exploding_d6_truncated_mass(depth: int) -> None:
    d = enumerate_exact(exploding_d6, max_rolls=depth)
    # Only the path of `depth` sixes reaches a further roll.
    assert d.truncated == Fraction(1, 6**depth)
    assert d.truncated_paths == 1
    assert d.depth == depth
    assert sum(d.outcomes.values(), Fraction(0)) + d.truncated == 1
    assert d.paths == 5 * depth


@pytest.mark.parametrize("depth", [1, 2, 3, 5, 8])
def test_exploding_d6_equals_icepool(depth: int) -> None:
    d = enumerate_exact(exploding_d6, max_rolls=depth)
    # icepool's depth counts the extra dice; at its last die a 6 stays a 6. Our cut
    # path (depth sixes) is icepool's outcome 6 * depth and only that outcome.
    theirs = icepool_dist(icepool.d6.explode(depth=depth - 1))
    assert theirs.pop(6 * depth) == d.truncated
    assert d.outcomes == theirs


@pytest.mark.parametrize("depth", [2, 4])
def test_notation_exploding_die_equals_icepool(depth: int) -> None:
    expr = parse("1d6!")
    d = enumerate_exact(lambda dice: expr.roll(dice, "dmg"), max_rolls=depth)
    theirs = icepool_dist(icepool.d6.explode(depth=depth - 1))
    assert theirs.pop(6 * depth) == d.truncated
    assert d.outcomes == theirs


def test_default_depth_is_reported() -> None:
    d = enumerate_exact(exploding_d6)
    assert d.depth == DEFAULT_MAX_ROLLS
    assert d.truncated == Fraction(1, 6**DEFAULT_MAX_ROLLS)


def test_two_exploding_dice_truncated_mass_is_exact() -> None:
    # Each path is cut at 4 rolls: the lost mass is P(a path needs a fifth roll).
    def fn(dice: Dice) -> int:
        return exploding_d6(dice) + exploding_d6(dice)

    d = enumerate_exact(fn, max_rolls=4)
    # Brute force over all 6^4 prefixes: a prefix is cut if its first 4 faces do not
    # finish both dice.
    cut = 0
    for faces in itertools.product(range(1, 7), repeat=4):
        finished = 0
        for face in faces:
            if face != 6:
                finished += 1
                if finished == 2:
                    break
        else:
            cut += 1
    assert d.truncated == Fraction(cut, 6**4)
    assert sum(d.outcomes.values(), Fraction(0)) + d.truncated == 1


# --- dice declared irrelevant -------------------------------------------------------------


def test_irrelevant_dice_are_not_branched_on() -> None:
    asked: list[int] = []

    def fn(dice: Dice) -> int:
        attack = dice.roll(20, "attack")
        asked.append(dice.roll(3, "ammo"))  # bookkeeping only: not in the result
        return attack

    full = enumerate_exact(fn)
    assert full.paths == 60
    asked.clear()
    fast = enumerate_exact(fn, irrelevant=frozenset({"ammo"}))
    assert fast.paths == 20
    assert set(asked) == {1}
    assert fast.outcomes == full.outcomes == {a: Fraction(1, 20) for a in range(1, 21)}


def test_a_given_irrelevant_die_is_still_given() -> None:
    def fn(dice: Dice) -> tuple[int, int]:
        return dice.roll(2, "attack"), dice.roll(3, "ammo")

    d = enumerate_exact(fn, given={"ammo": [3]}, irrelevant=frozenset({"ammo"}))
    assert d.outcomes == {(1, 3): Fraction(1, 2), (2, 3): Fraction(1, 2)}


# --- limits -----------------------------------------------------------------------------


def _four_d20(dice: Dice) -> int:
    return sum(dice.roll(20, f"d{i}") for i in range(4))


def test_too_many_paths() -> None:
    with pytest.raises(FracasError) as exc:
        enumerate_exact(_four_d20, max_paths=1000)
    assert exc.value.code == "too_many_paths"
    assert "1,000" in exc.value.message


@pytest.mark.parametrize(("limit", "ok"), [(36, True), (35, False)])
def test_max_paths_boundary(limit: int, ok: bool) -> None:
    if ok:
        assert enumerate_exact(two_d6, max_paths=limit).paths == 36
    else:
        with pytest.raises(FracasError) as exc:
            enumerate_exact(two_d6, max_paths=limit)
        assert exc.value.code == "too_many_paths"


def test_result_types_are_kept_as_keys() -> None:
    d = enumerate_exact(lambda dice: (dice.roll(2, "a") == 2, dice.roll(2, "b")))
    assert d.outcomes == {(b, k): Fraction(1, 4) for b in (False, True) for k in (1, 2)}
    assert d.paths == 4


def test_hopeless_enumeration_is_foreseen_early() -> None:
    """7d20 has 1.28e9 paths: after 1,000 paths the enumerator estimates the total
    (Knuth's random descents, 100 of them at this first look) and gives up, not after
    max_paths paths."""
    seen: list[int] = []

    def seven_d20(dice: Dice) -> int:
        seen.append(1)
        return sum(dice.roll(20, "a") for _ in range(7))

    with pytest.raises(FracasError) as info:
        enumerate_exact(seven_d20)
    assert info.value.code == "too_many_paths"
    # Every descent of a uniform tree weighs exactly 20**7: the estimate is exact here.
    assert "about 1,280,000,000 by estimate" in info.value.message
    assert len(seen) == 1_000 + 100


def test_feasible_enumeration_is_not_refused_by_the_estimate() -> None:
    """4d20 (160,000 paths) passes the estimate at 20,000 paths and finishes."""
    d = enumerate_exact(lambda dice: sum(dice.roll(20, "a") for _ in range(4)))
    assert d.paths == 160_000
    assert sum(d.outcomes.values()) == 1


def test_cut_paths_count_against_the_path_budget() -> None:
    """Three d20s cut at two rolls: every one of the 400 paths is cut. They count, or an
    action rolling far more dice than the depth would never be refused."""

    def three_d20(dice: Dice) -> int:
        return sum(dice.roll(20, f"d{i}") for i in range(3))

    with pytest.raises(FracasError) as info:
        enumerate_exact(three_d20, max_rolls=2, max_paths=100)
    assert info.value.code == "too_many_paths"
    assert "d0, d1" in info.value.message  # the first rolls, to give


def test_budget_cancel_hook_stops_the_enumeration() -> None:
    looks: list[int] = []

    def cancel() -> bool:
        looks.append(1)
        return len(looks) > 2

    with pytest.raises(FracasError) as info:
        enumerate_exact(_four_d20, budget=Budget(None, cancel))
    assert info.value.code == "cancelled"
    assert len(looks) == 3


def test_budget_time_runs_out() -> None:
    with pytest.raises(FracasError) as info:
        enumerate_exact(_four_d20, max_paths=10**9, budget=Budget(0.0))
    assert info.value.code == "too_slow"
    assert "d0, d1, d2" in info.value.message
