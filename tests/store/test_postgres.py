"""The PostgreSQL encounter store: the store contract (``tests/store/contract.py``) on a
throwaway cluster (``tests/store/pgcluster.py``), and what is PostgreSQL's own: the
unique (encounter, seq) second guard, the versioned schema, notifications on commit,
passwords kept out of messages, and the errors of a server that is away or refuses
writes.
"""

from __future__ import annotations

import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import psycopg
import pytest

from fracas.io.store import JSON, MovedOn, NewEncounter, StoreError, open_store
from fracas.io.store.postgres import SCHEMA_VERSION, PostgresStore, redact
from tests.store.contract import *  # noqa: F403  (the contract suite, on PostgreSQL)
from tests.store.pgcluster import Cluster


@pytest.fixture
def location(pg_server: Cluster) -> str:
    """A fresh, empty database for each contract test."""
    return pg_server.database()


NEW = NewEncounter("fights/Gate Fight.yaml", "ruleset: x\n", "x", 7)


def rec(seq: int, tag: str = "", kind: str = "action") -> JSON:
    return {"seq": seq, "kind": kind, "tag": tag}


def test_unique_constraint_is_the_second_guard(location: str) -> None:
    """A record put at seq 1 behind the counter's back still blocks an append at 1."""
    store = PostgresStore(location)
    name = store.create(NEW, [rec(0)])
    with psycopg.connect(location, autocommit=True) as conn:
        conn.execute(
            "INSERT INTO fracas_records SELECT id, 1, 'action', "
            '\'{"seq": 1, "kind": "action", "tag": "sneaky"}\', \'\' '
            "FROM fracas_encounters WHERE name = %s",
            (name,),
        )
    with pytest.raises(MovedOn) as err:
        store.append(name, 1, [rec(1, "mine")])
    assert err.value.records == [rec(1, "sneaky")]
    store.close()


def test_second_guard_keeps_nothing_of_a_refused_append(location: str) -> None:
    """Two records whose second place is taken behind the counter's back: the append is
    moved_on carrying only what was there; its first record is not kept either."""
    store = PostgresStore(location)
    name = store.create(NEW, [rec(0)])
    with psycopg.connect(location, autocommit=True) as conn:
        conn.execute(
            "INSERT INTO fracas_records SELECT id, 2, 'action', "
            '\'{"seq": 2, "kind": "action", "tag": "sneaky"}\', \'\' '
            "FROM fracas_encounters WHERE name = %s",
            (name,),
        )
        with pytest.raises(MovedOn) as err:
            store.append(name, 1, [rec(1, "mine"), rec(2, "mine")])
        assert err.value.records == [rec(2, "sneaky")]
        seqs = conn.execute("SELECT seq FROM fracas_records ORDER BY seq").fetchall()
        assert seqs == [(0,), (2,)]
    store.close()


def test_schema_is_versioned_and_a_newer_one_refused(location: str) -> None:
    PostgresStore(location).close()
    PostgresStore(location).close()  # a second start migrates nothing
    with psycopg.connect(location, autocommit=True) as conn:
        row = conn.execute("SELECT version FROM fracas_schema").fetchone()
        assert row == (SCHEMA_VERSION,)
        conn.execute("UPDATE fracas_schema SET version = 99")
    with pytest.raises(StoreError) as err:
        open_store(location)
    assert err.value.code == "bad_store" and "newer fracas" in err.value.message


def test_watch_hears_other_processes_commits(location: str) -> None:
    """A commit through one store object reaches another's watcher with its name and the
    next seq; nothing before the commit."""
    writer, reader = PostgresStore(location), PostgresStore(location)
    heard: list[tuple[str | None, int]] = []
    got = threading.Event()

    def listener(name: str | None, seq: int) -> None:
        heard.append((name, seq))
        got.set()

    stop = reader.watch(listener)
    assert got.wait(5)  # listening: first, catch up on what came before
    assert heard == [(None, 0)] and reader.listening
    got.clear()
    name = writer.create(NEW, [rec(0)], "night")
    assert got.wait(5)
    got.clear()
    began = time.perf_counter()
    writer.append(name, 1, [rec(1), rec(2)])
    assert got.wait(5)
    delay = time.perf_counter() - began
    assert heard == [(None, 0), ("night", 1), ("night", 3)]
    assert delay < 0.1
    stop()
    writer.close()
    reader.close()


def test_passwords_never_reach_a_message(pg_server: Cluster) -> None:
    assert redact("postgresql://ana:s3cret@db.example:5432/fracas") == (
        "postgresql://ana@db.example:5432/fracas"
    )
    assert "s3cret" not in redact("postgresql://ana@h/f?password=s3cret&sslmode=require")
    url = f"postgresql://fracas:s3cret@/nope?host={pg_server.dir}&port={pg_server.port}"
    with pytest.raises(StoreError) as err:
        open_store(url)
    assert "s3cret" not in err.value.message and "nope" in err.value.message


