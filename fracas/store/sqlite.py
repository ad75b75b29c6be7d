"""The encounter store in one SQLite file (stdlib ``sqlite3``).

Durability and the two guards against lost or duplicated writes:

* WAL journal, ``synchronous=FULL``: a commit is on the disk when it returns, and a
  process killed at any moment leaves every transaction either whole or absent.
* Every write is one ``BEGIN IMMEDIATE`` transaction: it takes the write lock first,
  then checks the encounter's sequence number against the writer's expected one
  (:class:`~fracas.store.MovedOn` when another session wrote first), then inserts.
* ``PRIMARY KEY (encounter, seq)`` on the records: a second writer that somehow got
  past the check still cannot put two records at one place in a log.

A busy store (another process inside its own write) is waited for, up to
``timeout`` seconds. Every ``sqlite3`` error is turned into a
:class:`~fracas.store.StoreError` at this boundary.
"""

from __future__ import annotations

import builtins
import json
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fracas.store import (
    JSON,
    EncounterInfo,
    MovedOn,
    NewEncounter,
    StoredEncounter,
    StoreError,
    Watcher,
    check_name,
    check_numbered,
    name_from,
    now_stamp,
    record_text,
)

__all__ = ["SQLiteStore"]

APPLICATION_ID = 0x66726163  # "frac": marks a SQLite file as a fracas store
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE encounters (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    source TEXT NOT NULL,
    setup TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    seed TEXT NOT NULL,
    seq INTEGER NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    stamp INTEGER NOT NULL  -- the store's write counter at the last change: list order
);
CREATE TABLE records (
    encounter INTEGER NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    written TEXT NOT NULL,
    PRIMARY KEY (encounter, seq)
) WITHOUT ROWID;
"""

_INFO = "SELECT name, source, ruleset, seq, created, updated FROM encounters"
_STAMP = "(SELECT coalesce(max(stamp), 0) + 1 FROM encounters)"


class SQLiteStore:
    """Encounters in one SQLite file; see the module docstring for the guarantees."""

    def __init__(self, path: Path, *, durable: bool = True, timeout: float = 30.0) -> None:
        self.path = path
        self.location = str(path)
        self.listening = False
        self._lock = threading.RLock()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # One connection shared by the threads of this process (a web server's
            # workers), each transaction under the lock: SQLite's own locking serialises
            # the processes.
            self._db = sqlite3.connect(
                path, timeout=timeout, isolation_level=None, check_same_thread=False
            )
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(
                "store_failed", f"cannot open the store {self.location!r}: {exc}"
            ) from None
        try:
            self._setup(durable)
        except StoreError:
            self._db.close()
            raise
        except sqlite3.Error as exc:
            self._db.close()
            raise StoreError(
                "bad_store", f"{self.location!r} is not a fracas store (SQLite says: {exc})"
            ) from None

    def _setup(self, durable: bool) -> None:
        db = self._db
        mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise StoreError("store_failed", f"{self.location!r}: cannot use the WAL journal")
        db.execute(f"PRAGMA synchronous = {'FULL' if durable else 'NORMAL'}")
        db.execute("PRAGMA foreign_keys = ON")
        with self._transaction():
            version = db.execute("PRAGMA user_version").fetchone()[0]
            app = db.execute("PRAGMA application_id").fetchone()[0]
            if version == 0:
                tables = db.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]
                if tables:
                    raise StoreError(
                        "bad_store", f"{self.location!r} is a SQLite file but not a fracas store"
                    )
                for statement in _SCHEMA.split(";"):  # not executescript: it would COMMIT
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            elif app != APPLICATION_ID:
                raise StoreError(
                    "bad_store", f"{self.location!r} is a SQLite file but not a fracas store"
                )
            elif version > SCHEMA_VERSION:
                raise StoreError(
                    "bad_store",
                    f"{self.location!r} was written by a newer fracas (store version "
                    f"{version}; this one reads {SCHEMA_VERSION})",
                )

    @contextmanager
    def _transaction(self, write: bool = True) -> Iterator[sqlite3.Connection]:
        """One transaction: ``BEGIN IMMEDIATE`` (the write lock first) or a read snapshot.
        Committed at the end of the block, rolled back on any exception. One thread at a
        time (the connection is shared)."""
        with self._lock:
            db = self._db
            try:
                db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            except sqlite3.Error as exc:
                raise self._error(exc) from None
            try:
                yield db
            except BaseException:
                if db.in_transaction:
                    db.rollback()
                raise
            try:
                db.execute("COMMIT")
            except sqlite3.Error as exc:
                if db.in_transaction:
                    db.rollback()
                raise self._error(exc, "commit failed: ") from None

    # --- the interface ------------------------------------------------------------

    def create(self, new: NewEncounter, records: Sequence[JSON], name: str | None = None) -> str:
        if name is not None:
            check_name(name)
        check_numbered(name or new.source, 0, records)
        now = now_stamp()
        with self._guard(), self._transaction() as db:
            if name is None:
                name = self._free_name(db, name_from(new.source))
            elif db.execute("SELECT 1 FROM encounters WHERE name = ?", (name,)).fetchone():
                raise StoreError(
                    "name_taken", f"an encounter called {name!r} exists already; give another"
                )
            cursor = db.execute(
                "INSERT INTO encounters (name, source, setup, ruleset, seed, seq, created, "
                f"updated, stamp) VALUES (?, ?, ?, ?, ?, ?, ?, ?, {_STAMP})",
                (name, new.source, new.setup, new.ruleset, str(new.seed), len(records), now, now),
            )
            self._insert(db, int(cursor.lastrowid or 0), records, now)
        return name

    def append(self, name: str, expected_seq: int, records: Sequence[JSON]) -> None:
        check_numbered(name, expected_seq, records)
        now = now_stamp()
        with self._guard(), self._transaction() as db:
            eid, seq = self._row(db, name)
            if seq != expected_seq:
                if expected_seq > seq:
                    raise StoreError(
                        "bad_record",
                        f"{name!r} has {seq} records; a record #{expected_seq} cannot follow",
                    )
                raise MovedOn(name, expected_seq, self._since(db, eid, expected_seq))
            try:
                self._insert(db, eid, records, now)
            except sqlite3.IntegrityError:  # the second guard: a place already taken
                raise MovedOn(name, expected_seq, self._since(db, eid, expected_seq)) from None
            db.execute(
                f"UPDATE encounters SET seq = ?, updated = ?, stamp = {_STAMP} WHERE id = ?",
                (expected_seq + len(records), now, eid),
            )

    def load(self, name: str) -> StoredEncounter:
        with self._guard(), self._transaction(write=False) as db:
            row = db.execute(
                "SELECT id, name, source, ruleset, seq, created, updated, setup, seed "
                "FROM encounters WHERE name = ?",
                (name,),
            ).fetchone()
            if row is None:
                raise self._unknown(db, name)
            records = self._since(db, row[0], 0)
        info = EncounterInfo(row[1], row[2], row[3], row[4], row[5], row[6])
        start = NewEncounter(row[2], row[7], row[3], int(row[8]))
        if len(records) != info.records:
            raise StoreError(
                "bad_store", f"{name!r} says it has {info.records} records but holds {len(records)}"
            )
        return StoredEncounter(info, start, records)

    def records_since(self, name: str, seq: int) -> list[JSON]:
        with self._guard(), self._transaction(write=False) as db:
            eid, _ = self._row(db, name)
            return self._since(db, eid, seq)

    def list(self) -> list[EncounterInfo]:
        with self._guard(), self._transaction(write=False) as db:
            rows = db.execute(f"{_INFO} ORDER BY stamp DESC").fetchall()
        return [EncounterInfo(*row) for row in rows]

    def delete(self, name: str) -> None:
        with self._guard(), self._transaction() as db:
            self._row(db, name)
            db.execute("DELETE FROM encounters WHERE name = ?", (name,))

    def watch(self, listener: Watcher) -> Callable[[], None]:
        """SQLite tells no one of a commit: never called; readers look again now and then."""
        return lambda: None

    def close(self) -> None:
        self._db.close()

    # --- helpers --------------------------------------------------------------

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """Turn any SQLite error into a StoreError (our own errors pass through)."""
        try:
            yield
        except sqlite3.Error as exc:
            raise self._error(exc) from None

    def _error(self, exc: sqlite3.Error, doing: str = "") -> StoreError:
        """``store_read_only`` (the file or its directory refuses writes), ``store_full``
        (the disk is full), else ``store_failed``."""
        code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
        if code == sqlite3.SQLITE_READONLY:
            return StoreError(
                "store_read_only",
                f"the store {self.location!r} refuses writes (read-only: {exc}); "
                "nothing was written",
            )
        if code == sqlite3.SQLITE_FULL:
            return StoreError(
                "store_full",
                f"the store {self.location!r}: the disk is full; nothing was written; free "
                "space on its disk, then try again",
            )
        return StoreError("store_failed", f"{self.location!r}: {doing}{exc}")

    def _row(self, db: sqlite3.Connection, name: str) -> tuple[int, int]:
        row = db.execute("SELECT id, seq FROM encounters WHERE name = ?", (name,)).fetchone()
        if row is None:
            raise self._unknown(db, name)
        return int(row[0]), int(row[1])

    def _unknown(self, db: sqlite3.Connection, name: str) -> StoreError:
        names = [r[0] for r in db.execute("SELECT name FROM encounters ORDER BY name LIMIT 21")]
        valid = ", ".join(names[:20]) + (", ..." if len(names) > 20 else "") or "none yet"
        return StoreError(
            "unknown_encounter",
            f"no encounter called {name!r} in {self.location!r}; stored: {valid}",
        )

    def _since(self, db: sqlite3.Connection, eid: int, seq: int) -> builtins.list[JSON]:
        rows = db.execute(
            "SELECT body FROM records WHERE encounter = ? AND seq >= ? ORDER BY seq", (eid, seq)
        ).fetchall()
        out: builtins.list[JSON] = []
        for (body,) in rows:
            record: Any = json.loads(body)
            out.append(record)
        return out

    def _insert(self, db: sqlite3.Connection, eid: int, records: Sequence[JSON], now: str) -> None:
        db.executemany(
            "INSERT INTO records (encounter, seq, kind, body, written) VALUES (?, ?, ?, ?, ?)",
            [(eid, r["seq"], r["kind"], record_text(r), now) for r in records],
        )

    def _free_name(self, db: sqlite3.Connection, base: str) -> str:
        taken = {
            r[0]
            for r in db.execute(
                "SELECT name FROM encounters WHERE name = ? OR name LIKE ?", (base, f"{base}-%")
            )
        }
        name, n = base, 1
        while name in taken:
            n += 1
            name = f"{base}-{n}"
        return name
