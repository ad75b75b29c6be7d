"""The shared transitions: one enumeration serves every HP only where the rolling step
provably never read one, and the result always equals the plain enumeration."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest

from fracas.engine import Engine
from fracas.files import load, parse_text
from fracas.lab.fight import file_start, next_states, outcome
from fracas.lab.policy import Policy
from fracas.lab.transitions import _TRACED, Transitions, _Used
from tests.lab.duels import DC_PISTOL, duel

EXAMPLES = sorted(Path("examples").glob("*.yaml"))


def test_a_traced_hp_refuses_every_use() -> None:
    hp: Any = _TRACED
    for use in (
        lambda: hp == 0,
        lambda: hp - 1,
        lambda: 1 + hp,
        lambda: max(0, hp),
        lambda: hash(hp),
        lambda: f"{hp}",
        lambda: range(hp),
        lambda: bool(hp),
        lambda: [1, 2][hp],
        lambda: format(hp, "d"),
        lambda: "%d" % (hp,),  # noqa: UP031
        lambda: hp.bit_length(),
        lambda: min(hp, 3),
        lambda: sum([hp]),
    ):
        with pytest.raises(_Used):
            use()


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_shared_transitions_equal_the_plain_enumeration(path: Path) -> None:
    """Along a played fight with random HPs, every action's next states through the
    shared cache equal the plain enumeration (whatever the ruleset reads)."""
    ef = load(path)
    rng = random.Random(path.stem)
    policy = Policy(ef.ruleset, ef.tactics)
    shared = Transitions(ef.ruleset)
    for _ in range(2):
        start = file_start(ef)
        for c in start.combatants.values():
            if c.hp > 0:
                start = start.with_combatant(dataclasses.replace(c, hp=rng.randint(1, c.hp)))
        engine = Engine(ef.ruleset, start, rng.getrandbits(32), ef.bounds)
        for _ in range(6 if path.stem == "wasteland" else 20):
            state = engine.state
            if outcome(ef.ruleset, state) is not None:
                break
            action = policy.choose(state)
            got = shared.next_states(state, action, max_paths=200_000)
            want = next_states(ef.ruleset, state, action, max_paths=200_000)
            assert got.states == want.states and got.truncated == want.truncated
            engine.act(action)


def test_dice_combat_attack_is_shared_across_hp() -> None:
    """DC-9: a pistol shot's dice never depend on HP: one enumeration for all HPs."""
    ef = parse_text(duel(DC_PISTOL, 12, 12))
    start = file_start(ef)
    t = Transitions(ef.ruleset)
    action = Policy(ef.ruleset).choose(start)
    for hp in (12, 7, 3):
        s = start.with_combatant(dataclasses.replace(start.get("bo"), hp=hp))
        assert t.next_states(s, action, max_paths=10**5).states == (
            next_states(ef.ruleset, s, action, max_paths=10**5).states
        )
    assert (t.enumerations, t.shared) == (1, 2)
