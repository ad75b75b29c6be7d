"""The encounter store in a PostgreSQL database (psycopg 3), for many server processes.

The same promises as the SQLite store (``fracas.store.sqlite``):

* Every method is one transaction. An append locks its encounter's row
  (``SELECT ... FOR UPDATE``), checks the writer's expected sequence number against it
  (:class:`~fracas.store.MovedOn` when another session wrote first), then inserts.
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

Every psycopg error is turned into a :class:`~fracas.store.StoreError` here, with a
stable code: ``store_unavailable`` (the server is down, restarting or unreachable: try
again), ``store_read_only`` (the database refuses writes), ``store_full`` (its disk is
full), ``store_failed`` (anything else). Messages quote the location without its
password.
"""

from __future__ import annotations

import builtins
import json
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg
from psycopg import errors as pg_errors

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

__all__ = ["CHANNEL", "MIGRATIONS", "SCHEMA_VERSION", "PostgresStore", "redact"]

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
)
"""Migration ``i`` brings the schema from version ``i`` to ``i + 1``."""

SCHEMA_VERSION = len(MIGRATIONS)

_LOCK_KEY = 0x66726163  # "frac": the advisory lock taken while migrating
_INFO = "SELECT name, source, ruleset, seq, created, updated FROM fracas_encounters"
_POOL = 8
"""At most this many connections per store object (threads beyond wait for one)."""


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


