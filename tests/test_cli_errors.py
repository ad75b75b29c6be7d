"""Bad input through the command line (README, "Command line"; dice-combat.md 2.3).

Every error fracas raises on purpose ends ``fracas run`` / ``fracas odds`` with exit
status 1 and exactly one line on stderr, ``error: ...``, naming the file and line
where they are known, and never a traceback. An illegal action stops the run at
that action; with ``--json`` stdout still holds the state before it, plus
``"error": {"action": N, "code": ..., "message": ...}``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from tests.helpers import cli, write

HEAD = """\
ruleset: dice-combat
seed: 5
round: 2
order: [ana, bo]
combatants:
  - id: ana
    at: [0, 0]
    hand: sword
  - id: bo
    at: [1, 0]
"""
"""A valid encounter: ana (sword) next to bo. Line 1 is `ruleset`, 11 is the first
line after it."""


def with_actions(*actions: str) -> str:
    """HEAD plus an `actions:` list; the first action is on line 12."""
    return HEAD + "actions:\n" + "".join(f"  - {a}\n" for a in actions)


def error_line(result: Result) -> str:
    """The contract for every failure: exit 1, one stderr line `error: ...`, no traceback."""
    assert result.exit_code == 1, (result.exit_code, result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: "), lines[0]
    assert "Traceback" not in result.stdout + result.stderr
    return lines[0]


def run_fails(tmp_path: Path, text: str, name: str = "enc.yaml", *args: str) -> tuple[str, str]:
    """Write the file, `fracas run` it; return (path, the error line)."""
    path = write(tmp_path, text, name)
    line = error_line(cli("run", *args, path))
    return path, line


def test_the_base_file_is_valid(tmp_path: Path) -> None:
    """The files below differ from a valid one by exactly the error they test."""
    path = write(tmp_path, with_actions("{actor: ana, do: attack, target: bo}"))
    result = cli("run", path)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""


# --- reading the file ------------------------------------------------------------------


def test_malformed_yaml(tmp_path: Path) -> None:
    path, line = run_fails(tmp_path, HEAD + "actions:\n  - {actor: ana, do: attack\n")
    assert "bad_yaml" in line
    # the flow mapping opened on line 12 is never closed: the error is at or after it
    assert any(f"{path}:{n}:" in line for n in (12, 13)), line


def test_malformed_yaml_bad_indentation(tmp_path: Path) -> None:
    text = "ruleset: dice-combat\ncombatants:\n  - id: ana\n   side: x\n"
    path, line = run_fails(tmp_path, text)
    assert f"{path}:4:" in line and "bad_yaml" in line


def test_json_syntax_error(tmp_path: Path) -> None:
    text = '{"ruleset": "dice-combat",\n "combatants": [{"id": "ana"},]\n}\n'
    path, line = run_fails(tmp_path, text, "enc.json")
    assert f"{path}:2:" in line and "bad_json" in line


def test_valid_json_file_is_accepted(tmp_path: Path) -> None:
    text = json.dumps(
        {
            "ruleset": "dice-combat",
            "combatants": [{"id": "ana", "at": [0, 0]}, {"id": "bo", "at": [1, 0]}],
            "actions": [{"actor": "ana", "do": "attack", "target": "bo", "dice": {"attack": 3}}],
        },
        indent=1,
    )
    result = cli("run", "--json", write(tmp_path, text, "enc.json"))
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["ruleset"] == "dice-combat"


@pytest.mark.parametrize(
    ("text", "what"),
    [("- a\n- list\n", "list"), ("just words\n", "str"), ("", "the file is empty"), ("3\n", "int")],
    ids=["list", "string", "empty", "number"],
)
def test_not_a_mapping(tmp_path: Path, text: str, what: str) -> None:
    path, line = run_fails(tmp_path, text)
    assert line.startswith(f"error: {path}: bad_file:"), line
    assert what in line


def test_missing_file(tmp_path: Path) -> None:
    path = str(tmp_path / "nowhere.yaml")
    line = error_line(cli("run", path))
    assert "unreadable_file" in line and path in line
    line = error_line(cli("odds", path))
    assert "unreadable_file" in line and path in line


def test_a_directory_is_not_a_file(tmp_path: Path) -> None:
    line = error_line(cli("run", str(tmp_path)))
    assert "unreadable_file" in line and str(tmp_path) in line


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "enc.yaml"
    path.write_bytes(b"ruleset: dice-combat\ncombatants: [{id: \xff\xfe}]\n")
    line = error_line(cli("run", str(path)))
    assert "unreadable_file" in line and str(path) in line


def test_duplicate_yaml_key(tmp_path: Path) -> None:
    text = HEAD.replace("    hand: sword\n", "    hand: sword\n    hand: knife\n")
    path, line = run_fails(tmp_path, text)
    assert f"{path}:9:" in line and "duplicate_key" in line and "'hand'" in line


# --- the top level, options and combatants -------------------------------------------


def test_unknown_ruleset(tmp_path: Path) -> None:
    path, line = run_fails(tmp_path, HEAD.replace("dice-combat", "dice-combt"))
    assert f"{path}:1: ruleset: unknown_ruleset:" in line
    assert "'dice-combt'" in line and "dice-combat" in line.split("valid:")[1]


def test_unknown_top_level_key(tmp_path: Path) -> None:
    path, line = run_fails(tmp_path, HEAD + "sead: 3\n")
    assert f"{path}:11:" in line and "unknown_field" in line
    assert "'sead'" in line and "seed" in line.split("valid:")[1]


def test_unknown_option_lists_the_valid_ones(tmp_path: Path) -> None:
    text = HEAD.replace("seed: 5\n", "seed: 5\noptions: {revison: A}\n")
    path, line = run_fails(tmp_path, text)
    assert f"{path}:3: options.revison: unknown_option:" in line
    valid = line.split("valid:")[1]
    for option in ("revision", "ties_hit", "actions_per_turn", "ko_burns"):
        assert option in valid


def test_bad_option_value(tmp_path: Path) -> None:
    text = HEAD.replace("seed: 5\n", "seed: 5\noptions: {revision: C}\n")
    path, line = run_fails(tmp_path, text)
    assert f"{path}:3: options.revision: bad_value:" in line and "'C'" in line


def test_unknown_trait_lists_the_traits(tmp_path: Path) -> None:
    text = HEAD.replace("    hand: sword\n", "    hand: sword\n    traits: [strong_arm, brawler]\n")
    path, line = run_fails(tmp_path, text)
    assert f"{path}:9: combatants[0].traits[1]: unknown_trait:" in line
    assert "'brawler'" in line
    valid = line.split("valid:")[1]
    for trait in ("strong_arm", "snapshooter", "gunslinger", "rifleman", "dead_eye"):
        assert trait in valid
    for trait in ("spotter", "longshot", "hewer", "cutter"):
        assert trait in valid


def test_unknown_sheet_field(tmp_path: Path) -> None:
    text = HEAD.replace("  - id: bo\n", "  - id: bo\n    strength: 3\n")
    path, line = run_fails(tmp_path, text)
    assert f"{path}:10: combatants[1].strength: unknown_field:" in line
    assert "'strength'" in line
    valid = line.split("valid:")[1]
    for field in ("attack_bonus", "defend_ranged_bonus", "traits", "hand", "inventory"):
        assert field in valid


def test_bad_sheet_value(tmp_path: Path) -> None:
    text = HEAD.replace("  - id: bo\n", "  - id: bo\n    crit: lucky\n")
    path, line = run_fails(tmp_path, text)
    assert f"{path}:10: combatants[1].crit: bad_value:" in line
    assert "'lucky'" in line and "even_keel" in line


def test_unknown_item_shorthand(tmp_path: Path) -> None:
    path, line = run_fails(tmp_path, HEAD.replace("hand: sword", "hand: laser"))
    assert f"{path}:8: combatants[0].hand: unknown_item:" in line
    assert "'laser'" in line
    valid = line.split("valid:")[1]
    for item in ("pistol", "hand_crossbow", "greataxe", "molotov", "fire_bomb"):
        assert item in valid


def test_unknown_item_shorthand_in_inventory(tmp_path: Path) -> None:
    text = HEAD.replace("    hand: sword\n", "    hand: sword\n    inventory: [knife, lazer]\n")
    path, line = run_fails(tmp_path, text)
    assert f"{path}:9: combatants[0].inventory[1]: unknown_item:" in line
    assert "'lazer'" in line


def test_unknown_item_field(tmp_path: Path) -> None:
    path, line = run_fails(tmp_path, HEAD.replace("hand: sword", "hand: {is: sword, colour: red}"))
    assert f"{path}:8: combatants[0].hand" in line and "'colour'" in line
    valid = line.split("valid:")[1]
    for field in ("is", "type", "fires", "capacity", "loaded"):
        assert field in valid
    assert "attack_bonus" not in valid  # the item's fields, not the sheet's


def test_gun_without_capacity(tmp_path: Path) -> None:
    path, line = run_fails(tmp_path, HEAD.replace("hand: sword", "hand: {name: zip, type: gun}"))
    assert f"{path}:8: combatants[0].hand: missing_capacity:" in line
    assert "'zip'" in line


def test_bolts_need_no_capacity(tmp_path: Path) -> None:
    text = HEAD.replace("hand: sword", "hand: {name: bow, type: gun, fires: bolts}")
    result = cli("run", "--json", write(tmp_path, text))
    assert result.exit_code == 0, result.stderr
    hand = json.loads(result.stdout)["combatants"]["ana"]["hand"]
    assert (hand["capacity"], hand["loaded"], hand["class"]) == (1, 1, "crossbow")


def test_loaded_above_capacity(tmp_path: Path) -> None:
    path, line = run_fails(tmp_path, HEAD.replace("hand: sword", "hand: {is: pistol, loaded: 9}"))
    assert f"{path}:8: combatants[0].hand: bad_loaded:" in line
    assert "9" in line and "0..8" in line


def test_duplicate_combatant_ids(tmp_path: Path) -> None:
    text = HEAD.replace("order: [ana, bo]\n", "") + "  - id: ana\n"
    path, line = run_fails(tmp_path, text)
    assert f"{path}:10: combatants[2].id: duplicate_id:" in line and "'ana'" in line


def test_bad_combatant_id(tmp_path: Path) -> None:
    path, line = run_fails(tmp_path, HEAD.replace("id: bo", "id: Bo Two"))
    assert f"{path}:9: combatants[1].id: bad_id:" in line


def test_hp_above_max_hp(tmp_path: Path) -> None:
    path, line = run_fails(tmp_path, HEAD.replace("  - id: bo\n", "  - id: bo\n    hp: 13\n"))
    assert f"{path}:10: combatants[1].hp: bad_value:" in line and "13" in line


# --- order ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("order", "code", "field"),
    [
        ("[ana, ana]", "bad_order", "order[1]"),
        ("[ana]", "bad_order", "order"),
        ("[ana, bo, cy]", "unknown_combatant", "order[2]"),
        ("ana", "bad_value", "order"),
    ],
    ids=["twice", "missing", "unknown", "not-a-list"],
)
def test_bad_order(tmp_path: Path, order: str, code: str, field: str) -> None:
    path, line = run_fails(tmp_path, HEAD.replace("[ana, bo]", order))
    assert line.startswith(f"error: {path}:4: {field}:"), line
    assert f": {code}:" in line


# --- dice ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "bad"),
    [
        ("{attack: 21}", "21"),
        ("{attack: 0}", "0"),
        ("{attack: -3}", "-3"),
        ("{attack: 10, defend: 25}", "25"),
        ("{attack: [20, 21]}", "21"),
        ("{attack: 20, defend: 1, fumble: 5}", "5"),
    ],
)
def test_die_value_out_of_range_in_an_action(tmp_path: Path, dice: str, bad: str) -> None:
    path, line = run_fails(
        tmp_path, with_actions(f"{{actor: ana, do: attack, target: bo, dice: {dice}}}")
    )
    assert f"{path}:12: actions[0].dice." in line and "die_out_of_range" in line
    assert f"= {bad} " in line


def test_die_value_out_of_range_is_found_before_any_action(tmp_path: Path) -> None:
    """A file error: nothing is played; with --json stdout holds only the error."""
    text = with_actions(
        "{actor: ana, do: attack, target: bo, dice: {attack: 12, defend: 3}}",
        "{actor: bo, do: attack, target: ana, dice: {crit: 9}}",
    )
    path = write(tmp_path, text)
    result = cli("run", "--json", path)
    line = error_line(result)
    assert f"{path}:13: actions[1].dice.crit: die_out_of_range:" in line and "1..4" in line
    assert list(json.loads(result.stdout)) == ["error"]  # nothing played


def test_die_value_out_of_range_at_the_top_level(tmp_path: Path) -> None:
    path, line = run_fails(tmp_path, HEAD + "dice: {direction: 9}\n")
    assert f"{path}:11: dice.direction: die_out_of_range:" in line and "1..8" in line


def test_die_value_not_an_integer(tmp_path: Path) -> None:
    path, line = run_fails(
        tmp_path, with_actions("{actor: ana, do: attack, target: bo, dice: {attack: high}}")
    )
    assert f"{path}:12: actions[0].dice.attack" in line


@pytest.mark.parametrize("label", ["luck", "attack:cy", "defend:bo:ana:2", "initiative"])
def test_unknown_dice_label(tmp_path: Path, label: str) -> None:
    path, line = run_fails(
        tmp_path,
        with_actions(f'{{actor: ana, do: attack, target: bo, dice: {{"{label}": 3}}}}'),
    )
    assert f"{path}:12: actions[0].dice.{label}: unknown_die_label:" in line
    assert f"'{label}'" in line


@pytest.mark.parametrize(
    ("dice", "label"),
    [
        ("{attack: 10, defend: 15, crit: 2}", "crit"),  # a miss rolls no crit
        ("{attack: 10, ammo: 2}", "ammo"),  # bare hands roll no ammo
        ("{attack: 1, defend: 12}", "defend"),  # a critical failure: no defence roll
        ("{scatter: 2}", "scatter"),
    ],
)
def test_label_the_action_never_rolls(tmp_path: Path, dice: str, label: str) -> None:
    """Exit 1 naming the action's number (the second action here)."""
    text = with_actions(
        "{actor: ana, do: end_turn}",
        f"{{actor: bo, do: attack, target: ana, dice: {dice}}}",
    )
    path, line = run_fails(tmp_path, text)
    assert line.startswith(f"error: action 2 ({path}:13): unused_die:"), line
    assert f"'{label}'" in line


