"""Playing an action (``fracas.engine.play``): the start, an action's record, turns
passed and skipped, a walk, free-form marks counting down, undo and redo as records,
replay of a stored log, and a refusal that keeps nothing, not even a random die."""

from __future__ import annotations

import copy
import dataclasses
from pathlib import Path

import pytest

from fracas.dice.source import GivenDice, Roll
from fracas.engine.play import (
    Engine,
    Record,
    advance_to,
    dice_from_rolls,
    marks_tick,
    plan,
)
from fracas.errors import FracasError, Refusal
from fracas.io.files import EncounterFile, parse_text
from fracas.model import (
    Action,
    CombatantRemoved,
    Moved,
    Note,
    StatusCleared,
    StatusSet,
    TurnEnded,
    TurnSkipped,
    TurnStarted,
    Walked,
)
from fracas.rulesets.base import walk

FIGHT = """\
ruleset: dice-combat
seed: 5
combatants:
  - {id: ana, name: Ana, side: players, at: [0, 0], hand: knife}
  - {id: bo, name: Bo, side: raiders, at: [1, 0], hand: club}
  - {id: cy, name: Cy, side: raiders, at: [5, 0], hand: club}
"""
"""Ana's knife reaches Bo beside her, not Cy 5 tiles away; 12 HP each (dice-combat)."""
BO_DOWN = FIGHT.replace("hand: club}\n  - {id: cy", "hand: club, hp: 0}\n  - {id: cy")
"""The same fight with Bo down (0 HP)."""
STAB = Action("ana", "attack", "bo", dice={"attack": (15,), "defend": (3,)})
"""Ana's knife hits Bo (15 against 3) for 2."""


def started(text: str = FIGHT) -> tuple[EncounterFile, Engine]:
    ef = parse_text(text, "fight.yaml")
    engine = Engine(ef.ruleset, ef.start, ef.seed, ef.bounds)
    engine.begin(ef.dice, ef.order)
    return ef, engine


def refused(engine: Engine, action: Action) -> FracasError:
    """The refusal of ``action``; the engine kept nothing of it."""
    state, log = engine.state, list(engine.log)
    with pytest.raises(FracasError) as err:
        engine.act(action)
    assert engine.state == state and engine.log == log
    return err.value


# --- the start and one action ---------------------------------------------------------------


def test_begin_starts_the_first_turn_of_the_order_given_as_record_0() -> None:
    ef = parse_text(FIGHT, "fight.yaml")
    engine = Engine(ef.ruleset, ef.start, ef.seed)
    record = engine.begin(None, ["cy", "ana", "bo"])
    assert record == Record(0, None, (), (TurnStarted("cy", 1),), "start")
    assert engine.state.order == ("cy", "ana", "bo")
    assert engine.state.turn.actor == "cy"
    assert engine.log == [record] and engine.effective == []


def test_an_action_is_one_record_with_its_dice_as_rolled_and_its_events() -> None:
    _, engine = started()
    record = engine.act(STAB, by="pat")
    assert (record.seq, record.kind, record.action, record.by) == (1, "action", STAB, "pat")
    assert record.rolls == (Roll("attack", 20, 15), Roll("defend:bo", 20, 3))
    names = [type(e).__name__ for e in record.events]
    assert names == ["ActionUsed", "AttackRolled", "DefenceRolled", "Attempted", "Damaged"]
    assert engine.state.get("bo").hp == 10
    assert engine.effective == [record] and engine.undoable == record


def test_dice_from_rolls_gives_each_label_its_faces_in_order() -> None:
    rolls = [Roll("attack", 20, 15), Roll("defend:bo", 20, 3), Roll("attack", 20, 2)]
    assert dice_from_rolls(rolls) == {"attack": (15, 2), "defend:bo": (3,)}
    assert dice_from_rolls([]) == {}


# --- refusals keep nothing --------------------------------------------------------------------


def test_a_refusal_keeps_nothing_not_even_a_random_die() -> None:
    _, engine = started()
    _, twin = started()
    error = refused(engine, Action("ana", "attack", "cy"))
    assert isinstance(error, Refusal) and error.code == "out_of_reach"
    assert error.message == (
        "'cy' is 5 tiles away; melee reaches 1 tile, diagonals included (DC-6)"
    )
    # the dice rolled next are those a twin that was never refused rolls
    stab = Action("ana", "attack", "bo")
    assert engine.act(stab).rolls == twin.act(stab).rolls


def test_a_given_die_the_action_never_rolls_is_refused_after_the_roll_and_kept_nowhere() -> None:
    _, engine = started()
    _, twin = started()
    # the defence die comes from the seed, then the unused given die refuses the action
    bad = Action("ana", "attack", "bo", dice={"attack": (15,), "scatter": (2,)})
    error = refused(engine, bad)
    assert error.code == "unused_die"
    assert error.message == (
        "die label 'scatter' is never rolled by this action (it rolled: attack, defend:bo)"
    )
    stab = Action("ana", "attack", "bo")
    assert engine.act(stab).rolls == twin.act(stab).rolls


