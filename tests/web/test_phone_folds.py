"""Issue 35, "a layout that is a table", in Debian's Chromium: on a touch phone a
player's page shows her own turn first (actions, targets, the odds and Confirm in one
screen) and the rest folded (folds.js): the map, the turn order, the log and every
other panel behind a heading that is a disclosure button (``aria-expanded``), one tap,
or Enter, to unfold each; a fold stays as it was set when another page's action redraws
the page; folded, a heading says what matters (whose turn, her HP, the latest log line).
The page is short (one screen: 555 px of a 844 px phone for the example's start, where
every panel open made it 1278), no page scrolls sideways at 360 px, and a desktop folds
nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fracas.model import Action
from tests.web.test_browser import NEEDS_CHROMIUM, SHOTS, Server

pytestmark = NEEDS_CHROMIUM
ROOT = Path(__file__).parents[2]
HEIGHT = 844
PHONE = {"viewport": {"width": 390, "height": HEIGHT}, "has_touch": True, "is_mobile": True}
FOLDED = ("#map-box", "#order-box", "#log-box", "#policy-box", "#roll-box")
SHORT = 700
"""px: the bottom of a player's folded page at the example's start, at most (555 px
measured; 1278 px with every panel open)."""


def _in_view(page: Any, selector: str) -> None:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    assert box["y"] >= 0 and box["y"] + box["height"] <= HEIGHT, (
        selector,
        box,
    )


def _fold(page: Any, panel: str) -> Any:
    return page.locator(f"{panel} > h2 > button.fold")


def _said(page: Any, panel: str) -> str:
    """The panel's heading: its fold's name and, folded, its line."""
    text: str = page.locator(f"{panel} > h2").inner_text()
    return text


def _synced(page: Any, seq: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.seq) >= {seq}")


def test_a_players_phone_shows_her_turn_and_folds_the_rest(server: Server, browser: Any) -> None:
    s = server
    pat = browser.new_context(**PHONE).new_page()
    pat.goto(f"{s.base}/t/{s.ana}")
    pat.wait_for_selector("#order li", state="attached")
    for panel in FOLDED:  # folded: the heading a button, the panel's content hidden
        assert _fold(pat, panel).get_attribute("aria-expanded") == "false", panel
        assert pat.locator(panel).evaluate("e => e.classList.contains('folded')"), panel
    for inner in ("#map", "#order", "#log", "#policy-words"):
        assert pat.locator(inner).is_hidden(), inner
    bottom = pat.evaluate("document.querySelector('main').getBoundingClientRect().bottom")
    assert bottom <= SHORT, bottom  # the page is short: one screen
    # folded, the headings say what matters
    assert "Ana's turn" in _said(pat, "#order-box")
    assert "Ana HP 12/12" in _said(pat, "#order-box")
    last = pat.locator("#log li").last.evaluate("li => li.firstChild.textContent")
    assert last and last in _said(pat, "#log-box")
    SHOTS.mkdir(exist_ok=True)
    pat.screenshot(path=str(SHOTS / "phone-folds.png"), full_page=True)

    # her turn: actions, targets, the odds and Confirm in one screen
    pat.get_by_role("button", name="Attack", exact=True).tap()
    pat.get_by_role("button", name="Attack Bo").tap()
    pat.wait_for_selector("#odds .odds-line")
    for part in ("#actions h3 + .row", "#actions .targets", "#odds", "#confirm-go"):
        _in_view(pat, part)
    assert pat.evaluate("window.scrollY") == 0
    pat.screenshot(path=str(SHOTS / "phone-folds-odds.png"))
    pat.get_by_role("button", name="Cancel", exact=True).tap()

    # a tap unfolds the log; another page's action redraws this one: it stays so
    _fold(pat, "#log-box").tap()
    assert _fold(pat, "#log-box").get_attribute("aria-expanded") == "true"
    assert pat.locator("#log").is_visible()
    gm = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    gm.goto(f"{s.base}/t/{s.gm}")
    gm.wait_for_selector("#order li")
    seq = s.table.seq
    gm.locator("#end-turn").click()  # Ana's turn ends: Bo's, the game master's
    _synced(pat, seq + 1)
    pat.wait_for_function("document.getElementById('log').innerText.includes('Bo')")
    assert _fold(pat, "#log-box").get_attribute("aria-expanded") == "true"
    assert pat.locator("#log").is_visible()
    assert _fold(pat, "#order-box").get_attribute("aria-expanded") == "false"
    assert pat.locator("#map").is_hidden()
    # not her turn: the folded order says whose it is
    assert "Bo's turn" in _said(pat, "#order-box")
    # the desktop's page folds nothing
    assert gm.locator("button.fold").count() == 0
    assert gm.locator("section.folded").count() == 0
    assert gm.locator("#map").is_visible() and gm.locator("#log").is_visible()
    pat.screenshot(path=str(SHOTS / "phone-folds-not-her-turn.png"), full_page=True)


def test_a_fold_is_a_button_for_the_keyboard_and_a_screen_reader(
    server: Server, browser: Any
) -> None:
    s = server
    pat = browser.new_context(**PHONE).new_page()
    pat.goto(f"{s.base}/t/{s.ana}")
    pat.wait_for_selector("#order li", state="attached")
    order = pat.get_by_role("button", name="Turn order", exact=True)  # named by its heading
    assert order.get_attribute("aria-expanded") == "false"
    assert order.get_attribute("aria-controls") == "order-box"
    said = order.evaluate("b => document.getElementById(b.getAttribute('aria-describedby'))")
    assert said is not None  # its line describes it
    assert "Ana's turn" in pat.locator("#order-box-sum").inner_text()
    order.focus()
    pat.keyboard.press("Enter")
    assert order.get_attribute("aria-expanded") == "true"
    assert pat.locator("#order").is_visible()
    # the table moves on: the redraw keeps the fold open and the focus on its button
    seq = s.table.seq
    s.table.act(Action("cy", "damage", params={"amount": 1}))  # the game master writes
    _synced(pat, seq + 1)
    assert order.get_attribute("aria-expanded") == "true"
    assert pat.evaluate("document.activeElement.dataset.key") == "fold:order-box"
    pat.keyboard.press(" ")  # Space folds it again
    assert order.get_attribute("aria-expanded") == "false"
    assert pat.locator("#order").is_hidden()


def test_a_tile_to_aim_at_unfolds_the_map(tmp_path: Path, browser: Any) -> None:
    from tests.web.test_browser import MOLOTOV

    s = Server(tmp_path, MOLOTOV)
    try:
        link = s.links.add("fight", "Kim", ["bo"])[1]  # Bo throws the Molotov
        kim = browser.new_context(**PHONE).new_page()
        kim.goto(f"{s.base}/t/{link}")
        kim.wait_for_selector("#order li", state="attached")
        assert kim.locator("#map").is_hidden()
        kim.get_by_role("button", name="Throw", exact=True).tap()
        kim.wait_for_selector("#map.aiming")
        assert _fold(kim, "#map-box").get_attribute("aria-expanded") == "true"
        assert kim.locator("#map .token").first.is_visible()
    finally:
        s.stop()


def test_no_sideways_scroll_at_360_px_and_the_desktop_folds_nothing(
    tmp_path: Path, browser: Any
) -> None:
    s = Server(tmp_path, (ROOT / "examples" / "start" / "wasteland.yaml").read_text())
    try:
        narrow = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
        pat = browser.new_context(**narrow).new_page()
        pat.goto(f"{s.base}/t/{s.ana}")
        pat.wait_for_selector("#order li", state="attached")
        assert pat.locator("section.folded").count() >= len(FOLDED)
        assert pat.evaluate("document.documentElement.scrollWidth") <= 360
        for panel in FOLDED:  # each unfolded in turn, still no sideways scroll
            _fold(pat, panel).tap()
            width = pat.evaluate("document.documentElement.scrollWidth")
            assert width <= 360, (panel, width)
        # nothing folds at a desk, in a narrow window under a mouse, nor on the game
        # master's phone (the table's tools are the page)
        for who, options in (
            (s.ana, {"viewport": {"width": 1280, "height": 800}}),
            (s.ana, {"viewport": {"width": 390, "height": 844}}),
            (s.gm, narrow),
        ):
            page = browser.new_context(**options).new_page()
            page.goto(f"{s.base}/t/{who}")
            page.wait_for_selector("#order li")
            assert page.locator("button.fold").count() == 0, options
            assert page.locator("section.folded").count() == 0, options
            for inner in ("#map", "#order", "#log"):
                assert page.locator(inner).is_visible(), (inner, options)
    finally:
        s.stop()
