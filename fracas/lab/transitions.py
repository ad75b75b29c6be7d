"""The exact next states of an action, shared between every state that gives the
rolling step the same input (:class:`Transitions`).

A ruleset's rolling step reads a few things of the state (the attacker's and the
defender's sheets, a position) and often no HP. Two proofs let one enumeration serve
many states, both checked on every enumeration, never assumed:

- **HP unread.** The enumeration runs on a copy of the state whose ``hp`` and
  ``max_hp`` refuse every use (:class:`_Traced`); a rolling step that finishes every
  dice path without touching one, and returns events holding none, gives the same
  events whatever the HPs (only the fold, done on the real state, differs).
- **What was read.** The copy records which of the state's fields, and which
  combatants, the rolling step looked at (:class:`_Reads`); any wider look (iterating
  the combatants, copying, hashing or comparing the state) counts as reading all of
  it. A deterministic step given the same values for what it read reads the same
  things and makes the same events, so the events are kept under (action, decision,
  the values read, HPs left out), and another state with those values gets them.
- **The folds between steps** (a roll that ends in ``Then(step)``: the step rolls on
  the state after the events before it) are not the steps' reads: what a fold reads
  (the attacker's AP, to pay it) is kept apart, and counts only where a later step
  reads anything of the state it folded to (that state is made of what the fold read
  and the events, which what the steps read decides). So a wasteland attack, whose
  steps after the shots read nothing of the state, enumerated with 9 AP serves 6 AP.
  Each distinct (state, events before a step) is folded once for all dice paths.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import threading
from collections.abc import Hashable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, NoReturn

from fracas.dice.source import Dice
from fracas.engine.catalogue import GM_ACTION_NAMES
from fracas.lab.fight import Outcomes, fold_runs, next_states, roll_paths
from fracas.lab.folds import Scaled
from fracas.lab.watch import Notes, watched
from fracas.model import Action, Combatant, Damaged, Encounter, Event, fold
from fracas.model.frozen import evolve
from fracas.rulesets.base import Ruleset, decided, memos_on
from fracas.rulesets.steps import Then

__all__ = ["Transitions"]

_CACHE = 100_000
"""Entries a :class:`Transitions` keeps per cache before clearing it."""
_LOCK = threading.Lock()
"""The traces below are per process: one traced enumeration at a time (the tracker's
win bar runs the lab in threads)."""


class Transitions:
    """:func:`~fracas.lab.fight.next_states` with two caches: per (state, action), and
    per (action, decision, what the rolling step read of the state, HPs left out) where
    that is proven to decide the events (the module's docstring)."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self._exact: dict[tuple[Encounter, Action], Outcomes] = {}
        self._blind: dict[Hashable, _Events] = {}
        self._reads: dict[tuple[Action, Hashable], list[_Read]] = {}
        self.enumerations = 0
        self.shared = 0

    def next_states(self, state: Encounter, action: Action, *, max_paths: int) -> Outcomes:
        key = (state, action)
        found = self._exact.get(key)
        if found is not None:
            return found
        found = self._compute(state, action, max_paths)
        if len(self._exact) >= _CACHE:
            self._exact.clear()
        self._exact[key] = found
        return found

    def runs(
        self, state: Encounter, action: Action, *, max_paths: int
    ) -> list[tuple[Encounter, Fraction]]:
        """The states ``action`` leads to with their probabilities, not merged (a state
        may come more than once): what a score needs, without hashing each state."""
        found = self._exact.get((state, action))
        if found is not None:
            return list(found.states.items())
        events = self._events(state, action, max_paths)
        if events is None:
            return list(self.next_states(state, action, max_paths=max_paths).states.items())
        folded = fold_runs(state, events.outcomes)  # type: ignore[arg-type]
        return [(folded[k], p) for k, p in events.outcomes.items()]  # type: ignore[index]

    def _compute(self, state: Encounter, action: Action, max_paths: int) -> Outcomes:
        events = self._events(state, action, max_paths)
        if events is None:
            return next_states(self.ruleset, state, action, max_paths=max_paths)
        return _fold_all(state, events)

    def shared_runs(
        self, state: Encounter, action: Action, *, max_paths: int
    ) -> tuple[Hashable, tuple[int, Scaled]] | None:
        """A key naming the distribution of the runs of state-changing events ``action``
        makes, that every state giving the rolling step the same input shares (the
        action, its decision, what the step read, HPs left out), and that distribution:
        a denominator and each run with its probability's numerator over it (one tuple
        per key, the same object each time); None where no such key is proven (an HP
        was read, a core action, dice given)."""
        events = self._events(state, action, max_paths)
        if events is None or events.key is None:
            return None
        return events.key, events.scaled  # type: ignore[return-value]

    def _events(self, state: Encounter, action: Action, max_paths: int) -> _Events | None:
        """The rolling step's events (shared, or enumerated and kept where proven
        shareable); None where the plain way applies (a core action, another's turn,
        dice given, something unhashable)."""
        rs = self.ruleset
        core = action.do in ("end_turn", "move") or action.do in GM_ACTION_NAMES
        if core or state.turn.actor != action.actor or action.dice or not memos_on():
            return None  # memos off (the soundness tests): every state enumerated afresh
        decision = decided(rs, state, action)
        base = (action, decision)
        try:
            known = self._reads.get(base)
        except TypeError:  # an unhashable decision
            return None
        for read in known or ():
            events = self._blind.get((base, read, read.values(state)))
            if events is not None:
                self.shared += 1
                return events
        self.enumerations += 1
        made = _roll_events(rs, state, decision, max_paths)
        if made is None:  # an unhashable event: the plain way
            return None
        events, proven = made
        if proven is not None:
            if len(self._blind) >= _CACHE:
                self._blind.clear()
                self._reads.clear()
            reads = self._reads.setdefault(base, [])
            if proven not in reads:
                reads.append(proven)
            key = (base, proven, proven.values(state))
            events = dataclasses.replace(events, key=key)
            self._blind[key] = events
        return events


@dataclass(frozen=True)
class _Events:
    outcomes: dict[Hashable, Fraction]
    paths: int
    truncated: Fraction
    key: Hashable = None
    """The shared cache's key, where these events serve every state with its values."""
    scaled: tuple[int, tuple[tuple[Hashable, int], ...]] = field(
        init=False, compare=False, repr=False
    )
    """The probabilities as integer numerators over one denominator, worked out once:
    each fold of these events adds integers, and makes a Fraction per distinct state."""

    def __post_init__(self) -> None:
        den = 1
        for p in self.outcomes.values():
            den = den * p.denominator // math.gcd(den, p.denominator)
        nums = tuple((k, p.numerator * (den // p.denominator)) for k, p in self.outcomes.items())
        object.__setattr__(self, "scaled", (den, nums))


@dataclass(frozen=True)
class _Read:
    """What a rolling step read: the state's fields and combatants by id (None: all of
    them)."""

    fields: tuple[str, ...]
    combatants: tuple[str, ...] | None

    def values(self, state: Encounter) -> Hashable:
        """The values read, in ``state``, HPs left out."""
        fields = tuple(getattr(state, f) for f in self.fields)
        if self.combatants is None:
            return (fields, tuple(_blind(c) for c in state.combatants.values()))
        return (fields, tuple(_blind(state.combatants.get(cid)) for cid in self.combatants))


def _blind(c: Combatant | None) -> Combatant | None:
    return None if c is None else evolve(c, hp=0, max_hp=0)  # replace's, without __init__


# --- the traces ----------------------------------------------------------------


class _Touched:
    """Whether a traced number was used (any operation on it) since the last reset."""

    flag = False


def _touch(*_: object) -> NoReturn:
    _Touched.flag = True
    raise _Used


class _Used(Exception):
    """A traced HP was read by the rolling step: its result may depend on HP."""


class _Traced:
    """Stands for an HP and refuses every use of it: comparing, arithmetic, hashing,
    formatting, converting (``__index__``, ``__int__``: ``range(hp)``, ``seq[hp]``),
    any attribute. Not an ``int``: C code reads an int subclass's value without asking
    it. Only identity and type tests see it unrefused, and the rules make neither of an
    HP. A rolling step that finishes every dice path without a refusal never read one."""

    __slots__ = ()

    def __getattr__(self, name: str) -> NoReturn:
        if name.startswith("__"):  # a tool's probe (pytest, doctest): no HP read
            raise AttributeError(name)
        _touch()


_USES = (
    "__eq__ __ne__ __lt__ __le__ __gt__ __ge__ __hash__ __bool__ __index__ __int__ "
    "__float__ __complex__ __add__ __radd__ __sub__ __rsub__ __mul__ __rmul__ "
    "__floordiv__ __rfloordiv__ __truediv__ __rtruediv__ __mod__ __rmod__ __divmod__ "
    "__rdivmod__ __pow__ __rpow__ __neg__ __pos__ __abs__ __invert__ __and__ __rand__ "
    "__or__ __ror__ __xor__ __rxor__ __lshift__ __rlshift__ __rshift__ __rrshift__ "
    "__str__ __repr__ __format__ __round__ __trunc__ __floor__ __ceil__ __reduce__ "
    "__reduce_ex__ __copy__ __deepcopy__ __len__ __iter__ __contains__ __getitem__ "
    "__call__ __bytes__ __fspath__"
)
for _name in _USES.split():
    setattr(_Traced, _name, _touch)

_TRACED = _Traced()


_NOTES = Notes()
"""The combatants the traced state was asked for (and whether all of them were)."""


class _Reads:
    """What the traced state was asked for since the last :meth:`reset`: its fields
    here, its combatants in :data:`_NOTES`; and, apart, what the folds between the
    steps of a roll read (:meth:`folding`), counted only where a later step read the
    state it folded to (:meth:`later`)."""

    fields: ClassVar[set[str]] = set()
    fold_fields: ClassVar[set[str]] = set()
    fold_ids: ClassVar[set[str]] = set()
    fold_wide: ClassVar[bool] = False
    read_later: ClassVar[bool] = False
    """A step after a fold read its state: what the folds read counts."""
    lost: ClassVar[bool] = False
    """A fold made a state that is not traced: a later step's reads go unseen."""
    in_fold: ClassVar[bool] = False

    @classmethod
    def reset(cls) -> None:
        cls.fields = set()
        cls.fold_fields, cls.fold_ids = set(), set()
        cls.fold_wide = cls.read_later = cls.lost = cls.in_fold = False
        _NOTES.reset()

    @classmethod
    def everything(cls) -> None:
        """A look that reads all of the state."""
        _NOTES.wide = True

    @classmethod
    def _swap(cls) -> tuple[set[str], set[str], bool]:
        """The reads so far, set aside; the notes start empty."""
        saved = (cls.fields, _NOTES.ids, _NOTES.wide)
        cls.fields = set()
        _NOTES.reset()
        return saved

    @classmethod
    @contextlib.contextmanager
    def folding(cls) -> Iterator[None]:
        """Reads in this block are a fold's: kept apart from the steps' own."""
        saved = cls._swap()
        cls.in_fold = True
        try:
            yield
        finally:
            cls.in_fold = False
            cls.fold_fields |= cls.fields
            cls.fold_ids |= _NOTES.ids
            cls.fold_wide = cls.fold_wide or _NOTES.wide
            cls.fields, _NOTES.ids, _NOTES.wide = saved

    @classmethod
    @contextlib.contextmanager
    def later(cls) -> Iterator[None]:
        """Reads in this block are a step's after a fold: any read at all makes what
        the folds read count (the folded state is made of it)."""
        saved = cls._swap()
        try:
            yield
        finally:
            if cls.fields or _NOTES.ids or _NOTES.wide:
                cls.read_later = True
            cls.fields |= saved[0]
            _NOTES.ids |= saved[1]
            _NOTES.wide = _NOTES.wide or saved[2]

    @classmethod
    def read(cls) -> _Read | None:
        later = cls.read_later or cls.lost
        if _NOTES.wide or (later and (cls.fold_wide or cls.lost)):
            return None
        names = cls.fields | cls.fold_fields if later else cls.fields
        ids = _NOTES.ids | cls.fold_ids if later else _NOTES.ids
        order = tuple(f.name for f in dataclasses.fields(Encounter))
        fields = tuple(f for f in order if f in names and f != "combatants")
        return _Read(fields, tuple(sorted(ids)))


_FIELDS = frozenset(f.name for f in dataclasses.fields(Encounter))


class _Watched(Encounter):
    """The traced state: every field it is asked for is noted in :class:`_Reads`;
    hashing, comparing or copying it reads all of it."""

    __slots__ = ()

    def __getattribute__(self, name: str) -> Any:
        if name in _FIELDS:
            _Reads.fields.add(name)
        return object.__getattribute__(self, name)

    def __hash__(self) -> int:
        _Reads.everything()
        return Encounter.__hash__(self)

    def __eq__(self, other: object) -> bool:
        _Reads.everything()
        return Encounter.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __reduce__(self) -> NoReturn:
        raise TypeError("a traced state is not copied")

    def __post_init__(self) -> None:
        # A copy (replace, evolve) the step makes: it reads everything. A fold's copy
        # reads what its making read (each field copied is noted): whether the state
        # it ends in is still traced is checked after the fold (``_enumerate``).
        if not _Reads.in_fold:
            _Reads.everything()
        Encounter.__post_init__(self)


_WatchedCombatants = watched(_NOTES)
"""The traced state's combatants: a look-up by id notes the id; anything wider
(iterating, counting, copying, hashing, comparing) notes everything."""


def _traced(state: Encounter) -> Encounter:
    traced: Any = _TRACED
    watched = _Watched(**{name: object.__getattribute__(state, name) for name in _FIELDS})
    combatants = _WatchedCombatants(
        {
            cid: dataclasses.replace(c, hp=traced, max_hp=traced)
            for cid, c in state.combatants.items()
        }
    )
    object.__setattr__(watched, "combatants", combatants)
    return watched


_PLAIN = frozenset({str, int, float, bool, type(None), bytes, Fraction})
"""Types whose values hold nothing else: never a traced HP."""
_FIELDS_OF: dict[type, tuple[str, ...]] = {}
"""The field names of each dataclass met (looked up once per type)."""


def _leaks(value: object) -> bool:
    """Whether a traced HP sits anywhere inside ``value`` (an event kept it)."""
    kind = type(value)
    if kind in _PLAIN:
        return False
    if value is _TRACED:
        return True
    if isinstance(value, Encounter | Combatant):
        return True  # a whole state or combatant inside an event: not shared across HPs
    if isinstance(value, tuple | list | frozenset | set):
        return any(_leaks(v) for v in value)
    if isinstance(value, Mapping):
        return any(_leaks(k) or _leaks(v) for k, v in value.items())
    names = _FIELDS_OF.get(kind)
    if names is None:
        names = _FIELDS_OF[kind] = (
            tuple(f.name for f in dataclasses.fields(value))
            if dataclasses.is_dataclass(value) and not isinstance(value, type)
            else ()
        )
    return any(_leaks(getattr(value, name)) for name in names)


def _any_leaks(outcomes: Mapping[Hashable, Fraction]) -> bool:
    """Whether any event of any run holds a traced HP: each distinct event looked at
    once (the runs of one action share most of their events)."""
    seen: set[Hashable] = set()
    for run in outcomes:
        if not isinstance(run, tuple):
            if _leaks(run):
                return True
            continue
        for event in run:
            if event in seen:
                continue
            seen.add(event)
            if _leaks(event):
                return True
    return False


def _roll_events(
    ruleset: Ruleset, state: Encounter, decision: Any, max_paths: int
) -> tuple[_Events, _Read | None] | None:
    """The distribution of the rolling step's state-changing events, and what it read
    where that decides them (None: an HP was used or kept, and the enumeration ran
    again on the real state); None for an unhashable event."""
    with _LOCK:
        traced = _traced(state)
        _Touched.flag = False
        _Reads.reset()
        try:
            dist = _enumerate(ruleset, traced, decision, max_paths, traced=True)
        except Exception:  # a refused use, or what the rules made of one
            dist = None
        read = _Reads.read()
        _Reads.reset()
        touched, _Touched.flag = _Touched.flag, False
    if dist is not None and not touched and not _any_leaks(dist.outcomes):
        if _UNHASHABLE in dist.outcomes:
            return None
        return _Events(dist.outcomes, dist.paths, dist.truncated), read or _Read(
            tuple(sorted(_FIELDS - {"combatants"})), None
        )
    dist = _enumerate(ruleset, state, decision, max_paths)
    if _UNHASHABLE in dist.outcomes:
        return None
    return _Events(dist.outcomes, dist.paths, dist.truncated), None


def _enumerate(
    ruleset: Ruleset, state: Encounter, decision: Any, max_paths: int, *, traced: bool = False
) -> Any:
    """The rolling step's state-changing events on every dice path, as
    :func:`~fracas.rulesets.steps.roll_all` makes them, each distinct (state, events
    before a step) folded once for all paths (a fold is a function of them); ``traced``:
    each fold's reads kept apart (:meth:`_Reads.folding`), and each later step's
    (:meth:`_Reads.later`)."""
    folds: dict[tuple[int, tuple[Event, ...]], tuple[Encounter, Encounter]] = {}

    def folded(now: Encounter, head: tuple[Event, ...]) -> Encounter:
        key: tuple[int, tuple[Event, ...]] | None = (id(now), head)
        try:
            kept = folds.get(key)  # type: ignore[arg-type]
        except TypeError:  # an unhashable event: folded each time
            kept, key = None, None
        if kept is not None:
            return kept[1]
        if traced:
            with _Reads.folding():
                found = fold(now, _unknown_hp(now, head))
            if type(found) is not _Watched or (
                type(object.__getattribute__(found, "combatants")) is not _WatchedCombatants
            ):
                _Reads.lost = True  # a later step's reads of it would go unseen
        else:
            found = fold(now, head)
        if key is not None:
            folds[key] = (now, found)  # ``now`` kept alive: its id stays its own
        return found

    def roll_all(dice: Dice) -> list[Event]:  # steps.run_steps, its folds kept
        events: list[Event] = []
        now, step = state, decision
        later = False
        while True:
            if later:
                with _Reads.later():
                    out = step.roll(ruleset, now, dice)
            else:
                out = step.roll(ruleset, now, dice)
            if not out or not isinstance(out[-1], Then):
                events += out
                return events
            head = out[:-1]
            events += head
            now = folded(now, tuple(head))
            step = out[-1].step
            later = traced

    def events_of(dice: Dice) -> Hashable:
        events = roll_all(dice)
        changing = tuple(e for e in events if type(e).apply is not Event.apply)
        try:
            hash(changing)
        except TypeError:
            return _UNHASHABLE
        return changing

    return roll_paths(ruleset, events_of, max_paths=max_paths)


def _unknown_hp(state: Encounter, head: tuple[Event, ...]) -> tuple[Event, ...]:
    """The events a traced fold applies: all but the core's damage to a combatant whose
    HP is traced (:class:`Damaged` changes nothing but the HP, from the HP): its HP
    after is as unknown as before, and any later step that reads it is refused as the
    first would be (a whelm's next target rolled after the damage to the one before)."""
    if not any(type(e) is Damaged for e in head):
        return head
    combatants = object.__getattribute__(state, "combatants")  # past the trace's notes

    def applied(e: Event) -> bool:
        if type(e) is not Damaged:
            return True
        c = dict.get(combatants, e.target)
        return c is None or c.hp is not _TRACED

    return tuple(e for e in head if applied(e))


_UNHASHABLE = "\0unhashable"
"""A path whose events do not hash (a mapping inside): that action goes the plain way."""


def _fold_all(state: Encounter, events: _Events) -> Outcomes:
    sums: dict[Encounter, int] = {}
    folded = fold_runs(state, events.outcomes)  # type: ignore[arg-type]
    den, nums = events.scaled
    for key, n in nums:
        after = folded[key]  # type: ignore[index]
        sums[after] = sums.get(after, 0) + n
    out = {after: Fraction(n, den) for after, n in sums.items()}
    return Outcomes(out, events.paths, events.truncated)
