"""Tiles, distance metrics, square areas, the 8 directions, lines between tiles."""

from __future__ import annotations

from collections.abc import Callable, Iterator

__all__ = [
    "DIRECTIONS",
    "METRICS",
    "Metric",
    "Tile",
    "chebyshev",
    "in_square",
    "line",
    "manhattan",
    "square",
    "step",
]

Tile = tuple[int, int]
"""A map tile ``(x, y)``; +x is east, +y is north."""

Metric = Callable[[Tile, Tile], int]
"""A distance between two tiles, in tiles."""


def chebyshev(a: Tile, b: Tile) -> int:
    """Tiles between ``a`` and ``b`` with diagonal steps: ``max(|dx|, |dy|)``."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def manhattan(a: Tile, b: Tile) -> int:
    """Tiles between ``a`` and ``b`` with orthogonal steps only."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


METRICS: dict[str, Metric] = {"chebyshev": chebyshev, "manhattan": manhattan}
"""Distance metrics by name; a ruleset picks one."""

DIRECTIONS: tuple[tuple[str, Tile], ...] = (
    ("N", (0, 1)),
    ("NE", (1, 1)),
    ("E", (1, 0)),
    ("SE", (1, -1)),
    ("S", (0, -1)),
    ("SW", (-1, -1)),
    ("W", (-1, 0)),
    ("NW", (-1, 1)),
)
"""The 8 directions, clockwise from north (N = +y, E = +x)."""


def step(tile: Tile, direction: Tile, distance: int = 1) -> Tile:
    """The tile ``distance`` steps from ``tile`` in ``direction``."""
    return tile[0] + direction[0] * distance, tile[1] + direction[1] * distance


def square(center: Tile, radius: int) -> Iterator[Tile]:
    """The tiles of the ``(2r+1) x (2r+1)`` square around ``center``, row by row."""
    cx, cy = center
    for y in range(cy - radius, cy + radius + 1):
        for x in range(cx - radius, cx + radius + 1):
            yield x, y


def in_square(tile: Tile, center: Tile, radius: int) -> bool:
    """Whether ``tile`` lies in the square of ``radius`` around ``center``."""
    return chebyshev(tile, center) <= radius


def line(a: Tile, b: Tile) -> list[Tile]:
    """The tiles on the line from ``a`` to ``b``, both ends included (Bresenham).

    >>> line((0, 0), (3, 1))
    [(0, 0), (1, 0), (2, 1), (3, 1)]

    The same tiles both ways: ``line(b, a)`` is ``line(a, b)`` reversed.
    """
    if b < a:  # Bresenham breaks ties by direction: always draw from the lesser end
        return line(b, a)[::-1]
    x0, y0 = a
    x1, y1 = b
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx = 1 if x0 < x1 else -1
    sy = 1 if y0 < y1 else -1
    err = dx + dy
    out = [(x0, y0)]
    while (x0, y0) != (x1, y1):
        e2 = 2 * err
        if e2 >= dy:
            err += dy
            x0 += sx
        if e2 <= dx:
            err += dx
            y0 += sy
        out.append((x0, y0))
    return out
