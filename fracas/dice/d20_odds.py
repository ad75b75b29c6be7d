"""Exact odds of a free notation (:mod:`fracas.dice.d20_tree`), by pooling, not die by die.

A number's odds are a mapping value -> probability (Fractions). Dice are pooled:
``8d6`` is icepool's ``8 @ d6``, ``4d6kh3`` its keep-highest pool; where operators act
on each die alone (``8d6ro1``, ``4d6mi2``, ``1d6e6``: value selectors), one die's odds
are worked out and then summed N times; other operators (``(1d4, 1d6)kh1``,
``4d6e6kh3``, ``ra``, ``ro`` on the highest) go through the odds of the sorted tuple of
the members still kept, with d20's meaning for each operator
(:mod:`fracas.dice.d20_roll`).

An explosion (``e``) has no end: each exploding die's chain is cut at ``depth`` new dice
(the last one counted as it fell) and the answer is marked an estimate, with the
probability the cut touched (``cut``). Everything else is exact. Work is bounded
(:data:`MAX_STATES`): past it, a refusal names the bound, never a hang.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction

import icepool

from fracas.dice.d20_roll import binop
from fracas.dice.d20_tree import (
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
    matches,
    norm,
)
from fracas.errors import FracasError

__all__ = ["DEPTH", "MAX_STATES", "FreeOdds", "dice_paths", "free_odds"]

DEPTH = 12
"""New dice an exploding die's chain may add before it is cut (``e`` on each die alone)."""
POOLED_DEPTH = 3
"""The same where explosions meet keep/drop over the whole pool (``4d6e6kh3``): every
chain is a member of the pool, so the states grow fast with the depth."""
MAX_STATES = 200_000
"""Outcomes (values or sorted tuples) one step of the odds may hold."""
MAX_SUM_WORK = 40_000_000
"""``N**2 * S**2`` of an ``NdS`` pooled sum (``30d100`` is about 9e6, 0.6 s)."""

Dist = dict[Value, Fraction]
Tuples = dict[tuple[Value, ...], Fraction]


@dataclass(frozen=True, slots=True)
class FreeOdds:
    """The odds of a free roll's total (d20's: truncated toward zero)."""

    notation: str
    dist: dict[int, Fraction]
    estimate: bool
    """An explosion was cut at ``depth``."""
    depth: int | None
    cut: Fraction
    """The probability that an exploding die's chain reaches the cut (0: nothing cut)."""

    @property
    def mean(self) -> Fraction:
        return sum((v * p for v, p in self.dist.items()), start=Fraction(0))

    def to_json(self) -> dict[str, object]:
        """``fracas odds --roll``'s JSON."""
        dist = sorted(self.dist.items())
        out: dict[str, object] = {
            "notation": self.notation,
            "min": dist[0][0],
            "max": dist[-1][0],
            "mean": float(self.mean),
            "distribution": {str(v): float(p) for v, p in dist},
            "exact": {
                "mean": _frac(self.mean),
                "distribution": {str(v): _frac(p) for v, p in dist},
            },
        }
        if self.estimate:
            out["estimate"] = True
            out["explode_depth"] = self.depth
            out["cut"] = float(self.cut)
            out["note"] = (
                f"explosions have no end: each exploding die's chain is cut at {self.depth} "
                f"new dice (a chain reaches the cut with probability {float(self.cut):.3g})"
            )
        return out


