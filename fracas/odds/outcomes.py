"""The outcomes of one decided action, summarised per combatant: exact by steps, or sampled.

Exact: the action's roll is enumerated step by step (``fracas.rulesets.steps``). A node is
(what the summary knows so far, the state, the step still to roll); each step's dice
paths are replayed under the enumerator (pools branch once per class), and every path
ends in a node of the next step or in a final summary. Nodes reached by several paths
are followed once, with their weights added; a step that says what the rest of the
roll's odds depend on (``odds_key``, :mod:`fracas.rulesets.steps`) merges by that instead.
The summary of a path is, per combatant an attack tried or damaged, whether it landed,
the damage and whether the combatant is down at the end. Where a step says whom the
rest of the roll is about (``odds_scope``), everyone else's summary is settled there:
counted per combatant (``Exact.settled``), left out of the node, and reset in its state
to what it was before the roll, so the nodes that differed only in them are one.

Paths through an exploding die cut at the depth are kept apart, each with what is
known exactly (the summary before the step where it was cut) and a lower bound (the
summary with the least faces of the cut, the steps after it followed from there, apart
from the paths not cut). Sampled: the same roll under seeded random
dice, path after path, a fixed number of them (the caller's work budget; fewer only
where its wall-time bound or its cancellation stops them, which it then says).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from fracas.dice.budget import Budget
from fracas.dice.exact import Distribution, Progress, check_given_used, enumerate_exact
from fracas.dice.source import Dice, GivenDice, RandomDice
from fracas.errors import FracasError
from fracas.model import Combatant, Encounter, Event, fold
from fracas.model.frozen import FrozenDict, evolve
from fracas.odds.folds import Finals, Folds, Partial, Path, finished, merge, relevant, summary
from fracas.rulesets.base import Ruleset, is_down
from fracas.rulesets.steps import Roller, Then, odds_key, odds_scope, odds_shared, run_steps

__all__ = [
    "Entry",
    "Exact",
    "Gone",
    "Partial",
    "Path",
    "Sampled",
    "exact_outcomes",
    "sample_outcomes",
]

Gone = frozenset[str]
"""The combatants settled on the way to a node (``Exact.settled``): a final summary or a
cut path after it says nothing of them."""
Entry = tuple[bool | None, int, bool]
"""One combatant's settled summary: landed, damage and down at the end."""


@dataclass
class Exact:
    """Exact outcomes: final summaries with their probabilities, each with the combatants
    settled before it; per combatant, its summaries settled before the end (both as
    integer numerators over ``den``); and the cut paths as (known exactly, lower bound,
    probability, settled before)."""

    outcomes: dict[tuple[Gone, Path], int] = field(default_factory=dict)
    settled: dict[str, dict[Entry, int]] = field(default_factory=dict)
    den: int = 1
    cut: list[tuple[Partial, Path, Fraction, Gone]] = field(default_factory=list)
    paths: int = 0

    @property
    def truncated(self) -> Fraction:
        return sum((p for _, _, p, _ in self.cut), Fraction(0))


@dataclass
class Sampled:
    """Sampled outcomes: how many paths gave each summary."""

    counts: dict[Path, int]
    samples: int
    seed: int


