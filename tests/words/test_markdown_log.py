"""Issue 36, "Rosters in and out": the log of a played session as Markdown for a
campaign channel. A session from examples/dice-combat.yaml (its first round: Cy's
greataxe misses Ana, DC-22's defence), then the game master hides Cy and writes a note
on Bo: the players' Markdown has no line of Cy's turn, of the hiding or of the note
(the players' page's projection); the game master's has them all."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from starlette.testclient import TestClient

from fracas.io.store import open_store
from fracas.model import Action
from fracas.table import TableService
from fracas.words.markdown_log import markdown_log, md
from tests.web.support import served

EXAMPLE = Path(__file__).parents[2] / "examples" / "dice-combat.yaml"

ROUND_ONE_SEEN_BY_ALL = [
    "## Round 1",
    "",
    "### Ana's turn",
    "",
    "- **Ana attacks Bo**",
    "  - Ana attacks Bo with the pistol (medium, 6 tiles): d20 8 +1 bonus +1 gunslinger = 10",
    "  - ammo: 3 fired, 3 left in the pistol",
    "  - Bo defends (ranged): d20 18 = 18 -> miss",
    "- **Bo moves to tile 4, 1**",
    "",
    "### Bo's turn",
    "",
    "- **Bo ends its turn**",
]


@pytest.fixture(scope="module")
def tables() -> Iterator[TableService]:
    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    data["actions"] = data["actions"][:6]  # round 1
    store = open_store(":memory:")
    service = TableService(store)
    table = service.create_from(data, "dice-combat.yaml", name="gate", seed=3)
    table.act(Action("cy", "hide"))
    table.act(Action("bo", "note", params={"text": "wants *revenge*\nat dawn"}))
    yield service
    store.close()


def test_the_players_markdown_leaves_out_the_hidden_combatant_and_the_note(
    tables: TableService,
) -> None:
    text = markdown_log(tables.log_view("gate"), "gate")
    assert text.splitlines() == [
        "# gate: Dice Combat - Weapons & Damage",
        "",
        "*The players' view; ruleset dice-combat.*",
        "",
        *ROUND_ONE_SEEN_BY_ALL,
        "- **The game master acts out of sight**",  # Cy's move (Cy's turn: no heading)
        "- **The game master acts out of sight**",  # Cy's attack: Ana's defence alone
        "  - Ana defends (close): d20 12 +1 bonus = 13 -> miss",
        "",
        "### Dee's turn",  # begun within Dee's action's record: headed before it
        "",
        "- **Dee attacks Bo**",
        "  - ammo: 1 fired, 0 left in the crossbow",
        "  - Bo defends (ranged): d20 16 = 16 -> HIT",
        "  - Bo takes damage: hurt",  # an enemy's HP as a label (the default policy)
        "- **The game master acts out of sight**",  # the hiding; the note has no line at all
        "",
        "**Result:** The fight goes on (round 1).",
    ]
    assert "Cy" not in text and "revenge" not in text


def test_the_game_masters_markdown_has_every_line(tables: TableService) -> None:
    lines = markdown_log(tables.log_view("gate", gm=True), "gate").splitlines()
    assert lines[2] == (
        "*The game master's view (hidden combatants and notes included: not for the "
        "players); ruleset dice-combat.*"
    )
    assert lines[4:17] == ROUND_ONE_SEEN_BY_ALL
    assert lines[17:] == [
        "",
        "### Cy's turn",
        "",
        "- **Cy moves to tile 1, 1**",
        "- **Cy attacks Ana**",
        "  - Cy attacks Ana with the greataxe (melee): d20 5 = 5",
        "  - Ana defends (close): d20 12 +1 bonus = 13 -> miss",
        "",
        "### Dee's turn",
        "",
        "- **Dee attacks Bo**",
        "  - Dee attacks Bo with the crossbow (close, 4 tiles): d20 20 -2 close +1 spotter "
        "-1 strong arm = 18 (critical success)",
        "  - ammo: 1 fired, 0 left in the crossbow",
        "  - Bo defends (ranged): d20 16 = 16 -> HIT",
        "  - Bo takes 5 damage (4 base + 1 critical): HP 12 -> 7",
        "- **The game master hides Cy from the players**",
        "- **The game master writes a note on Bo**",
        "  - Note on Bo: wants \\*revenge\\* at dawn",  # escaped, on one line
        "",
        "**Result:** The fight goes on (round 1).",
    ]


def test_a_text_reads_as_typed_on_one_line_and_moves_no_terminal() -> None:
    assert md("*Vex* [the] <b>_x_</b>|~`\n\x1b[2J ok ") == (
        "\\*Vex\\* \\[the\\] \\<b>\\_x\\_\\</b>\\|\\~\\` \\x1b\\[2J ok"
    )


def test_a_fight_the_game_master_ends_says_so_at_the_end() -> None:
    store = open_store(":memory:")
    try:
        service = TableService(store)
        text = EXAMPLE.read_text(encoding="utf-8").split("actions:")[0]
        table = service.create(text, "dice-combat.yaml", name="short", seed=3)
        table.act(Action("ana", "finish"))
        lines = markdown_log(service.log_view("short"), "short").splitlines()
    finally:
        store.close()
    assert lines[-3:] == [
        "- **The game master ends the fight**",
        "",
        "**Result:** The game master ended the fight.",
    ]


def test_the_pages_route_serves_each_token_its_own_markdown(tmp_path: Path) -> None:
    """``/api/log.md`` behind the page's token: the game master's page gets the players'
    view, and its own with ``view=gm``; a player's page its own view, never the game
    master's (``forbidden``)."""
    with served(tmp_path) as s:
        s.table.act(Action("bo", "note", params={"text": "wants revenge"}))
        client = TestClient(s.app)

        def get(token: str, query: str = "") -> Any:
            return client.get(f"/api/log.md{query}", headers={"Authorization": f"Bearer {token}"})

        players, gm, pat = get(s.gm), get(s.gm, "?view=gm"), get(s.ana)
        assert [r.status_code for r in (players, gm, pat)] == [200, 200, 200]
        assert gm.headers["content-disposition"] == 'attachment; filename="fight-gm.md"'
        assert players.headers["content-type"] == "text/markdown; charset=utf-8"
        assert "- Note on Bo: wants revenge" not in players.text
        assert "  - Note on Bo: wants revenge" in gm.text.splitlines()
        assert "revenge" not in pat.text and pat.text.startswith("# fight: ")
        refused = get(s.ana, "?view=gm")
        assert (refused.status_code, refused.json()["code"]) == (403, "forbidden")
        assert get("nope").json()["code"] == "bad_token"
