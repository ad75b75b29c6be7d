"""Two game-master staples (issue 35) through the table service.

Initiative rolled again at each new round, a table option (``initiative`` with
``each_round``) offered where the ruleset rolls initiative: soak's d20 + Agility, highest
first (SK-1, SK-G1), rolled by the ruleset's own rule through the dice as the round
begins, logged in the record that began it and undone with it; and a hidden combatant
marked (``reveal``) to be shown to the players when its turn begins, the mark never sent
to a player."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from fracas.errors import FracasError, Refusal
from fracas.io.files import parse_text, play_file
from fracas.io.store import open_store
from fracas.model import InitiativeEachRound, OrderSet, Revealed, RevealSet, TurnStarted
from fracas.table import Act, Give, Identity, Redo, SetDice, Table, TableService, Undo, View

ROOT = Path(__file__).parents[2]
START = (ROOT / "examples" / "dice-combat.yaml").read_text().split("actions:")[0]
SOAK = (ROOT / "examples" / "start" / "soak.yaml").read_text()
# Mara 2 + 3 = 5, Finn 15 + 2 = 17, the Brute 19 + 1 = 20 (SK-1, SK-G1)
ROUND_2 = {"initiative:mara": 2, "initiative:finn": 15, "initiative:brute": 19}


def _table(tmp_path: Path, text: str = SOAK, source: str = "soak.yaml") -> Table:
    tables = TableService(open_store(tmp_path / "s.sqlite3", durable=False))
    return tables.create(text, source, name="fight", seed=5)


def _end(table: Table, dice: dict[str, int] | None = None) -> str:
    """End the turn in progress (with ``dice`` given); the one whose turn begins."""
    entry = {"actor": table.state.turn.actor, "do": "end_turn"}
    table.submit(Act({**entry, "dice": dice} if dice else entry))
    return table.state.turn.actor


def _each_round(table: Table, on: bool) -> None:
    table.submit(Act({"actor": table.state.turn.actor, "do": "initiative", "each_round": on}))


def _initiatives(table: Table) -> dict[str, int]:
    return {cid: table.state.get(cid).sheet.initiative for cid in table.state.order}


# --- initiative rolled again each round (soak: Mara 17, Finn 12, the Brute 7) --------------


def test_SK_1_with_the_option_on_a_new_round_rolls_initiative_and_follows_it(
    tmp_path: Path,
) -> None:
    table = _table(tmp_path)
    assert list(table.state.order) == ["mara", "finn", "brute"]
    _each_round(table, True)
    assert table.state.table.reroll_initiative is True
    assert table.log[-1].events == (InitiativeEachRound(True),)
    assert _end(table) == "finn" and _end(table) == "brute"  # no roll within the round
    assert list(table.state.order) == ["mara", "finn", "brute"]
    assert _end(table, ROUND_2) == "brute"  # the Brute 20 first, again
    assert (table.state.round, list(table.state.order)) == (2, ["brute", "finn", "mara"])
    assert _initiatives(table) == {"brute": 20, "finn": 17, "mara": 5}
    record = table.log[-1]
    assert [(r.label, r.value) for r in record.rolls] == [
        ("initiative:mara", 2),
        ("initiative:finn", 15),
        ("initiative:brute", 19),
    ]
    kinds = [type(e).__name__ for e in record.events]
    # the old round ends, the roll and the new order, then the new round's first turn
    assert kinds.index("OrderSet") < kinds.index("TurnStarted")
    assert OrderSet(("brute", "finn", "mara")) in record.events
    assert TurnStarted("brute", 2) in record.events
    lines = [e.describe(table.state) for e in record.events]
    assert "initiative order: The Brute 20, Finn 17, Mara 5" in lines


def test_SK_1_with_the_option_off_the_order_stays_and_no_die_is_rolled(tmp_path: Path) -> None:
    table = _table(tmp_path)
    _each_round(table, True)
    _each_round(table, False)
    assert table.state.table.reroll_initiative is False
    for _ in range(3):
        _end(table)
    assert (table.state.round, list(table.state.order)) == (2, ["mara", "finn", "brute"])
    assert table.state.turn.actor == "mara" and table.log[-1].rolls == ()
    assert _initiatives(table) == {"mara": 17, "finn": 12, "brute": 7}
    with pytest.raises(FracasError) as unused:  # a die given to an end that rolls none
        _end(table, ROUND_2)
    assert unused.value.code == "unused_die"


def test_undo_of_the_end_of_round_that_rolled_puts_the_old_order_back(tmp_path: Path) -> None:
    table = _table(tmp_path)
    _each_round(table, True)
    _end(table)
    _end(table)
    _end(table, ROUND_2)
    table.submit(Undo())
    assert (table.state.round, table.state.turn.actor) == (1, "brute")
    assert list(table.state.order) == ["mara", "finn", "brute"]
    assert _initiatives(table) == {"mara": 17, "finn": 12, "brute": 7}
    table.submit(Redo())  # the same dice: the same order
    assert list(table.state.order) == ["brute", "finn", "mara"]
    assert _initiatives(table) == {"brute": 20, "finn": 17, "mara": 5}


def test_the_rolled_rounds_replay_from_the_store_and_the_export(tmp_path: Path) -> None:
    table = _table(tmp_path)
    _each_round(table, True)
    _end(table)
    _end(table)
    _end(table, ROUND_2)
    assert _end(table) == "finn"  # in the new order
    assert _end(table) == "mara"
    resumed = TableService(open_store(tmp_path / "s.sqlite3", durable=False)).open(table.name)
    assert resumed.state == table.state
    again = play_file(parse_text(yaml.safe_dump(table.export()), "again.yaml"))
    assert again.refused is None and again.engine.state == table.state


def test_SK_1_with_physical_dice_the_new_round_asks_each_initiative_die(tmp_path: Path) -> None:
    table = _table(tmp_path)
    _each_round(table, True)
    _end(table)
    _end(table)
    table.submit(SetDice(True))
    table.submit(Act({"actor": "brute", "do": "end_turn"}))
    asked = []
    for face in (2, 15, 19):
        pending = table.pending
        assert pending is not None
        asked.append(pending.needed.label)
        table.submit(Give(face))
    assert asked == ["initiative:mara", "initiative:finn", "initiative:brute"]
    assert (table.state.round, list(table.state.order)) == (2, ["brute", "finn", "mara"])


def test_a_ruleset_that_rolls_no_initiative_refuses_the_option(tmp_path: Path) -> None:
    table = _table(tmp_path, START, "dice-combat.yaml")
    with pytest.raises(Refusal) as refused:
        _each_round(table, True)
    assert refused.value.code == "no_initiative_roll"
    assert table.state.table.reroll_initiative is False
    with pytest.raises(Refusal) as both:
        table.submit(Act({"actor": "ana", "do": "initiative", "each_round": True, "roll": True}))
    assert both.value.code == "bad_value"


def test_only_the_game_master_sets_the_option_and_the_page_offers_it_where_rolled(
    tmp_path: Path,
) -> None:
    table = _table(tmp_path)
    gm, pat = Identity.gm(), Identity.player("Pat", "mara")
    with pytest.raises(Exception) as forbidden:
        table.submit(Act({"actor": "mara", "do": "initiative", "each_round": True}), by=pat)
    assert getattr(forbidden.value, "code", None) == "forbidden"
    assert View(table.snapshot(), gm).state()["initiative_each_round"] is False
    _each_round(table, True)
    assert View(table.snapshot(), gm).state()["initiative_each_round"] is True
    assert View(table.snapshot(), gm).state()["initiative_roll"] is True
    plain = _table(tmp_path / "dc", START, "dice-combat.yaml")
    assert View(plain.snapshot(), gm).state()["initiative_roll"] is False


# --- a hidden combatant revealed on its turn (dice-combat: ana, bo, cy, dee) -------------


@pytest.fixture
def hidden(tmp_path: Path) -> Table:
    """Cy hidden and marked to be revealed on its turn; Ana's turn."""
    table = _table(tmp_path, START, "dice-combat.yaml")
    table.submit(Act({"actor": "cy", "do": "hide"}))
    table.submit(Act({"actor": "cy", "do": "reveal", "on": True}))
    return table


