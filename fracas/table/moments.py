"""The snapshots of one table (:class:`Moments`): made at its lock's outermost release
(still held), so a reader who finds the lock taken (a change being stored, the store
committing) reads at once the table as it was at the last release, never waiting for
a writer. Each snapshot of one state carries that state's one
:class:`~fracas.table.snapshot.Kept`: when the state moves on it is retired, and the
rules' decisions the table kept go with it (another table's stay)."""

from __future__ import annotations

from fracas.engine.play import Record
from fracas.model import Encounter
from fracas.table.extras import MapImage
from fracas.table.snapshot import Kept, Snapshot
from fracas.table.waits import Waits
from fracas.table.writer import Writer

__all__ = ["Moments"]


class Moments:
    """A table's snapshots: the last one made, and the table now."""

    def __init__(self, writer: Writer, waits: Waits, map_image: MapImage) -> None:
        self._writer, self._waits, self._map = writer, waits, map_image
        self._kept: tuple[Encounter | None, Kept] = (None, Kept())
        """The state now and what may be done in it (swapped whole: read without the
        lock)."""
        self._log: tuple[Record, ...] = ()
        self._before: tuple[Encounter, ...] = ()
        self.last = self.now()
        """The snapshot made at the lock's last release (or the start)."""

    def take(self) -> Snapshot:
        """The table now, frozen. Never waits for a writer: while another thread holds
        the table, the table as it was when last released, a moment that was (on the
        event loop, a wait for a store's commit stopped every page of the server)."""
        lock = self._writer.lock
        if not lock.acquire(blocking=False):
            return self.last
        try:
            if lock.depth > 1:  # this thread is changing the table: as it is now
                return self.now()
        finally:
            lock.release()  # the outermost release made the snapshot
        return self.last

    def settle(self) -> None:
        """At the outermost release of the lock, still holding it."""
        self.last = self.now()

    def now(self) -> Snapshot:
        w, waits = self._writer, self._waits
        engine = w.engine
        log, before, state = engine.log, w.before, engine.state
        if len(self._log) != len(log):
            self._log = tuple(log)
        if len(self._before) != len(before):
            self._before = tuple(before)
        return Snapshot(
            w.name,
            w.file,
            len(log),
            state,
            self._log,
            self._before,
            waits.pending,
            waits.physical,
            waits.requests,
            engine.undoable,
            engine.redoable,
            self._map.version(),
            self.kept_for(state),
        )

    def kept_for(self, state: Encounter) -> Kept:
        """What may be done in ``state``, kept once for the state now: every page of the
        table asks after each change, and what a server's table keeps lives in the
        garbage collector's oldest generation. When the state moves on, what was kept
        is retired, and the rules' decisions this table kept go (they were about the
        states before, and held them); another table's stay. A state past is answered,
        not kept."""
        kept_state, kept = self._kept
        if state is kept_state:
            return kept
        if state is not self._writer.engine.state:
            fresh = Kept()
            fresh.retire()
            return fresh
        kept.retire()
        kept = Kept()
        self._kept = (state, kept)
        self._writer.decisions.forget()
        return kept
