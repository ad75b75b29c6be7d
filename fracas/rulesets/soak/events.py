"""soak's own events: initiative, AP, the attack and damage rolls, soak, health, wounds.

Each changes the state only through :meth:`apply`; :meth:`describe` is its log line.
``Harmed`` is a core ``Damaged`` (the odds count it) that fills the health track. A
natural 20's attack line is a :class:`CriticalAttackRolled` (``tone`` critical_hit).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from fracas.model import Combatant, Damaged, Encounter, Event
from fracas.model.events import apply_to_target
from fracas.model.frozen import evolve
from fracas.rulesets.base import sheet_as
from fracas.rulesets.soak.sheet import Sheet
from fracas.rulesets.words import signed_terms as _terms

__all__ = [
    "APRestored",
    "APSpent",
    "AdditionalRolled",
    "AttackRolled",
    "CriticalAttackRolled",
    "DamageRolled",
    "Die",
    "Eroded",
    "Harmed",
    "InitiativeOrdered",
    "InitiativeRolled",
    "Soaked",
    "Wounded",
    "health",
]


def health(max_hp: int, superficial: int, aggravated: int) -> int:
    """2.1: ``hp = max(0, max_hp - superficial - aggravated)`` (SK-15, SK-G4)."""
    return max(0, max_hp - superficial - aggravated)


@dataclass(frozen=True, slots=True)
class InitiativeRolled(Event):
    """SK-1, SK-G1: d20 + Agility, kept on the sheet as ``initiative``."""

    combatant: str
    natural: int
    agility: int
    total: int

    def apply(self, state: Encounter) -> Encounter:
        return state.with_sheet(state.get(self.combatant), initiative=self.total)

    def describe(self, state: Encounter) -> str | None:
        return (
            f"{state.name(self.combatant)} rolls initiative: d20 {self.natural}"
            f"{_terms((('agility', self.agility),))} = {self.total}"
        )


@dataclass(frozen=True, slots=True)
class InitiativeOrdered(Event):
    """SK-1, SK-G1: the turn order the initiative values make, highest first."""

    order: tuple[tuple[str, int], ...]
    """(combatant, initiative) in turn order."""

    def describe(self, state: Encounter) -> str | None:
        listing = ", ".join(f"{state.name(cid)} {value}" for cid, value in self.order)
        return f"initiative order: {listing}"


@dataclass(frozen=True, slots=True)
class APRestored(Event):
    """SK-G1: a combatant's AP are back to ``max_ap`` at the start of its turn."""

    actor: str
    ap: int

    def apply(self, state: Encounter) -> Encounter:
        return state.with_sheet(state.get(self.actor), ap=self.ap)

    def describe(self, state: Encounter) -> str | None:
        before = sheet_as(state.get(self.actor), Sheet).ap
        return f"  {state.name(self.actor)}'s AP: {before} -> {self.ap}"


@dataclass(frozen=True, slots=True)
class APSpent(Event):
    """SK-1, SK-G1: the AP an action costs (the attack's log line says how many)."""

    actor: str
    cost: int

    def apply(self, state: Encounter) -> Encounter:
        c = state.get(self.actor)
        return state.with_sheet(c, ap=(sheet_as(c, Sheet).ap or 0) - self.cost)


@dataclass(frozen=True, slots=True)
class AttackRolled(Event):
    """P-SK-1: the attack roll, the number it had to reach, and whether it hits."""

    actor: str
    target: str
    weapon: str
    naturals: tuple[int, ...]
    natural: int
    parts: tuple[tuple[str, int], ...]
    """Agility, the skill and the modifier, as (name, value)."""
    total: int
    against: str
    """What the total is compared with: ``EV 12``, ``DV 13 (6-15 tiles)``."""
    critical: bool
    hit: bool
    cost: int
    ap_left: int

    def describe(self, state: Encounter) -> str | None:
        kept = f"d20 {self.natural}"
        if len(self.naturals) > 1:
            kept += f" (of {', '.join(map(str, self.naturals))})"
        verdict = "HIT" if self.hit else "miss"
        if self.critical:  # SK-5
            verdict = "natural 20: CRITICAL HIT"
        return (
            f"{state.name(self.actor)} attacks {state.name(self.target)} with {self.weapon} "
            f"({self.cost} AP, {self.ap_left} left): {kept}{_terms(self.parts)} = {self.total} "
            f"vs {self.against} -> {verdict}"
        )


@dataclass(frozen=True, slots=True)
class CriticalAttackRolled(AttackRolled):
    """SK-5: an attack roll of a natural 20 (an automatic hit, every damage die at its
    maximum); a face marks its line."""

    tone: ClassVar[str] = "critical_hit"


@dataclass(frozen=True, slots=True)
class Die:
    """One damage die as it fell: its faces, explosions included, in the order rolled."""

    sides: int
    faces: tuple[int, ...]
    maxed: bool
    """True when the first face is the maximum without a roll (a critical hit, SK-5)."""

    @property
    def total(self) -> int:
        return sum(self.faces)

    def text(self) -> str:
        faces = [f"[{f}]" if i == 0 and self.maxed else str(f) for i, f in enumerate(self.faces)]
        boom = " (explodes)" if len(self.faces) > 1 else ""
        return f"d{self.sides} {'+'.join(faces)}{boom}"