def exact_outcomes(
    ruleset: Ruleset,
    before: Encounter,
    decision: Any,
    roller: Roller,
    *,
    given: Mapping[str, Sequence[int]],
    max_rolls: int,
    skip: frozenset[str],
    max_paths: int,
    budget: Budget,
    pools: bool = True,
) -> Exact:
    """The exact outcomes of ``roller(before, decision, dice)``, step by step.

    With dice given (their values are taken in order across the whole roll) each node
    holds how far the steps before it took them (:data:`~fracas.dice.exact.Progress`),
    and a given value no path of any step rolls is refused at the end, as one
    enumeration of the whole roll refuses it; the pools still branch by class."""
    out = Exact()
    # Per node (known, settled, state, the step's odds key, the given dice taken, and for
    # the rest of a path cut before, what was known exactly where it was cut): its
    # weight (numerators per denominator) and the step followed.
    frontier: dict[_Node, list[Any]] = {
        ((), _NONE, before, odds_key(decision), () if given else None, None): [{1: 1}, decision]
    }
    finals: dict[tuple[Gone, Path], dict[int, int]] = {}
    settled: dict[str, dict[Entry, dict[int, int]]] = {}
    taken: dict[str, int] = {}  # per given label, the most values one path took
    shared: dict[Hashable, tuple[Any, Distribution[Any]]] = {}  # per odds_shared: the first
    while frontier:
        if out.paths >= max_paths:
            raise FracasError(
                "too_many_paths",
                f"more than {max_paths:,} dice paths over the steps of the roll "
                f"({len(frontier):,} states still to follow): too many to enumerate "
                "exactly; give some of its dice or take fewer shots or targets",
            )
        node = next(iter(frontier))
        weight, step = frontier.pop(node)
        partial, gone, state, _, progress, cut_at = node

        def one(dice: Dice, state: Encounter = state, step: Any = step) -> tuple[Event, ...]:
            events = roller(state, step, dice)
            if events and isinstance(events[-1], Then):
                return relevant(events)
            return finished(events)  # what its summary reads, and no more

        # with dice given, each result comes with the given dice taken after it
        share = odds_shared(step)
        if share is not None:  # with dice given, shared only as far as they were taken
            share = (share, progress)
        known_dice = shared.get(share) if share is not None else None
        if known_dice is not None:  # another node's step's dice (any state): rebuilt
            dist = known_dice[1]
            counts, cuts = _rebound(dist, step, known_dice[0], progress is not None)
        else:
            dist = enumerate_exact(
                one, given=given, max_rolls=max_rolls, irrelevant=skip,
                max_paths=max_paths - out.paths, budget=budget, pools=pools, fractions=False,
                progress=progress,
            )  # fmt: skip
            if share is not None:
                shared[share] = (step, dist)
            counts, cuts = list(dist.counts.items()), list(dist.cut.items())
        out.paths += dist.paths
        for label, n in dist.taken.items():
            taken[label] = max(n, taken.get(label, 0))
        downs, folds = Finals(ruleset, state), Folds(state)
        # the paths that end in a step: (their events, the given dice taken, their
        # weight, and for the rest of a path cut here or before, what was known exactly)
        nexts: list[tuple[tuple[Event, ...], Progress | None, Mapping[int, int], Any]] = []
        for result, by in counts:
            events, after_progress = result if progress is not None else (result, None)
            if events and isinstance(events[-1], Then):
                nexts.append((events, after_progress, by, cut_at))
                continue
            _, path = downs.path(partial, events)
            if cut_at is None:
                _add(finals.setdefault((gone, path), {}), weight, by)
            else:  # the end of a path cut before: a lower bound, its mass cut
                out.cut.append((cut_at, path, _mass(weight) * _mass(by), gone))
        if dist.truncated:
            mass = _mass(weight)
            known_at = partial if cut_at is None else cut_at
            for result, p in cuts:
                events, after_progress = result if progress is not None else (result, None)
                if events and isinstance(events[-1], Then):  # the rest from the least faces
                    nexts.append((events, after_progress, {p.denominator: p.numerator}, known_at))
                    continue
                _, lower = downs.path(partial, events)
                out.cut.append((known_at, lower, mass * p, gone))
            plain = dist.truncated - sum(dist.cut.values(), Fraction(0))
            if plain:
                out.cut.append((known_at, summary(ruleset, partial, state), mass * plain, gone))
        for events, after_progress, reach, cut in nexts:
            then = events[-1]
            assert isinstance(then, Then)
            body = events[:-1]
            known = merge(partial, body)
            after, left = folds.fold(body), gone
            scope = odds_scope(then.step)
            if scope is not None and cut is None:  # a cut path's rest settles nothing
                known, after, done = _settle(ruleset, before, state, known, after, scope)
                for cid, entry in done.items():
                    _add(settled.setdefault(cid, {}).setdefault(entry, {}), weight, reach)
                if done:
                    left = gone.union(done)
            key = (known, left, after, odds_key(then.step), after_progress, cut)
            found = frontier.get(key)
            if found is None:
                frontier[key] = [_add({}, weight, reach), then.step]
            else:
                _add(found[0], weight, reach)
    check_given_used(given, taken)
    # one denominator for the final summaries and the settled ones alike
    den = out.den = math.lcm(
        *(d for by in finals.values() for d in by),
        *(d for entries in settled.values() for by in entries.values() for d in by),
    )
    out.outcomes = {key: _over(by, den) for key, by in finals.items()}
    out.settled = {
        cid: {entry: _over(by, den) for entry, by in entries.items()}
        for cid, entries in settled.items()
    }
    return out


