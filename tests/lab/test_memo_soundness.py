"""Memos kept by what was read (issue 34, item 2) give exactly what recomputing gives.

Every example (``examples/*.yaml``, ``examples/start/*.yaml``) and generated states
(hypothesis: random HPs and dice) are played by the lab's tactics twice: with the memos
on (:func:`~fracas.rulesets.memo.decision_of`'s decisions kept by the combatants
deciding read, the lab's enumerations and scores shared between states), warmed first
by other fights of the same file so that later states are answered from other states'
entries; and with them off (:func:`~fracas.rulesets.memo.memos`), in a fresh decision
memo. The actions chosen, the advisor's whole ranking, every event, every decision and
every refusal, and the exact odds must be equal.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.engine.play import Engine
from fracas.errors import FracasError
from fracas.io.files import EncounterFile, load, parse_text
from fracas.lab.chain import win_odds
from fracas.lab.fight import canonical, file_start, outcome
from fracas.lab.plans import rank
from fracas.lab.policy import Policy
from fracas.lab.transitions import Transitions
from fracas.model import Action, Encounter
from fracas.odds.action import action_odds
from fracas.rulesets import base, memo
from fracas.rulesets.base import Decisions, decide, decision_of, keeping_decisions, memos
from tests.lab.test_legal_pass import every_try

EXAMPLES = sorted(Path("examples").glob("*.yaml")) + sorted(Path("examples/start").glob("*.yaml"))
SHORT = {"wasteland": 6}
"""Actions played per fight (wasteland's cost seconds each)."""


def _actions(path: Path) -> int:
    return SHORT.get(path.stem, 24)


def _shuffled(state: Encounter, rng: random.Random) -> Encounter:
    """``state`` with random HPs (1..its HP) for every combatant standing."""
    out = state
    for c in state.combatants.values():
        if c.hp > 0:
            out = out.with_combatant(dataclasses.replace(c, hp=rng.randint(1, max(1, c.hp))))
    return out


def _said(got: object) -> object:
    """A decision as itself, a refusal by its class, code and words."""
    if isinstance(got, FracasError):
        return (type(got), got.code, got.message)
    return got


def _plain(ruleset: base.Ruleset, state: Encounter, action: Action) -> object:
    try:
        return decide(ruleset, state, action)
    except FracasError as exc:
        return (type(exc), exc.code, exc.message)


def _fight(path: Path, seed: int, on: bool, *, ranked: int = 3) -> list[Any]:
    """One fight of ``path`` from random HPs (``seed``) under the tactics, memos ``on``
    or off: each state's chosen action and the events it made, the advisor's whole
    ranking of the first ``ranked`` states, and (memos on) every decision and refusal
    of every action tried in every state, checked against a plain decide."""
    ef = load(path)
    start = _shuffled(file_start(ef), random.Random(seed))
    out: list[Any] = []
    with memos(on), keeping_decisions(Decisions()):
        engine = Engine(ef.ruleset, start, seed, ef.bounds)
        policy = Policy(ef.ruleset, ef.tactics)
        for i in range(_actions(path)):
            state = engine.state
            if outcome(ef.ruleset, state) is not None:
                break
            if i < ranked:
                plans = rank(policy, canonical(state), every=True)
                out.append([(p.steps, p.key, p.score, p.why) for p in plans])
            if on:  # a memo hit is what deciding again gives
                for action in every_try(ef.ruleset, state):
                    got = decision_of(ef.ruleset, state, action)
                    assert _said(got) == _plain(ef.ruleset, state, action), action
            action = policy.choose(state)
            record = engine.act(action)
            out.append((action, record.rolls, record.events))
    return out


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_examples_play_alike_with_and_without_memos(path: Path) -> None:
    _fight(path, 101, True, ranked=0)  # warms the memos with another fight's states
    assert _fight(path, 7, True) == _fight(path, 7, False)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}-{p.stem}")
@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32))
def test_generated_states_play_alike_with_and_without_memos(path: Path, seed: int) -> None:
    assert _fight(path, seed, True, ranked=1) == _fight(path, seed, False, ranked=1)


def test_memo_hits_are_met() -> None:
    """The memo serves other states: deciding Ana's attack on Bo once serves every state
    where only the others (Cy's, Dee's HP) differ, and its refusal is a value."""
    ef = load(Path("examples/start/dice-combat.yaml"))
    state = file_start(ef)
    rs = ef.ruleset
    base.forget_decisions()
    actor = state.turn.actor
    target = next(c for c in state.combatants.values() if c.side != state.get(actor).side)
    other = next(c for c in state.combatants.values() if c.id not in (actor, target.id))
    action = Action(actor, "attack", target.id)
    first = decision_of(rs, state, action)
    hits = memo._by_reads.hits
    changed = state.with_combatant(dataclasses.replace(other, hp=max(0, other.hp - 1)))
    assert decision_of(rs, changed, action) is first  # kept by what was read
    assert memo._by_reads.hits == hits + 1
    self_attack = decision_of(rs, state, Action(actor, "attack", actor))
    assert isinstance(self_attack, FracasError) and self_attack.code == "self_target"
    with pytest.raises(FracasError) as err:  # decided raises a copy of the kept refusal
        base.decided(rs, state, Action(actor, "attack", actor))
    assert err.value is not self_attack and err.value.message == self_attack.message
    with memos(False):
        assert decision_of(rs, changed, action) is not first  # decided afresh
        assert decision_of(rs, changed, action) == first


