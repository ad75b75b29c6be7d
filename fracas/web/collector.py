"""The garbage collector of a server process, kept from stopping it for long.

CPython's cyclic collector stops every thread while it walks the objects it tracks, and
a full collection walks them all: a server of 200 tables and 1,200 sockets holds some
150,000 (its modules, the sockets' ASGI stacks, the tables' states), 100 to 250 ms a
walk on a busy 2-core machine, and that was the whole tail of ``bench/bench_serve.py
--fleet``'s round trips. Nearly all of it lives as long as the process or its sockets
and is never garbage, so :class:`Collector`:

* freezes what the server holds at its start (:func:`gc.freeze`: the permanent
  generation, which no collection walks);
* after each full collection, freezes what survived it, so the next one walks only
  what came to live since (a few milliseconds to tens);
* every :data:`THAW` seconds lets one full collection walk everything again, so that a
  cycle among long-lived objects that became garbage is not kept for good (a run that
  opened and closed 1,200 sockets left none).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any

__all__ = ["THAW", "Collector"]

THAW = 600.0
"""Seconds between two full collections that walk everything."""


class Collector:
    """The policy above, for one process: :meth:`start` it once the server is built,
    :meth:`stop` it when the server stops."""

    def __init__(self, thaw: float = THAW, clock: Callable[[], float] = time.monotonic) -> None:
        self.thaw = thaw
        self.clock = clock
        self.thaws = 0
        """Full collections let walk everything since the start."""
        self._thawed = clock()

    def start(self) -> None:
        gc.collect()
        gc.freeze()
        self._thawed = self.clock()
        gc.callbacks.append(self._after)

    def stop(self) -> None:
        if self._after in gc.callbacks:
            gc.callbacks.remove(self._after)
        gc.unfreeze()

    def _after(self, phase: str, info: dict[str, Any]) -> None:
        """A collection's end (in the thread that ran it): after a full one, freeze
        its survivors, or every :attr:`thaw` seconds give them all back (the next full
        collection walks them and frees any cycle among them)."""
        if phase != "stop" or info.get("generation") != 2:
            return
        now = self.clock()
        if now - self._thawed >= self.thaw:
            self._thawed = now
            self.thaws += 1
            gc.unfreeze()
        else:
            gc.freeze()
