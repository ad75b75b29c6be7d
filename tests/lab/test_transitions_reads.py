"""The rolling step's enumeration is kept by what the steps read (issue 34, item 2):
not by what the folds between its steps read, unless a later step reads the state
they made; and always equal to the plain enumeration."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from fracas.dice.source import Dice
from fracas.io.files import load, parse_text
from fracas.lab.fight import file_start, next_states
from fracas.lab.policy import Policy
from fracas.lab.transitions import Transitions, _Read, _roll_events
from fracas.model import Encounter, Event
from fracas.rulesets.base import Ruleset
from fracas.rulesets.steps import Then
from tests.lab.test_transitions import TWO_V_TWO


def _with_ap(state: Encounter, cid: str, ap: int) -> Encounter:
    return state.with_sheet(cid, ap=ap)


def test_a_wasteland_attack_is_enumerated_once_for_every_ap_it_does_not_read() -> None:
    """The attack's dice never read the attacker's AP (only deciding does, and its
    decision is the same while the AP pays for the attack): one enumeration serves
    9 AP and 6 AP, each equal to the plain enumeration."""
    ef = load(Path("examples/start/wasteland.yaml"))
    start = file_start(ef)
    actor = start.turn.actor
    action = Policy(ef.ruleset, ef.tactics).choose(start)
    assert action.do == "attack", action
    t = Transitions(ef.ruleset)
    for ap in (9, 8, 6):
        s = _with_ap(start, actor, ap)
        got = t.next_states(s, action, max_paths=10**5)
        want = next_states(ef.ruleset, s, action, max_paths=10**5)
        assert got.states == want.states and got.truncated == want.truncated
    assert (t.enumerations, t.shared) == (1, 2)


# --- a roll whose later step reads the state its fold made ----------------------


@dataclass(frozen=True, slots=True)
class _Copied(Event):
    """Writes the length of ``src``'s name into the encounter's values: a fold that
    reads a combatant the steps never look up."""

    src: str

    def apply(self, state: Encounter) -> Encounter:
        return state.with_value("seen", len(state.get(self.src).name))


@dataclass(frozen=True, slots=True)
class _Said(Event):
    n: int

    def apply(self, state: Encounter) -> Encounter:
        return state.with_value("said", self.n)


@dataclass(frozen=True)
class _First:
    """Reads nothing of the state; its fold reads ``src``."""

    src: str
    then: Any

    def roll(self, rules: Ruleset, state: Encounter, dice: Dice) -> list[Event]:
        return [_Copied(self.src), Then(self.then)]


@dataclass(frozen=True)
class _ReadsValues:
    """A later step that reads what the fold wrote."""

    def roll(self, rules: Ruleset, state: Encounter, dice: Dice) -> list[Event]:
        return [_Said(state.values["seen"])]


@dataclass(frozen=True)
class _ReadsNothing:
    def roll(self, rules: Ruleset, state: Encounter, dice: Dice) -> list[Event]:
        return [_Said(1)]


def _renamed(state: Encounter, cid: str, name: str) -> Encounter:
    return state.with_combatant(dataclasses.replace(state.get(cid), name=name))


def test_a_later_step_reading_the_fold_keys_by_what_the_fold_read() -> None:
    """A step after a fold that reads the folded state is keyed by what the fold read
    (Bo's record: his name's length is what the step says), so another name of Bo is
    no hit; where the later step reads nothing, the fold's reads are not in the key."""
    ef = parse_text(TWO_V_TWO)
    rs, start = ef.ruleset, file_start(ef)
    made = _roll_events(rs, start, _First("bo", _ReadsValues()), 100)
    assert made is not None
    events, read = made
    assert read is not None and read.combatants is not None and "bo" in read.combatants
    assert "values" in read.fields
    assert events.outcomes == {(_Copied("bo"), _Said(2)): Fraction(1)}
    other = _roll_events(rs, _renamed(start, "bo", "Boris"), _First("bo", _ReadsValues()), 100)
    assert other is not None and other[0].outcomes == {(_Copied("bo"), _Said(5)): Fraction(1)}
    assert read.values(start) != read.values(_renamed(start, "bo", "Boris"))

    made = _roll_events(rs, start, _First("bo", _ReadsNothing()), 100)
    assert made is not None and made[1] == _Read((), ())
