"""The encounter store: many encounters, each its file's setup plus its log, kept durably.

A store is a dumb, durable log of JSON documents with one guard: a writer
names the sequence number it expects the next record to take (the number of
records it has seen), and an append that does not match is refused with
:class:`MovedOn`, which carries the records appended since. Two sessions
acting on one encounter therefore never lose nor duplicate an action.

The store knows nothing of rules, engines or SQLite: records go in and come
out as JSON objects (``fracas.io.store.records`` turns engine records into them
and back), and :class:`EncounterStore` is the whole interface a backend
implements. :func:`open_store` picks the backend: a path is a SQLite file
(``fracas.io.store.sqlite``), a ``postgresql://`` URL a PostgreSQL database
(``fracas.io.store.postgres``, for several server processes), :data:`MEMORY` a scratch
store held in memory (nothing durable: a command that plays a file and keeps
nothing). The SQL backends share one append/load protocol (``fracas.io.store.protocol``).
A backend that hears other processes' commits says so through
:meth:`EncounterStore.watch`.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from fracas.errors import FracasError

__all__ = [
    "MEMORY",
    "NAME_PATTERN",
    "EncounterInfo",
    "EncounterStore",
    "MovedOn",
    "NewEncounter",
    "StoreError",
    "StoredEncounter",
    "Watcher",
    "data_dir",
    "default_db_path",
    "name_from",
    "open_store",
    "private_dir",
]

JSON = dict[str, Any]
"""One record as stored: a JSON object with at least ``seq`` and ``kind``."""

Watcher = Callable[[str | None, int], None]
"""Told ``(name, seq)``: records were committed to ``name``, its next record now ``seq``;
``(None, 0)``: changes may have been missed, catch up on every encounter."""

MEMORY = ":memory:"
"""The location of a scratch store: in memory, empty when opened, gone when closed."""

NAME_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
"""What an encounter's name looks like: an id, never a path or a file name."""


class StoreError(FracasError):
    """The store cannot do what was asked (unknown encounter, a name taken, a broken file)."""


class MovedOn(StoreError):
    """An append whose expected sequence number is stale: another session wrote first.

    ``records`` are the records appended since the expected number, in order;
    ``seq`` is the number the next record must take now.
    """

    def __init__(self, name: str, expected: int, records: Sequence[JSON]) -> None:
        self.name = name
        self.expected = expected
        self.records = list(records)
        self.seq = expected + len(self.records)
        n = len(self.records)
        which = f"#{expected}" if n == 1 else f"#{expected} to #{self.seq - 1}"
        super().__init__(
            "moved_on",
            f"the encounter {name!r} moved on: another session wrote {which} first; "
            f"nothing of yours was written; here is what happened",
        )


@dataclass(frozen=True, slots=True)
class NewEncounter:
    """What starts a stored encounter: its file, as read, and where it came from."""

    source: str
    """The file's name as given (for humans; the text below is what counts)."""
    setup: str
    """The file's text: its setup (its ``actions:`` are in the log, as records)."""
    ruleset: str
    seed: int
    """The seed of the dice no one gave; a resumed session derives its own from it."""


@dataclass(frozen=True, slots=True)
class EncounterInfo:
    """One stored encounter, as a list shows it."""

    name: str
    source: str
    ruleset: str
    records: int
    """The number of records in its log: the sequence number the next one takes."""
    created: str
    updated: str
    """ISO 8601 times, UTC."""


@dataclass(frozen=True, slots=True)
class StoredEncounter:
    """One stored encounter in full: what started it and its log."""

    info: EncounterInfo
    start: NewEncounter
    records: list[JSON]


class EncounterStore(Protocol):
    """Where encounters live. Every method is one transaction; a write is durable
    when it returns (but in a scratch store, :data:`MEMORY`)."""

    location: str
    """Where the store is, for messages (a path, a URL without its password)."""
    listening: bool
    """True while :meth:`watch` hears every commit as it happens (then a reader need
    not look for other processes' records); always False for SQLite."""

    def create(self, new: NewEncounter, records: Sequence[JSON], name: str | None = None) -> str:
        """Store a new encounter with its first records (the start, the file's actions).

        ``name`` is the name to give it (refused with ``name_taken`` if used); without
        it the name comes from the source file's stem, made unique (``fight-2``).
        Returns the name.
        """
        ...

    def append(self, name: str, expected_seq: int, records: Sequence[JSON]) -> None:
        """Append records whose ``seq`` run from ``expected_seq`` on, all or none.

        Raises:
            MovedOn: the log holds other records from ``expected_seq`` on.
            StoreError: ``unknown_encounter``, or records not numbered from ``expected_seq``.
        """
        ...

    def load(self, name: str) -> StoredEncounter:
        """The encounter called ``name``, its log in order (``unknown_encounter`` if none)."""
        ...

    def records_since(self, name: str, seq: int) -> list[JSON]:
        """The records of ``name`` from ``seq`` on, in order."""
        ...

    def list(self) -> list[EncounterInfo]:
        """Every stored encounter, the most recently changed first."""
        ...

    def delete(self, name: str) -> None:
        """Remove an encounter and its log (``unknown_encounter`` if none)."""
        ...

    def put_extra(
        self,
        name: str,
        key: str,
        body: bytes | None,
        lookups: Mapping[str, str] | None = None,
    ) -> None:
        """Keep ``body`` under ``key`` with encounter ``name``, outside its log, replacing
        what was there (None: remove it); deleted with the encounter. For what belongs
        to an encounter but is no record of its play: its links, its map image.

        ``lookups`` (lookup -> label), when given, become the encounter's lookups in
        the same transaction, replacing all it had: each a unique text that
        :meth:`find` turns into this encounter and its label (a link token's keyed
        hash -> the link's id).

        Raises:
            StoreError: ``unknown_encounter``; ``store_failed`` for a lookup another
            encounter has.
        """
        ...

    def find(self, lookup: str, key: str) -> tuple[str, str, bytes | None] | None:
        """The encounter and label of ``lookup`` (see :meth:`put_extra`) and that
        encounter's ``key`` extra, in one indexed read; None: no encounter has it."""
        ...

    def extra(self, name: str, key: str) -> bytes | None:
        """What :meth:`put_extra` kept under ``key`` with ``name`` (None: nothing)."""
        ...

    def extras(self, key: str) -> dict[str, bytes]:
        """Every encounter's ``key`` extra: encounter name -> body."""
        ...

    def party(self, name: str) -> str | None:
        """Party ``name``'s body, as :meth:`put_party` kept it (None: no such party)."""
        ...

    def put_party(self, name: str, body: str | None) -> None:
        """Keep ``body`` (JSON text) as party ``name``'s, replacing what was there (None:
        remove it). A party is a campaign's player characters (issue 36): kept in the
        store beside the encounters, belonging to none of them."""
        ...

    def parties(self) -> dict[str, str]:
        """Every party: name -> body, by name."""
        ...

    def scrub(self) -> None:
        """Leave in the store's own files no copy of what was replaced or removed,
        where the backend can (SQLite: deleted content is zeroed as it goes, and this
        empties the WAL into the file; PostgreSQL: nothing, ``VACUUM`` is the
        administrator's)."""
        ...

    def watch(self, listener: Watcher) -> Callable[[], None]:
        """Hear of the records other processes commit, as they commit (see
        :data:`Watcher`); returns the function that stops it. A backend that cannot
        hear them (SQLite) never calls ``listener``: its readers look again now and
        then (``Table.refresh``)."""
        ...

    def close(self) -> None:
        """Let go of the store's connections and files."""
        ...


