"""Two game-master staples on the page (issue 35), in Debian's Chromium: the roster's
"Roll initiative again at the start of every round", offered where the ruleset rolls
initiative (soak, SK-1), whose new round's order a player's page follows; and "Reveal
to the players when its turn begins" beside Hide, whose combatant a player's page gets
only as its turn begins."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fracas.table import Act
from tests.web.test_browser import NEEDS_CHROMIUM, SHOTS, Server
from tests.web.test_roster_browser import _gm

pytestmark = NEEDS_CHROMIUM

SOAK = (Path(__file__).parents[2] / "examples" / "start" / "soak.yaml").read_text()
# Mara 2 + 3 = 5, Finn 15 + 2 = 17, the Brute 19 + 1 = 20 (SK-1, SK-G1)
ROUND_2 = {"initiative:mara": 2, "initiative:finn": 15, "initiative:brute": 19}
STATE = "async () => JSON.stringify((await import('/static/state.js')).store.state)"
ORDER = "[...document.querySelectorAll('#order li strong')].map(s => s.textContent).join()"


def _seq(page: Any, n: int) -> None:
    """Wait for the page to show the table after ``n`` actions (and its start)."""
    page.wait_for_function(f"document.body.dataset.seq === '{n + 1}'", timeout=10000)


def _player(server: Server, browser: Any, token: str) -> Any:
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.goto(f"{server.base}/t/{token}")
    page.wait_for_selector("#order li")
    return page


def _order(page: Any, names: list[str]) -> None:
    page.wait_for_function(f"names => {ORDER} === names.join()", arg=names, timeout=10000)


def test_SK_1_the_game_master_ticks_a_new_initiative_each_round_and_players_follow_it(
    tmp_path: Path, browser: Any
) -> None:
    SHOTS.mkdir(exist_ok=True)
    server = Server(tmp_path, SOAK)
    try:
        _, kim = server.links.add("fight", "Kim", ["mara"])
        gm = _gm(server, browser)
        kims = _player(server, browser, kim)
        _order(kims, ["Mara", "Finn", "The Brute"])
        each = gm.get_by_label("Roll initiative again at the start of every round")
        assert each.is_visible() and not each.is_checked()
        each.check()
        _seq(gm, 1)
        assert server.table.state.table.reroll_initiative is True
        gm.wait_for_function("document.getElementById('init-each').checked")
        gm.locator("#init-row").screenshot(path=str(SHOTS / "initiative-each-round.png"))
        table = server.table
        table.submit(Act({"actor": "mara", "do": "end_turn"}))
        table.submit(Act({"actor": "finn", "do": "end_turn"}))
        table.submit(Act({"actor": "brute", "do": "end_turn", "dice": ROUND_2}))
        assert list(table.state.order) == ["brute", "finn", "mara"]  # 20, 17, 5
        _order(kims, ["The Brute", "Finn", "Mara"])
        _order(gm, ["The Brute", "Finn", "Mara"])
        log = kims.locator("#log").inner_text()
        assert "initiative order: The Brute 20, Finn 17, Mara 5" in log
        each.uncheck()  # off: the next round keeps the order
        _seq(gm, 5)
        assert server.table.state.table.reroll_initiative is False
    finally:
        server.stop()


def test_the_option_is_not_offered_where_the_ruleset_rolls_no_initiative(
    server: Server, browser: Any
) -> None:
    gm = _gm(server, browser)  # dice-combat: the file's order
    assert gm.locator("#init-each").is_hidden()


def test_a_hidden_combatant_marked_on_the_page_shows_on_the_players_page_at_its_turn(
    server: Server, browser: Any
) -> None:
    SHOTS.mkdir(exist_ok=True)
    gm = _gm(server, browser)
    pat = _player(server, browser, server.ana)
    gm.select_option("#gm-who", "cy")
    reveal = gm.get_by_label("Reveal to the players when its turn begins")
    assert reveal.is_hidden()  # Cy is in sight: nothing to reveal
    gm.get_by_role("button", name="Hide from players").click()
    _seq(gm, 1)
    reveal.wait_for(state="visible")
    reveal.check()
    _seq(gm, 2)
    assert server.table.state.reveal_on_turn == {"cy"}
    gm.wait_for_function("document.getElementById('gm-reveal').checked")
    gm.locator("#gm-box").screenshot(path=str(SHOTS / "reveal-on-turn.png"))
    _order(pat, ["Ana", "Bo", "Dee"])
    assert pat.locator('.token[data-id="cy"]').count() == 0
    # nothing of Cy nor of its mark reaches the player's page: its state, its log
    sent = pat.evaluate(STATE)
    assert "reveal_on_turn" not in sent and '"cy"' not in sent and "Cy" not in sent
    assert "Cy" not in pat.locator("#log").inner_text()
    gm.click("#end-turn")  # Ana's turn ends; Bo's begins: Cy still hidden
    _seq(gm, 3)
    _seq(pat, 3)
    assert pat.locator('.token[data-id="cy"]').count() == 0
    gm.click("#end-turn")  # Bo's ends; Cy's begins: shown to the players
    _seq(gm, 4)
    _order(pat, ["Ana", "Bo", "Cy", "Dee"])
    pat.locator('.token[data-id="cy"]').wait_for()
    assert "Cy is revealed as its turn begins" in pat.locator("#log").inner_text()
    assert server.table.state.hidden == frozenset()
