"""soak through the command line: ``fracas run``, ``fracas odds`` (the cut stated) and
``fracas rules soak``, on the bundled example and the worked example of soak.md 2.7."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

from tests import helpers
from tests.helpers import cli
from tests.helpers import cli_json as run_json
from tests.rulesets.soak.test_rules import EXAMPLE as WORKED

SOAK_EXAMPLE = str(Path(__file__).resolve().parents[3] / "examples" / "soak.yaml")

SHEET_FIELDS = {
    "superficial": 0,
    "aggravated": 0,
    "agility": 0,
    "strength": 0,
    "skills": {},
    "proficiencies": [],
    "ev": None,
    "av": 0,
    "material": None,
    "wounds": 0,
    "initiative": None,
    "max_ap": None,
    "ap": None,
    "weapons": [],
}
WEAPON_FIELDS = (
    "name", "unarmed", "type", "attack", "skill", "dice", "upgrades", "additional",
    "damage_kind", "dv", "improvised", "ap",
)  # fmt: skip
OPTIONS: dict[str, Any] = {
    "ranged_compare": "meet",
    "natural_1": "nothing",
    "explode": "repeat",
    "soak_equal": "blocks",
    "av_floor": 0,
    "wound_needs_through": True,
    "wound_dice": "all",
    "damage_kind": "superficial",
    "additional_vs_av": "ignore",
    "material_percent": {},
    "crit_maxes_additional": True,
    "edges_cancel": True,
    "improvised_strength": "similar",
    "dv_table": {"5": 10, "15": 13, "30": 16},
    "max_hp": 20,
    "ev": 10,
    "max_ap": 3,
    "attack_ap": 1,
    "melee_reach": 1,
    "metric": "chebyshev",
    "initiative": "d20_agility",
}
DICE = {"attack": 20, "damage": 100, "additional": 100, "initiative": 20}


def write(tmp_path: Path, text: str, name: str = "soak.yaml") -> str:
    return helpers.write(tmp_path, text, name)


def frac(text: str) -> Fraction:
    return Fraction(text)


# --- fracas run ----------------------------------------------------------------------------


def test_run_the_worked_example_json(tmp_path: Path) -> None:
    out = run_json("run", "--json", write(tmp_path, WORKED))
    assert (out["ruleset"], out["round"], out["turn"]) == ("soak", 2, "kai")
    kai, rook = out["combatants"]["kai"], out["combatants"]["rook"]
    assert {k: kai[k] for k in ("hp", "max_hp", "av", "wounds", "superficial", "down")} == {
        "hp": 9, "max_hp": 20, "av": 1, "wounds": 1, "superficial": 11, "down": False,
    }  # fmt: skip
    assert {k: rook[k] for k in ("hp", "max_hp", "av", "wounds", "superficial", "aggravated")} == {
        "hp": 6, "max_hp": 30, "av": 2, "wounds": 2, "superficial": 24, "aggravated": 0,
    }  # fmt: skip
    assert (kai["statuses"], kai["initiative"], kai["ap"], kai["skills"]) == (
        {},
        15,
        2,
        {"dueling": 2},
    )
    assert kai["weapons"][0]["upgrades"] == ["1d4"]
    types = [e["type"] for e in out["events"]]
    assert {"AttackRolled", "DamageRolled", "Soaked", "Eroded", "Harmed", "Wounded"} <= set(types)
    assert "AdditionalRolled" in types
    labels = [r["label"] for r in out["rolls"]]
    assert labels.count("damage") == 7 and labels.count("additional") == 2


def test_run_the_example() -> None:
    result = cli("run", SOAK_EXAMPLE)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    text = result.stdout
    assert "Mara rolls initiative: d20 14 + 3 agility = 17" in text
    assert "initiative order: Mara 17, Finn 12, The Brute 7" in text
    assert "The Brute's AV 5 soaks base 5: nothing gets through" in text
    assert "#6 mara: attack brute" in text


def test_the_example_plays_as_its_comments_say(tmp_path: Path) -> None:
    text = Path(SOAK_EXAMPLE).read_text(encoding="utf-8").rstrip("\n")
    head, last = text.rsplit("\n", 1)
    assert last.strip() == "- {actor: mara, do: attack, target: brute}"
    out = run_json("run", "--json", write(tmp_path, head + "\n"))
    mara, finn, brute = (out["combatants"][c] for c in ("mara", "finn", "brute"))
    assert (mara["hp"], mara["av"], mara["wounds"], mara["superficial"]) == (8, 1, 1, 12)
    assert (finn["hp"], finn["initiative"]) == (20, 12)
    assert (brute["hp"], brute["av"], brute["wounds"], brute["ap"]) == (18, 5, 1, 1)
    assert (mara["initiative"], brute["initiative"]) == (17, 7)
    assert "error" not in out


def test_run_an_illegal_action_stops_with_its_code(tmp_path: Path) -> None:
    bad = WORKED.replace("    at: [1, 0]\n", "    at: [3, 0]\n")
    result = cli("run", write(tmp_path, bad))
    assert result.exit_code == 1
    assert "action 1" in result.stderr and "out_of_reach" in result.stderr


# --- fracas odds ------------------------------------------------------------------------------


def test_odds_of_the_example_state_the_cut(tmp_path: Path) -> None:
    out = run_json("odds", "--json", SOAK_EXAMPLE)
    assert set(out["combatants"]) == {"brute"}
    exact = out["exact"]["combatants"]["brute"]
    mass = frac(out["truncated"]["mass"])
    assert out["truncated"]["depth"] == 12
    assert 0 < mass < Fraction(2, 10**6)
    damage = {int(k): frac(v) for k, v in exact["damage"].items()}
    assert sum(damage.values()) == 1 - mass
    # SK-3: the d20 decides the hit and never explodes: exactly 4/5, whatever the cut.
    assert frac(exact["hit"]) == Fraction(4, 5)  # d20 + 6 >= EV 11
    assert min(d for d in damage if d) == 2  # base >= 7 against AV 5
    # The least cut path: the d4 upgrade at its maximum twelve times, then a 1 (49), the
    # d8 a 1, + 5 (skill, Strength) - AV 5 = 50.
    cut = out["truncated"]
    assert cut["at_least"] == 50
    assert cut["combatants"]["brute"] == {"mass": cut["mass"], "at_least": 50}
    # Down: 18 HP left, which only explosions reach (the dice alone make at most 12 + 5);
    # every cut path deals at least 50, so it downs the brute and counts.
    down = sum(p for d, p in damage.items() if d >= 18) + mass
    assert frac(exact["down"]) == down > mass
    assert max(damage) > 40
    text = cli("odds", SOAK_EXAMPLE)
    assert text.exit_code == 0, text.stderr
    assert "paths cut at 12 rolls (exploding dice)" in text.stdout
    assert "each of them deals at least 50" in text.stdout
    assert "hit  80.00%" in text.stdout
    assert "--json lists each" in text.stdout  # the long tail is folded into one line


def test_odds_depth_option(tmp_path: Path) -> None:
    deeper = run_json("odds", "--json", "--depth", "14", SOAK_EXAMPLE)
    default = run_json("odds", "--json", SOAK_EXAMPLE)
    assert deeper["truncated"]["depth"] == 14
    assert frac(deeper["truncated"]["mass"]) < frac(default["truncated"]["mass"])


PLAIN = """
ruleset: soak
order: [ana, bo]
combatants:
  - {id: ana, at: [0, 0], strength: 3, weapons: [{name: maul, dice: 2d6}]}
  - {id: bo, at: [1, 0], ev: 13, av: 4, hp: 6}
