"""The test run's own check that it leaves no process behind (tests/conftest.py's
``pytest_sessionfinish``): a process orphaned by one of the run's is found, named,
and killed, and the run fails."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests import procs

ROOT = Path(__file__).parents[1]

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
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert "the test run left 1 process(es) behind (now killed)" in run.stdout, run.stdout
    assert " sleep 301\n" in run.stdout, run.stdout
    assert "1 passed" in run.stdout  # the test itself passed: the check failed the run
