"""``fracas serve`` in a real browser: Playwright driving Debian's Chromium (never a
downloaded build: ``.ci/test`` installs it with apt). Its headless shell
(``chromium-headless-shell``, the same Blink without the browser's own window, which
Playwright also uses for headless runs) where installed: it draws a page for a third
of the CPU of ``chromium --headless``, and the two browsers share two cores with the
tests. A game master's page and
a player's page in two browser contexts; the player attacks by clicking, both pages
show the new HP; a 390 px wide phone view has no sideways scroll (screenshots saved).
Skipped, saying why, only where neither binary exists."""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from fracas.io.store import open_store
from fracas.table import Act, Table, TableService
from fracas.web.app import create_app
from fracas.web.links import Links
from fracas.web.serve import free_port
from fracas.web.setup import SetupKey

CHROMIUM = shutil.which("chromium-headless-shell") or shutil.which("chromium")
NEEDS_CHROMIUM = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no chromium on the PATH (`apt-get install -y chromium-headless-shell`)",
)
"""The mark of every browser test: Debian's Chromium, which `.ci/run` installs."""
pytestmark = NEEDS_CHROMIUM
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
SHOTS = Path(__file__).parent / "screenshots"
EXAMPLE = Path(__file__).parents[2] / "examples" / "dice-combat.yaml"
# The page is ES modules (no globals): a test reaches its one state by importing it.
CURSOR_OFF = "async () => { (await import('/static/state.js')).store.cursor = null; }"


