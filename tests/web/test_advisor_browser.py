"""The advisor in a real browser (issue 23): the game master's "Suggest" lists every
choice of whoever's turn it is, the tactics' first, with its odds and the chance to win
after it; a player's page has no "Suggest" until the table's policy lets players ask."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fracas.table import SetPolicy
from tests.web.test_browser import NEEDS_CHROMIUM, SHOTS, Server

pytestmark = NEEDS_CHROMIUM

DUEL = """\
ruleset: dice-combat
order: [ana, bo]
combatants:
  - {id: ana, name: Ana, side: players, at: [0, 0], hp: 9, max_hp: 9, hand: club}
  - {id: bo, name: Bo, side: raiders, at: [3, 0], hp: 9, max_hp: 9, hand: knife}
"""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path, DUEL)
    yield s
    s.stop()


def test_suggest_for_the_game_master_and_for_players_when_the_policy_allows(
    server: Server, browser: Any
) -> None:
    gm = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    pat = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    gm.goto(f"{server.base}/t/{server.gm}")
    pat.goto(f"{server.base}/t/{server.ana}")
    pat.wait_for_selector("#order li")
    gm.get_by_role("button", name="Suggest").click()
    # the choices come first, then again with the chances to win (issue 34)
    gm.locator("#advisor-how").filter(has_text="(exact)").wait_for()
    first = gm.locator("#advisor-list li").first.inner_text()
    # Bo is 3 tiles off: the tactics walk next to him, then club him
    assert first.startswith("walk to [2, 0], then attack Bo — the tactics' choice")
    assert "then players win " in first
    how = gm.locator("#advisor-how").inner_text()
    assert how.startswith("Ana's choices, best first; players win ")
    assert "(exact)" in how
    assert pat.get_by_role("button", name="Suggest").count() == 0  # the policy: GM only
    SHOTS.mkdir(exist_ok=True)
    gm.screenshot(path=str(SHOTS / "advisor-gm.png"), full_page=True)

    server.table.submit(SetPolicy({"advisor": True}))  # the game master's policy record
    pat.get_by_role("button", name="Suggest").click()
    pat.wait_for_selector("#advisor-list li")
    mine = pat.locator("#advisor-list li").first.inner_text()
    assert mine.startswith("walk to [2, 0], then attack Bo — the tactics' choice")
    assert "win" not in mine.split("\n")[1]  # Pat does not see the chances to win


def test_issue_34_the_choices_come_first_then_the_chances_to_win(
    tmp_path: Path, browser: Any
) -> None:
    """The dice-combat example's start (four fighters at full HP): "Suggest" lists the
    choices at once and says the chances to win are being worked out; the fight is too
    large for the advisor's chain, and the panel then says so in words, the choices
    still listed."""
    s = Server(tmp_path)
    s.app.state.hub.winbars.advice_states = 2_000  # past it in half a second, not in 4
    try:
        gm = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True).new_page()
        gm.goto(f"{s.base}/t/{s.gm}")
        gm.get_by_role("button", name="Suggest").tap()
        how = gm.locator("#advisor-how")
        how.filter(has_text="Working out the chances to win…").wait_for()
        listed = gm.locator("#advisor-list li").count()
        assert listed >= 2
        assert "the tactics' choice" in gm.locator("#advisor-list li").first.inner_text()
        how.filter(has_text="No chances to win").wait_for(timeout=30_000)
        said = how.inner_text()
        assert "more than 2,000 states from here" in said and "Working out" not in said
        assert gm.locator("#advisor-list li").count() == listed
    finally:
        s.stop()
