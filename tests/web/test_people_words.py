"""Issue 35, "Words for people", in Debian's Chromium: a short session on each bundled
example, played through the table service while a player's phone page (390x844) and
the game master's page are open: an odds preview tapped on the phone (its "Exact
figures" opened), the player's attack, refusals (the options' reasons and a refused
message's notice), a note, the game master's damage taken back (an undo), the win bar
switched on and off. The player's page then shows no developer's text anywhere a person
reads it (its text, its tooltips): no snake_case word, no backtick, no raw record
(``#17 bo: ...``), no rule ID outside a "Rules" control, no fraction of more than 6
digits; the rule IDs are behind that control, the exact fractions behind "Exact
figures"."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from fracas.rulesets.base import RULE_ID
from fracas.table import GAME_MASTER, Act, Identity, SetPolicy
from tests.web.test_browser import NEEDS_CHROMIUM, SHOTS, Server, synced

pytestmark = NEEDS_CHROMIUM
EXAMPLES = Path(__file__).parents[2] / "examples"

SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")
RAW = re.compile(r"#\d+ \w+:")
FRACTION = re.compile(r"\b(\d+)/(\d+)\b")
SEEN = """() => {
  const said = [document.body.innerText];
  for (const e of document.querySelectorAll("[title]")) said.push(e.getAttribute("title"));
  for (const t of document.querySelectorAll("svg title")) said.push(t.textContent);
  return said.join("\\n");
}"""
"""What a person reads of a page: its rendered text (a closed <details> shows its summary
alone) and every tooltip."""
SEND = "async (a) => (await import('/static/state.js')).send({type: 'act', action: a})"


@dataclass(frozen=True)
class Session:
    player: str
    enemy: str
    refused: dict[str, Any]
    """What the player's page asks after its attacks, refused by the rules."""
    before: list[dict[str, Any]] = field(default_factory=list)
    """The game master's actions first (a move into reach)."""
    attacks: int = 1
    """The player's attacks on the enemy, through the table."""
    params: dict[str, Any] = field(default_factory=dict)
    """The attacks' parameters."""


SESSIONS = {
    "dice-combat": Session("ana", "bo", {"actor": "ana", "do": "attack", "target": "bo"}),
    "tier-duel": Session("ana", "bo", {"actor": "ana", "do": "attack", "target": "bo"}),
    "wasteland": Session(
        "vera",
        "raider",
        {"actor": "vera", "do": "peek"},
        before=[{"actor": "vera", "do": "move", "to": [2, 0], "ap": 2}],
        params={"burst": True},
    ),
    "escalation": Session(
        "ana", "ogre", {"actor": "ana", "do": "attack", "target": "ogre"}, attacks=2
    ),
    "soak": Session(
        "mara",
        "brute",
        {"actor": "mara", "do": "attack", "target": "brute"},
        before=[{"actor": "mara", "do": "move", "to": [7, 0]}],
        attacks=3,
    ),
}


def _shown(page: Any) -> str:
    text: str = page.evaluate(SEEN)
    return text


def _plain(text: str, where: str) -> None:
    """No developer's text in what a person reads."""
    for pattern in (SNAKE, RAW, RULE_ID):
        found = pattern.search(text)
        near = "" if found is None else text[max(0, found.start() - 80) : found.end() + 80]
        assert found is None, (where, found.group(0), near)
    assert "`" not in text, (where, text)
    for numerator, denominator in FRACTION.findall(text):
        assert len(numerator) + len(denominator) <= 6, (where, numerator, denominator, text)


@pytest.mark.parametrize("example", list(SESSIONS))
def test_a_players_page_reads_in_peoples_words(tmp_path: Path, browser: Any, example: str) -> None:
    session = SESSIONS[example]
    text = (EXAMPLES / f"{example}.yaml").read_text().split("\nactions:")[0]
    server = Server(tmp_path, text)
    try:
        table = server.table
        _, token = server.links.add("fight", "Pip", [session.player])
        pip = Identity.player("Pip", session.player)
        for action in session.before:
            table.submit(Act(action), GAME_MASTER)
        context = browser.new_context(viewport={"width": 1200, "height": 900}, has_touch=True)
        gm, phone = context.new_page(), context.new_page()
        phone.set_viewport_size({"width": 390, "height": 844})
        gm.goto(f"{server.base}/t/{server.gm}")
        phone.goto(f"{server.base}/t/{token}")
        gm.wait_for_selector("#order li")
        phone.wait_for_selector("#order li", state="attached")  # folded on a phone (folds.js)
        synced(phone, table.seq)

        # the odds preview: percentages and means in the box, the exact figures behind
        # "Exact figures" (a long fraction as its decimal)
        phone.get_by_role("button", name="Attack", exact=True).tap()
        phone.locator(f'#actions button[data-target="{session.enemy}"]').tap()
        phone.wait_for_selector("#odds .odds-line")
        _plain(_shown(phone), f"{example}: the odds preview")
        figures = phone.locator("#odds details.exact").first
        figures.locator("summary").click()
        exact = figures.locator("ul.exact-figures").inner_text()
        assert re.search(r"\d+/\d+|≈ \d+\.\d{6}", exact), exact
        for numerator, denominator in FRACTION.findall(exact):
            assert len(numerator) + len(denominator) <= 12, exact
        phone.click("#confirm-cancel")

        # the player's attack, then an action the rules refuse: its notice in words
        attack = {"actor": session.player, "do": "attack", "target": session.enemy}
        for _ in range(session.attacks):
            table.submit(Act({**attack, **session.params}), pip)
        synced(phone, table.seq)
        phone.evaluate(SEND, session.refused)
        phone.wait_for_selector("#notice:not([hidden])")
        notice = phone.locator("#notice").inner_text()
        _plain(notice, f"{example}: the notice")
        assert notice[:1].isupper() and ":" not in notice.split(" ")[0], notice

        # the game master's note, damage taken back, the win bar on and off
        table.submit(Act({"actor": session.enemy, "do": "note", "text": "has the key"}))
        table.submit(Act({"actor": session.enemy, "do": "damage", "amount": 1}))
        table.undo()
        table.submit(SetPolicy({"winbar": True}))
        table.submit(SetPolicy({"winbar": False}))
        synced(phone, table.seq)
        synced(gm, table.seq)

        log = phone.locator("#log").inner_text()
        assert "Taken back: the game master damages" in log, log
        assert "The game master turns the win bar on for players" in log, log
        assert "has the key" not in log  # a note is the game master's alone
        said = _shown(phone)
        _plain(said, f"{example}: the player's page")
        # the rules are behind their control, closed, and there
        rules = phone.locator("details.rules")
        assert rules.count() > 0, said
        assert all(d.get_attribute("open") is None for d in rules.all())
        assert any(RULE_ID.search(d.text_content() or "") for d in rules.all())
        SHOTS.mkdir(exist_ok=True)
        phone.screenshot(path=str(SHOTS / f"people-words-{example}.png"), full_page=True)

        # the game master's log reads the same words (a note as "Note on ...")
        gm_log = gm.evaluate(
            "[...document.querySelectorAll('#log li')].map((li) => li.firstChild.textContent)"
        )
        assert any(line.startswith("Note on ") for line in gm_log), gm_log
        _plain("\n".join(gm_log), f"{example}: the game master's log")
        context.close()
    finally:
        server.stop()
