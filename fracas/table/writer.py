"""A table's writer: the one hand on its stored log.

It holds the engine (exactly the stored log), the state before each record, and the
table's lock. A change is made on a fork of the engine, appended to the store in one
durable transaction with the log's length as the expected sequence number, and only
then kept (:meth:`Writer.run`). When an append fails (another process moved the
encounter on, the disk is gone) the writer reloads from the store, so what it holds is
again exactly what is stored, and the error goes up (:class:`~fracas.io.store.MovedOn`
carries what the other writer did; an append whose outcome is unknown leaves the
writer stale until it reads it back). Writes are serialised by the lock in this
process and across processes by the store's expected-seq check.

The rules' decisions made while the writer runs them are kept in its own memo
(:class:`~fracas.rulesets.base.Decisions`): forgetting them forgets no other table's.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from fracas.engine.play import Engine, Record
from fracas.errors import FracasError
from fracas.io.files import EncounterFile, parse_text
from fracas.io.store import JSON, EncounterStore, MovedOn, StoreError
from fracas.io.store.records import check_replayed, record_from_json, record_json
from fracas.model import Encounter
from fracas.rulesets.base import Decisions, keeping_decisions
from fracas.table.feed import Feed

__all__ = ["Loaded", "StoreLost", "TableLock", "Writer", "live_seed", "load"]


class StoreLost(StoreError):
    """An append failed and the encounter cannot be read back: the table must close."""


class TableLock:
    """A table's lock (reentrant): its outermost holder's release first calls
    ``settle`` (the table makes its snapshot), so a reader who finds it taken (a change
    being stored, the store committing) reads at once the table as it was at the last
    release."""

    def __init__(self, settle: Callable[[], None]) -> None:
        self._lock = threading.RLock()
        self._settle = settle
        self.depth = 0
        """How many times the holder holds it."""

    def acquire(self, blocking: bool = True) -> bool:
        if not self._lock.acquire(blocking):
            return False
        self.depth += 1
        return True

    def release(self) -> None:
        try:
            if self.depth == 1:
                self._settle()
        finally:
            self.depth -= 1
            self._lock.release()

    def __enter__(self) -> TableLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def live_seed(seed: int, records: int) -> int:
    """The seed of a table resumed after ``records`` records of an encounter seeded
    ``seed``: reproducible, and not the start's dice again."""
    if records == 0:
        return seed
    return random.Random(f"fracas:{seed}:{records}").randrange(2**32)


@dataclass
class Loaded:
    """A stored encounter read back: its file's text and file, its engine with the
    whole log replayed, the state before each record."""

    text: str
    file: EncounterFile
    engine: Engine
    before: list[Encounter]


def load(store: EncounterStore, name: str) -> Loaded:
    """Stored encounter ``name``, its log replayed from the store (each record checked
    to replay as stored; the decisions made on the way kept nowhere).

    Raises:
        StoreError: ``unknown_encounter``; ``log_drift`` or ``bad_record``.
    """
    stored = store.load(name)
    setup = stored.start
    try:
        ef = parse_text(setup.setup, setup.source)
    except FracasError as exc:
        raise StoreError(
            "log_drift", f"{name!r}: its stored setup no longer reads: {exc}"
        ) from None
    engine = Engine(ef.ruleset, ef.start, live_seed(setup.seed, len(stored.records)), ef.bounds)
    before: list[Encounter] = []
    with keeping_decisions(Decisions()):  # of states past: kept by no one
        for body in stored.records:
            record = record_from_json(ef, body)
            if record.seq != len(engine.log):
                raise StoreError(
                    "bad_record", f"{name!r}: record #{record.seq} at place {len(engine.log)}"
                )
            before.append(engine.state)
            try:
                replayed = engine.replay(record, ef.order)
            except FracasError as exc:
                raise StoreError(
                    "log_drift",
                    f"{name!r} record #{record.seq} no longer replays: {exc} "
                    f"(fracas or the ruleset changed since it was played)",
                ) from None
            check_replayed(body, replayed, name)
    return Loaded(setup.setup, ef, engine, before)