def test_ambiguous_label_names_the_action(tmp_path: Path) -> None:
    text = HEAD.replace("hand: sword", "hand: grenade") + (
        "  - id: cy\n    at: [2, 1]\n"
        "actions:\n  - {actor: ana, do: throw, target: bo, dice: {attack: 9, defend: 4}}\n"
    )
    text = text.replace("[ana, bo]", "[ana, bo, cy]")
    path, line = run_fails(tmp_path, text)
    assert line.startswith(f"error: action 1 ({path}:14): ambiguous_die_label:"), line


# --- actions -------------------------------------------------------------------------


def test_unknown_action(tmp_path: Path) -> None:
    path, line = run_fails(tmp_path, with_actions("{actor: ana, do: punch, target: bo}"))
    assert f"{path}:12: actions[0].do: unknown_action:" in line and "'punch'" in line
    valid = line.split("valid:")[1]
    for action in ("attack", "throw", "reload", "equip", "end_turn", "move", "set"):
        assert action in valid


@pytest.mark.parametrize("key", ["actor", "target"])
def test_unknown_combatant_in_an_action(tmp_path: Path, key: str) -> None:
    action = {"actor": "ana", "target": "bo"}
    action[key] = "cy"
    path, line = run_fails(
        tmp_path,
        with_actions(f"{{actor: {action['actor']}, do: attack, target: {action['target']}}}"),
    )
    assert f"{path}:12: actions[0].{key}: unknown_combatant:" in line
    assert "'cy'" in line and "ana, bo" in line


