"""A free roll's notation, read as d20 reads it, with fracas's older spellings kept.

Free rolls (the ``roll`` action, ``fracas roll``, ``fracas odds --roll``) read d20's
notation (:mod:`fracas.dice.d20_tree`). A notation the older parser
(:mod:`fracas.dice.notation`) also reads the same way (``2d6+1``, ``2d20kh1 - 1d4``,
``3d8!``) is rolled and shown as before, so the encounters stored before this change
replay to the very same events (a stored log's events are compared on replay): on those
the two meanings agree, but for ``!`` (fracas's own: the explosion adds into its die,
before a keep), which d20 does not write (d20 writes ``e6``).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache

from fracas.dice import notation
from fracas.dice.d20_odds import DEPTH, FreeOdds, free_odds
from fracas.dice.d20_roll import FreeRoll, roll_free
from fracas.dice.d20_tree import Node, parse_free
from fracas.dice.source import Dice, RandomDice
from fracas.errors import FracasError

__all__ = ["free_odds_of", "is_legacy", "parse_notation", "roll_json", "roll_notation", "shown"]


@lru_cache(maxsize=256)
def is_legacy(text: str) -> bool:
    """Whether ``text`` is rolled the older way: the older parser reads it, and d20 reads
    it too (no space the older parser deleted joins two numbers: ``1d2 0``) or it
    explodes with ``!``."""
    try:
        notation.parse(text)
    except FracasError:
        return False
    if "!" in text:
        return True
    try:
        parse_free(text)
    except FracasError:
        return False
    return True


@lru_cache(maxsize=256)
def parse_notation(text: str) -> Node:
    """d20's reading of ``text`` (cached: a log shows each roll again and again).

    Raises:
        FracasError: see :func:`fracas.dice.d20_tree.parse_free`.
    """
    return parse_free(text)


def roll_notation(text: str, dice: Dice, label: str) -> FreeRoll:
    """Roll a free notation (d20's) with every die from ``dice``."""
    return roll_free(parse_notation(text), text, dice, label)


class _Replayed:
    """The faces of a logged roll, in order."""

    def __init__(self, faces: Sequence[int]) -> None:
        self._faces = list(faces)
        self._at = 0

    def roll(self, sides: int, label: str, *, of: str | None = None, n: int | None = None) -> int:
        face = self._faces[self._at]
        self._at += 1
        return face


def shown(text: str, faces: Sequence[int]) -> str | None:
    """A logged roll as d20 shows it (``4d6kh3 (5, 3, 1 dropped, 6)``), rolled again from
    its faces; None where the faces do not fit the notation (an edited log)."""
    try:
        return roll_free(parse_notation(text), text, _Replayed(faces), "roll").shown
    except (FracasError, IndexError):
        return None


def roll_json(text: str, seed: int | None) -> dict[str, object]:
    """``fracas roll --json``: ``{"notation", "total", "dice", "shown", "seed"}``."""
    dice = RandomDice(seed)
    out = roll_notation(text, dice, "roll")
    return {
        "notation": out.notation,
        "total": out.total,
        "dice": [
            {"die": d.die, "rolls": list(d.rolls), "value": _num(d.value), "kept": d.kept}
            for d in out.dice
        ],
        "shown": out.shown,
        "seed": dice.seed,
    }


def _num(v: int | Fraction) -> int | float:
    return v if isinstance(v, int) else float(v)


def free_odds_of(text: str, depth: int | None = None) -> FreeOdds:
    """The exact odds of a free notation (``fracas odds --roll``); ``depth``: new dice
    an exploding die's chain may add before it is cut (default
    :data:`~fracas.dice.d20_odds.DEPTH`)."""
    return free_odds(parse_notation(text), text, DEPTH if depth is None else depth)
