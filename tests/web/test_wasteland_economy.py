"""Issue 35, item 7, "Wasteland's economy in view", in Debian's Chromium on a touch
phone (390x844, ``has_touch``, ``is_mobile``): a Final Action's cost in its panel
(WL-29); a player taps Attack and a target and reads, before Confirm, what the attack
costs and what is left (the rules' own figure: ``Ruleset.costs`` of the decided action,
sent with the odds: WL-5), a burst's too; then, in the raider's turn, Vera's phone is
prompted to react ("Vera can react: Overwatch attack on the raider", WL-30) and the
reaction is taken from it, previewed (a shot of the allowance) and confirmed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fracas.rulesets.wasteland.sheet import Sheet
from fracas.table import Act
from tests.web.test_browser import NEEDS_CHROMIUM, SHOTS, Server, synced

pytestmark = NEEDS_CHROMIUM
START = (Path(__file__).parents[2] / "examples" / "start" / "wasteland.yaml").read_text()
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path, START)
    yield s
    s.stop()


def _cost(page: Any, text: str) -> None:
    page.wait_for_function(
        "t => [...document.querySelectorAll('#odds .cost-line')].some(p => p.textContent === t)",
        arg=text,
    )


def test_WL_5_WL_30_the_phone_shows_the_cost_before_confirm_and_is_prompted_to_react(
    server: Server, browser: Any
) -> None:
    SHOTS.mkdir(exist_ok=True)
    _, token = server.links.add("fight", "Val", ["vera"])
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{server.base}/t/{token}")
    page.wait_for_selector("#order li", state="attached")  # folded on a phone (folds.js)
    seq = server.table.seq
    # an action without odds (a Final Action): its cost in the chosen action's panel
    page.get_by_role("button", name="Defend", exact=True).tap()
    panel = page.locator("#actions .cost-line")
    panel.wait_for()
    assert panel.inner_text() == "Costs 3 AP (Vera: 9 → 6 AP)"  # WL-29: all AP up to 3
    page.get_by_role("button", name="Attack", exact=True).tap()
    page.get_by_role("button", name="Attack the raider").tap()
    _cost(page, "Costs 3 AP (Vera: 9 → 6 AP)")  # WL-5: the smg's 3 AP
    assert page.locator("#confirm-go").is_visible()
    page.locator("#actions label.flag", has_text="Burst").locator("input").tap()
    _cost(page, "Costs 4 AP (Vera: 9 → 5 AP)")  # a burst: +1
    page.screenshot(path=str(SHOTS / "phone-cost-before-confirm.png"), full_page=True)
    assert server.table.seq == seq  # nothing sent yet
    page.locator("#confirm-go").tap()
    page.wait_for_function(f"Number(document.body.dataset.seq) > {seq}")
    assert server.table.state.get("vera").sheet.ap == 5
    # Vera enters Overwatch (5 AP: 5 // 3 + 1 = 2 shots) and ends her turn: the raider's
    server.table.submit(Act({"actor": "vera", "do": "overwatch"}))
    server.table.submit(Act({"actor": "vera", "do": "end_turn"}))
    assert server.table.state.turn.actor == "raider"
    synced(page, server.table.seq)
    prompt = page.locator(".react-prompt")
    prompt.wait_for()
    assert prompt.locator("strong").inner_text() == "Vera can react: Overwatch attack on the raider"
    page.screenshot(path=str(SHOTS / "phone-react-prompt.png"), full_page=True)
    seq = server.table.seq
    prompt.get_by_role("button").tap()
    _cost(page, "Uses 1 Overwatch shot (Vera: 2 → 1 left)")
    page.screenshot(path=str(SHOTS / "phone-react-preview.png"), full_page=True)
    assert server.table.seq == seq
    page.locator("#confirm-go").tap()
    page.wait_for_function(f"Number(document.body.dataset.seq) > {seq}")
    record = server.table.log[-1]
    assert record.by == "Val" and record.action is not None
    assert (record.action.do, record.action.target) == ("overwatch_attack", "raider")
    watch = server.table.state.get("vera").statuses["overwatch"]
    assert watch["shots"] == 1
    assert isinstance(server.table.state.get("vera").sheet, Sheet)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px phone"
    # the raider (nobody plays it) enters Overwatch: in Knox's turn the game master's
    # page is prompted for it (its owner is the game master)
    server.table.submit(Act({"actor": "raider", "do": "overwatch"}))
    server.table.submit(Act({"actor": "raider", "do": "end_turn"}))
    gm = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    gm.goto(f"{server.base}/t/{server.gm}")
    gm.wait_for_selector("#order li")
    synced(gm, server.table.seq)
    said = gm.locator(".react-prompt strong").all_inner_texts()
    assert said == [
        "The raider can react: Overwatch attack on Vera",
        "The raider can react: Overwatch attack on Knox",
    ]
    gm.locator("#act-box").screenshot(path=str(SHOTS / "gm-react-prompt.png"))
