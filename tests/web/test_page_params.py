"""Parameters of an action from the page, in a real browser.

* Several targets (escalation's Whelm, ES-3, ES-G6: the attacker lists up to three,
  each with its own trigger die, ES-8): the game master ticks Gob, then Ogre, hovers the
  button for both targets' exact odds (the server's own), and presses it; the log
  shows one attack with a trigger per target.
* A yes-or-no parameter is a switch (soak's advantage, SK-4) and a whole number is
  typed in (its modifier): the hovered odds are those of the attack with both, and the
  attack taken has them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fracas.model import Action
from tests.web.test_browser import NEEDS_CHROMIUM, SHOTS, Server

pytestmark = NEEDS_CHROMIUM
EXAMPLES = Path(__file__).parents[2] / "examples"


@contextmanager
def attacking(tmp_path: Path, browser: Any, example: str, second: str) -> Iterator[Any]:
    """The game master's page (390 px) on ``example``'s start, the first turn ended:
    ``second``'s Attack chosen. Yields the server and the page."""
    server = Server(tmp_path, (EXAMPLES / example).read_text().split("actions:")[0])
    try:
        gm = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        gm.goto(f"{server.base}/t/{server.gm}")
        gm.wait_for_selector("#order li")
        gm.get_by_role("button", name="End turn").first.click()
        gm.wait_for_selector(f'#turn:has-text("{second}\'s turn")')
        gm.get_by_role("button", name="Attack", exact=True).click()
        yield server, gm
    finally:
        server.stop()


def test_the_game_master_whelms_two_targets_with_their_odds(tmp_path: Path, browser: Any) -> None:
    with attacking(tmp_path, browser, "escalation.yaml", "Cy") as (server, gm):
        several = gm.locator("fieldset.several")
        go = gm.locator("#act-several")
        assert go.is_disabled() and "tick two or more" in go.inner_text()
        several.get_by_label("Gob").check()
        several.get_by_label("Ogre").check()
        assert go.is_enabled() and go.inner_text() == "Attack Gob, Ogre"  # as ticked
        go.hover()
        gm.wait_for_selector("#odds .blast-odds[data-id='ogre'] .odds-line")
        text = gm.locator("#odds").inner_text()
        assert "Attack Gob, Ogre: exact odds" in text
        whelm = Action("cy", "attack", params={"targets": ["gob", "ogre"]})
        expected = server.table.odds(whelm).to_json()
        assert expected["paths"] == 3 + 3  # each target's trigger: miss, hit, crit
        for cid in ("ogre", "gob"):
            line = gm.locator(f"#odds .blast-odds[data-id='{cid}'] .odds-line").inner_text()
            assert f"hit {100 * expected['combatants'][cid]['hit']:.1f}%" in line
            assert f"mean damage {expected['combatants'][cid]['mean']:.2f}" in line
        assert f"{expected['paths']} dice paths, exact" in text
        shown = gm.locator("#odds .blast-odds").evaluate_all("bs => bs.map(b => b.dataset.id)")
        assert shown == ["gob", "ogre"]  # in the order ticked, not the page's
        gm.screenshot(path=str(SHOTS / "gm-several-targets.png"), full_page=True)
        seq = server.table.seq
        go.click()
        gm.wait_for_selector("#log li:has-text('Cy attacks Gob, Ogre with the fireball')")
        assert server.table.seq == seq + 1
        assert server.table.log[-1].action == whelm
        log = gm.locator("#log").inner_text()
        assert "vs Ogre: failure 3" in log and "vs Gob: failure 6" in log


def test_a_switch_gives_the_attack_advantage_and_its_odds(tmp_path: Path, browser: Any) -> None:
    with attacking(tmp_path, browser, "soak.yaml", "Finn") as (server, gm):  # after Mara
        assert gm.get_by_label("Disadvantage", exact=True).is_visible()
        gm.get_by_label("Advantage", exact=True).check()
        gm.get_by_label("Modifier", exact=True).fill(
            "-2"
        )  # SK-3: a situational modifier to the roll
        gm.get_by_label("Modifier", exact=True).dispatch_event("change")
        target = gm.get_by_role("button", name="Attack The Brute")
        target.hover()
        gm.wait_for_selector("#odds .odds-line")
        line = gm.locator("#odds .odds-line").inner_text()
        edge = Action("finn", "attack", "brute", params={"advantage": True, "modifier": -2})
        plain = Action("finn", "attack", "brute")
        with_edge = server.table.odds(edge).to_json()["combatants"]["brute"]["hit"]
        without = server.table.odds(plain).to_json()["combatants"]["brute"]["hit"]
        assert with_edge > without  # SK-4: the better of two d20s
        assert f"hit {100 * with_edge:.1f}%" in line
        seq = server.table.seq
        target.click()
        gm.wait_for_selector("#log li:has-text('Finn attacks')")
        assert server.table.seq == seq + 1
        assert server.table.log[-1].action == edge
