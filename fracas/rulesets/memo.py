"""An action's deciding step and the memos that keep what it decides.

:func:`decide` runs the action's spec's ``decide`` (its refusal's words followed by the
rule they apply: :func:`cite`). What it decides is kept so that exact odds replay only
the rolling step on every dice path, and "what may the actor do now" asks the deciding
step alone:

- :func:`decided`: per (ruleset type, options, state, action), in the memo now (the
  process's :class:`Decisions`, or a table's: :func:`keeping_decisions`);
- :func:`decision_of`: the process's :class:`ReadMemo`, per what deciding read of the
  state (every field but the combatants whole, and the combatants it looked up by id),
  so every state that agrees on that gets the decision, or the refusal as a value,
  without deciding again (issue 34, item 2). :func:`memos` turns it (and the lab's memos
  kept by what was read) off, for the soundness tests.

:mod:`fracas.rulesets.base` names its functions and classes too (a ruleset imports from
there).
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import operator
import re
import sys
import threading
import typing
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from fracas.errors import FracasError, Refusal
from fracas.model import Action, Combatant, Encounter
from fracas.model.frozen import FrozenDict, evolve
from fracas.model.grid import Tile

if TYPE_CHECKING:
    from fracas.rulesets.base import Decision, Rules, Ruleset

__all__ = [
    "DECISIONS",
    "READ_DECISIONS",
    "RULE_ID",
    "Decisions",
    "ReadMemo",
    "cite",
    "decide",
    "decided",
    "decision_of",
    "fields_but_combatants",
    "forget_decisions",
    "keeping_decisions",
    "memos",
    "memos_on",
]

# --- the deciding step --------------------------------------------------------


def decide(rules: Ruleset, state: Encounter, action: Action) -> Decision:
    """The action's deciding step (its spec's ``decide``), its refusal's words followed by
    the rule they apply (:func:`cite`)."""
    spec = rules.contract.action(action.do)
    if spec is None or spec.decide is None:
        valid = ", ".join(s.name for s in rules.contract.actions)
        raise Refusal("unknown_action", f"{action.do!r} is not an action; valid: {valid}")
    try:
        return spec.decide(rules, state, action)
    except Refusal as exc:
        cited = cite(rules, exc)
        if cited is exc:
            raise
        raise cited from None


RULE_ID = re.compile(r"\b(?:P-)?[A-Z]{2,3}-[A-Z]?\d+\b")
"""A rule ID in words (``DC-37``, ``WL-G16``, ``P-TD-4``)."""


def cite(rules: Rules[Any], refusal: Refusal) -> Refusal:
    """``refusal`` with its rule IDs (the contract's ``refusal_rules``) after its words,
    where its words cite no rule yet: ``'bo' is 2 tiles away; melee reaches 1 tile,
    diagonals included (DC-6)``; unchanged where its code has no rule or it cites one."""
    ids = rules.contract.refusal_rules.get(refusal.code)
    if not ids or RULE_ID.search(refusal.message) or type(refusal) is not Refusal:
        return refusal
    return Refusal(refusal.code, f"{refusal.message} ({ids})")


# --- decisions kept per state and action ---------------------------------------


DECISIONS = 4096
"""Decisions one memo keeps (:func:`decided`; oldest dropped first)."""

_Key = tuple[type["Ruleset"], Any, Encounter, Action]


class Decisions:
    """A memo of decisions, per (ruleset, options, state, action): the process's, or
    one table's (:func:`keeping_decisions`), so that forgetting one table's leaves every
    other's. Never pickled with anything (a fresh, empty memo comes back)."""

    def __init__(self) -> None:
        self.kept: dict[_Key, Decision] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.kept)

    def __reduce__(self) -> tuple[type[Decisions], tuple[()]]:
        return (Decisions, ())

    def get(self, key: _Key) -> Decision | None:
        return self.kept.get(key)

    def put(self, key: _Key, decision: Decision) -> None:
        with self._lock:
            kept = self.kept
            if len(kept) >= DECISIONS:
                kept.pop(next(iter(kept), key), None)
            kept[key] = decision

    def forget(self, rules: Ruleset | None = None) -> None:
        """Drop the decisions of ``rules`` (any ruleset of its type and options), or
        every one."""
        with self._lock:
            if rules is None:
                self.kept.clear()
                return
            kind, options = type(rules), rules.options
            for key in [k for k in self.kept if k[0] is kind and k[1] == options]:
                del self.kept[key]


_process = Decisions()
"""The memo of this process: every decision made outside a table's own."""
_decisions = _process.kept
_memo: contextvars.ContextVar[Decisions] = contextvars.ContextVar(
    "fracas_decisions", default=_process
)


