"""A player drags its own token (issue 22, item 3), in Debian's Chromium: where the
table's policy lets players move, Ana's player drags Ana two tiles in her turn (a walk,
logged as Pat's); an enemy's token does not move; the ruler runs from Ana to the tile
pointed at. (Where the policy says no, a player's drag writes nothing: test_browser.py's
test_pan_zoom_and_the_game_master_drags_a_token.)"""

from __future__ import annotations

from typing import Any

from fracas.table import Act
from tests.web.test_browser import NEEDS_CHROMIUM, SHOTS, Server, _centre_of

pytestmark = NEEDS_CHROMIUM


def _drag(page: Any, start: tuple[int, int], end: tuple[int, int]) -> None:
    page.mouse.move(*_centre_of(page, *start))
    page.mouse.down()
    page.mouse.move(*_centre_of(page, *end), steps=8)
    page.mouse.up()


def test_a_player_drags_its_own_token_where_the_policy_allows(server: Server, browser: Any) -> None:
    server.table.submit(Act({"actor": "ana", "do": "policy", "player_move": True}))
    pat = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    pat.goto(f"{server.base}/t/{server.ana}")
    pat.wait_for_selector("#order li")
    seq = server.table.seq
    assert server.table.state.get("ana").at == (0, 0)
    # the ruler: Ana to the tile pointed at
    pat.mouse.move(*_centre_of(pat, 2, 1))
    pat.wait_for_selector("#ruler[display='inline']")
    ends = [pat.get_attribute("#ruler", k) for k in ("x1", "y1", "x2", "y2")]
    assert ends == ["20", "20", "100", "60"]
    assert pat.locator("#tile-info").inner_text().startswith("Tile 2, 1: 2 tiles from Ana")
    # Bo's token is not Pat's: nothing moves
    _drag(pat, (6, 0), (5, 0))
    assert server.table.seq == seq
    _drag(pat, (0, 0), (2, 0))
    pat.wait_for_selector('.token[data-id="ana"][aria-label$="at 2, 0"]')
    record = server.table.log[-1]
    assert record.action is not None and record.by == "Pat"
    assert (record.action.do, record.action.params.get("walk")) == ("move", True)
    assert server.table.state.get("ana").at == (2, 0) and server.table.seq == seq + 1
    pat.locator("#map-box").screenshot(path=str(SHOTS / "player-move.png"))
