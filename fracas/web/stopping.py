"""Ctrl-C and SIGTERM for ``fracas serve``, from the command's first line to its
process's end: either one, at any moment, stops the server cleanly (status 0).

Light on purpose (the standard library only): the command catches the signals
before it imports the web stack. A signal heard before the server serves is kept
(:attr:`Stopping.heard`) and the start-up ends at its next step; one heard while it
serves tells uvicorn to stop (uvicorn catches the signals itself while it runs, and
gives them back to these handlers when it is done); one heard while it stops, or
later, changes nothing. Left to Python's defaults, Ctrl-C printed "Aborted!" with
status 1 (or a traceback, during an import) and SIGTERM ended the process at once:
no store closed, worker pools left to the resource tracker's warning.
"""

from __future__ import annotations

import signal
import threading
from types import FrameType
from typing import Any

__all__ = ["Stopping", "stop_signals"]


class Stopping:
    """What the command has heard of SIGINT and SIGTERM."""

    def __init__(self) -> None:
        self.heard: str | None = None
        """The first signal heard, as the message names it: ``Ctrl-C`` or ``SIGTERM``."""
        self.server: Any = None
        """The uvicorn server once there is one: told to exit by a signal."""

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        if self.heard is None:
            self.heard = "Ctrl-C" if signum == signal.SIGINT else signal.Signals(signum).name
        if self.server is not None:
            self.server.should_exit = True


def stop_signals() -> Stopping:
    """Catch SIGINT and SIGTERM from now on, for the rest of the process (the
    command's process: its main thread). Elsewhere (a test's server in a thread),
    nothing is caught and the returned :class:`Stopping` hears nothing."""
    stopping = Stopping()
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, stopping)
    return stopping
