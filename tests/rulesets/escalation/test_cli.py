"""escalation through the command line: ``fracas run`` (Escalation at the top level of
``--json``, 2.6), ``fracas odds`` (a Whelm on several targets), ``fracas rules escalation``
(2.1 to 2.5 from the code), and the bundled example ``examples/escalation.yaml``."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

from tests.helpers import cli, write
from tests.helpers import cli_json as run_json

EXAMPLE = str(Path(__file__).resolve().parents[3] / "examples" / "escalation.yaml")

SHEET_FIELDS = (  # escalation.md 2.1
    "level",
    "size",
    "melee_rating",
    "remote_rating",
    "whelm_rating",
    "energy",
    "conditions",
    "concealment",
    "cover",
    "underwater",
    "weapons",
)
WEAPON_FIELDS = (  # 2.2, without the `is` short-hand
    "archetype",
    "name",
    "range",
    "conditions",
    "max_targets",
    "crit_bonus",
    "condition_at",
    "failure_mod",
    "backstab",
    "assassinate",
)
OPTIONS: dict[str, Any] = {  # 2.5, with the defaults
    "escalation_start": 1,
    "escalation_step": "side_turn",
    "player_side": "players",
    "trigger_die": 12,
    "damage_floor": 0,
    "defense_after_bonuses": True,
    "double_attack_any_archetype": True,
    "failed_attack_counts": True,
    "double_attack_needs_energy": False,
    "auto_condition": "first_missing",
    "standard_conditions": [
        "bleeding",
        "blinded",
        "burning",
        "confused",
        "dazed",
        "deafened",
        "frightened",
        "poisoned",
        "prone",
        "slowed",
        "stunned",
        "weakened",
    ],
    "size_categories": ["tiny", "small", "medium", "large", "huge", "gargantuan"],
    "max_hp": 20,
    "energy": 3,
}

DUEL = """\
ruleset: escalation
seed: 3
combatants:
  - {id: ana, side: players, at: [0, 0], melee_rating: 3, whelm_rating: 2,
     weapons: [{is: melee, name: sword}, {is: whelm, name: fireball}]}
  - {id: bo, side: enemies, at: [1, 0], melee_rating: 1}
  - {id: cy, side: enemies, at: [2, 2], size: small}
  - {id: dee, side: enemies, at: [3, 0], concealment: total}
