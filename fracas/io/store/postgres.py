"""The encounter store in a PostgreSQL database (psycopg 3), for many server processes.

The append/load protocol is :class:`~fracas.io.store.protocol.SQLStore`'s; this is
PostgreSQL's dialect of it, with the same promises as the SQLite store
(``fracas.io.store.sqlite``):

* Every method is one transaction. An append locks its encounter's row
  (``SELECT ... FOR UPDATE``), checks the writer's expected sequence number against it
  (:class:`~fracas.io.store.MovedOn` when another session wrote first), then inserts.
* ``PRIMARY KEY (encounter, seq)`` on the records: the second guard.
* A commit is durable when it returns (the server's own ``fsync``/``synchronous_commit``).

And what is PostgreSQL's own:

* Each commit that adds records sends ``NOTIFY fracas_records, 'NAME SEQ'`` (the
  encounter and the sequence number its next record takes), delivered with the
  commit; :meth:`PostgresStore.watch` hears them on a connection of its own, and after
  that connection was lost (the server restarted) tells its listeners to catch up on
  everything, since a notification may have been missed.
* The schema lives in ``fracas_*`` tables, created on first open and versioned in
  ``fracas_schema``: :data:`MIGRATIONS` holds one step per version, run in order under
  an advisory lock, so two processes starting at once migrate once.

Every psycopg error is turned into a :class:`~fracas.io.store.StoreError` here, with a
stable code: ``store_unavailable`` (the server is down, restarting or unreachable: try
again), ``store_read_only`` (the database refuses writes), ``store_full`` (its disk is
full), ``store_failed`` (anything else). Messages quote the location without its
password.
"""

from __future__ import annotations

import builtins
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg
from psycopg import errors as pg_errors

from fracas.io.store import JSON, MovedOn, StoreError, Watcher, record_text
from fracas.io.store.protocol import Dialect, SQLStore

__all__ = ["CHANNEL", "MIGRATIONS", "POSTGRES", "SCHEMA_VERSION", "PostgresStore", "redact"]

CHANNEL = "fracas_records"
"""The NOTIFY channel: payload ``"NAME SEQ"``."""

MIGRATIONS: tuple[str, ...] = (
    # version 1
    """
    CREATE TABLE fracas_schema (version integer NOT NULL);
    CREATE SEQUENCE fracas_stamp;
    CREATE TABLE fracas_encounters (
        id bigserial PRIMARY KEY,
        name text NOT NULL UNIQUE,
        source text NOT NULL,
        setup text NOT NULL,
        ruleset text NOT NULL,
        seed text NOT NULL,
        seq integer NOT NULL,
        created text NOT NULL,
        updated text NOT NULL,
        stamp bigint NOT NULL  -- nextval('fracas_stamp') at the last change: list order
    );
    CREATE TABLE fracas_records (
        encounter bigint NOT NULL REFERENCES fracas_encounters (id) ON DELETE CASCADE,
        seq integer NOT NULL,
        kind text NOT NULL,
        body text NOT NULL,
        written text NOT NULL,
        PRIMARY KEY (encounter, seq)
    );
    INSERT INTO fracas_schema VALUES (0);
    """,
    # version 2: what an encounter keeps outside its log (its links, its map image)
    """
    CREATE TABLE fracas_extras (
        encounter bigint NOT NULL REFERENCES fracas_encounters (id) ON DELETE CASCADE,
        key text NOT NULL,
        body bytea NOT NULL,
        PRIMARY KEY (encounter, key)
    );
    """,
    # version 3: a text that finds its encounter in one indexed read (a link token's
    # keyed hash -> its link)
    """
    CREATE TABLE fracas_lookups (
        lookup text PRIMARY KEY,
        encounter bigint NOT NULL REFERENCES fracas_encounters (id) ON DELETE CASCADE,
        label text NOT NULL
    );
    CREATE INDEX fracas_lookups_encounter ON fracas_lookups (encounter);
    """,
)
"""Migration ``i`` brings the schema from version ``i`` to ``i + 1``."""

