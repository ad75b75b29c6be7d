"""The grid: distance metrics, square areas, the 8 directions, lines between tiles."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.model.grid import (
    DIRECTIONS,
    METRICS,
    Tile,
    chebyshev,
    in_square,
    line,
    manhattan,
    square,
    step,
)

coord = st.integers(min_value=-40, max_value=40)
tiles = st.tuples(coord, coord)


# --- metrics ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "cheb", "manh"),
    [
        ((0, 0), (0, 0), 0, 0),
        ((0, 0), (1, 1), 1, 2),
        ((0, 0), (1, 0), 1, 1),
        ((0, 0), (-1, 1), 1, 2),
        ((0, 0), (5, 0), 5, 5),
        ((0, 0), (3, -4), 4, 7),
        ((2, 1), (-3, 7), 6, 11),
    ],
)
def test_distances(a: Tile, b: Tile, cheb: int, manh: int) -> None:
    assert chebyshev(a, b) == cheb
    assert manhattan(a, b) == manh


def test_metrics_by_name() -> None:
    assert {"chebyshev": chebyshev, "manhattan": manhattan} == METRICS


@given(tiles, tiles, tiles)
def test_metric_axioms(a: Tile, b: Tile, c: Tile) -> None:
    for metric in (chebyshev, manhattan):
        assert metric(a, b) == metric(b, a)
        assert (metric(a, b) == 0) == (a == b)
        assert metric(a, c) <= metric(a, b) + metric(b, c)
    assert chebyshev(a, b) <= manhattan(a, b) <= 2 * chebyshev(a, b)


# --- squares ----------------------------------------------------------------------------


@pytest.mark.parametrize(("radius", "count"), [(0, 1), (1, 9), (2, 25), (3, 49)])
def test_square_sizes(radius: int, count: int) -> None:
    area = list(square((4, -2), radius))
    assert len(area) == len(set(area)) == count


def test_square_radius_1_is_the_3x3_around() -> None:
    assert set(square((0, 0), 1)) == {(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1)}


def test_square_is_row_by_row() -> None:
    assert list(square((1, 1), 1)) == [
        (0, 0),
        (1, 0),
        (2, 0),
        (0, 1),
        (1, 1),
        (2, 1),
        (0, 2),
        (1, 2),
        (2, 2),
    ]


@settings(max_examples=50)
@given(tiles, st.integers(min_value=0, max_value=4))
def test_square_is_in_square(center: Tile, radius: int) -> None:
    area = set(square(center, radius))
    near = {(center[0] + dx, center[1] + dy) for dx in range(-6, 7) for dy in range(-6, 7)}
    assert {t for t in near if in_square(t, center, radius)} == area
    assert all(chebyshev(t, center) <= radius for t in area)


# --- directions -------------------------------------------------------------------------


def test_eight_directions_clockwise_from_north() -> None:
    assert [name for name, _ in DIRECTIONS] == ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
    vectors = dict(DIRECTIONS)
    assert vectors["N"] == (0, 1)  # N = +y
    assert vectors["E"] == (1, 0)  # E = +x
    assert vectors["S"] == (0, -1) and vectors["W"] == (-1, 0)


def test_directions_turn_45_degrees_clockwise() -> None:
    bearings = [math.degrees(math.atan2(dx, dy)) % 360 for _, (dx, dy) in DIRECTIONS]
    assert bearings == [0, 45, 90, 135, 180, 225, 270, 315]


def test_directions_are_the_unit_neighbours() -> None:
    vectors = [v for _, v in DIRECTIONS]
    assert set(vectors) == {t for t in square((0, 0), 1) if t != (0, 0)}
    assert all(chebyshev((0, 0), v) == 1 for v in vectors)


@given(tiles, st.integers(min_value=0, max_value=5))
def test_step(tile: Tile, distance: int) -> None:
    for _, direction in DIRECTIONS:
        to = step(tile, direction, distance)
        assert chebyshev(tile, to) == distance
    assert step(tile, (0, 1)) == (tile[0], tile[1] + 1)


# --- lines ------------------------------------------------------------------------------


def test_line_examples() -> None:
    assert line((0, 0), (3, 1)) == [(0, 0), (1, 0), (2, 1), (3, 1)]
    assert line((0, 0), (0, 0)) == [(0, 0)]
    assert line((0, 0), (3, 3)) == [(0, 0), (1, 1), (2, 2), (3, 3)]
    assert line((2, 5), (2, 2)) == [(2, 5), (2, 4), (2, 3), (2, 2)]
    assert line((0, 0), (-3, 0)) == [(0, 0), (-1, 0), (-2, 0), (-3, 0)]


@settings(max_examples=300)
@given(tiles, tiles)
def test_line_endpoints_and_length(a: Tile, b: Tile) -> None:
    tiles_on = line(a, b)
    assert tiles_on[0] == a and tiles_on[-1] == b
    assert len(tiles_on) == chebyshev(a, b) + 1
    assert len(set(tiles_on)) == len(tiles_on)


@settings(max_examples=300)
@given(tiles, tiles)
def test_line_is_continuous_and_monotone(a: Tile, b: Tile) -> None:
    tiles_on = line(a, b)
    for here, there in itertools.pairwise(tiles_on):
        assert chebyshev(here, there) == 1
        # Every step goes towards b: never back on either axis.
        assert chebyshev(there, b) == chebyshev(here, b) - 1


@settings(max_examples=300)
@given(tiles, tiles)
def test_line_is_symmetric(a: Tile, b: Tile) -> None:
    assert line(b, a) == line(a, b)[::-1]


@settings(max_examples=200)
@given(tiles, tiles, tiles)
def test_line_moves_with_its_ends(a: Tile, b: Tile, shift: Tile) -> None:
    def moved(t: Tile) -> Tile:
        return t[0] + shift[0], t[1] + shift[1]

    assert line(moved(a), moved(b)) == [moved(t) for t in line(a, b)]


@settings(max_examples=300)
@given(tiles, tiles)
def test_line_stays_within_half_a_tile(a: Tile, b: Tile) -> None:
    # Along the major axis, each tile is within 1/2 of the true segment on the minor one.
    (x0, y0), (x1, y1) = a, b
    dx, dy = x1 - x0, y1 - y0
    for x, y in line(a, b):
        if abs(dx) >= abs(dy) and dx:
            exact = y0 + Fraction(dy * (x - x0), dx)
            assert abs(y - exact) <= Fraction(1, 2)
        elif dy:
            exact = x0 + Fraction(dx * (y - y0), dy)
            assert abs(x - exact) <= Fraction(1, 2)
