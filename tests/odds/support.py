"""Shared builders of the odds tests (tests/odds/test_*.py; tests/test_work_budgets.py)."""

from __future__ import annotations

import json
from typing import Any

from fracas.engine.play import Engine
from fracas.model import Action, Encounter
from fracas.rulesets.base import Ruleset
from tests.helpers import load_text
from tests.rulesets.wasteland.support import act, doc, who

__all__ = ["burst"]


def burst(shots: int, dice: dict[str, Any] | None = None) -> tuple[Ruleset, Encounter, Action]:
    """A wasteland burst of ``shots`` shots (WL-15), its last action ready for odds."""
    gun = {"name": "mg", "damage": "1d6", "ap": 3, "burst": shots}
    params: dict[str, Any] = {"burst": True}
    if dice:
        params["dice"] = dice
    d = doc(
        who("a", weapons=[gun], skills={"guns": 2}),
        who("b", at=(3, 0)),
        actions=[act("a", "attack", "b", **params)],
    )
    ef = load_text(json.dumps(d))
    engine = Engine(ef.ruleset, ef.start, ef.seed)
    engine.begin(ef.dice, ef.order)
    return ef.ruleset, engine.state, ef.actions[-1]
