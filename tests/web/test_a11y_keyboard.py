"""Keyboard and screen readers (issue 12, item 13) on the pages as they are: Tab reaches
every control and each shows a visible focus; a player attacks by keyboard alone, the
odds announced on focus; the shortcuts (n, ctrl+z, ctrl+shift+z) act only when no input
has focus; HP is a meter with its values where the page may show them; the current
turn is marked with ``aria-current``; the log, the turn line, the tile counter and the
odds are polite live regions."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.test_browser import NEEDS_CHROMIUM
from tests.web.test_setup_browser import SetupServer

pytestmark = NEEDS_CHROMIUM

# Every control a keyboard should reach: enabled, rendered and not inside a closed
# <details> (checkVisibility), in the tab order. Each is numbered for the walk below.
NUMBER_CONTROLS = """() => {
  const all = [...document.querySelectorAll(
    'a[href], button, input, select, textarea, summary, [tabindex]')];
  const reachable = all.filter((e) => !e.disabled && e.tabIndex >= 0 && e.checkVisibility());
  reachable.forEach((e, i) => { e.dataset.k = String(i); });
  return reachable.length;
}"""
SETTLED = """() => new Promise((done) => {
  let quiet = setTimeout(done, 500);
  setTimeout(done, 5000);
  new MutationObserver(() => { clearTimeout(quiet); quiet = setTimeout(done, 500); })
    .observe(document.body, {subtree: true, childList: true});
})"""
"""Resolves once the page has drawn nothing new for 500 ms (at most 5 s): the links, the
win bar and the roster arrive after the first sync, and a control drawn again after
the count would lose its number."""
FOCUSED = """() => {
  const e = document.activeElement;
  const cs = getComputedStyle(e);
  return {k: e.dataset.k ?? null, visible: e.matches(':focus-visible'),
          outline: cs.outlineStyle, width: parseFloat(cs.outlineWidth),
          name: e.id || e.getAttribute('aria-label') || e.textContent.trim().slice(0, 40)};
}"""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[SetupServer]:
    s = SetupServer(tmp_path, win_bar=True)
    yield s
    s.stop()


def focused(page: Any) -> dict[str, Any]:
    out: dict[str, Any] = page.evaluate(FOCUSED)
    return out


def tab_to(page: Any, name: str, limit: int = 60) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if focused(page)["name"] == name:
            return
    raise AssertionError(f"Tab never reached {name!r}")


PAGES = {
    "gm": ("gm", "#order li"),
    "player": ("ana", "#order li"),
    "setup": ("setup", "fieldset.combatant"),
}


@pytest.mark.parametrize("which", list(PAGES))
def test_tab_reaches_every_control_and_each_shows_its_focus(
    server: SetupServer, browser: Any, which: str
) -> None:
    attr, ready = PAGES[which]
    path = f"/setup/{server.setup}" if which == "setup" else f"/t/{getattr(server, attr)}"
    page = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    page.goto(server.base + path)
    page.wait_for_selector(ready)
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    page.evaluate(SETTLED)
    count = page.evaluate(NUMBER_CONTROLS)
    assert count > 10
    reached: dict[str, dict[str, Any]] = {}
    for _ in range(count + 2):
        page.keyboard.press("Tab")
        now = focused(page)
        if now["k"] is not None:
            reached[now["k"]] = now
    assert sorted(map(int, reached)) == list(range(count))
    unseen = [f["name"] for f in reached.values() if not (f["visible"] and f["outline"] != "none")]
    assert unseen == [], "focused without a visible outline"
    assert min(f["width"] for f in reached.values()) >= 2
    page.context.close()


def test_a_player_attacks_by_keyboard_alone_the_odds_announced(
    server: SetupServer, browser: Any
) -> None:
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(f"{server.base}/t/{server.ana}")
    page.wait_for_selector("#order li")
    tab_to(page, "Attack")
    page.keyboard.press("Enter")
    page.wait_for_selector("button[data-target='bo']")
    tab_to(page, "Attack Bo")
    page.wait_for_selector("#odds .odds-line")
    # the odds sit in a polite live region that is always there (not hidden itself)
    live = page.locator("#odds-live")
    assert live.get_attribute("aria-live") == "polite" and live.is_visible()
    expected = server.table.odds(_attack()).to_json()["combatants"]["bo"]
    assert f"hit {100 * expected['hit']:.1f}%" in page.locator("#odds").inner_text()
    seq = server.table.seq
    page.keyboard.press("Enter")
    page.wait_for_function(f"document.querySelectorAll('#log li.title').length >= {seq}")
    assert server.table.seq == seq + 1 and server.table.log[-1].by == "Pat"
    page.context.close()


def _attack() -> Any:
    from fracas.model import Action

    return Action("ana", "attack", "bo")


def test_shortcuts_act_only_when_no_input_has_focus_and_the_turn_is_marked(
    server: SetupServer, browser: Any
) -> None:
    page = browser.new_context().new_page()
    page.goto(f"{server.base}/t/{server.gm}")
    page.wait_for_selector("#order li")
    current = "document.querySelector('#order li[aria-current=\"true\"] strong').innerText"
    assert page.evaluate(current) == "Ana"
    assert page.locator("#order li[aria-current]").count() == 1
    assert (
        page.locator('.token[data-id="ana"]')
        .get_attribute("aria-label")
        .endswith("acting now at 0, 0")
    )
    seq = server.table.seq
    page.focus("#gm-status")
    page.keyboard.type("n")
    page.keyboard.press("Control+z")
    page.wait_for_timeout(300)
    assert server.table.seq == seq  # typing in a field: no shortcut
    assert page.input_value("#gm-status") == ""  # ctrl+z undid the typing, in the field
    page.locator("body").click(position={"x": 2, "y": 2})
    page.keyboard.press("n")
    page.wait_for_function(f"{current} === 'Bo'")
    assert server.table.seq == seq + 1 and server.table.state.turn.actor == "bo"
    assert page.locator('.token[data-id="bo"]').get_attribute("aria-label").find("acting now") > 0
    assert "acting now" not in page.locator('.token[data-id="ana"]').get_attribute("aria-label")
    page.keyboard.press("Control+z")
    page.wait_for_function(f"{current} === 'Ana'")
    page.keyboard.press("Control+Shift+z")
    page.wait_for_function(f"{current} === 'Bo'")
    assert [r.kind for r in server.table.log[seq:]] == ["action", "undo", "redo"]
    page.context.close()


def test_hp_is_a_meter_with_its_values_where_the_page_may_show_them(
    server: SetupServer, browser: Any
) -> None:
    gm = browser.new_context().new_page()
    gm.goto(f"{server.base}/t/{server.gm}")
    gm.wait_for_selector("#order li")
    for c in server.table.state.combatants.values():
        meter = gm.get_by_role("meter", name=f"{c.name}'s HP")
        assert meter.count() == 1
        assert (meter.get_attribute("value"), meter.get_attribute("max")) == (
            str(c.hp),
            str(c.max_hp),
        )
        assert meter.get_attribute("min") == "0"
    pat = browser.new_context().new_page()
    pat.goto(f"{server.base}/t/{server.ana}")
    pat.wait_for_selector("#order li")
    # Pat's side's HP as meters; the raiders' only as a label (no number to read out)
    assert pat.get_by_role("meter").count() == 2
    assert pat.get_by_role("meter", name="Ana's HP").get_attribute("value") == "12"
    assert pat.get_by_role("meter", name="Bo's HP").count() == 0
    bo = pat.locator("#order li").nth(1)  # the order: ana, bo, cy, dee
    assert bo.locator("strong").inner_text() == "Bo" and "HP healthy" in bo.inner_text()


def test_the_log_turn_tile_counter_and_odds_are_polite_live_regions(
    server: SetupServer, browser: Any
) -> None:
    page = browser.new_context().new_page()
    page.goto(f"{server.base}/t/{server.ana}")
    page.wait_for_selector("#order li")
    live = page.evaluate(
        "[...document.querySelectorAll('[aria-live]')]"
        ".map((e) => [e.id, e.getAttribute('aria-live')])"
    )
    assert live == [
        ["turn", "polite"],
        ["zoom-level", "polite"],
        ["tile-info", "polite"],
        ["die-question", "assertive"],  # a physical die asked for: said at once
        ["odds-live", "polite"],
        ["requests", "polite"],  # a player's request, its answer
        ["advisor-how", "polite"],  # the advisor's answer, how it was worked out
        ["log", "polite"],
    ]
    assert page.get_attribute("#log", "aria-relevant") == "additions"
    assert page.get_attribute("#notice", "role") == "alert"
    setup = browser.new_context().new_page()
    setup.goto(f"{server.base}/setup/{server.setup}")
    setup.wait_for_selector("fieldset.combatant")
    assert setup.get_attribute("#error", "role") == "alert"
    assert setup.get_attribute("#map-desc", "aria-live") == "polite"


def test_focus_stays_on_its_control_when_the_page_redraws(
    server: SetupServer, browser: Any
) -> None:
    # A keyboard user's place survives an update from the server (another page acting)
    # and choosing an action with Enter: the focused control is found again.
    page = browser.new_context().new_page()
    page.goto(f"{server.base}/t/{server.ana}")
    page.wait_for_selector("#order li")
    tab_to(page, "Attack")
    page.keyboard.press("Enter")
    page.wait_for_selector("button[data-target='bo']")
    assert focused(page)["name"] == "Attack"  # the chosen action's button, drawn anew
    tab_to(page, "Attack Bo")
    lines = page.evaluate("document.querySelectorAll('#log li').length")
    server.table.act(_damage("cy", 1))  # the game master writes: every page redraws
    page.wait_for_function(f"document.querySelectorAll('#log li').length > {lines}")
    page.wait_for_timeout(100)
    assert focused(page)["name"] == "Attack Bo"
    page.context.close()


def _damage(cid: str, amount: int) -> Any:
    from fracas.model import Action

    return Action(cid, "damage", params={"amount": amount})
