"""Issue 36, "Rosters in and out", in a real browser (Debian's Chromium): a game master
imports a CSV roster on the setup page (first a file with bad cells: each listed by row
and column, the form left as it was; then a good one whose two columns name no field:
the page offers a labelled choice of field for each, "leave it out" or the sheet's
fields, and imports it again with the choices, which fills the form), starts the
encounter, and downloads its log as Markdown from the game master's page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.test_browser import NEEDS_CHROMIUM, Server

pytestmark = NEEDS_CHROMIUM

GOOD = """\
Name,Player,Side,X,Y,Hand,Inventory,Cover,Fortune,Traits
Ana,Kim,players,0,0,"{is: pistol, loaded: 6}","knife, club",,,"gunslinger, spotter"
Bo,,raiders,3,1,club,,true,lucky,
"""
"""Two columns that name no field: ``Player`` (left out) and ``Fortune`` (DC sheets'
``luck``)."""
BAD = "Name,Side,HP\nAna,players,lots\nBo,raiders,99\n"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path, setup=True)
    yield s
    s.stop()


def _csv(name: str, text: str) -> dict[str, Any]:
    return {"name": name, "mimeType": "text/csv", "buffer": text.encode()}


def test_a_csv_roster_fills_the_setup_form_and_the_log_downloads_as_markdown(
    server: Server, browser: Any, tmp_path: Path
) -> None:
    page = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.base}/setup/{server.setup}")
    page.wait_for_selector("fieldset.combatant")

    page.set_input_files("#roster-file", files=[_csv("bad.csv", BAD)])
    page.wait_for_selector("#roster-result li")
    assert page.locator("#roster-result li").all_inner_texts() == [
        "row 2, column HP: 'lots': input should be a valid integer, unable to "
        "parse string as an integer",
        "row 3, column HP: hp 99 is above max_hp 12: give 0..12",
    ]
    assert page.locator("fieldset.combatant").count() == 2  # the form as it was

    page.set_input_files("#roster-file", files=[_csv("party.csv", GOOD)])
    page.wait_for_selector("#roster-map:not([hidden])")
    assert page.locator("#roster-result").inner_text() == (
        "2 columns of party.csv name no field of dice-combat: choose below what each holds, "
        "then import again. Nothing imported yet."
    )
    player, fortune = (page.get_by_label(f"Column “{c}” holds") for c in ("Player", "Fortune"))
    assert player.evaluate("s => s === document.activeElement")  # the next step has the focus
    assert player.input_value() == fortune.input_value() == "-"  # "leave it out"
    assert fortune.locator("option").all_inner_texts()[:4] == ["leave it out", "id", "name", "side"]
    fortune.select_option("luck")
    page.get_by_role("button", name="Import with these columns").press("Enter")
    page.wait_for_function(
        "document.getElementById('roster-result').innerText === "
        "'2 combatants imported from party.csv.'"
    )
    assert page.locator("#roster-map").is_hidden()
    ana, bo = (page.locator("fieldset.combatant").nth(i) for i in (0, 1))
    assert ana.get_by_label("name", exact=True).input_value() == "Ana"
    assert ana.get_by_label("hand: more fields").input_value() == "loaded: 6"
    assert ana.get_by_label("inventory 2: short-hand").input_value() == "club"
    assert bo.get_by_label("at x").input_value() == "3"
    assert bo.get_by_label("cover").is_checked()
    assert bo.get_by_label("luck").input_value() == "lucky"
    page.fill("#enc-name", "yard")
    page.get_by_role("button", name="Start the encounter").click()
    page.wait_for_url(f"{server.base}/t/*")
    page.wait_for_selector("#links-box:not([hidden])")
    table = server.tables.open("yard")
    assert table.state.get("bo").at == (3, 1) and table.state.get("bo").sheet.cover is True
    assert table.state.get("ana").sheet.traits == ("gunslinger", "spotter")

    for link, name in (("#log-md", "yard-players.md"), ("#log-md-gm", "yard-gm.md")):
        with page.expect_download() as got:
            page.click(link)
        assert got.value.suggested_filename == name
        saved = tmp_path / name
        got.value.save_as(saved)
        lines = saved.read_text(encoding="utf-8").splitlines()
        assert lines[0] == "# yard: Dice Combat - Weapons & Damage"
        assert lines[-1] == "**Result:** The fight goes on (round 1)."
    assert errors == []
