"""fracas.web.workers.stop: a stopped pool leaves nothing for the interpreter's exit.

Before, stop() shut each pool down twice (without wait, then with): the first shutdown
forgot the pool's manager thread, so the second joined nothing and stop() returned
with that thread still winding down; concurrent.futures' exit hook then woke its pipe
as the thread closed it, and a server stopped by SIGTERM printed "Exception ignored …
OSError: [Errno 9] Bad file descriptor" (seen in CI, tests/web/test_serve_start.py)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import process as futures_process
from typing import cast

from fracas.web.workers import pool, stop


def test_stop_returns_with_the_pools_manager_thread_ended_and_forgotten() -> None:
    workers = pool()
    assert workers.submit(int, "7").result(timeout=60) == 7
    slow = workers.submit(time.sleep, 30)  # the worker busy when the stop comes
    manager = workers._executor_manager_thread
    assert isinstance(manager, threading.Thread) and manager.is_alive()
    stop([workers])
    assert not manager.is_alive()
    assert manager not in futures_process._threads_wakeups
    assert slow.done()


def test_a_pool_for_background_work_runs_at_a_lower_priority() -> None:
    """The win bar's worker (``pool(nice=10)``) yields the CPU to the server and the
    page: its niceness is the server's plus 10 (at most 19); the odds' worker keeps the
    server's."""
    import os

    background, odds = pool(nice=10), pool()
    try:
        here = os.nice(0)
        assert background.submit(os.nice, 0).result(60) == min(19, here + 10)
        assert odds.submit(os.nice, 0).result(60) == here
    finally:
        stop([background, odds])


def test_issue_34_a_worker_loads_what_it_answers_with_before_its_first_question() -> None:
    """The odds' worker is started before its first question (``Workers.start``, once
    a page has its state) and, at its start, loads every ruleset and what the table's
    questions import (``ready``), then keeps all of it out of the garbage collector's
    walks (``gc.freeze``): before, a fresh server's first tap waited 0.55 s for the
    worker to start and load, and its first odds 25 ms more for a full collection
    walking what it had loaded."""
    import gc

    from fracas.web.answers import ready

    bare, loading = pool(), pool(ready=ready)
    try:
        loading.start()
        bare.start()
        # the freeze count: the objects settled at the start, before this first question
        settled_bare = bare.submit(gc.get_freeze_count).result(60)
        settled = loading.submit(gc.get_freeze_count).result(60)
        assert settled_bare > 0  # every worker settles what it holds at its start
        assert settled > settled_bare + 10_000, (settled_bare, settled)  # and loaded more
        assert loading.submit(gc.get_freeze_count).result(60) == settled  # once, at the start
    finally:
        stop([bare, loading])


def test_a_worker_whose_loading_fails_still_answers() -> None:
    """A ``ready`` that raises leaves the worker working (a worker whose initializer
    raised would be broken for good): what failed fails again in the question that
    needs it, and is said there."""
    raises = cast(Callable[[], object], divmod)  # divmod() raises TypeError; pickled by name
    workers = pool(ready=raises)
    try:
        workers.start()
        assert workers.submit(int, "7").result(timeout=60) == 7
    finally:
        stop([workers])
