"""The encounter store in one SQLite file (stdlib ``sqlite3``), and the scratch store.

The append/load protocol is :class:`~fracas.io.store.protocol.SQLStore`'s; this is
SQLite's dialect of it. Durability and the two guards against lost or duplicated writes:

* WAL journal, ``synchronous=FULL``: a commit is on the disk when it returns, and a
  process killed at any moment leaves every transaction either whole or absent.
* Every write is one ``BEGIN IMMEDIATE`` transaction: it takes the write lock first,
  then checks the encounter's sequence number against the writer's expected one
  (:class:`~fracas.io.store.MovedOn` when another session wrote first), then inserts.
* ``PRIMARY KEY (encounter, seq)`` on the records: a second writer that somehow got
  past the check still cannot put two records at one place in a log.

The file is its owner's alone: made 0600 (its WAL and the WAL's index get the same
mode from SQLite; an older store's files are made 0600 at open), in directories made
0700; ``secure_delete`` zeroes what a write replaces, and :meth:`_SQLite.scrub`
empties the WAL into the file, so what was removed (a link token kept in clear by an
older fracas) leaves the files.

A busy store (another process inside its own write) is waited for, up to
``timeout`` seconds. Every ``sqlite3`` error is turned into a
:class:`~fracas.io.store.StoreError` at this boundary.

:class:`MemoryStore` is the same store in SQLite's in-memory database
(``open_store(":memory:")``): nothing durable, gone when closed; for a command that
plays a file through the table and keeps nothing.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fracas.io.store import StoreError, Watcher, private_dir
from fracas.io.store.protocol import Dialect, SQLStore

__all__ = ["SQLITE", "MemoryStore", "SQLiteStore"]

APPLICATION_ID = 0x66726163  # "frac": marks a SQLite file as a fracas store
SCHEMA_VERSION = 3

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

_EXTRAS = """
CREATE TABLE extras (
    encounter INTEGER NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    body BLOB NOT NULL,
    PRIMARY KEY (encounter, key)
) WITHOUT ROWID
"""
"""Version 2: what an encounter keeps outside its log (its links, its map image)."""

_LOOKUPS = (
    """