def test_unknown_action_field(tmp_path: Path) -> None:
    path, line = run_fails(tmp_path, with_actions("{actor: ana, do: attack, target: bo, power: 3}"))
    assert f"{path}:12: actions[0].power: unknown_field:" in line
    assert "edge" in line.split("valid:")[1]


def test_bad_edge_value(tmp_path: Path) -> None:
    path, line = run_fails(tmp_path, with_actions("{actor: ana, do: attack, target: bo, edge: up}"))
    assert f"{path}:12: actions[0].edge: bad_value:" in line
    assert "advantage" in line and "disadvantage" in line


def test_equip_needs_an_item(tmp_path: Path) -> None:
    path, line = run_fails(tmp_path, with_actions("{actor: ana, do: equip}"))
    assert f"{path}:12: actions[0]: missing_field:" in line and "'item'" in line


def test_attack_needs_a_target(tmp_path: Path) -> None:
    path, line = run_fails(tmp_path, with_actions("{actor: ana, do: attack}"))
    assert f"{path}:12: actions[0]: missing_field:" in line


MAP = "map: {width: 10, height: 8}\n"


@pytest.mark.parametrize(
    ("action", "field", "tile"),
    [
        ("{actor: ana, do: attack, at: [3, 8]}", "actions[0].at", "[3, 8]"),
        ("{actor: ana, do: throw, at: [-1, 0]}", "actions[0].at", "[-1, 0]"),
        ("{actor: ana, do: move, to: [10, 0]}", "actions[0].to", "[10, 0]"),
    ],
    ids=["attack-at", "throw-at", "move-to"],
)
def test_target_tile_off_the_map(tmp_path: Path, action: str, field: str, tile: str) -> None:
    path, line = run_fails(tmp_path, MAP + with_actions(action))
    assert f"{path}:13: {field}: off_map:" in line
    assert tile in line and "0..9" in line and "0..7" in line


