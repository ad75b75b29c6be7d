"""wasteland's events of turns and the order (WL-1 to WL-4, WL-29 to WL-34): Sequence, AP
refreshed, movement paid, Final Actions, Reactions and their marks, the surprise round.

Each changes the state only through :meth:`apply` (statuses through the core
``StatusSet``/``StatusCleared``); :meth:`describe` is its log line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from fracas.model import Combatant, Encounter, Event, StatusCleared
from fracas.model.frozen import evolve
from fracas.rulesets.base import sheet_as
from fracas.rulesets.wasteland.sheet import Sheet
from fracas.rulesets.wasteland.stats import SURPRISED

__all__ = [
    "MISSED_BY",
    "OPENING",
    "REGULAR",
    "USED",
    "Defended",
    "MissedInMelee",
    "MovementPaid",
    "OpeningPassed",
    "OverwatchEntered",
    "PeekEnded",
    "Peeked",
    "Reacted",
    "ReactionUsed",
    "RoundEnded",
    "SequenceOrdered",
    "SurpriseRound",
    "TurnRefreshed",
    "used",
]


def _marked(state: Encounter, cid: str, mark: str) -> Encounter:
    """``state`` with ``mark`` added to ``cid``'s marks."""
    c = state.get(cid)
    return state.with_combatant(evolve(c, marks=c.marks | {mark}))


@dataclass(frozen=True, slots=True)
class SequenceOrdered(Event):
    """WL-1: the turn order by Sequence, highest first, with each combatant's Sequence."""

    order: tuple[str, ...]
    sequences: tuple[int, ...]

    def describe(self, state: Encounter) -> str | None:
        listing = ", ".join(
            f"{state.name(cid)} {seq}" for cid, seq in zip(self.order, self.sequences, strict=True)
        )
        return f"Sequence order: {listing}"


@dataclass(frozen=True, slots=True)
class TurnRefreshed(Event):
    """WL-3, WL-34: AP (less any debt) and MAP replenish at the start of the turn."""

    actor: str
    ap: int
    map: int
    debt: int

    def apply(self, state: Encounter) -> Encounter:
        c = state.get(self.actor)
        marks = frozenset(m for m in c.marks if not m.startswith(TURN_MARKS))
        c = evolve(c, marks=marks)
        return state.with_sheet(c, ap=self.ap, map=self.map, ap_debt=0)

    def describe(self, state: Encounter) -> str | None:
        owed = f" ({self.debt} owed from an overflowed action)" if self.debt else ""
        return f"  {state.name(self.actor)} has {self.ap} AP, {self.map} MAP{owed}"


USED = "used:"
"""Marks of Reactions and Free Reactions used since the combatant's turn began (WL-31)."""
MISSED_BY = "missed_by:"
"""Marks of combatants whose melee attack missed this one since its turn began (WL-36)."""
TURN_MARKS = (USED, MISSED_BY)
"""WL-3: Reactions and Free Reactions replenish at the start of the turn."""


def used(c: Combatant, kind: str) -> int:
    """How many reactions of ``kind`` ``c`` used since its turn began (WL-31)."""
    return sum(1 for m in c.marks if m.startswith(f"{USED}{kind}:"))


@dataclass(frozen=True, slots=True)
class ReactionUsed(Event):
    """WL-31: a Reaction or a Free Reaction (``reaction``, ``opportunity``, ``riposte``)."""

    actor: str
    kind: str

    def apply(self, state: Encounter) -> Encounter:
        count = used(state.get(self.actor), self.kind) + 1
        return _marked(state, self.actor, f"{USED}{self.kind}:{count}")


@dataclass(frozen=True, slots=True)
class MissedInMelee(Event):
    """WL-36: ``attacker``'s melee attack missed ``target`` (a Riposte may answer it)."""

    target: str
    attacker: str

    def apply(self, state: Encounter) -> Encounter:
        return _marked(state, self.target, f"{MISSED_BY}{self.attacker}")


@dataclass(frozen=True, slots=True)
class MovementPaid(Event):
    """WL-2: a Movement Action's cost, MAP first, then AP."""

    actor: str
    map: int
    ap: int

    def apply(self, state: Encounter) -> Encounter:
        c = state.get(self.actor)
        sheet = sheet_as(c, Sheet)
        return state.with_sheet(c, map=(sheet.map or 0) - self.map, ap=(sheet.ap or 0) - self.ap)

    def describe(self, state: Encounter) -> str | None:
        sheet = sheet_as(state.get(self.actor), Sheet)
        map_, ap = sheet.map or 0, sheet.ap or 0
        return (
            f"{state.name(self.actor)} spends {self.map + self.ap} on movement: MAP {map_} -> "
            f"{map_ - self.map}, AP {ap} -> {ap - self.ap}"
        )


