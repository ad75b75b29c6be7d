"""PostgreSQL's disk really full (``store_full``): a throwaway cluster whose data
directory lives on a small tmpfs the test mounts as root, filled to the last byte by a
file beside it. The server then fails the insert that needs a new page with ``ERROR:
could not extend file ...: No space left on device`` (SQLSTATE 53100, ``disk_full``),
rolling its transaction back; the action is refused ``store_full`` with a message that
says what happened and what to do, at the table, the web page and the prompt alike;
the table holds what the store holds; once the file is gone, play goes on and a table
resumed from the store is the same table.

The cluster's WAL is on the machine's disk, not the tmpfs: a server that cannot make a
WAL segment PANICs and restarts (recovery mode, ``store_unavailable``: the store's
fault tests), and whether one was still to be made when the disk filled depended on
the machine's load (seen so once under CI's full run, never alone).

Without root (``mount``) the tests fail, saying why: CI runs as root. Without
PostgreSQL they skip, as every PostgreSQL test does (``tests/store/pgcluster.py``).
The tmpfs is unmounted and its directory removed at the end, the server stopped
before, whatever happened in between.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import random
import signal
import string
import subprocess
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import psycopg
import pytest
from starlette.testclient import TestClient

from fracas.errors import FracasError
from fracas.io.files import read_action
from fracas.io.store import EncounterStore
from fracas.io.store.postgres import PostgresStore
from fracas.play.commands import command_text
from fracas.play.loop import Prompt
from fracas.table import Table, TableService
from fracas.web.app import create_app
from fracas.web.links import Links
from tests.play.support import ScriptedTerminal
from tests.store.pgcluster import Cluster, server_bindir
from tests.web.multiprocess import FIGHT, add_action

SIZE = "96m"
"""The tmpfs: a fresh cluster's data directory (about 25 MB) and room to spare."""


@pytest.fixture(scope="module")
def small_disk() -> Iterator[Path]:
    """A tmpfs of :data:`SIZE` mounted on a new directory, owned by the user the
    cluster runs as; unmounted and removed after the module's tests, even failed ones."""
    if os.getuid() != 0:
        pytest.fail(
            "the disk-full tests mount a tmpfs and need root (CI runs them as root); "
            f"this runs as uid {os.getuid()}"
        )
    owner = pwd.getpwnam("postgres")
    point = Path(tempfile.mkdtemp(prefix="fracas-full-"))
    options = f"size={SIZE},mode=0700,uid={owner.pw_uid},gid={owner.pw_gid}"
    out = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", options, "fracas-full", str(point)],
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        point.rmdir()
        pytest.fail(f"cannot mount a tmpfs on {point} (as root): {out.stderr.strip()}")
    try:
        yield point
    finally:
        unmount(point)


def unmount(point: Path) -> None:
    """Unmount ``point`` and remove it; a server of ours still holding it is killed
    first (by the pid its data directory records); failing that, detach it lazily and
    fail, saying so."""
    if subprocess.run(["umount", str(point)], capture_output=True).returncode != 0:
        pid_file = point / "data" / "postmaster.pid"
        with contextlib.suppress(OSError, ValueError, IndexError):
            os.kill(int(pid_file.read_text().split("\n")[0]), signal.SIGKILL)
        for _ in range(50):  # until the killed server has let go
            out = subprocess.run(["umount", str(point)], capture_output=True, text=True)
            if out.returncode == 0:
                break
            time.sleep(0.1)
        else:
            subprocess.run(["umount", "--lazy", str(point)])
            point.rmdir()
            pytest.fail(f"{point} was busy at the end (detached lazily): {out.stderr.strip()}")
    point.rmdir()


@pytest.fixture(scope="module")
def full_server(small_disk: Path) -> Iterator[Cluster]:
    """A throwaway cluster whose data directory is on ``small_disk`` (its WAL apart);
    its socket and log beside the other clusters' (the log is kept, to be read)."""
    cluster = Cluster(server_bindir(), data=small_disk / "data", wal_apart=True)
    try:
        cluster.sql("ALTER SYSTEM SET log_error_verbosity = verbose")  # SQLSTATEs logged
        cluster.sql("SELECT pg_reload_conf()")
        yield cluster
    finally:
        cluster.destroy()


class Filler:
    """A file that takes every free byte of the small disk, and takes it away again."""

    def __init__(self, disk: Path) -> None:
        self.path = disk / "filler"

    def fill(self) -> None:
        with self.path.open("ab", buffering=0) as out:
            for chunk in (1 << 20, 4096):  # to the last page of the tmpfs
                with contextlib.suppress(OSError):
                    while True:
                        out.write(b"\0" * chunk)
        assert os.statvfs(self.path.parent).f_bfree == 0

    def free(self) -> None:
        self.path.unlink(missing_ok=True)


@pytest.fixture
def filler(small_disk: Path) -> Iterator[Filler]:
    it = Filler(small_disk)
    try:
        yield it
    finally:
        it.free()


@pytest.fixture
def store(full_server: Cluster) -> Iterator[PostgresStore]:
    """A fresh database on the small disk."""
    it = PostgresStore(full_server.database(), durable=False)
    try:
        yield it
    finally:
        it.close()


def add(table: Table, i: int) -> None:
    table.act(read_action(table.file, add_action(i), table.state.combatants))