class Writer:
    """The stored log of one table and the hand that appends to it."""

    def __init__(
        self,
        store: EncounterStore,
        name: str,
        file: EncounterFile,
        engine: Engine,
        feed: Feed,
        settle: Callable[[], None],
    ) -> None:
        self.store = store
        self.name = name
        self.file = file
        self.engine = engine
        """Exactly the stored log (replaced whole, never changed in place)."""
        self.before: list[Encounter] = []
        """The state before each record of the log."""
        self.feed = feed
        self.lock = TableLock(settle)
        self.stale = False
        """An append's outcome is unknown (the store went away): read it back first."""
        self.decisions = Decisions()
        """The rules' decisions this table made (its own: see the module)."""

    @property
    def seq(self) -> int:
        """The sequence number the next record takes."""
        return len(self.engine.log)

    @property
    def state(self) -> Encounter:
        return self.engine.state

    @property
    def looks(self) -> bool:
        """Whether a refresh looks at the store: not while its watch is live (and the
        last append is known)."""
        return not self.store.listening or self.stale

    def run(self, make: Callable[[Engine], Record]) -> Record:
        """Make the record on a fork of the engine, store it, and only then keep the fork:
        a change the store refuses or loses leaves the table as it was."""
        with self.lock:
            self.fresh()
            before = self.state
            twin = self.engine.fork()
            try:
                with keeping_decisions(self.decisions):
                    record = make(twin)
            except FracasError:
                self.check_fresh()  # refused on a stale state? then say that instead
                raise
            try:
                self.store.append(self.name, record.seq, [record_json(record)])
            except MovedOn as exc:
                self.recover()
                self.tell(self.since(exc))
                raise
            except BaseException:  # refused, failed or interrupted: the store says
                self.stale = True
                seq = self.seq
                self.recover()  # the store away: the table stays as it was, stale
                self.tell(self.engine.log[seq:])
                raise
            self.engine = twin
            self.before.append(before)
        self.feed.publish(self.name, [record], self.seq)
        return record

    def fresh(self) -> None:
        """After an append whose outcome is unknown: become what the store holds first."""
        if self.stale:
            seq = self.seq
            self.recover()
            self.tell(self.engine.log[seq:])

    def check_fresh(self) -> None:
        """Raise :class:`MovedOn` (having caught up) if another writer appended."""
        seq = self.seq
        since = self.store.records_since(self.name, seq)
        if since:
            self.recover()
            self.tell(self.engine.log[seq:])
            raise MovedOn(self.name, seq, since)

    def recover(self) -> None:
        """Become exactly what the store holds. A store away for now
        (``store_unavailable``) leaves the table as it is and says so; any other
        failure to read it back is :class:`StoreLost`."""
        try:
            fresh = load(self.store, self.name)
        except StoreError as exc:
            if exc.code == "store_unavailable":
                raise
            raise StoreLost(
                "store_failed", f"{self.name!r} cannot be read back from the store: {exc}"
            ) from None
        except FracasError as exc:
            raise StoreLost(
                "store_failed", f"{self.name!r} cannot be read back from the store: {exc}"
            ) from None
        self.engine, self.before, self.file = fresh.engine, fresh.before, fresh.file
        self.stale = False

    def catch_up(self) -> list[Record]:
        """Read what other processes appended (or, stale, everything again); returns
        (and publishes) the new records."""
        with self.lock:
            seq = self.seq
            if self.stale:
                self.recover()
            else:
                since = self.store.records_since(self.name, seq)
                if not since:
                    return []
                self.apply(since)
            new = self.engine.log[seq:]
        self.tell(new)
        return new

    def apply(self, bodies: Sequence[JSON]) -> None:
        """Replay stored records that follow this log (each checked as a resume checks
        it); on any doubt, reload the whole encounter instead."""
        twin, before = self.engine.fork(), list(self.before)
        try:
            with keeping_decisions(self.decisions):
                for body in bodies:
                    record = record_from_json(self.file, body)
                    if record.seq != len(twin.log):
                        raise StoreError("bad_record", f"record #{record.seq} at {len(twin.log)}")
                    before.append(twin.state)
                    check_replayed(body, twin.replay(record, self.file.order), self.name)
        except FracasError:
            self.recover()
            return
        self.engine, self.before = twin, before

    def tell(self, records: Sequence[Record]) -> None:
        """Publish records appended (none: nothing to tell)."""
        if records:
            self.feed.publish(self.name, records, self.seq)

    def since(self, error: MovedOn) -> list[Record]:
        """The records another writer appended, as this log now holds them."""
        return self.engine.log[error.expected :]
