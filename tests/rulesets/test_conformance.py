"""Conformance: every registered ruleset, played at random through the table service.

From each example's starting state, the allowed actions (as "may do now" lists
them, with its targets and parameter values) are taken at random, with undo and redo
now and then. After every step: HP stays in 0..max_hp, the state hashes, the log's
sequence numbers run on without gaps, and a second service resuming the stored log
gets an equal state with an equal hash (a different route to it: the fold of the
replayed records). Refusals of listed actions are counted: "may do now" must not list
what the rules then refuse. The exact odds of each example's last action sum to 1
(less the cut mass, where dice explode). The docs' example ruleset (``docs/example/pools``)
is played too, registered for these tests only.

The one random-play harness of generated encounters too (:func:`play_generated`): each
ruleset's tests give their encounters (hypothesis strategies) and what holds after every
action (:data:`GENERATED`); the harness checks the rest, the same for every ruleset: a
refused action changes nothing (not even the generator), every state and every kept
decision hashes, the log renders, the recorded rolls replayed as given dice (no seed at
all) give the same events, rolls and states with the same hashes, step by step.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.engine.play import Engine
from fracas.errors import FracasError
from fracas.io.files import EncounterFile, parse_text
from fracas.io.store import open_store
from fracas.model import Action, Encounter
from fracas.odds.action import action_odds
from fracas.rulesets import RULESETS, Ruleset, memo, registered
from fracas.table import Table, TableService
from fracas.words.render import log_lines, state_json
from pools.rules import Pools
from tests.rulesets import builders
from tests.rulesets.dice_combat import test_properties as dice_combat
from tests.rulesets.escalation import test_properties as escalation
from tests.rulesets.soak import test_properties as soak
from tests.rulesets.tier_duel import test_properties as tier_duel

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
CASES = (*RULESETS, Pools)
"""Every shipped ruleset and the docs' example."""
OWN_EXAMPLES = {Pools.about.name: ROOT / "docs" / "example" / "pools" / "duel.yaml"}
"""The example of a ruleset that is not in ``examples/``."""


@pytest.fixture(autouse=True)
def _docs_example() -> Iterator[None]:
    with registered(Pools):
        yield


def _example(ruleset: type[Ruleset]) -> Path:
    return OWN_EXAMPLES.get(ruleset.about.name, EXAMPLES / f"{ruleset.about.name}.yaml")


def _setup(ruleset: type[Ruleset]) -> str:
    data = yaml.safe_load(_example(ruleset).read_text())
    data["actions"] = []
    return yaml.safe_dump(data)


def _random_action(table: Table, rng: random.Random) -> Action | None:
    options = [o for o in table.options() if o.allowed]
    if not options or rng.random() < 0.15:
        return None
    option = rng.choice(options)
    params = {p: rng.choice(v) for p, v in option.choices.items() if p in option.spec.required}
    actor = option.actor
    if option.targets and (not option.tile or rng.random() < 0.7):
        return Action(actor, option.spec.name, rng.choice(option.targets), params=params)
    if option.tile:
        tiles = sorted({c.at for c in table.state.combatants.values() if c.at is not None})
        return Action(actor, option.spec.name, at=rng.choice(tiles), params=params)
    return Action(actor, option.spec.name, params=params)


@pytest.mark.parametrize("ruleset", CASES, ids=lambda r: r.about.name)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_play_through_the_table(ruleset: type[Ruleset], seed: int, tmp_path: Path) -> None:
    store = open_store(tmp_path / "s.sqlite3", durable=False)
    table = TableService(store).create(_setup(ruleset), f"{ruleset.about.name}.yaml", seed=seed)
    rng = random.Random(seed)
    listed_but_refused: list[tuple[Action, str]] = []
    for _ in range(25):
        roll = rng.random()
        try:
            if roll < 0.08:
                table.undo()
            elif roll < 0.12:
                table.redo()
            elif table.outcome() is not None:  # the fight is over: an undo reopens it
                table.undo()
            else:
                action = _random_action(table, rng)
                if action is None:
                    table.act(Action(table.state.turn.actor, "end_turn"))
                else:
                    try:
                        table.act(action)
                    except FracasError as exc:
                        listed_but_refused.append((action, f"{exc.code}: {exc.message}"))
        except FracasError as exc:
            assert exc.code in ("nothing_to_undo", "nothing_to_redo"), exc
        state = table.state
        for c in state.combatants.values():
            assert 0 <= c.hp <= c.max_hp, c
        hash(state)
        assert [r.seq for r in table.log] == list(range(table.seq))
    again = TableService(open_store(store.location, durable=False)).open(table.name)
    assert again.state == table.state and hash(again.state) == hash(table.state)
    assert listed_but_refused == []


@pytest.mark.parametrize("ruleset", CASES, ids=lambda r: r.about.name)
def test_undo_returns_an_equal_state_with_an_equal_hash(
    ruleset: type[Ruleset], tmp_path: Path
) -> None:
    """The state after act + undo, and the same state folded anew from the stored log,
    are equal and hash equal to the state before."""
    store = open_store(tmp_path / "s.sqlite3", durable=False)
    table = TableService(store).create(_setup(ruleset), f"{ruleset.about.name}.yaml", seed=4)
    rng = random.Random(4)
    before = table.state
    action = _random_action(table, rng) or Action(before.turn.actor, "end_turn")
    table.act(action)
    table.undo()
    replayed = TableService(open_store(store.location, durable=False)).open(table.name).state
    assert table.state == before == replayed
    assert hash(table.state) == hash(before) == hash(replayed)


