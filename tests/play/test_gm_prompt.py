"""The game master's table actions at the prompt, and prompt values read as YAML 1.2 core.

Regressions: ``bo set hp=+2`` set HP to 2 (silently absolute) and ``hp=-2`` was refused;
``note=on`` was read as YAML 1.1's ``True`` (refused: not a text), ``010`` as 8."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.engine.checking import check_now
from fracas.engine.play import Engine
from fracas.errors import FracasError
from fracas.io.files import EncounterFile, parse_text
from fracas.io.store import open_store
from fracas.model import Action, Encounter
from fracas.play.commands import Act, Meta, command_text, parse
from fracas.play.view import help_lines
from fracas.table import TableService
from tests.play.support import EXAMPLES

EF = parse_text((EXAMPLES / "dice-combat.yaml").read_text(), "dice-combat.yaml")
ESC = parse_text((EXAMPLES / "escalation.yaml").read_text(), "escalation.yaml")


def act(line: str, ef: EncounterFile = EF, state: Encounter | None = None) -> Action:
    """The action ``line`` gives, checked as the table checks what the prompt submits."""
    now = ef.start if state is None else state
    command = parse(line, ef, now)
    assert isinstance(command, Act), command
    return check_now(ef.ruleset, now, command.action, ef.bounds)


def refused(line: str, ef: EncounterFile = EF) -> FracasError:
    """The error of ``line``: the prompt's own, or the table's when it checks it."""
    with pytest.raises(FracasError) as err:
        command = parse(line, ef, ef.start)
        if isinstance(command, Act):
            check_now(ef.ruleset, ef.start, command.action, ef.bounds)
    assert "\n" not in err.value.message
    return err.value


def test_set_hp_plus_heals_and_minus_damages() -> None:
    """Regression: ``hp=+2`` was HP 2, never a heal; ``hp=-2`` was refused."""
    assert act("bo set hp=+2") == Action("bo", "heal", params={"amount": 2})
    assert act("bo set hp=-2") == Action("bo", "damage", params={"amount": 2})
    assert act("bo set hp=2") == Action("bo", "set", params={"hp": 2})
    engine = Engine(EF.ruleset, EF.start, 1)
    engine.begin(EF.dice, EF.order)
    engine.act(act("bo set hp=5"))
    engine.act(act("bo set hp=+2", state=engine.state))
    assert engine.state.get("bo").hp == 7
    engine.act(act("bo set hp=-3", state=engine.state))
    assert engine.state.get("bo").hp == 4


def test_a_signed_set_value_is_never_silently_absolute() -> None:
    err = refused("bo set hp=+2 cover=true")
    assert err.code == "bad_value" and "hp=+2" in err.message and "cover" in err.message
    err = refused("bo set luck=+1")
    assert (err.code, err.message) == (
        "bad_value",
        "luck=+1: set gives a field its value, not a change; write luck=1 "
        "(only hp=+N / hp=-N heal and damage)",
    )
    err = refused("bo set hp=+0")
    assert err.code == "bad_value" and "hp=+0" in err.message


def test_values_are_yaml_1_2_core() -> None:
    """Regression: ``note=on`` was YAML 1.1's True, refused as not a text."""
    assert act("ana act note=on", ESC).params == {"note": "on"}
    assert act("ana act note=yes", ESC).params == {"note": "yes"}
    assert act("ana act note=off", ESC).params == {"note": "off"}
    assert act("ana act 'note=\"17\"'", ESC).params == {"note": "17"}
    assert act("bo set luck=010").params == {"luck": 10}  # YAML 1.1: octal 8
    assert act("bo set cover=true").params == {"cover": True}
    assert act("bo set cover=false").params == {"cover": False}
    assert act("bo set 'traits=[a, b]'").params == {"traits": ("a", "b")}


