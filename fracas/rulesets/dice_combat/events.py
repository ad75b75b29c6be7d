"""dice-combat's own events: what changes in hands and guns, the roll records, and the
facts the log reports (a critical failure, a thrown weapon left in hand, an empty blast)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from fracas.model import Combatant, Encounter, Event
from fracas.model.frozen import evolve
from fracas.model.grid import Tile
from fracas.rulesets.base import sheet_as
from fracas.rulesets.dice_combat.data import BEGAN_UNARMED
from fracas.rulesets.dice_combat.items import Item
from fracas.rulesets.dice_combat.sheet import Sheet
from fracas.rulesets.hands import equipped, held, with_hand
from fracas.rulesets.words import attached_terms as _terms

__all__ = [
    "AmmoFired",
    "AttackRolled",
    "BlastEmpty",
    "CriticalFailure",
    "DefenceRolled",
    "Equipped",
    "HandEmptied",
    "Reloaded",
    "Scattered",
    "ScrapFloored",
    "StaysInHand",
]


def _hand(c: Combatant) -> Item:
    hand: Item = held(c)
    return hand


def _dice(naturals: tuple[int, ...], natural: int) -> str:
    if len(naturals) == 1:
        return f"d20 {natural}"
    return f"d20 {natural} (of {', '.join(map(str, naturals))})"


@dataclass(frozen=True, slots=True)
class AttackRolled(Event):
    """The attack roll: naturals, the kept natural, the modifiers and the total."""

    actor: str
    how: str
    """What the log says the actor does, e.g. ``attacks Bo with pistol (close, 5 tiles)``."""
    prose: ClassVar[tuple[str, ...]] = ("how",)
    naturals: tuple[int, ...]
    natural: int
    parts: tuple[tuple[str, int], ...]
    total: int
    critical: str | None
    """``success`` or ``failure`` by the actor's profile (DC-35, DC-36), or None."""

    def describe(self, state: Encounter) -> str | None:
        crit = {"success": " (critical success)", "failure": ""}.get(self.critical or "", "")
        return (
            f"{state.name(self.actor)} {self.how}: "
            f"{_dice(self.naturals, self.natural)}{_terms(self.parts)} = {self.total}{crit}"
        )


@dataclass(frozen=True, slots=True)
class DefenceRolled(Event):
    """A defender's roll against an attack total, and whether the attack lands."""

    target: str
    defend: str
    """``close`` or ``ranged``."""
    naturals: tuple[int, ...]
    natural: int
    parts: tuple[tuple[str, int], ...]
    total: int
    fumbled: bool
    hit: bool

    def describe(self, state: Encounter) -> str | None:
        verdict = "HIT" if self.hit else "miss"
        fumble = " (critical failure: hits whatever the totals)" if self.fumbled else ""
        return (
            f"  {state.name(self.target)} defends ({self.defend}): "
            f"{_dice(self.naturals, self.natural)}{_terms(self.parts)} = {self.total}"
            f"{fumble} -> {verdict}"
        )


@dataclass(frozen=True, slots=True)
class AmmoFired(Event):
    """DC-9: the rounds the system removes from the gun in hand."""

    keeps_down: ClassVar[bool] = True
    """Rounds are not HP, and no later event's ``apply`` in the attack reads them: exact
    odds need not fold it to see who is down (``fracas.odds.outcomes``)."""

    actor: str
    rolled: int
    fired: int

    def apply(self, state: Encounter) -> Encounter:
        c = state.get(self.actor)
        return with_hand(state, c, loaded=(_hand(c).loaded or 0) - self.fired)

    def describe(self, state: Encounter) -> str | None:
        hand = _hand(state.get(self.actor))
        left = (hand.loaded or 0) - self.fired
        used = f"rolled {self.rolled}, " if self.rolled != self.fired else ""
        return f"  ammo: {used}{self.fired} fired, {left} left in the {hand.name}"


@dataclass(frozen=True, slots=True)
class Reloaded(Event):
    """DC-10: reloading fills the gun in hand to capacity."""

    actor: str

    def apply(self, state: Encounter) -> Encounter:
        c = state.get(self.actor)
        return with_hand(state, c, loaded=_hand(c).capacity)

    def describe(self, state: Encounter) -> str | None:
        hand = _hand(state.get(self.actor))
        return f"{state.name(self.actor)} reloads the {hand.name}: {hand.loaded} -> {hand.capacity}"


@dataclass(frozen=True, slots=True)
class Equipped(Event):
    """``equip``: the inventory item at ``index`` goes to the hand, the old hand item to the
    end of the inventory (DC-21, DC-22)."""

    actor: str
    index: int
    cost: str
    """Why it costs what it costs, for the log."""

    def apply(self, state: Encounter) -> Encounter:
        c = state.get(self.actor)
        new = evolve(c.sheet, **equipped(c.sheet, self.index))
        return state.with_combatant(evolve(c, sheet=new, marks=c.marks - {BEGAN_UNARMED}))

    def describe(self, state: Encounter) -> str | None:
        sheet = sheet_as(state.get(self.actor), Sheet)
        return (
            f"{state.name(self.actor)} equips the {sheet.inventory[self.index].name} ({self.cost})"
        )


@dataclass(frozen=True, slots=True)
class HandEmptied(Event):
    """DC-29: the explosive is deleted as soon as it is rolled; the hands are empty."""

    actor: str

    def apply(self, state: Encounter) -> Encounter:
        c = state.get(self.actor)
        return state.with_sheet(c, hand=None)

    def describe(self, state: Encounter) -> str | None:
        return f"  the {_hand(state.get(self.actor)).name} is used up; hands empty"


@dataclass(frozen=True, slots=True)
class Scattered(Event):
    """DC-34: a critically failed explosive goes wide."""

    distance: int
    direction: str
    centre: Tile

    def describe(self, state: Encounter) -> str | None:
        return (
            f"  the throw goes wide: {self.distance} tile(s) {self.direction}, "
            f"blast centred on [{self.centre[0]}, {self.centre[1]}]"
        )


@dataclass(frozen=True, slots=True)
class CriticalFailure(Event):
    """DC-38: an attacker's natural critical failure: an automatic miss, the turn ends; an
    explosive's (DC-34) goes wide instead (``Scattered`` follows)."""

    actor: str
    explosive: bool = False
    tone: ClassVar[str] = "critical_failure"

    def describe(self, state: Encounter) -> str | None:
        if self.explosive:
            return "  CRITICAL FAILURE"
        return "  CRITICAL FAILURE: an automatic miss; the turn ends"


@dataclass(frozen=True, slots=True)
class StaysInHand(Event):
    """DC-19: a thrown weapon stays in the thrower's hand; the players drop it out of
    character where the target stands."""

    actor: str
    item: str
    at: Tile | None

    def describe(self, state: Encounter) -> str | None:
        where = "" if self.at is None else f" on [{self.at[0]}, {self.at[1]}]"
        return f"  the {self.item} stays in hand: drop it OOC{where} (DC-19)"


@dataclass(frozen=True, slots=True)
class ScrapFloored(Event):
    """DC-26, DC-A6: a scrap explosive deals 1 less, but never below the floor."""

    item: str
    floor: int
    damage: int

    def describe(self, state: Encounter) -> str | None:
        return f"  scrap {self.item}: 1 less, never below {self.floor}: still {self.damage} (DC-A6)"


@dataclass(frozen=True, slots=True)
class BlastEmpty(Event):
    """DC-31: no combatant stands in the blast area."""

    centre: Tile

    def describe(self, state: Encounter) -> str | None:
        return "  nobody is in the blast"
