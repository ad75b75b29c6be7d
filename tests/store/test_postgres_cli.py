"""The commands on a PostgreSQL store: ``fracas run FILE --db`` stores there when
``FRACAS_DB`` names it (or ``--db URL``), and ``fracas play NAME`` goes on with it;
a server that is not there is one line with its code, no traceback, no password."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from fracas.io.store import open_store
from tests.store.pgcluster import Cluster

ROOT = Path(__file__).parents[2]


def fracas(*args: str, env: dict[str, str] | None = None, stdin: str = "") -> tuple[int, str]:
    out = subprocess.run(
        [sys.executable, "-m", "fracas", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=60,
    )
    return out.returncode, out.stdout + out.stderr


def test_run_and_play_on_postgres_through_fracas_db(pg_server: Cluster) -> None:
    db = pg_server.database()
    code, out = fracas("run", "examples/dice-combat.yaml", "--db", env={"FRACAS_DB": db})
    assert code == 0, out
    assert "stored as encounter dice-combat" in out and "postgresql://" in out
    code, out = fracas("run", "examples/soak.yaml", "--db", db)
    assert code == 0, out
    store = open_store(db)
    assert sorted(i.name for i in store.list()) == ["dice-combat", "soak"]
    records = store.load("dice-combat").info.records
    store.close()
    code, out = fracas("play", "dice-combat", env={"FRACAS_DB": db}, stdin="log\nquit\n")
    assert code == 0, out
    assert f"#{records - 1}" in out  # the stored log, read back from PostgreSQL


def test_a_postgres_server_not_there_is_one_line(pg_server: Cluster) -> None:
    db = f"postgresql://fracas:s3cret@/nope?host={pg_server.dir}-gone&port=1"
    code, out = fracas("play", "x", env={"FRACAS_DB": db}, stdin="quit\n")
    assert code != 0
    assert "store_unavailable" in out and "Traceback" not in out and "s3cret" not in out
