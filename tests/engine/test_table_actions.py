"""The game master's table actions (``fracas.engine.table_actions``), core actions in
every ruleset: heal and
damage, status add/remove, add/remove a combatant, initiative and delay, skipping a down
combatant's turn, and a free roll. Each is a record of the log (undo and redo work on it),
takes no turn, and is refused with a stable code quoting the input and what is valid."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
import yaml

from fracas.engine.checking import check_action
from fracas.engine.play import Engine, Record
from fracas.errors import FileError, FracasError
from fracas.io.files import EncounterFile, export, parse_text
from fracas.model import NO_ACTOR, Action
from fracas.rulesets.base import Detail, StatusSpec, is_down, on_sheet
from fracas.words.render import log_lines
from tests.helpers import GM_ACTIONS, cli, play

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
GM = tuple(a for a in GM_ACTIONS if a not in ("finish", "reopen", "tactics", "policy"))
"""The table actions checked here: :data:`~tests.helpers.GM_ACTIONS` less the fight's end
and the table's own settings."""


def started(path: Path, text: str | None = None) -> tuple[EncounterFile, Engine]:
    """An example's start (its actions not played)."""
    ef = parse_text(text if text is not None else path.read_text(), path.name)
    engine = Engine(ef.ruleset, ef.start, ef.seed)
    engine.begin(ef.dice, ef.order)
    return ef, engine


def lines(engine: Engine, record: Record) -> list[str]:
    """The log lines of one record (its title first)."""
    before = engine._before[record.seq]
    return log_lines(before, [record])


def refused(engine: Engine, action: Action) -> FracasError:
    state, size = engine.state, len(engine.log)
    with pytest.raises(FracasError) as err:
        engine.act(action)
    assert engine.state == state and len(engine.log) == size  # nothing kept
    return err.value


def other(engine: Engine) -> str:
    """A combatant whose turn it is not (the second in order)."""
    return engine.state.order[1]


# --- heal and damage ---------------------------------------------------------------


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_heal_and_damage_every_ruleset(path: Path) -> None:
    ef, engine = started(path)
    who = other(engine)
    c = engine.state.get(who)
    name, top = c.name, c.max_hp
    assert c.hp == top
    turn = engine.state.turn

    hit = engine.act(Action(who, "damage", params={"amount": 5}))
    assert lines(engine, hit)[1:] == [f"GM damages {name} 5: HP {top} -> {top - 5}"]
    healed = engine.act(Action(who, "heal", params={"amount": 3}))
    assert lines(engine, healed)[1:] == [f"GM heals {name} 3: HP {top - 5} -> {top - 2}"]
    capped = engine.act(Action(who, "heal", params={"amount": 50}))
    assert lines(engine, capped)[1:] == [f"GM heals {name} 50: HP {top - 2} -> {top}"]
    floored = engine.act(Action(who, "damage", params={"amount": 500}))
    assert lines(engine, floored)[1:] == [f"GM damages {name} 500: HP {top} -> 0"]
    assert engine.state.get(who).hp == 0
    assert is_down(ef.ruleset, engine.state.get(who))
    assert engine.state.turn == turn  # no turn taken, none passed

    engine.undo()
    assert engine.state.get(who).hp == top
    engine.undo()
    assert engine.state.get(who).hp == top - 2
    engine.redo()
    assert engine.state.get(who).hp == top
    hash(engine.state)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_heal_and_damage_refuse_a_bad_amount(path: Path) -> None:
    data = yaml.safe_load(path.read_text())
    actor = data["combatants"][0]["id"]
    data["actions"] = [{"actor": actor, "do": "heal", "amount": 0}]
    with pytest.raises(FileError) as err:
        parse_text(yaml.safe_dump(data), path.name)
    assert err.value.code == "bad_value"
    assert err.value.message == "0: input should be greater than or equal to 1"
    assert err.value.where.endswith("actions[0].amount")
    data["actions"] = [{"actor": actor, "do": "damage"}]
    with pytest.raises(FileError) as err:
        parse_text(yaml.safe_dump(data), path.name)
    assert (err.value.code, err.value.message) == (
        "missing_field",
        "'amount' is required for this action",
    )


