"""Processes as ``/proc`` shows them (Linux): a process's children, whether one still
runs, its command line; and the test run's check that it leaves no process behind.

The test run makes itself a child subreaper (``prctl(PR_SET_CHILD_SUBREAPER)``): a
process orphaned by the run's own processes (a killed server's workers, a daemon a
test started) is reparented to the run instead of to PID 1, so :func:`leftovers`
finds it among the run's children at the end, however deep it was started.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import time
from collections.abc import Iterable
from typing import Any

__all__ = [
    "GRACE",
    "become_subreaper",
    "children",
    "command",
    "end",
    "leftovers",
    "niceness",
    "reap",
    "running",
    "still_running",
    "wait_gone",
]

_PR_SET_CHILD_SUBREAPER = 36


def become_subreaper() -> bool:
    """Make this process the reaper of its descendants' orphans; False where the OS
    has no such thing (then only this process's own children are found)."""
    if not os.path.isdir("/proc"):
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    return int(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) == 0


def _stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command's name (state first)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            text = f.read()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` now (zombies included)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(int(entry))
            if fields is not None and int(fields[1]) == pid:
                found.append(int(entry))
    return sorted(found)


def niceness(pid: int) -> int | None:
    """The nice value of ``pid`` (None where it is gone)."""
    fields = _stat(pid)
    return None if fields is None else int(fields[16])  # field 19 of /proc/PID/stat


def running(pid: int) -> bool:
    """Whether ``pid`` exists and is not a zombie (ended, not yet reaped)."""
    fields = _stat(pid)
    return fields is not None and fields[0] not in ("Z", "X")


def command(pid: int) -> str:
    """The command line of ``pid`` (its name where it has none), cut to 160 characters."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            line = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
        if not line:
            with open(f"/proc/{pid}/comm") as f:
                line = f"[{f.read().strip()}]"
    except OSError:
        line = "(gone)"
    return line[:160]


def reap(pids: Iterable[int]) -> None:
    """Collect those of ``pids`` that are this process's ended children (zombies)."""
    for pid in pids:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


def wait_gone(pids: Iterable[int], seconds: float) -> list[int]:
    """Wait up to ``seconds`` for ``pids`` to end (reaping those that are this
    process's); the ones still running then."""
    pids = list(pids)
    deadline = time.monotonic() + seconds
    while True:
        reap(pids)
        alive = [pid for pid in pids if running(pid)]
        if not alive or time.monotonic() >= deadline:
            return alive
        time.sleep(0.02)


def end(pids: Iterable[int]) -> None:
    """SIGKILL ``pids`` and reap those that are this process's children."""
    pids = list(pids)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    wait_gone(pids, 5.0)


def still_running(pids: Iterable[int], grace: float) -> list[str]:
    """Those of ``pids`` still running after up to ``grace`` seconds (one that is
    ending meanwhile is not one), as ``PID command`` lines; they are then killed."""
    alive = wait_gone(pids, grace)
    named = [f"{pid} {command(pid)}" for pid in alive]
    end(alive)
    return named


GRACE = "FRACAS_TEST_LEFTOVER_GRACE"
"""The environment variable that sets :func:`leftovers`' grace in seconds (5 unless
set): tests/test_procs.py's runs of a run shorten it (their leftover is a ``sleep``
that will never end by itself)."""


def leftovers(grace: float | None = None) -> list[str]:
    """This process's children still running after ``grace`` seconds (by default
    :data:`GRACE`'s, else 5) (:func:`still_running`): for the end of
    the run, so the run leaves nothing behind even when it names them.
    Multiprocessing's resource tracker of this very process ends with it: it is
    stopped first."""
    from multiprocessing import resource_tracker

    tracker: Any = resource_tracker._resource_tracker  # its _pid and _stop: not typed
    if tracker._pid is not None and running(tracker._pid):
        tracker._stop()
    if grace is None:
        grace = float(os.environ.get(GRACE, "5.0"))
    return still_running(children(os.getpid()), grace)