def stored_adds(store: EncounterStore, name: str = "fight") -> list[str]:
    return [
        r["action"]["combatant"]["id"]
        for r in store.load(name).records
        if r["kind"] == "action" and r["action"].get("do") == "add"
    ]


def counts(store: PostgresStore, name: str = "fight") -> tuple[int, int, int]:
    """The encounter's counter, its records, and one past the highest record's seq, as
    the database holds them (read past the store)."""
    with psycopg.connect(store.url) as conn:
        row = conn.execute(
            "SELECT e.seq, count(r.seq), coalesce(max(r.seq) + 1, 0) FROM fracas_encounters e "
            "LEFT JOIN fracas_records r ON r.encounter = e.id WHERE e.name = %s GROUP BY e.seq",
            (name,),
        ).fetchone()
    assert row is not None
    return int(row[0]), int(row[1]), int(row[2])


def fill_until_refused(table: Table, filler: Filler) -> tuple[int, FracasError]:
    """Fill the disk, then add raiders until one needs a page the disk cannot give: its
    number and the refusal, the table checked unchanged by it."""
    filler.fill()
    for i in range(1, 60):  # a page of records holds a handful
        seq, state = table.seq, table.state
        try:
            add(table, i)
        except FracasError as exc:
            assert (table.seq, table.state) == (seq, state)
            return i, exc
    raise AssertionError("60 raiders added on a full disk")


def full(store: PostgresStore) -> str:
    """What the user is told."""
    return (
        f"the store {store.location!r} is out of disk space; nothing was written; free "
        "space on the database server's disk, then try again"
    )


def refusal_is_clear(err: FracasError | dict[str, Any], store: PostgresStore) -> None:
    code, message = (
        (err["code"], err["message"]) if isinstance(err, dict) else (err.code, err.message)
    )
    assert (code, message) == ("store_full", full(store))


def test_postgres_out_of_disk_space_refuses_the_action_and_the_table_keeps_its_state(
    store: PostgresStore, filler: Filler, full_server: Cluster
) -> None:
    service = TableService(store)
    table = service.create(FIGHT, "fight.yaml", name="fight", seed=3)
    add(table, 0)
    logged = len(full_server.log.read_text())
    i, err = fill_until_refused(table, filler)
    refusal_is_clear(err, store)
    said = full_server.log.read_text()[logged:]  # the server's own: ENOSPC as disk_full
    assert "ERROR:  53100: could not extend file" in said
    assert "No space left on device" in said
    seq, state = table.seq, table.state
    assert stored_adds(store) == [f"z{n}" for n in range(i)]  # none half-written
    assert counts(store) == (seq, seq, seq)
    with pytest.raises(FracasError) as again:  # the same action again: refused alike
        add(table, i)
    refusal_is_clear(again.value, store)
    assert (table.seq, table.state) == (seq, state)
    # A new encounter (its setup text larger than a page) is refused alike, none stored.
    noise = "".join(random.Random(1).choices(string.ascii_letters, k=60_000))
    with pytest.raises(FracasError) as new:
        service.create(f"{FIGHT}# {noise}\n", "big.yaml", name="big")
    refusal_is_clear(new.value, store)
    assert [e.name for e in store.list()] == ["fight"]
    filler.free()
    add(table, i)  # the space back: play goes on
    assert stored_adds(store) == [f"z{n}" for n in range(i + 1)]
    assert table.seq == seq + 1 and counts(store) == (seq + 1, seq + 1, seq + 1)
    resumed = TableService(store).open("fight")  # a new service: read from the store
    assert resumed is not table
    assert (resumed.seq, resumed.state) == (table.seq, table.state)
    assert resumed.log == table.log


def test_postgres_out_of_disk_space_on_the_page_and_at_the_prompt(
    store: PostgresStore, filler: Filler
) -> None:
    """The web page's socket gets ``refused`` with the code and the message; the prompt
    prints them on one line; the table and the store as before either."""
    service = TableService(store)
    table = service.create(FIGHT, "fight.yaml", name="fight", seed=3)
    i, _ = fill_until_refused(table, filler)
    seq, state = table.seq, table.state
    links = Links()  # in memory
    gm = links.gm("fight")
    with (
        ThreadPoolExecutor(1) as pool,
        TestClient(create_app(service, links, pool)) as client,
        client.websocket_connect(f"/ws?token={gm}") as ws,
    ):
        ws.send_json({"type": "hello", "seq": 0})
        assert ws.receive_json()["type"] == "sync"
        ws.send_json({"type": "act", "id": 7, "seq": seq, "action": add_action(i)})
        reply = ws.receive_json()
    assert (reply["type"], reply["id"]) == ("refused", 7)
    refusal_is_clear(reply, store)
    assert (table.seq, table.state) == (seq, state)
    line = command_text(read_action(table.file, add_action(i), table.state.combatants))
    terminal = ScriptedTerminal([line])
    assert Prompt(table, terminal).run() == 0
    printed = terminal.after(Prompt(table, terminal).prompt())
    assert printed == [f"error: store_full: {full(store)}", ""]  # then the end of input
    assert (table.seq, table.state) == (seq, state) and counts(store) == (seq, seq, seq)
    assert stored_adds(store) == [f"z{n}" for n in range(1, i)]
    filler.free()
    assert Prompt(table, ScriptedTerminal([line])).run() == 0
    assert table.seq == seq + 1 and stored_adds(store)[-1] == f"z{i}"
