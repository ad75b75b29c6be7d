"""The game master's staples (issue 35, item 10) through the table service: a condition
that lasts N turns of its bearer, until the start or the end of a named combatant's next
turn, or until removed, each ending on exactly its turn (events, undone and replayed like
any); initiative rolled again mid-fight by the ruleset's own rule (soak's d20 + Agility,
SK-1) through the dice, logged and undone; refused where the ruleset rolls none."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from fracas.errors import Refusal
from fracas.io.files import parse_text, play_file
from fracas.io.store import open_store
from fracas.model import StatusCleared, StatusSet
from fracas.table import Act, Give, Redo, SetDice, Table, TableService, Undo

ROOT = Path(__file__).parents[2]
START = (ROOT / "examples" / "dice-combat.yaml").read_text().split("actions:")[0]
SOAK = (ROOT / "examples" / "start" / "soak.yaml").read_text()


def _table(tmp_path: Path, text: str = START, source: str = "dice-combat.yaml") -> Table:
    tables = TableService(open_store(tmp_path / "s.sqlite3", durable=False))
    return tables.create(text, source, name="fight", seed=5)


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return _table(tmp_path)


def _mark(table: Table, on: str, details: dict[str, Any]) -> None:
    table.submit(Act({"actor": on, "do": "status", "add": {"spotted": details}}))


def _end(table: Table) -> str:
    """End the turn in progress; the one whose turn begins."""
    table.submit(Act({"actor": table.state.turn.actor, "do": "end_turn"}))
    return table.state.turn.actor


def _has(table: Table, cid: str) -> bool:
    return "spotted" in table.state.get(cid).statuses


# the order is ana, bo, cy, dee; Ana's turn is in progress


def test_until_the_start_of_bos_next_turn_ends_as_bos_turn_begins(table: Table) -> None:
    _mark(table, "cy", {"until": "start", "of": "bo"})
    assert dict(table.state.get("cy").statuses["spotted"]) == {"until": "start", "of": "bo"}
    assert _end(table) == "bo"
    assert not _has(table, "cy")
    assert StatusCleared("cy", "spotted") in table.log[-1].events


def test_until_the_end_of_bos_next_turn_lasts_through_it_and_ends_with_it(table: Table) -> None:
    _mark(table, "cy", {"until": "end", "of": "bo"})
    assert _end(table) == "bo" and _has(table, "cy")  # Bo's turn begins: still on
    assert _end(table) == "cy" and not _has(table, "cy")  # Bo's turn ends: gone
    events = table.log[-1].events
    names = [type(e).__name__ for e in events]
    cleared = names.index("StatusCleared")
    assert cleared < names.index("TurnEnded") < names.index("TurnStarted")  # at the end


def test_until_the_end_of_its_next_turn_set_in_that_turn_is_the_following_one(
    table: Table,
) -> None:
    """Set in Ana's own turn, "Ana's next turn" is her next one, not this."""
    _mark(table, "bo", {"until": "end", "of": "ana"})
    assert _end(table) == "bo" and _has(table, "bo")  # this turn's end passes
    for _ in range(3):  # bo, cy, dee: Ana's next turn begins
        _end(table)
    assert table.state.turn.actor == "ana" and _has(table, "bo")
    _end(table)
    assert not _has(table, "bo")


def test_until_the_start_of_its_own_next_turn_set_in_it_is_the_following_one(table: Table) -> None:
    _mark(table, "ana", {"until": "start", "of": "ana"})
    for _ in range(3):
        _end(table)
        assert _has(table, "ana")
    assert _end(table) == "ana" and not _has(table, "ana")


def test_n_turns_of_the_bearer_end_at_the_start_of_its_nth_turn(table: Table) -> None:
    _mark(table, "bo", {"turns": 2})
    assert _end(table) == "bo"
    assert dict(table.state.get("bo").statuses["spotted"]) == {"turns": 1}
    for _ in range(3):
        _end(table)
        assert _has(table, "bo")
    assert _end(table) == "bo" and not _has(table, "bo")


def test_until_removed_lasts_rounds_and_ends_when_the_game_master_clears_it(table: Table) -> None:
    _mark(table, "bo", {})
    for _ in range(9):
        _end(table)
    assert _has(table, "bo") and table.state.round == 3
    table.submit(Act({"actor": "bo", "do": "status", "remove": "spotted"}))
    assert not _has(table, "bo")


def test_undo_puts_the_ended_mark_back_and_redo_ends_it_again(table: Table) -> None:
    _mark(table, "cy", {"until": "end", "of": "bo"})
    _end(table)
    _end(table)
    assert not _has(table, "cy")
    table.submit(Undo())
    assert table.state.turn.actor == "bo" and _has(table, "cy")
    table.submit(Redo())
    assert not _has(table, "cy")
    table.submit(Undo())
    table.submit(Undo())
    table.submit(Undo())  # the mark itself taken back
    assert not _has(table, "cy") and table.state.turn.actor == "ana"