def test_a_marked_hidden_combatant_is_shown_as_its_turn_begins(hidden: Table) -> None:
    assert hidden.state.reveal_on_turn == {"cy"} and hidden.log[-1].events == (
        RevealSet("cy", True),
    )
    assert _end(hidden) == "bo"
    assert "cy" in hidden.state.hidden  # not before its turn
    assert _end(hidden) == "cy"
    assert "cy" not in hidden.state.hidden and hidden.state.reveal_on_turn == frozenset()
    events = hidden.log[-1].events
    assert events.index(TurnStarted("cy", 1)) + 1 == events.index(Revealed("cy"))
    assert Revealed("cy").describe(hidden.state) == "Cy is revealed as its turn begins"
    pat = View(hidden.snapshot(), Identity.player("Pat", "ana")).state()
    assert pat["turn"] == "cy" and "cy" in pat["order"]
    assert "cy" in [c["id"] for c in pat["combatants"]]


def test_a_player_learns_nothing_of_the_hidden_one_nor_its_mark(hidden: Table) -> None:
    pat = View(hidden.snapshot(), Identity.player("Pat", "ana"))
    state = pat.state()
    assert "cy" not in state["order"] and "cy" not in [c["id"] for c in state["combatants"]]
    assert all("reveal_on_turn" not in c and "hidden" not in c for c in state["combatants"])
    assert "initiative_each_round" in state and state["initiative_each_round"] is False
    # the hide's record is covered, the mark's is none of the player's (a private action)
    seqs = [e.seq for e in pat.lines()]
    assert hidden.log[-1].seq not in seqs
    assert not any(e.action is not None and e.action.do == "reveal" for e in pat.lines())
    assert not any(isinstance(e.event, RevealSet) for e in pat.lines())
    gm = View(hidden.snapshot(), Identity.gm()).state()
    cy = next(c for c in gm["combatants"] if c["id"] == "cy")
    assert cy["hidden"] is True and cy["reveal_on_turn"] is True


