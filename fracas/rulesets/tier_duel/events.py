"""tier-duel's own events: the rolls, temporary damage, crossbow and firearm loads,
equipping, spells and the stealth attacker revealed."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from fracas.grid import Tile
from fracas.model import Combatant, Encounter, Event
from fracas.rulesets.tier_duel.items import Item
from fracas.rulesets.tier_duel.sheet import Sheet

__all__ = ["Equipped", "Loaded", "Revealed", "Rolled", "SpellCast", "TemporaryDamage"]

_FOLLOW = ("defend", "notice", "strike")
"""Rolls that answer or follow another: indented in the log."""


def _sheet(c: Combatant) -> Sheet:
    sheet: Sheet = c.sheet
    return sheet


def _hand(c: Combatant) -> Item:
    hand = _sheet(c).hand
    assert hand is not None, "the event log says this hand holds an item"
    return hand


@dataclass(frozen=True, slots=True)
class Rolled(Event):
    """One d20 of a contest or a stealth strike: the natural, what is added, the total."""

    actor: str
    label: str
    """The dice label: attack, defend, stealth, notice or strike (2.4)."""
    how: str
    """What the log says the roller does, e.g. ``attacks Bo with sword (1 tile)``."""
    natural: int
    parts: tuple[tuple[str, int], ...]
    total: int

    def describe(self, state: Encounter) -> str | None:
        lead = "  " if self.label in _FOLLOW else ""
        terms = "".join(f" {'+' if v >= 0 else '-'}{abs(v)} {n}" for n, v in self.parts)
        return (
            f"{lead}{state.name(self.actor)} {self.how}: d20 {self.natural}{terms} = {self.total}"
        )


@dataclass(frozen=True, slots=True)
class TemporaryDamage(Event):
    """TD-5: damage taken is tracked as temporary_damage (never below 0)."""

    target: str
    amount: int

    def after(self, c: Combatant) -> int:
        return max(0, _sheet(c).temporary_damage + self.amount)

    def apply(self, state: Encounter) -> Encounter:
        c = state.get(self.target)
        return state.with_sheet(c, temporary_damage=self.after(c))

    def describe(self, state: Encounter) -> str | None:
        c = state.get(self.target)
        before = _sheet(c).temporary_damage
        return f"  {c.name}'s temporary damage: {before} -> {self.after(c)}"


@dataclass(frozen=True, slots=True)
class Loaded(Event):
    """A crossbow or firearm in hand fired (``loaded: false``, TD-15) or reloaded."""

    actor: str
    loaded: bool

    def apply(self, state: Encounter) -> Encounter:
        c = state.get(self.actor)
        hand = dataclasses.replace(_hand(c), loaded=self.loaded)
        return state.with_sheet(c, hand=hand)

    def describe(self, state: Encounter) -> str | None:
        c = state.get(self.actor)
        if self.loaded:
            return f"{c.name} reloads the {_hand(c).name}"
        return f"  the {_hand(c).name} is unloaded"


@dataclass(frozen=True, slots=True)
class Equipped(Event):
    """``equip``: the inventory item at ``index`` goes to the hand, the old hand item to the
    end of the inventory."""

    actor: str
    index: int

    def apply(self, state: Encounter) -> Encounter:
        c = state.get(self.actor)
        sheet = _sheet(c)
        inventory = list(sheet.inventory)
        item = inventory.pop(self.index)
        if sheet.hand is not None:
            inventory.append(sheet.hand)
        return state.with_sheet(c, hand=item, inventory=tuple(inventory))

    def describe(self, state: Encounter) -> str | None:
        c = state.get(self.actor)
        return f"{c.name} equips the {_sheet(c).inventory[self.index].name} (free)"


@dataclass(frozen=True, slots=True)
class SpellCast(Event):
    """TD-19: a spell is cast; no dice."""

    actor: str
    target: str
    spell: str

    def describe(self, state: Encounter) -> str | None:
        return (
            f"{state.name(self.actor)} casts {self.spell} at {state.name(self.target)}: "
            "no dice (TD-19)"
        )


@dataclass(frozen=True, slots=True)
class Revealed(Event):
    """TD-24: a stealth attack reveals the attacker's location to everyone."""

    actor: str
    at: Tile | None

    def describe(self, state: Encounter) -> str | None:
        where = f"[{self.at[0]}, {self.at[1]}]" if self.at is not None else "(no tile given)"
        return f"  {state.name(self.actor)}'s location is revealed to everyone: {where} (TD-24)"
