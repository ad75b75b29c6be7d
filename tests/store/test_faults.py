"""A store that fails under a running table, on both backends: one that refuses writes
(SQLite: the connection made query-only, as a read-only file is; PostgreSQL: the
cluster switched to read-only transactions under open connections) and a PostgreSQL
server restarted under a table acting in a loop. Every failure is a ``FracasError``
with a stable code; the table keeps exactly what is stored; later actions work;
nothing acknowledged is lost or doubled."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from fracas.errors import FracasError
from fracas.io.files import read_action
from fracas.io.store import EncounterStore, open_store
from fracas.table import Table, TableService
from tests.store.pgcluster import Cluster
from tests.web.multiprocess import FIGHT, add_action


def add(table: Table, i: int) -> None:
    table.act(read_action(table.file, add_action(i), table.state.combatants))


def added(store: EncounterStore, name: str = "fight") -> list[str]:
    """The raiders the stored log adds, in order."""
    return [
        r["action"]["combatant"]["id"]
        for r in store.load(name).records
        if r["kind"] == "action" and r["action"].get("do") == "add"
    ]


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EncounterStore]:
    if request.param == "sqlite":
        location = str(tmp_path / "s.sqlite3")
    else:
        location = request.getfixturevalue("pg_server").database()
    it = open_store(location, durable=False)
    yield it
    it.close()


def read_only(store: EncounterStore, on: bool, request: pytest.FixtureRequest) -> None:
    """Make the store refuse writes (or take them again) under its open connections."""
    if "sqlite" in request.node.callspec.id:
        store._db.execute(f"PRAGMA query_only = {int(on)}")  # type: ignore[attr-defined]
        return
    cluster: Cluster = request.getfixturevalue("pg_server")
    if on:
        cluster.sql("ALTER SYSTEM SET default_transaction_read_only = on")
    else:
        cluster.sql("ALTER SYSTEM RESET default_transaction_read_only")
    cluster.reload("default_transaction_read_only", "on" if on else "off")


def test_a_store_that_refuses_writes_is_a_clear_error_and_the_table_keeps_its_state(
    store: EncounterStore, request: pytest.FixtureRequest
) -> None:
    table = TableService(store).create(FIGHT, "fight.yaml", name="fight", seed=3)
    add(table, 0)
    seq, state = table.seq, table.state
    read_only(store, True, request)
    try:
        for i in (1, 2):  # twice: the second is refused alike, the table still as stored
            with pytest.raises(FracasError) as err:
                add(table, i)
            assert err.value.code == "store_read_only"
            assert "refuses writes" in err.value.message and "nothing was written" in (
                err.value.message
            )
            assert table.seq == seq and table.state == state
        assert added(store) == ["z0"]
    finally:
        read_only(store, False, request)
    add(table, 1)
    assert added(store) == ["z0", "z1"] and table.seq == seq + 1


def test_postgres_restarted_under_a_table_acting_in_a_loop(pg_server: Cluster) -> None:
    """A thread adds raiders one after the other, retrying each refused one as a page
    does (after reading the table again); the server is restarted in the middle. The
    actions in flight are refused with ``store_unavailable``; after the restart the
    actions go on; the log holds each raider once, in order."""
    store = open_store(pg_server.database(), durable=False)
    service = TableService(store)
    table = service.create(FIGHT, "fight.yaml", name="fight", seed=3)
    count = 150
    refused: list[str] = []
    acked: list[int] = []

    def worker() -> None:
        for i in range(count):
            while True:
                try:
                    add(table, i)
                    acked.append(i)
                    break
                except FracasError as exc:
                    refused.append(exc.code)
                    if exc.code == "duplicate_id":
                        break  # stored after all (the refusal came after the commit)
                    time.sleep(0.05)

    thread = threading.Thread(target=worker)
    thread.start()
    while len(acked) < 10:
        time.sleep(0.01)
    began = time.perf_counter()
    pg_server.stop("fast")
    time.sleep(0.3)
    pg_server.start()
    down = time.perf_counter() - began
    thread.join(60)
    assert not thread.is_alive()
    assert added(store) == [f"z{i}" for i in range(count)]  # none lost, none doubled
    assert set(refused) <= {"store_unavailable", "duplicate_id"}, refused
    assert "store_unavailable" in refused
    assert table.seq == len(store.load("fight").records)
    print(f"server down {down:.2f} s; refusals: {len(refused)}")
    store.close()


def test_a_full_disk_is_store_full_and_the_table_keeps_its_state(tmp_path: Path) -> None:
    """SQLite's file may not grow (``max_page_count``, as a full disk): the append that
    needs a new page is refused ``store_full``; the table holds what is stored."""
    store = open_store(tmp_path / "s.sqlite3", durable=False)
    table = TableService(store).create(FIGHT, "fight.yaml", name="fight", seed=3)
    db = store._db  # type: ignore[attr-defined]
    db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")
    with pytest.raises(FracasError) as err:
        for i in range(200):
            add(table, i)
    assert err.value.code == "store_full" and "nothing was written" in err.value.message
    stored = added(store)
    assert 0 < len(stored) < 200 and table.seq == len(store.load("fight").records)
    assert [c for c in table.state.combatants if c.startswith("z")] == stored
    db.execute("PRAGMA max_page_count = 1000000")
    add(table, len(stored))
    assert added(store) == [*stored, f"z{len(stored)}"]
    store.close()
