"""Encounter files (``fracas.io.files``): what a valid file gives (the start, the order,
the dice, the actions and where each stands, the map's bounds, the lab's tactics, the
policy, options given in part), each refusal with its code, its words and where it
points (``FILE:LINE: field``), and an export that replays a game exactly.

The reader's bounds on size, nesting, aliases and digits are ``test_files_limits.py``'s;
how error lines read through the command line, ``test_files_messages.py``'s."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from fracas.errors import FileError
from fracas.io.files import (
    action_json,
    export,
    load,
    parse_text,
    play_file,
    read_action,
    read_text,
)
from fracas.model import Action, Policy, Turn

FIGHT = """\
ruleset: dice-combat
seed: 3
combatants:
  - {id: ana, at: [0, 0], hand: knife}
  - {id: bo, at: [1, 0], hand: club}
"""
"""Two combatants side by side, in five lines: what a test adds starts on line 6."""


def refused(text: str, name: str = "fight.yaml") -> FileError:
    with pytest.raises(FileError) as err:
        parse_text(text, name)
    return err.value


def said(error: FileError) -> tuple[str, str, str]:
    return error.code, error.message, error.where


# --- a valid file ---------------------------------------------------------------------------------


def test_a_file_gives_the_start_its_actions_where_each_stands_and_its_setup() -> None:
    text = FIGHT + (
        "map: {width: 8, height: 6}\n"
        "actions:\n"
        "  - {actor: ana, do: attack, target: bo}\n"
        "  - {actor: ana, do: end_turn}\n"
    )
    ef = parse_text(text, "f.yaml")
    assert (ef.path, ef.ruleset.about.name, ef.seed, ef.order) == ("f.yaml", "dice-combat", 3, None)
    assert ef.start.order == ("ana", "bo") and ef.start.turn == Turn("ana")
    assert ef.start.round == 1 and ef.start.policy == Policy()
    assert ef.start.table.map_size == (8, 6) and ef.bounds == (8, 6)
    assert ef.actions == (Action("ana", "attack", "bo"), Action("ana", "end_turn"))
    assert ef.action_where == ("f.yaml:8", "f.yaml:9")
    assert "actions" not in ef.setup and ef.setup["map"] == {"width": 8, "height": 6}
    assert parse_text(FIGHT).bounds is None


def test_the_order_and_round_given_start_there() -> None:
    ef = parse_text(FIGHT + "order: [bo, ana]\nround: 3\ndice: {attack: [4, 5]}\n")
    assert ef.order == ("bo", "ana") and ef.start.order == ("bo", "ana")
    assert ef.start.turn.actor == "bo" and ef.start.round == 3
    assert dict(ef.dice) == {"attack": (4, 5)}


def test_the_labs_tactics_and_their_presets() -> None:
    ef = parse_text(FIGHT + "tactics: {ana: {preset: naive, focus: bo}, bo: {focus: weakest}}\n")
    assert dict(ef.start.presets) == {"ana": "naive"}  # a default preset is not written
    assert (ef.tactics["ana"].preset, ef.tactics["ana"].focus) == ("naive", "bo")
    assert (ef.tactics["bo"].preset, ef.tactics["bo"].approach) == ("default", True)


def test_the_policy_is_given_over_the_default() -> None:
    ef = parse_text(FIGHT + "policy: {player_undo: true, player_calls: [edge], enemy_hp: exact}\n")
    assert ef.start.policy == Policy(
        player_undo=True, player_calls=frozenset({"edge"}), enemy_hp="exact"
    )


def test_an_option_table_with_fixed_keys_given_in_part_keeps_the_other_defaults() -> None:
    text = "ruleset: wasteland\ncombatants:\n  - {id: ana, at: [0, 0]}\n  - {id: bo, at: [1, 0]}\n"
    default = parse_text(text).ruleset.options.called_shot_penalty
    assert dict(default) == {"head": 4, "torso": 1, "arms": 2, "legs": 2}
    given = parse_text(text + "options: {called_shot_penalty: {head: 9}}\n")
    assert dict(given.ruleset.options.called_shot_penalty) == {
        "head": 9,
        "torso": 1,
        "arms": 2,
        "legs": 2,
    }


def test_load_and_read_text_read_a_file_and_name_one_they_cannot(tmp_path: Path) -> None:
    path = tmp_path / "fight.yaml"
    path.write_text(FIGHT, encoding="utf-8")
    assert read_text(path) == FIGHT
    assert load(path).path == str(path)
    missing = tmp_path / "none.yaml"
    with pytest.raises(FileError) as err:
        read_text(missing)
    assert said(err.value) == (
        "unreadable_file",
        f"cannot read {str(missing)!r}: No such file or directory",
        str(missing),
    )
    latin = tmp_path / "latin.yaml"
    latin.write_bytes(FIGHT.encode() + b"# caf\xe9\n")
    with pytest.raises(FileError) as err:
        load(latin)
    assert said(err.value) == ("unreadable_file", f"{str(latin)!r} is not UTF-8 text", str(latin))


# --- refusals -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name", "expected"),
    [
        (
            "",
            "a.yaml",
            (
                "bad_file",
                "the file is empty: an encounter needs `ruleset:` and `combatants:`",
                "a.yaml",
            ),
        ),
        (
            "- 1\n- 2\n",
            "a.yaml",
            (
                "bad_file",
                "the file holds a list ([1, 2]), not a mapping of fields: an encounter needs "
                "`ruleset:` and `combatants:`",
                "a.yaml",
            ),
        ),
        (
            FIGHT + "seed: 2\n",
            "a.yaml",
            ("duplicate_key", "key 'seed' appears twice in one mapping", "a.yaml:6"),
        ),
        (
            "ruleset: dice-combat\ncombatants:\n\t- id: ana\n",
            "a.yaml",
            ("bad_yaml", "line 3: a tab in indentation; YAML indents with spaces", "a.yaml:3"),
        ),
        (
            '{"ruleset": "dice-combat",\n "combatants": [}',
            "a.json",
            ("bad_json", "Expecting value", "a.json:2"),
        ),
        (
            FIGHT + "colour: red\n",
            "a.yaml",
            (
                "unknown_field",
                "'colour' is not a known field; valid: ruleset, combatants, options, seed, round, "
                "order, dice, map, table, actions, tactics, policy",
                "a.yaml:6: colour",
            ),
        ),
        (
            "ruleset: chess\ncombatants: [{id: a}]\n",
            "a.yaml",
            (
                "unknown_ruleset",
                "'chess' is not a ruleset; valid: dice-combat, tier-duel, escalation, soak, "
                "wasteland",
                "a.yaml:1: ruleset",
            ),
        ),
    ],
    ids=["empty", "list", "duplicate", "tab", "json", "field", "ruleset"],
)
def test_a_file_that_is_no_encounter(text: str, name: str, expected: tuple[str, str, str]) -> None:
    assert said(refused(text, name)) == expected


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        (
            "order: [ana, cy]\n",
            (
                "unknown_combatant",
                "'cy' is not a combatant; valid: ana, bo",
                "fight.yaml:6: order[1]",
            ),
        ),
        (
            "order: [ana, ana]\n",
            ("bad_order", "'ana' appears twice in the order", "fight.yaml:6: order[1]"),
        ),
        (
            "order: [bo]\n",
            (
                "bad_order",
                "the order must name every combatant once; missing: ana",
                "fight.yaml:6: order",
            ),
        ),
        (
            "tactics: {cy: {preset: naive}}\n",
            (
                "unknown_combatant",
                "'cy' is not a combatant; valid: ana, bo",
                "fight.yaml:6: tactics.cy",
            ),
        ),
        (
            "tactics: {ana: {focus: loudest}}\n",
            (
                "bad_value",
                "focus 'loudest' is not weakest, nearest, dangerous or a combatant; "
                "combatants: ana, bo",
                "fight.yaml:6: tactics.ana.focus",
            ),
        ),
        (
            "tactics: {ana: {action: dance}}\n",
            (
                "unknown_action",
                "action 'dance' is not an action of dice-combat; valid: attack, throw, reload, "
                "equip",
                "fight.yaml:6: tactics.ana.action",
            ),
        ),
        (
            "policy: {player_calls: [bogus]}\n",
            (
                "unknown_call",
                "policy player_calls: 'bogus' is not a judgement call of dice-combat; valid: "
                "edge, defend_edge",
                "fight.yaml:6: policy.player_calls",
            ),
        ),
        (
            "policy: {bogus: 1}\n",
            (
                "unknown_field",
                "'bogus' is not a known field; valid: player_undo, player_calls, enemy_hp, "
                "winbar, player_move, advisor",
                "fight.yaml:6: policy.bogus",
            ),
        ),
        (
            "actions:\n  - {actor: cy, do: attack, target: bo}\n",
            (
                "unknown_combatant",
                "'cy' is not a combatant; valid: ana, bo",
                "fight.yaml:7: actions[0].actor",
            ),
        ),
    ],
    ids=[
        "order-unknown",
        "order-twice",
        "order-missing",
        "tactics-unknown",
        "tactics-focus",
        "tactics-action",
        "policy-call",
        "policy-field",
        "action-actor",
    ],
)
def test_a_refused_field_is_named_with_its_line(extra: str, expected: tuple[str, str, str]) -> None:
    assert said(refused(FIGHT + extra)) == expected


def test_a_lone_surrogate_is_no_text() -> None:
    text = '{"ruleset": "dice-combat", "combatants": [{"id": "ana", "name": "\\ud800"}]}'
    assert said(refused(text, "a.json")) == (
        "bad_value",
        "'\\ud800' holds '\\ud800', half of a UTF-16 pair and not a character: give text (a "
        "JSON escape names both halves, or write the character itself)",
        "a.json: combatants[0].name",
    )


# --- actions in and out -------------------------------------------------------------------------


def test_read_action_checks_an_entry_as_the_files_own_actions() -> None:
    ef = parse_text(FIGHT)
    assert read_action(ef, {"actor": "ana", "do": "attack", "target": "bo"}) == Action(
        "ana", "attack", "bo"
    )
    with pytest.raises(FileError) as err:
        read_action(ef, {"actor": "ana", "do": "attack", "target": "cy"})
    assert err.value.code == "unknown_combatant"
    # the ids it may name are given: a fight that has gained one
    added = read_action(ef, {"actor": "ana", "do": "attack", "target": "cy"}, ["ana", "bo", "cy"])
    assert added.target == "cy"


def test_action_json_is_a_files_action_entry() -> None:
    assert action_json(Action("ana", "attack", "bo")) == {
        "actor": "ana",
        "do": "attack",
        "target": "bo",
    }
    action = Action(
        "ana", "throw", at=(2, 3), params={"to": (3, 4)}, dice={"attack": (3,), "d": (1, 2)}
    )
    assert action_json(action) == {
        "actor": "ana",
        "do": "throw",
        "at": [2, 3],
        "to": [3, 4],
        "dice": {"attack": 3, "d": [1, 2]},
    }
    assert action_json(action, {"attack": [5]})["dice"] == {"attack": 5}


def test_an_export_replays_the_game_with_no_die_from_the_seed() -> None:
    text = FIGHT + (
        "actions:\n"
        "  - {actor: ana, do: attack, target: bo}\n"
        "  - {actor: bo, do: attack, target: ana}\n"
    )
    ef = parse_text(text)
    played = play_file(ef)
    assert played.refused is None
    out = export(ef, played.records)
    assert [a["do"] for a in out["actions"]] == ["attack", "attack"]
    assert all("dice" in a for a in out["actions"])  # every die as rolled
    out["seed"] = 99  # another seed: no die comes from it
    again = play_file(parse_text(yaml.safe_dump(out), "export.yaml"))
    assert again.refused is None and again.engine.state == played.engine.state


def test_an_export_writes_the_presets_played_into_the_files_tactics() -> None:
    ef = parse_text(
        FIGHT + "tactics: {ana: {preset: naive, focus: bo}, bo: {preset: random, seed: 2}}\n"
    )
    played = play_file(ef)
    out = export(ef, played.records, presets={"ana": "default", "bo": "naive", "zed": "naive"})
    assert out["tactics"] == {"ana": {"focus": "bo"}, "bo": {"preset": "naive", "seed": 2}}
    plain = parse_text(FIGHT + "tactics: {ana: {preset: naive}}\n")
    out = export(plain, play_file(plain).records, presets={"ana": "default"})
    assert "tactics" not in out  # a tactic left empty: no entry, and no empty table
