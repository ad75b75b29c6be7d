"""How long an exact enumeration may run, and how a caller stops it.

Exact odds answer or refuse within a time budget (wall time, default 5 s) whatever
the action: the enumerator looks at the clock and at the caller's cancellation hook
every :data:`CHECK_EVERY` replays and gives up with ``too_slow`` or ``cancelled``.
A hover request in a browser is cancelled when the pointer moves on.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

__all__ = ["CHECK_EVERY", "DEFAULT_SECONDS", "Budget", "Cancel"]

DEFAULT_SECONDS = 5.0
"""Wall time an odds request may take before it is refused as ``too_slow``."""

CHECK_EVERY = 8
"""Replays between two looks at the clock and the cancellation hook (a replay is 10 µs
to a few ms; a look costs well under a microsecond)."""

Cancel = threading.Event | Callable[[], bool]
"""A cancellation hook: an event another thread sets, or a callable that says True."""


class Budget:
    """A deadline and a cancellation hook, checked by the enumerator."""

    __slots__ = ("_cancelled", "deadline", "seconds", "started")

    def __init__(self, seconds: float | None = None, cancel: Cancel | None = None) -> None:
        self.started = time.monotonic()
        self.seconds = seconds
        self.deadline = None if seconds is None else self.started + seconds
        if isinstance(cancel, threading.Event):
            self._cancelled: Callable[[], bool] | None = cancel.is_set
        else:
            self._cancelled = cancel

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def expired(self) -> bool:
        """Whether the time budget is spent."""
        return self.deadline is not None and time.monotonic() >= self.deadline

    def cancelled(self) -> bool:
        """Whether the caller asked to stop."""
        return self._cancelled is not None and bool(self._cancelled())
