"""tier-duel through the command line: ``fracas run``, ``fracas odds`` (both participants
of a contest reported), ``fracas rules tier-duel``, and the bundled example."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tests import helpers
from tests.helpers import GM_ACTIONS, cli, cli_json
from tests.rulesets.tier_duel.test_rules import EXAMPLE as WORKED

EXAMPLE = str(Path(__file__).resolve().parents[3] / "examples" / "tier-duel.yaml")

SHEET_FIELDS = (  # tier-duel.md 2.1
    "hp",
    "max_hp",
    "reflex",
    "body",
    "presence",
    "skills",
    "armor_tier",
    "shield_tier",
    "hand",
    "inventory",
    "temporary_damage",
)
ITEM_FIELDS = (  # 2.2, without the `is` short-hand
    "name",
    "type",
    "tier",
    "skill",
    "reach",
    "range",
    "loaded",
    "ammo_bonus",
    "guaranteed_zone",
    "contested_zone",
    "damage",
    "effect",
)
OPTIONS: dict[str, Any] = {  # 2.5, with the defaults
    "max_hp": 20,
    "tie_result": "none",
    "damage_floor": 0,
    "projectile_defender_skill": "best",
    "projectile_counter": True,
    "crossbow_formula": "text",
    "crossbow_beyond_skill": "contest",
    "unload_on_fire": True,
    "firearm_ignores_shield": True,
    "spell_ignores_armor": True,
    "stealth_tie": "fail",
    "contested_actions": 1,
    "noncontested_actions": 1,
    "reach_1h": 1,
    "reach_2h": 2,
    "track_temporary": True,
}
ACTIONS = ("attack", "stealth", "cast", "reload", "equip", "end_turn", "move", "set", *GM_ACTIONS)
DICE = ("attack", "defend", "stealth", "notice", "strike")


def write(tmp_path: Path, text: str, name: str = "duel.yaml") -> str:
    return helpers.write(tmp_path, text, name)


def run_json(*args: str) -> dict[str, Any]:
    """A command's JSON output; it printed nothing on stderr."""
    out: dict[str, Any] = cli_json(*args, quiet=True)
    return out


def frac(text: str) -> Fraction:
    return Fraction(text)


DUEL = """
ruleset: tier-duel
seed: 3
combatants:
  - {id: ana, at: [0, 0], reflex: 2, body: 3, skills: {sword: 3}, armor_tier: 1,
     shield_tier: 1, hand: {is: sword, tier: 2}}
  - {id: bo, at: [1, 0], reflex: 1, body: 2, skills: {spear: 3}, armor_tier: 2,
     hand: {is: spear, tier: 2}}
actions:
"""


# --- fracas run ----------------------------------------------------------------------------


def test_run_the_worked_example(tmp_path: Path) -> None:
    out = run_json("run", "--json", write(tmp_path, WORKED))
    ana, bo = out["combatants"]["ana"], out["combatants"]["bo"]
    assert (ana["hp"], ana["temporary_damage"]) == (18, 2)
    assert (bo["hp"], bo["temporary_damage"], bo["hand"]["loaded"]) == (8, 12, True)
    assert bo["actions_left"] == {"contested": 1, "noncontested": 0}
    assert ana["actions_left"] == {"contested": 1, "noncontested": 1}
    assert [r["label"] for r in out["rolls"]] == ["attack", "defend", "attack", "defend"]
    text = cli("run", write(tmp_path, WORKED)).stdout
    assert "within crossbow skill 4, an automatic hit, no roll (TD-11)" in text
    assert "bo takes 12 damage (9 diff + 3 body + 2 tier - 2 armor): HP 20 -> 8" in text


def test_run_an_illegal_action_stops_with_its_code(tmp_path: Path) -> None:
    text = (
        DUEL
        + "  - {actor: ana, do: attack, target: bo}\n  - {actor: ana, do: attack, target: bo}\n"
    )
    result = cli("run", write(tmp_path, text))
    assert result.exit_code == 1
    assert result.stderr.strip().endswith(
        "no_contested_action: 'ana' has spent its 1 contested action(s) this round (TD-G6); "
        "end_turn to go on"
    )
    assert "action 2 (" in result.stderr
    out = json.loads(cli("run", "--json", write(tmp_path, text)).stdout)
    assert out["error"]["code"] == "no_contested_action"


