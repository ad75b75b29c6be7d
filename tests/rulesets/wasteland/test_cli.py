"""wasteland through the command line: ``fracas run --json`` (2.8 outputs), ``fracas
odds``, ``fracas rules wasteland``, a refusal's JSON, and the bundled example
``examples/wasteland.yaml``."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from tests import helpers
from tests.helpers import cli
from tests.helpers import cli_json as run_json
from tests.rulesets.wasteland.support import PISTOL, act, doc, who
from tests.rulesets.wasteland.test_actions import EXAMPLE

BUNDLED = str(Path(__file__).resolve().parents[3] / "examples" / "wasteland.yaml")


def write(tmp_path: Path, text: str, name: str = "wasteland.yaml") -> str:
    return helpers.write(tmp_path, text, name)


def test_run_json_worked_example(tmp_path: Path) -> None:
    out = run_json("run", write(tmp_path, EXAMPLE), "--json")
    vera, raider, brute = (out["combatants"][c] for c in ("vera", "raider", "brute"))
    assert (vera["hp"], raider["hp"], brute["hp"]) == (8, 14, 17)
    assert (vera["evasion"], vera["sequence"], vera["max_ap"]) == (13, 13, 9)
    assert vera["limbs"]["head"] == {"ct": 0, "ct_max": 10, "dt": {"physical": 1, "energy": 0,
                                     "radiation": 0}, "injury": "minor", "crippled": True,
                                     "injury_dc": None}  # fmt: skip
    assert raider["statuses"] == {"bleed": {"x": 1}}
    assert raider["reactions_left"] == {"reaction": 1, "opportunity": 1, "riposte": 1}
    assert brute["weapons"][0]["count"] == 0
    assert vera["down"] is False
    assert any("CRIPPLED, minor injury" in line for line in out["log"])


def test_run_refusal_json(tmp_path: Path) -> None:
    d = doc(who("a", weapons=[PISTOL]), who("b", at=(30, 0)),
            actions=[act("a", "attack", "b", dice={"attack": 5})])  # fmt: skip
    result = cli("run", write(tmp_path, json.dumps(d)), "--json")
    assert result.exit_code == 1
    out = json.loads(result.stdout)
    assert out["error"]["code"] == "out_of_range"
    assert out["combatants"]["a"]["ap"] == 8


def test_odds_json_single_shot(tmp_path: Path) -> None:
    d = doc(who("a", weapons=[PISTOL], skills={"guns": 2}), who("b", at=(3, 0)),
            actions=[act("a", "attack", "b", dice={"location": 5})])  # fmt: skip
    out = run_json("odds", write(tmp_path, json.dumps(d)), "--json")
    assert out["exact"]["combatants"]["b"]["damage"]["0"] == "2/5"
    assert out["truncated"]["depth"] == 24


def test_rules_wasteland() -> None:
    out = run_json("rules", "wasteland", "--json")
    sheet = {f["name"] for f in out["sheet"]}
    assert {"agi_mod", "limbs", "dt", "dr", "cover", "weapons", "rest_uses", "ap_debt"} <= sheet
    actions = {a["do"]: a for a in out["actions"]}
    assert {"attack", "throw", "defend", "overwatch", "overwatch_attack", "opportunity_attack",
            "riposte", "reaction", "peek", "injury_test"} <= set(actions)  # fmt: skip
    assert actions["riposte"]["off_turn"] and not actions["defend"]["off_turn"]
    assert [d["label"] for d in out["dice"]] == ["attack", "location", "damage", "crit", "test"]
    options = {o["name"]: o["default"] for o in out["options"]}
    assert options["burst_shots"] == 3 and options["ct_max"] == 10
    item = {f["name"] for f in out["item"]}
    assert {"damage", "crit_dice", "burst", "overflowable", "blast_radius"} <= item


# --- 2.8 outputs, every key, and the bundled example ------------------------------------

SHEET_FIELDS = {  # 2.1
    "hp", "max_hp", "level", "str_mod", "per_mod", "end_mod", "cha_mod", "int_mod",
    "agi_mod", "lck_mod", "skills", "npc", "sequence_mod", "evasion_mod", "ap", "map",
    "max_map", "crit_min", "critfail_max", "perks", "melee_damage", "dt", "dr", "limbs",
    "cover", "hidden", "unaware", "surprised", "weapons", "rest_uses", "ap_debt",
}  # fmt: skip
LIMB_KEYS = {"ct", "ct_max", "dt", "injury", "crippled", "injury_dc"}
LIMBS = {"head", "torso", "left_arm", "right_arm", "left_leg", "right_leg"}


def test_run_json_bundled_example_has_every_output_of_2_8() -> None:
    out = run_json("run", BUNDLED, "--json")
    assert out["ruleset"] == "wasteland" and "error" not in out
    assert set(out["combatants"]) == {"vera", "knox", "raider"}
    for cid, c in out["combatants"].items():
        keys = {"down", "statuses", "evasion", "sequence", "max_ap", "reactions_left"}
        assert SHEET_FIELDS | keys <= set(c), (cid, SHEET_FIELDS | keys - set(c))
        assert set(c["limbs"]) == LIMBS
        assert all(set(limb) == LIMB_KEYS for limb in c["limbs"].values())
        assert set(c["dt"]) == set(c["dr"]) == {"physical", "energy", "radiation"}
        assert all({"condition", "count"} <= set(w) for w in c["weapons"])
        assert set(c["reactions_left"]) == {"reaction", "opportunity", "riposte"}
    vera, knox, raider = (out["combatants"][c] for c in ("vera", "knox", "raider"))
    # The file's comments: the burst (3 to HP, a bleed), Defend +3, the raider's called
    # shot at vera's head (3), then knox's shot from the seed.
    assert vera["hp"] == 17 and vera["statuses"] == {"defending": {"bonus": 3}}
    assert (vera["evasion"], vera["ap"], vera["at"]) == (16, 0, [2, 0])
    assert vera["limbs"]["head"]["ct"] == 9
    assert raider["statuses"] == {"bleed": {"x": 1}}
    assert raider["limbs"]["left_leg"]["ct"] == 10  # the leg's hit was stopped by cover
    assert raider["dr"] == {"physical": 10, "energy": 0, "radiation": 0}
    assert raider["ap"] == 4 and knox["ap"] == 2  # called shots cost 1 AP more
    assert raider["hp"] == 14  # knox's shot, seed 2077: 12 + 4, torso 5 - DT 1, DR 10%: 3


def test_run_text_bundled_example_reads_for_a_game_master() -> None:
    result = cli("run", BUNDLED)
    assert result.exit_code == 0, result.stderr
    text = result.stdout
    for line in (
        "Sequence order: Vera 13, the raider 13, Knox 12",
        "Vera spends 2 on movement: MAP 0 -> 0, AP 9 -> 7",
        "  shot 1 hits the raider's left leg (glancing): 3 vs cover 3: stopped",
        "  shot 2 hits the raider's torso (glancing): 5 - DT 1 = 4",
        "  the raider takes 3 damage (0 + 4 = 4, DR 10%): HP 20 -> 17",
        "  left leg CT stays 10 (glancing: half)",
        "  the raider gets bleed 1",
        "Vera defends: +3 Evasion until its next turn",
        "  hits Vera's head (glancing): 4 - DT 1 = 3",
    ):
        assert line in text.splitlines(), line


def test_odds_bundled_example_is_the_aimed_shot() -> None:
    out = run_json("odds", BUNDLED, "--json")
    raider = out["exact"]["combatants"]["raider"]
    # d20 + 4 guns + 1 accuracy - 1 (torso) > 13: natural 10 or more.
    # Only paths deeper than the cut (a CRIT die exploding 23 times) are left out, all hits.
    cut = Fraction(out["truncated"]["mass"])
    # WL-7: the d20 decides the hit before any CRIT die explodes: exact whatever the cut.
    assert Fraction(raider["hit"]) == Fraction(11, 20) and 0 < cut < Fraction(1, 10**18)
    assert out["paths"] < 5_000
    result = cli("odds", BUNDLED)
    assert result.exit_code == 0, result.stderr
    assert "Odds of #5 knox: attack raider (called=torso)" in result.stdout
    assert "hit  55.00%" in result.stdout


def test_rules_wasteland_text() -> None:
    result = cli("rules", "wasteland")
    assert result.exit_code == 0, result.stderr
    for word in ("sheet fields", "options", "actions", "dice labels", "overwatch", "burst"):
        assert word in result.stdout, word