# --- turns ------------------------------------------------------------------------------------


def test_ending_a_later_actors_turn_passes_the_turns_before_it_and_starts_a_round() -> None:
    _, engine = started()
    record = engine.act(Action("cy", "end_turn"))
    assert record.events == (
        TurnEnded("ana", True),
        TurnStarted("bo", 1),
        TurnEnded("bo", True),
        TurnStarted("cy", 1),
        TurnEnded("cy", False),
        TurnStarted("ana", 2),
    )
    assert (engine.state.turn.actor, engine.state.round) == ("ana", 2)


def test_a_down_combatants_turn_is_skipped_and_ending_it_ends_nothing() -> None:
    _, engine = started(
        FIGHT.replace("hand: club}\n  - {id: cy", "hand: club, hp: 0}\n  - {id: cy")
    )
    assert engine.state.get("bo").hp == 0
    record = engine.act(Action("ana", "end_turn"))
    assert record.events == (
        TurnEnded("ana", False),
        TurnStarted("bo", 1),
        TurnSkipped("bo"),
        TurnEnded("bo", False),
        TurnStarted("cy", 1),
    )
    record = engine.act(Action("bo", "end_turn"))
    assert record.events == (Note("Bo is down: its turn is skipped (none to end)"),)
    assert engine.state.turn.actor == "cy"


def test_the_table_may_play_a_down_combatants_turn() -> None:
    _, engine = started(BO_DOWN + "table: {skip_down: false}\n")
    record = engine.act(Action("ana", "end_turn"))
    assert record.events == (TurnEnded("ana", False), TurnStarted("bo", 1))


def test_advance_to_refuses_an_actor_whose_turn_never_comes() -> None:
    ef, engine = started()
    state = dataclasses.replace(engine.state, order=("ana", "bo"))
    with pytest.raises(Refusal) as err:
        advance_to(ef.ruleset, state, "cy", GivenDice({}, None))
    assert err.value.code == "not_in_order"
    assert err.value.message == "'cy' is not in the turn order (ana, bo): its turn never comes"


def test_removing_the_actor_begins_the_next_ones_turn() -> None:
    _, engine = started()
    record = engine.act(Action("ana", "remove"))
    assert record.events == (CombatantRemoved("ana"), TurnStarted("bo", 1))
    assert engine.state.order == ("bo", "cy")


# --- a walk -----------------------------------------------------------------------------------


def test_a_walk_counts_its_tiles_against_the_tables_move() -> None:
    _, engine = started()
    record = engine.act(Action("ana", "move", params={"to": (3, 0), "walk": True}))
    assert record.events == (Walked("ana", 3), Moved("ana", (3, 0)))
    assert engine.state.turn.walked == 3
    error = refused(engine, Action("ana", "move", params={"to": (7, 0), "walk": True}))
    assert error.code == "too_far"
    assert error.message == "[7, 0] is 4 tiles from Ana; it walks 6 a turn and has 3 left"


def test_a_walk_from_no_tile_is_refused() -> None:
    ef, engine = started(FIGHT.replace("at: [0, 0], ", ""))
    action = Action("ana", "move", params={"to": (1, 1), "walk": True})
    with pytest.raises(Refusal) as err:
        plan(ef.ruleset, engine.state, action, GivenDice({}, None))
    assert err.value.code == "no_tile"
    assert err.value.message == "Ana stands on no tile: the game master places it"


def test_a_game_masters_move_is_no_walk() -> None:
    _, engine = started()
    record = engine.act(Action("bo", "move", params={"to": (9, 9)}))
    assert record.events == (Moved("bo", (9, 9)),)
    assert engine.state.turn == started()[1].state.turn  # no turn taken, nothing walked


# --- free-form marks ----------------------------------------------------------------------------


def test_a_free_form_mark_counts_down_at_its_bearers_turn_start_and_is_gone_at_zero() -> None:
    ef, engine = started()
    ana = engine.state.get("ana")
    marked = ana.with_status("blessed", {"turns": 2, "from": "gm"}).with_status("hexed", {})
    state = engine.state.with_combatant(marked)
    assert marks_tick(ef.ruleset, state, "ana") == [
        StatusSet("ana", "blessed", {"turns": 1, "from": "gm"})
    ]
    last = state.with_combatant(marked.with_status("blessed", {"turns": 1}))
    assert marks_tick(ef.ruleset, last, "ana") == [StatusCleared("ana", "blessed")]


def test_the_rulesets_own_status_does_not_tick_as_a_mark() -> None:
    ef, engine = started()
    burning = engine.state.get("ana").with_status("burning", {"turns": 2})
    assert marks_tick(ef.ruleset, engine.state.with_combatant(burning), "ana") == []


# --- undo, redo, fork, replay ------------------------------------------------------------------


