"""The test run's own check that it leaves no process behind (tests/conftest.py's
``pytest_sessionfinish``): a process orphaned by one of the run's is found, named,
and killed, and the run fails."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests import procs

ROOT = Path(__file__).parents[1]
ENV = {**os.environ, procs.GRACE: "0.5"}
"""The runs' environment: half a second's grace for their leftovers (the run's own is 5
s, for servers still ending), so a run that leaks a ``sleep`` does not wait 5 s on it
(the ``sleep`` runs on after any grace: it is named the same)."""

LEAK = """\
import subprocess

def test_leaves_a_sleep_behind() -> None:
    subprocess.run(["sh", "-c", "sleep 301 </dev/null >/dev/null 2>&1 &"], check=True)
"""


def orphan() -> int:
    """A sleep whose shell ended: orphaned, so reparented to the run (its subreaper)."""
    shell = subprocess.run(
        ["sh", "-c", "sleep 300 </dev/null >/dev/null 2>&1 & echo $!"],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(shell.stdout)


def test_an_orphaned_grandchild_is_the_runs_child_and_is_named() -> None:
    pid = orphan()
    try:
        assert procs.running(pid)
        assert pid in procs.children(os.getpid())
        assert procs.still_running([pid], grace=0.2) == [f"{pid} sleep 300"]
        assert not procs.running(pid)  # killed and reaped
    finally:
        procs.end([pid])


def test_a_run_that_leaves_a_process_fails_naming_it(tmp_path: Path) -> None:
    (tmp_path / "test_leak.py").write_text(LEAK)
    plugins = ["-p", "tests.conftest", "-p", "no:cacheprovider", "--rootdir", str(tmp_path)]
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", *plugins, str(tmp_path / "test_leak.py")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=ENV,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert "the test run left 1 process(es) behind (now killed)" in run.stdout, run.stdout
    assert " sleep 301\n" in run.stdout, run.stdout
    assert "1 passed" in run.stdout  # the test itself passed: the check failed the run


CLEAN = """\
def test_leaves_nothing() -> None:
    pass
"""


def _run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    plugins = ["-p", "tests.conftest", "-p", "no:cacheprovider", "--rootdir", str(tmp_path)]
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", *plugins, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=ENV,
    )


def test_under_xdist_a_worker_that_leaves_a_process_fails_the_run_naming_it(
    tmp_path: Path,
) -> None:
    """Each worker checks its own descendants and hands them to the controller, which
    names them: the worker's id, the process, its command."""
    (tmp_path / "test_leak.py").write_text(LEAK)
    (tmp_path / "test_clean.py").write_text(CLEAN)
    run = _run(tmp_path, "-n", "2", str(tmp_path))
    assert run.returncode == 1, run.stdout + run.stderr
    assert "the test run left 1 process(es) behind (now killed)" in run.stdout, run.stdout
    assert re.search(r"^gw[01]: \d+ sleep 301$", run.stdout, re.M), run.stdout
    assert "2 passed" in run.stdout


def test_under_xdist_the_controllers_own_workers_are_not_leftovers(tmp_path: Path) -> None:
    """The workers are the controller's children; they are shut down before it checks."""
    (tmp_path / "test_clean.py").write_text(CLEAN)
    run = _run(tmp_path, "-n", "2", str(tmp_path))
    assert run.returncode == 0, run.stdout + run.stderr
    assert "behind" not in run.stdout, run.stdout
