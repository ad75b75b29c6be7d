"""The prompt's language, driven directly: lines to commands and actions, every error a
clear one-line FracasError, the inverse (``command_text``) for every example action of
every ruleset, random text never crashing the parser, and tab completion."""

from __future__ import annotations

import shlex

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.engine.checking import check_now
from fracas.errors import FracasError
from fracas.io.files import EncounterFile, parse_text
from fracas.model import Action, Encounter
from fracas.play.choices import completions
from fracas.play.commands import (
    COMMANDS,
    Act,
    Meta,
    OddsOf,
    action_names,
    command_text,
    parse,
    parse_action,
)
from fracas.rulesets import RULESETS, Ruleset
from tests.play.support import EXAMPLES, example_file

EF = parse_text((EXAMPLES / "dice-combat.yaml").read_text(), "dice-combat.yaml")
STATE = EF.start  # Ana's turn, round 1


def act(line: str) -> Action:
    """The action ``line`` gives, checked as the table checks what the prompt submits."""
    command = parse(line, EF, STATE)
    assert isinstance(command, Act), command
    return check_now(EF.ruleset, STATE, command.action, EF.bounds)


def checked(words: list[str], ef: EncounterFile, state: Encounter) -> Action:
    """:func:`parse_action`'s entry checked as the table checks it."""
    return check_now(ef.ruleset, state, parse_action(words, ef, state), ef.bounds)


def command(line: str, ef: EncounterFile = EF, state: Encounter = STATE) -> object:
    """:func:`parse`'s command, an action in it checked as the table checks it."""
    got = parse(line, ef, state)
    if isinstance(got, Act | OddsOf):
        return type(got)(check_now(ef.ruleset, state, got.action, ef.bounds))  # type: ignore[arg-type]
    return got


def refused(line: str) -> FracasError:
    """The error of ``line``: the prompt's own, or the table's when it checks it."""
    with pytest.raises(FracasError) as err:
        command = parse(line, EF, STATE)
        if isinstance(command, Act | OddsOf):
            check_now(EF.ruleset, STATE, command.action, EF.bounds)
    assert "\n" not in err.value.message
    return err.value


def test_actions() -> None:
    assert act("ana attack bo") == Action("ana", "attack", "bo")
    assert act("attack bo") == Action("ana", "attack", "bo")  # the current actor's
    assert act("bo attack ana") == Action("bo", "attack", "ana")
    assert act("ana throw at 4,5") == Action("ana", "throw", at=(4, 5))
    assert act("ana throw [4, 5]") == Action("ana", "throw", at=(4, 5))
    assert act("bo equip club") == Action("bo", "equip", params={"item": "club"})
    assert act("bo equip item=club") == Action("bo", "equip", params={"item": "club"})
    assert act("bo reload") == Action("bo", "reload")
    assert act("ana   attack   target=bo") == Action("ana", "attack", "bo")


def test_parameters_and_dice() -> None:
    action = act("ana attack bo edge=advantage attack=17,3 ammo=2 defend:bo=4")
    assert action.params == {"edge": "advantage"}
    assert action.dice == {"attack": (17, 3), "ammo": (2,), "defend:bo": (4,)}


def test_core_actions() -> None:
    for line in ("ana move to 3,4", "ana move 3,4", "ana move to=3,4", "ana move to [3,4]"):
        assert act(line) == Action("ana", "move", params={"to": (3, 4)})
    assert act("bo set hp=5 cover=true").params == {"hp": 5, "cover": True}
    assert act("bo set 'statuses={burning: {turns: 2, damage: 1}}'").params == {
        "statuses": {"burning": {"turns": 2, "damage": 1}}
    }
    assert act("end") == Action("ana", "end_turn")
    assert act("bo end") == act("bo end_turn") == Action("bo", "end_turn")
    assert act("end_turn") == Action("ana", "end_turn")


def test_commands() -> None:
    assert parse("   ", EF, STATE) is None
    assert parse("status", EF, STATE) == Meta("status")
    assert parse("log 5", EF, STATE) == Meta("log", ("5",))
    assert parse("dice manual", EF, STATE) == Meta("dice", ("manual",))
    assert parse("save 'my fight.yaml'", EF, STATE) == Meta("save", ("my fight.yaml",))
    assert parse("delete gate-2", EF, STATE) == Meta("delete", ("gate-2",))
    assert parse("help attack", EF, STATE) == Meta("help", ("attack",))
    assert parse("exit", EF, STATE) == Meta("quit")
    checked = Action("ana", "attack", "bo", params={"edge": "advantage"})
    assert command("odds ana attack bo edge=advantage") == OddsOf(checked)  # type: ignore[arg-type]
    assert command("odds attack cy") == OddsOf(Action("ana", "attack", "cy"))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("line", "code", "says"),
    [
        ("zed attack bo", "unknown_command", ["'zed'", "ana, bo, cy, dee", "attack, throw"]),
        ("ana fly", "unknown_action", ["'fly'", "valid: attack, throw, reload, equip"]),
        ("ana attack zed", "bad_word", ["'zed'", "ana, bo, cy, dee"]),
        ("ana attack bo cy", "bad_word", ["one target", "'cy'"]),
        ("ana attack bo attack=25", "die_out_of_range", ["25", "1..20"]),
        ("ana attack bo attack=x", "bad_value", ["'x'"]),
        ("ana attack bo edge=sideways", "bad_value", ["'sideways'", "advantage, disadvantage"]),
        ("ana attack bo bogus=1", "unknown_field", ["'bogus'", "edge, defend_edge", "attack"]),
        ("ana attack bo crit:zed=2", "unknown_die_label", ["'crit:zed'"]),
        ("ana attack", "missing_field", ["target"]),
        ("ana equip", "missing_field", ["'item'"]),
        ("ana", "missing_action", ["ana", "attack"]),
        ("ana reload bo", "bad_word", ["'bo'", "'reload'"]),
        ("ana move to x,y", "bad_word", ["'to'"]),
        ("bo reload at 1,1", "bad_word", ["tile"]),
        ("ana set wings=2", "unknown_field", ["'wings'", "hp"]),
        ("ana attack bo =3", "bad_word", ["'=3'"]),
        ("dice sometimes", "bad_command", ["'sometimes'", "manual or auto"]),
        ("log x", "bad_command", ["'x'"]),
        ("save", "bad_command", ["save FILE"]),
        ("status now", "bad_command", ["'status now'"]),
        ("help fly", "bad_command", ["'fly'", "attack"]),
        ("odds", "bad_command", ["odds ana attack bo"]),
        ("ana attack 'bo", "bad_command", ["quotation"]),
    ],
)
def test_errors_quote_the_input_and_list_what_is_valid(
    line: str, code: str, says: list[str]
) -> None:
    error = refused(line)
    assert error.code == code, error
    for text in says:
        assert text in error.message, error