def test_combatant_off_the_map(tmp_path: Path) -> None:
    path, line = run_fails(tmp_path, MAP + HEAD.replace("at: [1, 0]", "at: [1, 8]"))
    assert f"{path}:11: combatants[1].at: off_map:" in line


def test_tiles_on_the_map_edge_are_accepted(tmp_path: Path) -> None:
    text = MAP + with_actions("{actor: ana, do: move, to: [9, 7]}")
    result = cli("run", "--json", write(tmp_path, text))
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["combatants"]["ana"]["at"] == [9, 7]


def test_bad_map(tmp_path: Path) -> None:
    path, line = run_fails(tmp_path, "map: {width: 0, height: 8}\n" + HEAD)
    assert f"{path}:1: map.width" in line


# --- illegal actions -------------------------------------------------------------------

ILLEGAL = with_actions(
    "{actor: ana, do: attack, target: bo, dice: {attack: 12, defend: 3}}",
    "{actor: ana, do: attack, target: bo}",
    "{actor: bo, do: attack, target: ana}",
)
"""Action 2 is refused (no_action_left); action 3 is never played."""


def test_illegal_action_stops_the_run(tmp_path: Path) -> None:
    path = write(tmp_path, ILLEGAL)
    result = cli("run", path)
    line = error_line(result)
    assert line.startswith(f"error: action 2 ({path}:13): no_action_left:"), line
    # the log of action 1 is still printed; nothing of action 2 or 3
    assert "#1 ana: attack bo" in result.stdout
    assert "#2" not in result.stdout and "#3" not in result.stdout


