"""The shared transitions: one enumeration serves every HP only where the rolling step
provably never read one, and the result always equals the plain enumeration."""

from __future__ import annotations

import contextlib
import dataclasses
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fracas.engine.play import Engine
from fracas.io.files import EncounterFile, load, parse_text
from fracas.lab.fight import file_start, next_states, outcome
from fracas.lab.policy import Policy
from fracas.lab.transitions import (
    _TRACED,
    Transitions,
    _Read,
    _Reads,
    _roll_events,
    _traced,
    _Used,
)
from fracas.model import Action, Damaged, Encounter
from fracas.rulesets.steps import Then
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
    policy = Policy(ef.ruleset, ef.tactics)
    shared = Transitions(ef.ruleset)
    for state in played(ef, policy, path.stem, 6 if path.stem == "wasteland" else 20):
        action = policy.choose(state)
        got = shared.next_states(state, action, max_paths=200_000)
        want = next_states(ef.ruleset, state, action, max_paths=200_000)
        assert got.states == want.states and got.truncated == want.truncated


def played(ef: EncounterFile, policy: Policy, seed: str, steps: int) -> Iterator[Encounter]:
    """The states of two fights from the file's start with random HPs (from ``seed``),
    up to ``steps`` actions each under ``policy``, until a side wins."""
    rng = random.Random(seed)
    for _ in range(2):
        start = file_start(ef)
        for c in start.combatants.values():
            if c.hp > 0:
                start = start.with_combatant(dataclasses.replace(c, hp=rng.randint(1, c.hp)))
        engine = Engine(ef.ruleset, start, rng.getrandbits(32), ef.bounds)
        for _ in range(steps):
            state = engine.state
            if outcome(ef.ruleset, state) is not None:
                break
            yield state
            engine.act(policy.choose(state))


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


TWO_V_TWO = """
ruleset: dice-combat
order: [ana, bo, cy, dee]
combatants:
  - {id: ana, name: Ana, side: players, at: [0, 0], hand: {is: pistol, loaded: 8}}
  - {id: bo, name: Bo, side: raiders, at: [1, 0], hand: knife}
  - {id: cy, name: Cy, side: players, at: [0, 1], hand: club}
  - {id: dee, name: Dee, side: raiders, at: [4, 1], hand: {is: pistol, loaded: 8}}
"""


def _loaded(state: Encounter, cid: str, n: int) -> Encounter:
    c = state.get(cid)
    hand = dataclasses.replace(c.sheet.hand, loaded=n)
    return state.with_combatant(
        dataclasses.replace(c, sheet=dataclasses.replace(c.sheet, hand=hand))
    )


def test_what_the_rolling_step_read_is_shared_across_the_rest() -> None:
    """DC-9: Ana's shot at Bo reads neither Dee's pistol nor Cy: one enumeration serves
    every load of Dee's pistol (and every HP), each equal to the plain enumeration;
    Ana's own load is read (the ammo die, DC-9), so a different load enumerates again."""
    ef = parse_text(TWO_V_TWO)
    start = file_start(ef)
    t = Transitions(ef.ruleset)
    action = Action("ana", "attack", "bo")
    for n in (8, 5, 1):
        s = _loaded(start, "dee", n)
        s = s.with_combatant(dataclasses.replace(s.get("cy"), hp=n))
        got = t.next_states(s, action, max_paths=10**5)
        assert got.states == next_states(ef.ruleset, s, action, max_paths=10**5).states
    assert (t.enumerations, t.shared) == (1, 2)
    t.next_states(_loaded(start, "ana", 3), action, max_paths=10**5)
    assert t.enumerations == 2


def test_a_wide_look_reads_every_combatant() -> None:
    """Iterating, counting or copying the traced state's combatants counts as reading
    all of them; a look-up by id notes that id only."""
    ef = parse_text(TWO_V_TWO)
    state = _traced(file_start(ef))
    for look, wide in (
        (lambda s: s.get("bo"), False),
        (lambda s: "dee" in s.combatants, False),
        (lambda s: list(s.combatants.values()), True),
        (lambda s: len(s.combatants), True),
        (lambda s: dict(s.combatants), True),
        (lambda s: dataclasses.replace(s, round=3), True),
        (lambda s: hash(s), True),
    ):
        _Reads.reset()
        with contextlib.suppress(_Used):  # an HP hashed: refused, after the look
            look(state)
        read = _Reads.read()
        assert (read is None) == wide, look
    _Reads.reset()
    state.get("bo")
    _ = state.turn
    assert _Reads.read() == _Read(("turn",), ("bo",))
    _Reads.reset()


WHELM = """
ruleset: escalation
combatants:
  - {id: ana, side: players, at: [0, 0], melee_rating: 3, whelm_rating: 2,
     weapons: [{is: melee, name: sword}, {is: whelm, name: fireball}]}
  - {id: bo, side: enemies, at: [1, 0], melee_rating: 1}
  - {id: cy, side: enemies, at: [2, 2], size: small}
"""


def test_ES_8_a_whelm_on_two_is_shared_across_hp_though_it_folds_damage_between() -> None:
    """ES-8 to ES-11: each target's trigger is a step of its own, rolled on the state
    after the damage to the one before. That fold reads the damaged one's HP (HP stops at
    0); no later step does, so the HP after it is left unknown in the trace, and one
    enumeration serves every HP, each equal to the plain enumeration."""
    ef = parse_text(WHELM)
    start = file_start(ef)
    t = Transitions(ef.ruleset)
    action = Action("ana", "attack", params={"targets": ("bo", "cy"), "weapon": "fireball"})
    for hp in (12, 5, 2, 1):
        s = start.with_combatant(dataclasses.replace(start.get("bo"), hp=hp))
        s = s.with_combatant(dataclasses.replace(s.get("cy"), hp=hp))
        got = t.next_states(s, action, max_paths=10**5)
        want = next_states(ef.ruleset, s, action, max_paths=10**5)
        assert got.states == want.states and len(got.states) > 2
    assert (t.enumerations, t.shared) == (1, 3)


@dataclasses.dataclass(frozen=True)
class _Hurt:
    """A toy roll: 1 damage to bo, then (a step of its own) a d2 only where bo is still
    above 1 HP: the step after the fold reads the HP the damage left."""

    def roll(self, rules: Any, state: Encounter, dice: Any) -> list[Any]:
        return [Damaged("bo", 1), Then(_AfterHurt())]


@dataclasses.dataclass(frozen=True)
class _AfterHurt:
    def roll(self, rules: Any, state: Encounter, dice: Any) -> list[Any]:
        if state.get("bo").hp > 1:
            return [Damaged("bo", dice.roll(2, "extra"))]
        return []


def test_a_step_that_reads_the_hp_a_fold_left_is_not_shared() -> None:
    ef = parse_text(WHELM)
    start = file_start(ef)
    for hp in (12, 2):
        s = start.with_combatant(dataclasses.replace(start.get("bo"), hp=hp))
        made = _roll_events(ef.ruleset, s, _Hurt(), 100)
        assert made is not None
        events, proven = made
        assert proven is None  # the HP was read: kept for this state only
        extra = {run for run in events.outcomes if isinstance(run, tuple) and len(run) > 1}
        assert bool(extra) == (hp > 2)