PISTOLS = """
ruleset: dice-combat
order: [ana, bo]
combatants:
  - {id: ana, name: Ana, side: a, at: [0, 0], hp: 6, max_hp: 6, hand: {is: pistol, loaded: 8}}
  - {id: bo, name: Bo, side: b, at: [3, 0], hp: 6, max_hp: 6, hand: {is: pistol, loaded: 8}}
"""


def _win(text: str, on: bool) -> tuple[dict[str, Fraction], Fraction, int]:
    ef = parse_text(text)
    with memos(on), keeping_decisions(Decisions()):
        odds = win_odds(ef.ruleset, file_start(ef), Policy(ef.ruleset, ef.tactics))
    return dict(odds.sides), odds.draw, odds.states


@pytest.mark.parametrize(
    "text",
    [PISTOLS, Path("examples/lab/smg-duel.yaml").read_text()],
    ids=["pistols", "smg-duel"],
)
def test_exact_chain_equal_with_and_without_memos(text: str) -> None:
    assert _win(text, True) == _win(text, False)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_exact_odds_of_every_attack_equal_with_and_without_memos(path: Path) -> None:
    """``fracas odds`` of each attack the actor may make now, memos on and off."""
    ef = load(path)
    state = file_start(ef)
    for on in (True, False):
        got = []
        with memos(on), keeping_decisions(Decisions()):
            for action in every_try(ef.ruleset, state):
                if action.target is None or isinstance(
                    decision_of(ef.ruleset, state, action), FracasError
                ):
                    continue
                odds = action_odds(ef.ruleset, state, action, max_paths=3_000)
                got.append((action, odds.combatants, odds.estimate))
        if on:
            with_memos = got
    assert with_memos == got


# --- the rolling step's enumeration kept by what its steps read ------------------


def _next(t: Transitions, state: Encounter, action: Action) -> object:
    """The exact next states of ``action`` through ``t`` (or its refusal, said)."""
    try:
        got = t.next_states(state, action, max_paths=20_000)
    except FracasError as exc:
        return (type(exc), exc.code, exc.message)
    return (got.states, got.paths, got.truncated)


def _along(ef: EncounterFile, policy: Policy, seeds: list[int], states: int) -> Iterator[Encounter]:
    """The states of fights of ``ef`` from random HPs (each seed's), at most ``states``
    a fight, each followed by the action ``policy`` chooses in it."""
    for seed in seeds:
        start = _shuffled(file_start(ef), random.Random(seed))
        engine = Engine(ef.ruleset, start, seed, ef.bounds)
        for _ in range(states):
            state = engine.state
            if outcome(ef.ruleset, state) is not None:
                break
            yield state
            engine.act(policy.choose(state))


def _enumerated_alike(path: Path, seeds: list[int], states: int) -> None:
    """Along fights of ``path`` from random HPs (each seed's), every action the actor
    may try in every state: its exact next states through one :class:`Transitions`
    shared by every state and fight, memos on, equal the plain enumeration's (memos
    off); and where a state's events were shared, the kept events are that state's."""
    ef = load(path)
    rs = ef.ruleset
    shared = Transitions(rs)
    for state in _along(ef, Policy(rs, ef.tactics), seeds, states):
        for action in every_try(rs, state):
            if action.at is not None:
                continue  # walks: core actions, never shared
            with keeping_decisions(Decisions()):
                got = _next(shared, state, action)
            with memos(False), keeping_decisions(Decisions()):
                want = _next(Transitions(rs), state, action)
            assert got == want, action
    assert shared.shared + shared.enumerations > 0


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_every_enumeration_equal_with_and_without_memos(path: Path) -> None:
    _enumerated_alike(path, [3, 11], 3 if path.stem == "wasteland" else 8)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}-{p.stem}")
@settings(max_examples=2, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32))
def test_generated_enumerations_equal_with_and_without_memos(path: Path, seed: int) -> None:
    _enumerated_alike(path, [seed], 2 if path.stem == "wasteland" else 5)


def test_exact_chain_of_an_example_equal_with_and_without_memos() -> None:
    """The one example whose exact chain is small (tier-duel's): the same odds."""
    text = Path("examples/tier-duel.yaml").read_text()
    assert _win(text, True) == _win(text, False)


# --- the scores kept by what their folds read (issue 34) --------------------------------


def _scores_alike(path: Path, seeds: list[int], states: int) -> None:
    """Along fights of ``path`` from random HPs (each seed's), every attack the tactics
    consider in every state: its score through one policy shared by every state and
    fight, memos on (scores kept by what the folds read, each run's gain made without a
    whole state: :func:`~fracas.lab.folds.traced_gains`), equals a fresh policy's with
    memos off (every run folded onto the state)."""
    from fracas.io.files import Tactic
    from fracas.lab.plans import attacks, enemies_of

    ef = load(path)
    rs = ef.ruleset
    shared = Policy(rs, ef.tactics)
    checked = 0
    for state in _along(ef, shared, seeds, states):
        actor = state.turn.actor
        enemies = enemies_of(shared, state, actor)
        for action in attacks(shared, state, enemies, ef.tactics.get(actor, Tactic())):
            with keeping_decisions(Decisions()):
                got = shared.score(state, action)
            with memos(False), keeping_decisions(Decisions()):
                want = Policy(rs, ef.tactics).score(state, action)
            assert got == want, action
            checked += 1
    assert checked or path.stem in SHORT


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_every_score_equal_with_and_without_memos(path: Path) -> None:
    _scores_alike(path, [5, 13], 3 if path.stem == "wasteland" else 10)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}-{p.stem}")
@settings(max_examples=2, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32))
def test_generated_scores_equal_with_and_without_memos(path: Path, seed: int) -> None:
    _scores_alike(path, [seed], 2 if path.stem == "wasteland" else 6)