def test_soak_damage_is_superficial_and_a_heal_stops_at_aggravated() -> None:
    """SK-15, soak 2.1: HP is derived from the health track; a GM's damage goes through
    ``set hp`` (superficial), and a heal cannot take aggravated damage away."""
    _ef, engine = started(ROOT / "examples" / "soak.yaml")
    engine.act(Action("finn", "set", params={"aggravated": 4}))
    assert engine.state.get("finn").hp == 16
    engine.act(Action("finn", "damage", params={"amount": 6}))
    finn = engine.state.get("finn")
    assert (finn.hp, finn.sheet.superficial, finn.sheet.aggravated) == (10, 6, 4)
    record = engine.act(Action("finn", "heal", params={"amount": 100}))
    finn = engine.state.get("finn")
    assert (finn.hp, finn.sheet.superficial, finn.sheet.aggravated) == (16, 0, 4)
    assert lines(engine, record)[1:] == ["GM heals Finn 100: HP 10 -> 16"]


# --- statuses ----------------------------------------------------------------------


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_status_add_and_remove_keep_the_others(path: Path) -> None:
    _, engine = started(path)
    who = other(engine)
    name = engine.state.name(who)
    add = engine.act(Action(who, "status", params={"add": {"marked": {"turns": 2}}}))
    assert lines(engine, add)[1:] == [f"  {name} is marked (turns 2)"]
    engine.act(Action(who, "status", params={"add": "hidden"}))
    assert engine.state.get(who).statuses == {"marked": {"turns": 2}, "hidden": {}}
    gone = engine.act(Action(who, "status", params={"remove": "marked"}))
    assert lines(engine, gone)[1:] == [f"  {name} is no longer marked"]
    assert engine.state.get(who).statuses == {"hidden": {}}
    err = refused(engine, Action(who, "status", params={"remove": "marked"}))
    assert err.code == "unknown_status"
    assert "'marked'" in err.message and "it has: hidden" in err.message
    err = refused(engine, Action(who, "status"))
    assert err.code == "missing_field" and "add" in err.message and "remove" in err.message
    # `set statuses:` still replaces them all
    engine.act(Action(who, "set", params={"statuses": {"prone": {}}}))
    assert engine.state.get(who).statuses == {"prone": {}}
    engine.undo()
    assert engine.state.get(who).statuses == {"hidden": {}}


def _burning(ef: EncounterFile) -> EncounterFile:
    """``ef`` with a ruleset that reads a ``burning`` status (turns required, damage 1)."""

    class Burning(type(ef.ruleset)):  # type: ignore[misc]
        contract = dataclasses.replace(
            ef.ruleset.contract,
            statuses=(
                StatusSpec(
                    "burning",
                    "fire",
                    {"turns": Detail(int), "damage": Detail(int, 1), "by": Detail(str, "")},
                ),
            ),
        )

    return dataclasses.replace(ef, ruleset=Burning(ef.ruleset.options))


def test_status_details_are_checked_against_the_rulesets_schema() -> None:
    ef = _burning(parse_text((ROOT / "examples" / "dice-combat.yaml").read_text(), "dc.yaml"))
    engine = Engine(ef.ruleset, ef.start, ef.seed)
    engine.begin(ef.dice, ef.order)
    engine.act(Action("bo", "status", params={"add": {"burning": {"turns": 2}}}))
    assert engine.state.get("bo").statuses["burning"] == {"turns": 2, "damage": 1, "by": ""}
    valid = "turns (int), damage (int, default 1), by (str, default )"
    err = refused(engine, Action("bo", "status", params={"add": {"burning": {"heat": 3}}}))
    assert (err.code, err.message) == (
        "unknown_detail",
        f"status add: status burning: 'heat' is not one of its details; valid: {valid}",
    )
    err = refused(engine, Action("bo", "status", params={"add": "burning"}))
    assert (err.code, err.message) == (
        "missing_detail",
        f"status add: status burning needs 'turns'; its details: {valid}",
    )
    err = refused(engine, Action("bo", "status", params={"add": {"burning": {"turns": "x"}}}))
    assert err.code == "bad_value" and "'x' is not a int" in err.message


