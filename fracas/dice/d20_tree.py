"""Free dice notation as d20 writes it: ``4d6kh3``, ``(1d4+1)*2``, ``1d20 [fire]``.

The grammar is the ``d20`` package's (avrae's dice library, MIT): its lark grammar
parses the text, and the tree it gives is copied here into small frozen dataclasses
that fracas rolls over its own :class:`~fracas.dice.source.Dice` (so physical dice,
replay and seeded rolls work; d20 never calls ``random`` for us) and that the exact
odds read (:mod:`fracas.dice.d20_odds`).

Two things of d20 are not used: its parse cache (keyed on the text with its spaces
deleted, so after ``1d20`` it answers ``1d2 0`` with ``1d20``) and its roller.

The same meanings as d20 1.1.2 (``d20/expression.py``); where the numbers differ,
fracas is exact: a decimal such as ``1.5`` is the fraction 3/2, ``/`` divides exactly,
and the total is truncated toward zero as d20's ``int(total)``.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from fracas.errors import FracasError

with warnings.catch_warnings():  # lark-parser 0.9, d20's pin, imports sre_parse (deprecated)
    warnings.simplefilter("ignore", DeprecationWarning)
    import lark
    from d20 import diceast  # type: ignore[import-untyped]

__all__ = [
    "MAX_DICE",
    "MAX_ROLLS",
    "MAX_SIDES",
    "Annotated",
    "BinOp",
    "DiceN",
    "Literal",
    "Node",
    "NumSet",
    "Op",
    "Operated",
    "Paren",
    "Sel",
    "UnOp",
    "Value",
    "bad",
    "norm",
    "parse_free",
    "spelled",
]

MAX_DICE = 100
"""Dice one ``NdS`` may roll (the old notation's cap): a free roll cannot hang the table."""
MAX_SIDES = 1000
"""The largest die a free roll may name (the old notation's cap)."""
MAX_ROLLS = 1000
"""Dice one roll may roll in all, rerolls and explosions counted (d20's own cap)."""
MAX_TEXT = 200
"""Characters of a notation."""

Value = int | Fraction
"""A number of a roll: exact (d20 uses floats for ``/`` and decimals)."""

VALID = (
    "write e.g. '1d20+5', '4d6kh3', '2d20kl1', '8d6ro1', '1d6e6', '(1d4+1)*2', '4d6mi2', "
    "'1d20 [fire]'"
)


def norm(value: Value) -> Value:
    """A whole fraction as an int: totals print as d20's do."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return value.numerator
    return value


@dataclass(frozen=True, slots=True)
class Sel:
    """A selector: ``cat`` ``h`` / ``l`` (highest, lowest ``num``), ``<`` / ``>`` (below,
    above ``num``) or None (equal to ``num``)."""

    cat: str | None
    num: int

    def __str__(self) -> str:
        return f"{self.cat or ''}{self.num}"


@dataclass(frozen=True, slots=True)
class Op:
    """One operator on a set or dice: ``k p rr ro ra e mi ma`` with its selectors (d20
    merges ``k1k2`` into one ``k`` with two selectors, whose choices add up)."""

    op: str
    sels: tuple[Sel, ...]

    def __str__(self) -> str:
        return "".join(f"{self.op}{s}" for s in self.sels)


@dataclass(frozen=True, slots=True)
class Literal:
    """A number as written (``1.5`` exactly: 3/2)."""

    value: Value

    def __str__(self) -> str:
        v = self.value
        return str(v) if isinstance(v, int) else str(float(v))


@dataclass(frozen=True, slots=True)
class UnOp:
    """``-x`` or ``+x``."""

    op: str
    value: Node

    def __str__(self) -> str:
        return f"{self.op}{self.value}"


@dataclass(frozen=True, slots=True)
class BinOp:
    """``x op y``: ``+ - * / // %`` or a comparison (1 or 0), d20's order."""

    left: Node
    op: str
    right: Node

    def __str__(self) -> str:
        return f"{self.left} {self.op} {self.right}"


@dataclass(frozen=True, slots=True)
class Paren:
    """``(x)``: its members are ``x``'s (``(4d6)kh3`` keeps dice)."""

    value: Node

    def __str__(self) -> str:
        return f"({self.value})"


@dataclass(frozen=True, slots=True)
class NumSet:
    """``(x, y, ...)``: a set, each number one member (``(1d4, 1d6)kh1``)."""

    values: tuple[Node, ...]

    def __str__(self) -> str:
        inner = ", ".join(str(v) for v in self.values)
        return f"({inner},)" if len(self.values) == 1 else f"({inner})"


@dataclass(frozen=True, slots=True)
class DiceN:
    """``num`` dice of ``size`` faces; ``percent``: ``d%``, a d10 read as 0, 10, ... 90
    (d20's percentile die: ``randrange(0, 100, 10)``)."""

    num: int
    size: int
    percent: bool = False

    def face_value(self, face: int) -> int:
        """What a rolled face counts."""
        return (face - 1) * 10 if self.percent else face

    def faces(self) -> range:
        """What a die may count, lowest first."""
        return range(0, 100, 10) if self.percent else range(1, self.size + 1)

    def __str__(self) -> str:
        return f"{self.num}d{'%' if self.percent else self.size}"


@dataclass(frozen=True, slots=True)
class Operated:
    """Operators on dice (``4d6kh3``) or on a set (``(1d4, 1d6)kh1``)."""

    value: Node
    ops: tuple[Op, ...]

    def __str__(self) -> str:
        return f"{self.value}{''.join(str(o) for o in self.ops)}"


@dataclass(frozen=True, slots=True)
class Annotated:
    """A number with its notes (``1d20 [fire]``): they change nothing."""

    value: Node
    annotations: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.value} {''.join(self.annotations)}"


