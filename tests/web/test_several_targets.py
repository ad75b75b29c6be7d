"""An attack on several targets from the page (escalation's Whelm, ES-3, ES-G6: the
attacker lists up to three, each with its own trigger die, ES-8): the game master ticks
Ogre and Gob, hovers the button for both targets' exact odds (the server's own), and
presses it; the log shows one attack with a trigger per target."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fracas.model import Action
from tests.web.test_browser import CHROMIUM, SHOTS, Server

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium on the PATH (`apt-get install -y chromium`)"
)
EXAMPLE = Path(__file__).parents[2] / "examples" / "escalation.yaml"


def test_the_game_master_whelms_two_targets_with_their_odds(tmp_path: Path, browser: Any) -> None:
    server = Server(tmp_path, EXAMPLE.read_text().split("actions:")[0])
    try:
        gm = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        gm.goto(f"{server.base}/t/{server.gm}")
        gm.wait_for_selector("#order li")
        gm.get_by_role("button", name="End turn").first.click()  # Ana's turn: Cy's next
        gm.wait_for_function("document.querySelector('#turn').textContent.includes(\"Cy's turn\")")
        gm.get_by_role("button", name="Attack", exact=True).click()
        several = gm.locator("fieldset.several")
        go = gm.locator("#act-several")
        assert go.is_disabled() and "tick two or more" in go.inner_text()
        several.get_by_label("Ogre").check()
        several.get_by_label("Gob").check()
        assert go.is_enabled() and go.inner_text() == "Attack Ogre, Gob"
        go.hover()
        gm.wait_for_selector("#odds .blast-odds[data-id='gob'] .odds-line")
        text = gm.locator("#odds").inner_text()
        assert "Attack Ogre, Gob: exact odds" in text
        whelm = Action("cy", "attack", params={"targets": ["ogre", "gob"]})
        expected = server.table.odds(whelm).to_json()
        assert expected["paths"] == 3 + 3  # each target's trigger: miss, hit, crit
        for cid in ("ogre", "gob"):
            line = gm.locator(f"#odds .blast-odds[data-id='{cid}'] .odds-line").inner_text()
            assert f"hit {100 * expected['combatants'][cid]['hit']:.1f}%" in line
            assert f"mean damage {expected['combatants'][cid]['mean']:.2f}" in line
        assert f"{expected['paths']} dice paths, exact" in text
        gm.screenshot(path=str(SHOTS / "gm-several-targets.png"), full_page=True)
        seq = server.table.seq
        go.click()
        gm.wait_for_selector("#log li:has-text('Cy attacks Ogre, Gob with the fireball')")
        assert server.table.seq == seq + 1
        assert server.table.log[-1].action == whelm
        log = gm.locator("#log").inner_text()
        assert "vs Ogre: failure 3" in log and "vs Gob: failure 6" in log
    finally:
        server.stop()