@dataclass(frozen=True, slots=True)
class DamageRolled(Event):
    """SK-7, SK-8, SK-11: the base damage dice, skill, Strength and the base damage."""

    actor: str
    dice: tuple[Die, ...]
    parts: tuple[tuple[str, int], ...]
    base: int

    def describe(self, state: Encounter) -> str | None:
        if not self.dice:  # SK-11: unarmed
            terms = _terms(self.parts)  # " + 3 brawling" -> "3 brawling", " - 1 ..." -> "-1 ..."
            terms = {" + ": "", " - ": "-"}.get(terms[:3], "") + terms[3:]
            return f"  base damage: {terms or 0} = {self.base}"
        dice = ", ".join(d.text() for d in self.dice)
        return f"  base damage: {dice}{_terms(self.parts)} = {self.base}"


@dataclass(frozen=True, slots=True)
class Soaked(Event):
    """SK-12: the armor against the base damage (the log line; :class:`Eroded` and
    :class:`Harmed` change the state)."""

    reveals: ClassVar[str] = "target"

    target: str
    base: int
    av: int
    av_after: int
    through: bool
    damage: int

    def describe(self, state: Encounter) -> str | None:
        name = state.name(self.target)
        if not self.through:
            return f"  {name}'s AV {self.av} soaks base {self.base}: nothing gets through"
        erosion = (
            f"AV {self.av} -> {self.av_after}"
            if self.av_after != self.av
            else f"AV stays {self.av} (floor)"
        )
        return f"  base {self.base} vs {name}'s AV {self.av}: {self.damage} gets through; {erosion}"


@dataclass(frozen=True, slots=True)
class Eroded(Event):
    """SK-13: base damage got through; the target's AV drops (the :class:`Soaked` line
    says so)."""

    keeps_down: ClassVar[bool] = True
    """AV is not health: exact odds need not fold it to see who is down."""

    target: str
    av: int

    def changed(self, c: Combatant) -> Combatant:
        """``c``, its target, after it: it reads and changes the target alone
        (``fracas.model.events.changes_one``), what ``with_sheet`` puts in."""
        return evolve(c, sheet=evolve(c.sheet, av=self.av))

    apply = apply_to_target


@dataclass(frozen=True, slots=True)
class AdditionalRolled(Event):
    """SK-9, SK-16: additional damage, resolved apart from the armor's AV."""

    reveals: ClassVar[str] = "target"

    target: str
    damage_type: str
    dice: tuple[Die, ...]
    rolled: int
    percent: int
    material: str | None
    soak: int
    """AV subtracted (option ``additional_vs_av: soak``), else 0."""
    amount: int

    def describe(self, state: Encounter) -> str | None:
        dice = ", ".join(d.text() for d in self.dice)
        how = [f"{self.percent}% vs {self.material or 'no armor material'}"]
        if self.soak:
            how.append(f"- {self.soak} AV")
        return (
            f"  additional {self.damage_type} damage: {dice} = {self.rolled}; "
            f"{', '.join(how)}: {self.amount}"
        )


@dataclass(frozen=True, slots=True)
class Harmed(Damaged):
    """SK-15: damage on the health track, superficial or aggravated; ``hp`` follows."""

    kind: str = "superficial"

    def changed(self, c: Combatant) -> Combatant:
        """``c``, its target, after it: the track taken and ``hp`` from the track. It
        reads and changes the target alone (``fracas.model.events.changes_one``: exact
        odds and the lab's scores follow it per combatant, issue 34)."""
        sheet = sheet_as(c, Sheet)
        new = evolve(sheet, **{self.kind: getattr(sheet, self.kind) + self.amount})
        return evolve(c, sheet=new, hp=health(c.max_hp, new.superficial, new.aggravated))

    apply = apply_to_target

    def describe(self, state: Encounter) -> str | None:
        return self.line(state, f"{self.kind} damage")


@dataclass(frozen=True, slots=True)
class Wounded(Event):
    """SK-14: one wound per attack when a die showed its maximum."""

    reveals: ClassVar[str] = "target"

    keeps_down: ClassVar[bool] = True
    """Wounds are not health (SK-14): exact odds need not fold it to see who is down."""

    target: str
    why: str

    def changed(self, c: Combatant) -> Combatant:
        """``c``, its target, after it: it reads and changes the target alone
        (``fracas.model.events.changes_one``), what ``with_sheet`` puts in."""
        return evolve(c, sheet=evolve(c.sheet, wounds=sheet_as(c, Sheet).wounds + 1))

    apply = apply_to_target

    def describe(self, state: Encounter) -> str | None:
        c = state.get(self.target)
        wounds = sheet_as(c, Sheet).wounds
        return f"  {c.name} is wounded ({self.why}): wounds {wounds} -> {wounds + 1}"