# --- fracas odds ----------------------------------------------------------------------------


def test_odds_report_both_sides_of_a_melee_event(tmp_path: Path) -> None:
    """ana d20+5 vs bo d20+4, both in reach: ana hurts bo with diff + 3 body + 2 tier - 2
    armor, bo hurts ana with diff + 2 body + 2 tier - 2 armor."""
    out = run_json(
        "odds", "--json", write(tmp_path, DUEL + "  - {actor: ana, do: attack, target: bo}\n")
    )
    exact = out["exact"]["combatants"]
    assert set(exact) == {"ana", "bo"}
    assert out["paths"] == 39  # the two d20s drawn as one branch per margin, -19..19
    # ana wins iff her d20 >= bo's (210 ways); a tie when his is one higher (19): nobody.
    assert frac(exact["bo"]["hit"]) == Fraction(210, 400)
    assert frac(exact["ana"]["hit"]) == Fraction(171, 400)  # bo's d20 beats ana's by 2+
    # ana deals 3 + diff (diff 1..24): 4 at diff 1 (x = y: 20 ways)
    assert frac(exact["bo"]["damage"]["4"]) == Fraction(20, 400)
    assert frac(exact["bo"]["damage"]["0"]) == Fraction(190, 400)
    assert frac(exact["ana"]["damage"]["0"]) == Fraction(229, 400)
    assert max(int(d) for d in exact["ana"]["damage"]) == 18 + 2  # diff 18 + 2 body + 2 - 2
    for cid in ("ana", "bo"):
        assert sum(frac(p) for p in exact[cid]["damage"].values()) == 1


def test_odds_of_a_melee_event_where_only_one_side_reaches(tmp_path: Path) -> None:
    text = DUEL.replace("hand: {is: spear, tier: 2}", "hand: bow") + (
        "  - {actor: ana, do: attack, target: bo}\n"
    )
    exact = run_json("odds", "--json", write(tmp_path, text))["exact"]["combatants"]
    assert set(exact) == {"bo"}  # a bow has no reach: ana cannot be hurt


def test_odds_of_a_projectile_with_the_melee_counter(tmp_path: Path) -> None:
    text = DUEL.replace("hand: {is: sword, tier: 2}", "hand: bow") + (
        "  - {actor: ana, do: attack, target: bo}\n"
    )
    out = run_json("odds", "--json", write(tmp_path, text))["exact"]["combatants"]
    assert set(out) == {"ana", "bo"}  # the spear reaches the archer (TD-9)
    # ana: d20 + 2 (no bow skill); bo: d20 + 1 + 3 (spear, his best weapon skill).
    assert frac(out["bo"]["hit"]) == Fraction(153, 400)  # x - y >= 3
    assert frac(out["ana"]["hit"]) == Fraction(229, 400)  # y - x >= -1


def test_odds_of_an_automatic_crossbow_hit(tmp_path: Path) -> None:
    text = (
        DUEL.replace(
            "skills: {sword: 3}, armor_tier: 1,\n     shield_tier: 1, hand: {is: sword, tier: 2}",
            "skills: {crossbow: 3}, hand: crossbow_2h",
        )
        + "  - {actor: ana, do: attack, target: bo}\n"
    )
    out = run_json("odds", "--json", write(tmp_path, text))
    assert out["paths"] == 1
    assert out["exact"]["combatants"]["bo"] == {
        "hit": "1/1",
        "damage": {"1": "1/1"},  # Tier 1 - max(0, 2 - 2)
        "mean": "1/1",
        "down": "0/1",
    }


def test_odds_of_a_stealth_attack(tmp_path: Path) -> None:
    text = DUEL + "  - {actor: ana, do: stealth, target: bo, behind: true}\n"
    out = run_json("odds", "--json", write(tmp_path, text))
    exact = out["exact"]["combatants"]
    assert set(exact) == {"bo"}  # bo cannot defend, let alone strike back
    assert frac(exact["bo"]["hit"]) == Fraction(190, 400)  # ties fail (TD-22)
    # strike + 2 reflex + 3 sword + 3 body + 2 tier - 2 armor = strike + 8
    assert set(exact["bo"]["damage"]) == {"0", *(str(s + 8) for s in range(1, 21))}
    assert frac(exact["bo"]["down"]) == Fraction(190, 400) * Fraction(9, 20)  # strike >= 12