@contextlib.contextmanager
def keeping_decisions(memo: Decisions) -> Iterator[Decisions]:
    """Keep the decisions made in this block (this thread, this task) in ``memo``
    instead of the process's: a table runs its rules so."""
    token = _memo.set(memo)
    try:
        yield memo
    finally:
        _memo.reset(token)


def decided(rules: Ruleset, state: Encounter, action: Action) -> Decision:
    """:func:`decide`, kept per (ruleset, options, state, action) in the memo now (the
    process's, or a table's: :func:`keeping_decisions`), never pickled with the
    ruleset: exact odds and "may do now" ask the same decision many times. Outside a
    table's block, where the state is new, the decision (or refusal) comes from
    :func:`decision_of`'s memo, kept by what deciding read (a table's block decides
    afresh: what it keeps is its own). A refusal is raised each time (a fresh copy of
    the one kept), never kept in the state's memo."""
    memo = _memo.get()
    key = (type(rules), rules.options, state, action)
    found = memo.get(key)
    if found is None:
        if memo is _process:
            got = decision_of(rules, state, action)
            if isinstance(got, FracasError):
                raise _fresh(got)
            found = got
        else:  # a table's block: its own decisions, decided afresh (its memo's tests)
            found = decide(rules, state, action)
        memo.put(key, found)
    return found


def forget_decisions(rules: Ruleset | None = None) -> None:
    """Drop the process's kept decisions of ``rules`` (of any ruleset of its type and
    options), or every one, and those kept by what deciding read
    (:func:`decision_of`). A table's own memo is the table's to forget."""
    _process.forget(rules)
    _by_reads.forget(rules)


# --- decisions kept by what deciding read (issue 34, item 2) -----------------

_memos_on: contextvars.ContextVar[bool] = contextvars.ContextVar("fracas_memos", default=True)


@contextlib.contextmanager
def memos(on: bool) -> Iterator[None]:
    """Turn the memos kept by what was read on or off in this block (this thread, this
    task): :func:`decision_of`'s, and the lab's that share an enumeration or a score
    between states (:mod:`fracas.lab.transitions`, :mod:`fracas.lab.policy`). Off, every
    answer is worked out afresh: the soundness tests compare the two."""
    token = _memos_on.set(on)
    try:
        yield
    finally:
        _memos_on.reset(token)


def memos_on() -> bool:
    """Whether the memos kept by what was read are on (:func:`memos`)."""
    return _memos_on.get()


READ_DECISIONS = 100_000
"""Decisions and refusals :func:`decision_of` keeps (the oldest dropped first)."""


class _Notes:
    """The combatants (by id) a traced decide looked up, or ``wide``: it looked at all
    of them (iterated, counted, copied, hashed or compared the mapping)."""

    __slots__ = ("ids", "target", "wide")

    def __init__(self) -> None:
        self.ids: dict[str, None] = {}
        self.wide = False
        self.target = False
        """It read the action's target or tile (:class:`_Probe`)."""


def _wide(method: str) -> Callable[..., Any]:
    real = getattr(FrozenDict, method)

    def look(self: _Traced, *args: Any) -> Any:
        self.notes.wide = True
        return real(self, *args)

    return look


class _Traced(FrozenDict[str, Combatant]):
    """A state's combatants that note each look-up by id in :attr:`notes`, and any wider
    look as reading all of them (the lab's :mod:`fracas.lab.watch`, per trace)."""

    __slots__ = ("notes",)
    notes: _Notes

    def __getitem__(self, cid: str) -> Combatant:
        self.notes.ids[cid] = None
        return dict.__getitem__(self, cid)

    def get(self, cid: str, default: Any = None) -> Any:
        self.notes.ids[cid] = None
        return dict.get(self, cid, default)

    def __contains__(self, cid: object) -> bool:
        self.notes.ids[str(cid)] = None
        return dict.__contains__(self, cid)

    def __iter__(self) -> Iterator[str]:
        self.notes.wide = True
        return dict.__iter__(self)

    def set(self, key: str, value: Combatant) -> FrozenDict[str, Combatant]:
        out = dict(dict.items(self))  # dict's own view: not a look of the rules'
        out[key] = value
        return _traced(out, self.notes)

    __len__ = _wide("__len__")
    keys = _wide("keys")
    values = _wide("values")
    items = _wide("items")
    copy = _wide("copy")
    merged = _wide("merged")
    __hash__ = _wide("__hash__")
    __eq__ = _wide("__eq__")
    __ne__ = _wide("__ne__")
    __or__ = _wide("__or__")
    __ror__ = _wide("__ror__")
    __reversed__ = _wide("__reversed__")
    __reduce__ = _wide("__reduce__")
    __repr__ = _wide("__repr__")