def _states(ef: EncounterFile) -> list[Encounter]:
    from fracas.engine.play import Engine

    engine = Engine(ef.ruleset, ef.start, ef.seed)
    engine.begin(ef.dice, ef.order)
    states = [engine.state]
    for action in ef.actions:
        states.append(engine.state)
        engine.act(action)
    return states


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.about.name)
def test_every_example_action_round_trips(ruleset: type[Ruleset]) -> None:
    """``command_text`` writes a line that ``parse_action`` reads back as the same action,
    for every action of every ruleset's example, with its dice."""
    ef = example_file(ruleset)
    states = _states(ef)
    for action, state in zip(ef.actions, states[1:], strict=True):
        line = command_text(action)
        assert checked(shlex.split(line), ef, state) == action, line


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.about.name)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_any_line_is_a_command_or_one_clear_error(
    ruleset: type[Ruleset], data: st.DataObject
) -> None:
    ef = example_file(ruleset)
    words = [
        *COMMANDS,
        *ef.start.combatants,
        *action_names(ef),
        *(f"{p}=" for s in ef.ruleset.contract.actions for p in s.params),
        *(f"{d.label}=" for d in ef.ruleset.contract.dice),
        "at",
        "to",
        "1,2",
        "=",
        "'",
        "7",
        "true",
        "[1, 2]",
    ]
    parts = data.draw(st.lists(st.one_of(st.sampled_from(words), st.text(max_size=6)), max_size=6))
    line = " ".join(parts)
    try:
        parse(line, ef, ef.start)
    except FracasError as exc:
        assert exc.message and "\n" not in exc.message


def test_several_targets_for_an_action_that_takes_them() -> None:
    for ruleset in RULESETS:
        ef = example_file(ruleset)
        for spec in ef.ruleset.contract.actions:
            if spec.targets != "combatants":
                continue
            a, b, c = list(ef.start.combatants)[:3]
            action = checked([a, spec.name, b, c], ef, ef.start)
            assert action.target is None and action.params["targets"] == (b, c)
            assert checked([a, spec.name, f"targets={b},{c}"], ef, ef.start) == action


def names() -> list[str]:
    return ["gate", "gate-2", "night"]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("an", ["ana"]),
        ("st", ["status"]),
        ("ana ", [*action_names(EF), "end"]),
        ("ana at", ["attack"]),
        ("ana attack ", ["ana", "at", "bo", "cy", "dee", "defend_edge=", "edge="]),
        ("ana attack bo ", ["at", "defend_edge=", "edge="]),
        ("ana attack bo edge=", ["edge=advantage", "edge=disadvantage"]),
        ("attack bo edge=adv", ["edge=advantage"]),
        ("ana attack at ", []),
        ("bo equip ", ["item="]),
        ("ana move ", ["to", "walk="]),
        ("ana set h", ["hand=", "hp="]),
        ("dice ", ["auto", "manual"]),
        ("delete ga", ["gate", "gate-2"]),
        ("odds ana attack c", ["cy"]),
        ("help th", ["throw"]),
        ("status ", []),
        ("zed ", []),
    ],
)
def test_completions(line: str, expected: list[str]) -> None:
    assert completions(line, EF, STATE, names) == sorted(expected)


def test_completion_of_the_first_word_offers_everything() -> None:
    first = completions("", EF, STATE, names)
    assert {"status", "undo", "ana", "dee", "attack", "end_turn"} <= set(first)


def test_a_combatant_named_like_a_command_can_still_act() -> None:
    text = (EXAMPLES / "dice-combat.yaml").read_text().replace("id: bo", "id: list")
    text = text.replace("[ana, bo, cy, dee]", "[ana, list, cy, dee]")
    text = text.replace("target: bo", "target: list").replace("actor: bo", "actor: list")
    ef = parse_text(text, "named.yaml")
    assert parse("list", ef, ef.start) == Meta("list")
    assert command("list reload", ef, ef.start) == Act(Action("list", "reload"))  # type: ignore[arg-type]
    assert command("ana attack list", ef, ef.start) == Act(Action("ana", "attack", "list"))  # type: ignore[arg-type]
