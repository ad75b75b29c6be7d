"""Issue 22, items 4 and 5 in Chromium: the game master's page lists every player link
with its address, a copy button and a QR code; making a second link keeps the first
visible; ``/`` says how to open a table; when one side stands alone the game master's
page and a player's phone say who won, and the game master's "Finish the fight" and
"Reopen the fight" buttons end and reopen it (screenshots in tests/web/screenshots/)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fracas.model import Action
from fracas.table import GAME_MASTER, Act
from tests.web.test_browser import NEEDS_CHROMIUM, SHOTS, Server, synced

pytestmark = NEEDS_CHROMIUM


def addresses(page: Any) -> list[str]:
    values: list[str] = page.eval_on_selector_all(
        "#links .link-address", "els => els.map(e => e.value)"
    )
    return values


def test_links_listed_with_address_copy_and_qr_and_the_winner_said(
    tmp_path: Path, browser: Any
) -> None:
    SHOTS.mkdir(exist_ok=True)
    server = Server(tmp_path)
    try:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.base)
        gm = context.new_page()
        gm.goto(f"{server.base}/t/{server.gm}")
        gm.wait_for_selector("#links .link-address")
        assert addresses(gm) == [f"{server.base}/t/{server.ana}"]  # made before the page
        qr = gm.locator("#links img.link-qr").first
        assert qr.get_attribute("alt") == "QR code of Pat's link"
        assert qr.evaluate("img => img.complete && img.naturalWidth") > 100  # it rendered

        gm.get_by_role("button", name="Copy Pat's link").click()
        gm.wait_for_function("document.querySelector('.link-copy').textContent === 'Copied'")
        copied = gm.evaluate("navigator.clipboard.readText()")
        assert copied == f"{server.base}/t/{server.ana}"

        gm.fill("#link-name", "Lee")
        gm.locator("#link-owns label", has_text="Dee").locator("input").check()
        gm.locator("#new-link button[type=submit]").click()
        gm.wait_for_function("document.querySelectorAll('#links .link-address').length === 2")
        listed = addresses(gm)
        assert listed[0] == f"{server.base}/t/{server.ana}"  # the first one still visible
        lee = next(link for link in server.links.of("fight") if link.name == "Lee")
        assert listed[1] == f"{server.base}/t/{lee.token}" and lee.owns == ["dee"]
        gm.locator("#links-box").screenshot(path=str(SHOTS / "links-gm.png"))

        phone = browser.new_context(
            viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
        ).new_page()
        phone.goto(f"{server.base}/t/{server.ana}")
        phone.wait_for_selector("#order li", state="attached")  # folded on a phone (folds.js)
        assert phone.locator("#outcome").is_hidden()
        assert phone.locator("#gm-finish").count() == 0  # the game master's only

        for raider in ("bo", "cy"):
            server.table.submit(Act(Action(raider, "damage", params={"amount": 12})), GAME_MASTER)
        said = "The fight is over: players win (Ana, Dee standing)."
        phone.wait_for_function(f"document.getElementById('outcome').textContent === {said!r}")
        gm.wait_for_function(f"document.getElementById('outcome').textContent === {said!r}")
        phone.screenshot(path=str(SHOTS / "winner-phone.png"))
        for raider in ("bo", "cy"):
            server.table.submit(Act(Action(raider, "heal", params={"amount": 12})), GAME_MASTER)
        phone.wait_for_selector("#outcome", state="hidden")

        synced(gm, server.table.seq)  # the page saw both heals: its finish is not moved_on
        gm.get_by_role("button", name="Finish the fight").click()
        ended = "The game master ended the fight."
        phone.wait_for_function(f"document.getElementById('outcome').textContent === {ended!r}")
        assert server.table.state.ended is True
        synced(gm, server.table.seq)
        assert "The game master ends the fight" in gm.locator("#log").inner_text()
        gm.screenshot(path=str(SHOTS / "finished-gm.png"))
        gm.get_by_role("button", name="Reopen the fight").click()
        phone.wait_for_selector("#outcome", state="hidden")
        assert server.table.state.ended is False

        landing = context.new_page()
        landing.goto(f"{server.base}/")
        assert "A table opens from its own link" in landing.inner_text("main")
        landing.screenshot(path=str(SHOTS / "landing.png"))
    finally:
        server.stop()