@pytest.mark.parametrize("ruleset", CASES, ids=lambda r: r.about.name)
def test_the_odds_of_each_examples_last_action_sum_to_one(ruleset: type[Ruleset]) -> None:
    ef = parse_text(_example(ruleset).read_text(), f"{ruleset.about.name}.yaml")
    engine = Engine(ef.ruleset, ef.start, ef.seed, ef.bounds)
    engine.begin(ef.dice, ef.order)
    for action in ef.actions[:-1]:
        engine.act(action)
    odds = action_odds(ef.ruleset, engine.state, ef.actions[-1], seed=ef.seed)
    assert odds.combatants
    for o in odds.combatants.values():
        assert sum(o.damage.values(), Fraction(0)) + odds.truncated == 1
        assert o.hit is None or 0 <= o.hit <= 1
        assert 0 <= o.down <= 1


# --- generated play: one harness, each ruleset's encounters and invariants -----------------

Invariants = Callable[[EncounterFile, Encounter, Encounter | None, Action | None], None]
"""What a ruleset says holds after every action: (the file, the state now, the state
before the action and the action; both None at the start)."""
Generated = tuple[dict[str, Any], list[Action], int]
"""A generated encounter: the file as data, the actions tried in turn, the seed."""


_hashed: dict[Any, Any] = {}
"""The process memo's decisions as they were when last found to hash (by key)."""


def _assert_kept_decisions_hash() -> None:
    """Every decision the process's memo keeps hashes. A decision is a frozen value
    (its hash cannot change once taken), so one kept under the same key since it was
    last hashed here is not hashed again: hashing all of them anew (up to ``DECISIONS``,
    each deeply) after every generated encounter took half the harness's time."""
    global _hashed
    kept = dict(memo._decisions)
    for key, decision in kept.items():
        if _hashed.get(key) is not decision:
            assert hash(decision) is not None
    _hashed = kept


def play_generated(case: Generated, invariants: Invariants) -> None:
    """Play a generated encounter, refused actions skipped, then replay its records with
    every die given; assert what every ruleset must keep (see the module's docstring)."""
    doc, moves, seed = case
    ef = builders.load(doc)
    engine, first = builders.begin(ef, seed)
    invariants(ef, engine.state, None, None)
    records, hashes = [first], [hash(engine.state)]
    for action in moves:
        before, length, stream = engine.state, len(engine.log), engine.random.getstate()
        try:
            records.append(engine.act(action))
        except FracasError:
            # README: an illegal action consumes nothing, not even a random die.
            assert engine.state == before
            assert len(engine.log) == length
            assert engine.random.getstate() == stream
        else:
            hashes.append(hash(engine.state))  # the state is a value
        invariants(ef, engine.state, before, action)
    _assert_kept_decisions_hash()
    start = dataclasses.replace(ef.start, order=engine.state.order)
    assert len(log_lines(start, records)) >= 1
    assert set(state_json(ef.ruleset, engine.state)["combatants"]) == set(ef.start.combatants)

    # Replay: every die from the log, by its full label; the fallback refuses to roll.
    replay = Engine(ef.ruleset, ef.start, 0)
    replay.random = builders.NoDice(0)
    again = [replay.begin(builders.rolls_by_label(first), ef.order)]
    replayed = [hash(replay.state)]
    for record in records[1:]:
        assert record.action is not None
        given_dice = builders.rolls_by_label(record)
        again.append(replay.act(dataclasses.replace(record.action, dice=given_dice)))
        replayed.append(hash(replay.state))
    assert replay.state == engine.state
    assert replayed == hashes
    assert [r.events for r in again] == [r.events for r in records]
    assert [r.rolls for r in again] == [r.rolls for r in records]


@dataclass(frozen=True)
class Generation:
    """A ruleset's generated encounters for the harness, and how many to try."""

    encounters: Callable[[], st.SearchStrategy[Generated]]
    invariants: Invariants
    examples: int


GENERATED: dict[str, Generation] = {
    "dice-combat": Generation(dice_combat.plays, dice_combat.invariants, 800),
    "escalation": Generation(escalation.encounters, escalation.invariants, 300),
    "soak": Generation(soak.encounters, soak.invariants, 200),
    "tier-duel": Generation(tier_duel.encounters, tier_duel.invariants, 250),
}
"""Each ruleset with a generator of encounters (wasteland's properties are of attacks
alone, tests/rulesets/wasteland/test_properties.py). tier-duel's run without ``--slow``."""

SLOW = pytest.mark.slow


@pytest.mark.parametrize(
    "name",
    [pytest.param(name, marks=() if name == "tier-duel" else SLOW) for name in GENERATED],
)
def test_generated_play_keeps_each_rulesets_invariants_and_replays(name: str) -> None:
    generation = GENERATED[name]

    @settings(
        max_examples=generation.examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(generation.encounters())
    def play(case: Generated) -> None:
        play_generated(case, generation.invariants)

    play()
