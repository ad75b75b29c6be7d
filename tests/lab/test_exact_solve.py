"""The exact solve (:mod:`fracas.lab.exact_solve`, integers over one denominator per
state) against a plain dense Gauss-Jordan elimination in Fractions, written here
without its components, its sparse rows or its vectors: random chains with cycles,
certain steps, rounds, stalemate rings and states that lead into them."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.lab.exact_solve import solve_exact

LABELS = ["a", "b", "draw", "\0cut", "\0stalemate"]
STUCK = LABELS.index("\0stalemate")
Edges = list[list[tuple[int, Fraction, int]]]


def _reach(edges: Edges, v: int) -> set[int]:
    seen, todo = {v}, [v]
    while todo:
        for j, _, _ in edges[todo.pop()]:
            if j not in seen:
                seen.add(j)
                todo.append(j)
    return seen


def _dense(edges: Edges, ends: dict[int, str]) -> tuple[list[list[Fraction]], list[Fraction]]:
    """Per state, the chance of each label and the rounds left, by one linear system
    over every state that is neither an end nor in a closed ring (whose states are a
    stalemate: no end reachable, and every state reachable leads back)."""
    n = len(edges)
    width = len(LABELS)
    stuck = {
        v
        for v in range(n)
        if v not in ends
        and not any(u in ends for u in _reach(edges, v))
        and all(v in _reach(edges, u) for u in _reach(edges, v))
    }
    free = [v for v in range(n) if v not in ends and v not in stuck]
    at = {v: i for i, v in enumerate(free)}
    # rows: (I - Q) x = b, the labels' chances and the rounds side by side
    rows: list[list[Fraction]] = []
    for v in free:
        row = [Fraction(0)] * len(free) + [Fraction(0)] * (width + 1)
        row[at[v]] += 1
        for j, p, inc in edges[v]:
            row[len(free) + width] += p * inc
            if j in at:
                row[at[j]] -= p
            elif j in ends:
                row[len(free) + LABELS.index(ends[j])] += p
            else:
                row[len(free) + STUCK] += p
        rows.append(row)
    m = len(free)
    for c in range(m):
        pivot = next(r for r in range(c, m) if rows[r][c] != 0)
        rows[c], rows[pivot] = rows[pivot], rows[c]
        lead = rows[c][c]
        rows[c] = [x / lead for x in rows[c]]
        for r in range(m):
            if r != c and rows[r][c] != 0:
                f = rows[r][c]
                rows[r] = [x - f * y for x, y in zip(rows[r], rows[c], strict=True)]
    values: list[list[Fraction]] = []
    rounds: list[Fraction] = []
    for v in range(n):
        vec = [Fraction(0)] * width
        if v in ends:
            vec[LABELS.index(ends[v])] = Fraction(1)
            values.append(vec)
            rounds.append(Fraction(0))
        elif v in stuck:
            vec[STUCK] = Fraction(1)
            values.append(vec)
            rounds.append(Fraction(0))
        else:
            row = rows[at[v]]
            values.append(row[m : m + width])
            rounds.append(row[m + width])
    return values, rounds


@st.composite
def chains(draw: st.DrawFn) -> tuple[Edges, dict[int, str]]:
    """2 ends (0: a, 1: b) and up to 8 states, each leading to 1-4 states (itself
    included) with chances of denominators up to 24 and 0 or 1 rounds; sometimes the
    last two are a ring that leads to itself for certain (a stalemate)."""
    n = draw(st.integers(3, 10))
    ends = {0: "a", 1: "b"}
    edges: Edges = [[] for _ in range(n)]
    ring = draw(st.booleans()) and n >= 5
    for v in range(2, n):
        if ring and v >= n - 2:
            edges[v] = [(n - 1 if v == n - 2 else n - 2, Fraction(1), 0)]
            continue
        targets = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=4, unique=True))
        weights = draw(st.lists(st.integers(1, 6), min_size=len(targets), max_size=len(targets)))
        total = sum(weights)
        for j, w in zip(targets, weights, strict=True):
            edges[v].append((j, Fraction(w, total), draw(st.integers(0, 1))))
    return edges, ends


@given(chains())
@settings(max_examples=300, deadline=None)
def test_the_exact_solve_equals_a_dense_elimination_in_fractions(
    chain: tuple[Edges, dict[int, str]],
) -> None:
    edges, ends = chain
    values, rounds = solve_exact(edges, ends, LABELS)
    want_values, want_rounds = _dense(edges, ends)
    assert values == want_values
    assert rounds == want_rounds
    assert all(sum(v) == 1 for v in values)


def test_a_loop_of_misses_and_a_ring() -> None:
    """By hand: a state that misses with 5/6 (staying, a round each) and ends with 1/6 on
    either side, and one that falls into a stalemate ring with 1/2: known answers."""
    edges: Edges = [
        [],
        [],
        [(2, Fraction(5, 6), 1), (0, Fraction(1, 12), 1), (1, Fraction(1, 12), 1)],
        [(2, Fraction(1, 2), 0), (4, Fraction(1, 2), 0)],
        [(5, Fraction(1), 0)],
        [(4, Fraction(1), 0)],
    ]
    values, rounds = solve_exact(edges, {0: "a", 1: "b"}, LABELS)
    assert values[2] == [Fraction(1, 2), Fraction(1, 2), 0, 0, 0]
    assert rounds[2] == 6  # a geometric wait of chance 1/6
    assert values[3] == [Fraction(1, 4), Fraction(1, 4), 0, 0, Fraction(1, 2)]
    assert rounds[3] == 3
    assert values[4] == values[5] == [0, 0, 0, 0, 1]