def _rebound(
    dist: Distribution[Any], step: Any, source: Any, progressed: bool
) -> tuple[list[tuple[Any, dict[int, int]]], list[tuple[Any, Fraction]]]:
    """The results of ``source``'s dice (``dist``: the same ``odds_shared``, the same
    given dice taken before) as ``step``'s, each rebuilt by what ``step.odds_rebind``
    makes of ``source`` (with dice given, its events; the given dice taken after it as
    they were), with their weights: the counted ones, then the cut ones. Results that
    come out alike are added where they meet, as any two paths' are."""
    rebind = step.odds_rebind(source)

    def again(result: Any) -> Any:
        if progressed:
            events, after = result
            return (rebind(events), after)
        return rebind(result)

    counts = [(again(result), by) for result, by in dist.counts.items()]
    return counts, [(again(result), p) for result, p in dist.cut.items()]


def _over(by: Mapping[int, int], den: int) -> int:
    """A sum of numerators per denominator as one numerator over ``den`` (a multiple of
    each denominator)."""
    return sum(n * (den // d) for d, n in by.items())


_NONE: Gone = frozenset()
_Node = tuple[Partial, Gone, Encounter, Hashable, Progress | None, Partial | None]
"""A node of the roll's steps (:func:`exact_outcomes`)."""


def _settle(
    ruleset: Ruleset,
    before: Encounter,
    start: Encounter,
    known: Partial,
    after: Encounter,
    scope: frozenset[str],
) -> tuple[Partial, Encounter, dict[str, Entry]]:
    """The node a step whose rest is about ``scope`` starts: everyone else's summary so
    far settled (per id: landed, damage, down in ``after``) and left out of ``known``,
    and everyone else put back in the state as they were before the roll (the rest
    never reads them); the step's ``start`` state itself where that is all it was."""
    done: dict[str, Entry] = {}
    if any(cid not in scope for cid, _, _ in known):
        done = {
            cid: (landed, dealt, is_down(ruleset, after.get(cid)))
            for cid, landed, dealt in known
            if cid not in scope
        }
        known = tuple(e for e in known if e[0] in scope)
    was, begun = before.combatants, start.combatants
    put: dict[str, Combatant] = {}  # per combatant: as it is in the node's state
    for cid, c in after.combatants.items():
        put[cid] = was[cid] if cid not in scope and cid in was else c
    if (
        put.keys() == begun.keys()
        and all(put[cid] is c for cid, c in begun.items())
        and all(getattr(after, name) is getattr(start, name) for name in _FIELDS)
    ):
        return known, start, done  # the step's own state: its hash known already
    return known, evolve(after, combatants=FrozenDict(put)), done


_FIELDS = tuple(f.name for f in dataclasses.fields(Encounter) if f.name != "combatants")


def _add(into: dict[int, int], weight: Mapping[int, int], by: Mapping[int, int]) -> dict[int, int]:
    """``into`` plus ``weight`` times ``by``, each a sum of numerators per denominator."""
    for wd, wn in weight.items():
        for d, n in by.items():
            den = wd * d
            into[den] = into.get(den, 0) + wn * n
    return into


def _mass(by: Mapping[int, int]) -> Fraction:
    return sum((Fraction(n, d) for d, n in by.items()), Fraction(0))


def sample_outcomes(
    ruleset: Ruleset,
    before: Encounter,
    decision: Any,
    roller: Roller,
    *,
    given: Mapping[str, Sequence[int]],
    seed: int,
    until: Callable[[int], bool],
) -> Sampled:
    """Seeded random paths of the roll, one after another, until ``until(samples)`` (the
    samples so far) says stop: a number of samples, a time bound, a cancellation."""
    source = RandomDice(seed)
    counts: dict[Path, int] = {}
    n = 0
    while not until(n):
        dice: Dice = GivenDice(given, source) if given else source
        events = run_steps(roller, before, decision, dice)
        path = summary(ruleset, merge((), events), fold(before, relevant(events)))
        counts[path] = counts.get(path, 0) + 1
        n += 1
    return Sampled(counts, n, seed)
