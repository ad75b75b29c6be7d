"""Issue 22, item 2: a condition with a duration. A free-form mark the game master sets
with ``turns`` (a status the ruleset does not read) counts down at the start of its
bearer's turn, is logged, and is gone when none is left, in every ruleset; a ruleset's
own status keeps its own rule (dice-combat's burning: DC-24, two ticks)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.io.store import open_store
from fracas.model import Action
from fracas.table import GAME_MASTER, Act, Table, TableService

ROOT = Path(__file__).parents[2]
EXAMPLES = ("dice-combat", "tier-duel", "escalation", "soak", "wasteland")


def _table(example: str) -> Table:
    text = (ROOT / "examples" / "start" / f"{example}.yaml").read_text()
    return TableService(open_store(":memory:")).create(text, f"{example}.yaml", seed=1)


def _end_turn(table: Table) -> None:
    table.submit(Act(Action(table.state.turn.actor, "end_turn")), GAME_MASTER)


@pytest.mark.parametrize("example", EXAMPLES)
def test_a_free_mark_counts_its_turns_down_at_its_bearers_turn_and_goes(example: str) -> None:
    table = _table(example)
    order = table.state.order
    bearer = order[1]  # not the one acting: its turn comes after one end of turn
    table.submit(
        Act(Action(bearer, "status", params={"add": {"marked": {"turns": 2, "by": "GM"}}})),
        GAME_MASTER,
    )
    assert table.state.get(bearer).statuses["marked"] == {"turns": 2, "by": "GM"}
    _end_turn(table)  # the bearer's turn starts: one turn left
    assert table.state.turn.actor == bearer
    assert table.state.get(bearer).statuses["marked"] == {"turns": 1, "by": "GM"}
    for _ in order:  # round again to the bearer's next turn: none left, gone
        _end_turn(table)
    assert table.state.turn.actor == bearer
    assert "marked" not in table.state.get(bearer).statuses
    table.submit(Act(Action(bearer, "status", params={"add": "hunted"})), GAME_MASTER)
    for _ in order:  # a mark without turns stays until taken off
        _end_turn(table)
    assert "hunted" in table.state.get(bearer).statuses


def test_dc_24_burning_keeps_its_own_rule_beside_a_free_mark() -> None:
    table = _table("dice-combat")
    bearer = table.state.order[1]
    table.submit(
        Act(Action(bearer, "status", params={"add": {"burning": {}, "marked": {"turns": 3}}})),
        GAME_MASTER,
    )
    hp = table.state.get(bearer).hp
    _end_turn(table)
    statuses = table.state.get(bearer).statuses
    assert statuses["marked"] == {"turns": 2}
    assert statuses["burning"]["turns"] == 1  # DC-24: one tick done, one to come
    assert table.state.get(bearer).hp < hp
