"""The legality pass (issue 34, item 3) agrees with deciding every action: the lab's
candidate attacks and untargeted actions, and "may do now", never offer an action the
rules refuse and never hide one they allow, on every example and on generated states.

The pass is :func:`~fracas.rulesets.memo.decision_of`: a refusal is a value kept by
what deciding read, not an exception raised for every action on every target and tile.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.engine.may_do import _required_values, options_now, param_choices
from fracas.engine.play import Engine
from fracas.errors import FracasError
from fracas.io.files import Tactic, load
from fracas.lab.fight import file_start, outcome
from fracas.lab.plans import _next_to, _untargeted, attacks, enemies_of
from fracas.lab.policy import Policy
from fracas.model import Action, Encounter
from fracas.rulesets.base import Ruleset, decide, decision_of

EXAMPLES = sorted(Path("examples").glob("*.yaml")) + sorted(Path("examples/start").glob("*.yaml"))


def every_try(ruleset: Ruleset, state: Encounter) -> list[Action]:
    """Every action of whoever's turn it is, brute force: each ruleset action taken in
    its turn, each value of its required parameters, on nothing, on every combatant, on
    every tile within one of a combatant, and on all its enemies at once."""
    actor = state.turn.actor
    side = state.get(actor).side
    enemies = tuple(c.id for c in state.combatants.values() if c.side != side)
    tiles = sorted(
        {
            (c.at[0] + dx, c.at[1] + dy)
            for c in state.combatants.values()
            if c.at is not None
            for dx, dy in itertools.product((-1, 0, 1), repeat=2)
        }
    )
    out: list[Action] = []
    for spec in ruleset.contract.actions:
        if spec.off_turn:
            continue
        choices = param_choices(ruleset, state, actor, spec)
        if any(not choices.get(p) for p in spec.required):
            continue
        for params in _required_values(spec, choices):
            if spec.targets == "none":
                out.append(Action(actor, spec.name, params=params))
                continue
            out += [Action(actor, spec.name, cid, params=params) for cid in state.combatants]
            if spec.targets == "combatants" and len(enemies) > 1:
                out.append(Action(actor, spec.name, params={**params, "targets": enemies}))
            if spec.targets == "combatant_or_tile":
                out += [Action(actor, spec.name, at=t, params=params) for t in tiles]
    return out


def _allowed(ruleset: Ruleset, state: Encounter, action: Action) -> bool:
    try:
        decide(ruleset, state, action)
    except FracasError:
        return False
    return True


def _states(path: Path, seed: int, actions: int) -> list[Encounter]:
    """The states of one fight of ``path`` from random HPs under the tactics."""
    ef = load(path)
    rng = random.Random(seed)
    start = file_start(ef)
    for c in start.combatants.values():
        if c.hp > 0:
            start = start.with_combatant(dataclasses.replace(c, hp=rng.randint(1, c.hp)))
    engine = Engine(ef.ruleset, start, seed, ef.bounds)
    policy = Policy(ef.ruleset, ef.tactics)
    out = [engine.state]
    for _ in range(actions):
        if outcome(ef.ruleset, engine.state) is not None:
            break
        engine.act(policy.choose(engine.state))
        out.append(engine.state)
    return out


def _check(path: Path, state: Encounter) -> int:
    """The pass against deciding, in ``state``; how many tries were compared."""
    ef = load(path)
    rs = ef.ruleset
    tries = every_try(rs, state)
    legal = {a: _allowed(rs, state, a) for a in tries}
    # the pass itself: a refusal exactly where deciding refuses, with the same words
    for a, ok in legal.items():
        got = decision_of(rs, state, a)
        assert (not isinstance(got, FracasError)) == ok, a
        if not ok:
            with pytest.raises(FracasError) as err:
                decide(rs, state, a)
            assert isinstance(got, FracasError)
            assert (got.code, got.message) == (err.value.code, err.value.message)
    policy = Policy(rs, ef.tactics)
    actor = state.turn.actor
    enemies = enemies_of(policy, state, actor)
    if enemies:
        offered = attacks(policy, state, enemies, Tactic(), tiles=True)
        assert all(_allowed(rs, state, a) for a in offered), "offers a refused attack"
        near = set(_next_to(state, enemies))
        hidden = [
            a
            for a, ok in legal.items()
            if ok
            and not a.params.get("targets")
            and (a.target in enemies or (a.at is not None and a.at in near))
            and a not in offered
            and rs.contract.action(a.do) is not None
            and rs.contract.action(a.do).targets != "none"  # type: ignore[union-attr]
        ]
        assert not hidden, f"hides allowed attacks: {hidden}"
        untargeted = {u for u, _ in _untargeted(policy, state, Tactic())}
        assert all(_allowed(rs, state, u) for u in untargeted)
    # may do now: the targets it offers are exactly those deciding allows
    for option in options_now(rs, state):
        if option.spec.off_turn or option.spec.targets == "none":
            continue
        want = {
            a.target
            for a, ok in legal.items()
            if ok and a.do == option.spec.name and a.target is not None
        }
        assert set(option.targets) == want, option.spec.name
    return len(tries)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_the_pass_agrees_with_deciding_on_the_examples(path: Path) -> None:
    states = _states(path, 5, 4 if path.stem == "wasteland" else 16)
    assert sum(_check(path, s) for s in states) > 0


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}-{p.stem}")
@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32))
def test_the_pass_agrees_with_deciding_on_generated_states(path: Path, seed: int) -> None:
    states = _states(path, seed, 3 if path.stem == "wasteland" else 10)
    for s in states[-3:]:
        _check(path, s)
