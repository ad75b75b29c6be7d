"""Which combatants folding an action's events read (:func:`traced_fold`; the policy's
scores use :func:`traced_gains`, the same trace without a whole state per run), so that
the policy's score of an action serves every state that agrees on them.

Folding a run of events onto a state reads a few combatants (the attacker, the target)
and changes only what it read. The fold runs on a copy of the state whose combatants
note every look-up by id (:class:`_Seen`); any wider look (iterating, counting,
copying, hashing, comparing the combatants) counts as reading all of them, and then
nothing is shared. A deterministic fold given equal values for what it read reads the
same combatants and makes the same changes, so what the changed combatants became, and
the score made of it, is the same for every state that agrees on them (and on every
other field of the state, which the key holds whole).
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Iterable
from typing import cast

from fracas.lab.fight import fold_runs
from fracas.lab.watch import Notes, peek, watched
from fracas.model import Combatant, Encounter, Event
from fracas.model.events import changes_one
from fracas.model.frozen import evolve
from fracas.rulesets.base import Ruleset, is_down, memos_on

__all__ = ["Gain", "Gains", "Scaled", "traced_fold", "traced_gains"]

_LOCK = threading.Lock()
"""One traced fold at a time in a process (the tracker's win bar runs the lab in
threads; the notes below are per process)."""


_NOTES = Notes()
_Seen = watched(_NOTES)
"""A traced state's combatants."""


Runs = Iterable[tuple[Event, ...]]


def traced_fold(
    state: Encounter, runs: Runs
) -> tuple[dict[tuple[Event, ...], Encounter], tuple[str, ...] | None]:
    """Each run folded onto ``state`` (as :func:`~fracas.lab.fight.fold_runs` does), and
    the ids of the combatants the folds read, sorted, where they decide every change:
    nothing wider was read, no combatant came or went, and every combatant that changed
    was read. None where not (the folds are then those of the plain state)."""
    runs = list(runs)
    with _LOCK:
        _NOTES.reset()
        seen = evolve(state, combatants=_Seen(state.combatants))
        try:
            folded: dict[tuple[Event, ...], Encounter] | None = fold_runs(seen, runs)
        except Exception:  # what the rules made of a traced state: the plain way
            folded = None
        ids, wide = frozenset(_NOTES.ids), _NOTES.wide
        _NOTES.reset()
    if folded is None or wide or not _decides(state, folded.values(), ids):
        return fold_runs(state, runs), None
    return folded, tuple(sorted(ids))


def _decides(state: Encounter, folded: Iterable[Encounter], ids: frozenset[str]) -> bool:
    before = state.combatants
    for after in folded:
        now = after.combatants
        if dict.__len__(cast(dict[str, Combatant], now)) != len(before):
            return False
        for cid, c in before.items():
            if peek(now, cid) is not c and cid not in ids:
                return False
    return True


# --- the scores' gains, each combatant's own changes followed apart (issue 34) -----------

Gain = tuple[int, int, int, int]
"""One run's (enemies down minus allies, enemy HP lost minus allies', enemy HP lost, HP
lost by the actor's allies but itself): :meth:`~fracas.lab.policy.Policy.score`'s, of
the state the run's fold leaves."""

_NONE: Gain = (0, 0, 0, 0)

_ONE: dict[type[Event], bool] = {}
"""Per event type: it reads and changes one combatant only (``changes_one``)."""
_SAME: dict[type[Event], bool] = {}
"""Per event type: folding it leaves every state as it was (``Event.apply``)."""


def _one(kind: type[Event]) -> bool:
    found = _ONE.get(kind)
    if found is None:
        found = _ONE[kind] = changes_one(kind)
    return found


def _same(kind: type[Event]) -> bool:
    found = _SAME.get(kind)
    if found is None:
        found = _SAME[kind] = kind.apply is Event.apply
    return found


def _blind(kind: type[Event]) -> bool:
    """Folding it changes nothing a gain reads (``keeps_down``: neither who is down nor
    anyone's HP, nor what a later event's ``apply`` reads), or nothing at all."""
    return _same(kind) or kind.keeps_down


class Gains:
    """What a combatant's record contributes to a run's :data:`Gain` (its HP lost, and
    whether it went down, by side), per combatant of the state scored."""

    __slots__ = ("actor", "before", "ruleset", "side")

    def __init__(self, ruleset: Ruleset, state: Encounter, side: str, actor: str) -> None:
        self.ruleset = ruleset
        self.before = dict(dict.items(cast(dict[str, Combatant], state.combatants)))
        self.side = side
        self.actor = actor

    def of(self, cid: str, now: Combatant | None) -> Gain:
        c = self.before[cid]
        if now is None or now is c:  # gone, or the very record it was: no gain
            return _NONE
        rs = self.ruleset
        lost = max(0, c.hp - now.hp)
        if c.side != self.side:
            return (int(is_down(rs, now) and not is_down(rs, c)), lost, lost, 0)
        down = -int(is_down(rs, now) and not is_down(rs, c))
        return (down, -lost, 0, lost if cid != self.actor else 0)

    def of_state(self, after: Encounter) -> Gain:
        """The gain of the state ``after``: its records' contributions summed."""
        d = h = a = f = 0
        for cid in self.before:
            g = self.of(cid, peek(after.combatants, cid))
            d, h, a, f = d + g[0], h + g[1], a + g[2], f + g[3]
        return (d, h, a, f)


