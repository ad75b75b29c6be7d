"""Issue 32, item 7 in Chromium: the pages work under their Content-Security-Policy
(scripts and styles only from the server itself). The game master's page, a player's
page and the setup page are used (an attack chosen, its odds shown with their bars,
the win bar, the links with their QR codes, the setup form) and no violation of the
policy is reported, neither as a ``securitypolicyviolation`` event nor on the console.
These contexts keep the policy (``bypass_csp=False``), so they wait with selectors
only: Playwright's ``wait_for_function`` uses ``eval``, which the policy forbids."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.test_browser import NEEDS_CHROMIUM, Server

pytestmark = NEEDS_CHROMIUM

WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}`);
});
"""


def strict(browser: Any, reports: list[str], width: int = 1200) -> Any:
    """A page held to the policy, its violations and console errors kept in ``reports``."""
    page = browser.new_context(
        viewport={"width": width, "height": 900}, bypass_csp=False
    ).new_page()
    page.add_init_script(WATCH)
    page.on(
        "console",
        lambda m: reports.append(m.text) if "Content Security Policy" in m.text else None,
    )
    return page


def violations(page: Any) -> list[str]:
    found: list[str] = page.evaluate("window.__violations")
    return found


def test_the_pages_report_no_violation_of_their_policy(tmp_path: Path, browser: Any) -> None:
    server = Server(tmp_path, setup=True, win_bar=True)
    try:
        reports: list[str] = []
        gm = strict(browser, reports)
        gm.goto(f"{server.base}/t/{server.gm}")
        gm.wait_for_selector("#order li")
        gm.wait_for_selector("#links img.link-qr")  # the links, each with its QR code
        qr = gm.locator("#links img.link-qr").first
        assert qr.evaluate("img => img.complete && img.naturalWidth") > 100  # it rendered
        # the win bar, drawn (in words while it is working it out: issue 34 gives no
        # figure while the estimate is wider than ±10 points)
        gm.wait_for_selector("#winbar-box:not([hidden]) #winbar-how:not(:empty)")

        pat = strict(browser, reports, 390)
        pat.goto(f"{server.base}/t/{server.ana}")
        pat.wait_for_selector("#order li")
        pat.get_by_role("button", name="Attack", exact=True).click()
        pat.get_by_role("button", name="Attack Bo").hover()
        pat.wait_for_selector("#odds .odds-line")
        pat.wait_for_selector("#odds .bars span")
        height = pat.locator("#odds .bars span").first.evaluate(
            "s => s.getBoundingClientRect().height"
        )
        assert height >= 1  # the bars' heights, set through the CSSOM, apply

        setup = strict(browser, reports)
        setup.goto(f"{server.base}/setup/{server.setup}")
        setup.wait_for_selector("fieldset.combatant")
        setup.wait_for_selector("#stored tbody tr")

        for page in (gm, pat, setup):
            assert violations(page) == [], page.url
        assert reports == []
        # the page would have said so: an inline script is refused and reported
        gm.evaluate(
            "() => { const s = document.createElement('style'); s.textContent = 'p{}'; "
            "document.head.append(s); }"
        )
        gm.wait_for_timeout(200)
        assert violations(gm) and any("Content Security Policy" in r for r in reports)
    finally:
        server.stop()
