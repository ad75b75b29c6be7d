"""Issue 34, item 4: a simulation draws a turn already played from its tree of dice
paths (fracas.lab.played) instead of replaying the rules, and gets what the rules give.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest

from fracas.dice.source import RandomDice
from fracas.engine.play import plan
from fracas.io.files import load
from fracas.lab.fight import file_start, outcome
from fracas.lab.played import Played
from fracas.lab.policy import Policy
from fracas.lab.sim import play
from fracas.model import Encounter, fold
from fracas.rulesets.base import Ruleset

FILES = sorted(Path("examples").glob("*.yaml"))
"""A fight of every ruleset (soak's and wasteland's dice explode: paths of every length)."""


def _cap(path: Path) -> int:
    """Actions per fight compared (a wasteland turn of the tactics takes long)."""
    return 6 if path.stem == "wasteland" else 40


@cache
def _setup(path: Path) -> tuple[Ruleset, Encounter, Policy]:
    ef = load(path)
    return ef.ruleset, file_start(ef), Policy(ef.ruleset, ef.tactics)


def _by_the_rules(
    rs: Ruleset, start: Encounter, policy: Policy, seed: int, cap: int
) -> tuple[list[Encounter], int]:
    """A fight as the simulation played it before the trees: the tactics' action, the
    rules' events on the dice, folded; every state, and the dice's next face after."""
    dice = RandomDice(seed)
    states = [start]
    while outcome(rs, states[-1]) is None and len(states) <= cap:
        state = states[-1]
        states.append(fold(state, plan(rs, state, policy.choose(state), dice)))
    return states, dice.roll(1_000_000, "after")


def _from_the_tree(
    played: Played, rs: Ruleset, start: Encounter, seed: int, cap: int
) -> tuple[list[Encounter], int]:
    dice = RandomDice(seed)
    states = [start]
    while outcome(rs, states[-1]) is None and len(states) <= cap:
        states.append(played.step(states[-1], dice)[1])
    return states, dice.roll(1_000_000, "after")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_issue_34_a_turn_drawn_from_the_tree_is_the_rules_turn(path: Path) -> None:
    """Fights of every example (soak's and wasteland's dice explode: paths of every
    length): played through the trees cold, again on the same dice
    (answered from the trees, the rules not asked), and on new dice (faces the trees
    have not met, played by the rules from there), each gives the states the rules give
    on the same dice, and leaves the dice where the rules leave them."""
    rs, start, policy = _setup(path)
    cap = _cap(path)
    seeds = [11, 12] if path.stem == "wasteland" else [11, 12, 13, 14]
    played = Played(policy)
    first = {s: _by_the_rules(rs, start, policy, s, cap) for s in seeds}
    for s in seeds:
        assert _from_the_tree(played, rs, start, s, cap) == first[s]
    asked, walked = played.rules, played.walked
    for s in seeds:
        assert _from_the_tree(played, rs, start, s, cap) == first[s]
    assert played.rules == asked  # the same dice again: every turn from the trees
    assert played.walked - walked == sum(len(states) - 1 for states, _ in first.values())
    replayed = played.replayed
    for s in (21, 22):
        assert _from_the_tree(played, rs, start, s, cap) == _by_the_rules(rs, start, policy, s, cap)
    assert played.replayed > replayed  # new faces on paths the trees had begun


def test_issue_34_a_simulation_is_the_same_with_the_trees_warm() -> None:
    """`lab sim`'s fights (the tally) are the same with a cold and a warm tree, and with
    trees dropped at their limit; the same fights again ask the rules nothing."""
    rs, start, policy = _setup(Path("examples/dice-combat.yaml"))
    played = Played(policy)
    cold = play(rs, start, policy, random.Random(5), 30, played=played)
    asked = played.rules
    warm = play(rs, start, policy, random.Random(5), 30, played=played)
    assert warm == cold
    assert played.rules == asked
    fresh = play(rs, start, Policy(rs, policy.tactics), random.Random(5), 30)
    assert fresh == cold
    small = Played(policy, limit=5)  # the trees dropped every 5 states: the same fights
    assert play(rs, start, policy, random.Random(5), 30, played=small) == cold
    assert len(small._at) <= 5
