"""Rolling a free notation (:mod:`fracas.dice.d20_tree`) with d20's meanings over
fracas's own dice.

The evaluation follows d20 1.1.2's ``d20/expression.py`` step by step: a number is kept
or dropped; a set (dice, a parenthesised list) counts its kept members; the operators
act in order on the members still kept. ``rr`` rerolls until no member matches,
``ro`` once, ``ra`` adds one die for the first match, ``e`` adds a new die for each
match (and for each new die that matches), ``mi``/``ma`` raise or lower a face. Every
die comes from ``dice.roll(sides, label)``, so a given (physical) or replayed roll
answers it; d20's random generator is never used. Where d20 walks a Python ``set`` of
dice (an order that changes between runs), the dice are taken here in their place
order, so a replay gives the same faces to the same dice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from fracas.dice.d20_tree import (
    MAX_ROLLS,
    Annotated,
    BinOp,
    DiceN,
    Literal,
    Node,
    NumSet,
    Op,
    Operated,
    Paren,
    Sel,
    UnOp,
    Value,
    bad,
    matches,
    norm,
)
from fracas.dice.source import Dice

__all__ = ["DieRecord", "FreeRoll", "binop", "roll_free", "show_value"]


def show_value(v: Value) -> str:
    """A number as a roll shows it: ``7``, ``7.5``."""
    return str(v) if isinstance(v, int) else repr(float(v))


def binop(op: str, left: Value, right: Value, text: str) -> Value:
    """d20's binary operators on exact numbers (``/`` divides exactly)."""
    try:
        if op == "+":
            return left + right
        if op == "-":
            return left - right
        if op == "*":
            return norm(Fraction(left) * right)
        if op == "/":
            return norm(Fraction(left) / right)
        if op == "//":
            return left // right
        if op == "%":
            return norm(Fraction(left) % right)
    except ZeroDivisionError:
        raise bad(text, f"{op} by zero", "bad_roll") from None
    compare: dict[str, Callable[[Value, Value], bool]] = {
        "<": lambda a, b: a < b,
        ">": lambda a, b: a > b,
        "==": lambda a, b: a == b,
        ">=": lambda a, b: a >= b,
        "<=": lambda a, b: a <= b,
        "!=": lambda a, b: a != b,
    }
    return int(compare[op](left, right))


class _Num:
    """A number of a roll in progress: kept or dropped, with its members (``set``)."""

    def __init__(self) -> None:
        self.kept = True
        self.note = ""

    def number(self) -> Value:
        return sum((n.number() for n in self.keptset()), start=0)

    def total(self) -> Value:
        return self.number() if self.kept else 0

    def members(self) -> list[_Num]:
        return [self]

    def keptset(self) -> list[_Num]:
        return [n for n in self.members() if n.kept]


class _Lit(_Num):
    def __init__(self, value: Value) -> None:
        super().__init__()
        self.values = [value]
        self.exploded = False

    def number(self) -> Value:
        return self.values[-1]

    def show(self, marked: bool = True) -> str:
        text = show_value(self.values[-1])
        if len(self.values) > 1:  # raised or lowered by mi/ma
            text = f"{show_value(self.values[0])} -> {text}"
        if self.exploded:
            text += "!"
        return text if self.kept or not marked else dropped(text)


class _Un(_Num):
    def __init__(self, op: str, value: _Num) -> None:
        super().__init__()
        self.op, self.value = op, value

    def number(self) -> Value:
        v = self.value.total()
        return -v if self.op == "-" else v


class _Bin(_Num):
    def __init__(self, left: _Num, op: str, right: _Num, text: str) -> None:
        super().__init__()
        self.left, self.op, self.right, self.text = left, op, right, text

    def number(self) -> Value:
        return binop(self.op, self.left.total(), self.right.total(), self.text)


class _Paren(_Num):
    def __init__(self, value: _Num) -> None:
        super().__init__()
        self.value = value

    def total(self) -> Value:
        return self.value.total() if self.kept else 0

    def members(self) -> list[_Num]:
        return self.value.members()


class _Set(_Num):
    def __init__(self, values: list[_Num]) -> None:
        super().__init__()
        self.values = values
        self.ops: list[Op] = []

    def members(self) -> list[_Num]:
        return list(self.values)


