"""A throwaway PostgreSQL cluster for the tests (``/work/shared/RECIPES.md``'s recipe):
``initdb`` into a temporary directory, ``pg_ctl -w start`` on a unix socket only
(``listen_addresses=''``), ``fsync=off``; as the ``postgres`` user when the tests run
as root (``initdb`` refuses root). One cluster per test session (``pg_server``),
stopped at its end; each test that wants one gets a fresh database
(:meth:`Cluster.database`). Without server binaries the tests that need it skip,
saying why (:func:`server_bindir`).
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

__all__ = ["Cluster", "find_bindir", "pg_server", "server_bindir"]


def find_bindir() -> Path | None:
    """The directory of ``initdb`` and ``pg_ctl``: ``pg_config --bindir``'s, Debian's
    ``/usr/lib/postgresql/N/bin``, or the PATH's; None without a server."""
    candidates: list[str] = []
    if shutil.which("pg_config"):
        out = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True)
        candidates.append(out.stdout.strip())
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    initdb = shutil.which("initdb")
    if initdb:
        candidates.append(str(Path(initdb).parent))
    for c in candidates:
        if c and (Path(c) / "initdb").is_file() and (Path(c) / "pg_ctl").is_file():
            return Path(c)
    return None


def server_bindir() -> Path:
    """:func:`find_bindir`, skipping the test (saying why) without a server or psycopg."""
    bindir = find_bindir()
    if bindir is None:
        pytest.skip("no PostgreSQL server binaries (initdb, pg_ctl): apt-get install postgresql")
    pytest.importorskip("psycopg", reason="the postgres extra (psycopg) is not installed")
    return bindir


class Cluster:
    """One running throwaway cluster: ``url(db)`` connects to database ``db``; its data
    directory in its temporary directory, or ``data`` (a directory to be made, where
    the cluster's user may write: on a filesystem of the test's own); its WAL in the
    data directory, or with ``wal_apart`` in the temporary directory beside it."""

    def __init__(
        self,
        bindir: Path,
        *,
        fsync: bool = False,
        data: Path | None = None,
        wal_apart: bool = False,
    ) -> None:
        self.bindir = bindir
        self.fsync = fsync
        """``fsync=off`` for the tests (a crash of the machine may lose the cluster: it is
        thrown away anyway); on for a benchmark that compares with a durable SQLite."""
        self.dir = Path(tempfile.mkdtemp(prefix="fracas-pg-"))
        self.port = 5432
        self.data = data or self.dir / "data"
        self.log = self.dir / "log"
        self.as_user: list[str] = []
        if os.getuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self._names = itertools.count(1)
        self.started_in = 0.0
        """Seconds ``initdb`` plus the first start took."""
        began = time.perf_counter()
        self._run(
            "initdb", "-D", str(self.data), "-U", "fracas", "--auth=trust", "-E", "UTF8",
            "--locale=C.UTF-8", "--no-sync",
            *(("--waldir", str(self.dir / "wal")) if wal_apart else ()),
        )  # fmt: skip
        self.start()
        self.started_in = time.perf_counter() - began

    def _run(self, tool: str, *args: str) -> None:
        out = subprocess.run(
            [*self.as_user, str(self.bindir / tool), *args], capture_output=True, text=True
        )
        if out.returncode != 0:
            log = self.log.read_text() if self.log.exists() else ""
            raise RuntimeError(f"{tool} failed: {out.stdout}{out.stderr}{log[-2000:]}")

    def start(self) -> None:
        options = f"-k {self.dir} -p {self.port} -c listen_addresses=''"
        options += f" -c fsync={'on' if self.fsync else 'off'} -c max_connections=200"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-o", options, "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def url(self, database: str = "postgres", user: str = "fracas") -> str:
        return f"postgresql://{user}@/{database}?host={self.dir}&port={self.port}"

    def sql(self, statement: str, database: str = "postgres") -> None:
        """Run one statement outside a transaction (CREATE DATABASE, ALTER ...)."""
        import psycopg

        with psycopg.connect(self.url(database), autocommit=True) as conn:
            conn.execute(statement.encode())

    def show(self, setting: str, database: str = "postgres") -> str:
        """``setting`` as a new connection sees it."""
        import psycopg

        with psycopg.connect(self.url(database), autocommit=True) as conn:
            row = conn.execute(f"SHOW {setting}".encode()).fetchone()
        assert row is not None
        return str(row[0])

    def reload(self, setting: str, value: str, seconds: float = 10.0) -> None:
        """``pg_reload_conf()``, then wait until a new connection sees ``setting`` as
        ``value``: the server has read its configuration again and signalled every
        backend, each of which reads it before its next command."""
        self.sql("SELECT pg_reload_conf()")
        deadline = time.monotonic() + seconds
        while (now := self.show(setting)) != value:
            if time.monotonic() >= deadline:
                raise RuntimeError(f"{setting} is {now!r} {seconds} s after a reload")
            time.sleep(0.01)

    def database(self) -> str:
        """A new empty database; its URL."""
        name = f"t{next(self._names)}_{os.getpid()}"
        self.sql(f"CREATE DATABASE {name}")
        return self.url(name)

    def destroy(self) -> None:
        with contextlib.suppress(RuntimeError):
            self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[Cluster]:
    """The session's throwaway PostgreSQL cluster (skips where no server is installed)."""
    cluster = Cluster(server_bindir())
    try:
        yield cluster
    finally:
        cluster.destroy()
