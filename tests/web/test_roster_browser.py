"""The game master's roster on the page (issue 22, item 2), in Debian's Chromium: reorder
the turn order by keys and by drag, delay, quick HP on a picked token (-5, Enter), a
condition from the ruleset's statuses with its turns shown as a badge, a copy of a
combatant added mid-fight, and a secret roll the player's page never shows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.test_browser import EXAMPLE, NEEDS_CHROMIUM, SHOTS, Server

pytestmark = NEEDS_CHROMIUM


def _gm(server: Server, browser: Any) -> Any:
    gm = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    gm.goto(f"{server.base}/t/{server.gm}")
    gm.wait_for_selector("#roster li")
    return gm


def _wait_seq(page: Any, server: Server, n: int) -> None:
    """Wait for the page's log to show ``n`` actions; the table holds them (and its start)."""
    page.wait_for_function(
        f"document.querySelectorAll('#log li.title').length >= {n}", timeout=10000
    )
    assert server.table.seq == n + 1


def test_the_order_moves_by_keys_and_by_drag_and_a_delay(server: Server, browser: Any) -> None:
    gm = _gm(server, browser)
    start = list(server.table.state.order)
    assert gm.locator("#roster li").evaluate_all("rows => rows.map(r => r.dataset.id)") == start
    gm.locator(f'#roster li[data-id="{start[1]}"]').focus()
    gm.keyboard.press("Alt+ArrowUp")
    _wait_seq(gm, server, 1)
    assert list(server.table.state.order) == [start[1], start[0], *start[2:]]
    gm.wait_for_selector(f'#roster li:first-child[data-id="{start[1]}"]')
    now = list(server.table.state.order)
    row = '#roster li[data-id="{}"] .roster-name'
    gm.locator(row.format(now[0])).drag_to(gm.locator(row.format(now[-1])))
    _wait_seq(gm, server, 2)
    assert list(server.table.state.order) == [*now[1:], now[0]]
    gm.wait_for_selector(f'#roster li:last-child[data-id="{now[0]}"]')
    now = list(server.table.state.order)
    gm.get_by_role("button", name=f"Delay {server.table.state.get(now[0]).name} to after").click()
    _wait_seq(gm, server, 3)
    assert list(server.table.state.order) == [now[1], now[0], *now[2:]]
    gm.locator("#roster-box").screenshot(path=str(SHOTS / "roster-order.png"))


def test_quick_hp_a_condition_a_copy_and_a_secret_roll(server: Server, browser: Any) -> None:
    gm = _gm(server, browser)
    pat = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True).new_page()
    pat.goto(f"{server.base}/t/{server.ana}")
    pat.wait_for_selector("#order li", state="attached")  # folded on a phone (folds.js)
    pat.locator("#map-box > h2 > button.fold").tap()  # the map unfolded: its tokens seen
    gm.locator('.token[data-id="bo"]').click()  # no action chosen: picks Bo
    gm.wait_for_function("document.getElementById('quick-who').innerText.startsWith('Bo:')")
    assert gm.evaluate("document.activeElement.id") == "quick-hp"
    gm.keyboard.type("-5")
    gm.keyboard.press("Enter")
    _wait_seq(gm, server, 1)
    assert server.table.state.get("bo").hp == 7
    gm.fill("#quick-hp", "+3")
    gm.press("#quick-hp", "Enter")
    _wait_seq(gm, server, 2)
    assert server.table.state.get("bo").hp == 10
    gm.fill("#quick-hp", "abc")
    gm.press("#quick-hp", "Enter")
    gm.wait_for_selector("#notice:not([hidden])")
    assert gm.locator("#notice").inner_text() == "abc: type -5 to take 5 HP off, +3 to give 3 back"
    assert server.table.seq == 3

    # DC-29: burning, from the ruleset's list, for 3 turns: a badge that says so
    assert gm.locator("#cond-name option").all_inner_texts() == ["burning", "another (a free mark)"]
    gm.select_option("#cond-name", "burning")
    gm.fill("#cond-turns", "3")
    gm.get_by_role("button", name="Set condition").click()
    _wait_seq(gm, server, 3)
    assert dict(server.table.state.get("bo").statuses["burning"])["turns"] == 3
    badge = gm.locator('.token[data-id="bo"] .badge')
    badge.first.wait_for()
    assert badge.first.text_content() == "burning 3"

    # a copy of Bo joins at 6, 5 with full HP
    gm.select_option("#add-copy", "bo")
    gm.fill("#add-name", "Bo Two")
    gm.fill("#add-at", "6, 5")
    gm.get_by_role("button", name="Add to the fight").click()
    _wait_seq(gm, server, 4)
    twin = server.table.state.get("bo-two")
    assert (twin.name, twin.at, twin.hp) == ("Bo Two", (6, 5), 12)
    gm.wait_for_selector('.token[data-id="bo-two"]')

    # a secret roll: the game master's log has it, the player's page never
    gm.fill("#roll-notation", "3d6+2")
    gm.check("#roll-secret")
    gm.get_by_role("button", name="Roll", exact=True).click()
    _wait_seq(gm, server, 5)
    gm.wait_for_function("document.getElementById('log').innerText.includes('3d6+2')")
    pat.wait_for_selector('.token[data-id="bo-two"]')
    assert "3d6+2" not in pat.locator("#log").inner_text()
    pat.locator("#roll-box > h2 > button.fold").tap()  # the player's dice unfolded
    assert pat.locator("#roll-notation").is_visible()
    assert pat.locator("#roster-box").is_hidden() and pat.locator("#roll-secret").is_hidden()
    gm.locator("#roster-box").screenshot(path=str(SHOTS / "roster-gm.png"))
    gm.locator("#roll-box").screenshot(path=str(SHOTS / "roller-gm.png"))


