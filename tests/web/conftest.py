"""The web tests' shared fixture: a browser (Debian's Chromium under Playwright,
launched by :func:`tests.web.test_browser.launched`), one per test; the modules that
drive many pages keep one per module instead."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.test_browser import launched


@pytest.fixture
def browser() -> Iterator[Any]:
    with launched() as b:
        yield b
