"""What an actor may do now (``fracas.engine.may_do``): an action's targets in the order
a face offers them (issue 35): the actor's enemies first, then its allies, then itself,
and last whoever is down where the rules let it be targeted at all; each target's
relation to the actor. On the five examples' starts, the exact lists."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fracas.engine.may_do import options_now, relation, target_order
from fracas.engine.play import Engine
from fracas.io.files import parse_text
from fracas.model import Action, Encounter
from fracas.rulesets.base import Ruleset

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

Acts = list[tuple[str, str, dict[str, Any]]]


def _played(name: str, acts: Acts) -> tuple[Ruleset, Encounter]:
    """``name``'s example started (its actions not played), then the game master's
    ``acts`` (moves by decree, damage)."""
    text = (EXAMPLES / f"{name}.yaml").read_text().split("actions:")[0]
    ef = parse_text(text, f"{name}.yaml")
    engine = Engine(ef.ruleset, ef.start, ef.seed, ef.bounds)
    engine.begin(ef.dice, ef.order)
    for actor, do, params in acts:
        engine.act(Action(actor, do, params=params))
    return ef.ruleset, engine.state


def _attack(ruleset: Ruleset, state: Encounter) -> tuple[str, ...]:
    option = next(o for o in options_now(ruleset, state) if o.spec.name == "attack")
    assert option.allowed, option.refusal
    return option.targets


CASES: list[tuple[str, Acts, tuple[str, ...]]] = [
    # Ana (players) attacks: the raiders Bo and Cy, then her ally Dee
    ("dice-combat", [], ("bo", "cy", "dee")),
    # Cy down: still a legal target in dice-combat, offered last
    ("dice-combat", [("cy", "damage", {"amount": 12})], ("bo", "dee", "cy")),
    # Dee beside Ana: the raider Bo first, then Dee
    ("tier-duel", [("dee", "move", {"to": [1, 1]})], ("bo", "dee")),
    (
        "tier-duel",
        [("dee", "move", {"to": [1, 1]}), ("bo", "damage", {"amount": 20})],
        ("dee", "bo"),
    ),
    ("wasteland", [], ("raider", "knox")),
    ("wasteland", [("raider", "damage", {"amount": 1000})], ("knox", "raider")),
    # Gob and Cy beside Ana with the ogre: the enemies in file order, then Cy
    (
        "escalation",
        [("gob", "move", {"to": [1, 0]}), ("cy", "move", {"to": [0, 1]})],
        ("ogre", "gob", "cy"),
    ),
    (
        "escalation",
        [
            ("gob", "move", {"to": [1, 0]}),
            ("cy", "move", {"to": [0, 1]}),
            ("ogre", "damage", {"amount": 30}),
        ],
        ("gob", "cy", "ogre"),
    ),
    ("soak", [("brute", "move", {"to": [1, 0]})], ("brute", "finn")),
    (
        "soak",
        [("brute", "move", {"to": [1, 0]}), ("finn", "damage", {"amount": 20})],
        ("brute", "finn"),
    ),
]


@pytest.mark.parametrize(("name", "acts", "targets"), CASES, ids=[c[0] for c in CASES])
def test_an_attacks_targets_are_enemies_then_allies_then_the_down(
    name: str, acts: Acts, targets: tuple[str, ...]
) -> None:
    ruleset, state = _played(name, acts)
    assert _attack(ruleset, state) == targets


def test_the_order_puts_the_actor_after_its_allies_and_the_down_last() -> None:
    ruleset, state = _played("dice-combat", [("dee", "damage", {"amount": 12})])
    everyone = ("ana", "dee", "bo", "cy")
    assert target_order(ruleset, state, "ana", everyone) == ("bo", "cy", "ana", "dee")
    assert target_order(ruleset, state, "bo", everyone) == ("ana", "cy", "bo", "dee")
    assert [relation(state, "ana", t) for t in everyone] == ["self", "ally", "enemy", "enemy"]
