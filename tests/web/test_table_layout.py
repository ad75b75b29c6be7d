"""Issue 35, "a layout that is a table", in Debian's Chromium: on a 1280x800 desktop the
game master's first screen holds the map and, beside it, the turn order, the latest log
and the actions of whoever acts (no scrolling to follow the fight); on a 390x844 touch
phone a player's actions come first, and after a tap on a target the exact odds and
Confirm are in view together; no page scrolls sideways at 360 px."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.test_browser import NEEDS_CHROMIUM, SHOTS, Server

pytestmark = NEEDS_CHROMIUM
ROOT = Path(__file__).parents[2]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def _box(page: Any, selector: str) -> dict[str, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return dict(box)


@pytest.mark.parametrize("example", ["dice-combat", "wasteland"])
def test_the_desktop_first_screen_is_the_table(tmp_path: Path, browser: Any, example: str) -> None:
    text = (ROOT / "examples" / "start" / f"{example}.yaml").read_text()
    s = Server(tmp_path, text)
    try:
        gm = browser.new_context(viewport=DESKTOP).new_page()
        gm.goto(f"{s.base}/t/{s.gm}")
        gm.wait_for_selector("#order li")
        gm.wait_for_selector("#actions button")
        assert gm.evaluate("window.scrollY") == 0
        board = _box(gm, "#map-box")
        assert board["y"] < DESKTOP["height"] / 10 and board["x"] < 20
        for part in ("#order-box", "#log-box", "#act-box"):
            box = _box(gm, part)
            assert box["x"] >= board["x"] + board["width"], part  # beside the map
            assert box["y"] + box["height"] <= DESKTOP["height"], (part, box)  # on screen
        # the table first, the game master's tools after it
        assert _box(gm, "#gm-box")["y"] > _box(gm, "#act-box")["y"]
        gm.screenshot(path=str(SHOTS / f"layout-desktop-{example}.png"))
    finally:
        s.stop()


def test_a_phone_shows_its_actions_first_and_the_odds_beside_confirm(
    server: Server, browser: Any
) -> None:
    s = server
    pat = browser.new_context(**PHONE).new_page()
    pat.goto(f"{s.base}/t/{s.ana}")
    pat.wait_for_selector("#order li", state="attached")  # folded on a phone (folds.js)
    assert _box(pat, "#act-box")["y"] < _box(pat, "#map-box")["y"]
    pat.get_by_role("button", name="Attack", exact=True).tap()
    pat.get_by_role("button", name="Attack Bo").tap()
    pat.wait_for_selector("#odds .odds-line")
    top, bottom = pat.evaluate("window.scrollY"), pat.evaluate("window.scrollY + innerHeight")
    odds, confirm = _box(pat, "#odds"), _box(pat, "#confirm-go")
    for name, box in (("odds", odds), ("confirm", confirm)):
        page_y = box["y"] + top  # bounding boxes are in the viewport's coordinates
        assert top <= page_y and page_y + box["height"] <= bottom, (name, box, top)
    pat.screenshot(path=str(SHOTS / "layout-phone-confirm.png"))


def test_no_page_scrolls_sideways_at_360_px(tmp_path: Path, browser: Any) -> None:
    s = Server(tmp_path, (ROOT / "examples" / "start" / "wasteland.yaml").read_text())
    try:
        narrow = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
        for token in (s.gm, s.ana):
            page = browser.new_context(**narrow).new_page()
            page.goto(f"{s.base}/t/{token}")
            page.wait_for_selector("#order li", state="attached")  # folded on a phone (folds.js)
            page.wait_for_selector("#actions > *")  # the game master's buttons, or words
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 360, (token == s.gm, width)
    finally:
        s.stop()
