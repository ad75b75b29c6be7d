"""Who takes each action, and which parameters are the game master's judgement calls:
one list each, covering every action of every ruleset (``fracas.engine.catalogue``). A new
action or parameter fails here until it is classified on purpose."""

from __future__ import annotations

import pytest

from fracas.engine.catalogue import CORE_ACTIONS, CORE_WHO, Who, core_actions, who_takes
from fracas.engine.table_actions import judgement_calls
from fracas.model import Action
from fracas.rulesets import RULESETS, Ruleset, find_ruleset

WHO: dict[str, dict[str, Who]] = {
    "dice-combat": {"attack": Who.TURN, "throw": Who.TURN, "reload": Who.TURN, "equip": Who.TURN},
    "tier-duel": {
        "attack": Who.TURN,
        "stealth": Who.TURN,
        "cast": Who.TURN,
        "reload": Who.TURN,
        "equip": Who.TURN,
    },
    "escalation": {"attack": Who.TURN, "act": Who.TURN},
    "soak": {"attack": Who.TURN},
    "wasteland": {
        "attack": Who.TURN,
        "throw": Who.TURN,
        "defend": Who.TURN,
        "overwatch": Who.TURN,
        "overwatch_attack": Who.ANY_TIME,  # WL-30: off-turn
        "opportunity_attack": Who.ANY_TIME,  # WL-31: a reaction
        "riposte": Who.ANY_TIME,  # WL-31
        "reaction": Who.ANY_TIME,  # WL-31
        "peek": Who.TURN,
        "injury_test": Who.ANY_TIME,  # WL-21: any time
    },
}
"""Every ruleset action and who may take it."""

CALLS: dict[str, dict[str, tuple[str, ...]]] = {
    "dice-combat": {
        "attack": ("edge", "defend_edge"),
        "throw": ("edge",),
        "reload": (),
        "equip": (),
    },
    "tier-duel": {
        "attack": ("distance",),
        "stealth": ("behind", "distance"),
        "cast": (),
        "reload": (),
        "equip": (),
    },
    "escalation": {
        "attack": ("free", "unseen", "unexpected", "concealment", "cover", "failure_mod"),
        "act": (),
    },
    "soak": {"attack": ("advantage", "disadvantage", "modifier", "distance")},
    "wasteland": {
        "attack": (
            "sneak",
            "flanking",
            "clear_shot",
            "accuracy_mod",
            "evasion_mod",
            "behind",
            "creature_cover",
        ),
        "throw": ("accuracy_mod", "clear_shot"),
        "defend": (),
        "overwatch": (),
        "overwatch_attack": (
            "flanking",
            "clear_shot",
            "accuracy_mod",
            "evasion_mod",
            "behind",
            "creature_cover",
        ),
        "opportunity_attack": ("flanking", "accuracy_mod", "evasion_mod"),
        "riposte": ("flanking", "accuracy_mod", "evasion_mod"),
        "reaction": (),
        "peek": (),
        "injury_test": (),
    },
}
"""Every ruleset action's judgement calls; its other parameters are the player's (a
target, a weapon, a called limb, a burst, a condition, an AP cost)."""


def _ruleset(name: str) -> Ruleset:
    kind = find_ruleset(name)
    options = kind.contract.options()
    return kind(options)


def test_every_core_action_says_who_takes_it() -> None:
    assert set(CORE_WHO) == {spec.name for spec in CORE_ACTIONS}
    decrees = {"set", "heal", "damage", "status", "add", "remove", "initiative", "delay",
               "hide", "show", "reveal", "note", "tactics", "policy", "finish",
               "reopen"}  # fmt: skip
    assert {name for name, who in CORE_WHO.items() if who is Who.GM} == decrees
    assert CORE_WHO["roll"] is Who.ANY_TIME  # the table rolls it (never typed in)
    assert CORE_WHO["end_turn"] is Who.TURN and CORE_WHO["move"] is Who.MOVE


def test_the_classification_names_every_ruleset() -> None:
    assert set(WHO) == set(CALLS) == {r.about.name for r in RULESETS}


@pytest.mark.parametrize("name", sorted(WHO))
def test_every_action_of_every_ruleset_is_classified(name: str) -> None:
    ruleset = _ruleset(name)
    assert {spec.name for spec in ruleset.contract.actions} == set(WHO[name])
    for spec in ruleset.contract.actions:
        assert who_takes(ruleset, Action("x", spec.name)) is WHO[name][spec.name], spec.name


@pytest.mark.parametrize("name", sorted(CALLS))
def test_every_parameter_is_a_call_or_the_players(name: str) -> None:
    ruleset = _ruleset(name)
    for spec in ruleset.contract.actions:
        assert spec.calls == CALLS[name][spec.name], spec.name
        assert set(spec.calls) <= set(spec.params), spec.name
    move = next(spec for spec in core_actions(ruleset) if spec.name == "move")
    assert move.calls == ()  # `to` and wasteland's `ap` are the mover's
    expected = [c for calls in CALLS[name].values() for c in calls]
    assert judgement_calls(ruleset) == tuple(dict.fromkeys(expected))


def test_a_move_the_rules_make_the_actors_own_is_taken_in_its_turn() -> None:
    wasteland = _ruleset("wasteland")
    assert who_takes(wasteland, Action("x", "move", params={"to": (1, 1), "ap": 2})) is Who.TURN
    assert who_takes(wasteland, Action("x", "move", params={"to": (1, 1)})) is Who.MOVE
