"""tier-duel's own events: the rolls and their verdicts, what the rules say of an event
(out of reach, a counter, an automatic hit, a stealth opening), temporary damage,
crossbow and firearm loads, equipping, spells and the stealth attacker revealed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from fracas.model import Combatant, Encounter, Event
from fracas.model.events import apply_to_target
from fracas.model.frozen import evolve
from fracas.model.grid import Tile
from fracas.rulesets.base import sheet_as
from fracas.rulesets.hands import equipped, held, with_hand
from fracas.rulesets.tier_duel.items import Item
from fracas.rulesets.tier_duel.sheet import Sheet
from fracas.rulesets.words import attached_terms

__all__ = [
    "AutomaticHit",
    "ContestedShot",
    "Countered",
    "Equipped",
    "Loaded",
    "NoReach",
    "Revealed",
    "Rolled",
    "SpellCast",
    "StealthOutcome",
    "TemporaryDamage",
    "Unanswered",
    "Verdict",
]

_FOLLOW = ("defend", "notice", "strike")
"""Rolls that answer or follow another: indented in the log."""


def _sheet(c: Combatant) -> Sheet:
    return sheet_as(c, Sheet)


def tiles(n: int) -> str:
    return f"{n} tile" if n == 1 else f"{n} tiles"


def _hand(c: Combatant) -> Item:
    hand: Item = held(c)
    return hand


@dataclass(frozen=True, slots=True)
class Rolled(Event):
    """One d20 of a contest or a stealth strike: the natural, what is added, the total."""

    actor: str
    label: str
    """The dice label: attack, defend, stealth, notice or strike (2.4)."""
    how: str
    """What the log says the roller does, e.g. ``attacks Bo with sword (1 tile)``."""
    prose: ClassVar[tuple[str, ...]] = ("how",)
    natural: int
    parts: tuple[tuple[str, int], ...]
    total: int

    def describe(self, state: Encounter) -> str | None:
        lead = "  " if self.label in _FOLLOW else ""
        terms = attached_terms(self.parts)
        return (
            f"{lead}{state.name(self.actor)} {self.how}: d20 {self.natural}{terms} = {self.total}"
        )


@dataclass(frozen=True, slots=True)
class TemporaryDamage(Event):
    """TD-5: damage taken is tracked as temporary_damage (never below 0)."""

    reveals: ClassVar[str] = "target"
    keeps_down: ClassVar[bool] = True
    """Bookkeeping: being down is HP 0 (TD-G1), and no event's apply reads it."""

    target: str
    amount: int

    def after(self, c: Combatant) -> int:
        return max(0, _sheet(c).temporary_damage + self.amount)

    def changed(self, c: Combatant) -> Combatant:
        """``c``, its target, after it: it reads and changes the target alone
        (``fracas.model.events.changes_one``), what ``with_sheet`` puts in."""
        return evolve(c, sheet=evolve(c.sheet, temporary_damage=self.after(c)))

    apply = apply_to_target

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
        return with_hand(state, state.get(self.actor), loaded=self.loaded)

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
        return state.with_sheet(c, **equipped(_sheet(c), self.index))

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


@dataclass(frozen=True, slots=True)
class Verdict(Event):
    """TD-2, TD-3: who won a contest and by how much (``winner`` None: a tie, no damage)."""

    winner: str | None
    diff: int

    def describe(self, state: Encounter) -> str | None:
        if self.winner is None:
            return "  a tie: nobody deals damage (TD-3)"
        return f"  {state.name(self.winner)} wins by {self.diff}"


@dataclass(frozen=True, slots=True)
class NoReach(Event):
    """TD-6: the winner's weapon does not reach the loser: no damage."""

    actor: str
    weapon: str
    target: str
    reach: int
    distance: int

    def describe(self, state: Encounter) -> str | None:
        return (
            f"  the {self.weapon} does not reach {state.name(self.target)} (reach {self.reach}, "
            f"{tiles(self.distance)}): no damage (TD-6)"
        )


@dataclass(frozen=True, slots=True)
class Countered(Event):
    """TD-9: a projectile's melee defender wins within reach and deals melee damage."""

    actor: str
    """The shooter, now damaged."""
    weapon: str
    """The defender's melee weapon."""

    def describe(self, state: Encounter) -> str | None:
        return (
            f"  {state.name(self.actor)} is within the reach of the {self.weapon}: "
            "melee damage (TD-9)"
        )


@dataclass(frozen=True, slots=True)
class Unanswered(Event):
    """TD-9: the defender beats a projectile without a melee weapon in reach: no damage."""

    target: str

    def describe(self, state: Encounter) -> str | None:
        return "  no damage for that event (TD-9)"


@dataclass(frozen=True, slots=True)
class AutomaticHit(Event):
    """TD-11: a crossbow within its skill in tiles, or TD-16: a firearm inside its
    guaranteed zone: a hit, no roll."""

    actor: str
    target: str
    weapon: str
    distance: int
    limit: int
    """The crossbow's skill level, or the firearm's guaranteed zone, in tiles."""
    skill: str | None
    firearm: bool

    def describe(self, state: Encounter) -> str | None:
        what = f"{state.name(self.target)} with the {self.weapon} ({tiles(self.distance)})"
        if self.firearm:
            return (
                f"{state.name(self.actor)} fires at {what}: inside the guaranteed hit zone "
                f"({self.limit}), no roll (TD-16)"
            )
        return (
            f"{state.name(self.actor)} shoots {what}: within {self.skill} skill {self.limit}, "
            "an automatic hit, no roll (TD-11)"
        )


@dataclass(frozen=True, slots=True)
class ContestedShot(Event):
    """TD-G3: a crossbow beyond its skill, or TD-17: a firearm beyond its guaranteed zone:
    a contest, the damage without the roll difference."""

    actor: str
    limit: int
    """The crossbow's skill level, or the firearm's guaranteed zone, in tiles."""
    skill: str | None
    firearm: bool

    def describe(self, state: Encounter) -> str | None:
        if self.firearm:
            return (
                f"  beyond the guaranteed zone ({self.limit}): contested, no roll difference "
                "(TD-17)"
            )
        return f"  beyond {self.skill} skill {self.limit}: contested, no roll difference (TD-G3)"


@dataclass(frozen=True, slots=True)
class StealthOutcome(Event):
    """TD-21, TD-22: the stealth initiator wins (a free attack its opponent cannot defend),
    or loses or ties (the contested action is wasted)."""

    actor: str
    target: str
    won: bool
    tied: bool

    def describe(self, state: Encounter) -> str | None:
        actor = state.name(self.actor)
        if self.won:
            return (
                f"  {actor} wins: a special attack (free) that {state.name(self.target)} cannot "
                "defend (TD-21)"
            )
        result = "ties" if self.tied else "loses"
        return f"  {actor} {result}: no opening; the contested action is wasted (TD-22)"
