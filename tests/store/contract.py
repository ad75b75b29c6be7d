"""The store contract: what every encounter store does, whatever keeps the records.

A backend's test module runs this suite by defining a ``location`` fixture (a
location ``fracas.io.store.open_store`` opens: a SQLite path; a PostgreSQL URL) and
importing the tests: ``from tests.store.contract import *``. Each test gets a fresh,
empty store there.

Names, the expected-sequence guard (``moved_on`` carrying the winner's records),
whole-or-nothing appends, unknown encounters, listing and deleting, and concurrency:
threads sharing one store object, threads and processes each with their own, all
appending with the same expected sequence number: exactly one wins; under sustained
contention no append is lost or duplicated.
"""

from __future__ import annotations

import multiprocessing
import threading
from pathlib import Path
from typing import Any

import pytest

from fracas.io.store import (
    JSON,
    EncounterStore,
    MovedOn,
    NewEncounter,
    StoreError,
    name_from,
    open_store,
)

__all__ = [
    "test_append_in_order_then_stale_writer_moved_on",
    "test_badly_numbered_records_are_refused_whole",
    "test_create_load_round_trip",
    "test_extras_kept_with_an_encounter_replaced_and_deleted_with_it",
    "test_given_name_taken_or_bad_is_refused",
    "test_list_newest_first_and_delete",
    "test_names_from_stems_are_made_unique",
    "test_one_store_shared_by_threads_loses_nothing",
    "test_processes_contending_lose_and_duplicate_nothing",
    "test_threads_same_expected_seq_exactly_one_wins",
    "test_unknown_encounter_lists_the_stored",
]

NEW = NewEncounter("fights/Gate Fight.yaml", "ruleset: x\n", "x", 7)


def rec(seq: int, tag: str = "", kind: str = "action") -> JSON:
    return {"seq": seq, "kind": kind, "tag": tag}


def make(location: str, n: int = 1, name: str | None = None) -> tuple[EncounterStore, str]:
    store = open_store(location, durable=False)
    return store, store.create(NEW, [rec(i, "setup") for i in range(n)], name)


def test_create_load_round_trip(location: str, tmp_path: Path) -> None:
    store, name = make(location, 3)
    assert name == "gate-fight"  # from the file's stem
    stored = store.load(name)
    assert stored.start == NEW
    assert stored.records == [rec(0, "setup"), rec(1, "setup"), rec(2, "setup")]
    assert stored.info.records == 3 and stored.info.ruleset == "x"
    assert stored.info.source == NEW.source


def test_extras_kept_with_an_encounter_replaced_and_deleted_with_it(
    location: str, tmp_path: Path
) -> None:
    """Issue 22: an encounter's links and map image live in the store beside its log
    (every backend alike): read by another store object on the same location, replaced
    whole, removed, and gone with the encounter; its log untouched."""
    store, name = make(location, 2)
    _, other = make(location, 1)
    image = bytes(range(256)) * 40  # binary, with NULs
    store.put_extra(name, "links", b'{"a": 1}')
    store.put_extra(name, "map", image)
    store.put_extra(other, "links", b'{"b": 2}')
    second = open_store(location, durable=False)
    assert second.extra(name, "map") == image and second.extra(name, "nope") is None
    assert second.extras("links") == {name: b'{"a": 1}', other: b'{"b": 2}'}
    second.put_extra(name, "links", b"{}")
    assert store.extra(name, "links") == b"{}"
    store.put_extra(name, "map", None)
    assert store.extra(name, "map") is None
    assert [r["seq"] for r in store.load(name).records] == [0, 1]
    with pytest.raises(StoreError) as err:
        store.put_extra("nobody", "links", b"{}")
    assert err.value.code == "unknown_encounter"
    store.delete(name)
    assert second.extras("links") == {other: b'{"b": 2}'}
    second.close()
    store.close()


def test_names_from_stems_are_made_unique(location: str, tmp_path: Path) -> None:
    store, first = make(location)
    second = store.create(NEW, [rec(0)])
    third = store.create(NEW, [rec(0)])
    assert (first, second, third) == ("gate-fight", "gate-fight-2", "gate-fight-3")
    assert name_from("x/../Ünï.Cödé!.json") == "n-c-d"
    assert name_from("???.yaml") == "encounter"


def test_given_name_taken_or_bad_is_refused(location: str, tmp_path: Path) -> None:
    store, name = make(location, name="night")
    assert name == "night"
    with pytest.raises(StoreError) as err:
        store.create(NEW, [rec(0)], "night")
    assert err.value.code == "name_taken"
    for bad in ("Night", "a/b", "x.yaml", "-x", ""):
        with pytest.raises(StoreError) as err:
            store.create(NEW, [rec(0)], bad)
        assert err.value.code == "bad_name"
    assert [i.name for i in store.list()] == ["night"]


