"""The game master's staples on the page (issue 35, item 10), in Debian's Chromium: a
mark set "until the end of Bo's next turn" from the roster's list, which lasts through
Bo's turn's start and ends with it; initiative rolled again in soak (SK-1) by the
roster's button, the values in the turn order and the roster."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.test_browser import NEEDS_CHROMIUM, SHOTS, Server
from tests.web.test_roster_browser import _gm

pytestmark = NEEDS_CHROMIUM


SOAK = (Path(__file__).parents[2] / "examples" / "start" / "soak.yaml").read_text()


def _seq(page: Any, server: Server, n: int) -> None:
    """Wait for the page to show the table's seq after ``n`` actions."""
    page.wait_for_function(f"document.body.dataset.seq === '{n + 1}'", timeout=10000)
    assert server.table.seq == n + 1


def test_a_mark_until_the_end_of_bos_next_turn_ends_with_bos_turn(
    server: Server, browser: Any
) -> None:
    SHOTS.mkdir(exist_ok=True)
    gm = _gm(server, browser)
    gm.get_by_role("button", name="Pick Cy for quick HP and conditions").click()
    gm.wait_for_function("document.getElementById('quick-who').innerText.startsWith('Cy:')")
    gm.select_option("#cond-name", "")
    gm.get_by_label("Name", exact=True).fill("spotted")
    lasts = gm.get_by_label("Lasts")  # a select with its label: keys and screen readers
    assert lasts.locator("option").all_inner_texts()[:4] == [
        "for N of its own turns (Turns; none: until removed)",
        "until removed",
        "until the start of Ana's next turn",
        "until the end of Ana's next turn",
    ]
    lasts.focus()
    lasts.select_option(label="until the end of Bo's next turn")
    assert gm.locator("#cond-turns").is_hidden()  # no turns to count
    gm.locator("#cond-form").screenshot(path=str(SHOTS / "condition-lasts.png"))
    gm.get_by_role("button", name="Set condition").click()
    _seq(gm, server, 1)
    assert dict(server.table.state.get("cy").statuses["spotted"]) == {
        "until": "end",
        "of": "bo",
        "left": 1,
    }
    badge = gm.locator('.token[data-id="cy"] .badge')
    badge.first.wait_for()
    assert badge.all_text_contents() == ["spotted"]
    card = gm.locator("#order li", has_text="Cy").inner_text()  # in words, not fields
    assert "until the end of Bo's next turn" in card and "until=" not in card, card
    gm.click("#end-turn")  # Ana's turn ends; Bo's begins: the mark stays
    _seq(gm, server, 2)
    assert server.table.state.turn.actor == "bo" and badge.all_text_contents() == ["spotted"]
    gm.click("#end-turn")  # Bo's turn ends: the mark with it
    _seq(gm, server, 3)
    assert server.table.state.turn.actor == "cy"
    assert "spotted" not in server.table.state.get("cy").statuses
    assert badge.count() == 0
    assert "Cy is no longer spotted" in gm.locator("#log").inner_text()
    gm.screenshot(path=str(SHOTS / "condition-ended.png"), full_page=True)


def test_SK_1_the_game_master_rolls_initiative_and_reads_it_in_the_order(
    tmp_path: Path, browser: Any
) -> None:
    server = Server(tmp_path, SOAK)
    try:
        gm = _gm(server, browser)
        cards = gm.locator("#order li")
        start = cards.all_inner_texts()  # Mara 17, Finn 12, the Brute 7 (the file's dice)
        assert [("Mara" in start[0]), ("Finn" in start[1]), ("Brute" in start[2])] == [True] * 3
        assert ["initiative 17" in start[0], "initiative 12" in start[1]] == [True, True]
        gm.get_by_role("button", name="Roll initiative").click()
        _seq(gm, server, 1)
        state = server.table.state
        values = [state.get(cid).sheet.initiative for cid in state.order]
        assert values == sorted(values, reverse=True)  # highest first (SK-1)
        shown = [f"{state.get(cid).name}" for cid in state.order]
        gm.wait_for_function(
            "names => [...document.querySelectorAll('#order li strong')]"
            ".map(s => s.textContent).join() === names.join()",
            arg=shown,
        )
        texts = cards.all_inner_texts()
        for text, value in zip(texts, values, strict=True):
            assert f"initiative {value}" in text, text
        rows = gm.locator("#roster li").all_inner_texts()
        assert all(f"initiative {v}" in r for r, v in zip(rows, values, strict=True))
        assert "initiative order:" in gm.locator("#log").inner_text()
        gm.locator("#order-box").screenshot(path=str(SHOTS / "initiative-order.png"))
        gm.locator("#roster-box").screenshot(path=str(SHOTS / "initiative-roster.png"))
    finally:
        server.stop()


def test_the_roll_initiative_button_is_only_where_the_ruleset_keeps_one(
    server: Server, browser: Any
) -> None:
    gm = _gm(server, browser)  # dice-combat: the file's order, no initiative roll
    assert gm.locator("#init-roll").is_hidden()
    assert "initiative" not in gm.locator("#order").inner_text()


def test_WL_1_the_turn_order_shows_each_sequence_and_offers_no_initiative_roll(
    tmp_path: Path, browser: Any
) -> None:
    text = (Path(__file__).parents[2] / "examples" / "start" / "wasteland.yaml").read_text()
    server = Server(tmp_path, text)
    try:
        gm = _gm(server, browser)  # Vera 13, the raider 13 (players first), Knox 12
        cards = gm.locator("#order li").all_inner_texts()
        shown = [(c.split("\n")[0], "sequence 13" in c, "sequence 12" in c) for c in cards]
        assert shown == [("Vera", True, False), ("the raider", True, False), ("Knox", False, True)]
        assert "initiative" not in gm.locator("#order").inner_text()
        assert gm.locator("#init-roll").is_hidden()  # WL-1: Sequence is static, no die
        player = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        player.goto(f"{server.base}/t/{server.ana}")
        player.locator("#order li").first.wait_for()
        assert "sequence 12" in player.locator("#order li", has_text="Knox").inner_text()
    finally:
        server.stop()