actions:
  - {actor: ana, do: attack, target: bo}
"""


def test_odds_without_proficiency_are_exact_and_say_nothing_cut(tmp_path: Path) -> None:
    path = write(tmp_path, PLAIN)
    out = run_json("odds", "--json", path)
    # The d20 as three branches (a miss, a hit, a natural 20), then the hit's 2d6 as one
    # draw: 15 classes of (total, the first die at its maximum: SK-14's wound), and the
    # natural 20's damage step, which rolls nothing (SK-A5).
    assert "truncated" not in out and out["paths"] == 3 + 15 + 1
    bo = out["exact"]["combatants"]["bo"]
    damage = {int(k): frac(v) for k, v in bo["damage"].items()}
    assert sum(damage.values()) == 1
    assert frac(bo["hit"]) == Fraction(8, 20)  # no explosion, no Strength
    two_d6 = {s: Fraction(6 - abs(s - 7), 36) for s in range(2, 13)}
    want = {0: Fraction(12, 20) + Fraction(7, 20) * sum(p for s, p in two_d6.items() if s <= 4)}
    for s, p in two_d6.items():
        if s > 4:
            want[s - 4] = want.get(s - 4, Fraction(0)) + Fraction(7, 20) * p
    want[8] += Fraction(1, 20)  # the crit: 6 + 6 - AV 4
    assert damage == want
    assert frac(bo["down"]) == sum(p for d, p in want.items() if d >= 6)
    result = cli("odds", path)
    assert result.exit_code == 0, result.stderr
    assert "paths cut" not in result.stdout and "40.00%" in result.stdout


# --- fracas rules ----------------------------------------------------------------------------


def test_rules_lists_soak() -> None:
    result = cli("rules", "--json")
    rows: list[dict[str, str]] = json.loads(result.stdout)
    assert "soak" in [r["name"] for r in rows]
    assert "soak" in cli("rules").stdout


def test_rules_soak_json() -> None:
    out = run_json("rules", "soak", "--json")
    assert (out["name"], out["seed"]) == ("soak", "004_3533b04603d44f26.txt")
    sheet = {row["name"]: row["default"] for row in out["sheet"]}
    assert sheet["max_hp"] == 20
    assert {k: sheet[k] for k in SHEET_FIELDS} == SHEET_FIELDS
    assert [row["name"] for row in out["item"]] == list(WEAPON_FIELDS)
    assert out["shorthands"] == ["unarmed"]
    assert {row["name"]: row["default"] for row in out["options"]} == OPTIONS
    assert {row["label"]: row["sides"] for row in out["dice"]} == DICE
    assert [a["do"] for a in out["actions"]] == [
        "attack",
        *("end_turn", "move", "set", "heal", "damage", "status"),
        *("add", "remove", "initiative", "delay", "roll", "hide", "show", "reveal"),
        *("finish", "reopen", "note", "tactics", "policy"),
    ]
    attack = out["actions"][0]
    assert attack["params"] == ["weapon", "advantage", "disadvantage", "modifier", "distance"]
    assert all(row["meaning"] for row in out["sheet"][6:] + out["options"] + out["item"])


def test_rules_soak_text() -> None:
    result = cli("rules", "soak")
    assert result.exit_code == 0, result.stderr
    for name in (*SHEET_FIELDS, *WEAPON_FIELDS, *OPTIONS, *DICE, "sheet fields", "options"):
        assert name in result.stdout, name
