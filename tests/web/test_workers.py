"""fracas.web.workers.stop: a stopped pool leaves nothing for the interpreter's exit.

Before, stop() shut each pool down twice (without wait, then with): the first shutdown
forgot the pool's manager thread, so the second joined nothing and stop() returned
with that thread still winding down; concurrent.futures' exit hook then woke its pipe
as the thread closed it, and a server stopped by SIGTERM printed "Exception ignored …
OSError: [Errno 9] Bad file descriptor" (seen in CI, tests/web/test_serve_start.py)."""

from __future__ import annotations

import threading
import time
from concurrent.futures import process as futures_process

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