class _Die(_Num):
    def __init__(self, roller: _Roller, spec: DiceN) -> None:
        super().__init__()
        self.roller, self.spec = roller, spec
        self.lits: list[_Lit] = []
        self.add_roll()

    def add_roll(self) -> None:
        self.lits.append(_Lit(self.roller.face(self.spec)))

    def number(self) -> Value:
        return self.lits[-1].total()

    def members(self) -> list[_Num]:
        return [self.lits[-1]]

    def reroll(self) -> None:
        self.lits[-1].kept = False
        self.add_roll()


class _Dice(_Set):
    def __init__(self, roller: _Roller, spec: DiceN) -> None:
        super().__init__([_Die(roller, spec) for _ in range(spec.num)])
        self.roller, self.spec = roller, spec

    def dice(self) -> list[_Die]:
        return [d for d in self.values if isinstance(d, _Die)]


@dataclass(frozen=True, slots=True)
class DieRecord:
    """One die of a free roll: its size (``d6``, ``d%``), every face it showed (a reroll
    adds one), what it counts, and whether it is kept."""

    die: str
    rolls: tuple[int, ...]
    value: Value
    kept: bool


@dataclass(frozen=True, slots=True)
class FreeRoll:
    """A rolled free notation: d20's total (truncated toward zero), the faces in the
    order the dice source gave them, each die, and the roll shown d20's way."""

    notation: str
    total: int
    exact: Value
    faces: tuple[int, ...]
    dice: tuple[DieRecord, ...]
    shown: str


class _Roller:
    def __init__(self, dice: Dice, label: str, text: str) -> None:
        self.source, self.label, self.text = dice, label, text
        self.faces: list[int] = []
        self.all_dice: list[_Die] = []

    def face(self, spec: DiceN) -> int:
        if len(self.faces) >= MAX_ROLLS:
            raise bad(self.text, f"more than {MAX_ROLLS} dice rolled", "too_many_rolls")
        face = self.source.roll(spec.size, self.label)
        self.faces.append(face)
        return spec.face_value(face)

    def eval(self, n: Node) -> _Num:
        if isinstance(n, Literal):
            return _Lit(n.value)
        if isinstance(n, UnOp):
            return _Un(n.op, self.eval(n.value))
        if isinstance(n, BinOp):
            return _Bin(self.eval(n.left), n.op, self.eval(n.right), self.text)
        if isinstance(n, Paren):
            return _Paren(self.eval(n.value))
        if isinstance(n, NumSet):
            return _Set([self.eval(v) for v in n.values])
        if isinstance(n, DiceN):
            out = _Dice(self, n)
            self.all_dice.extend(out.dice())
            return out
        if isinstance(n, Annotated):
            target = self.eval(n.value)
            target.note = "".join(n.annotations)
            return target
        target = self.eval(n.value)
        for op in n.ops:
            self.operate(op, target)
            if isinstance(target, _Set):
                target.ops.append(op)
        return target

    # --- operators (d20's SetOperator) ---

    def operate(self, op: Op, target: _Num) -> None:
        if op.op == "k":
            chosen = _select(op.sels, target)
            for v in target.keptset():
                if v not in chosen:
                    v.kept = False
        elif op.op == "p":
            for v in _select(op.sels, target):
                v.kept = False
        elif isinstance(target, _Dice):
            self._dice_op(op, target)

    def _dice_op(self, op: Op, target: _Dice) -> None:
        if op.op == "rr":
            chosen = _select(op.sels, target)
            while chosen:
                for die in _ordered(target, chosen):
                    _as_die(die).reroll()
                chosen = _select(op.sels, target)
        elif op.op == "ro":
            for die in _ordered(target, _select(op.sels, target)):
                _as_die(die).reroll()
        elif op.op == "ra":
            for die in _ordered(target, _select(op.sels, target, 1)):
                self._explode(target, die)
        elif op.op == "e":
            chosen = _select(op.sels, target)
            done: set[_Num] = set()
            while chosen:
                for die in _ordered(target, chosen):
                    self._explode(target, die)
                done |= chosen
                chosen = _select(op.sels, target) - done
        else:  # mi, ma: the last selector's number (a bare number: checked at parse)
            bound = op.sels[-1].num
            for die in target.keptset():
                d = _as_die(die)
                v = d.number()
                if (op.op == "mi" and v < bound) or (op.op == "ma" and v > bound):
                    d.lits[-1].values.append(bound)

    def _explode(self, target: _Dice, die: _Num) -> None:
        _as_die(die).lits[-1].exploded = True
        new = _Die(self, target.spec)
        target.values.append(new)
        self.all_dice.append(new)


