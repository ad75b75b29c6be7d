"""The table's policy on the page, in Debian's Chromium: a player's page offers no
control the policy refuses (no undo, no game master's panel, a judgement call marked as
a question to the game master); the game master accepts and refuses a player's request
with a click; the rules panel changes the table live (players may undo, and read so)."""

from __future__ import annotations

from typing import Any

from tests.web.test_browser import NEEDS_CHROMIUM, SHOTS, Server

pytestmark = NEEDS_CHROMIUM


def _pages(server: Server, browser: Any) -> tuple[Any, Any]:
    gm = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    pat = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True).new_page()
    gm.goto(f"{server.base}/t/{server.gm}")
    pat.goto(f"{server.base}/t/{server.ana}")
    gm.wait_for_selector("#order li")
    pat.wait_for_selector("#order li", state="attached")  # folded on a phone (folds.js)
    return gm, pat


def _attack_with_advantage(pat: Any) -> None:
    pat.get_by_role("button", name="Attack", exact=True).click()
    edge = pat.get_by_label("edge (asks the game master)", exact=True)
    edge.select_option("advantage")
    pat.get_by_role("button", name="Attack Bo").click()
    pat.wait_for_function(
        "document.getElementById('requests').innerText.includes('Waiting for the game master')"
    )


def test_a_players_page_offers_only_what_the_policy_allows(server: Server, browser: Any) -> None:
    gm, pat = _pages(server, browser)
    assert pat.locator("#gm-box").is_hidden() and pat.locator("#policy-form").is_hidden()
    assert pat.get_by_role("button", name="Undo").is_disabled()
    assert pat.get_by_role("button", name="Redo").is_disabled()
    words = pat.locator("#policy-words").inner_text()
    assert "only the game master undoes" in words
    assert "the game master makes every judgement call (players ask)" in words
    assert gm.locator("#policy-form").is_visible()
    pat.get_by_role("button", name="Attack", exact=True).click()
    assert pat.get_by_label("edge (asks the game master)", exact=True).count() == 1
    offered = pat.locator("#actions button").all_inner_texts()
    assert not {"Heal", "Damage", "Delay", "Initiative", "Policy", "Set"} & set(offered)


def test_the_game_master_answers_a_request_on_the_page(server: Server, browser: Any) -> None:
    gm, pat = _pages(server, browser)
    seq = server.table.seq
    _attack_with_advantage(pat)
    request = gm.locator("#requests li")
    request.wait_for()
    assert "Pat asks for advantage on Ana's attack" in request.inner_text()
    SHOTS.mkdir(exist_ok=True)
    gm.screenshot(path=str(SHOTS / "policy-request-gm.png"), full_page=True)
    pat.screenshot(path=str(SHOTS / "policy-request-player.png"), full_page=True)
    gm.get_by_role("button", name="Refuse").click()
    gm.locator("#requests-box").wait_for(state="hidden")
    pat.locator("#requests-box").wait_for(state="hidden")
    assert server.table.seq == seq and not server.table.requests

    _attack_with_advantage(pat)
    gm.get_by_role("button", name="Accept").click()
    pat.wait_for_function("document.getElementById('log').innerText.includes('Ana attacks Bo')")
    record = server.table.log[-1]
    assert server.table.seq == seq + 1 and record.by == "Pat"
    assert record.action is not None and record.action.params == {"edge": "advantage"}


def test_the_rules_panel_changes_the_table_live(server: Server, browser: Any) -> None:
    gm, pat = _pages(server, browser)
    gm.get_by_label("Players undo their own latest action when it rolled no die").check()
    pat.wait_for_function(
        "document.getElementById('policy-words').innerText.includes('players may undo')"
    )
    assert server.table.state.policy.player_undo
    pat.get_by_role("button", name="End turn").click()
    undo = pat.get_by_role("button", name="Undo")
    undo.wait_for(state="visible")
    pat.wait_for_function("!document.getElementById('undo').disabled")
    undo.click()
    taken = "Taken back: Ana ends its turn"
    pat.wait_for_function(f"document.getElementById('log').innerText.includes({taken!r})")
    assert server.table.log[-1].kind == "undo" and server.table.log[-1].by == "Pat"
    gm.get_by_label("Enemy HP players see").select_option("exact")
    pat.wait_for_function(
        "document.getElementById('policy-words').innerText.includes('enemy HP exactly')"
    )
    bo = pat.locator("#order li", has_text="Bo").first
    assert "12/12" in bo.inner_text()  # Bo's HP as a number now, on the player's page
    assert server.table.state.policy.enemy_hp == "exact"
    SHOTS.mkdir(exist_ok=True)
    gm.screenshot(path=str(SHOTS / "policy-panel-gm.png"), full_page=True)
