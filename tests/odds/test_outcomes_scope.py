"""Steps that say whom the rest of the roll is about (``odds_scope``, ``fracas.rulesets.steps``).

Exact odds settle everyone else's summary at such a step and follow the rest once for
all the ways they came out (``fracas.odds.outcomes``). A toy roll on a real state: a d6
against bo, then a step with a d4 against cy. With a scope that is true, the odds
equal those of the whole roll followed path by path, exactly, over fewer paths. Where
a 4 on the d4 also hits bo, a scope that leaves bo out is false: bo is settled too
early, and the comparison with the whole roll shows it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest

from fracas.dice.budget import Budget
from fracas.dice.source import Dice
from fracas.io.files import parse_text
from fracas.model import Action, Attempted, Damaged, Encounter, Event
from fracas.odds.action import CombatantOdds, _per_combatant
from fracas.odds.outcomes import exact_outcomes
from fracas.rulesets.steps import Roller, Then, run_steps

DOC = {
    "ruleset": "escalation",
    "combatants": [
        {"id": "ana", "side": "players"},
        {"id": "bo", "hp": 5},
        {"id": "cy", "hp": 3},
    ],
}
ACTION = Action("ana", "attack", params={"targets": ["bo", "cy"]})


@dataclass(frozen=True)
class Second:
    """The d4 against cy (a 4 hits bo too where ``again``); the rest is about ``scope``."""

    scope: frozenset[str]
    again: bool

    def odds_scope(self) -> frozenset[str]:
        return self.scope


def stepped(state: Encounter, step: Any, dice: Dice) -> list[Event]:
    if isinstance(step, Second):
        b = dice.roll(4, "b")
        events: list[Event] = [Attempted("ana", "cy", b > 1), Damaged("cy", b if b > 1 else 0, "")]
        if step.again and b == 4:
            events.append(Damaged("bo", 1, "a 4 hits bo too"))
        return events
    _, second = step
    a = dice.roll(6, "a")
    return [Attempted("ana", "bo", a > 2), Damaged("bo", a if a > 2 else 0, ""), Then(second)]


def whole(state: Encounter, step: Any, dice: Dice) -> list[Event]:
    return run_steps(stepped, state, step, dice)


def odds(second: Second, roller: Roller) -> tuple[dict[str, CombatantOdds], int]:
    ef = parse_text(json.dumps(DOC), "toy.json")
    found = exact_outcomes(
        ef.ruleset, ef.start, ("first", second), roller, given={}, max_rolls=8,
        skip=frozenset(), max_paths=10_000, budget=Budget(None, None),
    )  # fmt: skip
    return _per_combatant(ef.ruleset, ef.start, ACTION, found), found.paths


ALL = frozenset({"ana", "bo", "cy"})
NOT_BO = frozenset({"ana", "cy"})


@pytest.mark.parametrize("scope", [NOT_BO, ALL], ids=["about cy", "about everyone"])
def test_a_true_scope_gives_the_odds_of_the_whole_roll(scope: frozenset[str]) -> None:
    second = Second(scope, again=False)
    plain, plain_paths = odds(second, whole)
    scoped, paths = odds(second, stepped)
    assert scoped == plain
    assert plain_paths == 6 * 4
    # about cy: bo settled after the d6, the d4 followed once for all six faces; about
    # everyone: the d4 once per distinct bo (a miss on 1 or 2, then 3, 4, 5, 6)
    assert paths == (6 + 4 if scope == NOT_BO else 6 + 5 * 4)
    assert plain["bo"].damage == {0: Fraction(2, 6), 3: Fraction(1, 6), 4: Fraction(1, 6),
                                  5: Fraction(1, 6), 6: Fraction(1, 6)}  # fmt: skip
    assert (plain["bo"].hit, plain["bo"].down) == (Fraction(4, 6), Fraction(2, 6))
    assert plain["cy"].damage == {0: Fraction(1, 4), 2: Fraction(1, 4), 3: Fraction(1, 4),
                                  4: Fraction(1, 4)}  # fmt: skip
    assert (plain["cy"].hit, plain["cy"].down) == (Fraction(3, 4), Fraction(2, 4))


def test_a_false_scope_settles_too_early() -> None:
    plain, _ = odds(Second(ALL, again=True), whole)
    right, _ = odds(Second(ALL, again=True), stepped)
    wrong, _ = odds(Second(NOT_BO, again=True), stepped)
    assert right == plain
    # the 4 on the d4 adds 1 to bo's damage, a quarter of the time
    assert plain["bo"].damage[7] == Fraction(1, 6) * Fraction(1, 4)
    assert plain["bo"].down == Fraction(2, 6) + Fraction(1, 6) * Fraction(1, 4)  # 4 + 1
    assert wrong["cy"] == plain["cy"]
    assert wrong["bo"] != plain["bo"]
    assert 7 not in wrong["bo"].damage  # the extra hit on bo was never counted
