"""The exact enumerator: replay a rules function over every face of every roll.

Depth-first: the first run takes face 1 of every die; each later run keeps the
prefix of faces and moves the deepest die that has faces left to its next
face. Every complete run is a path with probability ``1 / prod(sides)``;
results are accumulated exactly as ``Fraction``s. The rules code is the
ordinary one: only the dice object differs.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Generic, TypeVar

from fracas.dice.source import Dice, TableDice
from fracas.errors import DiceError, FracasError

__all__ = ["DEFAULT_MAX_PATHS", "DEFAULT_MAX_ROLLS", "Distribution", "enumerate_exact"]

K = TypeVar("K", bound=Hashable)

DEFAULT_MAX_ROLLS = 40
"""Rolls along one path before the enumerator stops it (exploding dice) and counts its mass."""

DEFAULT_MAX_PATHS = 2_000_000
"""Paths before the enumerator gives up with ``too_many_paths``."""


_FORESIGHT = 20_000
"""After this many paths the enumerator estimates how many there are in all."""
_FORESIGHT_FACTOR = 4
"""It gives up at once when the estimate is over this many times ``max_paths``."""
_PROBES = 400
"""Random descents for the estimate."""


class _ProbeDice:
    """Random faces, remembering how many paths each choice stood for."""

    def __init__(self, rng: random.Random, limit: int, skip: frozenset[str]) -> None:
        self.rng = rng
        self.limit = limit
        self.skip = skip
        self.weight = 1
        self.rolls = 0

    def roll(self, sides: int, label: str, *, of: str | None = None, n: int | None = None) -> int:
        if label in self.skip:
            return 1
        self.rolls += 1
        if self.rolls > self.limit:
            raise _Truncated
        self.weight *= sides
        return self.rng.randint(1, sides)


def _estimate_paths(
    fn: Callable[[Dice], Any],
    given: Mapping[str, Sequence[int]] | None,
    max_rolls: int,
    irrelevant: frozenset[str],
) -> float:
    """Knuth's estimate of a tree's size (1975): the mean, over random descents, of the
    product of the branching along the way. Unbiased; seeded, so repeatable."""
    rng = random.Random(0)
    total = 0
    for _ in range(_PROBES):
        probe = _ProbeDice(rng, max_rolls, irrelevant)
        source: Dice = TableDice(given, probe) if given else probe
        with contextlib.suppress(_Truncated):
            fn(source)
        total += probe.weight
    return total / _PROBES


def _too_many(max_paths: int, about: float | None) -> FracasError:
    estimate = f" (about {about:,.0f} by estimate)" if about is not None else ""
    return FracasError(
        "too_many_paths",
        f"the action has more than {max_paths:,} dice paths{estimate}: too many to "
        "enumerate exactly; fix some of its dice to condition the odds on them",
    )


class _Truncated(Exception):
    """A path went deeper than the stated depth."""


@dataclass(frozen=True)
class Distribution(Generic[K]):
    """An exact outcome distribution.

    Attributes:
        outcomes: each result the function returned, with its probability.
        paths: how many complete dice paths were replayed.
        truncated: the probability mass of paths cut at ``depth`` (0 when none).
        depth: the rolls-per-path limit that was applied.
    """

    outcomes: dict[K, Fraction]
    paths: int
    truncated: Fraction = Fraction(0)
    depth: int = DEFAULT_MAX_ROLLS
    truncated_paths: int = field(default=0)


class _PathDice:
    """Answers rolls from the current path, extending it with face 1 where it ends."""

    __slots__ = ("faces", "limit", "pos", "sides", "skip")

    def __init__(self, limit: int, skip: frozenset[str] = frozenset()) -> None:
        self.faces: list[int] = []
        self.sides: list[int] = []
        self.pos = 0
        self.limit = limit
        self.skip = skip

    def roll(self, sides: int, label: str, *, of: str | None = None, n: int | None = None) -> int:
        if label in self.skip:
            return 1
        pos = self.pos
        self.pos = pos + 1
        if pos < len(self.faces):
            return self.faces[pos]
        if pos >= self.limit:
            raise _Truncated
        self.faces.append(1)
        self.sides.append(sides)
        return 1

    def advance(self) -> bool:
        """Move to the next path; False when every path has been visited."""
        faces, sides = self.faces, self.sides
        # The path may be longer than this run used (never: replay is deterministic),
        # so trim to what was rolled before stepping.
        del faces[self.pos :]
        del sides[self.pos :]
        while faces and faces[-1] == sides[-1]:
            faces.pop()
            sides.pop()
        if not faces:
            return False
        faces[-1] += 1
        self.pos = 0
        return True


def enumerate_exact(
    fn: Callable[[Dice], K],
    *,
    given: Mapping[str, Sequence[int]] | None = None,
    max_rolls: int = DEFAULT_MAX_ROLLS,
    max_paths: int = DEFAULT_MAX_PATHS,
    irrelevant: frozenset[str] = frozenset(),
) -> Distribution[K]:
    """The exact distribution of ``fn``'s result over every face of every die it rolls.

    Args:
        fn: the rules function; it must roll deterministically given the faces.
        given: faces fixed by label (the odds are conditional on them).
        max_rolls: rolls along one path before it is cut and counted as truncated mass.
        max_paths: a guard against outcome spaces too large to enumerate.
        irrelevant: dice names whose faces cannot change ``fn``'s result; they are
            answered with face 1 and not branched on (a die that only feeds bookkeeping).

    Raises:
        FracasError: ``too_many_paths`` when the space exceeds ``max_paths``.

    >>> d = enumerate_exact(lambda dice: dice.roll(6, "a") + dice.roll(6, "b"))
    >>> d.outcomes[7], d.paths
    (Fraction(1, 6), 36)
    """
    path = _PathDice(max_rolls, irrelevant)
    table = TableDice(given, path) if given else None
    source: Dice = table if table is not None else path
    counts: dict[K, dict[int, int]] = {}
    truncated: dict[int, int] = {}
    taken: dict[str, int] = {}  # the most values of each given label one path took
    paths = 0
    while True:
        if table is not None:
            table.reset()
        path.pos = 0
        try:
            result = fn(source)
        except _Truncated:
            den = 1
            for s in path.sides:
                den *= s
            truncated[den] = truncated.get(den, 0) + 1
        else:
            den = 1
            for s in path.sides[: path.pos]:
                den *= s
            by_den = counts.get(result)
            if by_den is None:
                counts[result] = {den: 1}
            else:
                by_den[den] = by_den.get(den, 0) + 1
            paths += 1
            if paths == _FORESIGHT:
                about = _estimate_paths(fn, given, max_rolls, irrelevant)
                if about > _FORESIGHT_FACTOR * max_paths:
                    raise _too_many(max_paths, about)
            if paths > max_paths:
                raise _too_many(max_paths, None)
        if table is not None:
            for key, (n, matched) in table.usage().items():
                if len(matched) > 1:
                    raise DiceError(
                        "ambiguous_die_label",
                        f"die label {key!r} matches {len(matched)} rolls "
                        f"({', '.join(sorted(matched))}): name one of them",
                    )
                taken[key] = max(taken.get(key, 0), n)
        if not path.advance():
            break
    for key, n in taken.items():  # a given value no path rolls is an error (README, "Dice")
        if given is not None and n < len(given[key]):
            raise DiceError(
                "unused_die",
                f"die label {key!r} is never rolled by this action, on any dice path"
                if n == 0
                else f"die label {key!r} has {len(given[key])} values but no dice path "
                f"rolls it more than {n} time(s)",
            )
    outcomes = {
        key: sum((Fraction(c, d) for d, c in by.items()), Fraction(0)) for key, by in counts.items()
    }
    lost = sum((Fraction(c, d) for d, c in truncated.items()), Fraction(0))
    return Distribution(outcomes, paths, lost, max_rolls, sum(truncated.values()))
