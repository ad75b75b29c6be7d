"""The test run's own check that it leaves no process behind (tests/conftest.py's
``pytest_sessionfinish``): a process orphaned by one of the run's is found, named,
and killed."""

from __future__ import annotations

import os
import subprocess

from tests import procs


def test_an_orphaned_grandchild_is_named_as_left_behind() -> None:
    # the shell starts a sleep in the background and ends: the sleep is orphaned,
    # reparented to the run (its subreaper), not to PID 1
    shell = subprocess.run(
        ["sh", "-c", "sleep 300 </dev/null >/dev/null 2>&1 & echo $!"],
        capture_output=True,
        text=True,
        check=True,
    )
    orphan = int(shell.stdout)
    try:
        assert procs.running(orphan)
        assert orphan in procs.children(os.getpid())
        left = procs.leftovers(grace=0.2)
        assert left == [f"{orphan} sleep 300"]
        assert not procs.running(orphan)  # killed and reaped
        assert procs.leftovers(grace=0.2) == []
    finally:
        procs.end([orphan])
