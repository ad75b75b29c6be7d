"""One permission decision (issue 33): what a page offers an identity and what the table
takes from it are decided by :meth:`fracas.table.Identity.takes` alone. Issue 35: a
player rolls only as a combatant it plays; once one side won, no turn ends and no rules
action is taken (``fight_over``, the page told), until an undo reopens the fight."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fracas.engine.catalogue import GM_ACTION_NAMES
from fracas.errors import FracasError
from fracas.io.files import parse_text
from fracas.io.store import open_store
from fracas.model import Action
from fracas.table import Act, Identity, Table, TableService, View
from fracas.table.identity import Forbidden
from tests.table.support import PISTOL_FIGHT as FIGHT


def test_a_player_is_offered_exactly_what_the_table_would_take_from_it() -> None:
    ruleset = parse_text(FIGHT, "fight.yaml").ruleset
    table = TableService(open_store(":memory:")).create(FIGHT, "fight.yaml", name="f", seed=1)
    pat, gm = Identity.player("Pat", "ana"), Identity.gm()
    offered = {o["do"] for o in View(table.snapshot(), pat).options()["ana"]}
    every = {o["do"] for o in View(table.snapshot(), gm).options()["ana"]}
    assert offered == every == {"attack", "equip", "reload", "throw"}
    for do in sorted(every | GM_ACTION_NAMES):
        action = Action("ana", do)
        assert gm.takes(ruleset, action)
        if do in every:
            assert pat.takes(ruleset, action) == (do in offered), do
        if not pat.takes(ruleset, action):
            with pytest.raises(Forbidden, match="the game master's"):
                pat.check_act(ruleset, table.state, action)
    taken = {do for do in GM_ACTION_NAMES if pat.takes(ruleset, Action("ana", do))}
    assert taken == {"roll"}  # a free roll is anyone's; the rest the game master's


# --- issue 35: the game master is someone in the log; the fight's end ---------------


def _table(tmp_path: Path) -> Table:
    store = open_store(tmp_path / "s.sqlite3", durable=False)
    return TableService(store).create(FIGHT, "fight.yaml", name="f", seed=1)


def _refusal(table: Table, action: dict[str, Any], by: Identity) -> tuple[str, str]:
    seq = table.seq
    with pytest.raises(FracasError) as err:
        table.submit(Act(action), by)
    assert table.seq == seq  # nothing written
    return err.value.code, err.value.message


def test_a_player_rolls_only_as_a_combatant_it_plays(tmp_path: Path) -> None:
    table = _table(tmp_path)
    pat = Identity.player("Pat", "ana")
    roll = {"do": "roll", "notation": "1d6"}
    assert _refusal(table, {**roll, "actor": "bo"}, pat) == (
        "forbidden",
        "'Pat' does not play 'bo'; its combatants: ana",
    )
    assert _refusal(table, roll, pat) == (
        "forbidden",
        "a roll with no actor is the game master's; 'Pat' rolls as a combatant it plays "
        "(actor: ana)",
    )
    record = table.submit(Act({**roll, "actor": "ana"}), pat).record
    assert record is not None and record.action is not None
    assert (record.action.actor, record.by) == ("ana", "Pat")
    assert str(record.events[0].describe(table.state)).startswith("Ana rolls 1d6: ")


OVER = (
    "fight_over",
    "the fight is over (players won); {do!r} is not taken: the game master can reopen it by "
    "undoing the last action",
)


def test_once_one_side_won_no_turn_ends_and_no_rules_action_is_taken(tmp_path: Path) -> None:
    table = _table(tmp_path)
    gm, pat = Identity.gm(), Identity.player("Pat", "ana")
    winning = table.act({"actor": "bo", "do": "damage", "amount": 12}, gm)
    assert table.outcome() is not None
    over = (OVER[0], OVER[1].format(do="end_turn"))
    for by in (gm, pat):
        assert _refusal(table, {"actor": "ana", "do": "end_turn"}, by) == over
        assert _refusal(table, {"actor": "ana", "do": "attack", "target": "bo"}, by) == (
            OVER[0],
            OVER[1].format(do="attack"),
        )
    assert _refusal(table, {"actor": "ana", "do": "move", "to": [0, 1]}, pat)[0] == "fight_over"
    # the page is told: every action refused with the table's words, End turn off
    for by in (gm, pat):
        view = View(table.snapshot(), by)
        assert view.state()["you"]["end_turn"] is False
        for option in view.options()["ana"]:
            assert not option["allowed"] and option["refusal"]["code"] == "fight_over"
    # the game master's edits by decree go on: a note, a status, a token put, a free roll
    for fix in (
        {"actor": "bo", "do": "note", "text": "out cold"},
        {"actor": "bo", "do": "status", "add": "marked"},
        {"actor": "ana", "do": "move", "to": [0, 1]},
        {"do": "roll", "notation": "1d6"},
    ):
        table.act(fix, gm)
    table.act({"actor": "ana", "do": "roll", "notation": "1d6"}, pat)  # a roll changes nothing
    # undoing back to the winning action reopens the fight
    while table.log[-1].kind != "undo" or table.log[-1].target != winning.seq:
        table.undo(gm)
    assert table.outcome() is None
    assert View(table.snapshot(), pat).state()["you"]["end_turn"] is True
    ended = table.act({"actor": "ana", "do": "end_turn"}, pat)
    assert ended.by == "Pat"
    # the log as stored replays to the same table
    again = TableService(table.store).open(table.name)
    assert again.state == table.state and again.log == table.log
