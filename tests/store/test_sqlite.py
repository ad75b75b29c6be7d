"""The SQLite encounter store: one transaction per write, the expected-sequence guard,
the UNIQUE(encounter, seq) second guard, names, listing, deleting, durability settings,
and files that are not fracas stores.

Concurrency: threads and processes, each with its own connection, append with the
same expected sequence number: exactly one wins, the others get ``moved_on`` carrying
the winner's records; under sustained contention no append is lost or duplicated.
"""

from __future__ import annotations

import multiprocessing
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from fracas.store import (
    JSON,
    MovedOn,
    NewEncounter,
    StoreError,
    default_db_path,
    name_from,
    open_store,
)
from fracas.store.sqlite import SQLiteStore

NEW = NewEncounter("fights/Gate Fight.yaml", "ruleset: x\n", "x", 7)


def rec(seq: int, tag: str = "", kind: str = "action") -> JSON:
    return {"seq": seq, "kind": kind, "tag": tag}


def make(tmp_path: Path, n: int = 1, name: str | None = None) -> tuple[SQLiteStore, str]:
    store = SQLiteStore(tmp_path / "s.sqlite3")
    return store, store.create(NEW, [rec(i, "setup") for i in range(n)], name)


def test_create_load_round_trip(tmp_path: Path) -> None:
    store, name = make(tmp_path, 3)
    assert name == "gate-fight"  # from the file's stem
    stored = store.load(name)
    assert stored.start == NEW
    assert stored.records == [rec(0, "setup"), rec(1, "setup"), rec(2, "setup")]
    assert stored.info.records == 3 and stored.info.ruleset == "x"
    assert stored.info.source == NEW.source


def test_names_from_stems_are_made_unique(tmp_path: Path) -> None:
    store, first = make(tmp_path)
    second = store.create(NEW, [rec(0)])
    third = store.create(NEW, [rec(0)])
    assert (first, second, third) == ("gate-fight", "gate-fight-2", "gate-fight-3")
    assert name_from("x/../Ünï.Cödé!.json") == "n-c-d"
    assert name_from("???.yaml") == "encounter"


def test_given_name_taken_or_bad_is_refused(tmp_path: Path) -> None:
    store, name = make(tmp_path, name="night")
    assert name == "night"
    with pytest.raises(StoreError) as err:
        store.create(NEW, [rec(0)], "night")
    assert err.value.code == "name_taken"
    for bad in ("Night", "a/b", "x.yaml", "-x", ""):
        with pytest.raises(StoreError) as err:
            store.create(NEW, [rec(0)], bad)
        assert err.value.code == "bad_name"
    assert [i.name for i in store.list()] == ["night"]


def test_append_in_order_then_stale_writer_moved_on(tmp_path: Path) -> None:
    store, name = make(tmp_path)
    store.append(name, 1, [rec(1, "a"), rec(2, "b")])
    with pytest.raises(MovedOn) as err:
        store.append(name, 1, [rec(1, "late")])
    assert err.value.code == "moved_on"
    assert err.value.records == [rec(1, "a"), rec(2, "b")]
    assert err.value.seq == 3
    assert "moved on" in err.value.message and "here is what happened" in err.value.message
    assert [r["tag"] for r in store.load(name).records] == ["setup", "a", "b"]  # nothing added
    assert store.records_since(name, 2) == [rec(2, "b")]


def test_badly_numbered_records_are_refused_whole(tmp_path: Path) -> None:
    store, name = make(tmp_path)
    for expected, records in ((1, [rec(1), rec(3)]), (1, [rec(2)]), (5, [rec(5)])):
        with pytest.raises(StoreError) as err:
            store.append(name, expected, records)
        assert err.value.code == "bad_record"
    with pytest.raises(StoreError):
        store.append(name, 1, [{"seq": 1}])  # no kind
    assert len(store.load(name).records) == 1


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


def test_unknown_encounter_lists_the_stored(tmp_path: Path) -> None:
    store, name = make(tmp_path)
    for call in (
        lambda: store.load("nope"),
        lambda: store.append("nope", 0, [rec(0)]),
        lambda: store.delete("nope"),
    ):
        with pytest.raises(StoreError) as err:
            call()
        assert err.value.code == "unknown_encounter"
        assert "'nope'" in err.value.message and name in err.value.message


def test_list_newest_first_and_delete(tmp_path: Path) -> None:
    store, first = make(tmp_path)
    second = store.create(NEW, [rec(0)], "other")
    assert [i.name for i in store.list()] == [second, first]
    store.append(first, 1, [rec(1)])
    assert [i.name for i in store.list()] == [first, second]
    store.delete(first)
    assert [i.name for i in store.list()] == [second]
    with pytest.raises(StoreError):
        store.load(first)
    count = sqlite3.connect(store.path).execute("SELECT count(*) FROM records").fetchone()[0]
    assert count == 1  # the deleted encounter's records went with it


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
        open_store("postgresql://localhost/fracas")
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


def test_store_in_a_new_directory_and_default_path(tmp_path: Path) -> None:
    store = open_store(tmp_path / "a" / "b" / "s.sqlite3")
    assert store.list() == []
    assert default_db_path().name == "encounters.sqlite3"
    assert "fracas" in str(default_db_path())


def test_threads_same_expected_seq_exactly_one_wins(tmp_path: Path) -> None:
    _, name = make(tmp_path)
    n = 8
    barrier = threading.Barrier(n)
    outcomes: dict[int, Any] = {}

    def worker(i: int) -> None:
        store = SQLiteStore(tmp_path / "s.sqlite3")
        barrier.wait()
        try:
            store.append(name, 1, [rec(1, f"t{i}")])
            outcomes[i] = "won"
        except MovedOn as exc:
            outcomes[i] = exc.records
        finally:
            store.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    winners = [i for i, o in outcomes.items() if o == "won"]
    assert len(winners) == 1
    stored = SQLiteStore(tmp_path / "s.sqlite3").load(name).records
    assert stored[1] == rec(1, f"t{winners[0]}") and len(stored) == 2
    for i, o in outcomes.items():
        if i not in winners:
            assert o == [rec(1, f"t{winners[0]}")]  # the loser sees what happened


def _contend(path: str, name: str, worker: int, count: int, start: Any) -> None:
    """Append ``count`` records, each at the sequence number last seen, retrying on moved_on."""
    store = SQLiteStore(Path(path))
    seq = len(store.load(name).records)
    start.wait()
    done = 0
    while done < count:
        try:
            store.append(name, seq, [rec(seq, f"{worker}:{done}")])
            seq += 1
            done += 1
        except MovedOn as exc:
            seq = exc.seq
    store.close()


def test_processes_contending_lose_and_duplicate_nothing(tmp_path: Path) -> None:
    _, name = make(tmp_path)
    workers, count = 4, 25
    ctx = multiprocessing.get_context("spawn")
    start = ctx.Event()
    procs = [
        ctx.Process(target=_contend, args=(str(tmp_path / "s.sqlite3"), name, w, count, start))
        for w in range(workers)
    ]
    for p in procs:
        p.start()
    start.set()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    records = SQLiteStore(tmp_path / "s.sqlite3").load(name).records
    assert [r["seq"] for r in records] == list(range(1 + workers * count))
    tags = [r["tag"] for r in records[1:]]
    assert sorted(tags) == sorted(f"{w}:{i}" for w in range(workers) for i in range(count))
    for w in range(workers):  # each worker's records in its own order
        mine = [t for t in tags if t.startswith(f"{w}:")]
        assert mine == [f"{w}:{i}" for i in range(count)]