def test_a_free_mark_chosen_stays_chosen_when_the_table_moves_on(
    server: Server, browser: Any
) -> None:
    # the condition's select is drawn again at every change of the table: the game
    # master's "another (a free mark)" stays chosen (it fell back to burning, DC-29)
    gm = _gm(server, browser)
    gm.locator('.token[data-id="bo"]').click()
    gm.wait_for_function("document.getElementById('quick-who').innerText.startsWith('Bo:')")
    gm.select_option("#cond-name", "")
    gm.fill("#cond-free", "spotted")
    gm.fill("#quick-hp", "-1")
    gm.press("#quick-hp", "Enter")  # the table moves on; the page is drawn again
    _wait_seq(gm, server, 1)
    gm.wait_for_function("document.body.dataset.seq === '2'")
    assert gm.input_value("#cond-name") == "" and gm.locator("#cond-free").is_visible()
    gm.fill("#cond-turns", "2")
    gm.get_by_role("button", name="Set condition").click()
    _wait_seq(gm, server, 2)
    assert dict(server.table.state.get("bo").statuses) == {"spotted": {"turns": 2}}


def test_ES_12_a_condition_from_escalations_list_is_set_shown_and_taken_off(
    tmp_path: Path, browser: Any
) -> None:
    """escalation's 12 standard conditions (ES-G1) are on the sheet, not statuses: the
    game master picks one from the list, the token shows its badge, Clear takes it off."""
    text = (EXAMPLE.parent / "escalation.yaml").read_text().split("actions:")[0]
    server = Server(tmp_path, text)
    try:
        gm = _gm(server, browser)
        names = gm.locator("#cond-name option").all_inner_texts()
        assert names[:2] == ["dead", "bleeding"] and "prone" in names and len(names) == 14
        gm.get_by_role("button", name="Pick Ogre for quick HP and conditions").click()
        gm.wait_for_function("document.getElementById('quick-who').innerText.startsWith('Ogre:')")
        gm.select_option("#cond-name", "dazed")
        assert "ES-G1" in gm.locator("#cond-help").inner_text()
        assert gm.locator("#cond-turns").is_hidden()  # a condition counts no turns (ES-13)
        gm.get_by_role("button", name="Set condition").click()
        _wait_seq(gm, server, 1)
        assert server.table.state.get("ogre").sheet.conditions == ("dazed",)
        badge = gm.locator('.token[data-id="ogre"] .badge')
        badge.first.wait_for()
        assert badge.all_text_contents() == ["dazed"]
        gm.locator('.token[data-id="ogre"]').screenshot(path=str(SHOTS / "condition-badge.png"))
        gm.get_by_role("button", name="Clear it").click()
        _wait_seq(gm, server, 2)
        assert server.table.state.get("ogre").sheet.conditions == ()
        gm.wait_for_function(
            "!document.querySelector('.token[data-id=\"ogre\"] .badge')", timeout=10000
        )
    finally:
        server.stop()


def test_one_selection_for_every_game_master_tool(server: Server, browser: Any) -> None:
    """Issue 35, item 5: the game master's select, the roster's Pick and a token's click
    choose the same combatant: a condition set after choosing Cy in the select goes to
    Cy (it went to whoever the roster had picked), and a Pick in the roster moves the
    select."""
    gm = _gm(server, browser)
    gm.get_by_role("button", name="Pick Bo for quick HP and conditions").click()
    gm.wait_for_function("document.getElementById('quick-who').innerText.startsWith('Bo:')")
    assert gm.locator("#gm-who").input_value() == "bo"
    gm.select_option("#gm-who", "cy")  # the game-master box's select
    gm.wait_for_function("document.getElementById('quick-who').innerText.startsWith('Cy:')")
    assert "picked" in (gm.locator('#roster li[data-id="cy"]').get_attribute("class") or "")
    seq = server.table.seq
    gm.select_option("#cond-name", "burning")
    gm.get_by_role("button", name="Set condition").click()
    gm.wait_for_function(f"document.body.dataset.seq === '{seq + 1}'")
    assert "burning" in server.table.state.get("cy").statuses
    assert "burning" not in server.table.state.get("bo").statuses
    gm.fill("#quick-hp", "-2")
    gm.press("#quick-hp", "Enter")
    gm.wait_for_function(f"document.body.dataset.seq === '{seq + 2}'")
    cy = server.table.state.get("cy")
    assert cy.hp == cy.max_hp - 2 and server.table.state.get("bo").hp == 12
