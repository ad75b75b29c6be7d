"""The exact enumerator: replay a rules function over every face of every roll.

Depth-first: the first run takes face 1 of every die; each later run keeps the
prefix of faces and moves the deepest die that has faces left to its next
face. Every complete run is a path with probability ``1 / prod(sides)``;
results are accumulated exactly as ``Fraction``s. The rules code is the
ordinary one: only the dice object differs.

Bounded by work: an enumeration gives up with ``too_many_paths`` past a path budget
(replays, complete or cut), or early when Knuth's estimate of the tree foresees it (a
first look after :data:`_EARLY` replays, a closer one after :data:`_FORESIGHT`: a burst
of fifty shots is refused in a fraction of a second, not after thousands of replays).
The wall time is only an outer bound: ``too_slow`` ("cut by the time limit") past it,
``cancelled`` when its caller cancels (:mod:`fracas.dice.budget`).
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Generic, TypeVar, overload

from fracas.dice.budget import CHECK_EVERY, CUT_BY_TIME, Budget
from fracas.dice.pools import Faces, Joint, JointKey, Key, Pool
from fracas.dice.source import Dice, GivenDice, label_keys, label_of
from fracas.errors import DiceError, FracasError

__all__ = [
    "DEFAULT_MAX_PATHS",
    "DEFAULT_MAX_ROLLS",
    "Distribution",
    "Progress",
    "check_given_used",
    "enumerate_exact",
]

K = TypeVar("K", bound=Hashable)

DEFAULT_MAX_ROLLS = 40
"""Rolls along one path before the enumerator stops it (exploding dice) and counts its mass."""

DEFAULT_MAX_PATHS = 2_000_000
"""Paths (complete or cut at the depth) before the enumerator gives up with
``too_many_paths``."""


_EARLY = 1_000
"""After this many replays (complete or cut) the enumerator first estimates how many
paths there are in all, with :data:`_EARLY_PROBES` descents (a replay of a fifty-shot
burst costs about 0.3 ms: the refusal comes after about a third of a second)."""
_EARLY_PROBES = 100
"""Random descents for the first estimate."""
_FORESIGHT = 20_000
"""After this many replays it estimates again, with :data:`_PROBES` descents."""
_FORESIGHT_FACTOR = 4
"""It gives up at once when an estimate is over this many times ``max_paths``."""
_PROBES = 400
"""Random descents for the second estimate."""


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

    def draw(self, pool: Pool, key: Key, label: str, of: str | None, n: int | None) -> Faces:
        if label in self.skip:
            return pool.roll_each(self, label, of=of, n=n)
        self.rolls += 1
        if self.rolls > self.limit:
            raise _Truncated
        table = pool.classes(key, self.limit)
        self.weight *= len(table)
        return self.rng.choice(table).faces

    def draw_joint(self, joint: Joint, key: JointKey) -> tuple[Faces, ...]:
        if any(part.label in self.skip for part in joint.parts):
            return joint.roll_each(self)
        self.rolls += 1
        if self.rolls > self.limit:
            raise _Truncated
        table = joint.classes(key, self.limit)
        self.weight *= len(table)
        return self.rng.choice(table).faces


class _GivenProbe(GivenDice):
    """Given faces first, then a probe; a pool none of whose dice is given is drawn as
    one branch per class, as the enumerator draws it (die by die, the estimate would
    count every die's faces: a located 3-shot burst of 6,000 paths estimated at 200,000)."""

    def __init__(self, given: Mapping[str, Sequence[int]], probe: _ProbeDice) -> None:
        super().__init__(given, probe)
        self._probe = probe
        self._heads = frozenset(
            key.rsplit(":", cut)[0] for key in given for cut in range(key.count(":") + 1)
        )

    def draw(self, pool: Pool, key: Key, label: str, of: str | None, n: int | None) -> Faces:
        if label in self._heads:
            return pool.roll_each(self, label, of=of, n=n)
        return self._probe.draw(pool, key, label, of, n)

    def draw_joint(self, joint: Joint, key: JointKey) -> tuple[Faces, ...]:
        if any(part.label in self._heads for part in joint.parts):
            return joint.roll_each(self)
        return self._probe.draw_joint(joint, key)


def _estimate_paths(
    fn: Callable[[Dice], Any],
    given: Mapping[str, Sequence[int]] | None,
    max_rolls: int,
    irrelevant: frozenset[str],
    stop: Callable[[], None],
    probes: int = _PROBES,
) -> float:
    """Knuth's estimate of a tree's size (1975): the mean, over ``probes`` random
    descents, of the product of the branching along the way. Unbiased; seeded, so
    repeatable (the same tree, the same estimate, whatever the machine's load). ``stop``
    is called every few descents (it raises when the caller cancels or the wall-time
    bound is passed)."""
    rng = random.Random(0)
    total = 0
    for probe_no in range(probes):
        if probe_no % CHECK_EVERY == 0:
            stop()
        probe = _ProbeDice(rng, max_rolls, irrelevant)
        source: Dice = _GivenProbe(given, probe) if given else probe
        with contextlib.suppress(_Truncated):
            fn(source)
        total += probe.weight
    return total / probes


def _too_many(max_paths: int, about: float | None, first: list[str]) -> FracasError:
    estimate = f" (about {about:,.0f} by estimate)" if about is not None else ""
    which = f" (its first: {', '.join(first)})" if first else ""
    return FracasError(
        "too_many_paths",
        f"more than {max_paths:,} dice paths{estimate}: too many to enumerate exactly; "
        f"give some of its dice{which} or take fewer shots or targets",
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
    cut: dict[K, Fraction] = field(default_factory=dict)
    """Results of paths through a pool's cut class (an exploding die that went on past
    the depth), answered with the least such faces: each a lower bound, their mass
    part of ``truncated``."""
    counts: dict[K, dict[int, int]] = field(default_factory=dict)
    """With ``fractions=False``: each result's probability as numerators per
    denominator (their sum), and ``outcomes`` left empty: a caller that goes on
    multiplying and adding them spares the reductions of a ``Fraction`` each time."""
    taken: dict[str, int] = field(default_factory=dict)
    """Per given label, the most values one path took (with ``progress``, counting the
    steps' before)."""


class _PathDice:
    """Answers rolls from the current path, extending it with face 1 where it ends.

    Given faces (by full or short label, README "Dice") are answered first, as
    :class:`~fracas.dice.source.GivenDice` would, without wrapping every roll: only a
    roll whose name starts a given label looks them up.
    """

    __slots__ = (
        "clashes",
        "cut",
        "dens",
        "draws",
        "faces",
        "given",
        "heads",
        "labels",
        "limit",
        "matched",
        "nums",
        "pools",
        "pos",
        "routes",
        "sides",
        "skip",
        "tables",
        "used",
    )

    def __init__(
        self,
        limit: int,
        skip: frozenset[str],
        given: Mapping[str, Sequence[int]],
        pools: bool = True,
    ) -> None:
        self.pools = pools
        self.faces: list[int] = []
        self.sides: list[int] = []
        self.dens: list[int] = [1]  # dens[i]: the product of the denominators before i
        self.nums: list[int] = [1]  # nums[i]: the product of the chosen weights before i
        self.tables: list[tuple[Any, ...] | None] = []  # a pool's classes, or None: a die
        self.cut = False  # this run took a pool's cut class
        self.draws = 0  # pools drawn so far this run: they do not count against the depth
        self.labels: list[tuple[str, str | None, int | None]] = []
        self.pos = 0
        self.limit = limit
        self.skip = skip
        self.given = {key: tuple(values) for key, values in given.items()}
        # A roll named N can match a given key only if N is the key or a colon-prefix of it.
        self.heads = frozenset(
            key.rsplit(":", cut)[0] for key in self.given for cut in range(key.count(":") + 1)
        )
        self.used: dict[str, int] = {}  # per given key: values this run took
        self.matched: dict[str, str] = {}  # per given key: the first roll it matched this run
        self.clashes: dict[str, set[str]] = {}  # per given key matching several: the rolls
        self.routes: dict[tuple[str, str | None, int | None], tuple[str, tuple[str, ...]]] = {}

    def roll(self, sides: int, label: str, *, of: str | None = None, n: int | None = None) -> int:
        if label in self.heads:
            value = self._given(sides, label, of, n)
            if value is not None:
                return value
        if label in self.skip:
            return 1
        pos = self.pos
        self.pos = pos + 1
        if pos < len(self.faces):
            return self.faces[pos]
        if pos - self.draws >= self.limit:
            raise _Truncated
        self.faces.append(1)
        self.sides.append(sides)
        self.dens.append(self.dens[-1] * sides)
        self.nums.append(self.nums[-1])
        self.tables.append(None)
        self.labels.append((label, of, n))
        return 1

    def draw(self, pool: Pool, key: Key, label: str, of: str | None, n: int | None) -> Faces:
        """A whole pool as one branch per class of ``key`` (``fracas.dice.pools``); die by
        die where some of its dice are given or skipped."""
        if label in self.heads or label in self.skip or not self.pools:
            return pool.roll_each(self, label, of=of, n=n)
        return self._take(pool, key, (label, of, n)).faces  # type: ignore[no-any-return]

    def draw_joint(self, joint: Joint, key: JointKey) -> tuple[Faces, ...]:
        """A joint draw as one branch per class of ``key``; part by part, die by die,
        where some of its dice are given or skipped."""
        if not self.pools or any(
            part.label in self.heads or part.label in self.skip for part in joint.parts
        ):
            return joint.roll_each(self)
        first = joint.parts[0]
        return self._take(joint, key, (first.label, first.of, first.n)).faces  # type: ignore[no-any-return]

    def _take(
        self, drawn: Pool | Joint, key: Any, label: tuple[str, str | None, int | None]
    ) -> Any:
        """This path's class of a pool or a joint draw (its first, past the path's end)."""
        pos = self.pos
        self.pos = pos + 1
        self.draws += 1  # a pool is cut per die, at its own depth (``Pool.classes``)
        if pos < len(self.faces):
            table = self.tables[pos]
            assert table is not None  # replay is deterministic
            chosen = table[self.faces[pos] - 1]
        else:
            table = drawn.classes(key, self.limit)
            chosen = table[0]
            self.faces.append(1)
            self.sides.append(len(table))
            self.dens.append(self.dens[-1] * chosen.den)
            self.nums.append(self.nums[-1] * chosen.weight)
            self.tables.append(table)
            self.labels.append(label)
        if chosen.cut:
            self.cut = True
        return chosen

    def _given(self, sides: int, label: str, of: str | None, n: int | None) -> int | None:
        route = self.routes.get((label, of, n))
        if route is None:  # the roll's full label and the given keys it matches, once
            keys = tuple(k for k in label_keys(label, of, n) if k in self.given)
            route = self.routes[(label, of, n)] = (label_of(label, of, n), keys)
        full, keys = route
        value: int | None = None
        for key in keys:
            values = self.given[key]
            first = self.matched.get(key)
            if first is None:
                self.matched[key] = full
            elif first != full:
                self.clashes.setdefault(key, {first}).add(full)
            used = self.used.get(key, 0)
            if value is None and used < len(values):
                value = values[used]
                self.used[key] = used + 1
                if not 1 <= value <= sides:
                    raise DiceError(
                        "die_out_of_range",
                        f"die {key!r} = {value!r} is not a face of a d{sides}: give 1..{sides}",
                    )
        return value

    def advance(self) -> bool:
        """Move to the next path; False when every path has been visited."""
        faces, sides = self.faces, self.sides
        # The path may be longer than this run used (never: replay is deterministic),
        # so trim to what was rolled before stepping.
        cut = self.pos
        tables, nums = self.tables, self.nums
        del faces[cut:], sides[cut:], self.labels[cut:], tables[cut:]
        del self.dens[cut + 1 :], nums[cut + 1 :]
        while faces and faces[-1] == sides[-1]:
            faces.pop()
            sides.pop()
            tables.pop()
            self.labels.pop()
            self.dens.pop()
            nums.pop()
        if not faces:
            return False
        faces[-1] += 1
        table = tables[-1]
        if table is not None:
            nums[-1] = nums[-2] * table[faces[-1] - 1].weight
        self.pos = 0
        self.draws = 0
        self.cut = False
        return True

    def first_labels(self, count: int) -> list[str]:
        """The full labels of the first ``count`` branching rolls of the current path."""
        out: list[str] = []
        for name, of, n in self.labels:
            full = label_of(name, of, n)
            if full not in out:
                out.append(full)
            if len(out) == count:
                break
        return out


@overload
def enumerate_exact(
    fn: Callable[[Dice], K],
    *,
    given: Mapping[str, Sequence[int]] | None = None,
    max_rolls: int = DEFAULT_MAX_ROLLS,
    max_paths: int = DEFAULT_MAX_PATHS,
    irrelevant: frozenset[str] = frozenset(),
    budget: Budget | None = None,
    pools: bool = True,
    fractions: bool = True,
    progress: None = None,
) -> Distribution[K]: ...


@overload
def enumerate_exact(
    fn: Callable[[Dice], K],
    *,
    given: Mapping[str, Sequence[int]] | None = None,
    max_rolls: int = DEFAULT_MAX_ROLLS,
    max_paths: int = DEFAULT_MAX_PATHS,
    irrelevant: frozenset[str] = frozenset(),
    budget: Budget | None = None,
    pools: bool = True,
    fractions: bool = True,
    progress: Progress,
) -> Distribution[tuple[K, Progress]]: ...


@overload
def enumerate_exact(
    fn: Callable[[Dice], K],
    *,
    given: Mapping[str, Sequence[int]] | None = None,
    max_rolls: int = DEFAULT_MAX_ROLLS,
    max_paths: int = DEFAULT_MAX_PATHS,
    irrelevant: frozenset[str] = frozenset(),
    budget: Budget | None = None,
    pools: bool = True,
    fractions: bool = True,
    progress: Progress | None,
) -> Distribution[Any]: ...


def enumerate_exact(
    fn: Callable[[Dice], K],
    *,
    given: Mapping[str, Sequence[int]] | None = None,
    max_rolls: int = DEFAULT_MAX_ROLLS,
    max_paths: int = DEFAULT_MAX_PATHS,
    irrelevant: frozenset[str] = frozenset(),
    budget: Budget | None = None,
    pools: bool = True,
    fractions: bool = True,
    progress: Progress | None = None,
) -> Distribution[Any]:
    """The exact distribution of ``fn``'s result over every face of every die it rolls.

    Args:
        fn: the rules function; it must roll deterministically given the faces.
        given: faces fixed by label (the odds are conditional on them).
        max_rolls: rolls along one path before it is cut and counted as truncated mass.
        max_paths: a guard against outcome spaces too large to enumerate.
        irrelevant: dice names whose faces cannot change ``fn``'s result; they are
            answered with face 1 and not branched on (a die that only feeds bookkeeping).
        budget: an outer bound on wall time and a cancellation hook, checked every few
            replays (none: unbounded in time, never cancelled).
        pools: draw a pool (``fracas.dice.pools``) as one branch per class; False:
            die by die (the plain enumeration tests compare with).
        fractions: False: the outcomes as integer ``counts`` per denominator only.
        progress: a step of a roll whose given faces run across its steps: how far the
            steps before took them (:data:`Progress`; ``()`` for the first). Each
            result is then ``(fn's result, the progress after it)``, and a given value
            this step leaves is the later steps' (``unused_die`` is the caller's:
            :func:`check_given_used` over :attr:`Distribution.taken`).

    Raises:
        FracasError: ``too_many_paths`` when the space exceeds ``max_paths``;
            ``too_slow`` when the wall-time bound cuts it; ``cancelled`` when its hook
            says so.

    >>> d = enumerate_exact(lambda dice: dice.roll(6, "a") + dice.roll(6, "b"))
    >>> d.outcomes[7], d.paths
    (Fraction(1, 6), 36)
    """
    given = given or {}
    path = _PathDice(max_rolls, irrelevant, given, pools)
    used, matched, clashes = path.used, path.matched, path.clashes
    start_used = {key: n for key, n, _ in progress or ()}
    start_matched = {key: full for key, _, full in progress or ()}
    # what a probe may still take: the values the steps before left
    left = {key: values[start_used.get(key, 0) :] for key, values in given.items()}
    counts: dict[K, dict[int, int]] = {}
    cuts: dict[K, dict[int, int]] = {}
    truncated: dict[int, int] = {}
    cut_paths = [0]
    taken: dict[str, int] = {}  # the most values of each given label one path took
    paths = 0
    runs = 0

    def stop() -> None:
        if budget is not None:
            _check(budget, path, runs, counts, truncated, cut_paths[0])

    while True:
        runs += 1
        if runs % CHECK_EVERY == 0:
            stop()
        if given:
            used.clear()
            matched.clear()
            clashes.clear()
            if progress:
                used.update(start_used)
                matched.update(start_matched)
        path.pos = 0
        path.draws = 0
        try:
            result: Any = fn(path)
            if progress is not None:
                result = (result, _progress(used, matched))
        except _Truncated:
            den = path.dens[-1]
            truncated[den] = truncated.get(den, 0) + path.nums[-1]
            cut_paths[0] += 1
        else:
            den, num = path.dens[path.pos], path.nums[path.pos]
            into = counts
            if path.cut:  # a lower bound: counted apart, its mass truncated
                into = cuts
                truncated[den] = truncated.get(den, 0) + num
                cut_paths[0] += 1
            by_den = into.setdefault(result, {})  # the result hashed once
            by_den[den] = by_den.get(den, 0) + num
            paths += 1
        # Cut paths count against the budget too: an action that rolls more dice than
        # the depth is nothing but cut paths, and there may be astronomically many.
        if runs in (_EARLY, _FORESIGHT) and runs <= max_paths:
            probes = _EARLY_PROBES if runs == _EARLY else _PROBES
            about = _estimate_paths(fn, left, max_rolls, irrelevant, stop, probes)
            if about > _FORESIGHT_FACTOR * max_paths:
                raise _too_many(max_paths, about, path.first_labels(3))
        if runs > max_paths:
            raise _too_many(max_paths, None, path.first_labels(3))
        if given:
            if clashes:
                key, rolls = next(iter(clashes.items()))
                raise DiceError(
                    "ambiguous_die_label",
                    f"die label {key!r} matches {len(rolls)} rolls "
                    f"({', '.join(sorted(rolls))}): name one of them",
                )
            for key, n in used.items():
                if n > taken.get(key, 0):
                    taken[key] = n
        if not path.advance():
            break
    if progress is None:
        check_given_used(given, taken)
    lost = _mass(truncated) if truncated else _ZERO
    cut = {key: _mass(by) for key, by in cuts.items()}
    if not fractions:
        return Distribution({}, paths, lost, max_rolls, cut_paths[0], cut, counts, taken)
    outcomes = {key: _mass(by) for key, by in counts.items()}
    return Distribution(outcomes, paths, lost, max_rolls, cut_paths[0], cut, taken=taken)


def check_given_used(given: Mapping[str, Sequence[int]], taken: Mapping[str, int]) -> None:
    """Refuse a given value no dice path rolls (README, "Dice"): ``taken``, the most
    values of each given label one path took."""
    for key, values in given.items():
        n = taken.get(key, 0)
        if n < len(values):
            raise DiceError(
                "unused_die",
                f"die label {key!r} is never rolled by this action, on any dice path"
                if n == 0
                else f"die label {key!r} has {len(values)} values but no dice path "
                f"rolls it more than {n} time(s)",
            )


Progress = tuple[tuple[str, int, str], ...]
"""How far a roll's steps took its given faces: per given label a roll matched (sorted),
the values taken and the first roll it matched (two rolls matching one short label are
``ambiguous_die_label``, across the steps too)."""


def _progress(used: Mapping[str, int], matched: Mapping[str, str]) -> Progress:
    return tuple(sorted((key, used.get(key, 0), full) for key, full in matched.items()))


_ZERO = Fraction(0)


def _mass(by_den: Mapping[int, int]) -> Fraction:
    return sum((Fraction(c, d) for d, c in by_den.items()), Fraction(0))


def _check(
    budget: Budget,
    path: _PathDice,
    runs: int,
    counts: Mapping[Any, Mapping[int, int]],
    truncated: Mapping[int, int],
    cut: int,
) -> None:
    """Raise ``cancelled`` or ``too_slow`` (cut by the time limit) if the budget says
    stop, saying how far it got."""
    if budget.cancelled():
        raise FracasError(
            "cancelled",
            f"the odds were cancelled by their caller after {budget.elapsed():.2f} s "
            f"({runs:,} dice paths replayed)",
        )
    if not budget.expired():
        return
    done = sum((_mass(by) for by in counts.values()), _mass(truncated))
    share = f"{float(done) * 100:.2f}%" if done >= Fraction(1, 10_000) else "under 0.01%"
    cuts = f", {cut:,} of them cut at {path.limit} rolls" if cut else ""
    first = path.first_labels(3)
    give = (
        f"give its first dice ({', '.join(first)}) or take fewer shots or targets"
        if first
        else "take fewer shots or targets"
    )
    raise FracasError(
        "too_slow",
        f"{CUT_BY_TIME}: not done within {budget.seconds:g} s: {runs:,} dice paths{cuts}, "
        f"{share} of the probability; {give} (--seconds allows more time)",
    )