class PostgresStore:
    """Encounters in a PostgreSQL database; see the module docstring for the guarantees."""

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
    def _guard(self, doing: str) -> Iterator[None]:
        """Turn any psycopg error into a StoreError with a stable code (ours pass)."""
        try:
            yield
        except psycopg.Error as exc:
            raise self._error(exc, doing) from None

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

    # --- the interface ------------------------------------------------------------

    def create(self, new: NewEncounter, records: Sequence[JSON], name: str | None = None) -> str:
        if name is not None:
            check_name(name)
        check_numbered(name or new.source, 0, records)
        for _ in range(20):  # a free name taken meanwhile by another process: try the next
            now = now_stamp()
            chosen = name or ""
            try:
                with (
                    self._guard("create an encounter"),
                    self._conn() as conn,
                    self._taken(chosen),
                    conn.transaction(),
                ):
                    chosen = name or self._free_name(conn, name_from(new.source))
                    row = conn.execute(
                        "INSERT INTO fracas_encounters (name, source, setup, ruleset, seed, "
                        "seq, created, updated, stamp) VALUES (%s, %s, %s, %s, %s, %s, %s, "
                        "%s, nextval('fracas_stamp')) RETURNING id",
                        (
                            chosen,
                            new.source,
                            new.setup,
                            new.ruleset,
                            str(new.seed),
                            len(records),
                            now,
                            now,
                        ),
                    ).fetchone()
                    assert row is not None
                    self._insert(conn, int(row[0]), records, now)
                    self._notify(conn, chosen, len(records))
                return chosen
            except StoreError as exc:
                if exc.code != "name_taken" or name is not None:
                    raise
        raise StoreError("name_taken", f"no free name after {new.source!r}; give one")

    def append(self, name: str, expected_seq: int, records: Sequence[JSON]) -> None:
        check_numbered(name, expected_seq, records)
        now = now_stamp()
        with self._guard("append"), self._conn() as conn, conn.transaction():
            row = conn.execute(
                "SELECT id, seq FROM fracas_encounters WHERE name = %s FOR UPDATE", (name,)
            ).fetchone()
            if row is None:
                raise self._unknown(conn, name)
            eid, seq = int(row[0]), int(row[1])
            if seq != expected_seq:
                if expected_seq > seq:
                    raise StoreError(
                        "bad_record",
                        f"{name!r} has {seq} records; a record #{expected_seq} cannot follow",
                    )
                raise MovedOn(name, expected_seq, self._since(conn, eid, expected_seq))
            try:
                with conn.transaction():  # a savepoint: the second guard's refusal is ours
                    self._insert(conn, eid, records, now)
            except pg_errors.UniqueViolation:
                raise MovedOn(name, expected_seq, self._since(conn, eid, expected_seq)) from None
            conn.execute(
                "UPDATE fracas_encounters SET seq = %s, updated = %s, "
                "stamp = nextval('fracas_stamp') WHERE id = %s",
                (expected_seq + len(records), now, eid),
            )
            self._notify(conn, name, expected_seq + len(records))

    def load(self, name: str) -> StoredEncounter:
        with self._guard("read"), self._conn() as conn, conn.transaction():
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            row = conn.execute(
                "SELECT id, name, source, ruleset, seq, created, updated, setup, seed "
                "FROM fracas_encounters WHERE name = %s",
                (name,),
            ).fetchone()
            if row is None:
                raise self._unknown(conn, name)
            records = self._since(conn, int(row[0]), 0)
        info = EncounterInfo(row[1], row[2], row[3], int(row[4]), row[5], row[6])
        start = NewEncounter(row[2], row[7], row[3], int(row[8]))
        if len(records) != info.records:
            raise StoreError(
                "bad_store", f"{name!r} says it has {info.records} records but holds {len(records)}"
            )
        return StoredEncounter(info, start, records)

    def records_since(self, name: str, seq: int) -> list[JSON]:
        with self._guard("read"), self._conn() as conn, conn.transaction():
            row = conn.execute(
                "SELECT id FROM fracas_encounters WHERE name = %s", (name,)
            ).fetchone()
            if row is None:
                raise self._unknown(conn, name)
            return self._since(conn, int(row[0]), seq)

    def list(self) -> list[EncounterInfo]:
        with self._guard("read"), self._conn() as conn:
            rows = conn.execute(f"{_INFO} ORDER BY stamp DESC").fetchall()
        return [EncounterInfo(r[0], r[1], r[2], int(r[3]), r[4], r[5]) for r in rows]

    def delete(self, name: str) -> None:
        with self._guard("delete"), self._conn() as conn, conn.transaction():
            done = conn.execute("DELETE FROM fracas_encounters WHERE name = %s", (name,))
            if done.rowcount == 0:
                raise self._unknown(conn, name)

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

    @contextmanager
    def _taken(self, name: str) -> Iterator[None]:
        try:
            yield
        except pg_errors.UniqueViolation:
            raise StoreError(
                "name_taken", f"an encounter called {name!r} exists already; give another"
            ) from None

    def _notify(self, conn: psycopg.Connection[Any], name: str, seq: int) -> None:
        conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{name} {seq}"))

    def _unknown(self, conn: psycopg.Connection[Any], name: str) -> StoreError:
        names = [
            r[0] for r in conn.execute("SELECT name FROM fracas_encounters ORDER BY name LIMIT 21")
        ]
        valid = ", ".join(names[:20]) + (", ..." if len(names) > 20 else "") or "none yet"
        return StoreError(
            "unknown_encounter",
            f"no encounter called {name!r} in {self.location!r}; stored: {valid}",
        )

    def _since(self, conn: psycopg.Connection[Any], eid: int, seq: int) -> builtins.list[JSON]:
        rows = conn.execute(
            "SELECT body FROM fracas_records WHERE encounter = %s AND seq >= %s ORDER BY seq",
            (eid, seq),
        ).fetchall()
        out: builtins.list[JSON] = []
        for (body,) in rows:
            record: Any = json.loads(body)
            out.append(record)
        return out

    def _insert(
        self, conn: psycopg.Connection[Any], eid: int, records: Sequence[JSON], now: str
    ) -> None:
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO fracas_records (encounter, seq, kind, body, written) "
                "VALUES (%s, %s, %s, %s, %s)",
                [(eid, r["seq"], r["kind"], record_text(r), now) for r in records],
            )

    def _free_name(self, conn: psycopg.Connection[Any], base: str) -> str:
        taken = {
            r[0]
            for r in conn.execute(
                "SELECT name FROM fracas_encounters WHERE name = %s OR name LIKE %s",
                (base, f"{base}-%"),
            )
        }
        name, n = base, 1
        while name in taken:
            n += 1
            name = f"{base}-{n}"
        return name
