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
from collections.abc import Iterable
from typing import cast

from fracas.lab.fight import fold_runs
from fracas.lab.watch import Notes, peek, watched
from fracas.model import Combatant, Encounter, Event
from fracas.model.frozen import evolve

__all__ = ["traced_fold"]

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