def test_the_marks_end_on_the_same_turns_when_the_log_is_replayed(
    table: Table, tmp_path: Path
) -> None:
    _mark(table, "cy", {"until": "end", "of": "bo"})
    _end(table)
    _end(table)
    again = play_file(parse_text(yaml.safe_dump(table.export()), "again.yaml"))
    assert again.refused is None and again.engine.state == table.state
    resumed = TableService(open_store(tmp_path / "s.sqlite3", durable=False)).open(table.name)
    assert resumed.state == table.state and not _has(resumed, "cy")


def test_a_mark_counting_its_turns_left_shows_it_each_turn(table: Table) -> None:
    _mark(table, "bo", {"until": "end", "of": "ana"})  # set in Ana's turn: two ends to pass
    assert dict(table.state.get("bo").statuses["spotted"])["left"] == 2
    _end(table)
    assert StatusSet("bo", "spotted", {"until": "end", "of": "ana", "left": 1}) in (
        table.log[-1].events
    )


@pytest.mark.parametrize(
    ("details", "code", "quoted"),
    [
        ({"until": "later", "of": "bo"}, "bad_value", "'later'"),
        ({"until": "end", "of": "zed"}, "unknown_combatant", "'zed'"),
        ({"until": "end"}, "unknown_combatant", "None"),
        ({"of": "bo"}, "bad_value", "until"),
        ({"until": "end", "of": "bo", "turns": 2}, "bad_value", "not both"),
    ],
)
def test_a_bad_duration_is_refused_with_a_code_naming_it(
    table: Table, details: dict[str, Any], code: str, quoted: str
) -> None:
    seq = table.seq
    with pytest.raises(Refusal) as refused:
        _mark(table, "cy", details)
    assert refused.value.code == code
    assert quoted in refused.value.message, refused.value.message
    assert table.seq == seq


def test_a_rulesets_own_status_takes_no_named_duration(table: Table) -> None:
    with pytest.raises(Refusal) as refused:
        table.submit(
            Act({"actor": "bo", "do": "status", "add": {"burning": {"until": "end", "of": "bo"}}})
        )
    assert refused.value.code == "unknown_detail"


# --- initiative rolled again ---------------------------------------------------------------


def test_SK_1_the_game_master_rolls_initiative_again_by_d20_plus_agility(tmp_path: Path) -> None:
    table = _table(tmp_path, SOAK, "soak.yaml")
    assert list(table.state.order) == ["mara", "finn", "brute"]  # 17, 12, 7
    dice = {"initiative:mara": 2, "initiative:finn": 15, "initiative:brute": 19}
    table.submit(Act({"actor": "mara", "do": "initiative", "roll": True, "dice": dice}))
    # Mara 2 + 3 = 5, Finn 15 + 2 = 17 (his sheet's 12 rolled again), the Brute 19 + 1 = 20
    assert list(table.state.order) == ["brute", "finn", "mara"]
    values = {cid: table.state.get(cid).sheet.initiative for cid in table.state.order}
    assert values == {"brute": 20, "finn": 17, "mara": 5}
    assert table.state.turn.actor == "mara"  # the turn in progress goes on
    lines = [e.describe(table.state) for e in table.log[-1].events]
    assert "initiative order: The Brute 20, Finn 17, Mara 5" in lines
    assert any(line and line.startswith("Finn rolls initiative: d20 15") for line in lines)
    table.submit(Undo())
    assert list(table.state.order) == ["mara", "finn", "brute"]
    assert table.state.get("finn").sheet.initiative == 12


def test_SK_1_the_rolled_order_is_followed_from_the_next_turn(tmp_path: Path) -> None:
    table = _table(tmp_path, SOAK, "soak.yaml")
    dice = {"initiative:mara": 2, "initiative:finn": 15, "initiative:brute": 19}
    table.submit(Act({"actor": "mara", "do": "initiative", "roll": True, "dice": dice}))
    assert _end(table) == "brute"  # Mara was last in the new order: a new round
    assert table.state.round == 2


def test_a_ruleset_that_rolls_no_initiative_refuses_the_roll(table: Table) -> None:
    with pytest.raises(Refusal) as refused:
        table.submit(Act({"actor": "ana", "do": "initiative", "roll": True}))
    assert refused.value.code == "no_initiative_roll"
    assert "order: [ids]" in refused.value.message


def test_initiative_needs_an_order_or_a_roll(table: Table) -> None:
    with pytest.raises(Refusal) as refused:
        table.submit(Act({"actor": "ana", "do": "initiative"}))
    assert refused.value.code == "missing_field"


def test_SK_1_with_physical_dice_the_table_asks_each_initiative_die(tmp_path: Path) -> None:
    table = _table(tmp_path, SOAK, "soak.yaml")
    table.submit(SetDice(True))
    table.submit(Act({"actor": "mara", "do": "initiative", "roll": True}))
    asked = []
    for face in (2, 15, 19):  # Mara, Finn, the Brute, in the file's order
        pending = table.pending
        assert pending is not None
        asked.append(pending.needed.label)
        table.submit(Give(face))
    assert asked == ["initiative:mara", "initiative:finn", "initiative:brute"]
    assert list(table.state.order) == ["brute", "finn", "mara"]
    action = table.log[-1].action
    assert action is not None and dict(action.dice) == {  # stored with the record: replayed
        "initiative:mara": (2,),
        "initiative:finn": (15,),
        "initiative:brute": (19,),
    }
