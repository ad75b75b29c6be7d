"""Dice sources: labels, given dice matched by label, seeded dice (README, "Dice")."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.dice.source import Dice, GivenDice, RandomDice, Roll, label_keys, label_of
from fracas.errors import DiceError, FracasError


class _Scripted:
    """A fallback that answers from a fixed list and records what it was asked."""

    def __init__(self, faces: list[int]) -> None:
        self.faces = list(faces)
        self.asked: list[tuple[int, str, str | None, int | None]] = []

    def roll(self, sides: int, label: str, *, of: str | None = None, n: int | None = None) -> int:
        self.asked.append((sides, label, of, n))
        return self.faces.pop(0)


def _code(exc: pytest.ExceptionInfo[DiceError]) -> str:
    return exc.value.code


# --- labels -----------------------------------------------------------------------


def test_label_of_spells_every_form() -> None:
    assert label_of("attack") == "attack"
    assert label_of("defend", of="bo") == "defend:bo"
    assert label_of("attack", n=2) == "attack:2"
    assert label_of("defend", of="bo", n=2) == "defend:bo:2"


def test_label_keys_most_specific_first() -> None:
    assert label_keys("attack", None, None) == ("attack",)
    assert label_keys("defend", "bo", None) == ("defend:bo", "defend")
    assert label_keys("attack", None, 3) == ("attack:3", "attack")
    assert label_keys("defend", "bo", 2) == ("defend:bo:2", "defend:bo", "defend:2", "defend")


# --- given dice matched by label ---------------------------------------------------


def test_full_label_is_used() -> None:
    dice = GivenDice({"defend:bo": [7]}, None)
    assert dice.roll(20, "defend", of="bo") == 7
    dice.check_used()
    assert dice.rolls == [Roll("defend:bo", 20, 7)]


def test_short_label_stands_for_the_only_such_roll() -> None:
    dice = GivenDice({"defend": [13]}, None)
    assert dice.roll(20, "defend", of="bo") == 13
    dice.check_used()
    # The record keeps the full label, whatever key the value came from.
    assert dice.rolls == [Roll("defend:bo", 20, 13)]


def test_short_label_for_a_numbered_roll() -> None:
    dice = GivenDice({"attack": [4]}, None)
    assert dice.roll(20, "attack", n=1) == 4
    dice.check_used()
    assert dice.rolls[0].label == "attack:1"


def test_full_label_wins_over_short_label() -> None:
    dice = GivenDice({"defend": [2], "defend:bo": [19]}, _Scripted([]))
    assert dice.roll(20, "defend", of="bo") == 19


def test_a_list_is_consumed_in_order() -> None:
    dice = GivenDice({"damage": [1, 6, 3, 4]}, None)
    faces = [dice.roll(6, "damage") for _ in range(4)]
    assert faces == [1, 6, 3, 4]
    dice.check_used()
    assert [r.value for r in dice.rolls] == [1, 6, 3, 4]


def test_a_list_for_one_combatant_is_consumed_in_order() -> None:
    dice = GivenDice({"defend:bo": [3, 17]}, None)
    assert [dice.roll(20, "defend", of="bo") for _ in range(2)] == [3, 17]
    dice.check_used()


def test_labels_are_independent_queues() -> None:
    dice = GivenDice({"attack": [11], "defend:bo": [5], "defend:cy": [6]}, None)
    assert dice.roll(20, "defend", of="cy") == 6
    assert dice.roll(20, "attack") == 11
    assert dice.roll(20, "defend", of="bo") == 5
    dice.check_used()


def test_unnamed_rolls_go_to_the_fallback_with_their_label() -> None:
    fallback = _Scripted([2, 9])
    dice = GivenDice({"attack": [20]}, fallback)
    assert dice.roll(20, "attack") == 20
    assert dice.roll(3, "ammo") == 2
    assert dice.roll(20, "defend", of="bo") == 9
    assert fallback.asked == [(3, "ammo", None, None), (20, "defend", "bo", None)]
    dice.check_used()
    assert dice.rolls == [Roll("attack", 20, 20), Roll("ammo", 3, 2), Roll("defend:bo", 20, 9)]


def test_a_list_shorter_than_the_rolls_falls_back_for_the_rest() -> None:
    dice = GivenDice({"attack": [15]}, _Scripted([4]))
    assert [dice.roll(20, "attack"), dice.roll(20, "attack")] == [15, 4]
    dice.check_used()


@pytest.mark.parametrize(("sides", "value"), [(20, 0), (20, 21), (6, 7), (4, -1)])
def test_die_out_of_range(sides: int, value: int) -> None:
    dice = GivenDice({"attack": [value]}, RandomDice(1))
    with pytest.raises(DiceError) as exc:
        dice.roll(sides, "attack")
    assert _code(exc) == "die_out_of_range"
    assert repr(value) in exc.value.message and f"d{sides}" in exc.value.message


def test_faces_on_the_edges_are_in_range() -> None:
    dice = GivenDice({"a": [1], "b": [20]}, None)
    assert (dice.roll(20, "a"), dice.roll(20, "b")) == (1, 20)
    dice.check_used()


def test_unused_die_never_rolled() -> None:
    dice = GivenDice({"attack": [10], "crit": [3]}, RandomDice(1))
    dice.roll(20, "attack")
    with pytest.raises(DiceError) as exc:
        dice.check_used()
    assert _code(exc) == "unused_die"
    assert "'crit'" in exc.value.message and "attack" in exc.value.message


def test_unused_die_too_many_values() -> None:
    dice = GivenDice({"attack": [10, 12]}, RandomDice(1))
    dice.roll(20, "attack")
    with pytest.raises(DiceError) as exc:
        dice.check_used()
    assert _code(exc) == "unused_die"
    assert "2 values" in exc.value.message


def test_unused_die_when_nothing_rolls() -> None:
    dice = GivenDice({"attack": [10]}, RandomDice(1))
    with pytest.raises(DiceError) as exc:
        dice.check_used()
    assert _code(exc) == "unused_die"
    assert "no dice" in exc.value.message


def test_ambiguous_short_label() -> None:
    dice = GivenDice({"defend": [5, 6]}, None)
    dice.roll(20, "defend", of="bo")
    dice.roll(20, "defend", of="cy")
    with pytest.raises(DiceError) as exc:
        dice.check_used()
    assert _code(exc) == "ambiguous_die_label"
    assert "defend:bo" in exc.value.message and "defend:cy" in exc.value.message


def test_short_label_is_ambiguous_even_when_its_values_ran_out() -> None:
    dice = GivenDice({"defend": [5]}, RandomDice(3))
    dice.roll(20, "defend", of="bo")
    dice.roll(20, "defend", of="cy")  # the fallback answers, but the label matched twice
    with pytest.raises(DiceError) as exc:
        dice.check_used()
    assert _code(exc) == "ambiguous_die_label"


def test_missing_die_without_fallback() -> None:
    dice = GivenDice({"attack": [10]}, None)
    dice.roll(20, "attack")
    with pytest.raises(DiceError) as exc:
        dice.roll(20, "defend", of="bo")
    assert _code(exc) == "missing_die"
    assert "'defend:bo'" in exc.value.message and "d20" in exc.value.message


def test_missing_die_when_the_list_runs_out() -> None:
    dice = GivenDice({"attack": [10]}, None)
    dice.roll(20, "attack")
    with pytest.raises(DiceError) as exc:
        dice.roll(20, "attack")
    assert _code(exc) == "missing_die"


def test_dice_errors_are_fracas_errors() -> None:
    assert issubclass(DiceError, FracasError)


def test_reset_serves_the_same_given_faces_again() -> None:
    dice = GivenDice({"attack": [8, 9]}, None)
    first = [dice.roll(20, "attack"), dice.roll(20, "attack")]
    dice.reset()
    assert dice.rolls == []
    assert [dice.roll(20, "attack"), dice.roll(20, "attack")] == first
    dice.check_used()


# --- seeded dice --------------------------------------------------------------------


def _faces(dice: Dice, count: int) -> list[int]:
    sizes = (4, 6, 8, 20, 3)
    return [dice.roll(sizes[i % len(sizes)], "x") for i in range(count)]


@settings(max_examples=50)
@given(st.integers(min_value=0, max_value=2**64))
def test_same_seed_same_faces(seed: int) -> None:
    assert _faces(RandomDice(seed), 200) == _faces(RandomDice(seed), 200)


def test_different_seeds_differ() -> None:
    assert _faces(RandomDice(1), 200) != _faces(RandomDice(2), 200)


def test_random_dice_report_their_seed() -> None:
    dice = RandomDice()
    assert isinstance(dice.seed, int)
    assert _faces(RandomDice(dice.seed), 50) == _faces(dice, 50)


@settings(max_examples=50)
@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=1, max_value=100))
def test_random_faces_are_in_range(seed: int, sides: int) -> None:
    dice = RandomDice(seed)
    assert all(1 <= dice.roll(sides, "x") <= sides for _ in range(100))


def test_random_dice_cover_every_face() -> None:
    dice = RandomDice(5)
    assert {dice.roll(6, "x") for _ in range(500)} == {1, 2, 3, 4, 5, 6}


def test_state_restores_the_stream() -> None:
    dice = RandomDice(11)
    saved = dice.getstate()
    first = _faces(dice, 20)
    dice.setstate(saved)
    assert _faces(dice, 20) == first


def test_seeded_fallback_through_given_dice() -> None:
    plain = _faces(RandomDice(42), 10)
    given = GivenDice({}, RandomDice(42))
    assert _faces(given, 10) == plain
    assert [r.value for r in given.rolls] == plain
