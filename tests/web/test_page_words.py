"""Words a game master reads on the page (issue 22, item 8), in Debian's Chromium: an
action with no target is pressed as "Reload now" (never "Reload: roll"); a parameter
reads as words ("defend edge: not given", never "defend_edge: none"); a refusal's
notice goes when the table moves on."""

from __future__ import annotations

from typing import Any

from fracas.table import Act
from tests.web.test_browser import NEEDS_CHROMIUM, Server

pytestmark = NEEDS_CHROMIUM


def test_actions_and_parameters_read_as_words(server: Server, browser: Any) -> None:
    pat = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    pat.goto(f"{server.base}/t/{server.ana}")
    pat.wait_for_selector("#order li")
    pat.get_by_role("button", name="Attack", exact=True).click()
    texts = pat.locator("#actions select option").all_inner_texts()
    assert "defend edge: not given" in texts and not any("_" in t for t in texts), texts
    assert pat.get_by_label("defend edge (asks the game master)", exact=True).count() == 1
    pat.get_by_role("button", name="Reload", exact=True).click()
    go = pat.locator("#actions .targets button")
    assert go.all_inner_texts() == ["Reload now"]
    assert ": roll" not in pat.locator("#actions").inner_text()


def test_a_refusals_notice_goes_when_the_table_moves_on(server: Server, browser: Any) -> None:
    pat = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    pat.goto(f"{server.base}/t/{server.ana}")
    pat.wait_for_selector("#order li")
    pat.evaluate(
        "async () => (await import('/static/state.js'))"
        ".send({type: 'act', action: {actor: 'bo', do: 'throw', target: 'ana'}})"
    )
    pat.wait_for_selector("#notice:not([hidden])")
    assert pat.locator("#notice").inner_text() == "Pat does not play Bo; its combatants: Ana"
    server.table.submit(Act({"actor": "ana", "do": "end_turn"}))
    pat.wait_for_selector("#notice", state="hidden")
