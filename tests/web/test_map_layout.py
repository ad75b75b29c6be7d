"""A map you can read (issue 22, item 7), in Debian's Chromium, on every example's
start: no two token labels or badges overlap at the default zoom, on a wide screen and
on a phone; on a phone (390x844, touch) every token is a tap target of at least 44 px
and the page has no sideways scroll; "Fit" shows the whole map again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fracas.table import Act
from tests.web.test_browser import NEEDS_CHROMIUM, SHOTS, Server

pytestmark = NEEDS_CHROMIUM
EXAMPLES = sorted((Path(__file__).parents[2] / "examples").glob("*.yaml"))
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
BOXES = """() => [...document.querySelectorAll('#tokens text.label, #tokens text.badge')]
  .filter(t => t.getAttribute('display') !== 'none')
  .map(t => { const r = t.getBoundingClientRect();
    return [t.closest('.token').dataset.id, t.textContent, r.x, r.y, r.width, r.height]; })"""


def _overlaps(boxes: list[list[Any]]) -> list[tuple[str, str]]:
    out = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if (
                a[2] < b[2] + b[4]
                and b[2] < a[2] + a[4]
                and a[3] < b[3] + b[5]
                and b[3] < a[3] + a[5]
            ):
                out.append((f"{a[0]}: {a[1]}", f"{b[0]}: {b[1]}"))
    return out


def _server(tmp_path: Path, example: Path) -> Server:
    return Server(tmp_path, example.read_text().split("\nactions:")[0])


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.stem for e in EXAMPLES])
def test_no_two_labels_overlap_and_a_phones_tokens_take_a_44_px_tap(
    tmp_path: Path, browser: Any, example: Path
) -> None:
    server = _server(tmp_path, example)
    try:
        placed = [c for c in server.table.state.combatants.values() if c.at is not None]
        gm = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        gm.goto(f"{server.base}/t/{server.gm}")
        gm.wait_for_selector("#tokens .token")
        boxes = gm.evaluate(BOXES)
        assert (
            len([b for b in boxes if b[1].startswith(server.table.state.get(placed[0].id).name)])
            >= 1
        )
        assert _overlaps(boxes) == []
        phone = browser.new_context(**PHONE).new_page()
        phone.goto(f"{server.base}/t/{server.gm}")
        phone.wait_for_selector("#tokens .token")
        assert _overlaps(phone.evaluate(BOXES)) == []
        hits = phone.locator("#tokens .token .hit").all()
        assert len(hits) == len(placed)
        for hit in hits:
            box = hit.bounding_box()
            assert box is not None and box["width"] >= 44 and box["height"] >= 44, box
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width} px wide on a 390 px phone"
        phone.locator("#map-box").screenshot(path=str(SHOTS / f"map-phone-{example.stem}.png"))
        phone.locator("#zoom-reset").tap()
        assert phone.locator("#zoom-level").inner_text() == "100%"
    finally:
        server.stop()


def test_labels_of_tokens_side_by_side_do_not_run_together(tmp_path: Path, browser: Any) -> None:
    # the audit's melee: Ana and Bo adjacent, each with statuses: labels and badges apart
    server = _server(tmp_path, EXAMPLES[0])
    try:
        for cid, to in (("ana", [3, 2]), ("bo", [4, 2]), ("cy", [3, 3])):
            server.table.submit(Act({"actor": cid, "do": "move", "to": to}))
        for status in ("burning", "prone", "stunned"):
            server.table.submit(Act({"actor": "ana", "do": "status", "add": status}))
        server.table.submit(Act({"actor": "bo", "do": "status", "add": {"burning": {"turns": 3}}}))
        gm = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        gm.goto(f"{server.base}/t/{server.gm}")
        gm.wait_for_selector("#tokens .token")
        boxes = gm.evaluate(BOXES)
        assert _overlaps(boxes) == []
        shown = {b[1] for b in boxes}
        assert "burning 3" in shown  # Bo's badge whole, with its turns
        hidden = gm.evaluate(
            "[...document.querySelectorAll('#tokens text.crowded')].map(t => t.textContent)"
        )
        for text in hidden:  # what found no place is still said: the token's own label
            assert any(
                text in t.get_attribute("aria-label") for t in gm.locator("#tokens .token").all()
            )
        gm.locator("#map-box").screenshot(path=str(SHOTS / "map-melee-labels.png"))
    finally:
        server.stop()