CREATE TABLE lookups (
    lookup TEXT PRIMARY KEY,
    encounter INTEGER NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    label TEXT NOT NULL
) WITHOUT ROWID
""",
    "CREATE INDEX lookups_encounter ON lookups (encounter)",
)
"""Version 3: a text that finds its encounter in one indexed read (a link token's keyed
hash -> its link)."""

_PARTIES = """
CREATE TABLE IF NOT EXISTS parties (
    name TEXT PRIMARY KEY,
    body TEXT NOT NULL,
    updated TEXT NOT NULL
) WITHOUT ROWID
"""
"""A campaign's parties (issue 36): made wherever missing, at every open, with no new
store version (an older fracas ignores the table; its stores gain it)."""

SQLITE = Dialect(
    encounters="encounters",
    records="records",
    extras="extras",
    lookups="lookups",
    parties="parties",
    param="?",
    next_stamp="(SELECT coalesce(max(stamp), 0) + 1 FROM encounters)",
    lock_row="",  # BEGIN IMMEDIATE holds the whole store already
    error=sqlite3.Error,
    unique=sqlite3.IntegrityError,
)


class _SQLite(SQLStore[sqlite3.Connection]):
    """SQLite's hooks: one connection shared by the threads of this process (a web
    server's workers), each transaction under a lock; SQLite's own locking serialises
    the processes."""

    dialect = SQLITE

    def _connect(self, location: str, target: str | Path, timeout: float) -> None:
        self.location = location
        self.listening = False
        self._lock = threading.RLock()
        self._db = sqlite3.connect(
            target, timeout=timeout, isolation_level=None, check_same_thread=False
        )

    def _create_schema(self) -> None:
        for statement in _SCHEMA.split(";"):  # not executescript: it would COMMIT
            if statement.strip():
                self._db.execute(statement)
        self._db.execute(_EXTRAS)
        for statement in _LOOKUPS:
            self._db.execute(statement)
        self._db.execute(_PARTIES)

    @contextmanager
    def _transaction(
        self, *, write: bool = True, snapshot: bool = False
    ) -> Iterator[sqlite3.Connection]:
        """One transaction: ``BEGIN IMMEDIATE`` (the write lock first) or a read snapshot
        (any SQLite read transaction is one). Committed at the end of the block, rolled
        back on any exception. One thread at a time (the connection is shared)."""
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
                raise self._error(exc, prefix="commit failed: ") from None

    def _error(self, exc: sqlite3.Error, doing: str = "", prefix: str = "") -> StoreError:
        """``store_read_only`` (the file or its directory refuses writes), ``store_full``
        (the disk is full), else ``store_failed`` (SQLite's messages say what failed,
        ``doing`` is not needed)."""
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
        return StoreError("store_failed", f"{self.location!r}: {prefix}{exc}")

    def _insert_id(self, db: sqlite3.Connection, sql: str, params: Sequence[Any]) -> int:
        return int(db.execute(sql, params).lastrowid or 0)

    def _insert_many(self, db: sqlite3.Connection, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        db.executemany(sql, rows)

    @contextmanager
    def _savepoint(self, db: sqlite3.Connection) -> Iterator[None]:
        db.execute("SAVEPOINT guard")
        try:
            yield
        except BaseException:
            if db.in_transaction:  # a full disk, say, may have rolled it all back already
                db.execute("ROLLBACK TO guard")
                db.execute("RELEASE guard")
            raise
        db.execute("RELEASE guard")

    def scrub(self) -> None:
        """Every connection zeroes what it deletes (``secure_delete``); this copies the
        WAL into the file and empties it (``wal_checkpoint(TRUNCATE)``), so the WAL's
        older page images go too. Another process reading at that moment keeps the
        WAL: a checkpoint later (SQLite's own, or this one at the next start) ends it."""
        with self._lock:
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def watch(self, listener: Watcher) -> Callable[[], None]:
        """SQLite tells no one of a commit: never called; readers look again now and then."""
        return lambda: None

    def close(self) -> None:
        """Closed once no other thread is in a transaction (the lock): a close under a
        statement another thread runs can crash SQLite's module; a use after it is a
        ``store_failed`` refusal."""
        with self._lock:
            self._db.close()


_DAMAGE = (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)
"""SQLite's codes of a damaged file."""
_OPENING = threading.Lock()
_LIVE: weakref.WeakSet[SQLiteStore] = weakref.WeakSet()
"""The SQLite stores this process has opened and not yet dropped."""


def _read_ahead(path: Path) -> None:
    """Read the store's file (and its WAL) once, in order, before the store's first
    connection in this process: the page cache then holds what the open's check reads.
    Skipped where a store of this process has the file open already: closing a
    descriptor of a file drops every POSIX lock this process holds on it, SQLite's
    (another process could then checkpoint the WAL away under it)."""
    if not path.exists() or any(_same(store.path, path) for store in list(_LIVE)):
        return
    for part in (path, Path(f"{path}-wal")):
        with contextlib.suppress(OSError), part.open("rb", buffering=0) as file:
            chunk = bytearray(1 << 20)
            while file.readinto(chunk):
                pass


def _same(a: Path, b: Path) -> bool:
    try:
        return a.samefile(b)
    except OSError:
        return a == b


class SQLiteStore(_SQLite):
    """Encounters in one SQLite file; see the module docstring for the guarantees."""

    def __init__(self, path: Path, *, durable: bool = True, timeout: float = 30.0) -> None:
        self.path = path
        try:
            private_dir(path.parent)
            if not path.exists():  # made 0600 here: SQLite gives its WAL the same mode
                with contextlib.suppress(FileExistsError):
                    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            with _OPENING:  # read ahead only where no store of this process has it open
                _read_ahead(path)
                self._connect(str(path), path, timeout)
                _LIVE.add(self)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(
                "store_failed", f"cannot open the store {str(path)!r}: {exc}"
            ) from None
        try:
            self._setup(durable)
            self._check_whole()
        except StoreError:
            self._db.close()
            raise
        except sqlite3.Error as exc:
            self._db.close()
            raise StoreError(
                "bad_store", f"{self.location!r} is not a fracas store (SQLite says: {exc})"
            ) from None
        for own in (path, *(Path(f"{path}{end}") for end in ("-wal", "-shm"))):
            with contextlib.suppress(OSError):  # an older fracas made them 0644
                if own.stat().st_mode & 0o077:
                    own.chmod(0o600)

    def _check_whole(self) -> None:
        """SQLite's ``quick_check`` at open (every page of every table and index read and
        its structure checked; not that each index matches its table): a store damaged
        anywhere is refused now (``damaged_store``), not when the encounter on the
        damaged page is opened. The file is read once in order first: the check reads
        its pages in b-tree order, each a wait for the disk where the page cache does
        not hold them (a 100 MB store: 2.1 s so, 0.2 s read first: :func:`_read_ahead`;
        0.08 s cached)."""
        try:
            found = [str(row[0]) for row in self._db.execute("PRAGMA quick_check(3)")]
        except sqlite3.DatabaseError as exc:  # damage where the check itself must read
            if getattr(exc, "sqlite_errorcode", 0) & 0xFF not in _DAMAGE:
                raise self._error(exc) from None  # busy, or the disk: not damage
            found = [str(exc)]
        if found != ["ok"]:
            said = " ".join(" ".join(found).replace("*** in database main ***", "").split())
            said = said if len(said) <= 40 else said[:39] + "…"
            raise StoreError(
                "damaged_store",
                f"the store {self.location!r} is damaged ({said}); restore a backup, or "
                "recover it: sqlite3 FILE .recover | sqlite3 NEW, then --db NEW",
            )

    def _setup(self, durable: bool) -> None:
        db = self._db
        mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise StoreError("store_failed", f"{self.location!r}: cannot use the WAL journal")
        db.execute(f"PRAGMA synchronous = {'FULL' if durable else 'NORMAL'}")
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA secure_delete = ON")  # what a write replaces is zeroed, not left
        with self._transaction():
            version = db.execute("PRAGMA user_version").fetchone()[0]
            app = db.execute("PRAGMA application_id").fetchone()[0]
            if version == 0:
                tables = db.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]
                if tables:
                    raise StoreError(
                        "bad_store", f"{self.location!r} is a SQLite file but not a fracas store"
                    )
                self._create_schema()
                db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            elif app != APPLICATION_ID:
                raise StoreError(
                    "bad_store", f"{self.location!r} is a SQLite file but not a fracas store"
                )
            elif version < SCHEMA_VERSION:  # a store of an earlier fracas: its new tables
                if version < 2:
                    db.execute(_EXTRAS)
                for statement in _LOOKUPS:
                    db.execute(statement)
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            elif version > SCHEMA_VERSION:
                raise StoreError(
                    "bad_store",
                    f"{self.location!r} was written by a newer fracas (store version "
                    f"{version}; this one reads {SCHEMA_VERSION})",
                )
            db.execute(_PARTIES)  # a store of a fracas before the parties gains them


class MemoryStore(_SQLite):
    """A scratch store: the SQLite store's tables in SQLite's in-memory database, one per
    object (two objects never share one). The same contract, nothing durable: what it
    holds is gone when it is closed or dropped."""

    def __init__(self) -> None:
        self._connect(":memory:", ":memory:", 0.0)
        self._db.execute("PRAGMA foreign_keys = ON")
        with self._transaction():
            self._create_schema()