def test_undo_of_the_turn_that_revealed_it_hides_it_again(hidden: Table) -> None:
    _end(hidden)
    _end(hidden)
    hidden.submit(Undo())
    assert hidden.state.turn.actor == "bo"
    assert "cy" in hidden.state.hidden and hidden.state.reveal_on_turn == {"cy"}
    pat = View(hidden.snapshot(), Identity.player("Pat", "ana")).state()
    assert "cy" not in [c["id"] for c in pat["combatants"]]


def test_the_mark_comes_off_and_a_combatant_in_sight_takes_none(hidden: Table) -> None:
    hidden.submit(Act({"actor": "cy", "do": "reveal", "on": False}))
    assert hidden.state.reveal_on_turn == frozenset()
    _end(hidden)
    _end(hidden)
    assert hidden.state.turn.actor == "cy" and "cy" in hidden.state.hidden
    with pytest.raises(Refusal) as refused:
        hidden.submit(Act({"actor": "ana", "do": "reveal", "on": True}))
    assert refused.value.code == "not_hidden"


def test_showing_it_by_hand_takes_the_mark_off(hidden: Table) -> None:
    hidden.submit(Act({"actor": "cy", "do": "show"}))
    assert "cy" not in hidden.state.hidden and hidden.state.reveal_on_turn == frozenset()
    hidden.submit(Act({"actor": "cy", "do": "hide"}))
    _end(hidden)
    _end(hidden)
    assert "cy" in hidden.state.hidden  # the old mark went with the show


def test_the_reveal_replays_from_the_store_and_the_export(hidden: Table, tmp_path: Path) -> None:
    _end(hidden)
    _end(hidden)
    resumed = TableService(open_store(tmp_path / "s.sqlite3", durable=False)).open(hidden.name)
    assert resumed.state == hidden.state and "cy" not in resumed.state.hidden
    again = play_file(parse_text(yaml.safe_dump(hidden.export()), "again.yaml"))
    assert again.refused is None and again.engine.state == hidden.state