def test_append_in_order_then_stale_writer_moved_on(location: str, tmp_path: Path) -> None:
    store, name = make(location)
    store.append(name, 1, [rec(1, "a"), rec(2, "b")])
    with pytest.raises(MovedOn) as err:
        store.append(name, 1, [rec(1, "late")])
    assert err.value.code == "moved_on"
    assert err.value.records == [rec(1, "a"), rec(2, "b")]
    assert err.value.seq == 3
    assert "moved on" in err.value.message and "here is what happened" in err.value.message
    assert [r["tag"] for r in store.load(name).records] == ["setup", "a", "b"]  # nothing added
    assert store.records_since(name, 2) == [rec(2, "b")]


def test_badly_numbered_records_are_refused_whole(location: str, tmp_path: Path) -> None:
    store, name = make(location)
    for expected, records in ((1, [rec(1), rec(3)]), (1, [rec(2)]), (5, [rec(5)])):
        with pytest.raises(StoreError) as err:
            store.append(name, expected, records)
        assert err.value.code == "bad_record"
    with pytest.raises(StoreError):
        store.append(name, 1, [{"seq": 1}])  # no kind
    assert len(store.load(name).records) == 1


def test_unknown_encounter_lists_the_stored(location: str, tmp_path: Path) -> None:
    store, name = make(location)
    for call in (
        lambda: store.load("nope"),
        lambda: store.append("nope", 0, [rec(0)]),
        lambda: store.delete("nope"),
    ):
        with pytest.raises(StoreError) as err:
            call()
        assert err.value.code == "unknown_encounter"
        assert "'nope'" in err.value.message and name in err.value.message


def test_threads_same_expected_seq_exactly_one_wins(location: str, tmp_path: Path) -> None:
    _, name = make(location)
    n = 8
    barrier = threading.Barrier(n)
    outcomes: dict[int, Any] = {}

    def worker(i: int) -> None:
        store = open_store(location, durable=False)
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
    stored = open_store(location, durable=False).load(name).records
    assert stored[1] == rec(1, f"t{winners[0]}") and len(stored) == 2
    for i, o in outcomes.items():
        if i not in winners:
            assert o == [rec(1, f"t{winners[0]}")]  # the loser sees what happened


def _contend(path: str, name: str, worker: int, count: int, start: Any) -> None:
    """Append ``count`` records, each at the sequence number last seen, retrying on moved_on."""
    store = open_store(path, durable=False)
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


def test_processes_contending_lose_and_duplicate_nothing(location: str, tmp_path: Path) -> None:
    _, name = make(location)
    workers, count = 4, 25
    ctx = multiprocessing.get_context("spawn")
    start = ctx.Event()
    procs = [
        ctx.Process(target=_contend, args=(location, name, w, count, start)) for w in range(workers)
    ]
    for p in procs:
        p.start()
    start.set()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    records = open_store(location, durable=False).load(name).records
    assert [r["seq"] for r in records] == list(range(1 + workers * count))
    tags = [r["tag"] for r in records[1:]]
    assert sorted(tags) == sorted(f"{w}:{i}" for w in range(workers) for i in range(count))
    for w in range(workers):  # each worker's records in its own order
        mine = [t for t in tags if t.startswith(f"{w}:")]
        assert mine == [f"{w}:{i}" for i in range(count)]


def test_list_newest_first_and_delete(location: str, tmp_path: Path) -> None:
    store, first = make(location)
    second = store.create(NEW, [rec(0)], "other")
    assert [i.name for i in store.list()] == [second, first]
    store.append(first, 1, [rec(1)])
    assert [i.name for i in store.list()] == [first, second]
    store.delete(first)
    assert [i.name for i in store.list()] == [second]
    with pytest.raises(StoreError) as err:
        store.load(first)
    assert err.value.code == "unknown_encounter"
    again = store.create(NEW, [rec(0)], first)  # the name is free again, its log new
    assert store.load(again).records == [rec(0)]


def test_one_store_shared_by_threads_loses_nothing(location: str, tmp_path: Path) -> None:
    """A web server's threads share one store object: appends from 4 threads, each
    retrying on moved_on, all land once, in order."""
    store, name = make(location)
    workers, count = 4, 20
    errors: list[BaseException] = []

    def worker(w: int) -> None:
        seq = len(store.load(name).records)
        done = 0
        try:
            while done < count:
                try:
                    store.append(name, seq, [rec(seq, f"{w}:{done}")])
                    seq += 1
                    done += 1
                except MovedOn as exc:
                    seq = exc.seq
        except BaseException as exc:  # surfaced below: a thread's failure fails the test
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(w,)) for w in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    records = store.load(name).records
    assert [r["seq"] for r in records] == list(range(1 + workers * count))
    tags = sorted(r["tag"] for r in records[1:])
    assert tags == sorted(f"{w}:{i}" for w in range(workers) for i in range(count))
