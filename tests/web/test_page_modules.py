"""The page as ES modules (issue 33 item 7), in Debian's Chromium: it loads as modules
with no globals (its one state is a module, state.js, that every panel imports), and a
control keeps the focus across a sync by its key (data-key), where the redraw built it
again: nothing guessed from an id, a label or a text."""

from __future__ import annotations

from typing import Any

from fracas.table import Act
from tests.web.test_browser import NEEDS_CHROMIUM, Server

pytestmark = NEEDS_CHROMIUM

# What the classic scripts of the page used to leave on `window` (not `notice`: an
# element with that id is named on `window` by the browser itself).
GLOBALS = [
    "state",
    "seq",
    "options",
    "send",
    "handle",
    "chosen",
    "render",
    "mapView",
    "mapLayout",
    "moveCosts",
]
FOCUSED = (
    "() => { const a = document.activeElement;"
    " return {key: a.getAttribute('data-key'), id: a.id, connected: a.isConnected,"
    " same: a === window.__focused, text: a.textContent}; }"
)


def _open(server: Server, browser: Any, token: str) -> Any:
    page = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    page.goto(f"{server.base}/t/{token}")
    page.wait_for_selector("#order li")
    return page


def _next_sync(page: Any, seq: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.seq) > {seq}")


def test_the_page_loads_as_modules_with_no_globals(server: Server, browser: Any) -> None:
    gm = _open(server, browser, server.gm)
    scripts = gm.locator("script").evaluate_all("ss => ss.map(s => [s.type, s.src])")
    # the socket first, inline (issue 35: its first sync comes while the page's script
    # loads), then app.js and its panels in one file (tools/bundle.py)
    assert scripts == [["", ""], ["module", f"{server.base}/static/app.bundle.js"]]
    for name in GLOBALS:
        assert gm.evaluate(f"typeof window.{name}") == "undefined", name
    # the one state: the module every panel imports holds the table this page shows
    shown = gm.evaluate(
        "async () => { const { store } = await import('/static/state.js');"
        " return [store.seq, store.state.encounter, Object.keys(store.options).length]; }"
    )
    assert shown[0] == server.table.seq and shown[1] == "fight" and shown[2] > 0
    assert gm.locator("#roster li").count() == len(server.table.state.order)  # roster.js drew
    assert gm.locator("#policy-words li").count() > 0  # table.js drew


def test_a_target_button_keeps_the_focus_across_a_sync_by_its_key(
    server: Server, browser: Any
) -> None:
    pat = _open(server, browser, server.ana)
    gm = _open(server, browser, server.gm)
    pat.get_by_role("button", name="Attack", exact=True).click()
    target = pat.locator('#actions button[data-target="bo"]')
    target.focus()
    pat.evaluate("window.__focused = document.activeElement")
    before = pat.evaluate(FOCUSED)
    assert before["key"] == "target:bo" and before["same"]
    seq = server.table.seq
    # another page changes the table: the game master heals Cy
    gm.select_option("#gm-who", "cy")
    gm.click("#gm-heal")
    _next_sync(pat, seq)
    after = pat.evaluate(FOCUSED)
    # the buttons were built again (a new record): the new one with the same key has it
    assert after["key"] == "target:bo" and after["connected"] and not after["same"]
    assert after["text"] == "Attack Bo"
    assert not pat.evaluate("window.__focused.isConnected")


def test_a_roster_button_and_the_dice_roller_keep_the_focus_across_a_sync(
    server: Server, browser: Any
) -> None:
    gm = _open(server, browser, server.gm)
    pat = _open(server, browser, server.ana)
    # the roster's rows are built again at every sync: before, the focus fell to the body
    gm.get_by_role("button", name="Pick Bo for quick HP and conditions").focus()
    gm.evaluate("window.__focused = document.activeElement")
    seq = server.table.seq
    pat.click("#end-turn")  # the player ends Ana's turn from their page
    _next_sync(gm, seq)
    after = gm.evaluate(FOCUSED)
    assert after["key"] == "roster:bo:pick" and after["connected"] and not after["same"]
    # the roller's input is drawn once and never replaced: typing goes on through a sync
    gm.fill("#roll-notation", "")
    gm.focus("#roll-notation")
    gm.keyboard.type("3d")
    seq = server.table.seq
    server.table.submit(Act({"actor": server.table.state.turn.actor, "do": "end_turn"}))
    _next_sync(gm, seq)
    gm.keyboard.type("6")
    assert gm.evaluate(FOCUSED)["id"] == "roll-notation"
    assert gm.input_value("#roll-notation") == "3d6"


SOCKETS = """
window.__sockets = []; window.__refused = [];
const Made = window.WebSocket;
window.WebSocket = function (...a) {
  const ws = new Made(...a); window.__sockets.push(ws); return ws; };
window.WebSocket.prototype = Made.prototype;
document.addEventListener(
  "securitypolicyviolation", (e) => window.__refused.push(e.violatedDirective));
"""
"""Counts the page's sockets (and keeps them), and what its policy refused."""


def test_the_socket_opened_inline_is_the_one_the_page_goes_on_with(
    server: Server, browser: Any
) -> None:
    """Issue 35, "speed": index.html's inline script opens the socket as the page starts;
    its policy lets that script in by its hash (nothing refused), socket.js takes the
    socket over and leaves nothing on ``window``, and the page opens no second one. The
    context keeps the policy (the tests' contexts bypass it unless told)."""
    page = browser.new_context(bypass_csp=False).new_page()
    page.add_init_script(SOCKETS)
    page.goto(f"{server.base}/t/{server.gm}")
    page.wait_for_selector("#order li")
    assert page.evaluate("window.__refused") == []
    assert page.evaluate("window.__sockets.length") == 1
    assert page.evaluate(
        "async () => (await import('/static/state.js')).link.ws === window.__sockets[0]"
    )
    assert page.evaluate("typeof window.fracasSocket") == "undefined"
    assert page.locator("#conn").inner_text() == "live"