def _traced(combatants: Mapping[str, Combatant], notes: _Notes) -> _Traced:
    out = _Traced(dict.items(combatants))  # type: ignore[arg-type]
    out.notes = notes
    return out


_Base = tuple[Any, ...]


class ReadMemo:
    """Decisions and refusals kept under ((ruleset type, options, every field of the
    state but its combatants), action, the combatants deciding looked up, by id, with
    their records): :func:`decision_of`'s, one for the process, shared by every state, fight
    and table of the same ruleset and options. Never pickled with anything."""

    def __init__(self) -> None:
        self.reads: dict[_Base, tuple[list[tuple[str, ...] | None], dict[Any, Any]]] = {}
        """Per base, each set of combatants (by id; None: all) a decide read, and what
        was decided per (those ids, their records): the base hashed once a look-up."""
        self.size = 0
        self.hits = 0
        self.traced = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return self.size

    def __reduce__(self) -> tuple[type[ReadMemo], tuple[()]]:
        return (ReadMemo, ())

    def find(
        self, base: _Base, combatants: Mapping[str, Combatant]
    ) -> Decision | FracasError | None:
        entry = self.reads.get(base)
        if entry is None:
            return None
        kept = entry[1]
        for ids in entry[0]:
            if ids is None:
                key: tuple[Any, ...] = (None, combatants)
            else:
                key = (ids, _records(combatants, ids))
            found: Decision | FracasError | None = kept.get(key)
            if found is not None:
                self.hits += 1
                return found
        return None

    def put(
        self,
        base: _Base,
        ids: tuple[str, ...] | None,
        combatants: Mapping[str, Combatant],
        found: Decision | FracasError,
    ) -> None:
        if ids is None:
            key: tuple[Any, ...] = (None, combatants)
        else:
            key = (ids, _records(combatants, ids))
        with self._lock:
            if self.size >= READ_DECISIONS:
                self.reads.clear()
                self.size = 0
            entry = self.reads.get(base)
            if entry is None:
                entry = self.reads[base] = ([], {})
            if ids not in entry[0]:
                entry[0].append(ids)
            if key not in entry[1]:
                self.size += 1
            entry[1][key] = found

    def forget(self, rules: Ruleset | None = None) -> None:
        with self._lock:
            if rules is None:
                self.reads.clear()
                self.size = 0
                return
            kind, options = type(rules), rules.options

            def of(base: _Base) -> bool:
                items = base[0].items
                return bool(items[0] is kind and items[1] == options)

            for base in [b for b in self.reads if of(b)]:
                self.size -= len(self.reads.pop(base)[1])


_by_reads = ReadMemo()


def _records(combatants: Mapping[str, Combatant], ids: tuple[str, ...]) -> tuple[Any, ...]:
    """The records of ``ids`` (None for one absent), past any tracing of the mapping."""
    look = dict.get
    table = typing.cast(dict[str, Combatant], combatants)
    return tuple([look(table, i) for i in ids])


class _Rest:
    """The ruleset's type and options and every field of a state but its combatants,
    hashed once; one object per distinct value (:func:`_rest`), so that keys holding it
    compare by identity."""

    __slots__ = ("h", "items")

    def __init__(self, items: tuple[Any, ...]) -> None:
        self.items = items
        self.h = hash(items)

    def __hash__(self) -> int:
        return self.h

    def __eq__(self, other: object) -> bool:
        return self is other or (
            type(other) is _Rest and self.h == other.h and self.items == other.items
        )


_rests: dict[_Rest, _Rest] = {}
_last: tuple[Any, ...] = (None, None, None)
"""The last (rules, state, rest) asked: the lab asks every action of one state in a row."""


def _rest(rules: Ruleset, state: Encounter) -> _Rest:
    global _last
    last = _last
    if last[1] is state and last[0] is rules:
        found: _Rest = last[2]
        return found
    made = _Rest((type(rules), rules.options, *_rest_of(state)))
    found = _rests.setdefault(made, made)
    if len(_rests) > READ_DECISIONS:
        _rests.clear()
    _last = (rules, state, found)
    return found


_REST = tuple(f.name for f in dataclasses.fields(Encounter) if f.name != "combatants")
"""The fields of a state but its combatants, in their order: read from the class, so a
field added to it is in every key made of them."""
_rest_of = operator.attrgetter(*_REST)


def fields_but_combatants(state: Encounter) -> tuple[Any, ...]:
    """Every field of ``state`` but its combatants, in the class's order: with the
    combatants a key reads, the key of what was read of the state (:func:`decision_of`,
    the lab's shared scores)."""
    got: tuple[Any, ...] = _rest_of(state)
    return got


