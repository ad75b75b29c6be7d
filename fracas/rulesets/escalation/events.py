"""escalation's own events: the attack line, each trigger die, conditions and Energy."""

from __future__ import annotations

from dataclasses import dataclass

from fracas.model import Encounter, Event
from fracas.rulesets.escalation.sheet import Sheet

__all__ = ["AttackDeclared", "ConditionGained", "EnergySpent", "TriggerRolled"]


def _sheet(state: Encounter, cid: str) -> Sheet:
    sheet: Sheet = state.get(cid).sheet
    return sheet


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
class ConditionGained(Event):
    """A condition the target did not have (ES-12, ES-13: conditions are a set)."""

    target: str
    condition: str

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
