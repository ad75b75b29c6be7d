"""dice-combat's own events: what changes in hands and guns, and the roll records."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from fracas.grid import Tile
from fracas.model import Combatant, Encounter, Event
from fracas.rulesets.dice_combat.items import Item
from fracas.rulesets.dice_combat.sheet import Sheet

__all__ = [
    "AmmoFired",
    "AttackRolled",
    "DefenceRolled",
    "Equipped",
    "HandEmptied",
    "Reloaded",
    "Scattered",
]


def _hand(c: Combatant) -> Item:
    sheet: Sheet = c.sheet
    assert sheet.hand is not None, "the event log says this hand holds an item"
    return sheet.hand


def _terms(parts: tuple[tuple[str, int], ...]) -> str:
    return "".join(f" {'+' if v >= 0 else '-'}{abs(v)} {name}" for name, v in parts)


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

    actor: str
    rolled: int
    fired: int

    def apply(self, state: Encounter) -> Encounter:
        c = state.get(self.actor)
        hand = _hand(c)
        loaded = (hand.loaded or 0) - self.fired
        return state.with_sheet(c, hand=dataclasses.replace(hand, loaded=loaded))

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
        hand = _hand(c)
        return state.with_sheet(c, hand=dataclasses.replace(hand, loaded=hand.capacity))

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
        sheet: Sheet = c.sheet
        inventory = list(sheet.inventory)
        item = inventory.pop(self.index)
        if sheet.hand is not None:
            inventory.append(sheet.hand)
        new = dataclasses.replace(sheet, hand=item, inventory=tuple(inventory))
        return state.with_combatant(
            dataclasses.replace(c, sheet=new, marks=c.marks - {"began_unarmed"})
        )

    def describe(self, state: Encounter) -> str | None:
        sheet: Sheet = state.get(self.actor).sheet
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
