"""The append/load protocol of the SQL stores, written once over a dialect's hooks.

Every SQL store keeps four tables: a row per encounter (what started it, ``seq``: the
number of records in its log, and ``stamp``: the store's write counter at its last
change, the list's order), the records, keyed by ``(encounter, seq)``, the extras,
a few named blobs per encounter outside its log (its links, its map image), keyed by
``(encounter, key)``, and the lookups: a text that finds its encounter and a label in
one indexed read (a link token's keyed hash -> its link), keyed by the lookup. A fifth
keeps the parties (issue 36), keyed by name: a campaign's, no encounter's.
:class:`SQLStore` is the protocol over them:

* An append runs in a write transaction that holds its encounter (SQLite's
  ``BEGIN IMMEDIATE``; PostgreSQL's ``SELECT ... FOR UPDATE`` on the row), checks the
  writer's expected sequence number against the row's (:class:`~fracas.io.store.MovedOn`,
  carrying the records since, when another session wrote first), inserts the records
  and bumps the row.
* ``PRIMARY KEY (encounter, seq)`` is the second guard: an insert that finds a place
  taken is ``MovedOn`` too (the insert runs under a savepoint, so what is there can
  still be read and nothing of the writer's stays).
* A load reads the row and its log at one moment and assembles the
  :class:`~fracas.io.store.StoredEncounter`, refusing a log shorter or longer than its row.
* A name not given is the file's stem made unique (``fight-2``), chosen again when
  another process took it meanwhile.
* Every error of the driver becomes a :class:`~fracas.io.store.StoreError` here, its code
  chosen by the dialect (:meth:`SQLStore._error`).

A dialect (``fracas.io.store.sqlite``, ``fracas.io.store.postgres``) gives a :class:`Dialect`
(table names, the placeholder, the SQL of the next stamp and of the row lock, its
driver's errors) and the hooks below: the transaction, the error mapping, the id of an
inserted row, many rows at once, a savepoint, and what to send with a commit
(PostgreSQL's NOTIFY). Bodies are compact JSON text in both dialects.
"""

from __future__ import annotations

import builtins
import functools
import json
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from fracas.io.store import (
    JSON,
    EncounterInfo,
    MovedOn,
    NewEncounter,
    StoredEncounter,
    StoreError,
    check_name,
    check_numbered,
    name_from,
    now_stamp,
    record_text,
)

__all__ = ["Connection", "Cursor", "Dialect", "SQLStore"]

NAME_TRIES = 20
"""How many free names a create tries while other processes take each one first."""


class Cursor(Protocol):
    """What the protocol reads of a statement's outcome (``sqlite3``'s and psycopg's)."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> builtins.list[Any]: ...


class Connection(Protocol):
    """What the protocol asks of a connection: one statement with its parameters."""

    def execute(self, sql: str, params: Sequence[Any], /) -> Cursor: ...


DB = TypeVar("DB", bound=Connection)


@dataclass(frozen=True, slots=True)
class Dialect:
    """What differs between two SQL stores' statements and errors."""

    encounters: str
    """The encounters' table."""
    records: str
    """The records' table."""
    extras: str
    """The extras' table: a few named blobs kept with an encounter (its links, its map
    image), deleted with it."""
    lookups: str
    """The lookups' table: ``lookup`` (its key) -> an encounter and a label, deleted
    with the encounter."""
    parties: str
    """The parties' table: a party's name -> its body (issue 36), kept across
    encounters (a campaign's, no encounter's)."""
    param: str
    """The driver's placeholder (the protocol's statements are written with ``?``)."""
    next_stamp: str
    """An expression: the store's next write counter."""
    lock_row: str
    """Put after the append's ``SELECT`` of its encounter's row to hold it to the commit
    (empty where the write transaction holds the whole store already)."""
    error: type[Exception]
    """The driver's root error: every one is turned into a StoreError."""
    unique: type[Exception]
    """The driver's error for a place taken (a primary key or a unique name)."""


@functools.cache
def _render(dialect: Dialect, template: str) -> str:
    """A statement of the protocol in ``dialect``: its placeholder, its tables."""
    return template.replace("?", dialect.param).format(
        encounters=dialect.encounters,
        records=dialect.records,
        extras=dialect.extras,
        lookups=dialect.lookups,
        parties=dialect.parties,
        next_stamp=dialect.next_stamp,
        lock_row=dialect.lock_row,
    )