OPENING = "opening"
"""Encounter value: 1 until the first own-turn action of the encounter (WL-33)."""
REGULAR = "regular_order:"
"""Marks of each combatant's place in the regular order during a surprise round (WL-33)."""


@dataclass(frozen=True, slots=True)
class OpeningPassed(Event):
    """WL-33: the first own-turn action of the encounter was taken; later Sneak Attacks
    are not at the opening of combat."""

    keeps_down: ClassVar[bool] = True
    """An encounter value only ``decide`` reads (whether a Sneak Attack opens the
    fight), never who is down nor a later event's ``apply``: exact odds need not fold it
    to see who is down."""

    def apply(self, state: Encounter) -> Encounter:
        return state.with_value(OPENING, 0)


@dataclass(frozen=True, slots=True)
class SurpriseRound(Event):
    """WL-33: an opening Sneak Attack landed: the attacker's side goes first this round
    (the attacker, then its side, then the rest, each in the regular order) and the
    victim's side is Surprised until the round ends; the regular order comes back then."""

    attacker: str
    victims: tuple[str, ...]
    order: tuple[str, ...]
    regular: tuple[str, ...]
    status: bool
    """Whether the victims take the ``surprised`` status (option ``surprised_skips``)."""

    def apply(self, state: Encounter) -> Encounter:
        for i, cid in enumerate(self.regular):
            state = _marked(state, cid, f"{REGULAR}{i}")
        for cid in self.victims:
            c = state.get(cid)
            if self.status:
                c = c.with_status(SURPRISED, {})
            state = state.with_sheet(c, surprised=True)
        return evolve(state, order=self.order)

    def describe(self, state: Encounter) -> str | None:
        first = ", ".join(state.name(cid) for cid in self.order)
        victims = ", ".join(state.name(cid) for cid in self.victims)
        return (
            f"  surprise round: {state.name(self.attacker)}'s side goes first (this round: "
            f"{first}); {victims} surprised until the round ends"
        )


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """WL-33, WL-G16: the round ends; surprised combatants may act from now on."""

    surprised: tuple[str, ...]
    order: tuple[str, ...] = ()
    """The regular order, back after a surprise round (WL-33); empty: unchanged."""

    def apply(self, state: Encounter) -> Encounter:
        for cid in self.surprised:
            state = state.with_sheet(state.get(cid).without_status(SURPRISED), surprised=False)
        if not self.order:
            return state
        for cid in self.order:
            c = state.get(cid)
            marks = frozenset(m for m in c.marks if not m.startswith(REGULAR))
            state = state.with_combatant(evolve(c, marks=marks))
        return evolve(state, order=self.order)

    def describe(self, state: Encounter) -> str | None:
        names = ", ".join(state.name(cid) for cid in self.surprised)
        line = "  the surprise round is over" + (f": {names} may act" if names else "")
        if self.order:
            line += f"; the regular order is back: {', '.join(map(state.name, self.order))}"
        return line


@dataclass(frozen=True, slots=True)
class Defended(Event):
    """WL-29: a Defend, a Final Action (the status and the AP are their own events)."""

    actor: str
    bonus: int

    def describe(self, state: Encounter) -> str | None:
        return f"{state.name(self.actor)} defends: +{self.bonus} Evasion until its next turn"


@dataclass(frozen=True, slots=True)
class OverwatchEntered(Event):
    """WL-30: Overwatch entered in a mode with an allowance of shots."""

    actor: str
    mode: str
    shots: int

    def describe(self, state: Encounter) -> str | None:
        name = state.name(self.actor)
        return f"{name} enters Overwatch ({self.mode}, {self.shots} shot(s))"


@dataclass(frozen=True, slots=True)
class Reacted(Event):
    """WL-31: a Reaction by name; the game master applies what it does."""

    actor: str
    name: str

    def describe(self, state: Encounter) -> str | None:
        what = self.name.replace("_", " ")
        return f"{state.name(self.actor)} reacts: {what} (the GM applies it)"


@dataclass(frozen=True, slots=True)
class Peeked(Event):
    """WL-32: a peek from full cover (the ``peeking`` status is its own event)."""

    actor: str

    def describe(self, state: Encounter) -> str | None:
        return f"{state.name(self.actor)} peeks from full cover (half cover this turn)"


@dataclass(frozen=True, slots=True)
class PeekEnded(StatusCleared):
    """WL-32: the peek ends with the turn (quietly: the turn's end says so)."""

    def describe(self, state: Encounter) -> str | None:
        return None
