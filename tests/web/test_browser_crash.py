"""Crash (issue 12, Tests): ``fracas serve`` SIGKILLed at a random moment of a scripted
game master's session in Chromium and restarted with ``--keep-links``: the page
reconnects by itself, and every action it showed as done is stored exactly once, with
nothing stored that it did not show. ``bench/stress_serve.py`` runs many trials."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from fracas.web.serve import free_port
from tests.web.browser_crash import chromium, trial
from tests.web.test_browser import NEEDS_CHROMIUM

CHROMIUM = chromium()
pytestmark = NEEDS_CHROMIUM


@pytest.mark.parametrize("seed", [3, 8])
def test_a_killed_server_loses_and_doubles_nothing_the_page_showed(
    tmp_path: Path, browser: Any, seed: int
) -> None:
    out = trial(tmp_path, browser, random.Random(seed), 5, free_port("127.0.0.1"))
    assert out.reconnected
    assert out.shown == out.stored == list(range(1, 6))
