"""How exact odds read the events of one node's dice paths (:mod:`fracas.odds.outcomes`):
which events a path is kept by, its summary so far (:func:`merge`), who is down at the
end of a finished path (:class:`Finals`) and the state a path leaves for the next step
(:class:`Folds`).

A node's paths mostly differ in their last events (the damage of a blast on each of its
victims, say) and meet the same changes of state again and again, so the state is
never folded afresh per path: each distinct change is applied once, by what it changes
(``Event.effect``: damage of the same amount with another cause changes every state
alike). Who is down at the end is followed per combatant where the events say they
read and change one combatant only (``fracas.model.events.changes_one``: damage, a status set
or cleared): a blast on three victims then costs the sum of what each victim took, not
a fold of every combination of them. The states and summaries given are those a fold of
the events, one after the other, gives.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from fracas.model import Attempted, Combatant, Damaged, Encounter, Event
from fracas.model.events import changes_one
from fracas.rulesets.base import Ruleset, is_down
from fracas.rulesets.steps import Then

__all__ = [
    "Finals",
    "Folds",
    "Partial",
    "Path",
    "finished",
    "merge",
    "relevant",
    "summary",
]

Partial = tuple[tuple[str, bool | None, int], ...]
"""Per combatant so far (sorted by id): landed (None: not attacked) and damage taken."""
Path = tuple[tuple[str, bool | None, int, bool], ...]
"""One path's summary: per combatant, landed, damage and down at the end."""


class _Kinds(dict[type[Event], bool]):
    """Per event type, a property worked out once from the class (``test``)."""

    def __init__(self, test: Any) -> None:
        super().__init__()
        self.test = test

    def __missing__(self, kind: type[Event]) -> bool:
        found = self[kind] = bool(self.test(kind))
        return found


_SAME = _Kinds(lambda kind: kind.apply is Event.apply)
"""Folding it leaves every state as it was (the identity ``apply``): a fold skips it."""
_READ = _Kinds(lambda kind: issubclass(kind, Attempted | Damaged | Then) or not _SAME[kind])
"""The summary or the state reads it: an attempt, damage, a change of state, a step."""
_DOWN = _Kinds(lambda kind: not getattr(kind, "keeps_down", False) and not _SAME[kind])
"""Folding it may change who is down at the end: it changes the state and does not
declare ``keeps_down = True`` (a class attribute: folding the event never changes whether
any combatant is down, ``fracas.rulesets.base.is_down``, nor what a later event's ``apply`` does to
that, such as a limb's damage). A finished path is folded only to see who is down."""
_FINISHED = _Kinds(lambda kind: issubclass(kind, Attempted | Damaged) or _DOWN[kind])
"""A finished path's summary reads it: an attempt or damage (:func:`merge`), or it may
change who is down."""
_ONE = _Kinds(changes_one)
"""It reads and changes one combatant only, its ``target``, as its ``changed`` says."""


def relevant(events: Sequence[Event]) -> tuple[Event, ...]:
    """The events of a path that the summary or the state after it reads."""
    return tuple([e for e in events if _READ[type(e)]])


def finished(events: Sequence[Event]) -> tuple[Event, ...]:
    """The events of a finished path (no step after it) that its summary reads: paths
    with equal ones have equal summaries (and are followed as one)."""
    return tuple([e for e in events if _FINISHED[type(e)]])


_TALLIED = (Attempted, Damaged)


def merge(partial: Partial, events: Sequence[Event]) -> Partial:
    """``partial`` with the attempts and damage of ``events`` added."""
    seen: dict[str, tuple[bool | None, int]] | None = None
    for e in events:
        if isinstance(e, _TALLIED):
            if seen is None:
                seen = {cid: (landed, dealt) for cid, landed, dealt in partial}
            landed, dealt = seen.get(e.target, (None, 0))
            if isinstance(e, Attempted):
                landed = bool(landed) or e.landed
            else:
                dealt += e.amount
            seen[e.target] = (landed, dealt)
    if seen is None:
        return partial
    return tuple(sorted((cid, landed, dealt) for cid, (landed, dealt) in seen.items()))


def summary(ruleset: Ruleset, partial: Partial, state: Encounter) -> Path:
    """The final summary: ``partial`` with whether each combatant is down in ``state``."""
    return tuple(
        (cid, landed, dealt, is_down(ruleset, state.get(cid))) for cid, landed, dealt in partial
    )