def test_ES_12_a_condition_picked_from_the_list_is_put_on_and_taken_off_the_sheet() -> None:
    """escalation keeps its conditions on the sheet (ES-12, ES-13: a set, ES-G1: the 12
    standard names): the table's status edit of one changes ``conditions``, the badge
    shows it, and taking it off is the same edit back."""
    ef, engine = started(ROOT / "examples" / "escalation.yaml")
    names = [spec.name for spec in ef.ruleset.contract.statuses if spec.on_sheet == "conditions"]
    assert len(names) == 12 and "bleeding" in names and "prone" in names
    gm = engine.act(Action("ogre", "status", params={"add": {"bleeding": {}}}))
    assert engine.state.get("ogre").sheet.conditions == ("bleeding",)
    assert engine.state.get("ogre").statuses == {}
    assert lines(engine, gm)[1:] == ["GM sets Ogre: conditions: ['bleeding']"]
    engine.act(Action("ogre", "status", params={"add": "prone"}))
    assert engine.state.get("ogre").sheet.conditions == ("bleeding", "prone")
    assert on_sheet(ef.ruleset, engine.state.get("ogre")) == ("bleeding", "prone")
    err = refused(engine, Action("ogre", "status", params={"add": "prone"}))
    assert err.code == "already_held" and "Ogre is prone already" in err.message
    # a free mark beside them stays a status; one edit may take a condition off too
    engine.act(
        Action("ogre", "status", params={"add": {"marked": {"turns": 2}}, "remove": "prone"})
    )
    ogre = engine.state.get("ogre")
    assert (ogre.sheet.conditions, ogre.statuses) == (("bleeding",), {"marked": {"turns": 2}})
    err = refused(engine, Action("ogre", "status", params={"remove": "dazed"}))
    assert err.code == "unknown_status" and "it has: marked, bleeding" in err.message
    engine.undo()
    assert engine.state.get("ogre").sheet.conditions == ("bleeding", "prone")


# --- add and remove ----------------------------------------------------------------

NEWCOMER: dict[str, Any] = {"id": "zed", "name": "Zed", "side": "late", "hp": 5, "max_hp": 9}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_add_places_a_checked_combatant_in_the_order(path: Path) -> None:
    ef, engine = started(path)
    first, second = engine.state.order[:2]
    before = engine.state
    record = engine.act(Action(second, "add", params={"combatant": NEWCOMER, "after": first}))
    state = engine.state
    assert state.order == (first, "zed", *before.order[1:])
    zed = state.get("zed")
    assert (zed.name, zed.side, zed.hp, zed.max_hp) == ("Zed", "late", 5, 9)
    assert zed.sheet == ef.ruleset.settle(zed, frozenset(NEWCOMER)).sheet
    assert state.turn == before.turn
    names = ", ".join(state.name(cid) for cid in state.order)
    assert lines(engine, record)[1:] == [f"GM adds Zed (late, HP 5/9): order {names}"]
    hash(state)
    # the newcomer's turn comes next, and it may act
    engine.act(Action(first, "end_turn"))
    assert engine.state.turn.actor == "zed"
    engine.act(Action("zed", "damage", params={"amount": 2}))
    assert engine.state.get("zed").hp == 3
    engine.undo()
    engine.undo()
    engine.undo()
    assert engine.state == before


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_add_is_checked_as_a_files_combatant(path: Path) -> None:
    _ef, engine = started(path)
    actor = engine.state.order[0]
    cases: list[tuple[dict[str, Any], str, list[str]]] = [
        ({"id": "Zed!"}, "bad_id", ["add combatant.id", "'Zed!'", "[a-z0-9_-]+"]),
        ({"id": actor}, "duplicate_id", [f"{actor!r}", "unique"]),
        ({"id": "zed", "hp": 9, "max_hp": 5}, "bad_value", ["hp 9 is above max_hp 5", "0..5"]),
        ({"id": "zed", "wings": 2}, "unknown_field", ["'wings'", "valid: id, name, side"]),
        ({"name": "Zed"}, "missing_field", ["'id'"]),
    ]
    for raw, code, says in cases:
        err = refused(engine, Action(actor, "add", params={"combatant": raw}))
        assert err.code == code, (raw, err)
        for s in says:
            assert s in err.message, (raw, err.message)
    err = refused(engine, Action(actor, "add", params={"combatant": NEWCOMER, "after": "nope"}))
    assert err.code == "unknown_combatant" and "'nope'" in err.message