def test_illegal_action_json_holds_the_state_before_it(tmp_path: Path) -> None:
    path = write(tmp_path, ILLEGAL)
    result = cli("run", "--json", path)
    line = error_line(result)
    assert "action 2" in line
    out: dict[str, Any] = json.loads(result.stdout)
    error = out.pop("error")
    assert error["action"] == 2
    assert error["code"] == "no_action_left"
    assert isinstance(error["message"], str) and "'ana'" in error["message"]
    assert error["message"] in line

    first_only = write(tmp_path, with_actions(ILLEGAL.splitlines()[-3][4:]), "first.yaml")
    reference = cli("run", "--json", first_only)
    assert reference.exit_code == 0, reference.stderr
    assert out == json.loads(reference.stdout)
    assert out["combatants"]["bo"]["hp"] == 10
    assert out["combatants"]["ana"]["hp"] == 12
    assert {e["action"] for e in out["events"]} == {0, 1}


def test_illegal_first_action_json(tmp_path: Path) -> None:
    """Refused at action 1: the state is the encounter's start; the gun keeps its rounds."""
    text = HEAD.replace("hand: sword", "hand: {is: pistol, loaded: 0}") + (
        "actions:\n  - {actor: ana, do: attack, target: bo}\n"
    )
    result = cli("run", "--json", write(tmp_path, text))
    line = error_line(result)
    assert "action 1" in line and "empty_gun" in line
    out = json.loads(result.stdout)
    assert out["error"]["code"] == "empty_gun"
    assert out["error"]["action"] == 1
    assert out["combatants"]["ana"]["hand"]["loaded"] == 0
    assert out["rolls"] == []
    assert [e["type"] for e in out["events"]] == ["TurnStarted"]


