"""Which combatants folding an action's events read (:func:`traced_fold`), so that the
policy's score of an action serves every state that agrees on them.

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
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, ClassVar, cast

from fracas.frozen import FrozenDict, evolve
from fracas.lab.fight import fold_runs
from fracas.model import Combatant, Encounter, Event

__all__ = ["peek", "traced_fold"]

_LOCK = threading.Lock()
"""One traced fold at a time in a process (the tracker's win bar runs the lab in
threads; the notes below are per process)."""


class _Log:
    """What the traced combatants were asked for since the last :meth:`reset`."""

    ids: ClassVar[set[str]] = set()
    wide: ClassVar[bool] = False

    @classmethod
    def reset(cls) -> None:
        cls.ids, cls.wide = set(), False


def _wide(method: str) -> Callable[..., Any]:
    real = getattr(FrozenDict, method)

    def wide(self: FrozenDict[str, Combatant], *args: Any) -> Any:
        _Log.wide = True
        return real(self, *args)

    return wide


class _Seen(FrozenDict[str, Combatant]):
    """A traced state's combatants: a look-up by id notes the id; anything wider notes
    everything. :meth:`set` (what ``Encounter.with_combatant`` calls) keeps the trace on
    the state it makes, without reading the others."""

    __slots__ = ()

    def __getitem__(self, cid: str) -> Combatant:
        _Log.ids.add(cid)
        return dict.__getitem__(self, cid)

    def get(self, cid: str, default: Any = None) -> Any:
        _Log.ids.add(cid)
        return dict.get(self, cid, default)

    def __contains__(self, cid: object) -> bool:
        _Log.ids.add(str(cid))
        return dict.__contains__(self, cid)

    def __iter__(self) -> Iterator[str]:
        _Log.wide = True
        return dict.__iter__(self)

    def set(self, key: str, value: Combatant) -> FrozenDict[str, Combatant]:
        out = dict(dict.items(self))  # dict's own view: no note of a wide look
        out[key] = value
        return _Seen(out)

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


Runs = Iterable[tuple[Event, ...]]


def peek(combatants: Mapping[str, Combatant], cid: str) -> Combatant | None:
    """``combatants.get(cid)`` past a traced fold's notes (what the score reads of a
    traced fold's result is not the fold's reading)."""
    return dict.get(cast(dict[str, Combatant], combatants), cid)


def traced_fold(
    state: Encounter, runs: Runs
) -> tuple[dict[tuple[Event, ...], Encounter], tuple[str, ...] | None]:
    """Each run folded onto ``state`` (as :func:`~fracas.lab.fight.fold_runs` does), and
    the ids of the combatants the folds read, sorted, where they decide every change:
    nothing wider was read, no combatant came or went, and every combatant that changed
    was read. None where not (the folds are then those of the plain state)."""
    runs = list(runs)
    with _LOCK:
        _Log.reset()
        seen = evolve(state, combatants=_Seen(state.combatants))
        try:
            folded: dict[tuple[Event, ...], Encounter] | None = fold_runs(seen, runs)
        except Exception:  # what the rules made of a traced state: the plain way
            folded = None
        ids, wide = frozenset(_Log.ids), _Log.wide
        _Log.reset()
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
