"""The server's worker processes: started so that they end with the server, however
it ends, and stopped at once when it stops.

``fracas serve`` works out odds and the win bar in worker processes (:func:`pool`).
Each worker watches the process that started it and ends the moment that process
does: a server SIGKILLed, or killed by the OOM killer, left its workers (and,
through them, multiprocessing's resource tracker, which lives while a worker holds
its pipe) running for good, reparented to PID 1. On Linux the worker waits on a
pidfd of its parent (woken by the kernel when the parent ends, whichever of its
threads started the worker); elsewhere it looks at its parent's PID every half
second. (A parent-death signal, ``prctl(PR_SET_PDEATHSIG)``, fires when the *thread*
that started the worker ends, and a pool starts its workers from the thread that
first submits: a server run in a thread, as the tests run theirs, would lose its
workers with that thread.) A terminal's Ctrl-C, and a service manager's SIGTERM,
sent to the whole process group, are the server's to act on: a worker ignores
SIGINT and SIGTERM from its first instruction, and the server kills it (SIGKILL)
when it stops.

When the server stops (Ctrl-C, or a SIGTERM from a service manager) nobody waits
for that work any more (:func:`stop`): the pools are told to stop, their busy
workers are terminated, and their threads and queues are joined, so the interpreter
exits without the resource tracker's warning of leaked semaphores (a pool only told
to shut down left its queues to it).
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import select
import signal
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures import process as futures_process
from typing import Any, ParamSpec, TypeVar

__all__ = ["POLL", "Workers", "pool", "stop"]

POLL = 0.5
"""Seconds between two looks at the parent's PID where there is no pidfd."""

_IGNORED = {signal.SIGINT, signal.SIGTERM}
"""The signals a worker leaves to the server."""

_P = ParamSpec("_P")
_T = TypeVar("_T")


class Workers(ProcessPoolExecutor):
    """A process pool whose workers end with the process that made it (see the module).

    A worker is started by the first :meth:`submit` that finds none idle, as the
    spawn start method does, with SIGINT and SIGTERM blocked in that thread
    meanwhile: the worker is born with them blocked (as multiprocessing starts its
    resource tracker), so a Ctrl-C during its start-up (its imports) cannot print a
    traceback; a signal for the server stays pending a moment, not lost."""

    def __init__(
        self, max_workers: int = 1, nice: int = 0, ready: Callable[[], object] | None = None
    ) -> None:
        super().__init__(
            max_workers=max_workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_worker_start,
            initargs=(os.getpid(), nice, ready),
        )
        self.size = max_workers
        self.started = False

    def start(self) -> None:
        """Start the workers now, not at the first :meth:`submit` (once; again does
        nothing): each loads what it answers with (``ready``) while nobody waits on it,
        so the first question asked of it (a tap's odds, the advisor's list) does not
        wait for that."""
        if self.started:
            return
        self.started = True
        for _ in range(self.size):
            self.submit(int)

    def submit(self, fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> Future[_T]:
        if not hasattr(signal, "pthread_sigmask"):  # Windows: no signal masks
            return super().submit(fn, *args, **kwargs)
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, _IGNORED)
        try:
            return super().submit(fn, *args, **kwargs)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def pool(nice: int = 0, ready: Callable[[], object] | None = None) -> Workers:
    """One worker process, spawned (never forked: the server runs threads); ``nice``:
    how much lower its priority is than the server's (background work, such as the win
    bar's fights, yields the CPU to the server's own loop and to what else the machine
    runs for the table: a page loading, its odds); ``ready``: what the worker calls at
    its start, to load what it answers with (a function of a module, pickled by name)."""
    return Workers(max_workers=1, nice=nice, ready=ready)


def _worker_start(parent: int, nice: int = 0, ready: Callable[[], object] | None = None) -> None:
    """A worker's initializer: its priority lowered by ``nice``; SIGINT and SIGTERM
    ignored, then unblocked; the parent watched; ``ready`` called, then what the worker
    holds kept out of the garbage collector's walks (:func:`gc.freeze`, as the command
    line does: the first full collection after the imports walked them all during the
    first odds)."""
    if nice and hasattr(os, "nice"):
        os.nice(nice)
    for sig in _IGNORED:
        signal.signal(sig, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _IGNORED)
    threading.Thread(target=_watch, args=(parent,), name="fracas-parent", daemon=True).start()
    if ready is not None:
        # A worker whose initializer raised is broken for good: what failed to load fails
        # again in the question that needs it, and is said there.
        with contextlib.suppress(Exception):
            ready()
    gc.freeze()


def _watch(parent: int) -> None:
    """Return only to end this process: the moment ``parent`` has ended."""
    wait = _pidfd_wait(parent)
    if wait is not None:
        wait()
    else:
        while os.getppid() == parent:
            time.sleep(POLL)
    os._exit(1)  # nobody is left to tell; nothing of this worker's is wanted


def _pidfd_wait(parent: int) -> Callable[[], Any] | None:
    """A call that blocks until ``parent`` ends (a pidfd: Linux 5.3 and later), or
    None where there is none. Returns a call that returns at once where the parent
    has already ended (this worker reparented)."""
    pidfd_open = getattr(os, "pidfd_open", None)
    if pidfd_open is None:
        return None
    try:
        fd = pidfd_open(parent)
    except OSError:  # no such process (it ended: the check below), or no pidfd here
        return (lambda: None) if os.getppid() != parent else None
    if os.getppid() != parent:  # it ended before: that PID may be another's now
        os.close(fd)
        return lambda: None
    return lambda: select.select([fd], [], [])


def stop(executors: Iterable[Executor]) -> None:
    """Stop ``executors`` now: pending work cancelled, every worker process of this
    process killed (a worker ignores SIGTERM), their threads and queues joined. For a
    process that is stopping: it ends every child process it started."""
    pools = list(executors)
    # Each process pool's manager thread, taken before the first shutdown forgets it
    # (a shutdown without wait drops its reference; a second one has nothing to join).
    managers = [
        thread
        for each in pools
        if isinstance(thread := getattr(each, "_executor_manager_thread", None), threading.Thread)
    ]
    for each in pools:
        each.shutdown(wait=False, cancel_futures=True)
    for child in multiprocessing.active_children():
        child.kill()
    for each in pools:
        each.shutdown(wait=True)
    for thread in managers:
        thread.join()
    # These pools' manager threads are joined and their wake-up pipes closed: nothing of
    # theirs is left for concurrent.futures' exit hook to wake, which on Python 3.11 may
    # write to such a pipe (a broken pool's, closed as it writes) and print "Exception
    # ignored … Bad file descriptor" as the process ends. Live pools keep theirs.
    for thread in list(futures_process._threads_wakeups):
        if not thread.is_alive():
            futures_process._threads_wakeups.pop(thread, None)
