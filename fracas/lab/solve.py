"""The chain solved in floating point: the same equations as the exact solve
(:mod:`fracas.lab.chain`), x = Q x + b over the states a fight goes on from, by
scipy's sparse LU factorisation, for chains too large for Fractions. The residual of
every equation is worked out after the solve and reported, never assumed.

A state from which no end can be reached (nobody can hurt anybody any more) is a
stalemate, as in the exact solve (there: a closed component): found here by walking
back from every end.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from fracas.errors import FracasError

__all__ = ["solve_float"]

_STUCK = "\0stalemate"


def solve_float(
    edges: Sequence[Sequence[tuple[int, Fraction, int]]],
    ends: dict[int, str],
    labels: list[str],
) -> tuple[list[list[float]], list[float], float]:
    """Per state, the chance of each label and the expected rounds left, in floating
    point, and the largest absolute residual of the equations solved.

    Raises:
        FracasError: ``missing_dependency`` without scipy (``pip install fracas``
            brings it).
    """
    try:
        import numpy as np
        from scipy.sparse import csc_matrix
        from scipy.sparse.linalg import splu
    except ImportError:  # pragma: no cover - a declared dependency
        raise FracasError(
            "missing_dependency", "the floating-point chain needs scipy: pip install scipy"
        ) from None
    n = len(edges)
    width = len(labels)
    stuck = labels.index(_STUCK)
    # the states an end can be reached from: back from every end
    back: list[list[int]] = [[] for _ in range(n)]
    for i, succ in enumerate(edges):
        for j, _, _ in succ:
            back[j].append(i)
    live = [False] * n
    todo = list(ends)
    for i in todo:
        live[i] = True
    while todo:
        j = todo.pop()
        for i in back[j]:
            if not live[i]:
                live[i] = True
                todo.append(i)
    values = [[0.0] * width for _ in range(n)]
    for i, label in ends.items():
        values[i][labels.index(label)] = 1.0
    rounds = [0.0] * n
    inner = [i for i in range(n) if live[i] and i not in ends]
    for i in range(n):
        if not live[i]:
            values[i][stuck] = 1.0
    if not inner:
        return values, rounds, 0.0
    at = {v: k for k, v in enumerate(inner)}
    rows: list[int] = []
    cols: list[int] = []
    data: list[float] = []
    b = np.zeros((len(inner), width + 1))
    for k, i in enumerate(inner):
        rows.append(k)
        cols.append(k)
        data.append(1.0)
        for j, p, inc in edges[i]:
            q = float(p)
            if inc:
                b[k, width] += q * inc
            m = at.get(j)
            if m is not None:
                rows.append(k)
                cols.append(m)
                data.append(-q)
            else:  # an end, or a stalemate
                b[k, :width] += q * np.asarray(values[j])
    a = csc_matrix((data, (rows, cols)), shape=(len(inner), len(inner)))
    x = splu(a).solve(b)
    residual = float(np.max(np.abs(a @ x - b))) if len(inner) else 0.0
    for k, i in enumerate(inner):
        values[i] = [float(v) for v in x[k, :width]]
        rounds[i] = float(x[k, width])
    return values, rounds, residual
