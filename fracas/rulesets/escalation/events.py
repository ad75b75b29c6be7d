"""escalation's own events: the attack line, each trigger die, what skullduggery and
conditions do or do not do, Energy, and the other action (``act``).

Each is a fact with fields; :meth:`describe` gives its log line. A trigger that crits
(ES-11) is a :class:`CriticalTrigger` (``tone`` critical_hit).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from fracas.model import Encounter, Event
from fracas.rulesets.base import sheet_as
from fracas.rulesets.escalation.sheet import Sheet

__all__ = [
    "Acted",
    "AssassinationImmune",
    "AttackDeclared",
    "ConditionGained",
    "ConditionHeld",
    "CriticalTrigger",
    "EnergySpent",
    "NoCondition",
    "TriggerRolled",
    "WeaponCannot",
]


def _sheet(state: Encounter, cid: str) -> Sheet:
    return sheet_as(state.get(cid), Sheet)


@dataclass(frozen=True, slots=True)
class AttackDeclared(Event):
    """The attack: who, with what, against whom, at which Escalation (ES-4, ES-5)."""

    actor: str
    weapon: str
    archetype: str
    targets: tuple[str, ...]
    escalation: int
    free: bool = False

    def describe(self, state: Encounter) -> str | None:
        whom = ", ".join(state.name(t) for t in self.targets)
        free = ", a free action" if self.free else ""
        return (
            f"{state.name(self.actor)} attacks {whom} with the {self.weapon} "
            f"({self.archetype}, Escalation {self.escalation}{free})"
        )


@dataclass(frozen=True, slots=True)
class TriggerRolled(Event):
    """One target's trigger die and what it decides (ES-8 to ES-14)."""

    target: str
    trigger: int
    top: int
    """The die's top face: the Lucky Hit, the crit and Luck's Price (12 on a d12)."""
    failure: int
    parts: tuple[tuple[str, int], ...]
    """The failure sources that apply, each with its number (ES-9, ES-15 to ES-17)."""
    success: bool
    crit: bool
    lucks_price: bool
    condition: bool
    """The trigger earns a condition (ES-12, ES-14)."""

    def describe(self, state: Encounter) -> str | None:
        sources = " + ".join(f"{name} {n}" for name, n in self.parts)
        failure = f"failure {self.failure}" + (f" ({sources})" if sources else "")
        if not self.success:
            verdict = f"{self.trigger} <= {self.failure}: FAILED, no effect"
        else:
            notes = []
            if self.trigger == self.top:
                notes.append("Lucky Hit")
            if self.crit:
                notes.append("critical")
            if self.lucks_price:
                notes.append(
                    f"Luck's Price (failure {self.failure} >= {self.top}): no crit, no condition"
                )
            if self.condition:
                notes.append("condition")
            verdict = f"{self.trigger}: success" + (f" ({', '.join(notes)})" if notes else "")
        return f"  vs {state.name(self.target)}: {failure}; trigger {verdict}"


@dataclass(frozen=True, slots=True)
class CriticalTrigger(TriggerRolled):
    """ES-10, ES-11: a trigger on the top face without Luck's Price: a critical hit."""

    tone: ClassVar[str] = "critical_hit"


@dataclass(frozen=True, slots=True)
class WeaponCannot(Event):
    """ES-21: the attack asked for a backstab (``unseen``) or an assassination
    (``unexpected``) that its weapon cannot do; the attack resolves without it."""

    weapon: str
    deed: str
    """``backstab`` or ``assassinate``."""

    def describe(self, state: Encounter) -> str | None:
        if self.deed == "backstab":
            return f"  no backstab: the {self.weapon} cannot backstab (ES-21)"
        return f"  no assassination: the {self.weapon} cannot (ES-21)"


@dataclass(frozen=True, slots=True)
class AssassinationImmune(Event):
    """ES-20: a target of a higher level than the attacker is immune to assassination;
    the attack resolves normally."""

    target: str
    level: int
    attacker_level: int

    def describe(self, state: Encounter) -> str | None:
        return (
            f"  {state.name(self.target)} is immune to assassination "
            f"(level {self.level} > {self.attacker_level})"
        )


@dataclass(frozen=True, slots=True)
class NoCondition(Event):
    """ES-12: the trigger earns a condition but none is given: none was chosen (option
    ``auto_condition: none``), or the target has all three of the weapon's."""

    target: str
    all_held: bool

    def describe(self, state: Encounter) -> str | None:
        why = "it has all three" if self.all_held else "none chosen"
        return f"  no condition for {state.name(self.target)}: {why}"


@dataclass(frozen=True, slots=True)
class ConditionHeld(Event):
    """ES-13: the chosen condition is one the target has; giving it again does nothing."""

    target: str
    condition: str

    def describe(self, state: Encounter) -> str | None:
        return f"  {state.name(self.target)} is already {self.condition}: nothing more (ES-13)"


@dataclass(frozen=True, slots=True)
class Acted(Event):
    """ES-1, 2.3 ``act``: one of the two actions spent on anything but a weapon attack."""

    actor: str
    note: str | None = None
    prose: ClassVar[tuple[str, ...]] = ("note",)
    """A free text (the ``act`` action's note)."""

    def describe(self, state: Encounter) -> str | None:
        return f"{state.name(self.actor)} acts" + (f": {self.note}" if self.note else "")


@dataclass(frozen=True, slots=True)
class ConditionGained(Event):
    """A condition the target did not have (ES-12, ES-13: conditions are a set)."""

    target: str
    condition: str
    keeps_down: ClassVar[bool] = True
    """Conditions never make a combatant down (ES-G3, ES-20: HP 0 or dead), and no
    event's apply reads them: the exact odds' last fold skips this event."""

    def apply(self, state: Encounter) -> Encounter:
        sheet = _sheet(state, self.target)
        if self.condition in sheet.conditions:
            return state
        conditions = (*sheet.conditions, self.condition)
        return state.with_sheet(self.target, conditions=conditions)

    def describe(self, state: Encounter) -> str | None:
        return f"  {state.name(self.target)} is now {self.condition}"


@dataclass(frozen=True, slots=True)
class EnergySpent(Event):
    """ES-2: a double attack costs 1 Energy; Energy stops at 0."""

    actor: str
    amount: int = 1

    def after(self, state: Encounter) -> int:
        return max(0, _sheet(state, self.actor).energy - self.amount)

    def apply(self, state: Encounter) -> Encounter:
        return state.with_sheet(self.actor, energy=self.after(state))

    def describe(self, state: Encounter) -> str | None:
        before = _sheet(state, self.actor).energy
        return f"  double attack: {state.name(self.actor)}'s Energy {before} -> {self.after(state)}"