_ROW = "SELECT id, seq FROM {encounters} WHERE name = ?"
_HOLD = _ROW + "{lock_row}"
_LOAD = (
    "SELECT id, name, source, ruleset, seq, created, updated, setup, seed "
    "FROM {encounters} WHERE name = ?"
)
_LIST = "SELECT name, source, ruleset, seq, created, updated FROM {encounters} ORDER BY stamp DESC"
_NEW = (
    "INSERT INTO {encounters} (name, source, setup, ruleset, seed, seq, created, updated, "
    "stamp) VALUES (?, ?, ?, ?, ?, ?, ?, ?, {next_stamp})"
)
_BUMP = "UPDATE {encounters} SET seq = ?, updated = ?, stamp = {next_stamp} WHERE id = ?"
_DELETE = "DELETE FROM {encounters} WHERE name = ?"
_NAMES = "SELECT name FROM {encounters} ORDER BY name LIMIT 21"
_LIKE = "SELECT name FROM {encounters} WHERE name = ? OR name LIKE ?"
_SINCE = "SELECT body FROM {records} WHERE encounter = ? AND seq >= ? ORDER BY seq"
_PUT = (
    "INSERT INTO {extras} (encounter, key, body) VALUES (?, ?, ?) "
    "ON CONFLICT (encounter, key) DO UPDATE SET body = excluded.body"
)
_DROP = "DELETE FROM {extras} WHERE encounter = ? AND key = ?"
_GET = "SELECT body FROM {extras} WHERE encounter = ? AND key = ?"
_ALL = (
    "SELECT e.name, x.body FROM {extras} x JOIN {encounters} e ON e.id = x.encounter "
    "WHERE x.key = ?"
)
_UNFIND = "DELETE FROM {lookups} WHERE encounter = ?"
_FIND_AT = "INSERT INTO {lookups} (lookup, encounter, label) VALUES (?, ?, ?)"
_FIND = (
    "SELECT e.name, f.label, x.body FROM {lookups} f JOIN {encounters} e ON e.id = f.encounter "
    "LEFT JOIN {extras} x ON x.encounter = f.encounter AND x.key = ? WHERE f.lookup = ?"
)
"""A lookup's encounter, label and one extra of that encounter, in one indexed read."""
_PARTY_PUT = (
    "INSERT INTO {parties} (name, body, updated) VALUES (?, ?, ?) "
    "ON CONFLICT (name) DO UPDATE SET body = excluded.body, updated = excluded.updated"
)
_PARTY_DROP = "DELETE FROM {parties} WHERE name = ?"
_PARTY_GET = "SELECT body FROM {parties} WHERE name = ?"
_PARTY_ALL = "SELECT name, body FROM {parties} ORDER BY name"
_SINCE_NAMED = (
    "SELECT r.body FROM {encounters} e LEFT JOIN {records} r "
    "ON r.encounter = e.id AND r.seq >= ? WHERE e.name = ? ORDER BY r.seq"
)
"""An encounter's records from a seq on, in one statement: no row, no encounter; one
row whose body is null, no record since."""
_RECORD = "INSERT INTO {records} (encounter, seq, kind, body, written) VALUES (?, ?, ?, ?, ?)"