def decision_of(rules: Ruleset, state: Encounter, action: Action) -> Decision | FracasError:
    """:func:`decide`'s decision, or its refusal returned (not raised): kept under what
    deciding read of the state (:class:`ReadMemo`), so that every state agreeing on it
    gets it without deciding again, and a refusal costs a look-up, not an exception.

    Deciding runs on a copy of the state whose combatants note each look-up by id
    (any wider look counts as reading all of them); every other field of the state is
    in the key whole. A deterministic decide given equal values for what it read reads
    the same and decides the same. Not kept: a decision that holds the traced state or
    its traced combatants, or deciding left anything else holding them (:func:`_held`:
    then it would not be the same value in another state), an error other than a
    refusal, an unhashable action or options. With :func:`memos` off (or on a Python
    that counts no references), the plain :func:`decide`."""
    if not _memos_on.get() or not _COUNTS:
        return _plain(rules, state, action)
    combatants = state.combatants
    try:
        base = (_rest(rules, state), action)
        found = _by_reads.find(base, combatants)
    except TypeError:  # something unhashable: the plain way
        return _plain(rules, state, action)
    if found is not None:
        return found
    notes = _Notes()
    mapping = _traced(combatants, notes)
    traced = evolve(state, combatants=mapping)
    probe = _probe(action, notes)
    held = _held(traced, mapping, probe)
    got: Decision | FracasError
    try:
        got = decide(rules, traced, probe)
    except FracasError as exc:
        got = _stripped(exc)
    except Exception:  # what the rules made of a traced state: the plain way
        return _plain(rules, state, action)
    if _held(traced, mapping, probe) != held:
        return _plain(rules, state, action)
    if isinstance(got, FracasError) and not notes.target:
        got.any_target = True  # type: ignore[attr-defined]
    ids = None if notes.wide else tuple(sorted(notes.ids))
    _by_reads.traced += 1
    with contextlib.suppress(TypeError):  # an unhashable key part: not kept
        _by_reads.put(base, ids, combatants, got)
    return got


def _plain(rules: Ruleset, state: Encounter, action: Action) -> Decision | FracasError:
    try:
        return decide(rules, state, action)
    except FracasError as exc:
        return _stripped(exc)


def _stripped(exc: FracasError) -> FracasError:
    """``exc`` without its traceback and what it was raised while handling (whose
    frames hold the states the rules made on the way)."""
    exc.__traceback__ = exc.__context__ = exc.__cause__ = None
    return exc


def _fresh(exc: FracasError) -> FracasError:
    """A copy of a kept refusal to raise (raising the kept one would grow its traceback
    with every raise)."""
    out = type(exc).__new__(type(exc))
    Exception.__init__(out, *exc.args)
    out.__dict__.update(exc.__dict__)
    return out


_COUNTS = hasattr(sys, "getrefcount")
"""CPython counts references (:func:`_held`)."""


def _held(traced: Encounter, mapping: _Traced, probe: Action) -> tuple[int, int, int]:
    """How many references there are to the traced state, to its traced combatants and
    to the action that notes its reads. Deciding made a decision (or a refusal) that
    holds one, or anything else that keeps one (a closure, a view, a cache the rules
    filled), exactly where these counts grew while it decided: then that decision would
    not be the same value in another state, and it is not kept. (Before, a walk through
    every value a decision held looked for a state: 0.24 ms a blast, whose decision
    holds the victims at every tile it may scatter to, 11% of the win bar's work on the
    dice-combat example.)"""
    return sys.getrefcount(traced), sys.getrefcount(mapping), sys.getrefcount(probe)


class _Probe(Action):
    """An action that notes in :attr:`_Notes.target` whether deciding read its target or
    its tile (issue 34, item 3): a refusal that read neither refuses the action on every
    target and tile alike, in the same state (``any_target``), so the lab's candidates
    ask one target, not each (:func:`fracas.lab.plans.attacks`). Only deciding sees it;
    a decision that keeps it is not kept (:func:`_held`). Its other fields are read as
    an action's."""

    __slots__ = ("_notes",)
    _notes: _Notes

    @property
    def target(self) -> str | None:
        self._notes.target = True
        got: str | None = _SLOTS["target"].__get__(self)
        return got

    @property
    def at(self) -> Tile | None:
        self._notes.target = True
        got: Tile | None = _SLOTS["at"].__get__(self)
        return got


_SLOTS = {f.name: Action.__dict__[f.name] for f in dataclasses.fields(Action)}
"""Each field's slot of an action (a member descriptor: read and set past the probe's
own :attr:`_Probe.target` and :attr:`_Probe.at`)."""


def _probe(action: Action, notes: _Notes) -> _Probe:
    out = object.__new__(_Probe)
    for slot in _SLOTS.values():
        slot.__set__(out, slot.__get__(action))
    object.__setattr__(out, "_notes", notes)
    return out