class Server:
    """A served store with one encounter, ``fight`` (``text``, else the example's start),
    a game master's and a player's (Pat: Ana) link to it; with ``setup``, the setup page
    too (its token: ``setup``). ``resume``: the store a stopped server left in ``tmp``
    served again (a restart: its ``fight`` and its game master's link as they were)."""

    def __init__(
        self,
        tmp: Path,
        text: str | None = None,
        *,
        setup: bool = False,
        win_bar: bool = False,
        resume: bool = False,
    ) -> None:
        import uvicorn

        self.store = open_store(tmp / "s.sqlite3", durable=False)
        self.tables = TableService(self.store)
        self.links = Links(self.store)
        if resume:
            self.table: Table = self.tables.open("fight")
            self.gm = self.links.gm("fight", renew=False)
            self.ana = ""
        else:
            if text is None:
                text = EXAMPLE.read_text().split("actions:")[0]  # the start, no actions played
            self.table = self.tables.create(
                text, "dice-combat.yaml", name="fight", seed=5
            )  # Ana hits Bo: 12 -> 8
            self.gm = self.links.gm("fight")
            _, self.ana = self.links.add("fight", "Pat", ["ana"])
        self.pool = ThreadPoolExecutor(1)
        port = free_port("127.0.0.1")
        self.base = f"http://127.0.0.1:{port}"
        if setup:
            key = SetupKey()
            self.setup = key.mint()
            app = create_app(self.tables, self.links, self.pool, key, {"fight": self.gm})
        else:
            app = create_app(self.tables, self.links, self.pool)
        # the win bar's fights run in a thread of this process: only where a test looks
        # at the bar (they halved the speed of the pages' own work, sharing its GIL)
        app.state.hub.winbars.enabled = win_bar
        self.app = app
        config = uvicorn.Config(
            app, host="127.0.0.1", port=port, log_level="warning", ws="websockets-sansio"
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(60)  # the server's tasks done before the store closes
        assert not self.thread.is_alive(), "the test server did not stop in 60 s"
        self.pool.shutdown()
        self.store.close()


@contextmanager
def launched() -> Iterator[Any]:
    """Debian's Chromium under Playwright (the one launch of every browser test). Its
    contexts bypass the pages' Content-Security-Policy unless given
    ``bypass_csp=False``: Playwright's ``wait_for_function`` evaluates its predicate
    with ``eval``, which the policy forbids (``test_csp_browser`` holds the pages to
    it)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        new_context = b.new_context

        def context(**options: Any) -> Any:
            return new_context(**{"bypass_csp": True, **options})

        b.new_context = context  # type: ignore[method-assign]
        yield b
        b.close()


def bo_hp(page: Any) -> str:
    text: str = page.locator("#order li", has_text="Bo").first.inner_text()
    return text


def test_a_player_attacks_and_both_pages_show_the_new_hp(server: Server, browser: Any) -> None:
    SHOTS.mkdir(exist_ok=True)
    gm = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    pat = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    started = time.monotonic()
    gm.goto(f"{server.base}/t/{server.gm}")
    gm.wait_for_selector("#order li")
    loaded = time.monotonic() - started
    pat.goto(f"{server.base}/t/{server.ana}")
    pat.wait_for_selector("#order li")
    assert "HP 12/12" in bo_hp(gm)
    assert "healthy" in bo_hp(pat) and "12/12" not in bo_hp(pat)  # enemy HP as a label

    pat.get_by_role("button", name="Attack", exact=True).click()
    target = pat.get_by_role("button", name="Attack Bo")
    asked = time.monotonic()
    target.hover()
    pat.wait_for_selector("#odds .odds-line")
    odds_time = time.monotonic() - asked
    odds_text = pat.locator("#odds").inner_text()
    expected = server.table.odds(_attack()).to_json()["combatants"]["bo"]
    assert f"hit {100 * expected['hit']:.1f}%" in odds_text
    assert "down" not in pat.locator("#odds .odds-line").inner_text()  # Bo's HP is hidden
    seq = server.table.seq
    lines = _lines(gm)
    sent = time.monotonic()
    target.click()
    gm.wait_for_function(f"document.querySelectorAll('#log li').length > {lines}")
    round_trip = time.monotonic() - sent
    assert server.table.seq == seq + 1 and server.table.log[-1].by == "Pat"
    hp = server.table.state.get("bo").hp
    assert hp == 8
    shows = "[...document.querySelectorAll('#order li')].some(li => li.innerText.includes(%r))"
    gm.wait_for_function(shows % f"HP {hp}/12")
    assert f"HP {hp}/12" in bo_hp(gm)
    pat.wait_for_selector("#log li.title")
    assert "Ana attacks Bo" in pat.locator("#log li.title").all_inner_texts()
    pat.wait_for_function(shows % "hurt")
    assert "hurt" in bo_hp(pat)  # the player's page shows Bo's new HP as its label
    assert f"{hp}/12" not in pat.content()  # the number never reaches the player's page

    # the game master's panel: damage Bo by 5 (8 -> 3, bloodied for the player), move Cy
    gm.select_option("#gm-who", "bo")
    gm.fill("#gm-amount", "5")
    gm.click("#gm-damage")
    gm.wait_for_function(shows % "HP 3/12")
    pat.wait_for_function(shows % "bloodied")
    assert server.table.state.get("bo").hp == 3
    gm.select_option("#gm-who", "cy")
    gm.click("#gm-move")
    gm.mouse.click(*tile_point(gm, 3, 4))
    pat.wait_for_selector('.token[data-id="cy"][aria-label$="at 3, 4"]')
    assert server.table.state.get("cy").at == (3, 4)

    # the phone: no sideways scroll
    width = pat.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px phone"
    gm.screenshot(path=str(SHOTS / "gm.png"), full_page=True)
    pat.screenshot(path=str(SHOTS / "player-390.png"), full_page=True)
    print(
        f"first page load {1000 * loaded:.0f} ms; odds tooltip {1000 * odds_time:.0f} ms; "
        f"click to the GM's page {1000 * round_trip:.0f} ms"
    )


def _lines(page: Any) -> int:
    n: int = page.evaluate("document.querySelectorAll('#log li').length")
    return n


def _attack() -> Any:
    from fracas.model import Action

    return Action("ana", "attack", "bo")


def test_a_player_cannot_act_for_an_enemy_from_the_page(server: Server, browser: Any) -> None:
    pat = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    pat.goto(f"{server.base}/t/{server.ana}")
    pat.wait_for_selector("#order li")
    headings = pat.locator("#actions h3").all_inner_texts()
    assert headings == ["Ana's actions"]  # offered only its own
    seq = server.table.seq
    pat.evaluate(
        "async () => (await import('/static/state.js'))"
        ".send({type: 'act', action: {actor: 'bo', do: 'throw', target: 'ana'}})"
    )
    pat.wait_for_selector("#notice:not([hidden])")
    # people's words: names, not ids, nor the code (which the message keeps for tools)
    assert pat.locator("#notice").inner_text() == "Pat does not play Bo; its combatants: Ana"
    assert server.table.seq == seq


def test_keys_undo_redo_and_a_page_that_reconnects_catches_up(server: Server, browser: Any) -> None:
    gm = browser.new_context().new_page()
    pat = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    gm.goto(f"{server.base}/t/{server.gm}")
    pat.goto(f"{server.base}/t/{server.ana}")
    gm.wait_for_selector("#order li")
    pat.wait_for_selector("#order li")
    gm.locator("body").press("n")  # ends Ana's turn
    pat.wait_for_function("document.getElementById('turn').innerText.includes(\"Bo's turn\")")
    synced(gm, server.table.seq)  # an undo sent from an older record is moved_on
    gm.locator("body").press("Control+z")
    pat.wait_for_function("document.getElementById('turn').innerText.includes(\"Ana's turn\")")
    synced(gm, server.table.seq)
    gm.locator("body").press("Control+Shift+z")
    pat.wait_for_function("document.getElementById('turn').innerText.includes(\"Bo's turn\")")
    assert [r.kind for r in server.table.log[1:]] == ["action", "undo", "redo"]
    log = pat.locator("#log").inner_text()
    assert "Taken back: Ana ends its turn" in log
    assert "Put back: Ana ends its turn" in log

    # Pat's socket drops; the game master goes on; Pat's page comes back and catches up
    pat.evaluate(
        "async () => { const m = await import('/static/state.js');"
        " m.link.ws.onclose = () => { setTimeout(() => m.connect(), 300); }; m.link.ws.close(); }"
    )
    seq = server.table.seq
    synced(gm, seq)  # the redo's record on the game master's page too (else moved_on)
    gm.locator("body").press("n")  # ends Bo's turn
    gm.wait_for_function("document.getElementById('turn').innerText.includes(\"Cy's turn\")")
    assert server.table.seq == seq + 1
    pat.wait_for_function("document.getElementById('turn').innerText.includes(\"Cy's turn\")")
    titles = pat.locator("#log li.title").all_inner_texts()
    assert len(titles) == len(set(titles)) == server.table.seq - 1  # each record once


def tile_point(page: Any, x: int, y: int, width: int = 8) -> tuple[float, float]:
    """The page position of tile (x, y)'s centre (40 units a tile), under any margin,
    pan and zoom (``width``: kept for the callers that name the map's width)."""
    return _centre_of(page, x, y)


def test_range_rings_and_the_tile_counter(server: Server, browser: Any) -> None:
    # DC-A5: "press Gun range to see your throw range, 15 tiles and 20 tiles as rings. A
    # tile counter shows the exact distance to where you hover."
    SHOTS.mkdir(exist_ok=True)
    pat = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    pat.goto(f"{server.base}/t/{server.ana}")
    pat.wait_for_selector("#order li")
    assert pat.locator(".range-ring").count() == 0
    pat.focus("#ranges-toggle")
    pat.keyboard.press("Enter")  # the toggle, by keyboard
    assert pat.get_attribute("#ranges-toggle", "aria-pressed") == "true"
    rings = pat.locator("#rings .range-ring")
    labels = [(r.get_attribute("data-label"), r.get_attribute("data-tiles")) for r in rings.all()]
    assert labels == [
        ("pistol close", "5"),
        ("pistol medium", "12"),
        ("pistol long", "15"),
        ("throw", "10"),  # DC-A5's rings (issue 22 item 6): DC-17's throw range, 15, 20
        ("15 tiles", "15"),
        ("20 tiles", "20"),
    ]
    assert all(r.evaluate("e => e.tagName") == "rect" for r in rings.all())  # Chebyshev
    legend = pat.locator("#ranges-legend").inner_text()
    assert legend == (
        "Ranges of Ana (chebyshev): pistol close 5, pistol medium 12, pistol long 15 tiles"
        "; rings: throw 10, 15 tiles 15, 20 tiles 20"
    )
    assert pat.locator("#rings .range-label").all_text_contents() == [
        "pistol close 5",
        "pistol medium 12",
        "pistol long 15 · 15 tiles",
        "throw 10",
        "20 tiles",
    ]  # the map grows to show every ring (issue 22 item 6)
    width = pat.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px phone"
    pat.locator("#map-box").screenshot(path=str(SHOTS / "rings-390.png"))

    # hover: Ana is at (0, 0); tile (6, 4) is 6 tiles away by Chebyshev, in medium
    pat.mouse.move(*_centre_of(pat, 6, 4))
    info = pat.locator("#tile-info")
    assert info.get_attribute("aria-live") == "polite"
    pat.wait_for_function("document.getElementById('tile-info').innerText.startsWith('Tile 6, 4')")
    assert info.inner_text() == "Tile 6, 4: 6 tiles from Ana, within pistol medium (12)"
    pat.mouse.move(*_centre_of(pat, 3, 1))
    pat.wait_for_function("document.getElementById('tile-info').innerText.startsWith('Tile 3, 1')")
    assert info.inner_text() == "Tile 3, 1: 3 tiles from Ana, within pistol close (5)"
    # the keyboard: the cursor starts at the counter's combatant and follows the arrows
    pat.evaluate(CURSOR_OFF)
    pat.focus("#map")
    for key in ("ArrowRight", "ArrowRight", "ArrowDown"):
        pat.keyboard.press(key)
    assert info.inner_text() == "Tile 2, 1: 2 tiles from Ana, within pistol close (5)"
    pat.locator("#ranges-toggle").click()
    assert pat.locator("#rings").get_attribute("display") == "none"


MOLOTOV = """\
ruleset: dice-combat
seed: 3
round: 2
order: [bo, ana]
combatants:
  - {id: bo, name: Bo, side: raiders, at: [5, 2], hand: molotov}
  - {id: ana, name: Ana, side: players, at: [1, 2], hand: pistol}
"""


def test_the_game_master_throws_a_molotov_at_a_tile(tmp_path: Path, browser: Any) -> None:
    # DC-27, DC-31: an explosive may be thrown at a tile; the page sends `at: [x, y]`.
    server = Server(tmp_path, MOLOTOV)
    try:
        gm = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
        gm.goto(f"{server.base}/t/{server.gm}")
        gm.wait_for_selector("#order li")
        gm.get_by_role("button", name="Throw", exact=True).click()
        gm.wait_for_selector("#map.aiming")
        gm.mouse.move(*tile_point(gm, 2, 3))
        gm.wait_for_function(
            "document.getElementById('tile-info').innerText.startsWith('Tile 2, 3')"
        )
        assert gm.locator("#tile-info").inner_text() == (
            "Tile 2, 3: 3 tiles from Bo, within Molotov throw (10) · click or press Enter to "
            "throw here"
        )
        seq = server.table.seq
        gm.mouse.click(*tile_point(gm, 2, 3))
        # the log has a title per record after the start (seq - 1 before the throw)
        gm.wait_for_function(f"document.querySelectorAll('#log li.title').length >= {seq}")
        assert server.table.seq == seq + 1
        done = server.table.log[-1].action
        assert done is not None and (done.do, done.target, done.at) == ("throw", None, (2, 3))
        gm.wait_for_function(
            "document.getElementById('log').innerText.includes('throws the molotov at tile 2, 3')"
        )
        ana = server.table.state.get("ana")  # in the 3x3 blast at (2, 3) (DC-24), d20 20 vs 9
        assert ana.hp == 11 and ana.statuses["burning"] == {"turns": 2, "damage": 1}

        # undone, and aimed again by keyboard: the cursor starts on Bo at (5, 2)
        gm.locator("body").press("Control+z")
        gm.wait_for_function(f"document.querySelectorAll('#log li.title').length >= {seq + 1}")
        assert server.table.state.get("ana").hp == 12
        gm.get_by_role("button", name="Throw", exact=True).click()
        gm.evaluate(CURSOR_OFF)
        gm.focus("#map")
        for key in ("ArrowLeft", "ArrowLeft", "ArrowLeft", "ArrowDown"):
            gm.keyboard.press(key)
        assert gm.locator("#tile-info").inner_text().startswith("Tile 2, 3: 3 tiles from Bo")
        gm.keyboard.press("Enter")
        gm.wait_for_function(f"document.querySelectorAll('#log li.title').length >= {seq + 2}")
        again = server.table.log[-1]
        assert again.kind == "action" and again.action is not None
        assert (again.action.do, again.action.at) == ("throw", (2, 3))
    finally:
        server.stop()


SOAK = """\
ruleset: soak
options: {metric: manhattan}
order: [ana, bo]
combatants:
  - id: ana
    name: Ana
    side: players
    at: [2, 2]
    weapons: [{name: sword, dice: 1d8}, {name: bow, attack: ranged, dice: 1d6}]
  - {id: bo, name: Bo, side: raiders, at: [6, 2]}
"""


def test_manhattan_rings_are_diamonds_and_the_counter_counts_orthogonal_steps(
    tmp_path: Path, browser: Any
) -> None:
    # soak 1.1: the metric is an option; SK-4, SK-G2: the bow's DV bands 5, 15, 30 tiles.
    server = Server(tmp_path, SOAK)
    try:
        pat = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        pat.goto(f"{server.base}/t/{server.ana}")
        pat.wait_for_selector("#order li")
        pat.get_by_role("button", name="Ranges").click()
        rings = pat.locator("#rings .range-ring").all()
        assert [(r.get_attribute("data-label"), r.evaluate("e => e.tagName")) for r in rings] == [
            ("sword reach", "polygon"),
            ("bow DV 10", "polygon"),
            ("bow DV 13", "polygon"),
            ("bow DV 16", "polygon"),
        ]
        # Ana's tile centre (100, 100); the reach-1 diamond's corners 1.5 tiles out
        assert rings[0].get_attribute("points") == "100,40 160,100 100,160 40,100"
        pat.mouse.move(*_centre_of(pat, 5, 4))
        pat.wait_for_function(
            "document.getElementById('tile-info').innerText.startsWith('Tile 5, 4')"
        )
        # Manhattan: 3 + 2 = 5 (Chebyshev would say 3)
        assert pat.locator("#tile-info").inner_text() == (
            "Tile 5, 4: 5 tiles from Ana, within bow DV 10 (5)"
        )
        pat.mouse.move(*_centre_of(pat, 6, 4))
        pat.wait_for_function(
            "document.getElementById('tile-info').innerText.startsWith('Tile 6, 4')"
        )
        assert pat.locator("#tile-info").inner_text() == (
            "Tile 6, 4: 6 tiles from Ana, within bow DV 13 (15)"
        )
    finally:
        server.stop()


def test_the_game_master_hides_shows_and_notes_a_combatant(server: Server, browser: Any) -> None:
    # issue 12 item 11: hidden combatants are not sent to a player; notes never are.
    gm = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    pat = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    gm.goto(f"{server.base}/t/{server.gm}")
    pat.goto(f"{server.base}/t/{server.ana}")
    gm.wait_for_selector("#order li")
    pat.wait_for_selector('.token[data-id="bo"]')
    gm.select_option("#gm-who", "bo")
    gm.fill("#gm-note", "carries the vault key")
    gm.click("#gm-note-save")
    gm.wait_for_selector("#order .note")
    assert gm.locator("#order li", has_text="Bo").locator(".note").inner_text() == (
        "Note: carries the vault key"
    )
    gm.click("#gm-hide")
    gm.wait_for_selector('.token.hidden[data-id="bo"]')
    assert gm.locator("#gm-hide").inner_text() == "Show to players"
    pat.wait_for_function("!document.querySelector('.token[data-id=\"bo\"]')")
    assert server.table.state.hidden == {"bo"}
    assert [t.split("\n")[0] for t in pat.locator("#order li").all_inner_texts()] == [
        "Ana",
        "Cy",
        "Dee",
    ]
    content = pat.content()
    assert "Bo" not in pat.locator("#order").inner_text() and "vault key" not in content
    assert "Attack Bo" not in content
    gm.locator("#map-box").screenshot(path=str(SHOTS / "gm-hidden.png"))
    gm.click("#gm-hide")  # show
    pat.wait_for_selector('.token[data-id="bo"]')
    assert server.table.state.hidden == frozenset()
    assert "vault key" not in pat.content()
    assert [r.action.do for r in server.table.log[1:] if r.action] == ["note", "hide", "show"]


def test_physical_dice_are_typed_in_each_by_its_owner(server: Server, browser: Any) -> None:
    # issue 12 item 7: the page asks "Ana's attack d20?"; a face the die lacks is refused
    gm = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    pat = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    gm.goto(f"{server.base}/t/{server.gm}")
    pat.goto(f"{server.base}/t/{server.ana}")
    gm.wait_for_selector("#order li")
    pat.wait_for_selector("#order li")
    gm.click("#gm-dice")
    gm.wait_for_selector('#gm-dice[aria-pressed="true"]')
    seq = server.table.seq
    pat.get_by_role("button", name="Attack", exact=True).click()
    pat.get_by_role("button", name="Attack Bo").click()
    question = pat.locator("#die-question")
    pat.wait_for_function(
        "document.getElementById('die-question').innerText.endsWith(\"Ana's attack d20?\")"
    )
    assert question.inner_text() == "Ana attacks Bo: Ana's attack d20?"
    pat.fill("#die-face", "21")
    pat.click("#die-give")
    pat.wait_for_selector("#notice:not([hidden])")
    assert not pat.locator("#notice").inner_text().startswith("die_out_of_range")
    assert "give 1..20" in pat.locator("#notice").inner_text()
    for face, asked in (("20", "Ana's ammo d3?"), ("2", "Bo's defend d20?")):
        pat.fill("#die-face", face)
        pat.keyboard.press("Enter")
        pat.wait_for_function(
            f"document.getElementById('die-question').innerText.endsWith({asked!r})"
        )
    # Bo's die: not Pat's to give; the game master gives it
    assert question.inner_text().endswith(
        "waiting for the game master: Bo's defend d20?"  # nobody plays Bo
    )
    assert pat.locator("#die-face").is_hidden()
    gm.wait_for_function(
        "document.getElementById('die-question').innerText.endsWith(\"Bo's defend d20?\")"
    )
    gm.locator("#dice-box").screenshot(path=str(SHOTS / "gm-die.png"))
    gm.fill("#die-face", "3")
    gm.click("#die-give")
    pat.wait_for_function(
        "document.getElementById('die-question').innerText.endsWith(\"Ana's crit d4?\")"
    )
    pat.fill("#die-face", "4")
    pat.click("#die-give")
    pat.wait_for_selector("#dice-box", state="hidden")
    assert server.table.seq == seq + 1
    rolls = [(r.label, r.value) for r in server.table.log[-1].rolls]
    assert rolls == [("attack", 20), ("ammo", 2), ("defend:bo", 3), ("crit", 4)]
    assert server.table.state.get("bo").hp == 5
    gm.wait_for_function(
        "document.getElementById('log').innerText.includes('Bo defends (ranged): d20 3')"
    )


def _view_box(page: Any) -> list[float]:
    box: list[float] = page.evaluate(
        "document.getElementById('map').getAttribute('viewBox').split(' ').map(Number)"
    )
    return box


def synced(page: Any, seq: int) -> None:
    """Wait until ``page`` shows record ``seq`` of the table (a change sent earlier is
    refused as ``moved_on``: the page saw an older table)."""
    page.wait_for_function(f"document.body.dataset.seq === '{seq}'")


def _centre_of(page: Any, x: int, y: int) -> tuple[float, float]:
    """The page position of tile (x, y)'s centre, under any pan and zoom."""
    point: list[float] = page.evaluate(
        """([x, y]) => { const svg = document.getElementById('map');
        const p = new DOMPoint(x * 40 + 20, y * 40 + 20).matrixTransform(svg.getScreenCTM());
        return [p.x, p.y]; }""",
        [x, y],
    )
    return point[0], point[1]


def test_pan_zoom_and_the_game_master_drags_a_token(server: Server, browser: Any) -> None:
    # issue 12 items 1 and 9: pan and zoom (buttons, keys, wheel, drag); a token dragged
    # to a tile is the game master's move; a 390 px phone has no sideways scroll.
    gm = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    gm.goto(f"{server.base}/t/{server.gm}")
    gm.wait_for_selector("#order li")
    whole = _view_box(gm)
    assert whole == [-4, -4, 8 * 40 + 8, 6 * 40 + 8]  # labels stay on the grid (layout.js)
    assert gm.locator("#zoom-out").is_disabled()
    gm.click("#zoom-in")
    zoomed = _view_box(gm)
    assert zoomed[2] == pytest.approx(whole[2] / 1.25, abs=0.01)
    assert gm.locator("#zoom-level").inner_text() == "125%"
    gm.locator("body").press("+")
    assert _view_box(gm)[2] == pytest.approx(whole[2] / 1.25**2, abs=0.01)
    gm.locator("body").press("0")
    assert _view_box(gm) == whole
    # the wheel zooms around the pointer: the tile under it stays under it
    x, y = _centre_of(gm, 6, 4)
    gm.mouse.move(x, y)
    gm.mouse.wheel(0, -100)
    gm.wait_for_function("document.getElementById('zoom-level').innerText === '125%'")
    after = _centre_of(gm, 6, 4)
    assert after == pytest.approx((x, y), abs=1.5)
    # a drag on an empty tile pans; the tile counter still reads the right tile
    before = _view_box(gm)
    sx, sy = _centre_of(gm, 4, 3)
    gm.mouse.move(sx, sy)
    gm.mouse.down()
    gm.mouse.move(sx + 60, sy + 30, steps=5)
    gm.mouse.up()
    panned = _view_box(gm)
    assert panned[0] < before[0] and panned[2] == before[2]
    assert server.table.seq == 1  # panning writes nothing
    gm.mouse.move(*_centre_of(gm, 2, 2))
    gm.wait_for_function("document.getElementById('tile-info').innerText.startsWith('Tile 2, 2')")
    gm.locator("#map").press("Shift+ArrowRight")  # shift and an arrow pan a tile
    edge = whole[0] + whole[2] - panned[2]  # as far right as the map goes
    assert _view_box(gm)[0] == pytest.approx(min(panned[0] + 40, edge), abs=0.01)
    assert _view_box(gm)[0] > panned[0]

    # the game master drags Cy's token to tile (3, 4): a move
    cy = server.table.state.get("cy").at
    assert cy is not None
    gm.mouse.move(*_centre_of(gm, *cy))
    gm.mouse.down()
    gm.mouse.move(*_centre_of(gm, 3, 4), steps=8)
    gm.mouse.up()
    gm.wait_for_selector('.token[data-id="cy"][aria-label$="at 3, 4"]')
    record = server.table.log[-1]
    assert record.action is not None and record.action.do == "move"
    assert server.table.state.get("cy").at == (3, 4)
    gm.locator("#map-box").screenshot(path=str(SHOTS / "gm-zoomed.png"))

    # where the policy says players do not move, a player's drag pans (zoomed) or does
    # nothing; nothing is written (the policy allowing it: test_player_move.py)
    server.table.submit(Act({"actor": "ana", "do": "policy", "player_move": False}))
    pat = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True).new_page()
    pat.goto(f"{server.base}/t/{server.ana}")
    pat.wait_for_selector("#order li", state="attached")  # folded on a phone (folds.js)
    pat.locator("#map-box > h2 > button.fold").tap()  # the map unfolded
    seq = server.table.seq
    synced(pat, seq)
    ana = server.table.state.get("ana").at
    assert ana is not None
    pat.mouse.move(*_centre_of(pat, *ana))
    pat.mouse.down()
    pat.mouse.move(*_centre_of(pat, 5, 5), steps=5)
    pat.mouse.up()
    assert server.table.seq == seq
    for _ in range(3):
        pat.click("#zoom-in")
    width = pat.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px phone"
    pat.screenshot(path=str(SHOTS / "player-390-zoomed.png"), full_page=True)


def test_hovering_a_tile_shows_every_creatures_odds_in_the_blast(
    tmp_path: Path, browser: Any
) -> None:
    # issue 12 item 4; DC-24, DC-27, DC-31: a Molotov aimed at a tile reaches Ana in its
    # blast, and Bo too where it scatters; the numbers are `fracas odds`'s.
    from fracas.model import Action

    server = Server(tmp_path, MOLOTOV)
    try:
        gm = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
        gm.goto(f"{server.base}/t/{server.gm}")
        gm.wait_for_selector("#order li")
        gm.get_by_role("button", name="Throw", exact=True).click()
        gm.wait_for_selector("#map.aiming")
        gm.mouse.move(*tile_point(gm, 2, 3))
        gm.wait_for_selector("#odds .blast-odds")
        expected = server.table.odds(Action("bo", "throw", at=(2, 3))).to_json()
        blocks = gm.locator("#odds .blast-odds")
        assert [b.get_attribute("data-id") for b in blocks.all()] == list(expected["combatants"])
        assert gm.locator("#odds strong").first.inner_text() == "Throw at 2, 3: exact odds"
        for block in blocks.all():
            o = expected["combatants"][block.get_attribute("data-id")]
            line = block.locator(".odds-line").inner_text()
            assert line == (
                f"hit {100 * o['hit']:.1f}% · mean damage {o['mean']:.2f} · "
                f"down {100 * o['down']:.1f}%"
            )
        ana = blocks.filter(has_text="Ana").locator(".bars span")
        assert ana.count() == len(expected["combatants"]["ana"]["damage"])
        gm.locator("#act-box").screenshot(path=str(SHOTS / "gm-blast-odds.png"))
        # another tile: nobody but the thrower's own risk; the answer follows the cursor
        gm.mouse.move(*tile_point(gm, 6, 0))
        gm.wait_for_function(
            "(document.querySelector('#odds strong') || {innerText: ''})"
            ".innerText.startsWith('Throw at 6, 0')"
        )
        gm.wait_for_selector("#odds .blast-odds")
        far = server.table.odds(Action("bo", "throw", at=(6, 0))).to_json()
        ids = [b.get_attribute("data-id") for b in gm.locator("#odds .blast-odds").all()]
        assert ids == list(far["combatants"]) == ["bo"]
        assert server.table.seq == 1  # hovering writes nothing
    finally:
        server.stop()


def test_the_game_masters_page_fits_a_phone(server: Server, browser: Any) -> None:
    # issue 12 item 1: a 390 px phone, the game master's controls and a die asked for
    gm = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True).new_page()
    gm.goto(f"{server.base}/t/{server.gm}")
    gm.wait_for_selector("#order li")
    gm.click("#gm-dice")
    gm.wait_for_selector('#gm-dice[aria-pressed="true"]')
    gm.get_by_role("button", name="Attack", exact=True).click()
    gm.get_by_role("button", name="Attack Bo").click()
    gm.wait_for_selector("#dice-box:not([hidden])")
    gm.click("#zoom-in")
    width = gm.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the game master's page is {width} px wide on a 390 px phone"
    gm.screenshot(path=str(SHOTS / "gm-390.png"), full_page=True)