def test_file_error_prints_only_the_error_as_json(tmp_path: Path) -> None:
    path, line = run_fails(
        tmp_path, HEAD.replace("hand: sword", "hand: laser"), "enc.yaml", "--json"
    )
    error = json.loads(cli("run", "--json", path).stdout)["error"]
    assert error["code"] == "unknown_item" and error["where"] == f"{path}:8: combatants[0].hand"
    assert line == f"error: {error['where']}: unknown_item: {error['message']}"


# --- fracas odds ---------------------------------------------------------------------


@pytest.mark.parametrize("tail", ["", "actions: []\n"], ids=["no-key", "empty-list"])
def test_odds_with_no_actions(tmp_path: Path, tail: str) -> None:
    path = write(tmp_path, HEAD + tail)
    plain, as_json = cli("odds", path), cli("odds", "--json", path)
    line = error_line(plain)
    assert "no_actions" in line and path in line
    assert plain.stdout == ""
    assert error_line(as_json) == line
    assert json.loads(as_json.stdout)["error"]["code"] == "no_actions"


def test_odds_last_action_illegal(tmp_path: Path) -> None:
    path = write(tmp_path, ILLEGAL.rsplit("\n  - ", 1)[0] + "\n")
    plain, as_json = cli("odds", path), cli("odds", "--json", path)
    line = error_line(plain)
    assert line.startswith(f"error: action 2 ({path}:13): no_action_left:"), line
    assert plain.stdout == ""
    assert error_line(as_json) == line
    error = json.loads(as_json.stdout)["error"]
    assert (error["action"], error["where"], error["code"]) == (2, f"{path}:13", "no_action_left")


def test_odds_earlier_action_illegal(tmp_path: Path) -> None:
    path = write(tmp_path, ILLEGAL)
    line = error_line(cli("odds", path))
    assert line.startswith(f"error: action 2 ({path}:13): no_action_left:"), line


