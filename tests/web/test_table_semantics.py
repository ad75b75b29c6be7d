"""The page is the table (issue 35), in Debian's Chromium: the game master's free roll
reads as the game master's on a player's page (a player's as its combatant's); once the
last enemy falls the header says who won and End turn and the actions are off; an
Attack's targets come enemies first, an ally and a down one marked; a token dragged
onto a taken tile stays where it was, the notice naming who is there, and a drop off
the map says so. Screenshots in ``/tmp/shots35b/``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fracas.model import NO_ACTOR
from fracas.table import Act
from tests.web.test_browser import NEEDS_CHROMIUM, SHOTS, Server, _centre_of, synced

pytestmark = NEEDS_CHROMIUM

FIGHT = """\
ruleset: dice-combat
seed: 5
order: [ana, bo, cy, dee]
combatants:
  - {id: ana, name: Ana, side: players, at: [0, 0], hand: greataxe}
  - {id: dee, name: Dee, side: players, at: [1, 1], hand: knife}
  - {id: bo, name: Bo, side: raiders, at: [1, 0], hand: club}
  - {id: cy, name: Cy, side: raiders, at: [0, 1], hand: club}
"""
"""Ana's greataxe reaches Bo, Cy and Dee around her; Ana's turn first."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path, FIGHT)
    yield s
    s.stop()


def _open(browser: Any, server: Server, token: str, width: int = 1200) -> Any:
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.goto(f"{server.base}/t/{token}")
    page.wait_for_selector("#order li")
    synced(page, server.table.seq)
    return page


def _log_has(page: Any, start: str) -> str:
    """The first line of ``page``'s log that begins with ``start`` (waited for)."""
    page.wait_for_function(
        "t => [...document.querySelectorAll('#log li')].some(li => li.textContent.startsWith(t))",
        arg=start,
    )
    texts: list[str] = page.locator("#log li").all_inner_texts()
    return next(t for t in texts if t.startswith(start))


def test_the_game_masters_roll_reads_as_the_game_masters(server: Server, browser: Any) -> None:
    gm = _open(browser, server, server.gm)
    pat = _open(browser, server, server.ana, 390)
    gm.fill("#roll-notation", "2d6+1")
    gm.locator("#roll-form button[type=submit]").click()
    line = _log_has(pat, "The game master rolls 2d6+1: ")
    assert "Ana" not in line
    record = server.table.log[-1]
    assert record.action is not None and record.action.actor == NO_ACTOR and record.by is None
    _log_has(gm, "The game master rolls 2d6+1: ")
    # a player's roll is its combatant's
    pat.fill("#roll-notation", "1d6")
    pat.locator("#roll-form button[type=submit]").click()
    _log_has(gm, "Ana rolls 1d6: ")
    assert server.table.log[-1].by == "Pat"
    SHOTS.mkdir(exist_ok=True)
    pat.screenshot(path=str(SHOTS / "roll-player.png"), full_page=True)


def test_targets_are_marked_and_the_fights_end_stops_the_turns(
    server: Server, browser: Any
) -> None:
    server.table.submit(Act({"actor": "cy", "do": "damage", "amount": 12}))  # Cy down
    pat = _open(browser, server, server.ana, 390)
    pat.get_by_role("button", name="Attack", exact=True).click()
    buttons = pat.locator("#actions .targets button[data-target]")
    buttons.first.wait_for()
    assert buttons.all_inner_texts() == ["Attack Bo", "Attack Dee (ally)", "Attack Cy (down)"]
    SHOTS.mkdir(exist_ok=True)
    pat.screenshot(path=str(SHOTS / "targets-marked.png"), full_page=True)
    gm = _open(browser, server, server.gm)
    assert not gm.locator("#end-turn").is_disabled()
    # the last enemy falls: the header says who won; End turn and the actions are off
    gm.select_option("#gm-who", "bo")
    gm.fill("#gm-amount", "12")
    gm.click("#gm-damage")
    won = "The fight is over: players win (Ana, Dee standing)."
    for page, you in ((gm, "game master"), (pat, "Pat")):
        page.wait_for_function(
            "t => document.getElementById('turn').textContent.startsWith(t)", arg=won
        )
        assert page.locator("#turn").inner_text() == f"{won} (you: {you})"
        assert page.locator("#end-turn").is_disabled()
        assert page.get_by_role("button", name="Attack", exact=True).is_disabled()
    said = pat.locator("#actions").inner_text()  # one line for all, not one per action
    assert said.count("The fight is over: no more actions.") == 1, said
    gm.screenshot(path=str(SHOTS / "fight-over-gm.png"), full_page=True)
    pat.screenshot(path=str(SHOTS / "fight-over-player.png"), full_page=True)
    # the game master's undo reopens the fight: the turn again, End turn on
    gm.click("#undo")
    gm.wait_for_function("!document.getElementById('end-turn').disabled")
    assert gm.locator("#turn").inner_text().startswith("Round 1: Ana's turn")


def _map_point(page: Any, x: float, y: float) -> tuple[float, float]:
    """The page position of map point (x, y) (40 units a tile)."""
    point: list[float] = page.evaluate(
        """([x, y]) => { const svg = document.getElementById('map');
        const p = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM());
        return [p.x, p.y]; }""",
        [x, y],
    )
    return point[0], point[1]


def _drag(page: Any, start: tuple[float, float], end: tuple[float, float]) -> None:
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=8)
    page.mouse.up()


def test_a_token_dropped_on_a_taken_tile_stays_with_a_notice(server: Server, browser: Any) -> None:
    gm = _open(browser, server, server.gm)
    seq = server.table.seq
    _drag(gm, _centre_of(gm, 1, 0), _centre_of(gm, 0, 0))  # Bo onto Ana's tile
    gm.wait_for_selector("#notice:not([hidden])")
    notice = gm.locator("#notice").inner_text()
    assert "Ana is on 0, 0" in notice and "Bo cannot stand there too" in notice
    assert server.table.seq == seq and server.table.state.get("bo").at == (1, 0)
    gm.wait_for_selector('.token[data-id="bo"][aria-label$="at 1, 0"]')
    SHOTS.mkdir(exist_ok=True)
    gm.screenshot(path=str(SHOTS / "tile-taken.png"))
    # a drop off the map (in the map's margin, left of tile 0) says so, and moves nothing
    _drag(gm, _centre_of(gm, 1, 0), _map_point(gm, -2, 60))
    gm.wait_for_function(
        "document.getElementById('notice').textContent === 'Off the map: drop on a tile'"
    )
    assert server.table.seq == seq
    # a free tile takes the drop
    _drag(gm, _centre_of(gm, 1, 0), _centre_of(gm, 3, 0))
    gm.wait_for_selector('.token[data-id="bo"][aria-label$="at 3, 0"]')
    assert server.table.state.get("bo").at == (3, 0)