def test_table_actions_at_the_prompt() -> None:
    assert act("heal bo 3") == act("bo heal 3") == Action("bo", "heal", params={"amount": 3})
    assert act("damage bo 4") == Action("bo", "damage", params={"amount": 4})
    assert act("move bo to 3,4") == act("bo move to 3,4")
    assert act("set bo hp=3") == Action("bo", "set", params={"hp": 3})
    assert act("status bo add=burning turns=2 damage=1") == Action(
        "bo", "status", params={"add": {"burning": {"turns": 2, "damage": 1}}}
    )
    assert act("bo status remove=burning") == Action("bo", "status", params={"remove": "burning"})
    assert parse("status", EF, EF.start) == Meta("status")
    assert act("add zed name=Zed side=raiders hp=5 at 3,4 after=bo") == Action(
        "ana",
        "add",
        params={
            "combatant": {"id": "zed", "name": "Zed", "side": "raiders", "hp": 5, "at": [3, 4]},
            "after": "bo",
        },
    )
    assert act("remove cy") == Action("cy", "remove")
    assert act("initiative dee cy bo ana") == Action(
        "ana", "initiative", params={"order": ["dee", "cy", "bo", "ana"]}
    )
    assert act("initiative order=dee,cy,bo,ana") == act("initiative dee cy bo ana")
    assert act("delay ana bo") == Action("ana", "delay", params={"after": "bo"})
    assert act("roll 1d20 + 5 roll=14") == Action(
        "ana", "roll", params={"notation": "1d20+5"}, dice={"roll": (14,)}
    )


@pytest.mark.parametrize(
    ("line", "code", "says"),
    [
        ("heal bo x", "bad_value", ["'x'", "integer"]),
        ("bo status turns=2", "unknown_field", ["turns=2", "add=NAME"]),
        ("add zed zed2", "bad_word", ["'zed2'", "after=ID"]),
        ("initiative bo ana", "bad_order", ["missing: cy, dee"]),
        ("initiative add cy ana dee", "unknown_combatant", ["'add'", "valid: ana, bo, cy, dee"]),
        ("delay ana nobody", "unknown_combatant", ["'nobody'", "valid: ana, bo, cy, dee"]),
        ("roll 2d6 roll=x", "bad_value", ["'roll'", "'x'"]),
    ],
)
def test_table_action_errors(line: str, code: str, says: list[str]) -> None:
    try:
        action = act(line)
    except FracasError as exc:
        err = exc
    else:  # refused by the engine, when it is taken
        engine = Engine(EF.ruleset, EF.start, 1)
        engine.begin(EF.dice, EF.order)
        with pytest.raises(FracasError) as caught:
            engine.act(action)
        err = caught.value
    assert err.code == code, err
    for s in says:
        assert s in err.message, err.message


@pytest.mark.parametrize(
    "action",
    [
        Action("bo", "heal", params={"amount": 3}),
        Action("bo", "status", params={"add": {"burning": {"turns": 2}}, "remove": "dazed"}),
        Action("ana", "add", params={"combatant": {"id": "zed", "hp": 5}, "after": "bo"}),
        Action("ana", "initiative", params={"order": ["dee", "cy", "bo", "ana"]}),
        Action("ana", "delay", params={"after": "cy"}),
        Action("ana", "roll", params={"notation": "2d6+1"}, dice={"roll": (4, 2)}),
        Action("cy", "remove"),
    ],
)
def test_command_text_gives_back_the_table_action(action: Action) -> None:
    assert act(command_text(action)) == action


def test_help_lists_the_table_actions(tmp_path: Path) -> None:
    table = TableService(open_store(tmp_path / "s.sqlite3", durable=False)).create_from(
        EF.setup, "gm.yaml"
    )
    text = "\n".join(help_lines(table))
    for word in ("heal ID N", "damage ID N", "status ID add=NAME", "add ID", "remove ID"):
        assert word in text
    for word in ("initiative ID ID", "delay ID AFTER-ID", "roll NOTATION"):
        assert word in text
    assert help_lines(table, "heal")[0].startswith("heal (none) [amount]: ")
