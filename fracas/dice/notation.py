"""Dice expressions for data tables: ``2d6+1``, exploding ``1d6!``, ``2d20kl1``.

A small parser of our own over the same dice source as everything else: an
expression rolls each die with ``dice.roll(sides, label)``, so it is random,
given, replayed or enumerated like any other roll.

Grammar (spaces ignored, case-insensitive)::

    expr  := term (("+" | "-") term)*
    term  := INT | [INT] "d" INT ["!"] [("kh" | "kl") INT]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from fracas.dice.source import Dice
from fracas.errors import FracasError

__all__ = ["MAX_SIDES", "Constant", "DiceTerm", "Expression", "parse"]

_TERM = re.compile(r"(\d*)d(\d+)(!?)(?:(kh|kl)(\d+))?|(\d+)")
_MAX_COUNT = 100
_MAX_SIDES = 1000
MAX_SIDES = _MAX_SIDES
"""The largest die a notation may roll."""


@dataclass(frozen=True, slots=True)
class Constant:
    """A flat number."""

    value: int

    def roll(self, dice: Dice, label: str, of: str | None = None) -> int:
        return self.value

    def bounds(self) -> tuple[int, int | None]:
        return self.value, self.value

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True, slots=True)
class DiceTerm:
    """``count`` dice of ``sides`` faces, maybe exploding, maybe keeping some."""

    count: int
    sides: int
    explode: bool = False
    keep: str | None = None
    """``"kh"`` keeps the highest ``keep_n``, ``"kl"`` the lowest."""
    keep_n: int = 0

    def roll(self, dice: Dice, label: str, of: str | None = None) -> int:
        if self.count == 1 and not self.explode:
            return dice.roll(self.sides, label, of=of)
        faces = [self._one(dice, label, of) for _ in range(self.count)]
        if self.keep == "kh":
            faces = sorted(faces, reverse=True)[: self.keep_n]
        elif self.keep == "kl":
            faces = sorted(faces)[: self.keep_n]
        return sum(faces)

    def _one(self, dice: Dice, label: str, of: str | None) -> int:
        total = face = dice.roll(self.sides, label, of=of)
        # An explosion's extra die is rolled right after the die that exploded.
        while self.explode and face == self.sides:
            face = dice.roll(self.sides, label, of=of)
            total += face
        return total

    def bounds(self) -> tuple[int, int | None]:
        n = self.keep_n if self.keep else self.count
        return n, None if self.explode else n * self.sides

    def __str__(self) -> str:
        keep = f"{self.keep}{self.keep_n}" if self.keep else ""
        return f"{self.count}d{self.sides}{'!' if self.explode else ''}{keep}"


@dataclass(frozen=True, slots=True)
class Expression:
    """A signed sum of terms. ``str(parse(s))`` is the canonical spelling of ``s``."""

    terms: tuple[tuple[int, Constant | DiceTerm], ...]

    def roll(self, dice: Dice, label: str, of: str | None = None) -> int:
        """Roll every die of the expression under ``label`` and return the total."""
        if len(self.terms) == 1:
            sign, term = self.terms[0]
            return sign * term.roll(dice, label, of)
        return sum(sign * term.roll(dice, label, of) for sign, term in self.terms)

    def bounds(self) -> tuple[int | None, int | None]:
        """Lowest and highest total (``None``: unbounded that way, an exploding die)."""
        low: int | None = 0
        high: int | None = 0
        for sign, term in self.terms:
            lo, hi = term.bounds()
            if sign > 0:
                low = None if low is None else low + lo
                high = None if high is None or hi is None else high + hi
            else:  # a subtracted exploding die is unbounded below, not above
                low = None if low is None or hi is None else low - hi
                high = None if high is None else high - lo
        return low, high

    def __str__(self) -> str:
        out = ""
        for i, (sign, term) in enumerate(self.terms):
            if i == 0:
                out = ("-" if sign < 0 else "") + str(term)
            else:
                out += ("+" if sign > 0 else "-") + str(term)
        return out


def parse(text: str) -> Expression:
    """Parse a dice expression.

    Raises:
        FracasError: ``bad_dice_expression`` quoting the text and the grammar.

    >>> str(parse("2D6 + 1")), str(parse("d6!")), str(parse("2d20kl1"))
    ('2d6+1', '1d6!', '2d20kl1')
    """
    src = text.replace(" ", "").lower()
    pos = 0
    sign = 1
    terms: list[tuple[int, Constant | DiceTerm]] = []
    if src.startswith(("-", "+")):
        sign = -1 if src[0] == "-" else 1
        pos = 1
    while True:
        m = _TERM.match(src, pos)
        if m is None or m.end() == pos:
            raise _bad(text, f"expected a term at {src[pos:] or 'the end'!r}")
        terms.append((sign, _term(text, m)))
        pos = m.end()
        if pos == len(src):
            return Expression(tuple(terms))
        if src[pos] not in "+-":
            raise _bad(text, f"unexpected {src[pos:]!r}")
        sign = 1 if src[pos] == "+" else -1
        pos += 1


def _term(text: str, m: re.Match[str]) -> Constant | DiceTerm:
    count_s, sides_s, bang, keep, keep_s, const = m.groups()
    if const is not None:
        return Constant(_int(text, const))
    count = _int(text, count_s) if count_s else 1
    sides = _int(text, sides_s)
    if not 1 <= count <= _MAX_COUNT:
        raise _bad(text, f"dice count {count} is not in 1..{_MAX_COUNT}")
    if not 1 <= sides <= _MAX_SIDES:
        raise _bad(text, f"die size {sides} is not in 1..{_MAX_SIDES}")
    if bang and sides == 1:
        raise _bad(text, "a d1 cannot explode (it would never stop)")
    keep_n = _int(text, keep_s) if keep_s else 0
    if keep and not 1 <= keep_n <= count:
        raise _bad(text, f"keeps {keep_n} of {count} dice: keep 1..{count}")
    return DiceTerm(count, sides, bool(bang), keep, keep_n)


def _int(text: str, digits: str) -> int:
    try:
        return int(digits)
    except ValueError:  # more digits than int() converts (sys.get_int_max_str_digits)
        raise _bad(text, f"the number {digits[:12]}... has too many digits") from None


def _bad(text: str, why: str) -> FracasError:
    return FracasError(
        "bad_dice_expression",
        f"{text!r} is not a dice expression ({why}); write e.g. '2d6+1', '1d6!' or '2d20kl1'",
    )