def data_dir() -> Path:
    """Fracas's directory in the user's data directory (``~/.local/share/fracas``)."""
    from platformdirs import user_data_path

    return user_data_path("fracas", appauthor=False)


def default_db_path() -> Path:
    """The default store: ``encounters.sqlite3`` in the user's data directory."""
    return data_dir() / "encounters.sqlite3"


def private_dir(path: Path) -> None:
    """Make directory ``path`` and its missing parents, each 0700 (only its owner can
    list or enter it); fracas's own data directory, made 0700 by an older fracas or
    not, is made 0700 too (its store and secret are no one else's business)."""
    missing = [p for p in (path, *path.parents) if not p.exists()]
    for directory in reversed(missing):
        with contextlib.suppress(FileExistsError):  # made meanwhile by another process
            directory.mkdir(mode=0o700)
    if path == data_dir():
        with contextlib.suppress(OSError):  # not ours: left as it is
            path.chmod(0o700)


def open_store(location: str | Path, *, durable: bool = True) -> EncounterStore:
    """Open (creating where needed) the store at ``location``: a SQLite file path, a
    PostgreSQL URL (``postgresql://user:password@host:port/database``, or ``postgres://``;
    needs the ``postgres`` extra: psycopg), or :data:`MEMORY` (``":memory:"``): a new,
    empty scratch store of its own, held in memory.

    ``durable`` (the default) makes every commit reach the disk before it returns;
    without it a power cut may lose the last commits (never corrupt the store):
    for tests and benchmarks only. A scratch store is never durable.
    """
    text = str(location)
    if text == MEMORY:
        from fracas.io.store.sqlite import MemoryStore

        return MemoryStore()
    if "://" in text:
        scheme = text.split("://", 1)[0]
        if scheme not in ("postgresql", "postgres"):
            raise StoreError(
                "unknown_store",
                f"{scheme!r} stores are not known; give a SQLite file path or a postgresql:// URL",
            )
        try:
            from fracas.io.store.postgres import PostgresStore
        except ImportError:
            raise StoreError(
                "store_unavailable",
                "a PostgreSQL store needs psycopg: pip install 'fracas[postgres]'",
            ) from None
        return PostgresStore(text, durable=durable)
    from fracas.io.store.sqlite import SQLiteStore

    return SQLiteStore(Path(text).expanduser(), durable=durable)


def name_from(source: str) -> str:
    """An encounter name from a file name: its stem, lower case, other characters as ``-``."""
    stem = Path(source).stem.lower()
    name = re.sub(r"[^a-z0-9_-]+", "-", stem).strip("-_")
    return name or "encounter"


def check_name(name: str) -> None:
    """Refuse a name that is not an id (``bad_name``)."""
    if not NAME_PATTERN.match(name):
        raise StoreError(
            "bad_name",
            f"encounter name {name!r} must match [a-z0-9][a-z0-9_-]* (no paths, no suffix)",
        )


def check_numbered(name: str, expected_seq: int, records: Sequence[Mapping[str, Any]]) -> None:
    """Refuse records that are not numbered ``expected_seq``, ``expected_seq + 1``, ..."""
    for i, record in enumerate(records):
        if record.get("seq") != expected_seq + i or not isinstance(record.get("kind"), str):
            raise StoreError(
                "bad_record",
                f"record {i} for {name!r} has seq {record.get('seq')!r} and kind "
                f"{record.get('kind')!r}; expected seq {expected_seq + i} and a kind",
            )


def now_stamp() -> str:
    """The time a backend stamps on what it writes (UTC, ISO 8601, milliseconds)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def record_text(record: JSON) -> str:
    """A record as a backend stores it: compact JSON."""
    return json.dumps(record, separators=(",", ":"), default=str)
