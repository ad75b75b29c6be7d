"""axe-core over the pages of ``fracas serve`` in Debian's Chromium: no serious or
critical violation on the game master's page, a player's page and the setup page, at a
desktop size and on a 390 x 844 phone (where nothing scrolls sideways), in their first
state and in the states that add content (an action chosen with its odds and the
range rings, a CRITICAL FAILURE in the log and a down combatant, a setup refused at a
field, every sheet field open).

axe-core comes from npm and is used by these tests only: README's test command
(``.ci/test``) installs it with :data:`AXE_INSTALL` (``FRACAS_AXE`` names another
``axe.min.js``). Without it every test here fails, naming that command: nothing is
skipped in silence. Screenshots of every page checked are saved in
``build/screenshots/`` (gitignored)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from fracas.model import Action
from tests.web.test_browser import NEEDS_CHROMIUM
from tests.web.test_setup_browser import SetupServer

ROOT = Path(__file__).parents[2]
AXE_DEFAULT = ROOT / "node_modules" / "axe-core" / "axe.min.js"
"""Where :data:`AXE_INSTALL` puts axe-core."""
AXE = Path(os.environ.get("FRACAS_AXE", AXE_DEFAULT))
AXE_INSTALL = "npm ci --no-audit --no-fund -q"
"""The one command that brings axe-core (pinned in package.json, with esbuild) where
:data:`AXE` looks, run from the repository root; ``.ci/test`` runs it."""
SHOTS = ROOT / "build" / "screenshots"
pytestmark = NEEDS_CHROMIUM


def require_axe(path: Path) -> None:
    """Fail (never skip) when axe-core is not at ``path``, naming the command that brings it."""
    if not path.exists():
        pytest.fail(
            f"axe-core is not installed at {path}: run `{AXE_INSTALL}` (README's test "
            "command, .ci/test, does), or name an axe.min.js in FRACAS_AXE",
            pytrace=False,
        )


@pytest.fixture(autouse=True)
def _axe_installed() -> None:
    require_axe(AXE)


DESKTOP = {"width": 1200, "height": 900}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[SetupServer]:
    s = SetupServer(tmp_path, win_bar=True)  # the bar on the page, held to the rules too
    yield s
    s.stop()


def axe(page: Any) -> list[str]:
    """The serious and critical violations axe-core finds on ``page``, one line each
    (axe-core added to the page once: a check after a change of the same page runs the
    one it has, instead of parsing its half megabyte again)."""
    if not page.evaluate("typeof window.axe === 'object' && typeof window.axe.run === 'function'"):
        page.add_script_tag(path=str(AXE))
    result: dict[str, Any] = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {v['help']}: "
        + "; ".join(f"{n['target']} {n['failureSummary']}" for n in v["nodes"][:5])
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def no_sideways_scroll(page: Any) -> None:
    """Neither the page nor a box inside it (the stored encounters' table) scrolls sideways."""
    viewport = page.viewport_size["width"]
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport, f"the page is {width} px wide in a {viewport} px viewport"
    boxes = page.evaluate(
        """[...document.querySelectorAll('body *')]
          .filter((e) => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX)
                         && e.scrollWidth > e.clientWidth + 1)
          .map((e) => `${e.tagName}#${e.id}.${e.className}: ${e.scrollWidth} > ${e.clientWidth}`)"""
    )
    assert boxes == [], "boxes that scroll sideways"


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def opened(browser: Any, url: str, viewport: dict[str, int], ready: str) -> Any:
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(url)
    page.wait_for_selector(ready)
    return page


PAGES: dict[str, tuple[Callable[[SetupServer], str], str]] = {
    "gm": (lambda s: f"/t/{s.gm}", "#order li"),
    "player": (lambda s: f"/t/{s.ana}", "#order li"),
    "setup": (lambda s: f"/setup/{s.setup}", "fieldset.combatant"),
    # issue 22: the links with their QR codes and the map upload; the landing page
    "gm-links": (lambda s: f"/t/{s.gm}", "#links .link-qr"),
    "landing": (lambda s: "/", "main"),
}


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("which", list(PAGES))
def test_no_serious_or_critical_violation_on_first_load(
    server: SetupServer, browser: Any, which: str, viewport: dict[str, int]
) -> None:
    path, ready = PAGES[which]
    page = opened(browser, server.base + path(server), viewport, ready)
    assert axe(page) == []
    no_sideways_scroll(page)
    shot(page, f"{which}-{viewport['width']}")
    page.context.close()


def test_no_violation_with_an_action_chosen_its_odds_and_the_rings(
    server: SetupServer, browser: Any
) -> None:
    for viewport in (DESKTOP, PHONE):
        page = opened(browser, f"{server.base}/t/{server.ana}", viewport, "#order li")
        page.get_by_role("button", name="Gun range").click()  # DC-A5's words
        page.get_by_role("button", name="Attack", exact=True).click()
        page.get_by_role("button", name="Attack Bo").hover()
        page.wait_for_selector("#odds .odds-line")
        assert axe(page) == []
        no_sideways_scroll(page)
        shot(page, f"player-odds-{viewport['width']}")
        page.context.close()


def test_no_violation_on_a_phone_with_a_tap_preview_the_roster_and_the_scrap_note(
    server: SetupServer, browser: Any
) -> None:
    # issue 22: the new controls (a tap's preview and its Confirm, the roster, the
    # roller, the weapon's note) on a touch phone
    touch = {"has_touch": True, "is_mobile": True}
    gm = browser.new_context(viewport=PHONE, **touch).new_page()
    gm.goto(f"{server.base}/t/{server.gm}")
    gm.wait_for_selector("#roster li")
    gm.get_by_role("button", name="Attack", exact=True).first.tap()
    gm.locator("#actions .targets button").first.tap()
    gm.wait_for_selector("#odds .odds-line")
    assert gm.locator("#confirm-go").is_visible()
    assert axe(gm) == []
    no_sideways_scroll(gm)
    shot(gm, "gm-phone-preview-roster")
    gm.context.close()


def test_no_violation_with_a_critical_failure_in_the_log_and_a_down_combatant(
    server: SetupServer, browser: Any
) -> None:
    # DC-38: Ana's natural 1 is a CRITICAL FAILURE, which the log makes stand out
    server.table.act(Action("ana", "attack", "bo", dice={"attack": (1,)}))
    server.table.act(Action("cy", "set", params={"hp": 0}))
    for token, name in ((server.gm, "gm"), (server.ana, "player")):
        for viewport in (DESKTOP, PHONE):
            page = opened(browser, f"{server.base}/t/{token}", viewport, "#log .critical_failure")
            assert axe(page) == []
            no_sideways_scroll(page)
            shot(page, f"{name}-critical-{viewport['width']}")
            page.context.close()


def test_no_violation_on_a_refused_setup_with_every_field_open(
    server: SetupServer, browser: Any
) -> None:
    for viewport in (DESKTOP, PHONE):
        page = opened(browser, f"{server.base}/setup/{server.setup}", viewport, ".combatant")
        page.locator("fieldset.combatant").nth(1).get_by_label("hp", exact=True).fill("abc")
        page.get_by_role("button", name="Start the encounter").click()
        page.wait_for_selector(".field-error")
        page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
        assert axe(page) == []
        no_sideways_scroll(page)
        shot(page, f"setup-refused-{viewport['width']}")
        for ruleset in ("tier-duel", "escalation", "soak", "wasteland"):
            page.select_option("#ruleset", ruleset)
            page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
            assert axe(page) == [], ruleset
            no_sideways_scroll(page)
        page.context.close()


def _contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two CSS colours given as ``rgb(r, g, b)``."""

    def lum(rgb: str) -> float:
        parts = [int(x) / 255 for x in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3]]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in parts]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_token_initials_contrast_with_their_disc(server: SetupServer, browser: Any) -> None:
    """axe reports SVG text only as "incomplete": the initials on each token are checked
    here, on every side colour of the page, at 4.5:1 (WCAG AA for normal text)."""
    page = opened(browser, f"{server.base}/t/{server.gm}", DESKTOP, "#order li")
    pairs = page.evaluate(
        """[...document.querySelectorAll('g.token')].map((t) => [
             t.getAttribute('data-id'),
             getComputedStyle(t.querySelector('text.name')).fill,
             getComputedStyle(t.querySelector('circle.disc')).fill])"""
    )
    assert len(pairs) >= 2 and len({disc for _, _, disc in pairs}) >= 2
    for cid, ink, disc in pairs:
        assert _contrast(ink, disc) >= 4.5, (cid, ink, disc)
    page.context.close()
