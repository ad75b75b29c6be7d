"""Dice given across the steps of a roll (``fracas.odds.outcomes``, issue 34).

Given faces are taken in order across the whole roll (README, "Dice"). Exact odds
follow the roll step by step even so: each node holds how far the steps before took
the given dice. Checked here against one enumeration of the whole roll, path by path
(the oracle: every die of every step replayed in one tree, as before the steps carried
them), on a wasteland burst (WL-15) whose locations and damage are given, and for the
two refusals that span the steps: a value no path rolls, a short label matching two
rolls of different steps.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import pytest

from fracas.dice.exact import enumerate_exact
from fracas.dice.source import Dice
from fracas.errors import DiceError
from fracas.model import Damaged, Encounter, fold
from fracas.odds.action import action_odds
from fracas.rulesets.base import Ruleset, is_down
from fracas.rulesets.memo import decide
from fracas.rulesets.steps import roll_all
from tests.odds.support import burst

LOCATED = {"location:1": 5, "location:2": 3, "location:3": 1}


def _whole_roll(ruleset: Ruleset, state: Encounter, action: Any) -> dict[str, Any]:
    """Target b's distribution of damage dealt and of being down, the whole roll as one
    tree (its events as live play logs them)."""
    decision = decide(ruleset, state, action)

    def run(dice: Dice) -> tuple[int, bool]:
        events = roll_all(ruleset, state, decision, dice)
        dealt = sum(e.amount for e in events if isinstance(e, Damaged) and e.target == "b")
        return dealt, is_down(ruleset, fold(state, events).get("b"))

    dist = enumerate_exact(run, given=action.dice, max_rolls=ruleset.contract.odds_max_rolls)
    damage: dict[int, Fraction] = {}
    down = Fraction(0)
    for (lost, fell), p in dist.outcomes.items():
        damage[lost] = damage.get(lost, Fraction(0)) + p
        down += p if fell else 0
    return {"damage": damage, "down": down, "cut": dist.truncated}


@pytest.mark.parametrize(
    "given",
    [
        LOCATED,
        {**LOCATED, "damage:1": 6},
        {"location:1": 7, "location:2": 9, "location:3": 2, "damage:3": 1},
    ],
)
def test_WL_15_a_burst_with_dice_given_is_the_whole_roll_enumerated_as_one(
    given: Mapping[str, int],
) -> None:
    ruleset, state, action = burst(3, dict(given))
    odds = action_odds(ruleset, state, action)
    whole = _whole_roll(ruleset, state, action)
    b = odds.combatants["b"]
    assert odds.estimate is None
    # An exploding CRIT die is cut at the depth: the whole tree counts every step's rolls
    # toward it, a step its own (as without dice given), so the steps cut no more, and
    # every figure agrees within what the two cut (1 in 10**18 here)
    assert 0 < odds.truncated <= whole["cut"] < Fraction(1, 10**18)
    cut = odds.truncated + whole["cut"]
    for lost in b.damage.keys() | whole["damage"].keys():
        assert abs(b.damage.get(lost, 0) - whole["damage"].get(lost, 0)) <= cut, lost
    assert abs(b.down - whole["down"]) <= cut
    assert b.hit == 1 - b.damage[0]  # every shot that landed dealt damage here


def test_a_given_value_no_step_rolls_is_refused() -> None:
    ruleset, state, action = burst(3, {**LOCATED, "location:4": 2})
    with pytest.raises(DiceError) as refused:
        action_odds(ruleset, state, action)
    assert refused.value.code == "unused_die"
    assert "'location:4' is never rolled" in refused.value.message


def test_a_short_label_matching_rolls_of_two_steps_is_ambiguous() -> None:
    # "location" names a location die of one shot and of another: the shots are steps
    # of their own, and the label's first match is carried from one to the next (the
    # same refusal, word for word, as when the whole roll was one enumeration)
    ruleset, state, action = burst(3, {"location": [5, 3]})
    with pytest.raises(DiceError) as refused:
        action_odds(ruleset, state, action)
    assert refused.value.code == "ambiguous_die_label"
    assert refused.value.message == (
        "die label 'location' matches 2 rolls (location:2, location:3): name one of them"
    )
