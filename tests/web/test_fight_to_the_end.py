"""A dice-combat fight played to its end in three browser contexts (issue 12, Tests):
the game master and two players, each player clicking its own combatant's attacks on
its phone-sized page, the game master ending the raider's turns, until the raider is
down. On each attack the odds tooltip's numbers equal the table service's odds of
that attack in that state (``fracas odds``'s, to the digits shown); at the end every
page shows the raider down."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fracas.model import Action
from fracas.rulesets.base import is_down
from tests.web.test_browser import NEEDS_CHROMIUM, SHOTS, Server

pytestmark = NEEDS_CHROMIUM

FIGHT = """\
ruleset: dice-combat
round: 2
order: [ana, dee, bo]
combatants:
  - {id: ana, name: Ana, side: players, at: [0, 0], hand: greataxe}
  - {id: dee, name: Dee, side: players, at: [1, 1], hand: knife}
  - {id: bo, name: Bo, side: raiders, at: [1, 0], max_hp: 7, hand: club}
"""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path, FIGHT)
    yield s
    s.stop()


def _titles(page: Any) -> int:
    count: int = page.evaluate("document.querySelectorAll('#log li.title').length")
    return count


def _synced(page: Any, count: int) -> None:
    """Wait until ``page``'s log has ``count`` action lines."""
    page.wait_for_function(
        f"document.querySelectorAll('#log li.title').length >= {count}", timeout=10000
    )


def _stored(table: Any, seq: int) -> None:
    """Wait until the table holds a record after ``seq`` (the click's message reached the
    server and was stored), so that the turn read next is the one it left."""
    deadline = time.monotonic() + 10
    while table.seq <= seq:
        assert time.monotonic() < deadline, f"nothing stored after #{seq}"
        time.sleep(0.02)


def test_a_fight_to_its_end_in_three_contexts(server: Server, browser: Any) -> None:
    _, dee_token = server.links.add("fight", "Kim", ["dee"])
    gm = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    pat = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    kim = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    for page, token in ((gm, server.gm), (pat, server.ana), (kim, dee_token)):
        page.goto(f"{server.base}/t/{token}")
        page.wait_for_selector("#order li")
    by = {"ana": pat, "dee": kim}
    table, ruleset = server.table, server.table.ruleset
    attacks = 0
    for _ in range(40):
        if is_down(ruleset, table.state.get("bo")):
            break
        actor = table.state.turn.actor
        seq = table.seq
        base = seq - _titles(gm)  # records before the first action line (the start)
        if actor == "bo":  # the game master plays the raider: it ends its turn
            gm.get_by_role("button", name="End turn").click()
            _stored(table, seq)
        else:
            page = by[actor]
            page.get_by_role("button", name="Attack", exact=True).click()
            target = page.locator("button[data-target='bo']")
            target.hover()
            page.wait_for_selector("#odds .odds-line")
            want = table.odds(Action(actor, "attack", "bo")).to_json()["combatants"]["bo"]
            shown = page.locator("#odds").inner_text()
            hit = re.search(r"hit ([\d.]+)%", shown)
            mean = re.search(r"mean damage ([\d.]+)", shown)
            assert hit is not None and abs(float(hit.group(1)) - 100 * want["hit"]) <= 0.05
            assert mean is not None and abs(float(mean.group(1)) - want["mean"]) <= 0.005
            target.click()
            attacks += 1
            _synced(page, seq + 1 - base)
            if table.seq == seq + 1 and not is_down(ruleset, table.state.get("bo")):
                page.get_by_role("button", name="End turn").click()  # its action is used
                _stored(table, seq + 1)
        for p in (gm, pat, kim):
            _synced(p, table.seq - base)
    assert is_down(ruleset, table.state.get("bo")), f"not over after {attacks} attacks"
    for page in (gm, pat, kim):
        assert "down" in page.locator("#order li", has_text="Bo").first.inner_text().lower()
    SHOTS.mkdir(exist_ok=True)
    gm.screenshot(path=str(SHOTS / "fight-end-gm.png"), full_page=True)
    pat.screenshot(path=str(SHOTS / "fight-end-player.png"), full_page=True)