def test_add_checks_the_map() -> None:
    text = (ROOT / "examples" / "dice-combat.yaml").read_text() + "map: {width: 8, height: 8}\n"
    _, engine = started(ROOT / "examples" / "dice-combat.yaml", text)
    err = refused(engine, Action("ana", "add", params={"combatant": {"id": "zed", "at": [9, 1]}}))
    assert (err.code, err.message) == (
        "off_map",
        "add combatant.at: tile [9, 1] is off the map: x in 0..7, y in 0..7",
    )


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_remove_takes_a_combatant_out_and_passes_its_turn(path: Path) -> None:
    _, engine = started(path)
    order = engine.state.order
    start = engine.state
    engine.act(Action(order[1], "remove"))  # not its turn: the turn stays
    assert engine.state.order == (order[0], *order[2:]) and order[1] not in engine.state.combatants
    assert engine.state.turn.actor == order[0]
    err = refused(engine, Action(order[1], "end_turn"))
    assert err.code == "unknown_combatant" and f"{order[1]!r}" in err.message
    record = engine.act(Action(order[0], "remove"))  # its turn: the next begins
    assert engine.state.turn.actor == order[2] and engine.state.round == start.round
    assert lines(engine, record)[1:3] == [
        f"GM removes {start.name(order[0])} from the fight",
        f"-- round {start.round}, {start.name(order[2])}'s turn --",
    ]
    engine.undo()
    engine.undo()
    assert engine.state == start


def test_removing_the_last_in_order_on_its_turn_begins_a_round() -> None:
    _, engine = started(ROOT / "examples" / "dice-combat.yaml")
    for _ in range(3):
        engine.act(Action(engine.state.turn.actor, "end_turn"))
    assert (engine.state.turn.actor, engine.state.round) == ("dee", 1)
    engine.act(Action("dee", "remove"))
    assert (engine.state.turn.actor, engine.state.round) == ("ana", 2)
    for cid in ("bo", "cy"):
        engine.act(Action(cid, "remove"))
    err = refused(engine, Action("ana", "remove"))
    assert err.code == "last_combatant" and "'ana'" in err.message


# --- initiative and delay ----------------------------------------------------------


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_initiative_reorders_and_delay_moves_one(path: Path) -> None:
    _, engine = started(path)
    order = engine.state.order
    turn = engine.state.turn
    new = tuple(reversed(order))
    record = engine.act(Action(order[1], "initiative", params={"order": list(new)}))
    assert engine.state.order == new and engine.state.turn == turn
    names = ", ".join(engine.state.name(cid) for cid in new)
    assert lines(engine, record)[1:] == [f"GM sets the order: {names}"]
    engine.act(Action(new[0], "delay", params={"after": new[-1]}))  # not its turn
    assert engine.state.order == (*new[1:], new[0]) and engine.state.turn == turn
    for bad, code in (
        ([*order, order[0]], "bad_order"),
        (list(order[:-1]), "bad_order"),
        ([*order[:-1], "nope"], "unknown_combatant"),
    ):
        err = refused(engine, Action(order[0], "initiative", params={"order": bad}))
        assert err.code == code, bad
    err = refused(engine, Action(order[0], "delay", params={"after": order[0]}))
    assert err.code == "bad_value" and f"{order[0]!r}" in err.message


