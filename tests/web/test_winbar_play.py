"""Issue 23, item 3 in Chromium: the win bar after each action of a played example (the
played-through files' first actions, on their start): the game master's bar turns to
the new record after every action (the time it took is printed: ``pytest -s``), and it
never says "Exact" of an estimate: an exact bar has no "about" and says "exact" to a
screen reader, an estimate says "about" on every side and "an estimate" to one."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from fracas.table import GAME_MASTER, Act
from tests.web.test_browser import NEEDS_CHROMIUM, Server

pytestmark = NEEDS_CHROMIUM
ROOT = Path(__file__).parents[2]
ACTIONS = 6
"""The played file's first actions taken (each one's bar checked)."""

SEEN = """(record) => {
  const how = document.getElementById('winbar-how');
  return how !== null && how.innerText.includes(`after record ${record}`);
}"""
BAR = """() => ({
  how: document.getElementById('winbar-how').innerText,
  method: document.getElementById('winbar-box').dataset.method || null,
  sides: [...document.querySelectorAll('#winbar-sides li')].map((li) => li.innerText),
  label: document.getElementById('winbar').getAttribute('aria-label') || '',
})"""


@pytest.fixture(params=["tier-duel", "escalation"])
def played(request: Any, tmp_path: Path) -> Iterator[tuple[Server, list[dict[str, Any]]]]:
    text = (ROOT / "examples" / f"{request.param}.yaml").read_text()
    start, _, _ = text.partition("\nactions:")
    actions = yaml.safe_load(text)["actions"][:ACTIONS]
    s = Server(tmp_path, start, win_bar=True)
    yield s, actions
    s.stop()


def _honest(bar: dict[str, Any]) -> None:
    if bar["how"].startswith("Exact"):
        assert bar["method"] == "exact", bar
        assert not any("about" in side for side in bar["sides"]), bar
        assert bar["label"].startswith("win chance, exact:"), bar
    elif bar["method"] == "estimate":
        assert bar["how"].startswith("An estimate from"), bar
        assert all("about " in side for side in bar["sides"] if side), bar
        assert bar["label"].startswith("win chance, an estimate:"), bar
    else:
        assert "Exact" not in bar["how"] and "exact" not in bar["label"], bar


def test_the_bar_follows_each_action_and_never_says_exact_of_an_estimate(
    played: tuple[Server, list[dict[str, Any]]], browser: Any
) -> None:
    server, actions = played
    gm = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    gm.goto(f"{server.base}/t/{server.gm}")
    gm.wait_for_function(SEEN, arg=server.table.seq - 1)
    _honest(gm.evaluate(BAR))
    took = []
    for action in actions:
        server.table.submit(Act(action), GAME_MASTER)
        record = server.table.seq - 1
        begun = time.monotonic()
        gm.wait_for_function(SEEN, arg=record)  # the bar of this record, worked out or not
        took.append(time.monotonic() - begun)
        _honest(gm.evaluate(BAR))
    shown = [round(t, 2) for t in took]
    print(
        f"\nthe bar turned to each new record in (s): {shown}; last: {gm.evaluate(BAR)['method']}"
    )