def test_a_server_that_is_not_there_is_store_unavailable(tmp_path: object) -> None:
    with pytest.raises(StoreError) as err:
        open_store("postgresql://fracas:pw@/x?host=/nonexistent-dir&port=1")
    assert err.value.code == "store_unavailable"
    assert "pw" not in err.value.message.replace("postgresql", "")
    with pytest.raises(StoreError) as err:
        open_store("mysql://x/y")
    assert err.value.code == "unknown_store"


def test_a_read_only_database_refuses_writes_with_a_clear_code(
    pg_server: Cluster, location: str
) -> None:
    store = PostgresStore(location)
    name = store.create(NEW, [rec(0)])
    database = location.split("/")[3].split("?")[0]
    pg_server.sql(f"ALTER DATABASE {database} SET default_transaction_read_only = on")
    store.close()
    store = PostgresStore(location)  # new connections read the database's setting
    with pytest.raises(StoreError) as err:
        store.append(name, 1, [rec(1)])
    assert err.value.code == "store_read_only"
    assert store.load(name).records == [rec(0)]  # reads go on
    pg_server.sql(f"ALTER DATABASE {database} SET default_transaction_read_only = off")
    store.close()
    store = PostgresStore(location)
    store.append(name, 1, [rec(1)])
    assert len(store.load(name).records) == 2
    store.close()


def test_links_kept_in_postgres_open_pages_of_another_server_process(
    location: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 22, item 4: the links live in the store (its extras), so a second server on
    the same database knows them, and a revoke on one is a revoke on the other (issue
    32: both with the same secret file)."""
    monkeypatch.setenv("FRACAS_SECRET_FILE", str(tmp_path / "secret"))
    from fracas.table import TableService
    from fracas.web.links import LinkError, Links
    from tests.web.support import FIGHT

    one, two = PostgresStore(location), PostgresStore(location)
    TableService(one).create(FIGHT, "fight.yaml", name="fight", seed=1)
    first, second = Links(one), Links(two)
    gm = first.gm("fight")
    link, token = first.add("fight", "Ölga the 🐀", ["ana"])
    assert second.identify(token) == ("fight", link)
    assert second.gm("fight", renew=False) == gm
    second.revoke("fight", link.id)
    with pytest.raises(LinkError) as err:
        first.identify(token)
    assert err.value.code == "bad_token"
    assert [(x.name, x.revoked) for x in first.of("fight")] == [("Ölga the 🐀", True)]
    one.close()
    two.close()


def _round_trips(store: PostgresStore, work: Callable[[], object]) -> int:
    """How many times ``work`` waited for the server: the Sync and Query messages its
    one connection sent (libpq's protocol trace), each answered before it goes on."""
    store.records_since(store.list()[0].name, 0)  # a connection in the pool, idle
    (conn,) = store._idle
    with tempfile.TemporaryFile("w+") as trace:
        conn.pgconn.trace(trace.fileno())
        try:
            work()
        finally:
            conn.pgconn.untrace()
        trace.seek(0)
        sent = [line.split("\t") for line in trace]
    return sum(1 for f in sent if f[1:2] == ["F"] and f[3].split()[0] in ("Sync", "Query"))


def test_an_append_and_a_catch_up_are_one_round_trip_each(location: str) -> None:
    """Each wait for the server's process is a wait for a core on a busy machine: an
    append was eight (begin, lock, savepoint, insert, release, update, notify, commit),
    a catch-up's read four; the same checks (the sequence guard, moved_on, an unknown
    encounter) with the same outcomes."""
    store = PostgresStore(location)
    name = store.create(NEW, [rec(0)])
    assert _round_trips(store, lambda: store.append(name, 1, [rec(1, "a"), rec(2, "b")])) == 1
    assert _round_trips(store, lambda: store.records_since(name, 2)) == 1
    assert store.records_since(name, 1) == [rec(1, "a"), rec(2, "b")]
    assert store.records_since(name, 3) == []
    with pytest.raises(MovedOn) as err:
        store.append(name, 2, [rec(2, "late")])
    assert err.value.records == [rec(2, "b")] and err.value.seq == 3
    with pytest.raises(StoreError) as bad:
        store.append(name, 4, [rec(4)])
    assert bad.value.code == "bad_record"
    with pytest.raises(StoreError) as unknown:
        store.records_since("nobody", 0)
    assert unknown.value.code == "unknown_encounter"
    with pytest.raises(StoreError) as unknown:
        store.append("nobody", 0, [rec(0)])
    assert unknown.value.code == "unknown_encounter"
    assert store.load(name).info.records == 3
    store.close()