def test_odds_last_action_names_a_die_it_never_rolls(tmp_path: Path) -> None:
    """No dice path of a 10-vs-15 miss rolls `crit`: an error, as in `run`."""
    path = write(
        tmp_path,
        with_actions(
            "{actor: ana, do: attack, target: bo, dice: {attack: 10, defend: 15, crit: 2}}"
        ),
    )
    line = error_line(cli("odds", "--json", path))
    assert line.startswith(f"error: action 1 ({path}:12): unused_die:"), line
    assert "'crit'" in line


def test_odds_a_die_some_paths_roll_is_accepted(tmp_path: Path) -> None:
    """`crit` given with the attack left open: the paths with a natural 20 that hits roll
    it, so the odds are conditional on it (and it is no error)."""
    path = write(
        tmp_path, with_actions("{actor: ana, do: attack, target: bo, dice: {defend: 10, crit: 4}}")
    )
    result = cli("odds", "--json", path)
    assert result.exit_code == 0, result.stderr
    exact = json.loads(result.stdout)["exact"]["combatants"]["bo"]
    # hit iff natural >= 10 (ties to the attacker), natural 1 misses: 11/20;
    # damage 2, or 2 + 4 on a natural 20.
    assert exact["hit"] == "11/20"
    assert exact["damage"] == {"0": "9/20", "2": "1/2", "6": "1/20"}


def test_odds_ambiguous_label(tmp_path: Path) -> None:
    text = HEAD.replace("hand: sword", "hand: grenade") + (
        "  - id: cy\n    at: [2, 1]\n"
        "actions:\n  - {actor: ana, do: throw, target: bo, dice: {defend: 4}}\n"
    )
    path = write(tmp_path, text.replace("[ana, bo]", "[ana, bo, cy]"))
    line = error_line(cli("odds", path))
    assert line.startswith(f"error: action 1 ({path}:14): ambiguous_die_label:"), line


def test_odds_file_error(tmp_path: Path) -> None:
    path = write(tmp_path, HEAD.replace("dice-combat", "nope") + "actions: []\n")
    line = error_line(cli("odds", path))
    assert f"{path}:1: ruleset: unknown_ruleset:" in line


def test_rules_unknown_ruleset() -> None:
    line = error_line(cli("rules", "nope"))
    assert "unknown_ruleset" in line and "'nope'" in line and "dice-combat" in line


# --- every --json command answers with JSON, errors included ----------------------------

JSON_COMMANDS = [
    ("run", "--json", "{bad}"),
    ("odds", "--json", "{bad}"),
    ("odds", "--choices", "--json", "{bad}"),
    ("lab", "win", "--json", "{bad}"),
    ("lab", "sim", "-n", "10", "--json", "{bad}"),
    ("lab", "compare", "--json", "{bad}", "{good}"),
]


