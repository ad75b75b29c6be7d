"""Walking where the rules leave movement to the table (``table: {move: N}``, 6 tiles a
turn by default): a player moves its own token in its own turn, up to what the turn
leaves, by the ruleset's metric; the game master puts any token anywhere; the policy
may keep every move for the game master."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.errors import FracasError
from fracas.io.store import open_store
from fracas.model import Action
from fracas.table import Identity, SetPolicy, TableService
from tests.table.support import WALK_FIGHT as FIGHT

PAT = Identity.player("Pat", "ana")


def test_a_player_walks_its_turns_tiles_and_no_more(tmp_path: Path) -> None:
    table = TableService(open_store(tmp_path / "s.sqlite3", durable=False)).create(
        FIGHT, "f.yaml", seed=1
    )
    table.act(Action("ana", "move", params={"to": (3, 0)}), PAT)  # 3 of 4 (DC: chebyshev)
    assert table.state.get("ana").at == (3, 0) and table.state.turn.walked == 3
    assert table.log[-1].action is not None and table.log[-1].action.params["walk"] is True
    with pytest.raises(FracasError) as err:
        table.act(Action("ana", "move", params={"to": (5, 1)}), PAT)
    assert err.value.code == "too_far"
    assert err.value.message == "[5, 1] is 2 tiles from Ana; it walks 4 a turn and has 1 left"
    table.act(Action("ana", "move", params={"to": (4, 1)}), PAT)
    table.act(Action("bo", "move", params={"to": (0, 5)}))  # the game master's: anywhere
    assert table.state.get("bo").at == (0, 5) and table.state.turn.actor == "ana"
    table.act(Action("ana", "end_turn"), PAT)
    with pytest.raises(FracasError) as err:
        table.act(Action("ana", "move", params={"to": (4, 2)}), PAT)
    assert err.value.code == "not_your_turn"
    table.act(Action("bo", "end_turn"))
    assert table.state.turn.walked == 0  # a new turn, a new walk
    table.submit(SetPolicy({"player_move": False}))
    with pytest.raises(FracasError) as err:
        table.act(Action("ana", "move", params={"to": (4, 2)}), PAT)
    assert (
        err.value.code == "forbidden" and "only the game master moves tokens" in err.value.message
    )


def test_wasteland_players_move_by_its_own_rules(tmp_path: Path) -> None:
    # WL-2: a player's move is its Movement Action, paid MAP first, then AP; a token
    # dragged on the page gives only the tile: the table makes it the actor's own move,
    # a point a tile by the metric (the ruleset's walk), as the lab's tactics take it
    example = (Path(__file__).parents[2] / "examples" / "wasteland.yaml").read_text()
    table = TableService(open_store(tmp_path / "s.sqlite3", durable=False)).create(
        example.split("\nactions:")[0] + "\n", "w.yaml", seed=1
    )
    actor = table.state.turn.actor
    player = Identity.player("Pat", actor)
    at = table.state.get(actor).at
    assert at is not None

    def points() -> int:
        sheet = table.state.get(actor).sheet
        total: int = (getattr(sheet, "map", 0) or 0) + (getattr(sheet, "ap", 0) or 0)
        return total

    before = points()
    table.act(Action(actor, "move", params={"to": (at[0] + 2, at[1] + 1)}), player)
    record = table.log[-1]
    assert record.action is not None and record.by == "Pat"
    assert dict(record.action.params) == {"to": (at[0] + 2, at[1] + 1), "ap": 2}
    assert table.state.get(actor).at == (at[0] + 2, at[1] + 1) and points() == before - 2
    table.act(Action(actor, "move", params={"to": (at[0] + 2, at[1] + 2), "ap": 1}), player)
    assert table.state.get(actor).at == (at[0] + 2, at[1] + 2) and points() == before - 3
    table.act(Action(actor, "move", params={"to": (0, 5)}))  # the game master's: free
    assert table.state.get(actor).at == (0, 5) and points() == before - 3
    with pytest.raises(FracasError) as err:  # the rest of its points and one more
        table.act(Action(actor, "move", params={"to": (0, 5 + before - 2)}), player)
    assert err.value.code == "not_enough_ap"