def _as_die(n: _Num) -> _Die:
    assert isinstance(n, _Die)  # a dice operator's members are dice (d20's grammar)
    return n


def _ordered(target: _Num, chosen: set[_Num]) -> list[_Num]:
    return [m for m in target.members() if m in chosen]


def _select(sels: tuple[Sel, ...], target: _Num, max_targets: int | None = None) -> set[_Num]:
    """d20's ``SetOperator.select``: the union of what each selector picks, at most
    ``max_targets`` in all."""
    out: set[_Num] = set()
    for sel in sels:
        batch = None
        if max_targets is not None:
            batch = max_targets - len(out)
            if batch == 0:
                break
        kept = target.keptset()
        if sel.cat == "l":
            picked = sorted(kept, key=lambda m: m.total())[: sel.num]
        elif sel.cat == "h":
            picked = sorted(kept, key=lambda m: m.total(), reverse=True)[: sel.num]
        else:
            picked = [m for m in kept if matches((sel,), m.total())]
        out.update(picked if batch is None else picked[:batch])
    return out


def dropped(text: str) -> str:
    """A number the roll does not count, in words (d20's stringifier strikes it through
    with Markdown's ``~~``, which the page and a terminal would print as typed)."""
    return f"{text} dropped"


def _show(n: _Num, node: Node) -> str:
    """The roll shown as d20's stringifier does, in plain text: dropped numbers marked
    ``dropped``, exploded dice ``!``."""
    text = _show_inner(n, node)
    if n.note:
        text += f" {n.note}"
    return text if n.kept or isinstance(n, _Die) else dropped(text)


def _show_inner(n: _Num, node: Node) -> str:
    while isinstance(node, Annotated):
        node = node.value
    if isinstance(n, _Dice) and isinstance(node, (DiceN, Operated)):
        parts = []
        for d in n.dice():
            face = ", ".join(lit.show() for lit in d.lits)
            parts.append(face if d.kept else dropped(face))
        return f"{node} ({', '.join(parts)})"
    if isinstance(n, _Lit):
        return n.show(marked=False)
    if isinstance(n, _Un) and isinstance(node, UnOp):
        return f"{n.op}{_show(n.value, node.value)}"
    if isinstance(n, _Bin) and isinstance(node, BinOp):
        return f"{_show(n.left, node.left)} {n.op} {_show(n.right, node.right)}"
    if isinstance(n, _Paren) and isinstance(node, (Paren, Operated)):
        inner = node.value if isinstance(node, Operated) else node
        ops = "".join(str(o) for o in node.ops) if isinstance(node, Operated) else ""
        assert isinstance(inner, Paren)
        return f"({_show(n.value, inner.value)}){ops}"
    if isinstance(n, _Set) and isinstance(node, (NumSet, Operated)):
        inner_set = node.value if isinstance(node, Operated) else node
        ops = "".join(str(o) for o in node.ops) if isinstance(node, Operated) else ""
        assert isinstance(inner_set, NumSet)
        items = [_show(v, s) for v, s in zip(n.values, inner_set.values, strict=True)]
        comma = "," if len(items) == 1 else ""
        return f"({', '.join(items)}{comma}){ops}"
    return show_value(n.total())  # pragma: no cover - every pairing is above


def roll_free(node: Node, text: str, dice: Dice, label: str) -> FreeRoll:
    """Roll ``node`` (parsed from ``text``) with every die from ``dice`` under ``label``.

    Raises:
        FracasError: ``too_many_rolls`` (more than d20's 1000 dice in one roll),
            ``bad_roll`` (a division by zero).
    """
    roller = _Roller(dice, label, text)
    root = roller.eval(node)
    exact = norm(Fraction(root.total()))
    records = tuple(
        DieRecord(
            f"d{'%' if d.spec.percent else d.spec.size}",
            tuple(_face_back(d.spec, lit.values[0]) for lit in d.lits),
            d.number(),
            d.kept,
        )
        for d in roller.all_dice
    )
    return FreeRoll(str(node), int(exact), exact, tuple(roller.faces), records, _show(root, node))


def _face_back(spec: DiceN, value: Value) -> int:
    """The face a die showed, from what it counted (``d%``: 0..90 back to the d10)."""
    return int(value) // 10 + 1 if spec.percent else int(value)
