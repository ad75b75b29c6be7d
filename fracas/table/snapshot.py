"""A table at one moment, as a value: what every face shows is projected from a
:class:`Snapshot` (:class:`~fracas.table.View`), never read from the table as it
changes.

A snapshot holds no way back into the live table: it pickles alone (a worker, a test),
and what may be done in it (:meth:`Snapshot.options`) is worked out from its own state
and ruleset. Every snapshot the table makes of one state carries that state's one
:class:`Kept`, so the pages asking after each change share the work; when the state
moves on the table retires it (a snapshot of a state past is answered, not kept).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from fracas.engine.may_do import Option, options_now
from fracas.engine.play import Record
from fracas.io.files import EncounterFile
from fracas.model import Encounter
from fracas.rulesets.base import Ruleset
from fracas.table.commands import Request
from fracas.table.physical import Pending

__all__ = ["Kept", "Snapshot"]

_Asker = tuple[str | None, frozenset[str]]
"""Whose "may do now" (the actor) and what they do not see."""


class Kept:
    """What may be done in one state, kept per (actor, unseen) while that state is the
    table's (:meth:`retire`: no longer). Never pickled: a fresh one comes back."""

    def __init__(self) -> None:
        self._options: dict[_Asker, list[Option]] = {}
        self._live = True
        self._lock = threading.Lock()

    def __reduce__(self) -> tuple[type[Kept], tuple[()]]:
        return (Kept, ())

    def __len__(self) -> int:
        return len(self._options)

    def options(
        self, ruleset: Ruleset, state: Encounter, actor: str | None, unseen: frozenset[str]
    ) -> list[Option]:
        """What ``actor`` may do in ``state`` (the state this is kept for), tried on every
        combatant but the ``unseen``: worked out once per asker while live."""
        found = self._options.get((actor, unseen))
        if found is None:
            found = options_now(ruleset, state, actor, unseen)
            with self._lock:
                if self._live:
                    self._options[actor, unseen] = found
        return list(found)

    def retire(self) -> None:
        """The state moved on: keep nothing more (what was kept goes)."""
        with self._lock:
            self._live = False
            self._options = {}


@dataclass(frozen=True)
class Snapshot:
    """A table at one moment, frozen: what every face shows is projected from one of
    these (:class:`~fracas.table.View`), never read from the table as it changes."""

    name: str
    file: EncounterFile
    seq: int
    state: Encounter
    log: tuple[Record, ...]
    before: tuple[Encounter, ...]
    """The state before each record of ``log``."""
    pending: Pending | None
    physical: bool
    requests: tuple[Request, ...]
    undoable: Record | None
    """The action record an undo would take back now."""
    redoable: Record | None
    """The action record a redo would put back now."""
    map_image: str | None = None
    """The version of the map image the game master put under the grid (None: none)."""
    kept: Kept = field(default_factory=Kept, compare=False, repr=False)
    """What may be done in ``state``, shared by every snapshot of it the table made."""

    @property
    def ruleset(self) -> Ruleset:
        return self.file.ruleset

    def options(
        self, actor: str | None = None, unseen: frozenset[str] = frozenset()
    ) -> list[Option]:
        """What ``actor`` (default: whose turn it is) may do by the rules in this state,
        tried on every combatant but the ``unseen``."""
        return self.kept.options(self.ruleset, self.state, actor, unseen)
