"""A fight of every ruleset through the page (issue 12, Tests): the game master's page
plays each bundled example from its start by clicking, an action with an enemy target
where one is offered and End turn otherwise, until one side is down or a bounded number
of turns; the page's log and HP then equal what the table service holds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fracas.rulesets.base import is_down
from fracas.table import Identity, Table, View
from fracas.web.live import RATE
from fracas.web.shown import page_lines
from tests.web.test_browser import NEEDS_CHROMIUM, SHOTS, Server

pytestmark = NEEDS_CHROMIUM
EXAMPLES = Path(__file__).parents[2] / "examples"
TURNS = 24
"""Actions tried at most (attacks and ended turns)."""


def _over(table: Table) -> bool:
    """One side has no combatant standing."""
    state = table.state
    standing = {c.side for c in state.combatants.values() if not is_down(table.ruleset, c)}
    return len(standing) < 2


def _enemies(table: Table) -> set[str]:
    state = table.state
    me = state.get(state.turn.actor)
    return {
        c.id
        for c in state.combatants.values()
        if c.side != me.side and not is_down(table.ruleset, c)
    }


PACE = """
window.__sent = [];
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  window.__sent.push(Date.now());
  return send.call(this, data);
};
"""
"""Kept by the page: when it sent each socket message."""


def _pace(page: Any) -> None:
    """Wait until the page has room under the server's rate limit (fracas.web.live.RATE:
    30 messages in 5 s; hovering a target asks for its odds): a person clicks slower."""
    count, window = RATE
    page.wait_for_function(
        f"window.__sent.filter((t) => Date.now() - t < {window * 1000}).length < {count - 8}",
        timeout=10_000,
    )


def _settled(page: Any, table: Table) -> None:
    page.wait_for_function(f"document.body.dataset.seq === '{table.seq}'")


def _try_attack(page: Any, table: Table) -> bool:
    """Click the first offered action with an enemy among its targets, then that enemy;
    True when the table took it."""
    enemies = _enemies(table)
    buttons = page.locator("#actions .row[role=group] button:not([disabled])")
    for i in range(buttons.count()):
        button = buttons.nth(i)
        _pace(page)
        button.click()
        targets = page.locator(".targets button[data-target]")
        for j in range(targets.count()):
            target = targets.nth(j)
            if target.get_attribute("data-target") not in enemies:
                continue
            seq = table.seq
            page.evaluate("async () => (await import('/static/state.js')).notice('')")
            _pace(page)
            target.click()
            page.wait_for_function(
                f"Number(document.body.dataset.seq) > {seq}"
                " || !document.getElementById('notice').hidden"
            )
            if table.seq > seq:
                return True
            break  # refused by the rules (the notice says why): the next action
        if page.locator("#actions button[aria-pressed=true]").count():
            page.keyboard.press("Escape")
    return False


@pytest.mark.parametrize("example", ["dice-combat", "wasteland", "soak", "tier-duel", "escalation"])
def test_a_fight_of_each_ruleset_through_the_page(
    tmp_path: Path, browser: Any, example: str
) -> None:
    text = (EXAMPLES / f"{example}.yaml").read_text().split("\nactions:")[0]
    server = Server(tmp_path, text)
    try:
        table = server.table
        gm = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
        gm.add_init_script(PACE)
        gm.goto(f"{server.base}/t/{server.gm}")
        gm.wait_for_selector("#order li")
        attacks = 0
        for _ in range(TURNS):
            if _over(table):
                break
            _settled(gm, table)
            if _try_attack(gm, table):
                attacks += 1
                continue
            seq = table.seq
            _pace(gm)
            gm.click("#end-turn")
            gm.wait_for_function(f"Number(document.body.dataset.seq) > {seq}")
        _settled(gm, table)
        assert attacks >= 2, f"{example}: only {attacks} attacks taken"
        # the page's log is the table's, line by line (each line's words; its rules, where
        # it cites any, behind the line's "Rules" control)
        page_log = gm.evaluate(
            "[...document.querySelectorAll('#log li')].map((li) => li.firstChild.textContent)"
        )
        assert page_log == [
            line["text"] for line in page_lines(View(table.snapshot(), Identity.gm()))
        ]
        # every combatant's HP as the table holds it
        for c in table.state.combatants.values():
            card = gm.locator("#order li", has_text=c.name).first.inner_text()
            assert f"HP {c.hp}/{c.max_hp}" in card, (c.id, card)
        gm.screenshot(path=str(SHOTS / f"fight-{example}.png"), full_page=True)
        print(f"{example}: {table.seq} records, {attacks} attacks, over: {_over(table)}")
    finally:
        server.stop()
