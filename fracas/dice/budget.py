"""How much work an odds request may do, how long it may take at most, and how a caller
stops it.

Odds are bounded by **work**: dice paths replayed for the exact answer, then a fixed
number of seeded samples for an estimate (:func:`fracas.odds.action.action_odds`), so the same
question gets the same answer on a quiet and on a busy machine. The wall time is only
an outer bound (:class:`Budget`, default :data:`DEFAULT_SECONDS`): the enumerator looks
at the clock and at the caller's cancellation hook every :data:`CHECK_EVERY` replays and
gives up with ``too_slow`` (an answer *cut by the time limit*, which says so) or
``cancelled``. A hover request in a browser is cancelled when the pointer moves on.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

__all__ = ["CHECK_EVERY", "CUT_BY_TIME", "DEFAULT_SECONDS", "Budget", "Cancel"]

DEFAULT_SECONDS = 30.0
"""The outer bound on the wall time of an odds request (the command line's and the
page's): generous, so that the work budget, not the clock, decides the answer."""

CUT_BY_TIME = "cut by the time limit"
"""The words every answer (or refusal) the wall-time bound cut carries."""

CHECK_EVERY = 8
"""Replays between two looks at the clock and the cancellation hook (a replay is 10 µs
to a few ms; a look costs well under a microsecond)."""

Cancel = threading.Event | Callable[[], bool]
"""A cancellation hook: an event another thread sets, or a callable that says True."""


class Budget:
    """An outer bound on wall time (a deadline) and a cancellation hook, checked by the
    enumerator and the sampler."""

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
        """Whether the wall-time bound is passed."""
        return self.deadline is not None and time.monotonic() >= self.deadline

    def cancelled(self) -> bool:
        """Whether the caller asked to stop."""
        return self._cancelled is not None and bool(self._cancelled())
