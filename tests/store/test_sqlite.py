"""The SQLite encounter store: the store contract (``tests/store/contract.py``), and
what is SQLite's own: the UNIQUE(encounter, seq) second guard, records deleted with
their encounter, durability settings, files that are not fracas stores, the default path.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from fracas.io.store import (
    JSON,
    MovedOn,
    NewEncounter,
    StoreError,
    default_db_path,
    open_store,
)
from fracas.io.store.sqlite import SQLiteStore
from tests.store.contract import *  # noqa: F403  (the contract suite, on SQLite)


@pytest.fixture
def location(tmp_path: Path) -> str:
    """A fresh SQLite store for each contract test."""
    return str(tmp_path / "contract.sqlite3")


NEW = NewEncounter("fights/Gate Fight.yaml", "ruleset: x\n", "x", 7)


def rec(seq: int, tag: str = "", kind: str = "action") -> JSON:
    return {"seq": seq, "kind": kind, "tag": tag}


def make(tmp_path: Path, n: int = 1, name: str | None = None) -> tuple[SQLiteStore, str]:
    store = SQLiteStore(tmp_path / "s.sqlite3")
    return store, store.create(NEW, [rec(i, "setup") for i in range(n)], name)


def test_unique_constraint_is_the_second_guard(tmp_path: Path) -> None:
    """A record put at seq 1 behind the counter's back still blocks an append at 1."""
    store, name = make(tmp_path)
    db = sqlite3.connect(store.path)
    db.execute(
        "INSERT INTO records VALUES ((SELECT id FROM encounters WHERE name = ?), 1, 'action', "
        '\'{"seq": 1, "kind": "action", "tag": "sneaky"}\', \'\')',
        (name,),
    )
    db.commit()
    db.close()
    with pytest.raises(MovedOn) as err:
        store.append(name, 1, [rec(1, "mine")])
    assert err.value.records == [rec(1, "sneaky")]


def test_second_guard_keeps_nothing_of_a_refused_append(tmp_path: Path) -> None:
    """Two records whose second place is taken behind the counter's back: the append is
    moved_on carrying only what was there; its first record is not kept either."""
    store, name = make(tmp_path)
    db = sqlite3.connect(store.path)
    db.execute(
        "INSERT INTO records VALUES ((SELECT id FROM encounters WHERE name = ?), 2, 'action', "
        '\'{"seq": 2, "kind": "action", "tag": "sneaky"}\', \'\')',
        (name,),
    )
    db.commit()
    with pytest.raises(MovedOn) as err:
        store.append(name, 1, [rec(1, "mine"), rec(2, "mine")])
    assert err.value.records == [rec(2, "sneaky")]
    assert db.execute("SELECT seq FROM records ORDER BY seq").fetchall() == [(0,), (2,)]
    db.close()


def test_records_go_with_their_encounter(tmp_path: Path) -> None:
    store, first = make(tmp_path)
    store.create(NEW, [rec(0)], "other")
    store.delete(first)
    count = sqlite3.connect(store.path).execute("SELECT count(*) FROM records").fetchone()[0]
    assert count == 1  # the deleted encounter's records went with it

    assert default_db_path().name == "encounters.sqlite3"
    assert "fracas" in str(default_db_path())


def test_durable_settings(tmp_path: Path) -> None:
    store, _ = make(tmp_path)
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert store._db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    other = sqlite3.connect(store.path)
    assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    fast = SQLiteStore(tmp_path / "f.sqlite3", durable=False)
    assert fast._db.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL


def test_not_a_fracas_store(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("hello, this is not a database at all" * 100)
    with pytest.raises(StoreError) as err:
        open_store(text)
    assert err.value.code == "bad_store"
    other = tmp_path / "other.sqlite3"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE t (x)")
    db.commit()
    db.close()
    with pytest.raises(StoreError) as err:
        open_store(other)
    assert err.value.code == "bad_store" and "not a fracas store" in err.value.message
    with pytest.raises(StoreError) as err:
        open_store("mysql://localhost/fracas")  # postgresql:// is a store now
    assert err.value.code == "unknown_store"


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    store, _ = make(tmp_path)
    store.close()
    db = sqlite3.connect(tmp_path / "s.sqlite3")
    db.execute("PRAGMA user_version = 99")
    db.commit()
    db.close()
    with pytest.raises(StoreError) as err:
        SQLiteStore(tmp_path / "s.sqlite3")
    assert "newer fracas" in err.value.message


def test_a_version_1_store_gains_the_extras_and_keeps_its_encounters(tmp_path: Path) -> None:
    """A store written before issue 22 (no extras table, user_version 1) opens, gains
    the table (version 2) and keeps what it held."""
    store, name = make(tmp_path)
    store.close()
    db = sqlite3.connect(tmp_path / "s.sqlite3")
    db.execute("DROP TABLE extras")
    db.execute("DROP TABLE lookups")  # issue 32's (version 3) too
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    again = SQLiteStore(tmp_path / "s.sqlite3")
    assert [i.name for i in again.list()] == [name]
    again.put_extra(name, "links", b"{}")
    assert again.extra(name, "links") == b"{}"
    again.close()
    db = sqlite3.connect(tmp_path / "s.sqlite3")
    assert db.execute("PRAGMA user_version").fetchone() == (3,)  # and the lookups
    db.close()


def test_store_in_a_new_directory_and_default_path(tmp_path: Path) -> None:
    store = open_store(tmp_path / "a" / "b" / "s.sqlite3")
    assert store.list() == []
    assert default_db_path().name == "encounters.sqlite3"
    assert "fracas" in str(default_db_path())


def test_a_close_waits_for_another_threads_transaction_and_a_use_after_it_is_refused(
    tmp_path: Path,
) -> None:
    """A server's poller may be reading when its store closes: the close waits for the
    transaction (SQLite's module can crash closing under a running statement), and a
    read after it is a ``store_failed`` refusal, not a crash."""
    store, name = make(tmp_path, 3)
    inside, release = threading.Event(), threading.Event()
    seen: list[int] = []

    def reader() -> None:
        with store._transaction(write=False) as db:
            inside.set()
            release.wait(10)
            seen.append(db.execute("SELECT count(*) FROM records").fetchone()[0])

    thread = threading.Thread(target=reader)
    thread.start()
    inside.wait(10)
    closer = threading.Thread(target=store.close)
    closer.start()
    closer.join(0.2)
    assert closer.is_alive()  # waiting for the reader's transaction
    release.set()
    thread.join(10)
    closer.join(10)
    assert not closer.is_alive() and seen == [3]
    with pytest.raises(StoreError) as err:
        store.load(name)
    assert err.value.code == "store_failed"