def test_undo_and_redo_refuse_when_there_is_nothing_to_take_back_or_put_back() -> None:
    _, engine = started()
    with pytest.raises(FracasError) as err:
        engine.undo()
    assert (err.value.code, err.value.message) == ("nothing_to_undo", "there is no action to undo")
    with pytest.raises(FracasError) as err:
        engine.redo()
    assert (err.value.code, err.value.message) == (
        "nothing_to_redo",
        "there is no undone action to redo",
    )


def test_undo_and_redo_are_records_and_a_new_action_drops_the_redo() -> None:
    _, engine = started()
    start = engine.state
    stab = engine.act(STAB)
    hit = engine.state
    undo = engine.undo(by="gm")
    assert undo == Record(2, None, (), (), "undo", 1, "gm")
    assert engine.state == start and engine.undoable is None and engine.redoable == stab
    redo = engine.redo()
    assert redo == Record(3, None, (), (), "redo", 1)
    assert engine.state == hit and engine.redoable is None
    engine.undo()
    engine.act(Action("ana", "end_turn"))
    assert engine.redoable is None
    assert [r.kind for r in engine.log] == ["start", "action", "undo", "redo", "undo", "action"]
    assert [r.seq for r in engine.effective] == [5]


def test_a_fork_goes_its_own_way_with_the_same_dice() -> None:
    _, engine = started()
    twin = engine.fork()
    stab = Action("ana", "attack", "bo")
    played = twin.act(stab)
    assert engine.log == twin.log[:1] and engine.state.get("bo").hp == 12
    assert engine.act(stab).rolls == played.rolls


def test_replay_of_a_log_reaches_the_same_state() -> None:
    ef, engine = started()
    engine.act(Action("ana", "attack", "bo"))
    engine.undo()
    engine.redo()
    engine.act(Action("cy", "end_turn"))
    again = Engine(ef.ruleset, ef.start)  # no seed: every die comes from the records
    for record in engine.log:
        again.replay(record, ef.order)
    assert again.state == engine.state and again.log == engine.log


def test_replay_refuses_an_undo_record_that_names_another_action() -> None:
    ef, engine = started()
    again = Engine(ef.ruleset, ef.start)
    again.replay(engine.log[0])
    with pytest.raises(FracasError) as err:
        again.replay(Record(1, None, (), (), "undo", 5))
    assert err.value.code == "bad_record"
    assert err.value.message == "undo record #1 names record #5, but the latest action is none"
    engine.act(STAB)
    again.replay(engine.log[1])
    with pytest.raises(FracasError) as err:
        again.replay(Record(2, None, (), (), "redo", 1))
    assert err.value.message == (
        "redo record #2 names record #1, but the latest undone action is none"
    )


# --- no two tokens on one tile (issue 35) ---------------------------------------------------


EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.yaml"))


def _example(path: Path, share: bool = False) -> tuple[EncounterFile, Engine]:
    """An example's start (no actions), its ruleset letting two share a tile if ``share``."""
    ef = parse_text(path.read_text().split("actions:")[0], path.name)
    if share:
        ruleset = copy.copy(ef.ruleset)
        ruleset.contract = dataclasses.replace(ef.ruleset.contract, share_tiles=True)
        ef = dataclasses.replace(ef, ruleset=ruleset)
    engine = Engine(ef.ruleset, ef.start, ef.seed, ef.bounds)
    engine.begin(ef.dice, ef.order)
    return ef, engine


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_a_move_onto_a_taken_tile_is_refused_naming_who_is_there(path: Path) -> None:
    ef, engine = _example(path)
    actor = engine.state.turn.actor
    other = next(c for c in engine.state.combatants.values() if c.id != actor)
    assert other.at is not None
    x, y = other.at
    mover = engine.state.name(actor)
    said = f"{other.name} is on {x}, {y}: {mover} cannot stand there too; pick a free tile"
    # the game master's move by decree, and the actor's own move as its rules take it
    own = walk(ef.ruleset, engine.state, actor, (x, y))
    assert own is not None
    for action in (Action(actor, "move", params={"to": (x, y)}), own):
        err = refused(engine, action)
        assert (err.code, err.message) == ("tile_taken", said), action
    # the tile beside it, free, is taken as before
    free = next(
        (x + dx, y)
        for dx in (1, -1, 2, -2)
        if x + dx >= 0 and all(c.at != (x + dx, y) for c in engine.state.combatants.values())
    )
    engine.act(Action(actor, "move", params={"to": free}))
    assert engine.state.get(actor).at == free


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_a_ruleset_that_lets_two_share_a_tile_takes_the_move(path: Path) -> None:
    _, engine = _example(path, share=True)
    actor = engine.state.turn.actor
    other = next(c for c in engine.state.combatants.values() if c.id != actor)
    assert other.at is not None
    record = engine.act(Action(actor, "move", params={"to": other.at}))
    assert record.events == (Moved(actor, other.at),)
    assert engine.state.get(actor).at == engine.state.get(other.id).at
