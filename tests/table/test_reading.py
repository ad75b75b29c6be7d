"""An action read once at the door (:mod:`fracas.table.reading`): a page that saw an
older seq is told the table moved on; a player names no hidden combatant and takes no
game master's action; a player's move is its actor's own walk."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.errors import FracasError
from fracas.io.store import open_store
from fracas.model import NO_ACTOR, Action
from fracas.table import Forbidden, Identity, Table, TableService
from fracas.table.reading import check_seen, read
from tests.play.support import EXAMPLES

EXAMPLE = (EXAMPLES / "dice-combat.yaml").read_text().split("actions:")[0]
GM, ANA = Identity.gm(), Identity.player("Ana", "ana")


def _table(tmp: Path) -> Table:
    store = open_store(tmp / "s.sqlite3", durable=False)
    return TableService(store).create(EXAMPLE, "dice-combat.yaml", seed=3)


def test_a_page_behind_is_told_the_table_moved_on() -> None:
    check_seen(4, None)
    check_seen(4, 4)
    with pytest.raises(FracasError) as moved:
        check_seen(4, 3)
    assert moved.value.code == "moved_on" and "record 4, your page saw 3" in moved.value.message


def test_a_player_reads_no_hidden_combatant_nor_the_game_masters_actions(
    tmp_path: Path,
) -> None:
    table = _table(tmp_path)
    table.act(Action("bo", "hide"))
    state = table.state
    assert "bo" in state.hidden
    with pytest.raises(FracasError) as unknown:
        read(table.file, {"actor": "ana", "do": "attack", "target": "bo"}, ANA, state)
    assert unknown.value.code == "unknown_combatant" and "bo" not in unknown.value.message
    assert read(table.file, Action("ana", "attack", "bo"), GM, state).target == "bo"
    with pytest.raises(Forbidden):
        read(table.file, {"actor": "ana", "do": "set", "params": {"hp": 1}}, ANA, state)


def test_a_players_move_is_its_own_walk(tmp_path: Path) -> None:
    table = _table(tmp_path)
    given = {"actor": "ana", "do": "move", "to": [0, 1]}
    assert read(table.file, given, GM, table.state).params.get("walk") is None
    assert read(table.file, given, ANA, table.state).params.get("walk") is True


def test_the_game_masters_roll_is_its_own_whoever_it_names(tmp_path: Path) -> None:
    """Issue 35: a table action by the game master is logged as the game master's, never
    a combatant's; a player's roll as the combatant it names."""
    table = _table(tmp_path)
    for given in (
        {"do": "roll", "notation": "2d6+1"},
        {"actor": None, "do": "roll", "notation": "2d6+1"},
        {"actor": "bo", "do": "roll", "notation": "2d6+1"},
    ):
        assert read(table.file, given, GM, table.state).actor == NO_ACTOR, given
    mine = read(table.file, {"actor": "ana", "do": "roll", "notation": "1d6"}, ANA, table.state)
    assert mine.actor == "ana"
    record = table.act({"actor": "bo", "do": "roll", "notation": "2d6+1"}, GM)
    assert record.action is not None and record.action.actor == NO_ACTOR and record.by is None
    assert str(record.events[0].describe(table.state)).startswith("The game master rolls 2d6+1: ")