SCHEMA_VERSION = len(MIGRATIONS)

_PARTIES = """
CREATE TABLE IF NOT EXISTS fracas_parties (
    name text PRIMARY KEY,
    body text NOT NULL,
    updated text NOT NULL
)
"""
"""A campaign's parties (issue 36): made wherever missing, under the migration's lock,
with no new schema version (an older fracas ignores the table)."""

_LOCK_KEY = 0x66726163  # "frac": the advisory lock taken while migrating
_POOL = 8
"""At most this many connections per store object (threads beyond wait for one)."""

POSTGRES = Dialect(
    encounters="fracas_encounters",
    records="fracas_records",
    extras="fracas_extras",
    lookups="fracas_lookups",
    parties="fracas_parties",
    param="%s",
    next_stamp="nextval('fracas_stamp')",
    lock_row=" FOR UPDATE",  # the appending transaction holds its encounter's row
    error=psycopg.Error,
    unique=pg_errors.UniqueViolation,
)


_APPEND = """
WITH e AS (
    SELECT id, seq FROM fracas_encounters WHERE name = %(name)s FOR UPDATE
), added AS (
    INSERT INTO fracas_records (encounter, seq, kind, body, written)
    SELECT e.id, r.seq, r.kind, r.body, %(now)s
    FROM e, unnest(%(seqs)s::integer[], %(kinds)s::text[], %(bodies)s::text[])
        AS r (seq, kind, body)
    WHERE e.seq = %(expected)s
), moved AS (
    UPDATE fracas_encounters SET seq = %(after)s, updated = %(now)s,
        stamp = nextval('fracas_stamp')
    WHERE id IN (SELECT id FROM e WHERE e.seq = %(expected)s)
)
SELECT e.id, e.seq,
    CASE WHEN e.seq = %(expected)s THEN pg_notify(%(channel)s, %(payload)s) END
FROM e
"""
"""An append as one statement, so one transaction (the connections autocommit): the
encounter's row locked and its seq read; the records inserted, the seq moved on and
the notification sent only when that seq is the writer's expected one (the protocol
checks the seq read: another means nothing was written). A record already at a seq
(the primary key, the second guard) fails the whole statement."""


def redact(url: str) -> str:
    """``url`` without its password (in the user part or a ``password=`` parameter)."""
    try:
        parts = urlsplit(url)
        netloc = parts.netloc
        if "@" in netloc:
            user, host = netloc.rsplit("@", 1)
            netloc = f"{user.split(':', 1)[0]}@{host}"
        query = urlencode(
            [(k, "***" if k == "password" else v) for k, v in parse_qsl(parts.query)], safe="/"
        )
        return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))
    except ValueError:
        return url.split("://", 1)[0] + "://..."