_Level = dict[Hashable, tuple[Encounter, "_Level"]]
"""A tree of changes: per effect, the state it leads to and the changes after it."""


class Folds:
    """The states many paths' events leave ``state`` in, each shared first part of their
    changes applied once (by ``Event.effect``); the events that change nothing skipped.
    Each state is the one :func:`~fracas.model.fold` gives."""

    __slots__ = ("root", "state")

    def __init__(self, state: Encounter) -> None:
        self.state = state
        self.root: _Level = {}

    def fold(self, events: Sequence[Event]) -> Encounter:
        now, level = self.state, self.root
        same = _SAME
        for e in events:
            if same[type(e)]:
                continue
            key = e.effect()
            found = level.get(key)
            if found is None:
                found = level[key] = (e.apply(now), {})
            now, level = found
        return now


_Node = tuple[Combatant, "dict[Hashable, _Node]", bool]
"""A combatant as some changes leave it, the changes after them, and whether it is down."""


class _Tally(dict[type[Event], int]):
    """Per event type, what :func:`merge` adds of it: 1 an attempt, 2 damage, 0 nothing."""

    def __missing__(self, kind: type[Event]) -> int:
        found = self[kind] = (
            1 if issubclass(kind, Attempted) else 2 if issubclass(kind, Damaged) else 0
        )
        return found


_TALLY = _Tally()


class Finals:
    """The final summaries of many finished paths from ``state``: who is down at the end,
    each combatant's own changes followed apart (events of one combatant only,
    ``changes_one``: a tree of them per combatant, each change made once, and whether it
    leaves the combatant down worked out once) until an event that may read or change
    more (from there on, the state as a whole is folded, event by event). Events that
    keep who is down are skipped."""

    __slots__ = ("ones", "ruleset", "state")

    def __init__(self, ruleset: Ruleset, state: Encounter) -> None:
        self.ruleset = ruleset
        self.state = state
        self.ones: dict[str, _Node] = {}

    def _root(self, cid: str) -> _Node:
        found = self.ones.get(cid)
        if found is None:
            c = self.state.get(cid)
            found = self.ones[cid] = (c, {}, is_down(self.ruleset, c))
        return found

    def path(self, partial: Partial, events: Sequence[Event]) -> tuple[Partial, Path]:
        """``partial`` with the attempts and damage of ``events`` added (as :func:`merge`
        does), and that with whether each combatant is down once ``events`` are folded
        (as :func:`summary` of the fold)."""
        down, one, tally = _DOWN, _ONE, _TALLY
        seen: dict[str, tuple[bool | None, int]] | None = None
        at: dict[str, _Node] = {}  # the combatants changed so far
        whole: Encounter | None = None  # the state, past an event not of one combatant
        for e in events:
            kind = type(e)
            adds = tally[kind]
            if adds:
                if seen is None:
                    seen = {cid: (landed, dealt) for cid, landed, dealt in partial}
                cid: str = e.target  # type: ignore[attr-defined]
                landed, dealt = seen.get(cid, (None, 0))
                if adds == 1:
                    landed = bool(landed) or e.landed  # type: ignore[attr-defined]
                else:
                    dealt += e.amount  # type: ignore[attr-defined]
                seen[cid] = (landed, dealt)
            if not down[kind]:
                continue
            if whole is not None:
                whole = e.apply(whole)
                continue
            if not one[kind]:
                whole = self.state
                for c, _, _ in at.values():  # they commute: each reads only its own
                    whole = whole.with_combatant(c)
                whole = e.apply(whole)
                continue
            cid = e.target  # type: ignore[attr-defined]
            now = at.get(cid)
            if now is None:
                now = self._root(cid)
            key = e.effect()
            found = now[1].get(key)
            if found is None:
                c = e.changed(now[0])  # type: ignore[attr-defined]
                found = now[1][key] = (c, {}, is_down(self.ruleset, c))
            at[cid] = found
        known = partial
        if seen is not None:
            known = tuple(sorted((cid, landed, dealt) for cid, (landed, dealt) in seen.items()))
        if whole is not None:
            return known, summary(self.ruleset, known, whole)
        return known, tuple(
            (cid, landed, dealt, (at.get(cid) or self._root(cid))[2])
            for cid, landed, dealt in known
        )
