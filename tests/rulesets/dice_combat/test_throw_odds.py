"""dice-combat's throw drawn as one (``explosives.Landed``): the attack d20 and the
Defend d20s of the victims at the centre as one class of who is hit and who fumbled
(DC-31, DC-33, DC-39, DC-43), the Defends after the scatter on a critical failure
(DC-34). The exact odds must equal rolling every die and following every path whole."""

from __future__ import annotations

import json
from typing import Any

import pytest

from fracas.engine.play import Engine
from fracas.odds.action import Odds, action_odds
from tests.helpers import load_text


def _odds(doc: dict[str, Any], **how: Any) -> Odds:
    ef = load_text(json.dumps(doc))
    engine = Engine(ef.ruleset, ef.start, 1)
    engine.begin(ef.dice, ef.order)
    return action_odds(ef.ruleset, engine.state, ef.actions[-1], seconds=None, **how)


def _doc(thrower: dict[str, Any], victims: list[dict[str, Any]], **action: Any) -> dict[str, Any]:
    return {
        "ruleset": "dice-combat",
        "round": 2,
        "combatants": [{"id": "ana", "at": [0, 0], "hand": "molotov", **thrower}, *victims],
        "actions": [{"actor": "ana", "do": "throw", "target": victims[0]["id"], **action}],
    }


CASES: dict[str, dict[str, Any]] = {
    "two victims, one in cover with a Defend bonus": _doc(
        {"attack_bonus": 1},
        [
            {"id": "bo", "at": [4, 0]},
            {"id": "cy", "at": [4, 1], "defend_ranged_bonus": 1, "cover": True},
        ],
    ),
    "a wildcard thrower with advantage, a wildcard victim": _doc(
        {"attack_bonus": 2, "crit": "wildcard"},
        [{"id": "bo", "at": [4, 0], "crit": "wildcard"}],
        edge="advantage",
    ),
    "a throw that scatters onto a bystander": _doc(
        {},
        [{"id": "bo", "at": [4, 0]}, {"id": "dee", "at": [6, 0]}],
    ),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_P_DC_3_a_throw_drawn_as_one_equals_the_plain_enumeration(case: str) -> None:
    fast = _odds(CASES[case])
    plain = _odds(CASES[case], steps=False, pools=False)
    assert fast.combatants == plain.combatants
    assert fast.paths * 5 < plain.paths
    assert all(o.hit for o in fast.combatants.values() if o.hit is not None)