def test_delaying_the_current_actor_ends_its_turn_and_it_comes_back_after() -> None:
    _, engine = started(ROOT / "examples" / "dice-combat.yaml")
    record = engine.act(Action("ana", "delay", params={"after": "cy"}))
    assert engine.state.order == ("bo", "cy", "ana", "dee")
    assert (engine.state.turn.actor, engine.state.round) == ("bo", 1)
    assert lines(engine, record)[1:] == [
        "GM sets the order: Bo, Cy, Ana, Dee",
        "Ana's turn ends",
        "-- round 1, Bo's turn --",
    ]
    engine.act(Action("bo", "end_turn"))
    engine.act(Action("cy", "end_turn"))
    assert (engine.state.turn.actor, engine.state.round) == ("ana", 1)


# --- skipping a down combatant's turn ----------------------------------------------


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
@pytest.mark.parametrize("skip", [True, False])
def test_a_down_combatants_turn_is_skipped(path: Path, skip: bool) -> None:
    text = path.read_text() + f"table: {{skip_down: {'true' if skip else 'false'}}}\n"
    ef, engine = started(path, text)
    first, second, third = engine.state.order[:3]
    engine.act(Action(second, "damage", params={"amount": 1000}))
    assert is_down(ef.ruleset, engine.state.get(second))
    record = engine.act(Action(first, "end_turn"))
    name = engine.state.name(second)
    if skip:
        assert engine.state.turn.actor == third
        assert f"{name} is down: turn skipped" in lines(engine, record)
        note = engine.act(Action(second, "end_turn"))  # its turn was skipped: none to end
        assert engine.state.turn.actor == third
        assert lines(engine, note)[1:] == [f"{name} is down: its turn is skipped (none to end)"]
    else:
        assert engine.state.turn.actor == second
        assert not any("skipped" in line for line in lines(engine, record))


def test_when_every_other_combatant_is_down_the_turn_comes_back() -> None:
    _, engine = started(ROOT / "examples" / "dice-combat.yaml")
    for cid in ("bo", "cy", "dee"):
        engine.act(Action(cid, "damage", params={"amount": 12}))
    record = engine.act(Action("ana", "end_turn"))
    assert (engine.state.turn.actor, engine.state.round) == ("ana", 2)
    got = [line for line in lines(engine, record) if "skipped" in line]
    assert got == [f"{n} is down: turn skipped" for n in ("Bo", "Cy", "Dee")]


def test_the_table_key_is_checked() -> None:
    text = (ROOT / "examples" / "dice-combat.yaml").read_text() + "table: {skip: true}\n"
    with pytest.raises(FileError) as err:
        parse_text(text, "dc.yaml")
    assert err.value.code == "unknown_field"
    assert "'skip'" in err.value.message and "skip_down" in err.value.message


