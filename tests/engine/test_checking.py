"""One action validator (``fracas.engine.checking.check_action``) for files and programs.

The file reader and ``Engine.act`` check an action the same way: an ``Action`` a
program builds is refused as the same entry in a file would be, its field named,
and nothing is consumed (README, "Actions").
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from fracas.engine.checking import check_action
from fracas.engine.play import Engine
from fracas.errors import DiceError, FileError, FracasError, Refusal
from fracas.io.files import load, parse_text, read_action
from fracas.model import Action

TEXT = """\
ruleset: dice-combat
seed: 5
map: {width: 4, height: 3}
combatants:
  - id: ana
    at: [0, 0]
    hand: sword
  - id: bo
    at: [1, 0]
"""

EXAMPLES = sorted(Path(__file__).parents[2].joinpath("examples").glob("*.yaml"))


def _engine() -> Engine:
    ef = parse_text(TEXT, "enc.yaml")
    engine = Engine(ef.ruleset, ef.start, ef.seed, ef.bounds)
    engine.begin({}, ["ana", "bo"])
    return engine


@pytest.mark.parametrize(
    ("action", "kind", "code", "message"),
    [
        (
            Action("ana", "attack", "zed"),
            Refusal,
            "unknown_combatant",
            "target: 'zed' is not a combatant; valid: ana, bo",
        ),
        (
            Action("cy", "end_turn"),
            Refusal,
            "unknown_combatant",
            "actor: 'cy' is not a combatant; valid: ana, bo",
        ),
        (
            Action("ana", "fly"),
            Refusal,
            "unknown_action",
            "do: 'fly' is not an action of dice-combat; valid: attack, throw, reload, equip, "
            "end_turn, move, set",
        ),
        (
            Action("ana", "attack", "bo", params={"edge": "sideways"}),
            Refusal,
            "bad_value",
            "edge 'sideways': give one of advantage, disadvantage",
        ),
        (
            Action("ana", "attack", "bo", params={"power": 3}),
            Refusal,
            "unknown_field",
            "'power' is not a field of this action; valid: actor, do, target, at, "
            "dice, edge, defend_edge",
        ),
        (
            Action("ana", "attack"),
            Refusal,
            "missing_field",
            "'attack' needs a `target` or a tile `at: [x, y]`, not both",
        ),
        (
            Action("ana", "move", params={"to": (9, 0)}),
            Refusal,
            "off_map",
            "to: tile [9, 0] is off the map: x in 0..3, y in 0..2",
        ),
        (
            Action("ana", "attack", "bo", dice={"attack": (25,)}),
            DiceError,
            "die_out_of_range",
            "'attack' = 25 is not a face of a d20: give 1..20",
        ),
        (
            Action("ana", "attack", "bo", dice={"luck": (1,)}),
            DiceError,
            "unknown_die_label",
            "'luck' is not a dice label of dice-combat; valid: ",
        ),
    ],
    ids=["target", "actor", "do", "choice", "parameter", "no-target", "off-map", "face", "label"],
)
def test_a_programs_action_is_checked_as_a_files(
    action: Action, kind: type[FracasError], code: str, message: str
) -> None:
    engine = _engine()
    before, log, stream = engine.state, len(engine.log), engine.random.getstate()
    with pytest.raises(kind) as exc:
        engine.act(action)
    assert exc.value.code == code
    assert exc.value.message.startswith(message), exc.value.message
    assert (engine.state, len(engine.log), engine.random.getstate()) == (before, log, stream)


def test_the_file_reader_gives_the_same_code_and_message_with_the_line() -> None:
    text = TEXT + "actions:\n  - {actor: ana, do: attack, target: bo, edge: sideways}\n"
    with pytest.raises(FileError) as exc:
        parse_text(text, "enc.yaml")
    assert (exc.value.code, exc.value.where) == ("bad_value", "enc.yaml:11: actions[0].edge")
    assert exc.value.message == "edge 'sideways': give one of advantage, disadvantage"


def test_without_bounds_every_tile_is_on_the_map() -> None:
    ef = parse_text(TEXT, "enc.yaml")
    engine = Engine(ef.ruleset, ef.start, ef.seed)
    engine.begin({}, ["ana", "bo"])
    record = engine.act(Action("ana", "move", params={"to": [9, 0]}))
    assert engine.state.get("ana").at == (9, 0)
    assert record.action is not None and record.action.params["to"] == (9, 0)


def test_check_action_takes_an_entry_or_an_action_and_returns_the_same() -> None:
    ef = parse_text(TEXT, "enc.yaml")
    entry = {"actor": "ana", "do": "move", "to": [2, 1], "dice": {"attack": [3, 4]}}
    from_entry = check_action(ef.ruleset, ["ana", "bo"], entry, bounds=(4, 3))
    assert from_entry == Action("ana", "move", params={"to": (2, 1)}, dice={"attack": (3, 4)})
    assert check_action(ef.ruleset, ef.start, from_entry, bounds=(4, 3)) == from_entry
    assert read_action(ef, entry) == from_entry


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_example_action_passes_the_engine_unchanged(path: Path) -> None:
    ef = load(path)
    for action in ef.actions:
        assert check_action(ef.ruleset, ef.start, action, bounds=ef.bounds) == action
    engine = Engine(ef.ruleset, ef.start, ef.seed, ef.bounds)
    engine.begin(ef.dice, ef.order)
    for action in ef.actions:
        assert engine.act(action).action == action


def test_a_set_action_is_checked_for_its_fields() -> None:
    engine = _engine()
    with pytest.raises(Refusal) as exc:
        engine.act(Action("ana", "set", params={"armour": 3}))
    assert exc.value.code == "unknown_field"
    assert exc.value.message.startswith("'armour' is not a field to set; valid: name, ")
    engine.act(dataclasses.replace(Action("ana", "set"), params={"hp": 3}))
    assert engine.state.get("ana").hp == 3