@pytest.mark.parametrize("args", JSON_COMMANDS, ids=lambda a: " ".join(a[:-1]))
def test_every_json_command_gives_a_file_error_as_a_json_object(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    """A file error (a hand item that is no item): stdout is ``{"error": {...}}``, its
    fields the words of the one ``error:`` line, which is the plain command's."""
    bad = write(tmp_path, HEAD.replace("hand: sword", "hand: laser"), "bad.yaml")
    good = write(tmp_path, HEAD, "good.yaml")
    argv = [a.format(bad=bad, good=good) for a in args]
    result = cli(*argv)
    line = error_line(result)
    assert json.loads(result.stdout) == {
        "error": {
            "code": "unknown_item",
            "message": line.split("unknown_item: ", 1)[1],
            "where": f"{bad}:8: combatants[0].hand",
        }
    }
    plain = cli(*[a for a in argv if a != "--json"])
    assert error_line(plain) == line and plain.stdout == ""


def test_odds_json_on_an_action_the_odds_refuse_is_a_json_object(tmp_path: Path) -> None:
    """The last action's dice fit no path (a `crit` after a miss): the odds' refusal,
    with the action's number and line, as JSON."""
    path = write(
        tmp_path,
        with_actions(
            "{actor: ana, do: attack, target: bo, dice: {attack: 10, defend: 15, crit: 2}}"
        ),
    )
    result = cli("odds", "--json", path)
    line = error_line(result)
    error = json.loads(result.stdout)["error"]
    assert (error["action"], error["code"], error["where"]) == (1, "unused_die", f"{path}:12")
    assert line == f"error: action 1 ({path}:12): unused_die: {error['message']}"


@pytest.mark.parametrize(
    ("args", "code"),
    [(("rules", "nope"), "unknown_ruleset"), (("rules", "soak", "sk-999"), "unknown_rule")],
)
def test_rules_json_gives_its_error_as_a_json_object(args: tuple[str, ...], code: str) -> None:
    result = cli(*args, "--json")
    line = error_line(result)
    error = json.loads(result.stdout)["error"]
    assert (error["code"], error["where"]) == (code, "")
    assert line == f"error: {code}: {error['message']}"
    assert error_line(cli(*args)) == line


def test_run_json_gives_a_refused_actions_line_as_the_error_line(tmp_path: Path) -> None:
    """The result holds the refusal as the error line says it: number, line, code."""
    path = write(tmp_path, ILLEGAL)
    result = cli("run", "--json", path)
    error = json.loads(result.stdout)["error"]
    assert error_line(result) == (
        f"error: action {error['action']} ({error['where']}): {error['code']}: {error['message']}"
    )
    assert error["where"] == f"{path}:13"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("odds", "--json"), "Missing argument 'FILE'."),
        (("lab", "win", "--json"), "Missing argument 'FILE'."),
        (
            ("odds", "--json", "--budget", "0", "x.yaml"),
            "Invalid value for '--budget': 0 is not in the range x>=1.",
        ),
    ],
)
def test_a_usage_error_of_a_json_command_is_a_json_object_too(
    args: tuple[str, ...], message: str
) -> None:
    """click's own errors (exit status 2, its usage text on stderr): stdout still holds
    one JSON object; without --json, nothing on stdout."""
    result = cli(*args)
    assert result.exit_code == 2 and result.stderr.endswith(f"Error: {message}\n")
    assert json.loads(result.stdout) == {
        "error": {"code": "usage", "message": message, "where": ""}
    }
    plain = cli(*[a for a in args if a != "--json"])
    assert plain.exit_code == 2 and plain.stdout == "" and plain.stderr == result.stderr


# --- the odds of an action whose actor has left the fight ---------------------------------

REMOVED = with_actions(
    "{actor: bo, do: remove}",
    "{actor: bo, do: attack, target: ana}",
)
"""Bo leaves the fight (a table action), then the file has him attack: found by random
files, the odds went round the turns for ever waiting for Bo's (memory without end)."""


def test_odds_of_a_removed_combatants_action_refuse_as_run_does(tmp_path: Path) -> None:
    path = write(tmp_path, REMOVED)
    line = error_line(cli("run", path))
    assert line == (
        f"error: action 2 ({path}:13): unknown_combatant: actor: 'bo' is not a combatant; "
        "valid: ana"
    )
    assert error_line(cli("odds", path)) == line
    result = cli("odds", "--json", path)
    assert error_line(result) == line
    assert json.loads(result.stdout)["error"]["code"] == "unknown_combatant"


def test_turns_never_advance_to_an_actor_not_in_the_order(tmp_path: Path) -> None:
    """The engine's own guard, whoever asks: a turn that never comes is refused."""
    from fracas.dice.source import RandomDice
    from fracas.engine.play import advance_to
    from fracas.errors import Refusal
    from fracas.io.files import load, play_file

    played = play_file(load(write(tmp_path, REMOVED)), 1)
    state = played.engine.state
    assert state.order == ("ana",)
    with pytest.raises(Refusal) as refused:
        advance_to(played.engine.ruleset, state, "bo", RandomDice(1))
    assert refused.value.code == "not_in_order"
    assert refused.value.message == "'bo' is not in the turn order (ana): its turn never comes"
