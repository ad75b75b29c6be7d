"""What a dragged token's move would cost, asked of the table before the drop (issue 22,
item 3): in wasteland the actor's own move pays MAP first, then AP, one point a tile
(WL-2; the cost a tile is PROPOSED, wasteland.md 2.5), in the rules' own words; a tile
it cannot pay is refused with the rule's code, and the drop there is refused alike.
Elsewhere the same question gives the table's walk (its tiles left, or ``too_far``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.errors import FracasError
from fracas.io.store import open_store
from fracas.model import Action
from fracas.table import GAME_MASTER, Identity, Table, TableService
from tests.table.support import WALK_FIGHT

EXAMPLES = Path(__file__).parents[2] / "examples"
PAT = Identity.player("Pat", "vera")
KIT = Identity.player("Kit", "knox")


def _wasteland(tmp_path: Path) -> Table:
    text = (EXAMPLES / "wasteland.yaml").read_text().split("\nactions:")[0] + "\n"
    return TableService(open_store(tmp_path / "s.sqlite3", durable=False)).create(
        text, "w.yaml", seed=1
    )


def _move(actor: str, x: int, y: int) -> dict[str, object]:
    return {"actor": actor, "do": "move", "to": [x, y]}


def test_WL_2_the_cost_of_a_drag_is_the_rules_line_and_an_unpayable_tile_is_refused(
    tmp_path: Path,
) -> None:
    table = _wasteland(tmp_path)
    assert table.state.turn.actor == "vera"  # Sequence 13, players first; 9 AP, no MAP
    seq = table.seq
    cost = table.move_cost(_move("vera", 3, 0), PAT, seq)
    assert cost.to_json() == {
        "actor": "vera",
        "to": [3, 0],
        "tiles": 3,
        "allowed": True,
        "words": ["Vera spends 3 on movement: MAP 0 -> 0, AP 9 -> 6"],
        "code": None,
        "message": None,
        "free": False,
        "own": True,
    }
    far = table.move_cost(_move("vera", 10, 0), PAT, seq)  # 10 tiles: 10 points, 9 AP
    assert (far.allowed, far.tiles, far.words) == (False, 10, ())
    assert far.code == "not_enough_ap"
    assert far.message == "'vera' has 0 MAP and 9 AP; this move costs 10 (WL-2)"
    assert table.seq == seq  # asking wrote nothing
    # the drop there is refused with the same code; the payable one is stored as WL-2's
    with pytest.raises(FracasError) as err:
        table.act(Action("vera", "move", params={"to": (10, 0)}), PAT)
    assert (err.value.code, err.value.message) == (far.code, far.message)
    table.act(Action("vera", "move", params={"to": (3, 0)}), PAT)
    record = table.log[-1]
    assert record.action is not None and record.action.params == {"to": (3, 0), "ap": 3}
    assert table.state.get("vera").sheet.ap == 6
    # what is left: 6 AP; 6 tiles on is payable, 7 is not
    assert table.move_cost(_move("vera", 9, 0), PAT).words == (
        "Vera spends 6 on movement: MAP 0 -> 0, AP 6 -> 0",
    )
    assert table.move_cost(_move("vera", 10, 0), PAT).code == "not_enough_ap"


def test_the_game_masters_drag_is_free_and_says_what_the_own_move_would_pay(
    tmp_path: Path,
) -> None:
    table = _wasteland(tmp_path)
    acting = table.move_cost(_move("vera", 10, 0), GAME_MASTER)
    assert (acting.free, acting.own, acting.allowed, acting.code) == (
        True,
        True,
        False,
        "not_enough_ap",
    )
    other = table.move_cost(_move("knox", 5, 5), GAME_MASTER)  # not its turn: a decree
    assert (other.free, other.own, other.allowed, other.words) == (True, False, True, ())
    table.act(Action("vera", "move", params={"to": (10, 0)}))  # the game master's: free
    assert table.state.get("vera").at == (10, 0)
    assert table.state.get("vera").sheet.ap == 9


def test_a_player_asks_only_of_its_own_token_in_its_turn(tmp_path: Path) -> None:
    table = _wasteland(tmp_path)
    with pytest.raises(FracasError) as err:
        table.move_cost(_move("knox", 1, 2), PAT)
    assert err.value.code == "forbidden"
    with pytest.raises(FracasError) as err:
        table.move_cost(_move("knox", 1, 2), KIT)
    assert err.value.code == "not_your_turn"
    with pytest.raises(FracasError) as err:
        table.move_cost({"actor": "vera", "do": "end_turn"}, PAT)
    assert err.value.code == "bad_value"
    with pytest.raises(FracasError) as err:
        table.move_cost(_move("vera", 1, 0), PAT, table.seq - 1)
    assert err.value.code == "moved_on"


def test_the_tables_walk_answers_the_same_question(tmp_path: Path) -> None:
    fight = WALK_FIGHT
    table = TableService(open_store(tmp_path / "s.sqlite3", durable=False)).create(
        fight, "f.yaml", seed=1
    )
    pat = Identity.player("Pat", "ana")
    near = table.move_cost(_move("ana", 3, 0), pat)
    assert (near.allowed, near.words) == (True, ("Ana walks 3 tiles (1 left this turn)",))
    far = table.move_cost(_move("ana", 5, 0), pat)
    assert (far.allowed, far.code) == (False, "too_far")
    assert far.message == "[5, 0] is 5 tiles from Ana; it walks 4 a turn and has 4 left"


def test_a_drag_onto_a_taken_tile_is_refused_for_anyone_and_the_drop_too(
    tmp_path: Path,
) -> None:
    """Issue 35: no two tokens on one tile: the drag's answer says who is there, for the
    player's own move and the game master's free one alike (no drop puts it there)."""
    table = _wasteland(tmp_path)
    seq = table.seq
    said = "Knox is on 0, 2: Vera cannot stand there too; pick a free tile"
    for by in (PAT, GAME_MASTER):
        cost = table.move_cost(_move("vera", 0, 2), by, seq)
        assert (cost.allowed, cost.code, cost.message, cost.free) == (
            False,
            "tile_taken",
            said,
            False,
        )
        with pytest.raises(FracasError) as err:
            table.act(_move("vera", 0, 2), by)
        assert (err.value.code, err.value.message) == ("tile_taken", said)
    knox = table.move_cost(_move("knox", 0, 0), GAME_MASTER, seq)  # not whose turn it is
    assert (knox.allowed, knox.code) == (False, "tile_taken")
    assert table.seq == seq