class _One:
    """One combatant as some events of it alone leave it (``changes_one``), the next
    such events by effect, and its contribution to the gain, once worked out."""

    __slots__ = ("gain", "next", "record")

    def __init__(self, record: Combatant) -> None:
        self.record = record
        self.next: dict[int, _One] = {}
        self.gain: Gain | None = None


class _Whole:
    """A whole state some runs pass through: the state after their last event that is
    not of one combatant, the next such events, each combatant's own changes from its
    record here (:class:`_One`), and the contributions of its records to the gain."""

    __slots__ = ("after", "gains", "kept", "ones", "state", "summed", "then")

    def __init__(self, state: Encounter) -> None:
        self.state = state
        self.then: dict[int, _Whole] = {}
        """Per event's effect: the whole state next, nothing changed apart before it."""
        self.after: dict[Hashable, _Whole] = {}
        """Per (the combatants changed apart, an event's effect): the whole state next,
        those changes put in."""
        self.kept: dict[int, _Whole | None] = {}
        """Per event's effect: the whole state next where the event commutes with the
        changes apart (:func:`_commutes`), which stay apart; None where it does not."""
        self.ones: dict[str, _One] = {}
        self.gains: dict[str, Gain] = {}
        self.summed: Gain | None = None

    def total(self, out: Gains) -> Gain:
        """The gain of this state's records, each combatant's kept in :attr:`gains`."""
        found = self.summed
        if found is None:
            d = h = a = f = 0
            look = dict.get
            combatants = cast(dict[str, Combatant], self.state.combatants)
            gains = self.gains
            for cid, c in out.before.items():
                now = look(combatants, cid)
                if now is c:  # the very record it was: no gain (``Gains.of``)
                    gains[cid] = _NONE
                    continue
                g = gains[cid] = out.of(cid, now)
                d, h, a, f = d + g[0], h + g[1], a + g[2], f + g[3]
            found = self.summed = (d, h, a, f)
        return found

    def one(self, cid: str) -> _One:
        """``cid`` as this state has it, looked up as the fold looks it up (noted)."""
        found = self.ones.get(cid)
        if found is None:
            found = self.ones[cid] = _One(self.state.get(cid))
        return found


_APART: set[type[Event]] = set()
"""The kinds of event once found not to commute with changes of one combatant (they
read one): always applied to the whole state with those changes put in (the fold's
way, right whatever the event does), without trying again."""


def _commutes(whole: Encounter, event: Event) -> Encounter | None:
    """``event`` applied to ``whole`` where it read no combatant (no look-up, nothing
    wider: traced) and kept the very mapping of them: then it changes, and reads, no
    combatant, and applied after changes of some combatants it gives its own state
    with those changes in (it never looked). None where not (its reads still count)."""
    saved_ids, saved_wide = _NOTES.ids, _NOTES.wide
    _NOTES.reset()
    try:
        after = event.apply(whole)
        read = bool(_NOTES.ids) or _NOTES.wide
    finally:
        _NOTES.ids |= saved_ids
        _NOTES.wide = _NOTES.wide or saved_wide
    if read or object.__getattribute__(after, "combatants") is not whole.combatants:
        return None
    return after


Steps = tuple[tuple[bool, int, str, Event], ...]
"""A run's events that change something, each as (of one combatant, its effect (as a
number: equal effects, equal numbers, among the runs of one action), the combatant's
id (of one only), the event)."""
Scaled = tuple[tuple[tuple[Event, ...], int], ...]
"""Runs with their probabilities' integer numerators over one denominator."""

_COMPILED: dict[tuple[int, bool], tuple[Scaled, list[tuple[Steps, int]]]] = {}
"""Per runs (by identity, kept alive here) and whether the events no gain reads were
left out: their :data:`Steps`, made once (they are the same runs for every state that
shares the rolling step's events)."""


def _compiled(runs: Scaled) -> list[tuple[Steps, int]]:
    """The runs' :data:`Steps` without the events no gain reads (:func:`_blind`: a
    limb's damage, AP spent; with the memos off, only those that change nothing), runs
    of equal effects in the same order as one (their numerators added: they change
    what a gain reads alike, ``Event.effect``)."""
    blind = memos_on()
    skip = _blind if blind else _same
    found = _COMPILED.get((id(runs), blind))
    if found is not None and found[0] is runs:
        return found[1]
    merged: dict[tuple[int, ...], tuple[Steps, int]] = {}
    numbers: dict[Hashable, int] = {}  # each distinct effect as a small number
    for run, n in runs:
        steps: list[tuple[bool, int, str, Event]] = []
        for event in run:
            kind = type(event)
            if skip(kind):
                continue
            one = _one(kind)
            cid: str = event.target if one else ""  # type: ignore[attr-defined]
            key = numbers.setdefault(event.effect(), len(numbers))
            steps.append((one, key, cid, event))
        alike = tuple([step[1] for step in steps])
        was = merged.get(alike)
        merged[alike] = (tuple(steps), n) if was is None else (was[0], was[1] + n)
    made = list(merged.values())
    if len(_COMPILED) >= 4096:
        _COMPILED.clear()
    _COMPILED[(id(runs), blind)] = (runs, made)
    return made


