"""A combatant's tactics preset on the page (issue 23, item 1), in Debian's Chromium: the
game master's roster has a select per combatant ("Tactics of Bo": default, naive,
random) showing its preset; picking ``naive`` is the game master's ``tactics`` action,
which the table stores, and the win bar follows it; a player's page has no such select."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fracas.io.files import parse_text
from fracas.lab.chain import win_odds
from fracas.lab.fight import file_start
from fracas.lab.policy import Policy
from tests.lab.mirrors import mirror
from tests.web.test_browser import NEEDS_CHROMIUM, SHOTS, Server, synced

pytestmark = NEEDS_CHROMIUM

SHOWN = "#winbar-box:not([hidden]) #winbar-sides li"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path, mirror("dice-combat", "bo", "default"), win_bar=True)
    yield s
    s.stop()


def chance(tactics: str) -> str:
    """Ana's side's exact chance as the bar words it, Bo first and under ``tactics``."""
    ef = parse_text(mirror("dice-combat", "bo", tactics), "mirror.yaml")
    p = win_odds(ef.ruleset, file_start(ef), Policy(ef.ruleset, ef.tactics)).sides["a"]
    return f"a: {100 * float(p):.1f}%"


def bar_says(page: Any, text: str) -> None:
    page.wait_for_function(
        f"document.getElementById('winbar-sides').innerText.includes({text!r})", timeout=20000
    )


def test_the_game_master_picks_naive_for_bo_on_the_page(server: Server, browser: Any) -> None:
    default, naive = chance("default"), chance("naive")
    assert default != naive
    gm = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    pat = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True).new_page()
    gm.goto(f"{server.base}/t/{server.gm}")
    pat.goto(f"{server.base}/t/{server.ana}")
    gm.wait_for_selector("#roster li")
    gm.wait_for_selector(SHOWN)
    pat.wait_for_selector("#order li", state="attached")  # folded on a phone (folds.js)
    seq = server.table.seq
    synced(gm, seq)
    bar_says(gm, default)

    select = gm.get_by_role("combobox", name="Tactics of Bo", exact=True)
    assert select.input_value() == "default"
    assert select.locator("option").all_inner_texts() == ["default", "naive", "random"]
    assert gm.get_by_role("combobox", name="Tactics of Ana", exact=True).input_value() == "default"
    select.select_option("naive")
    synced(gm, seq + 1)
    assert server.table.state.presets == {"bo": "naive"}
    assert server.table.log[-1].action is not None
    assert server.table.log[-1].action.do == "tactics"
    assert gm.get_by_role("combobox", name="Tactics of Bo", exact=True).input_value() == "naive"
    said = "The game master sets the tactics of Bo: naive"
    gm.wait_for_function(f"document.getElementById('log').innerText.includes({said!r})")
    bar_says(gm, naive)

    # the player's page: no tactics select, no line of the record
    synced(pat, seq + 1)
    assert pat.get_by_role("combobox", name="Tactics of Bo").count() == 0
    assert "tactics" not in pat.locator("#log").inner_text()
    SHOTS.mkdir(exist_ok=True)
    gm.screenshot(path=str(SHOTS / "tactics-preset-gm.png"), full_page=True)
