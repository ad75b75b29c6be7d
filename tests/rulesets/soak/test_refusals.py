"""soak refusals (soak.md 2.3) and dice errors: each is reported with its code, the
first that applies in the table's order, and consumes nothing (README: "An illegal
action consumes nothing: no die, no ammo, no item, no action").

Each case plays an encounter up to its illegal action and checks that the action is
refused with the expected code, that the state (health track, AV, wounds, AP, whose
turn, ...) and the log are exactly as before it, that the random generator did not
advance, and that a seeded follow-up action rolls and does exactly what it does in
the same encounter without the illegal action.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pytest

from fracas.engine.play import Engine, Record
from fracas.errors import DiceError, FracasError, Refusal
from fracas.model import Action
from tests.helpers import load_text

SEED = 20260501

BOW = {"name": "bow", "attack": "ranged", "dice": "1d6"}
SWORD = {"name": "sword", "dice": "1d8", "upgrades": ["1d4"]}

# Far from everyone: the follow-up is zed's attack with advantage on yan, rolled from the
# seed (two d20, then damage dice that explode: zed is proficient).
BYSTANDERS: list[dict[str, Any]] = [
    {"id": "zed", "at": [60, 60], "agility": 5, "proficiencies": ["sword"], "weapons": [SWORD]},
    {"id": "yan", "at": [61, 60], "av": 1, "max_hp": 50},
]
FOLLOW_UP = Action("zed", "attack", "yan", params={"advantage": True})


@dataclass
class Case:
    code: str
    combatants: list[dict[str, Any]]
    refused: dict[str, Any] | Action
    before: list[dict[str, Any]] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)


def _ana(**fields: Any) -> dict[str, Any]:
    return {"id": "ana", "at": [0, 0], "weapons": [SWORD, BOW], **fields}


def _bo(**fields: Any) -> dict[str, Any]:
    return {"id": "bo", "at": [1, 0], **fields}


def attack(**params: Any) -> dict[str, Any]:
    return {"actor": "ana", "do": "attack", "target": "bo", **params}


CASES: dict[str, Case] = {
    # --- each refusal on its own ---
    "down": Case("down", [_ana(hp=0), _bo()], attack()),
    "not_enough_ap": Case(
        "not_enough_ap",
        [_ana(max_ap=1), _bo()],
        attack(),
        before=[attack(dice={"attack": 2})],
    ),
    "not_enough_ap_weapon_cost": Case(
        "not_enough_ap",
        [_ana(weapons=[{"name": "maul", "dice": "1d12", "ap": 4}]), _bo()],
        attack(),
    ),
    "unknown_weapon": Case("unknown_weapon", [_ana(), _bo()], attack(weapon="axe")),
    "self_target": Case(
        "self_target", [_ana(), _bo()], {"actor": "ana", "do": "attack", "target": "ana"}
    ),
    "no_distance": Case("no_distance", [_ana(), _bo(at=None)], attack(weapon="bow")),
    "no_distance_actor": Case("no_distance", [_ana(at=None), _bo()], attack(weapon="bow")),
    "out_of_range": Case("out_of_range", [_ana(), _bo(at=[31, 0])], attack(weapon="bow")),
    "out_of_range_given": Case("out_of_range", [_ana(), _bo()], attack(weapon="bow", distance=31)),
    "out_of_reach": Case("out_of_reach", [_ana(), _bo(at=[2, 1])], attack()),
    "out_of_reach_unarmed": Case(
        "out_of_reach", [_ana(), _bo(at=[0, 2])], attack(weapon="unarmed")
    ),
    "out_of_reach_given": Case("out_of_reach", [_ana(), _bo(at=None)], attack(distance=3)),
    # --- the first that applies, in the table's order ---
    "down_before_not_enough_ap": Case("down", [_ana(hp=0, max_ap=0), _bo()], attack()),
    "not_enough_ap_before_unknown_weapon": Case(
        "not_enough_ap", [_ana(max_ap=0), _bo()], attack(weapon="axe")
    ),
    "unknown_weapon_before_self_target": Case(
        "unknown_weapon",
        [_ana(), _bo()],
        {"actor": "ana", "do": "attack", "target": "ana", "weapon": "axe"},
    ),
    "self_target_before_no_distance": Case(
        "self_target",
        [_ana(at=None), _bo()],
        {"actor": "ana", "do": "attack", "target": "ana", "weapon": "bow"},
    ),
    # --- parameters a program (not a file) gets wrong, and dice that do not fit ---
    "bad_modifier": Case(
        "bad_value", [_ana(), _bo()], Action("ana", "attack", "bo", params={"modifier": "2"})
    ),
    "bad_edge": Case(
        "bad_value", [_ana(), _bo()], Action("ana", "attack", "bo", params={"advantage": 1})
    ),
    "unknown_parameter": Case(  # the engine checks a program's action as a file's
        "unknown_field",
        [_ana(), _bo()],
        Action("ana", "attack", "bo", params={"edge": "advantage"}),
    ),
    "bad_distance": Case(
        "bad_value", [_ana(), _bo()], Action("ana", "attack", "bo", params={"distance": -1})
    ),
    "damage_on_a_miss": Case(
        "unused_die", [_ana(), _bo(ev=30)], attack(dice={"attack": 2, "damage": [3]})
    ),
    "damage_face_too_high": Case(
        "die_out_of_range", [_ana(), _bo()], attack(dice={"attack": 15, "damage": [9]})
    ),
    "too_few_attack_dice_used": Case(
        "unused_die", [_ana(), _bo()], attack(dice={"attack": [15, 3], "damage": [1, 1]})
    ),
}


def encounter(case: Case, actions: list[dict[str, Any]]) -> str:
    """The file of a case: its combatants and the bystanders, in that order."""
    people = [*case.combatants, *BYSTANDERS]
    data: dict[str, Any] = {
        "ruleset": "soak",
        "seed": SEED,
        "options": case.options,
        "order": [c["id"] for c in people],
        "combatants": people,
        "actions": actions,
    }
    return json.dumps(data)


def play_until(case: Case) -> Engine:
    """The case's encounter played up to (not including) the illegal action."""
    ef = load_text(encounter(case, case.before))
    engine = Engine(ef.ruleset, ef.start, ef.seed)
    engine.begin(ef.dice, ef.order)
    for action in ef.actions:
        engine.act(action)
    return engine