def _frac(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


class _Work:
    """What one computation of odds carries: the text (for refusals) and the cut."""

    def __init__(self, text: str, depth: int) -> None:
        self.text, self.depth = text, depth
        self.cut = Fraction(0)
        self.depth_used: int | None = None
        self.memo: dict[tuple[object, ...], Tuples] = {}

    def too_large(self, what: str) -> FracasError:
        return FracasError(
            "odds_too_large",
            f"{self.text!r}: {what} is past the work the exact odds may do "
            f"({MAX_STATES:,} outcomes a step); roll it with 'fracas roll' instead",
        )

    def check(self, size: int, what: str) -> None:
        if size > MAX_STATES:
            raise self.too_large(what)


def free_odds(node: Node, text: str, depth: int = DEPTH) -> FreeOdds:
    """The exact odds of ``node``'s total (an estimate only where an explosion is cut).

    Raises:
        FracasError: ``odds_too_large`` (past :data:`MAX_STATES`), ``bad_roll`` (a
            division by zero some roll reaches), ``odds_not_worked_out`` (an explosion
            chosen by highest/lowest).
    """
    work = _Work(text, depth)
    dist = _total(node, work)
    out: dict[int, Fraction] = {}
    for v, p in dist.items():
        key = int(v)
        out[key] = out.get(key, Fraction(0)) + p
    cut = work.cut
    return FreeOdds(
        str(node), dict(sorted(out.items())), work.depth_used is not None, work.depth_used, cut
    )


# --- totals -------------------------------------------------------------------------


def dice_paths(node: Node) -> int:
    """The rolls of a notation's dice as written (rerolls and explosions aside): the
    dice paths a die-by-die enumeration would take (``2d6``: 36), the count the odds of
    an action give beside a pooled roll's."""
    if isinstance(node, DiceN):
        return int(len(node.faces()) ** node.num)
    if isinstance(node, BinOp):
        return dice_paths(node.left) * dice_paths(node.right)
    if isinstance(node, NumSet):
        return math.prod(dice_paths(v) for v in node.values)
    if isinstance(node, Literal):
        return 1
    return dice_paths(node.value)


def _point(v: Value) -> Dist:
    return {v: Fraction(1)}


def _combine(a: Dist, b: Dist, f: Callable[[Value, Value], Value], work: _Work) -> Dist:
    work.check(len(a) * len(b), "combining two numbers")
    out: Dist = {}
    for x, p in a.items():
        for y, q in b.items():
            v = f(x, y)
            out[v] = out.get(v, Fraction(0)) + p * q
    return out


def _total(n: Node, work: _Work) -> Dist:
    if isinstance(n, Literal):
        return _point(n.value)
    if isinstance(n, UnOp):
        inner = _total(n.value, work)
        return inner if n.op == "+" else {-v: p for v, p in inner.items()}
    if isinstance(n, BinOp):
        left, right = _total(n.left, work), _total(n.right, work)
        if n.op in ("/", "//", "%") and 0 in right:
            raise FracasError(
                "bad_roll",
                f"{work.text!r}: {n.op} by zero in {float(right[0]):.3g} of the rolls "
                "(d20 refuses those rolls); divide by a number that cannot be 0",
            )
        return _combine(left, right, lambda x, y: binop(n.op, x, y, work.text), work)
    if isinstance(n, (Paren, Annotated)):
        return _total(n.value, work)
    if isinstance(n, NumSet):
        out = _point(0)
        for v in n.values:
            out = _combine(out, _total(v, work), lambda x, y: x + y, work)
        return out
    if isinstance(n, DiceN):
        return _pooled_sum(n.num, _die(n), work)
    fast = _fast_dice(n, work)
    if fast is not None:
        return fast
    return _sums(_apply_all(n, work))


def _sums(tuples: Tuples) -> Dist:
    out: Dist = {}
    for t, p in tuples.items():
        v = norm(sum(t, start=0))
        out[v] = out.get(v, Fraction(0)) + p
    return out


def _die(spec: DiceN) -> Dist:
    faces = spec.faces()
    return {v: Fraction(1, len(faces)) for v in faces}


def _pooled_sum(num: int, one: Dist, work: _Work) -> Dist:
    """``num`` independent copies of ``one`` summed: icepool's ``num @ die``."""
    if num == 0:
        return _point(0)
    span = len(one)
    if num * num * span * span > MAX_SUM_WORK:
        raise work.too_large(f"a sum of {num} dice of {span} outcomes")
    if all(isinstance(v, int) for v in one):
        return _from_icepool(num @ _to_icepool(one))
    out = _point(0)
    for _ in range(num):
        out = _combine(out, one, lambda x, y: norm(x + y), work)
    return out


def _to_icepool(d: Dist) -> icepool.Die:
    den = math.lcm(*(p.denominator for p in d.values()))
    return icepool.Die({v: int(p * den) for v, p in d.items()})


def _from_icepool(die: icepool.Die) -> Dist:
    den = die.denominator()
    return {norm(v): Fraction(q, den) for v, q in die.items() if q}


def _by_value(op: Op) -> bool:
    """An operator that chooses dice by their value alone (not ``h``/``l``, not ``ra``):
    it acts on each die alone."""
    return op.op != "ra" and all(s.cat not in ("h", "l") for s in op.sels)


def _one_die(spec: DiceN, ops: tuple[Op, ...], work: _Work) -> tuple[Dist, tuple[Op, ...]]:
    """One die's odds after the leading operators that leave each die one die (``ro``,
    ``rr``, ``mi``, ``ma`` by value: ``8d8ro<3kh4`` is 8 such dice, then kh4), and the
    operators left."""
    k = 0
    while k < len(ops) and ops[k].op in ("ro", "rr", "mi", "ma") and _by_value(ops[k]):
        k += 1
    if k == 0:
        return _die(spec), ops
    one = _apply_ops({(v,): p for v, p in _die(spec).items()}, ops[:k], spec, work, work.depth)
    return _sums(one), ops[k:]


def _fast_dice(n: Operated, work: _Work) -> Dist | None:
    """Dice whose operators icepool pools directly, or that act on each die alone."""
    spec = n.value
    if not isinstance(spec, DiceN):
        return None
    one, ops = _one_die(spec, n.ops, work)
    if len(ops) == 1 and ops[0].op in ("k", "p") and len(ops[0].sels) == 1:
        sel = ops[0].sels[0]
        if sel.cat in ("h", "l"):
            keep_high = (sel.cat == "h") == (ops[0].op == "k")
            count = min(sel.num, spec.num) if ops[0].op == "k" else max(spec.num - sel.num, 0)
            if count == 0:
                return _point(0)
            pool = _to_icepool(one).pool(spec.num)
            kept = pool.highest(count) if keep_high else pool.lowest(count)
            return _from_icepool(kept.sum())
    if not all(_by_value(o) for o in ops):
        return None
    each = _apply_ops({(v,): p for v, p in one.items()}, ops, spec, work, work.depth)
    return _pooled_sum(spec.num, _sums(each), work)


# --- members: the sorted tuple of what is kept ------------------------------------------


def _members(n: Node, work: _Work) -> Tuples:
    """The odds of the sorted tuple of ``n``'s kept members (d20's ``keptset``)."""
    if isinstance(n, (Paren, Annotated)):
        return _members(n.value, work)
    if isinstance(n, DiceN):
        return _pool(_die(n), n.num, work)
    if isinstance(n, NumSet):
        out: Tuples = {(): Fraction(1)}
        for v in n.values:
            out = _add_member(out, _total(v, work), work)
        return out
    if isinstance(n, Operated):
        return _apply_all(n, work)
    return {(v,): p for v, p in _total(n, work).items()}


def _apply_all(n: Operated, work: _Work) -> Tuples:
    depth = min(work.depth, POOLED_DEPTH)
    if isinstance(n.value, DiceN):
        one, ops = _one_die(n.value, n.ops, work)
        return _apply_ops(_pool(one, n.value.num, work), ops, n.value, work, depth)
    return _apply_ops(_members(n.value, work), n.ops, None, work, depth)


def _add_member(states: Tuples, one: Dist, work: _Work) -> Tuples:
    work.check(len(states) * len(one), "the members of a set")
    out: Tuples = {}
    for t, p in states.items():
        for v, q in one.items():
            key = tuple(sorted((*t, v)))
            out[key] = out.get(key, Fraction(0)) + p * q
    return out


def _pool(one: Dist, num: int, work: _Work) -> Tuples:
    """``num`` dice of ``one`` as sorted tuples: each count of each value once, with its
    multinomial weight (``10d6``: 3,003 tuples)."""
    values = sorted(one)
    work.check(math.comb(num + len(values) - 1, num), f"the sorted rolls of {num} dice")
    out: Tuples = {}
    fact = math.factorial

    def go(i: int, left: int, prefix: tuple[Value, ...], p: Fraction, ways: int) -> None:
        if i == len(values) - 1:
            c = left
            out[prefix + (values[i],) * c] = p * one[values[i]] ** c * (ways // fact(c))
            return
        for c in range(left + 1):
            go(i + 1, left - c, prefix + (values[i],) * c, p * one[values[i]] ** c, ways // fact(c))

    go(0, num, (), Fraction(1), fact(num))
    return out


def _chosen(sels: Iterable[Sel], t: tuple[Value, ...]) -> set[int]:
    """Indices of the sorted tuple ``t`` a set of selectors picks: d20's union.

    Among equal values, d20's ``h`` and ``l`` both pick the earliest dice rolled (a
    stable sort, either way), so on ``5d6ph2pl1`` with five 6s ``h2`` and ``l1`` share
    a die and only two are dropped (18 kept). Per run of equal values, the union is
    therefore the most any one selector picks of it."""
    first: dict[Value, int] = {}
    size: dict[Value, int] = {}
    for i, v in enumerate(t):
        first.setdefault(v, i)
        size[v] = size.get(v, 0) + 1
    most: dict[Value, int] = {}
    for s in sels:
        if s.cat in ("l", "h"):
            picked = t[: min(s.num, len(t))] if s.cat == "l" else t[max(len(t) - s.num, 0) :]
            counts: dict[Value, int] = {}
            for v in picked:
                counts[v] = counts.get(v, 0) + 1
        else:
            counts = {v: size[v] for v in size if matches((s,), v)}
        for v, c in counts.items():
            most[v] = max(most.get(v, 0), c)
    return {first[v] + k for v, c in most.items() for k in range(c)}


def _apply_ops(
    states: Tuples, ops: tuple[Op, ...], spec: DiceN | None, work: _Work, depth: int
) -> Tuples:
    for op in ops:
        out: Tuples = {}
        for t, p in states.items():
            for nt, q in _one_op(op, t, spec, work, depth).items():
                key = tuple(sorted(nt))
                out[key] = out.get(key, Fraction(0)) + p * q
        work.check(len(out), f"the dice after {op}")
        states = out
    return states


def _one_op(op: Op, t: tuple[Value, ...], spec: DiceN | None, work: _Work, depth: int) -> Tuples:
    chosen = _chosen(op.sels, t)
    if op.op == "k":
        return {tuple(v for i, v in enumerate(t) if i in chosen): Fraction(1)}
    if op.op == "p":
        return {tuple(v for i, v in enumerate(t) if i not in chosen): Fraction(1)}
    assert spec is not None  # dice operators act on dice only (d20's grammar)
    if op.op in ("mi", "ma"):
        bound = op.sels[-1].num
        pick = max if op.op == "mi" else min
        return {tuple(pick(v, bound) for v in t): Fraction(1)}
    rest = tuple(v for i, v in enumerate(t) if i not in chosen)
    picked = [t[i] for i in sorted(chosen)]
    if op.op == "ra":
        if not chosen:
            return {t: Fraction(1)}
        return {(*t, v): p for v, p in _die(spec).items()}
    if any(s.cat in ("h", "l") for s in op.sels) and op.op in ("rr", "e"):
        raise FracasError(
            "odds_not_worked_out",
            f"{work.text!r}: {op} chooses by highest/lowest; its odds are not worked out "
            "(roll it with 'fracas roll'); choose by value: e6, e>4, rr1, rr<3",
        )
    base = t if op.op == "e" else rest  # an exploded die stays; a rerolled one goes
    added = _added(op, len(picked), spec, work, depth)
    return {base + extra: p for extra, p in added.items()}


def _added(op: Op, count: int, spec: DiceN, work: _Work, depth: int) -> Tuples:
    """The dice ``count`` chosen dice add, as a sorted tuple: fresh ones (``ro``), ones
    that do not match (``rr``), or each one's chain of new dice (``e``). The same for
    every outcome with as many chosen: worked out once."""
    key = (op, count, spec, depth)
    if key in work.memo:
        return work.memo[key]
    if op.op == "ro":
        each: Tuples = {(w,): p for w, p in _die(spec).items()}
    elif op.op == "rr":
        keep = {w: p for w, p in _die(spec).items() if not matches(op.sels, w)}
        total = sum(keep.values(), start=Fraction(0))
        each = {(w,): p / total for w, p in keep.items()}
    else:  # e: a chain of new dice after each exploding die
        each = _chain(op.sels, spec, work, depth)
    out: Tuples = {(): Fraction(1)}
    for _ in range(count):
        out = _product(out, each, work)
    work.memo[key] = out
    return out


def _product(a: Tuples, b: Tuples, work: _Work) -> Tuples:
    work.check(len(a) * len(b), "the dice of an operator")
    out: Tuples = {}
    for x, p in a.items():
        for y, q in b.items():
            key = tuple(sorted((*x, *y)))
            out[key] = out.get(key, Fraction(0)) + p * q
    return out


def _chain(sels: tuple[Sel, ...], spec: DiceN, work: _Work, depth: int) -> Tuples:
    """The new dice one explosion adds: one, and one more after each that matches, cut
    at ``depth`` dice (the cut's probability is added to ``work.cut``)."""
    die = _die(spec)
    go = sum((p for v, p in die.items() if matches(sels, v)), start=Fraction(0))
    out: Tuples = {}
    prefix: Tuples = {(): Fraction(1)}
    for level in range(depth):
        nxt: Tuples = {}
        for c, p in prefix.items():
            for v, q in die.items():
                key = tuple(sorted((*c, v)))  # only the multiset matters after
                if matches(sels, v) and level < depth - 1:
                    nxt[key] = nxt.get(key, Fraction(0)) + p * q
                else:
                    out[key] = out.get(key, Fraction(0)) + p * q
        prefix = nxt
        if not prefix:
            break
    work.depth_used = depth
    work.cut = max(work.cut, go**depth)
    return out