class PostgresStore(SQLStore[psycopg.Connection[Any]]):
    """Encounters in a PostgreSQL database; see the module docstring for the guarantees."""

    dialect = POSTGRES

    def __init__(self, url: str, *, durable: bool = True, timeout: float = 5.0) -> None:
        self.url = url
        self.location = redact(url)
        self._durable = durable
        self._timeout = timeout
        self._idle: list[psycopg.Connection[Any]] = []
        self._slots = threading.BoundedSemaphore(_POOL)
        self._lock = threading.Lock()
        self._closed = False
        self.listening = False
        """True while the watching connection is up (LISTEN), after its catch-up."""
        self._listeners: list[Watcher] = []
        self._watching: threading.Thread | None = None
        with self._guard("open"):
            self._migrate()

    # --- connections ---------------------------------------------------------------

    def _connect(self) -> psycopg.Connection[Any]:
        conn = psycopg.connect(
            self.url, autocommit=True, connect_timeout=max(1, round(self._timeout))
        )
        if not self._durable:
            conn.execute("SET synchronous_commit = off")
        return conn

    @contextmanager
    def _conn(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection of the pool for one transaction; a broken one is dropped, and
        with it the idle ones (after a server restart, one request fails, not eight)."""
        if self._closed:
            raise StoreError("store_closed", f"the store {self.location!r} was closed")
        if not self._slots.acquire(timeout=30):
            raise StoreError("store_unavailable", f"{self.location!r}: no free connection")
        conn: psycopg.Connection[Any] | None = None
        try:
            with self._lock:
                conn = self._idle.pop() if self._idle else None
            if conn is None:
                conn = self._connect()
            yield conn
        finally:
            if conn is not None:
                if conn.broken or conn.closed or self._closed:
                    conn.close()
                    if conn.broken:  # the server went away: every idle one is stale too
                        with self._lock:
                            stale, self._idle = self._idle, []
                        for other in stale:
                            other.close()
                else:
                    with self._lock:
                        self._idle.append(conn)
            self._slots.release()

    @contextmanager
    def _transaction(
        self, *, write: bool, snapshot: bool = False
    ) -> Iterator[psycopg.Connection[Any]]:
        """A transaction on a connection of the pool (a write holds the rows it locks:
        ``Dialect.lock_row``); ``snapshot``: REPEATABLE READ."""
        with self._conn() as conn, conn.transaction():
            if snapshot:
                conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            yield conn

    def _error(self, exc: psycopg.Error, doing: str) -> StoreError:
        text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        text = text.replace(self.url, self.location)
        where = f"the store {self.location!r}"
        if isinstance(exc, pg_errors.ReadOnlySqlTransaction):
            return StoreError(
                "store_read_only", f"{where} refuses writes (read-only); nothing was written"
            )
        if isinstance(exc, pg_errors.InsufficientPrivilege):
            return StoreError("store_read_only", f"{where} does not let us {doing}: {text}")
        if isinstance(exc, pg_errors.DiskFull):  # an ERROR: its transaction rolled back
            return StoreError(  # the server's words (which file) are in its log: kept short
                "store_full",
                f"{where} is out of disk space; nothing was written; free space on the "
                "database server's disk, then try again",
            )
        if isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError):
            return StoreError(
                "store_unavailable",
                f"{where} is unavailable ({text}); nothing was changed unless it says so "
                "later; try again",
            )
        return StoreError("store_failed", f"{where}: cannot {doing}: {text}")

    def _migrate(self) -> None:
        with self._conn() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
            row = conn.execute("SELECT to_regclass('fracas_schema') IS NOT NULL").fetchone()
            version = 0
            if row and row[0]:
                got = conn.execute("SELECT version FROM fracas_schema").fetchone()
                version = int(got[0]) if got else 0
            if version > SCHEMA_VERSION:
                raise StoreError(
                    "bad_store",
                    f"{self.location!r} was written by a newer fracas (store version "
                    f"{version}; this one reads {SCHEMA_VERSION})",
                )
            for step in range(version, SCHEMA_VERSION):
                conn.execute(MIGRATIONS[step])
                conn.execute("UPDATE fracas_schema SET version = %s", (step + 1,))
            missing = conn.execute("SELECT to_regclass('fracas_parties') IS NULL").fetchone()
            if missing and missing[0]:  # only then: a read-only database still opens
                conn.execute(_PARTIES)

    # --- the interface (create to delete: SQLStore's) -------------------------------

    def watch(self, listener: Watcher) -> Callable[[], None]:
        """Call ``listener(name, seq)`` (in a thread of the store's) after each commit of
        any process that adds records to ``name``, its next record now ``seq``; and
        ``listener(None, 0)`` when notifications may have been missed (the server was
        away): catch up on every encounter. Returns the function that stops it."""
        with self._lock:
            self._listeners.append(listener)
            if self._watching is None:
                self._watching = threading.Thread(
                    target=self._listen, name="fracas-store-watch", daemon=True
                )
                self._watching.start()

        def stop() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return stop

    def close(self) -> None:
        self._closed = True
        with self._lock:
            idle, self._idle = self._idle, []
            self._listeners.clear()
        for conn in idle:
            conn.close()

    def __del__(self) -> None:  # a store dropped unclosed lets go of its connections
        for conn in getattr(self, "_idle", ()):
            conn.close()

    # --- helpers --------------------------------------------------------------

    def _emit(self, name: str | None, seq: int) -> None:
        with self._lock:
            listeners = builtins.list(self._listeners)
        for listener in listeners:
            try:
                listener(name, seq)
            except Exception:
                continue

    def _listen(self) -> None:
        """The watching thread: LISTEN on a connection of its own, then tell the listeners
        to catch up (commits before it listened); again after the connection is lost."""
        pause = 0.05
        while not self._closed:
            try:
                with psycopg.connect(self.url, autocommit=True, connect_timeout=2) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._emit(None, 0)  # what was committed before it listened, or while lost
                    pause = 0.05
                    self.listening = True
                    while not self._closed and self._listeners:
                        for note in conn.notifies(timeout=0.5):
                            name, _, seq = note.payload.partition(" ")
                            self._emit(name, int(seq) if seq.isdigit() else 0)
            except psycopg.Error:
                self.listening = False
                time.sleep(pause)
                pause = min(pause * 2, 1.0)
            with self._lock:
                if not self._listeners:
                    self.listening = False
                    self._watching = None
                    return

    def _committing(self, db: psycopg.Connection[Any], name: str, seq: int) -> None:
        """``NOTIFY``, delivered with the commit (see :meth:`watch`)."""
        db.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{name} {seq}"))

    def _single(self) -> AbstractContextManager[psycopg.Connection[Any]]:
        """A connection of the pool: it autocommits, each statement its own transaction."""
        return self._conn()

    def _append(self, name: str, expected_seq: int, records: Sequence[JSON], now: str) -> None:
        """:data:`_APPEND`: one statement, its own transaction, one round trip to the
        server (the protocol's transaction was eight: begin, lock, savepoint, insert,
        release, update, notify, commit). It locks the encounter's row and reads its id
        and seq; only when that seq is ``expected_seq`` it inserts the records, bumps
        the row and notifies. A record whose place is taken fails the whole statement."""
        with self._guard("append"), self._single() as db:
            try:
                row = self._append_statement(db, name, expected_seq, records, now)
            except self.dialect.unique:  # the second guard: nothing was written
                eid, _ = self._row(db, name)
                raise MovedOn(name, expected_seq, self._since(db, eid, expected_seq)) from None
            if row is None:
                raise self._unknown(db, name)
            self._check_expected(db, name, expected_seq, *row)

    def _append_statement(
        self,
        db: psycopg.Connection[Any],
        name: str,
        expected_seq: int,
        records: Sequence[JSON],
        now: str,
    ) -> tuple[int, int] | None:
        """The id and the seq :data:`_APPEND` read (another seq: nothing was written),
        None where there is no such encounter."""
        after = expected_seq + len(records)
        values = {
            "name": name,
            "expected": expected_seq,
            "after": after,
            "now": now,
            "seqs": [r["seq"] for r in records],
            "kinds": [r["kind"] for r in records],
            "bodies": [record_text(r) for r in records],
            "channel": CHANNEL,
            "payload": f"{name} {after}",
        }
        row = db.execute(_APPEND, values).fetchone()
        return None if row is None else (int(row[0]), int(row[1]))

    def _insert_id(self, db: psycopg.Connection[Any], sql: str, params: Sequence[Any]) -> int:
        row = db.execute(sql + " RETURNING id", params).fetchone()
        assert row is not None
        return int(row[0])

    def _insert_many(
        self, db: psycopg.Connection[Any], sql: str, rows: Sequence[Sequence[Any]]
    ) -> None:
        with db.cursor() as cur:
            cur.executemany(sql, rows)

    def _savepoint(self, db: psycopg.Connection[Any]) -> AbstractContextManager[Any]:
        return db.transaction()