def _weighted(
    out: Gains, state: Encounter, runs: Scaled, traced: bool
) -> tuple[Gain, list[_Whole]]:
    """The sum of each run's gain times its numerator, and the whole states the runs
    end in. An event of one combatant (``changes_one``: its ``apply`` is
    ``state.with_combatant(changed(state.get(target)))``) changes that combatant's
    record alone, by ``changed``: it is followed on the combatant's own (each change
    made once from each record, whatever the other combatants' changes). Another event
    is applied to the whole state with those changes put in (as the fold does), or,
    ``traced``, to the whole state without them where it reads and changes no combatant
    there (:func:`_commutes`)."""
    root = _Whole(state)
    ends: dict[int, _Whole] = {}
    downs = hp = harm = friendly = 0
    for steps, n in _compiled(runs):
        whole = root
        apart: dict[str, _One] = {}
        for one, key, cid, event in steps:
            if one:
                now = apart.get(cid)
                if now is None:
                    now = whole.one(cid)
                step = now.next.get(key)
                if step is None:
                    record: Combatant = event.changed(now.record)  # type: ignore[attr-defined]
                    if record.id == cid:  # else put in under another id: the whole way
                        step = now.next[key] = _One(record)
                if step is not None:
                    apart[cid] = step
                    continue
            if apart and traced and type(event) not in _APART:
                kept = whole.kept.get(key, whole)
                if kept is whole:
                    after = _commutes(whole.state, event)
                    if after is None:  # it read a combatant: its kind is not tried again
                        _APART.add(type(event))
                    kept = whole.kept[key] = None if after is None else _Whole(after)
                if kept is not None:
                    whole = kept  # the changes apart stay apart
                    continue
            if not apart:
                found = whole.then.get(key)
                if found is None:
                    found = whole.then[key] = _Whole(event.apply(whole.state))
                whole = found
                continue
            ahead = (tuple([(c, id(o)) for c, o in apart.items()]), key)
            found = whole.after.get(ahead)
            if found is None:
                folded = whole.state
                for o in apart.values():
                    folded = folded.with_combatant(o.record)
                found = whole.after[ahead] = _Whole(event.apply(folded))
            whole = found
            apart = {}
        ends[id(whole)] = whole
        g = whole.total(out)
        if apart:
            d, h, a, f = g
            for cid, mine in apart.items():
                was = whole.gains[cid]
                got = mine.gain
                if got is None:
                    got = mine.gain = out.of(cid, mine.record)
                d += got[0] - was[0]
                h += got[1] - was[1]
                a += got[2] - was[2]
                f += got[3] - was[3]
            g = (d, h, a, f)
        downs += n * g[0]
        hp += n * g[1]
        harm += n * g[2]
        friendly += n * g[3]
    return (downs, hp, harm, friendly), list(ends.values())


def traced_gains(
    ruleset: Ruleset, state: Encounter, runs: Scaled, side: str, actor: str
) -> tuple[Gain, tuple[str, ...] | None]:
    """The sum over ``runs`` of each run's :data:`Gain` from ``state`` (the gain of the
    state its fold leaves, for ``actor`` of ``side``) times its numerator, and the ids
    of the combatants the folds read, sorted, where they decide every change (as
    :func:`traced_fold`'s); None where not (the gains are then the plain state's).

    Equal to the sum over :func:`~fracas.lab.fight.fold_runs`' states, made without a
    whole state per run: see :func:`_weighted`."""
    out = Gains(ruleset, state, side, actor)
    with _LOCK:
        _NOTES.reset()
        seen = evolve(state, combatants=_Seen(state.combatants))
        try:
            got: tuple[Gain, list[_Whole]] | None = _weighted(out, seen, runs, True)
        except Exception:  # what the rules made of a traced state: the plain way
            got = None
        ids, wide = frozenset(_NOTES.ids), _NOTES.wide
        _NOTES.reset()
    if got is None or wide or not _all_read(state, got[1], ids):
        return _weighted(out, state, runs, False)[0], None
    return got[0], tuple(sorted(ids))


def _all_read(state: Encounter, ends: list[_Whole], ids: frozenset[str]) -> bool:
    """Every fold stayed traced, no combatant came or went, and every one changed was
    read (:func:`_decides`; a combatant changed apart was looked up first)."""
    before = state.combatants
    count = len(before)
    for end in ends:
        now = end.state.combatants
        if type(now) is not _Seen:  # a fold made a mapping of its own: its reads unseen
            return False
        if dict.__len__(cast(dict[str, Combatant], now)) != count:
            return False
        for cid, c in dict.items(cast(dict[str, Combatant], before)):
            if cid not in ids and peek(now, cid) is not c:
                return False
    return True
