"""The web tests' browser: one Debian Chromium under Playwright per test session (per
xdist worker), launched by :func:`tests.web.test_browser.launched`, and a clean slate
per test: ``browser`` hands the test that Chromium and, after it, closes every context
(and so every page) the test opened, so no page of one test lives into the next.

Between tests the session's Playwright is put to sleep: its sync API marks its event
loop as this thread's running loop for as long as it lives, which would make every
later ``asyncio.run`` (or a second Playwright) of the session refuse to start. The loop
is marked running again only while a test that asked for ``browser`` runs. A Chromium
that died (a crash, a test that closed it) is launched anew for the next test. ``server``
is the example's start served for one test (a module needing another table defines its
own)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.test_browser import Server, launched


class Chromium:
    """The session's browser, launched at the first test that wants it."""

    def __init__(self) -> None:
        self._stack = contextlib.ExitStack()
        self._browser: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def enter(self) -> Any:
        """The browser, for one test (launched, or launched anew if it died)."""
        if self._browser is not None and not self._browser.is_connected():
            self.close()
        if self._browser is None:
            self._browser = self._stack.enter_context(launched())
            self._loop = asyncio._get_running_loop()  # Playwright's, as it leaves it
        asyncio._set_running_loop(self._loop)
        return self._browser

    def leave(self) -> None:
        """After a test: close every context it opened; put Playwright to sleep."""
        try:
            if self._browser is not None and self._browser.is_connected():
                for context in list(self._browser.contexts):
                    with contextlib.suppress(Exception):  # one that is closing anyway
                        context.close()
        finally:
            asyncio._set_running_loop(None)

    def close(self) -> None:
        """Close the browser and its Playwright (at the session's end, or after a crash)."""
        if self._browser is None:
            return
        asyncio._set_running_loop(self._loop)
        try:
            with contextlib.suppress(Exception):  # a browser that died: its driver is gone
                self._stack.close()
        finally:
            asyncio._set_running_loop(None)
            self._stack = contextlib.ExitStack()
            self._browser = None
            self._loop = None


@pytest.fixture(scope="session")
def shared_chromium() -> Iterator[Chromium]:
    """The session's one Chromium (launched lazily: a run without browser tests starts none)."""
    shared = Chromium()
    try:
        yield shared
    finally:
        shared.close()


@pytest.fixture
def browser(shared_chromium: Chromium) -> Iterator[Any]:
    """The session's Chromium for one test; every context the test opened is closed after it."""
    b = shared_chromium.enter()
    try:
        yield b
    finally:
        shared_chromium.leave()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """A served example's start (:class:`~tests.web.test_browser.Server`), stopped after
    the test; a module needing another table defines its own ``server``."""
    s = Server(tmp_path)
    yield s
    s.stop()
