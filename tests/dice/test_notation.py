"""Dice notation: ``2d6+1``, ``1d6!``, ``2d20kl1``: parsing, spelling, bounds, exact values."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import icepool
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from fracas.dice.exact import enumerate_exact
from fracas.dice.notation import Constant, DiceTerm, Expression, parse
from fracas.dice.source import GivenDice
from fracas.errors import FracasError


def icepool_dist(die: Any) -> dict[Any, Fraction]:
    den = die.denominator()
    return {outcome: Fraction(q, den) for outcome, q in die.items() if q}


def exact(expr: Expression, max_rolls: int = 40) -> dict[int, Fraction]:
    return enumerate_exact(lambda dice: expr.roll(dice, "x"), max_rolls=max_rolls).outcomes


# --- spelling ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("2d6+1", "2d6+1"),
        ("2D6 + 1", "2d6+1"),
        ("d6", "1d6"),
        ("d6!", "1d6!"),
        ("1d6!", "1d6!"),
        ("2d20kl1", "2d20kl1"),
        ("2D20KH1", "2d20kh1"),
        ("4d6kh3-2", "4d6kh3-2"),
        ("+3", "3"),
        ("-1d4", "-1d4"),
        ("007", "7"),
        ("1d3 - 1d3 + 2", "1d3-1d3+2"),
        ("3d8!kl2", "3d8!kl2"),
    ],
)
def test_canonical_spelling(text: str, canonical: str) -> None:
    assert str(parse(text)) == canonical
    assert str(parse(canonical)) == canonical
    assert parse(canonical) == parse(text)


def test_parsed_structure() -> None:
    assert parse("2d20kl1+3") == Expression(
        ((1, DiceTerm(2, 20, False, "kl", 1)), (1, Constant(3)))
    )
    assert parse("-d6!") == Expression(((-1, DiceTerm(1, 6, True)),))


_terms = st.one_of(
    st.builds(Constant, st.integers(min_value=0, max_value=10**6)),
    st.integers(min_value=1, max_value=100).flatmap(
        lambda count: st.builds(
            DiceTerm,
            st.just(count),
            st.integers(min_value=2, max_value=1000),
            st.booleans(),
            st.sampled_from([None, "kh", "kl"]),
            st.integers(min_value=1, max_value=count),
        )
    ),
)


def _normal(term: Constant | DiceTerm) -> Constant | DiceTerm:
    if isinstance(term, DiceTerm) and term.keep is None:
        return DiceTerm(term.count, term.sides, term.explode)
    return term


_expressions = st.lists(
    st.tuples(st.sampled_from([1, -1]), _terms.map(_normal)), min_size=1, max_size=5
).map(lambda terms: Expression(tuple(terms)))


@settings(max_examples=200)
@given(_expressions)
def test_round_trip(expr: Expression) -> None:
    text = str(expr)
    assert parse(text) == expr
    assert str(parse(text)) == text


# --- bounds -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "bounds"),
    [
        ("2d6+1", (3, 13)),
        ("7", (7, 7)),
        ("2d20kl1", (1, 20)),
        ("4d6kh3", (3, 18)),
        ("2d6-1d4", (-2, 11)),
        ("1-1d4", (-3, 0)),
        ("1d6!", (1, None)),
        ("1d6!+2", (3, None)),
        ("2d6!kl1", (1, None)),
        ("-1d6!", (None, -1)),
        ("5-1d6!", (None, 4)),
        ("1d6!-1d6!", (None, None)),
    ],
)
def test_bounds(text: str, bounds: tuple[int | None, int | None]) -> None:
    assert parse(text).bounds() == bounds


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["+", "-"]),
            st.sampled_from(["1d4", "2d3", "1d6!", "3d4kh2", "2d6kl1", "1d3!", "2", "0"]),
        ),
        min_size=1,
        max_size=2,
    )
)
def test_bounds_hold_every_outcome(parts: list[tuple[str, str]]) -> None:
    expr = parse("".join(sign + term for sign, term in parts))
    low, high = expr.bounds()
    dice = sum(t.count for _, t in expr.terms if isinstance(t, DiceTerm))
    # Deep enough for every path without an explosion: the bounds are reached.
    outcomes = exact(expr, max_rolls=dice + 1)
    if low is not None:
        assert min(outcomes) == low
    if high is not None:
        assert max(outcomes) == high
    # An unbounded side is unbounded: deeper enumeration reaches further.
    deeper = exact(expr, max_rolls=dice + 3)
    if low is None:
        assert min(deeper) < min(outcomes)
    if high is None:
        assert max(deeper) > max(outcomes)


# --- exact values ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "sides", "keep"),
    [(2, 20, 1), (3, 6, 1), (3, 6, 2), (4, 6, 3), (4, 4, 2), (2, 6, 2), (5, 3, 2)],
)
def test_keep_highest_equals_icepool(count: int, sides: int, keep: int) -> None:
    ours = exact(parse(f"{count}d{sides}kh{keep}"))
    assert ours == icepool_dist(icepool.Die(range(1, sides + 1)).highest(count, keep))


@pytest.mark.parametrize(
    ("count", "sides", "keep"),
    [(2, 20, 1), (3, 6, 1), (3, 6, 2), (4, 6, 3), (4, 4, 2), (2, 6, 2), (5, 3, 2)],
)
def test_keep_lowest_equals_icepool(count: int, sides: int, keep: int) -> None:
    ours = exact(parse(f"{count}d{sides}kl{keep}"))
    assert ours == icepool_dist(icepool.Die(range(1, sides + 1)).lowest(count, keep))


def test_advantage_is_not_a_plain_d20() -> None:
    # The keep must matter: kh1 and kl1 of 2d20 differ from each other and from 1d20.
    kh, kl, plain = (exact(parse(s)) for s in ("2d20kh1", "2d20kl1", "1d20"))
    assert kh[20] == Fraction(39, 400) and kl[20] == Fraction(1, 400)
    assert plain[20] == Fraction(1, 20)


def test_sum_expression_equals_icepool() -> None:
    ours = exact(parse("2d6+1d4-2"))
    assert ours == icepool_dist(2 @ icepool.d6 + icepool.d4 - 2)
    ours = exact(parse("1d8-1d4+1"))
    assert ours == icepool_dist(icepool.d8 - icepool.d4 + 1)


def test_exploding_keep_equals_icepool() -> None:
    # Two exploding d3, keep the highest: every path cut at 6 rolls.
    ours = enumerate_exact(lambda dice: parse("2d3!kh1").roll(dice, "x"), max_rolls=6)
    boom = icepool.d3.explode(depth=10)
    theirs = icepool_dist(boom.highest(2, 1))
    # Outcomes below 7 never need more than 6 rolls along any path: equal exactly.
    small = {k: p for k, p in ours.outcomes.items() if k < 7}
    assert small == {k: p for k, p in theirs.items() if k < 7}


def test_every_die_is_rolled_under_the_label() -> None:
    dice = GivenDice({"dmg:bo": [6, 2, 5, 1]}, None)
    assert parse("1d6!+2d6kh1").roll(dice, "dmg", of="bo") == 6 + 2 + 5 + 0
    dice.check_used()
    assert [r.label for r in dice.rolls] == ["dmg:bo"] * 4


def test_explosion_rolls_right_after_its_die() -> None:
    dice = GivenDice({"x": [6, 6, 1, 3]}, None)
    assert parse("2d6!").roll(dice, "x") == 6 + 6 + 1 + 3
    dice.check_used()


# --- errors -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "d",
        "2d",
        "d0",
        "0d6",
        "101d6",
        "1d1001",
        "1d1!",
        "2d6kh3",
        "2d6kl0",
        "2d6k1",
        "2d6x",
        "2d6++1",
        "+",
        "-",
        "2d6+",
        "abc",
        "1.5",
        "1" * 5000,
        "1" * 5000 + "d6",
        "1d" + "9" * 5000,
        "2d6kh" + "1" * 5000,
    ],
)
def test_bad_expressions(text: str) -> None:
    with pytest.raises(FracasError) as exc:
        parse(text)
    assert exc.value.code == "bad_dice_expression"
    assert "2d6+1" in exc.value.message  # it shows what is valid


def test_error_quotes_the_text() -> None:
    with pytest.raises(FracasError) as exc:
        parse("3d6kh4")
    assert repr("3d6kh4") in exc.value.message
    assert "keep 1..3" in exc.value.message


_ALPHABET = "0123456789dDkKhHlL!+- x."


@settings(max_examples=400)
@given(st.one_of(st.text(), st.text(alphabet=_ALPHABET, max_size=30)))
@example("9" * 4400)
@example("1d" + "9" * 4400)
def test_any_text_parses_or_raises_fracas_error(text: str) -> None:
    try:
        expr = parse(text)
    except FracasError as exc:
        assert exc.code == "bad_dice_expression"
    else:
        # What parses spells itself canonically and parses back the same.
        assert parse(str(expr)) == expr
