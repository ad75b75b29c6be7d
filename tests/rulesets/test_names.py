"""The shared sheet validators of names (fracas.rulesets.names): each ruleset's code,
message and place, as the rulesets' own validators gave them before they were shared."""

from __future__ import annotations

import json
from typing import Any

import pytest

from fracas.errors import FileError
from fracas.io.files import parse_text

CASES: list[tuple[str, dict[str, Any], str, str, str]] = [
    (
        "dice-combat",
        {"traits": ["nope"]},
        "unknown_trait",
        "'nope' is not a trait; valid: strong_arm, snapshooter, gunslinger, rifleman, "
        "dead_eye, spotter, longshot, hewer, cutter",
        "combatants[0].traits[0]",
    ),
    (
        "wasteland",
        {"skills": {"nope": 1}},
        "unknown_skill",
        "'nope' is not a skill; valid: guns, melee, unarmed, explosives, sneak, survival, "
        "pilot (or a skill a weapon names)",
        "combatants[0].skills.nope",
    ),
    (
        "escalation",
        {"size": "nope"},
        "bad_value",
        "'nope': 'nope' is not a size category; valid: tiny, small, medium, large, huge, "
        "gargantuan",
        "combatants[0].size",
    ),
    (
        "soak",
        {"weapons": [{"name": "sword", "dice": "1d6"}] * 2},
        "duplicate_weapon",
        "two weapons are named 'sword': attacks name weapons, give each its own name",
        "combatants[0].weapons",
    ),
    (
        "wasteland",
        {"weapons": ["unarmed", "unarmed"]},
        "duplicate_weapon",
        "two weapons are named 'unarmed': actions name weapons, give each its own name",
        "combatants[0].weapons",
    ),
    (
        "escalation",
        {"weapons": ["melee", "melee"]},
        "duplicate_weapon",
        "two weapons are called 'melee': give each a `name`",
        "combatants[0].weapons",
    ),
]


@pytest.mark.parametrize(("ruleset", "fields", "code", "message", "where"), CASES)
def test_a_bad_name_is_refused_with_the_rulesets_code_and_message(
    ruleset: str, fields: dict[str, Any], code: str, message: str, where: str
) -> None:
    doc = {
        "ruleset": ruleset,
        "combatants": [{"id": "a", **fields}, {"id": "b"}],
    }
    with pytest.raises(FileError) as exc:
        parse_text(json.dumps(doc), "t.json")
    assert (exc.value.code, exc.value.message) == (code, message)
    assert exc.value.where == f"t.json:1: {where}"