def test_odds_text_names_both_sides(tmp_path: Path) -> None:
    result = cli("odds", write(tmp_path, DUEL + "  - {actor: bo, do: attack, target: ana}\n"))
    assert result.exit_code == 0, result.stderr
    assert "Odds of #1 bo: attack ana" in result.stdout
    assert "ana (HP 20/20)  hit" in result.stdout and "bo (HP 20/20)  hit" in result.stdout


# --- the bundled example ------------------------------------------------------------------


def test_example_runs() -> None:
    result = cli("run", EXAMPLE)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert "#10 bo: attack ana" in result.stdout
    out = run_json("run", "--json", EXAMPLE)
    assert out["ruleset"] == "tier-duel"
    assert "error" not in out
    # the fixed dice of action 1 (bo by 3: 3 + 2 + 2 - 2) and the automatic crossbow (2)
    first = [e for e in out["events"] if e["action"] in (1, 2) and e["type"] == "Damaged"]
    assert [(e["target"], e["amount"]) for e in first] == [("ana", 5), ("ana", 2)]
    assert out["combatants"]["cy"]["statuses"] == {"burning": {"from": "dee"}}


def test_example_odds(tmp_path: Path) -> None:
    text = Path(EXAMPLE).read_text(encoding="utf-8").rstrip("\n")
    head, last = text.rsplit("\n", 1)
    assert last.strip() == "- {actor: bo, do: attack, target: ana}"
    before = run_json("run", "--json", write(tmp_path, head + "\n"))["combatants"]
    out = run_json("odds", "--json", EXAMPLE)["exact"]["combatants"]
    assert set(out) == {"ana", "bo"}  # both sides of the melee event
    # bo d20 + 4 vs ana d20 + 5; each deals diff + 2 body + 2 tier - 2 armor.
    assert frac(out["ana"]["hit"]) == Fraction(171, 400)
    assert frac(out["bo"]["hit"]) == Fraction(210, 400)
    hp = before["ana"]["hp"]
    down = sum(frac(p) for d, p in out["ana"]["damage"].items() if int(d) >= hp)
    assert 0 < frac(out["ana"]["down"]) == down < 1


# --- fracas rules ---------------------------------------------------------------------------


def test_rules_lists_tier_duel() -> None:
    rows = json.loads(cli("rules", "--json").stdout)
    (row,) = [r for r in rows if r["name"] == "tier-duel"]
    assert row["seed"] == "001_ac6e21f663d7f42d.txt"
    assert "tier-duel" in cli("rules").stdout


def test_rules_tier_duel_json() -> None:
    out = run_json("rules", "tier-duel", "--json")
    sheet = {row["name"]: row for row in out["sheet"]}
    assert set(SHEET_FIELDS) <= set(sheet)
    assert (sheet["max_hp"]["default"], sheet["skills"]["default"]) == (20, {})
    assert {row["name"] for row in out["item"]} == set(ITEM_FIELDS)
    assert {row["name"]: row["default"] for row in out["options"]} == OPTIONS
    assert [row["do"] for row in out["actions"]] == list(ACTIONS)
    assert {row["label"]: row["sides"] for row in out["dice"]} == dict.fromkeys(DICE, 20)
    assert out["shorthands"] == [
        "sword", "axe", "spear", "greatsword", "bow", "javelin", "crossbow_1h", "crossbow_2h",
        "firearm",
    ]  # fmt: skip
    assert all(row["meaning"] for row in out["options"])  # every option documented


@pytest.mark.parametrize(
    "heading", ["sheet fields", "item fields", "options", "actions", "dice labels"]
)
def test_rules_tier_duel_text(heading: str) -> None:
    result = cli("rules", "tier-duel")
    assert result.exit_code == 0, result.stderr
    assert heading in result.stdout
    for name in (*OPTIONS, *DICE, "temporary_damage", "guaranteed_zone"):
        assert name in result.stdout, name