# --- a free roll -------------------------------------------------------------------


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_a_free_roll_is_logged_with_its_dice(path: Path) -> None:
    ef, engine = started(path)
    who = other(engine)
    name = engine.state.name(who)
    before = engine.state
    record = engine.act(Action(who, "roll", params={"notation": "2d6+1"}, dice={"roll": (4, 2)}))
    assert lines(engine, record)[1:] == [f"{name} rolls 2d6+1: 4 + 2 + 1 = 7"]
    assert [(r.label, r.sides, r.value) for r in record.rolls] == [("roll", 6, 4), ("roll", 6, 2)]
    assert engine.state == before  # changes nothing
    kept = engine.act(
        Action(who, "roll", params={"notation": "2d20kh1 - 1d4"}, dice={"roll": (3, 15, 2)})
    )
    assert lines(engine, kept)[1:] == [f"{name} rolls 2d20kh1-1d4: (3, 15 -> 15) - 2 = 13"]
    err = refused(engine, Action(who, "roll", params={"notation": "1d6"}, dice={"roll": (7,)}))
    assert err.code == "die_out_of_range" and "1..6" in err.message
    err = refused(engine, Action(who, "roll", params={"notation": "2q6"}))
    assert err.code == "bad_dice_expression" and "'2q6'" in err.message
    # the dice as rolled replay it (export, then a run of the exported file)
    random = engine.act(Action(who, "roll", params={"notation": "3d8!"}))
    data = export(ef, [engine.log[0], *engine.effective])
    again = play(yaml.safe_dump(data, sort_keys=False), name=path.name)
    assert again.error is None
    assert again.records[-1].rolls == random.rolls
    assert log_lines(ef.start, again.records)[-1] == log_lines(ef.start, engine.effective)[-1]


# --- in a file, and listed ---------------------------------------------------------


def test_a_file_may_add_a_combatant_that_then_acts() -> None:
    text = (ROOT / "examples" / "dice-combat.yaml").read_text()
    data = yaml.safe_load(text)
    data["actions"] = [
        {"actor": "ana", "do": "add", "combatant": {"id": "zed", "name": "Zed"}, "after": "ana"},
        {"actor": "zed", "do": "heal", "amount": 1},
        {"actor": "bo", "do": "remove"},
        {"actor": "bo", "do": "end_turn"},
    ]
    played = play(yaml.safe_dump(data, sort_keys=False))
    assert played.error is not None
    number, err = played.error
    assert number == 4 and err.code == "unknown_combatant" and "'bo'" in err.message
    assert played.state.order == ("ana", "zed", "cy", "dee")


def test_a_stored_encounter_with_an_added_combatant_resumes(tmp_path: Path) -> None:
    from fracas.io.store import open_store
    from fracas.table import TableService

    store = open_store(tmp_path / "s.sqlite3", durable=False)
    text = (ROOT / "examples" / "dice-combat.yaml").read_text()
    session = TableService(store).create(text, "dc.yaml")
    session.act(Action("ana", "add", params={"combatant": {"id": "zed", "hp": 4}}))
    session.act(Action("zed", "heal", params={"amount": 3}))
    session.act(Action("zed", "status", params={"add": "hidden"}))
    session.act(Action("zed", "roll", params={"notation": "2d6+1"}))
    session.act(Action("ana", "delay", params={"after": "zed"}))
    again = TableService(store).open(session.name)
    assert again.log == session.log
    assert again.state == session.state
    assert again.state.get("zed").hp == 7 and "zed" in again.state.order


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_fracas_rules_lists_the_table_actions(path: Path) -> None:
    name = yaml.safe_load(path.read_text())["ruleset"]
    result = cli("rules", name, "--json")
    assert result.exit_code == 0
    import json

    actions = {a["do"]: a for a in json.loads(result.stdout)["actions"]}
    for gm in GM:
        assert gm in actions and actions[gm]["summary"]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_table_actions_take_no_turn(path: Path) -> None:
    """Each table action by a combatant whose turn it is not: the turn stays as it was
    (no turn ends, none begins), unlike a ruleset action by that combatant."""
    _, engine = started(path)
    who = other(engine)
    first = engine.state.order[0]
    actions = [
        Action(who, "heal", params={"amount": 1}),
        Action(who, "damage", params={"amount": 1}),
        Action(who, "status", params={"add": "marked"}),
        Action(who, "add", params={"combatant": {"id": "zed"}}),
        Action(who, "initiative", params={"order": [*list(engine.state.order), "zed"]}),
        Action(who, "delay", params={"after": "zed"}),
        Action(who, "roll", params={"notation": "1d20"}),
        Action("zed", "remove"),
    ]
    for action in actions:
        turn = engine.state.turn
        record = engine.act(action)
        assert engine.state.turn == turn and engine.state.turn.actor == first, action
        assert not any(type(e).__name__ in ("TurnEnded", "TurnStarted") for e in record.events)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_a_saved_session_with_table_actions_replays(path: Path, tmp_path: Path) -> None:
    """Regression: the save wrote the order in play as the file's `order:`, so a reorder
    was applied twice and an added combatant's id made the file unreadable."""
    from fracas.io.store import open_store
    from fracas.play.loop import save
    from fracas.table import TableService

    store = open_store(tmp_path / "s.sqlite3", durable=False)
    session = TableService(store).create(path.read_text(), path.name)
    order = list(session.state.order)
    session.act(Action(order[0], "initiative", params={"order": order[::-1]}))
    session.act(Action(order[0], "add", params={"combatant": {"id": "zed"}, "after": order[0]}))
    session.act(Action(order[1], "remove"))
    session.act(Action(session.state.turn.actor, "end_turn"))
    save(session.export(), tmp_path / "out.yaml")
    again = play((tmp_path / "out.yaml").read_text(), name="out.yaml")
    assert again.error is None
    assert again.state == session.state


