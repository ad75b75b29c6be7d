"""Stopping the server's worker processes at once, leaving nothing behind.

``fracas serve`` works out odds and the win bar in worker processes. When it stops
(Ctrl-C, or a SIGTERM from a service manager) nobody waits for that work any more:
the pools are told to stop, their busy workers are terminated, and their threads and
queues are joined, so the interpreter exits without the resource tracker's warning of
leaked semaphores (a pool only told to shut down left its queues to it).
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterable
from concurrent.futures import Executor

__all__ = ["stop"]


def stop(executors: Iterable[Executor]) -> None:
    """Stop ``executors`` now: pending work cancelled, every worker process of this
    process terminated, their threads and queues joined. For a process that is
    stopping: it ends every child process it started."""
    pools = list(executors)
    for pool in pools:
        pool.shutdown(wait=False, cancel_futures=True)
    for child in multiprocessing.active_children():
        child.terminate()
    for pool in pools:
        pool.shutdown(wait=True)