Node = Literal | UnOp | BinOp | Paren | NumSet | DiceN | Operated | Annotated


def bad(text: str, why: str, code: str = "bad_dice_expression") -> FracasError:
    """The one-line refusal of a notation: the text, what is wrong, what would do."""
    if code == "bad_dice_expression":
        return FracasError(code, f"{text!r} is not a dice expression ({why}); {VALID}")
    return FracasError(code, f"{text!r} cannot be rolled ({why}); {VALID}")


_BANG = re.compile(r"(\d*)[dD](\d+)!")
_UPPER = re.compile(r"(\d*)D(\d+|%)")


def spelled(text: str) -> str:
    """The text in d20's spelling: fracas's older free rolls wrote ``2D6`` and ``3d8!``
    (an exploding die, Roll20's ``!``), which d20 writes ``2d6`` and ``3d8e8``: new dice
    for each highest face, before any keep (so ``4d6!kh3`` keeps at most 18, as Roll20).
    Nothing else changes, and no space is removed."""
    if "!" in text:
        text = _BANG.sub(lambda m: f"{m[1]}d{m[2]}e{m[2]}", text)
    if "D" in text:
        text = _UPPER.sub(lambda m: f"{m[1]}d{m[2]}", text)
    return text


_NAMES = {
    "LPAR": "'('",
    "RPAR": "')'",
    "D": "'d'",
    "INTEGER": "a number",
    "DECIMAL": "a number",
    "DICE_VALUE": "a die size (a number or %)",
    "U_OP": "'+' or '-'",
    "A_OP": "'+' or '-'",
    "M_OP": "'*', '/', '//' or '%'",
    "COMP_OPERATOR": "a comparison (== != < > <= >=)",
    "SET_OPERATOR": "k or p",
    "DICE_OPERATOR": "an operator (k p rr ro ra e mi ma)",
    "SELTYPE": "h, l, < or >",
    "ANNOTATION": "a note in [brackets]",
    "COMMA": "','",
    "$END": "the end",
}


def _expected(names: Any) -> str:
    out: list[str] = []
    for name in sorted(str(n) for n in names):
        if name.startswith("_") or name.startswith("__"):
            continue
        word = _NAMES.get(name, name.lower())
        if word not in out:
            out.append(word)
    return ", ".join(out) or "a dice expression"


def parse_free(text: str) -> Node:
    """Parse a free roll's notation with d20's grammar, within fracas's caps.

    Raises:
        FracasError: ``bad_dice_expression`` (the column and what would be valid there),
            ``dice_limit`` (a cap named), ``bad_roll`` (d20 would refuse it when
            rolled: a d0, ``mi``/``ma`` with h/l/</>, a reroll or explosion of every face).

    >>> str(parse_free("4d6kh3 + 2")), str(parse_free("(1d4, 1d6)kh1"))
    ('4d6kh3 + 2', '(1d4, 1d6)kh1')
    """
    if not text.strip():
        raise bad(text, "it is empty")
    if len(text) > MAX_TEXT:
        raise bad(text, f"longer than {MAX_TEXT} characters", "dice_limit")
    src = spelled(text)  # the columns below are of src (the same as text but for ! and D)
    try:
        tree = diceast.parser.parse(src, start="expr")
    except lark.UnexpectedToken as ut:
        exc: Any = ut  # lark's errors are untyped where d20 pins it (lark-parser 0.9)
        col = exc.column if isinstance(exc.column, int) else len(src) + 1
        got = str(exc.token) or "the end"
        raise bad(text, f"at column {col}, {got!r}: expected {_expected(exc.expected)}") from None
    except lark.UnexpectedCharacters as uc:
        exc = uc
        raise bad(
            text,
            f"at column {exc.column}, {src[exc.pos_in_stream]!r}: "
            f"expected {_expected(exc.allowed)}",
        ) from None
    except lark.exceptions.LarkError as exc:  # anything else the parser refuses
        raise bad(text, str(exc).splitlines()[0]) from None
    node = _copy(text, tree.roll)
    _check(text, node)
    return node


