"""Pooled and merged odds equal the plain enumeration, in every ruleset.

The exact odds draw pools as one branch per class (``fracas.dice.pools``) and follow
each (state, step) once (``fracas.rulesets.steps``); the plain enumeration rolls die by die
and follows every path whole. On random small encounters of every ruleset (each
example's combatants, played at random through the table service), every action the
rules allow is taken in both ways and the odds must be equal, exactly (where dice
explode, within the mass the two cut at their depths): a key that
tells apart less than the rule reads of its faces fails here. (Wasteland's shot d20,
read again for the creatures behind the target, WL-24, is checked by
``test_burst_odds_list_every_creature_on_the_line_of_fire``: these encounters have
no one behind a target.)
"""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest

from fracas.errors import FracasError
from fracas.io.store import open_store
from fracas.model import Action
from fracas.odds.action import action_odds
from fracas.rulesets import RULESETS, Ruleset
from fracas.table import TableService
from tests.rulesets.test_conformance import _random_action, _setup

PLAIN_PATHS = 60_000
"""The die-by-die enumeration is given up past this many paths (the pair is skipped)."""


def _candidates(table: TableService, name: str) -> list[Action]:
    t = table.open(name)
    out: list[Action] = []
    for o in t.options():
        if not o.allowed:
            continue
        params = {p: v[0] for p, v in o.choices.items() if p in o.spec.required}
        for target in o.targets[:3]:
            out.append(Action(o.actor, o.spec.name, target, params=params))
        if o.tile:
            tiles = sorted({c.at for c in t.state.combatants.values() if c.at is not None})
            out += [Action(o.actor, o.spec.name, at=tile, params=params) for tile in tiles[:2]]
    return out


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.about.name)
@pytest.mark.parametrize("seed", [1, 2])
def test_pooled_and_merged_odds_equal_the_plain_enumeration(
    ruleset: type[Ruleset], seed: int, tmp_path: Path
) -> None:
    store = open_store(tmp_path / "s.sqlite3", durable=False)
    service = TableService(store)
    table = service.create(_setup(ruleset), f"{ruleset.about.name}.yaml", seed=seed)
    rng = random.Random(seed)
    compared = 0
    for _ in range(6):
        for action in _candidates(service, table.name):
            state = table.state
            try:
                plain = action_odds(
                    table.ruleset, state, action, seconds=None, estimate=False,
                    steps=False, pools=False, max_paths=PLAIN_PATHS,
                )  # fmt: skip
            except FracasError as e:
                if e.code == "too_many_paths":
                    continue
                raise
            fast = action_odds(table.ruleset, state, action, seconds=None, estimate=False)
            assert fast.paths <= plain.paths
            compared += 1
            if not (plain.truncated or fast.truncated):
                assert fast.combatants == plain.combatants, action
                continue
            # Exploding dice: the plain enumeration cuts a path after so many rolls, the
            # pooled one a die after so many explosions; each figure may differ by no
            # more than the two cut masses.
            slack = plain.truncated + fast.truncated
            assert fast.combatants.keys() == plain.combatants.keys()
            for cid, o in plain.combatants.items():
                f = fast.combatants[cid]
                assert (o.hit is None) == (f.hit is None), (action, cid)
                assert abs((f.hit or Fraction(0)) - (o.hit or Fraction(0))) <= slack, (action, cid)
                assert abs(f.down - o.down) <= slack, (action, cid)
                for d in o.damage.keys() | f.damage.keys():
                    gap = abs(f.damage.get(d, Fraction(0)) - o.damage.get(d, Fraction(0)))
                    assert gap <= slack, (action, cid, d)
        step = _random_action(table, rng) or Action(table.state.turn.actor, "end_turn")
        try:
            table.act(step)
        except FracasError:
            table.act(Action(table.state.turn.actor, "end_turn"))
    assert compared >= 3, f"only {compared} actions compared"