actions:
"""


def test_run_json_has_escalation_at_the_top_level(tmp_path: Path) -> None:
    text = DUEL + (
        "  - {actor: ana, do: attack, target: bo, dice: {trigger: 10}, condition: prone}\n"
        "  - {actor: ana, do: attack, target: bo, dice: {trigger: 4}}\n"
        "  - {actor: bo, do: end_turn}\n"
        "  - {actor: cy, do: end_turn}\n"
        "  - {actor: dee, do: end_turn}\n"
    )
    out = run_json("run", "--json", write(tmp_path, text))
    assert (out["ruleset"], out["round"], out["turn"], out["escalation"]) == (
        "escalation",
        2,
        "ana",
        2,
    )
    ana, bo = out["combatants"]["ana"], out["combatants"]["bo"]
    assert set(SHEET_FIELDS) <= set(ana)
    assert (ana["energy"], ana["actions_left"], ana["attacks_this_round"]) == (2, 2, 0)
    assert (bo["hp"], bo["conditions"], bo["down"], bo["statuses"]) == (
        20 - 3 - 3,
        ["prone"],
        False,
        {},
    )
    assert "escalation: 1 -> 2" in out["log"]
    assert [r["label"] for r in out["rolls"]] == ["trigger", "trigger"]


def test_run_json_mid_turn_actions_left(tmp_path: Path) -> None:
    text = DUEL + "  - {actor: ana, do: act, note: shouts}\n"
    out = run_json("run", "--json", write(tmp_path, text))
    assert out["escalation"] == 1
    assert (
        out["combatants"]["ana"]["actions_left"],
        out["combatants"]["ana"]["attacks_this_round"],
    ) == (1, 0)


def test_run_a_refused_action_exits_1_and_names_it(tmp_path: Path) -> None:
    text = DUEL + "  - {actor: ana, do: attack, target: bo, dice: {trigger: 12}}\n"
    text += "  - {actor: ana, do: attack, target: cy}\n"
    result = cli("run", "--json", write(tmp_path, text))
    assert result.exit_code == 1
    out = json.loads(result.stdout)
    assert out["error"]["code"] == "out_of_range"
    assert out["error"]["action"] == 2
    assert out["combatants"]["cy"]["hp"] == 20
    assert "action 2" in result.stderr and "out_of_range" in result.stderr


def test_odds_of_a_whelm_on_three_targets(tmp_path: Path) -> None:
    text = DUEL + "  - {actor: ana, do: attack, targets: [bo, cy, dee], weapon: fireball}\n"
    out = run_json("odds", "--json", write(tmp_path, text))
    # ES-8 to ES-11: a trigger die drawn as what the odds read of it: bo (failure 0) hit
    # or crit; cy and dee a miss besides. Each target's die is a step of its own, and the
    # targets before it are settled there: the paths add up, 2 + 3 + 3, not 2 * 3 * 3.
    assert out["paths"] == 2 + 3 + 3
    exact = out["exact"]["combatants"]
    assert set(exact) == {"bo", "cy", "dee"}
    # bo: failure 0, 1 + 2 - 0 = 3, crit 8; cy: failure 3; dee: failure 6 (total concealment).
    assert exact["bo"]["hit"] == "1/1"
    assert exact["bo"]["damage"] == {"3": "11/12", "8": "1/12"}
    assert exact["cy"]["hit"] == "3/4"
    assert exact["dee"]["hit"] == "1/2"
    assert exact["dee"]["damage"] == {"0": "1/2", "3": "5/12", "8": "1/12"}
    for cid, o in exact.items():
        assert sum(Fraction(p) for p in o["damage"].values()) == 1, cid
        assert out["combatants"][cid]["hit"] == float(Fraction(o["hit"]))


def test_odds_conditional_on_a_given_trigger(tmp_path: Path) -> None:
    text = DUEL + (
        "  - {actor: ana, do: attack, targets: [bo, dee], weapon: fireball,"
        " dice: {'trigger:dee': 12}}\n"
    )
    out = run_json("odds", "--json", write(tmp_path, text))
    # bo's step: its trigger die face by face (a die of the label given is not drawn as
    # classes), 12 paths; then dee's, once, on its given die
    assert out["paths"] == 12 + 1
    assert out["exact"]["combatants"]["dee"] == {
        "hit": "1/1",
        "damage": {"8": "1/1"},
        "mean": "8/1",
        "down": "0/1",
    }


def test_odds_of_an_assassination(tmp_path: Path) -> None:
    text = DUEL + "  - {actor: cy, do: move, to: [1, 1]}\n"
    text += "  - {actor: ana, do: attack, target: cy, unexpected: true}\n"
    out = run_json("odds", "--json", write(tmp_path, text))
    cy = out["exact"]["combatants"]["cy"]
    assert (cy["hit"], cy["down"]) == ("3/4", "3/4")  # every success kills (level 1 <= 1)
    assert cy["damage"] == {"0": "1/4", "20": "3/4"}


def test_rules_escalation_text() -> None:
    result = cli("rules", "escalation")
    assert result.exit_code == 0, result.stderr
    text = result.stdout
    for name in (*SHEET_FIELDS, *WEAPON_FIELDS, *OPTIONS, "attack", "act", "trigger"):
        assert name in text, name
    assert any("trigger" in line and "d12" in line for line in text.splitlines())


def test_rules_escalation_json() -> None:
    out = run_json("rules", "escalation", "--json")
    assert out["name"] == "escalation"
    sheet = {row["name"]: row for row in out["sheet"]}
    assert set(SHEET_FIELDS) <= set(sheet)
    assert (sheet["max_hp"]["default"], sheet["energy"]["default"], sheet["size"]["default"]) == (
        20,
        3,
        "medium",
    )
    assert set(WEAPON_FIELDS) == {row["name"] for row in out["item"]}
    assert {row["name"]: row["default"] for row in out["options"]} == OPTIONS
    assert [(d["label"], d["sides"]) for d in out["dice"]] == [("trigger", 12)]
    actions = {row["do"]: row for row in out["actions"]}
    assert {"attack", "act", "end_turn", "move", "set"} <= set(actions)
    assert actions["attack"]["target"] == "combatants"
    assert out["shorthands"] == ["melee", "remote", "whelm"]
    assert out["values"] == ["escalation"]
    assert "escalation" in [r["name"] for r in run_json("rules", "--json")]


def test_the_example_runs() -> None:
    out = run_json("run", "--json", EXAMPLE)
    assert "error" not in out
    assert (out["escalation"], out["round"], out["turn"]) == (2, 2, "cy")
    assert out["combatants"]["ana"]["energy"] == 2  # her double attack in round 1
    assert out["combatants"]["cy"]["energy"] == 1  # an attack and `act`: no double attack
    assert out["combatants"]["ogre"]["conditions"] == ["burning", "bleeding"]
    result = cli("run", EXAMPLE)
    assert result.exit_code == 0, result.stderr
    assert "Luck" not in result.stderr


def test_the_example_odds_cover_three_targets() -> None:
    out = run_json("odds", "--json", EXAMPLE)
    # each trigger die as what the odds read of it (miss, hit, crit), a step per target
    assert out["paths"] == 3 + 3 + 3
    exact = out["exact"]["combatants"]
    assert set(exact) == {"ogre", "gob", "rat"}
    assert {cid: o["hit"] for cid, o in exact.items()} == {
        "ogre": "3/4",
        "gob": "1/2",
        "rat": "3/4",
    }
    result = cli("odds", EXAMPLE)
    assert result.exit_code == 0, result.stderr
    assert "9 dice paths" in result.stdout
