"""Tactics: the default policy and the file's ``tactics:`` overrides."""

from __future__ import annotations

import dataclasses
import random
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.engine.play import Engine
from fracas.errors import FileError
from fracas.io.files import load, parse_text
from fracas.lab.fight import file_start, outcome
from fracas.lab.policy import Policy
from fracas.model import Encounter

EXAMPLES = sorted(Path("examples").glob("*.yaml"))

TWO_V_ONE = """
ruleset: dice-combat
order: [ana, bo, cy]
combatants:
  - {id: ana, name: Ana, side: a, at: [0, 0], hand: club}
  - {id: bo, name: Bo, side: b, at: [1, 0], hp: 3, hand: knife}
  - {id: cy, name: Cy, side: b, at: [0, 1], hand: knife}
"""


def _shuffled(state: Encounter, rng: random.Random) -> Encounter:
    """The state with random HPs (1..max) and the first turn at a random combatant."""
    out = state
    for c in state.combatants.values():
        if c.hp > 0:
            out = out.with_combatant(dataclasses.replace(c, hp=rng.randint(1, max(1, c.hp))))
    return out


def _play(path: Path, seed: int, actions: int, policy: Policy | None = None) -> None:
    """Play ``actions`` of the policy's (a fresh one, or ``policy``, of the file's
    ruleset and tactics) from the file's start shuffled by ``seed``."""
    ef = load(path)
    rng = random.Random(seed)
    start = _shuffled(file_start(ef), rng)
    engine = Engine(ef.ruleset, start, seed, ef.bounds)
    if policy is None:
        policy = Policy(ef.ruleset, ef.tactics)
    for _ in range(actions):
        if outcome(ef.ruleset, engine.state) is not None:
            break
        engine.act(policy.choose(engine.state))  # a refusal raises: the test fails


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32))
def test_policy_never_refused(path: Path, seed: int) -> None:
    """Over random HPs and dice of every ruleset's example, every action the policy
    submits is one the rules take."""
    _play(path, seed, 12 if path.stem == "wasteland" else 40)


@pytest.mark.slow
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32))
def test_policy_never_refused_long(path: Path, seed: int) -> None:
    """As above, longer, with one policy per example file across the seeds (as a
    simulation keeps one across its fights): the policy is a pure function of the state
    (fracas.lab.policy), so it chooses what a fresh one would, and its kept scores and
    enumerations, shared between states, are not worked out again for every seed."""
    _play(path, seed, 60 if path.stem == "wasteland" else 300, _policy(path))


@cache
def _policy(path: Path) -> Policy:
    ef = load(path)
    return Policy(ef.ruleset, ef.tactics)


def test_default_takes_the_best_chance_to_down() -> None:
    """Bo at 3 HP: the club's hit downs him, Cy at 12 it does not: attack Bo."""
    ef = parse_text(TWO_V_ONE)
    action = Policy(ef.ruleset).choose(file_start(ef))
    assert (action.do, action.target) == ("attack", "bo")


def test_focus_an_id_overrides() -> None:
    ef = parse_text(TWO_V_ONE + "tactics: {ana: {focus: cy}}\n")
    assert ef.tactics["ana"].focus == "cy"
    action = Policy(ef.ruleset, ef.tactics).choose(file_start(ef))
    assert (action.do, action.target) == ("attack", "cy")


def test_focus_weakest() -> None:
    text = TWO_V_ONE.replace("hp: 3, ", "").replace("hand: knife}\n", "hp: 5, hand: knife}\n", 1)
    ef = parse_text(text + "tactics: {ana: {focus: weakest}}\n")
    action = Policy(ef.ruleset, ef.tactics).choose(file_start(ef))
    assert action.target == "bo"


def test_walks_to_its_reach_unless_told_not_to() -> None:
    """Nothing in reach: Ana (a club) walks toward the nearest enemy (Bo, 5 tiles off)
    with the table's walk, next to him (the table's 6 tiles a turn), then clubs him in
    the same turn; ``approach: false`` keeps her where she is."""
    text = TWO_V_ONE.replace("at: [1, 0]", "at: [5, 0]").replace("at: [0, 1]", "at: [6, 6]")
    ef = parse_text(text)
    policy = Policy(ef.ruleset)
    start = file_start(ef)
    walk = policy.choose(start)
    assert (walk.do, walk.params["to"], walk.params["walk"]) == ("move", (4, 0), True)
    engine = Engine(ef.ruleset, start, 1)
    engine.act(walk)
    then = policy.choose(engine.state)
    assert (then.do, then.target) == ("attack", "bo")
    ef = parse_text(text + "tactics: {ana: {approach: false}}\n")
    assert Policy(ef.ruleset, ef.tactics).choose(file_start(ef)).do == "end_turn"


def test_reload_only_when_it_makes_an_attack_possible() -> None:
    """DC-10: an empty pistol is reloaded; a loaded one after its shot is not."""
    text = """
ruleset: dice-combat
order: [ana, bo]
combatants:
  - {id: ana, name: Ana, side: a, at: [0, 0], hand: {is: pistol, loaded: 0}}
  - {id: bo, name: Bo, side: b, at: [3, 0], hand: {is: pistol, loaded: 3}}
"""
    ef = parse_text(text)
    assert Policy(ef.ruleset).choose(file_start(ef)).do == "reload"


@pytest.mark.parametrize(
    ("tactics", "code", "where"),
    [
        ("{zed: {focus: weakest}}", "unknown_combatant", "tactics.zed"),
        ("{ana: {focus: strongest}}", "bad_value", "tactics.ana.focus"),
        ("{ana: {action: fly}}", "unknown_action", "tactics.ana.action"),
        ("{ana: {hide: true}}", "unknown_field", "tactics.ana.hide"),
    ],
)
def test_tactics_errors(tactics: str, code: str, where: str) -> None:
    with pytest.raises(FileError) as err:
        parse_text(TWO_V_ONE + f"tactics: {tactics}\n", "f.yaml")
    assert err.value.code == code
    assert err.value.where.endswith(where), err.value.where