def _copy(text: str, n: Any) -> Node:
    """d20's tree as fracas's frozen one."""
    if isinstance(n, diceast.AnnotatedNumber):
        inner = _copy(text, n.value)
        return Annotated(inner, tuple(n.annotations)) if n.annotations else inner
    if isinstance(n, diceast.Literal):
        value: Value = n.value if isinstance(n.value, int) else Fraction(str(n.value))
        return Literal(norm(value))
    if isinstance(n, diceast.UnOp):
        return UnOp(n.op, _copy(text, n.value))
    if isinstance(n, diceast.BinOp):
        return BinOp(_copy(text, n.left), n.op, _copy(text, n.right))
    if isinstance(n, diceast.Parenthetical):
        return Paren(_copy(text, n.value))
    if isinstance(n, diceast.NumberSet):
        return NumSet(tuple(_copy(text, v) for v in n.values))
    if isinstance(n, diceast.OperatedSet):  # OperatedDice too
        ops = tuple(Op(o.op, tuple(Sel(s.cat, s.num) for s in o.sels)) for o in n.operations)
        return Operated(_copy(text, n.value), ops)
    if isinstance(n, diceast.Dice):
        return DiceN(n.num, 10, True) if n.size == "%" else DiceN(n.num, n.size)
    raise bad(text, f"{type(n).__name__} is not read")  # pragma: no cover - d20's tree


def _check(text: str, node: Node) -> None:
    """Caps and what d20 refuses when rolling, refused before any die is rolled."""
    count = 0

    def walk(n: Node) -> None:
        nonlocal count
        if isinstance(n, DiceN):
            if n.num > MAX_DICE:
                raise bad(text, f"{n} rolls {n.num} dice: at most {MAX_DICE}", "dice_limit")
            if n.size > MAX_SIDES:
                raise bad(text, f"{n} has {n.size} sides: at most {MAX_SIDES}", "dice_limit")
            if n.size < 1 and n.num > 0:
                raise bad(text, f"{n}: a die has at least 1 side", "bad_roll")
            count += n.num
        elif isinstance(n, Operated):
            walk(n.value)
            for op in n.ops:
                _check_op(text, n.value, op)
        elif isinstance(n, (UnOp, Paren, Annotated)):
            walk(n.value)
        elif isinstance(n, BinOp):
            walk(n.left)
            walk(n.right)
        elif isinstance(n, NumSet):
            for v in n.values:
                walk(v)

    walk(node)
    if count > MAX_ROLLS:
        raise bad(text, f"it rolls {count} dice: at most {MAX_ROLLS}", "dice_limit")


def _check_op(text: str, target: Node, op: Op) -> None:
    if op.op in ("mi", "ma"):
        sel = op.sels[-1]
        if sel.cat is not None:
            raise bad(text, f"{op}: {op.op} takes a number, not {sel}", "bad_roll")
        return
    if not isinstance(target, DiceN) or target.num == 0:
        return
    if op.op == "rr" and any(s.cat in ("h", "l") and s.num > 0 for s in op.sels):
        raise bad(text, f"{target}{op} rerolls without end (h/l always selects)", "bad_roll")
    if op.op in ("rr", "e") and all(matches(op.sels, v) for v in target.faces()):
        what = "rerolls" if op.op == "rr" else "explodes"
        raise bad(text, f"{target}{op} {what} every face without end", "bad_roll")


def matches(sels: tuple[Sel, ...], value: Value) -> bool:
    """Whether a value is chosen by one of the value selectors (``N``, ``<N``, ``>N``)."""
    for s in sels:
        if (
            (s.cat is None and value == s.num)
            or (s.cat == "<" and value < s.num)
            or (s.cat == ">" and value > s.num)
        ):
            return True
    return False
