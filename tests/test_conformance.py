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
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

from fracas.engine import Engine
from fracas.errors import FracasError
from fracas.files import parse_text
from fracas.model import Action
from fracas.odds import action_odds
from fracas.rulesets import RULESETS, Ruleset, registered
from fracas.store import open_store
from fracas.table import Table, TableService
from pools.rules import Pools

ROOT = Path(__file__).resolve().parents[1]
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
