"""The seed's tracker as written (issue 22, item 6), in Debian's Chromium. DC-A5: "press
Gun range to see your throw range, 15 tiles and 20 tiles as rings": the button so
named draws the throw range (DC-17: 10 tiles, 15 with Strong Arm) and the 15 and 20
tile rings, labelled; the map's tiles keep their size (issue 35: the map grows to hold
the rings, and the view stays on the map's own tiles), and Fit shows every ring's label
on screen. DC-11: the
scrap line sits on the weapon and only where it applies: a scrap pistol has it (it
opens on a tap), a scrap knife swung in melee has none; the equip choice names the scrap
item and carries its line likewise."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.test_browser import NEEDS_CHROMIUM, SHOTS, Server

pytestmark = NEEDS_CHROMIUM
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
SCRAP = """\
ruleset: dice-combat
seed: 3
order: [ana, bo]
combatants:
  - {id: ana, name: Ana, side: players, at: [0, 0], hand: {is: pistol, scrap: true}}
  - {id: bo, name: Bo, side: raiders, at: [3, 2], hand: {is: knife, scrap: true}}
"""


def test_gun_range_draws_the_throw_15_and_20_rings_labelled_on_screen(
    tmp_path: Path, browser: Any
) -> None:
    server = Server(tmp_path, SCRAP)
    try:
        pat = browser.new_context(**PHONE).new_page()
        pat.goto(f"{server.base}/t/{server.ana}")
        pat.wait_for_selector("#order li", state="attached")  # folded on a phone (folds.js)
        pat.locator("#map-box > h2 > button.fold").tap()  # the map unfolded
        disc = pat.locator('.token[data-id="ana"] .disc')
        before = disc.bounding_box()
        button = pat.get_by_role("button", name="Gun range")
        button.tap()
        after = disc.bounding_box()
        assert before is not None and after is not None
        assert abs(after["width"] - before["width"]) < 0.5, (before, after)  # no tile shrank
        rings = pat.locator("#rings .range-ring")
        labels = [
            (r.get_attribute("data-label"), r.get_attribute("data-tiles")) for r in rings.all()
        ]
        assert labels == [
            ("pistol close", "5"),
            ("pistol medium", "12"),
            ("pistol long", "15"),
            ("throw", "10"),  # DC-17: no Strong Arm
            ("15 tiles", "15"),
            ("20 tiles", "20"),
        ]
        texts = pat.locator("#rings .range-label").all_text_contents()
        assert texts == [
            "pistol close 5",
            "pistol medium 12",
            "pistol long 15 · 15 tiles",
            "throw 10",
            "20 tiles",
        ]
        pat.get_by_role("button", name="Fit").tap()  # the whole map, every ring on it
        svg = pat.locator("#map").bounding_box()
        for label in pat.locator("#rings .range-label").all():
            box = label.bounding_box()
            assert box is not None and box["width"] > 0
            assert svg["x"] <= box["x"] and box["x"] + box["width"] <= svg["x"] + svg["width"] + 0.5
            assert (
                svg["y"] <= box["y"] and box["y"] + box["height"] <= svg["y"] + svg["height"] + 0.5
            )
        legend = pat.locator("#ranges-legend").inner_text()
        assert legend.endswith("; rings: throw 10, 15 tiles 15, 20 tiles 20")
        width = pat.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width} px wide on a 390 px phone"
        pat.locator("#map-box").screenshot(path=str(SHOTS / "gun-range-390.png"))
    finally:
        server.stop()


def test_the_scrap_line_sits_on_a_scrap_pistol_and_not_on_a_scrap_knife_in_melee(
    tmp_path: Path, browser: Any
) -> None:
    server = Server(tmp_path, SCRAP)
    try:
        gm = browser.new_context(**PHONE).new_page()
        gm.goto(f"{server.base}/t/{server.gm}")
        gm.wait_for_selector("#order li")
        tips = gm.locator("#order .gear-tip")
        assert tips.all_inner_texts() == ["scrap pistol 8/8 ⓘ"]  # Bo's knife: none (DC-11)
        bo = gm.locator("#order li", has_text="Bo").first
        assert "scrap knife" in bo.inner_text() and bo.locator(".gear-tip").count() == 0
        assert "Scrap" not in bo.inner_text()
        note = gm.locator("#order .gear-note")
        assert note.is_hidden()
        tips.first.tap()
        assert note.is_visible() and note.inner_text() == (
            "scrap pistol: 1 less damage, never below the floor (DC-11, DC-26)"
        )
        assert tips.first.get_attribute("aria-expanded") == "true"
        gm.locator("#order-box").screenshot(path=str(SHOTS / "scrap-tip-390.png"))
    finally:
        server.stop()


EQUIP = """\
ruleset: dice-combat
seed: 3
order: [ana, bo]
combatants:
  - id: ana
    name: Ana
    side: players
    at: [0, 0]
    hand: knife
    inventory: [{is: knife, scrap: true}, {is: revolver, scrap: true}, pistol]
  - {id: bo, name: Bo, side: raiders, at: [3, 2], hand: knife}
"""


def test_the_equip_choice_names_the_scrap_item_and_its_line_opens_on_a_tap(
    tmp_path: Path, browser: Any
) -> None:
    """Item 6: "the equip choice 'item: knife' does not say which knife is the scrap
    one": it says "knife (scrap)", with no scrap line (DC-11: melee is unaffected); the
    scrap revolver's line sits on it and opens on a tap; the plain pistol has none."""
    server = Server(tmp_path, EQUIP)
    try:
        pat = browser.new_context(**PHONE).new_page()
        pat.goto(f"{server.base}/t/{server.ana}")
        pat.wait_for_selector("#actions button")
        pat.locator("#actions button", has_text="Equip").tap()
        item = pat.locator("#actions select[aria-label='item']")
        assert item.locator("option").all_inner_texts() == [
            "item: knife (scrap)",
            "item: revolver (scrap)",
            "item: pistol",
        ]
        tip = pat.locator("#actions .choice-tip")
        assert item.input_value() == "knife" and tip.is_hidden()  # swung: no line (DC-11)
        item.select_option("revolver")
        button = tip.locator(".gear-tip")
        assert button.inner_text() == "revolver (scrap) ⓘ"
        note = tip.locator(".gear-note")
        assert note.is_hidden()
        button.tap()
        assert note.is_visible() and note.inner_text() == (
            "scrap revolver: 1 less damage, never below the floor (DC-11, DC-26)"
        )
        assert button.get_attribute("aria-expanded") == "true"
        pat.locator("#actions").screenshot(path=str(SHOTS / "scrap-equip-tip-390.png"))
        item.select_option("pistol")
        assert tip.is_hidden()
    finally:
        server.stop()