def refused_action(case: Case) -> Action:
    """The illegal action, as the file reader builds it (or as a program gives it)."""
    if isinstance(case.refused, Action):
        return case.refused
    return load_text(encounter(case, [*case.before, case.refused])).actions[-1]


@pytest.mark.parametrize("name", list(CASES))
def test_refusal_consumes_nothing(name: str) -> None:
    case = CASES[name]
    engine = play_until(case)
    action = refused_action(case)
    before, log_length, stream = engine.state, len(engine.log), engine.random.getstate()
    with pytest.raises(FracasError) as exc:
        engine.act(action)
    assert exc.value.code == case.code, exc.value
    kind = DiceError if case.code in ("unused_die", "die_out_of_range") else Refusal
    assert isinstance(exc.value, kind)
    assert engine.state == before  # health track, AV, wounds, AP, turn: all as they were
    assert len(engine.log) == log_length
    assert engine.random.getstate() == stream
    # The same follow-up, with and without the refused action before it.
    after: Record = engine.act(FOLLOW_UP)
    reference = play_until(case)
    expected = reference.act(FOLLOW_UP)
    assert after.rolls == expected.rolls and after.events == expected.events
    assert engine.state == reference.state
    assert len(after.rolls) >= 2  # the follow-up did roll from the generator


def test_every_refusal_code_of_the_table_is_tested() -> None:
    codes = {c.code for c in CASES.values()}
    table = {"down", "not_enough_ap", "unknown_weapon", "self_target", "no_distance"}
    table |= {"out_of_range", "out_of_reach"}
    assert table <= codes


def test_unknown_weapon_lists_the_valid_ones() -> None:
    engine = play_until(CASES["unknown_weapon"])
    with pytest.raises(Refusal) as exc:
        engine.act(refused_action(CASES["unknown_weapon"]))
    assert exc.value.message.endswith("valid: sword, bow, unarmed")


def test_a_file_with_a_bad_parameter_is_refused_as_it_is_read() -> None:
    from fracas.errors import FileError

    data = {
        "ruleset": "soak",
        "combatants": [_ana(), _bo()],
        "actions": [attack(disadvantage="yes please")],
    }
    with pytest.raises(FileError) as exc:
        load_text(json.dumps(data))
    assert exc.value.code == "bad_value"
    assert "actions[0].disadvantage" in exc.value.where