# --- the game master's own roll (issue 35) -----------------------------------------


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_game_masters_own_roll_has_no_combatant_actor(path: Path) -> None:
    ef, engine = started(path)
    given = check_action(ef.ruleset, engine.state, {"do": "roll", "notation": "2d6+1"})
    assert given.actor == NO_ACTOR
    record = engine.act(dataclasses.replace(given, dice={"roll": (4, 2)}))
    assert record.action is not None and record.action.actor == NO_ACTOR
    assert [getattr(e, "actor", None) for e in record.events] == [NO_ACTOR]
    assert lines(engine, record) == [
        "#1 the game master: roll (notation=2d6+1)",
        "The game master rolls 2d6+1: 4 + 2 + 1 = 7",
    ]
    # exported as an entry with no actor, and replayed as the game master's again
    data = export(ef, [engine.log[0], *engine.effective])
    assert data["actions"][-1] == {"do": "roll", "notation": "2d6+1", "dice": {"roll": [4, 2]}}
    again = play(yaml.safe_dump(data, sort_keys=False), name=path.name)
    assert again.error is None and again.records[-1].events == record.events


def test_only_a_roll_may_have_no_actor() -> None:
    ef, engine = started(EXAMPLES[0])
    with pytest.raises(FileError) as err:
        check_action(ef.ruleset, engine.state, {"do": "heal", "amount": 1})
    assert err.value.code == "missing_field"
    assert err.value.message == (
        "'heal' needs an `actor` (a combatant id; only a roll may have none: the game master's own)"
    )


# --- no two tokens on one tile (issue 35) ------------------------------------------


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_an_add_or_a_copy_onto_a_taken_tile_is_refused(path: Path) -> None:
    _, engine = started(path)
    first, second = engine.state.order[:2]
    there = engine.state.get(second)
    assert there.at is not None
    x, y = there.at
    said = f"{there.name} is on {x}, {y}: "
    new = {"id": "zed", "name": "Zed", "at": [x, y]}
    err = refused(engine, Action(first, "add", params={"combatant": new}))
    assert err.code == "tile_taken" and err.message.startswith(said)
    assert err.message == f"{said}Zed cannot stand there too; pick a free tile"
    err = refused(engine, Action(first, "add", params={"copy": second, "combatant": new}))
    assert err.code == "tile_taken" and err.message.startswith(said)
    engine.act(Action(second, "hide"))  # one the players may not see is "someone"
    err = refused(engine, Action(first, "add", params={"combatant": new}))
    assert err.message.startswith(f"someone is on {x}, {y}: ")
    new["at"] = [x + 20, y + 20]  # a free tile: added
    engine.act(Action(first, "add", params={"combatant": new}))
    assert engine.state.get("zed").at == (x + 20, y + 20)
