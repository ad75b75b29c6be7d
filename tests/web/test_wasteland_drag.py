"""A wasteland token dragged by its player (issue 22, item 3), in Debian's Chromium: while
it is dragged the tile counter shows what the move would cost, in the rules' own words
as the table gives them (WL-2: MAP first, then AP, one point a tile, PROPOSED), a tile it
cannot pay is marked and its drop refused by the table, the notice saying why in words
(the rule behind its "Rules" control); a payable drop is stored as the actor's own
move. (The figures themselves: tests/table/test_move_cost.py.)"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fracas.table import Act
from tests.web.test_browser import NEEDS_CHROMIUM, SHOTS, Server, _centre_of, synced

pytestmark = NEEDS_CHROMIUM

START = (Path(__file__).parents[2] / "examples" / "wasteland.yaml").read_text().split("\nactions:")[
    0
] + "\n"
PAYS = "move Vera here: Vera spends 2 on movement: MAP 0 -> 0, AP 2 -> 0"
WORDS = "Vera has 0 MAP and 2 AP; this move costs 3"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path, START)
    yield s
    s.stop()


def _info(page: Any, text: str) -> str:
    page.wait_for_function(
        "t => document.getElementById('tile-info').textContent.includes(t)", arg=text
    )
    info: str = page.locator("#tile-info").inner_text()
    return info


def test_WL_2_a_drag_shows_the_moves_cost_and_an_unpayable_drop_is_refused(
    server: Server, browser: Any
) -> None:
    _, token = server.links.add("fight", "Val", ["vera"])
    server.table.submit(Act({"actor": "vera", "do": "set", "ap": 2}))  # 2 AP left, no MAP
    seq = server.table.seq
    page = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    page.goto(f"{server.base}/t/{token}")
    page.wait_for_selector("#order li")
    synced(page, seq)
    page.mouse.move(*_centre_of(page, 0, 0))
    page.mouse.down()
    page.mouse.move(*_centre_of(page, 2, 0), steps=8)
    info = _info(page, PAYS)
    assert info.startswith("Tile 2, 0: 2 tiles from Vera")
    assert "refused" not in (page.get_attribute("#cursor", "class") or "")
    page.mouse.move(*_centre_of(page, 3, 0), steps=4)
    info = _info(page, "cannot move here")
    assert info.endswith(f"Vera cannot move here: {WORDS}")  # words, no code (issue 35)
    assert page.get_attribute("#cursor", "class") == "refused"  # the tile is marked
    page.locator("#map-box").screenshot(path=str(SHOTS / "wasteland-drag-refused.png"))
    page.mouse.up()  # dropped on the tile it cannot pay: the table refuses it
    page.wait_for_selector("#notice:not([hidden])")
    # the notice in people's words (names, no code), the rule behind its "Rules" control
    assert page.locator("#notice").inner_text().startswith(WORDS)
    assert page.locator("#notice details.rules").text_content() == "Rules WL-2"
    assert server.table.seq == seq and server.table.state.get("vera").at == (0, 0)
    assert page.get_attribute("#cursor", "class") in ("", None)  # no drag, no mark
    # the payable drop: stored as Vera's own move, paid from her AP (WL-2)
    page.mouse.move(*_centre_of(page, 0, 0))
    page.mouse.down()
    page.mouse.move(*_centre_of(page, 2, 0), steps=8)
    _info(page, PAYS)
    page.mouse.up()
    page.wait_for_selector('.token[data-id="vera"][aria-label$="at 2, 0"]')
    record = server.table.log[-1]
    assert record.action is not None and record.by == "Val"
    assert record.action.params == {"to": (2, 0), "ap": 2}
    assert server.table.state.get("vera").sheet.ap == 0
    assert server.table.seq == seq + 1


def test_the_game_masters_drag_shows_the_own_moves_cost_and_drops_free(
    server: Server, browser: Any
) -> None:
    """The game master's drag of the acting combatant reads what its own move would pay
    (or that it could not), and the drop stays the game master's move: free."""
    server.table.submit(Act({"actor": "vera", "do": "set", "ap": 2}))
    seq = server.table.seq
    gm = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    gm.goto(f"{server.base}/t/{server.gm}")
    gm.wait_for_selector("#order li")
    synced(gm, seq)
    gm.mouse.move(*_centre_of(gm, 0, 0))
    gm.mouse.down()
    gm.mouse.move(*_centre_of(gm, 3, 0), steps=8)
    info = _info(gm, "cannot move here")
    assert info.endswith(
        f"Vera cannot move here: {WORDS}; your drop puts it here anyway (the game master's move)"
    )
    assert gm.get_attribute("#cursor", "class") == "refused"
    gm.mouse.move(*_centre_of(gm, 2, 0), steps=4)
    _info(gm, f"{PAYS} (its own move; your drop puts it here free)")
    gm.mouse.move(*_centre_of(gm, 3, 0), steps=4)
    _info(gm, "cannot move here")
    gm.mouse.up()
    gm.wait_for_selector('.token[data-id="vera"][aria-label$="at 3, 0"]')
    record = server.table.log[-1]
    assert record.action is not None and record.action.params == {"to": (3, 0)}
    assert server.table.state.get("vera").sheet.ap == 2  # a decree costs nothing
