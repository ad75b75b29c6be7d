"""wasteland through the command line (registered for these tests only: it is not in
``RULESETS`` yet): ``fracas run --json`` (2.8 outputs), ``fracas odds``, ``fracas rules
wasteland``, a refusal's JSON, and that the ruleset is otherwise unknown."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fracas.rulesets import RULESETS, find_ruleset, registered
from fracas.rulesets.wasteland import Wasteland
from tests.helpers import cli
from tests.rulesets.test_wasteland_actions import EXAMPLE
from tests.rulesets.wasteland_support import PISTOL, act, doc, who


@pytest.fixture
def wasteland() -> Iterator[None]:
    with registered(Wasteland):
        yield


def write(tmp_path: Path, text: str, name: str = "wasteland.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def run_json(*args: str) -> dict[str, Any]:
    result = cli(*args)
    assert result.exit_code == 0, result.stderr
    out: dict[str, Any] = json.loads(result.stdout)
    return out


def test_not_registered_outside_the_fixture(tmp_path: Path) -> None:
    assert Wasteland not in RULESETS
    result = cli("run", write(tmp_path, EXAMPLE))
    assert result.exit_code != 0
    assert "unknown_ruleset" in result.stderr
    with registered(Wasteland):
        assert find_ruleset("wasteland") is Wasteland
    assert Wasteland not in RULESETS


@pytest.mark.usefixtures("wasteland")
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


@pytest.mark.usefixtures("wasteland")
def test_run_refusal_json(tmp_path: Path) -> None:
    d = doc(who("a", weapons=[PISTOL]), who("b", at=(30, 0)),
            actions=[act("a", "attack", "b", dice={"attack": 5})])  # fmt: skip
    result = cli("run", write(tmp_path, json.dumps(d)), "--json")
    assert result.exit_code == 1
    out = json.loads(result.stdout)
    assert out["error"]["code"] == "out_of_range"
    assert out["combatants"]["a"]["ap"] == 8


@pytest.mark.usefixtures("wasteland")
def test_odds_json_single_shot(tmp_path: Path) -> None:
    d = doc(who("a", weapons=[PISTOL], skills={"guns": 2}), who("b", at=(3, 0)),
            actions=[act("a", "attack", "b", dice={"location": 5})])  # fmt: skip
    out = run_json("odds", write(tmp_path, json.dumps(d)), "--json")
    assert out["exact"]["combatants"]["b"]["damage"]["0"] == "2/5"
    assert out["truncated"]["depth"] == 24


@pytest.mark.usefixtures("wasteland")
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