class SQLStore(ABC, Generic[DB]):
    """The :class:`~fracas.io.store.EncounterStore` methods of a SQL store but ``watch``
    and ``close``; a dialect adds those and the hooks."""

    dialect: ClassVar[Dialect]
    location: str
    listening: bool

    # --- the dialect's hooks ------------------------------------------------------

    @abstractmethod
    def _transaction(self, *, write: bool, snapshot: bool = False) -> AbstractContextManager[DB]:
        """One transaction on a connection: committed at the end of the block, rolled
        back on any exception. ``write``: it will change the store (where the dialect
        locks the store for a write, it takes the lock first); ``snapshot``: every read
        in it sees the same moment."""

    @abstractmethod
    def _error(self, exc: Any, doing: str) -> StoreError:
        """The StoreError for ``exc``, an error of the driver (``Dialect.error``) met
        while doing ``doing`` (``append``, ``read``, ...): its code is stable."""

    @abstractmethod
    def _insert_id(self, db: DB, sql: str, params: Sequence[Any]) -> int:
        """Run the ``INSERT`` ``sql`` of one row; the ``id`` it was given."""

    @abstractmethod
    def _insert_many(self, db: DB, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run the ``INSERT`` ``sql`` once per row."""

    @abstractmethod
    def _savepoint(self, db: DB) -> AbstractContextManager[Any]:
        """A savepoint: an exception out of the block undoes the block alone, and the
        transaction can go on."""

    def _committing(self, db: DB, name: str, seq: int) -> None:
        """Called in each transaction that adds records to ``name`` (its next record now
        ``seq``), before it commits. Nothing, unless the dialect tells others."""

    def _single(self) -> AbstractContextManager[DB]:
        """A connection for one statement that is a transaction of its own (a read of
        one statement; a dialect's own :meth:`_append`, where it appends in one): by
        default, a read transaction around it."""
        return self._transaction(write=False)

    # --- the interface ------------------------------------------------------------

    def create(self, new: NewEncounter, records: Sequence[JSON], name: str | None = None) -> str:
        if name is not None:
            check_name(name)
        check_numbered(name or new.source, 0, records)
        for _ in range(NAME_TRIES):  # a free name taken meanwhile by another process: the next
            now = now_stamp()
            chosen = name or ""
            try:
                with (
                    self._guard("create an encounter"),
                    self._taken(chosen),
                    self._transaction(write=True) as db,
                ):
                    chosen = name or self._free_name(db, name_from(new.source))
                    start = (new.source, new.setup, new.ruleset, str(new.seed))
                    row = (chosen, *start, len(records), now, now)
                    eid = self._insert_id(db, self._sql(_NEW), row)
                    self._insert(db, eid, records, now)
                    self._committing(db, chosen, len(records))
                return chosen
            except StoreError as exc:
                if exc.code != "name_taken" or name is not None:
                    raise
        raise StoreError("name_taken", f"no free name after {new.source!r}; give one")

    def append(self, name: str, expected_seq: int, records: Sequence[JSON]) -> None:
        check_numbered(name, expected_seq, records)
        self._append(name, expected_seq, records, now_stamp())

    def _append(self, name: str, expected_seq: int, records: Sequence[JSON], now: str) -> None:
        """The append, in a write transaction that holds the encounter's row (a dialect
        may append in one statement instead: PostgreSQL's)."""
        with self._guard("append"), self._transaction(write=True) as db:
            eid, seq = self._row(db, name, lock=True)
            self._check_expected(db, name, expected_seq, eid, seq)
            try:
                with self._savepoint(db):  # the second guard: a place already taken
                    self._insert(db, eid, records, now)
            except self.dialect.unique:
                raise MovedOn(name, expected_seq, self._since(db, eid, expected_seq)) from None
            self._run(db, _BUMP, (expected_seq + len(records), now, eid))
            self._committing(db, name, expected_seq + len(records))

    def _check_expected(self, db: DB, name: str, expected_seq: int, eid: int, seq: int) -> None:
        """The sequence guard: ``seq``, the row's, read under its lock, is the writer's
        expected one, else nothing is written."""
        if seq != expected_seq:
            if expected_seq > seq:
                raise StoreError(
                    "bad_record",
                    f"{name!r} has {seq} records; a record #{expected_seq} cannot follow",
                )
            raise MovedOn(name, expected_seq, self._since(db, eid, expected_seq))

    def load(self, name: str) -> StoredEncounter:
        with self._guard("read"), self._transaction(write=False, snapshot=True) as db:
            row = self._run(db, _LOAD, (name,)).fetchone()
            if row is None:
                raise self._unknown(db, name)
            records = self._since(db, int(row[0]), 0)
        info = EncounterInfo(row[1], row[2], row[3], int(row[4]), row[5], row[6])
        start = NewEncounter(row[2], row[7], row[3], int(row[8]))
        if len(records) != info.records:
            raise StoreError(
                "bad_store", f"{name!r} says it has {info.records} records but holds {len(records)}"
            )
        return StoredEncounter(info, start, records)

    def records_since(self, name: str, seq: int) -> builtins.list[JSON]:
        """One statement (the encounter's row, joined to its records from ``seq`` on)."""
        with self._guard("read"), self._single() as db:
            rows = self._run(db, _SINCE_NAMED, (seq, name)).fetchall()
            if not rows:
                raise self._unknown(db, name)
        out: builtins.list[JSON] = []
        for (body,) in rows:
            if body is not None:  # the encounter's row alone: no record since
                record: Any = json.loads(body)
                out.append(record)
        return out

    def list(self) -> builtins.list[EncounterInfo]:
        with self._guard("read"), self._transaction(write=False) as db:
            rows = self._run(db, _LIST).fetchall()
        return [EncounterInfo(r[0], r[1], r[2], int(r[3]), r[4], r[5]) for r in rows]

    def delete(self, name: str) -> None:
        with self._guard("delete"), self._transaction(write=True) as db:
            if self._run(db, _DELETE, (name,)).rowcount == 0:
                raise self._unknown(db, name)

    def put_extra(
        self,
        name: str,
        key: str,
        body: bytes | None,
        lookups: Mapping[str, str] | None = None,
    ) -> None:
        with self._guard("write"), self._transaction(write=True) as db:
            eid, _ = self._row(db, name)
            if lookups is not None:  # first: the lookups gone before what they found
                self._run(db, _UNFIND, (eid,))
                self._insert_many(
                    db, self._sql(_FIND_AT), [(k, eid, v) for k, v in lookups.items()]
                )
            if body is None:
                self._run(db, _DROP, (eid, key))
            else:
                self._run(db, _PUT, (eid, key, bytes(body)))

    def find(self, lookup: str, key: str) -> tuple[str, str, bytes | None] | None:
        """One statement: the lookup's row joined to its encounter and that one's extra."""
        with self._guard("read"), self._single() as db:
            row = self._run(db, _FIND, (key, lookup)).fetchone()
        if row is None:
            return None
        return str(row[0]), str(row[1]), None if row[2] is None else bytes(row[2])

    def extra(self, name: str, key: str) -> bytes | None:
        with self._guard("read"), self._transaction(write=False) as db:
            eid, _ = self._row(db, name)
            row = self._run(db, _GET, (eid, key)).fetchone()
        return None if row is None else bytes(row[0])

    def extras(self, key: str) -> dict[str, bytes]:
        with self._guard("read"), self._transaction(write=False) as db:
            rows = self._run(db, _ALL, (key,)).fetchall()
        return {str(r[0]): bytes(r[1]) for r in rows}

    def party(self, name: str) -> str | None:
        """Party ``name``'s body (None: no such party)."""
        with self._guard("read"), self._transaction(write=False) as db:
            row = self._run(db, _PARTY_GET, (name,)).fetchone()
        return None if row is None else str(row[0])

    def put_party(self, name: str, body: str | None) -> None:
        """Keep ``body`` as party ``name``'s, replacing what was there (None: remove it)."""
        with self._guard("write"), self._transaction(write=True) as db:
            if body is None:
                self._run(db, _PARTY_DROP, (name,))
            else:
                self._run(db, _PARTY_PUT, (name, body, now_stamp()))

    def parties(self) -> dict[str, str]:
        """Every party: name -> body, by name."""
        with self._guard("read"), self._transaction(write=False) as db:
            rows = self._run(db, _PARTY_ALL).fetchall()
        return {str(r[0]): str(r[1]) for r in rows}

    def scrub(self) -> None:
        """Nothing, unless the dialect can (SQLite's)."""

    # --- helpers --------------------------------------------------------------

    def _sql(self, template: str) -> str:
        return _render(self.dialect, template)

    def _run(self, db: DB, template: str, params: Sequence[Any] = ()) -> Cursor:
        return db.execute(_render(self.dialect, template), params)

    @contextmanager
    def _guard(self, doing: str) -> Iterator[None]:
        """Turn any error of the driver into a StoreError (ours pass through)."""
        try:
            yield
        except self.dialect.error as exc:
            raise self._error(exc, doing) from None

    @contextmanager
    def _taken(self, name: str) -> Iterator[None]:
        """A name inserted twice (given, or taken by another process meanwhile)."""
        try:
            yield
        except self.dialect.unique:
            raise StoreError(
                "name_taken", f"an encounter called {name!r} exists already; give another"
            ) from None

    def _row(self, db: DB, name: str, *, lock: bool = False) -> tuple[int, int]:
        """The id and ``seq`` of ``name`` (with ``lock``, held to the commit)."""
        row = self._run(db, _HOLD if lock else _ROW, (name,)).fetchone()
        if row is None:
            raise self._unknown(db, name)
        return int(row[0]), int(row[1])

    def _unknown(self, db: DB, name: str) -> StoreError:
        names = [r[0] for r in self._run(db, _NAMES).fetchall()]
        valid = ", ".join(names[:20]) + (", ..." if len(names) > 20 else "") or "none yet"
        return StoreError(
            "unknown_encounter",
            f"no encounter called {name!r} in {self.location!r}; stored: {valid}",
        )

    def _since(self, db: DB, eid: int, seq: int) -> builtins.list[JSON]:
        out: builtins.list[JSON] = []
        for (body,) in self._run(db, _SINCE, (eid, seq)).fetchall():
            record: Any = json.loads(body)
            out.append(record)
        return out

    def _insert(self, db: DB, eid: int, records: Sequence[JSON], now: str) -> None:
        rows = [(eid, r["seq"], r["kind"], record_text(r), now) for r in records]
        self._insert_many(db, self._sql(_RECORD), rows)

    def _free_name(self, db: DB, base: str) -> str:
        taken = {r[0] for r in self._run(db, _LIKE, (base, f"{base}-%")).fetchall()}
        name, n = base, 1
        while name in taken:
            n += 1
            name = f"{base}-{n}"
        return name
