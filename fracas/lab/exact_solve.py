"""The chain solved exactly: x = Q x + b over the states a fight goes on from, one
strongly connected component at a time from the last (Tarjan's order), by Gaussian
elimination inside each (:mod:`fracas.lab.chain` builds the chain; :mod:`fracas.lab.solve`
solves the same equations in floating point).

A state's values (its chance of each end, and the rounds it still expects) are
worked out as integers over one denominator, not as a Fraction each: adding another
state's values costs one gcd of the two denominators, not one per entry, and the
vector is reduced once when it is done. Most components are a single state (a fight
mostly moves on), whose values are the sum of its successors' weighted by the dice.
The coefficients between the states of one component (the dice's chances, and what
elimination makes of them) stay Fractions. The answers are the same Fractions as a
solve in Fractions throughout (``tests/lab/test_chain.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import gcd

__all__ = ["Edges", "sccs", "solve_exact"]

Edges = Sequence[Sequence[tuple[int, Fraction, int]]]
"""Per state: (the state it leads to, the chance, the rounds that step adds)."""

_Vec = list[int]
"""A state's values as integers: per label, then the rounds, then their one denominator
last (``[n_0, ..., n_width, den]``)."""

_ZERO = Fraction(0)
_STUCK = "\0stalemate"


def solve_exact(
    edges: Edges, ends: dict[int, str], labels: list[str]
) -> tuple[list[list[Fraction]], list[Fraction]]:
    """Per state, the chance of each label and the expected rounds left (an end, and a
    state of a closed component, a stalemate: no rounds; a state not solved: no
    values)."""
    n = len(edges)
    width = len(labels)
    vecs: list[_Vec | None] = [None] * n
    comp_of = [-1] * n
    for c, comp in enumerate(sccs(edges)):
        for v in comp:
            comp_of[v] = c
        if len(comp) == 1 and comp[0] in ends:
            vecs[comp[0]] = _unit(width, labels.index(ends[comp[0]]))
            continue
        closed = all(comp_of[j] == c for v in comp for j, _, _ in edges[v])
        if closed:  # a stalemate: the fight never ends from here
            for v in comp:
                vecs[v] = _unit(width, labels.index(_STUCK))
            continue
        if len(comp) == 1 and all(j != comp[0] for j, _, _ in edges[comp[0]]):
            vecs[comp[0]] = _moved_on(edges[comp[0]], vecs, width)  # most states
            continue
        _component(comp, edges, vecs, width)
    values: list[list[Fraction]] = []
    rounds: list[Fraction] = []
    for vec in vecs:
        if vec is None:
            values.append([])
            rounds.append(_ZERO)
            continue
        den = vec[-1]
        values.append([Fraction(x, den) if x else _ZERO for x in vec[:width]])
        rounds.append(Fraction(vec[width], den) if vec[width] else _ZERO)
    return values, rounds


def _unit(width: int, at: int) -> _Vec:
    """Certainly label ``at`` (an end, a stalemate), no rounds."""
    vec = [0] * (width + 2)
    vec[at] = vec[-1] = 1
    return vec


def _common(acc: _Vec, den: int) -> int:
    """``acc`` brought over the least common multiple of its denominator and ``den``, in
    place; what a numerator over ``den`` is multiplied by to be over it too."""
    have = acc[-1]
    if den == have:
        return 1
    g = gcd(have, den)
    up = den // g
    if up != 1:
        for i in range(len(acc)):
            acc[i] *= up
    return have // g


def _add(acc: _Vec, num: int, den: int, vec: _Vec) -> None:
    """``acc += num / den * vec``, in place."""
    num *= _common(acc, den * vec[-1])
    for i in range(len(vec) - 1):
        x = vec[i]
        if x:
            acc[i] += num * x


def _add_at(acc: _Vec, i: int, num: int, den: int) -> None:
    """``acc[i] += num / den``, in place."""
    num *= _common(acc, den)  # first: it rescales acc[i] too
    acc[i] += num


def _moved_on(
    edges: Sequence[tuple[int, Fraction, int]], vecs: list[_Vec | None], width: int
) -> _Vec:
    """The values of a state alone in its component with no step back to itself: its
    successors' (all solved before it), weighted by the chances of the steps there, and
    the rounds those steps add."""
    b = [0] * (width + 2)
    b[-1] = 1
    for j, p, inc in edges:
        num, den = p.numerator, p.denominator
        if inc:
            _add_at(b, width, num * inc, den)
        vj = vecs[j]
        assert vj is not None
        _add(b, num, den, vj)
    return _reduced(b)


def _reduced(acc: _Vec) -> _Vec:
    """``acc`` over its least denominator (in place)."""
    g = gcd(*acc)
    if g > 1:
        for i in range(len(acc)):
            acc[i] //= g
    return acc


def _component(
    comp: list[int],
    edges: Edges,
    vecs: list[_Vec | None],
    width: int,
) -> None:
    """Solve x = Q x + b over one component (b: what leaves it, and the rounds), by
    eliminating its states one at a time on sparse rows (a state's row names only the
    states it leads to, so a fight's cycles of misses and reloads stay small), then
    substituting back."""
    members = set(comp)
    inner: dict[int, dict[int, Fraction]] = {}
    const: dict[int, _Vec] = {}
    users: dict[int, set[int]] = {v: set() for v in comp}
    for v in comp:
        row: dict[int, Fraction] = {}
        b = [0] * (width + 2)
        b[-1] = 1
        for j, p, inc in edges[v]:
            num, den = p.numerator, p.denominator
            if inc:
                _add_at(b, width, num * inc, den)
            if j in members:
                row[j] = row.get(j, _ZERO) + p
            else:
                vj = vecs[j]
                assert vj is not None
                _add(b, num, den, vj)
        inner[v] = row
        const[v] = _reduced(b)
        for j in row:
            if j != v:
                users[j].add(v)
    order: list[int] = []
    for k in comp:
        row, b = inner.pop(k), const[k]
        loop = row.pop(k, _ZERO)
        if loop:
            scale = 1 / (1 - loop)
            row = {j: q * scale for j, q in row.items()}
            up = scale.numerator
            b = [x * up for x in b[:-1]]
            b.append(const[k][-1] * scale.denominator)  # const[k]: b before the scaling
            b = const[k] = _reduced(b)
        inner[k] = row
        order.append(k)
        for r in users.pop(k):
            if r not in users:  # eliminated already: it names k no more
                continue
            rr = inner[r]
            f = rr.pop(k)
            for j, q in row.items():
                rr[j] = rr.get(j, _ZERO) + f * q
                if j != r:
                    users[j].add(r)
            _add(const[r], f.numerator, f.denominator, b)
            _reduced(const[r])
    for k in reversed(order):
        total = list(const[k])
        for j, q in inner[k].items():
            vj = vecs[j]
            assert vj is not None
            _add(total, q.numerator, q.denominator, vj)
        vecs[k] = _reduced(total)


def sccs(edges: Edges) -> list[list[int]]:
    """Tarjan's strongly connected components, iteratively; sinks first."""
    n = len(edges)
    index = [-1] * n
    low = [0] * n
    on = [False] * n
    stack: list[int] = []
    out: list[list[int]] = []
    counter = 0
    for root in range(n):
        if index[root] >= 0:
            continue
        work = [(root, 0)]
        while work:
            v, k = work.pop()
            if k == 0:
                index[v] = low[v] = counter
                counter += 1
                stack.append(v)
                on[v] = True
            succ = edges[v]
            while k < len(succ):
                w = succ[k][0]
                k += 1
                if index[w] < 0:
                    work.append((v, k))
                    work.append((w, 0))
                    break
                if on[w]:
                    low[v] = min(low[v], index[w])
            else:
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on[w] = False
                        comp.append(w)
                        if w == v:
                            break
                    out.append(comp)
                if work:
                    u = work[-1][0]
                    low[u] = min(low[u], low[v])
                continue
    return out
