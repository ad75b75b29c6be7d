"""wasteland's events of attacks: AP, the shots, each hit on a limb, CT and injuries, saves,
effects (the turns' and the order's: ``turn_events``).

Each changes the state only through :meth:`apply`; :meth:`describe` is its log line.
Every field is a plain value or a tuple, so events hash (exact odds fold each distinct
run of events once). HP changes through the core ``Damaged``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from fracas.model import Combatant, Encounter, Event, StatusSet
from fracas.model.events import apply_to_target
from fracas.model.frozen import FrozenDict, evolve, freeze
from fracas.rulesets.base import sheet_as
from fracas.rulesets.wasteland.data import Injury, LimbName
from fracas.rulesets.wasteland.sheet import Limb, Sheet
from fracas.rulesets.words import signed_terms as _terms

__all__ = [
    "APSpent",
    "AttackDeclared",
    "ConditionLost",
    "CritRolled",
    "DeathDefied",
    "EffectGained",
    "ExplosiveUsed",
    "InjuryTested",
    "LimbDamaged",
    "LimbHit",
    "ShotRolled",
    "SneakSpent",
    "StrayChecked",
    "ThrowRolled",
]


def _with_weapon(state: Encounter, cid: str, index: int, **changes: Any) -> Encounter:
    """``state`` with the weapon at ``index`` on ``cid``'s sheet changed."""
    c = state.get(cid)
    weapons = list(sheet_as(c, Sheet).weapons)
    weapons[index] = evolve(weapons[index], **changes)
    return state.with_sheet(c, weapons=tuple(weapons))


def _with_limb(state: Encounter, cid: str, limb: LimbName, **changes: Any) -> Encounter:
    """``state`` with ``cid``'s ``limb`` changed (a limb the sheet does not name yet
    starts from the defaults)."""
    return state.with_combatant(_limb_changed(state.get(cid), limb, **changes))


def _limb_changed(c: Combatant, limb: LimbName, **changes: Any) -> Combatant:
    """``c`` with its ``limb`` changed: what ``state.with_sheet(c, limbs=...)`` puts in
    (the limbs a built ``FrozenDict``, kept as it is)."""
    limbs = sheet_as(c, Sheet).limbs
    new = evolve(limbs.get(limb) or _NEW_LIMB, **{k: freeze(v) for k, v in changes.items()})
    return evolve(c, sheet=evolve(c.sheet, limbs=FrozenDict({**limbs, limb: new})))


_NEW_LIMB = freeze(Limb())
"""A limb the sheet does not name yet: the defaults, frozen once (every hit on such a
limb on every dice path of the odds started from it)."""


def _limb(name: str) -> str:
    return name.replace("_", " ")


@dataclass(frozen=True, slots=True)
class APSpent(Event):
    """WL-5, WL-34: the AP an action costs; an overflowed shortfall becomes debt."""

    keeps_down: ClassVar[bool] = True
    """AP are not HP: exact odds need not fold it to see who is down."""

    actor: str
    ap: int
    debt: int = 0

    def apply(self, state: Encounter) -> Encounter:
        c = state.get(self.actor)
        sheet = sheet_as(c, Sheet)
        return state.with_sheet(c, ap=(sheet.ap or 0) - self.ap, ap_debt=sheet.ap_debt + self.debt)

    def describe(self, state: Encounter) -> str | None:
        before = sheet_as(state.get(self.actor), Sheet).ap or 0
        owed = f", {self.debt} more from next turn (overflow)" if self.debt else ""
        return f"  {self.ap} AP: {before} -> {before - self.ap}{owed}"


@dataclass(frozen=True, slots=True)
class AttackDeclared(Event):
    """WL-5, P-WL-1: who attacks whom with what, how, and the AP it costs."""

    actor: str
    target: str
    weapon: str
    cost: int
    shots: int | None
    """The shots of a burst; None: single fire (WL-15)."""
    called: LimbName | None
    """The limb of a called shot (WL-11)."""
    sneak: bool
    """A Sneak Attack (WL-17)."""
    free: str | None
    """An off-turn attack that costs no AP: ``overwatch shot``, ``opportunity attack``,
    ``riposte`` (WL-30, WL-31)."""

    def describe(self, state: Encounter) -> str | None:
        how = [f"burst of {self.shots}" if self.shots is not None else "single fire"]
        if self.free is not None:
            how.insert(0, self.free)
        if self.called is not None:
            how.append(f"called shot: {_limb(self.called)}")
        if self.sneak:
            how.append("sneak attack")
        cost = f"{self.cost} AP" if self.cost else "no AP"
        return (
            f"{state.name(self.actor)} attacks {state.name(self.target)} with the "
            f"{self.weapon} ({', '.join(how)}, {cost})"
        )


@dataclass(frozen=True, slots=True)
class ShotRolled(Event):
    """WL-6 to WL-10, WL-15, WL-16: one shot's roll against Evasion."""

    actor: str
    target: str
    shot: int | None
    """The shot of a burst (1..n); None for single fire."""
    natural: int | None
    """None: a shot after a first-shot CRIT, which rolls no die (WL-15)."""
    parts: tuple[tuple[str, int], ...]
    total: int
    evasion: int
    result: str
    """``crit``, ``critfail``, ``hit``, ``miss`` or ``auto`` (after a first-shot CRIT)."""

    @property
    def hit(self) -> bool:
        return self.result in ("crit", "hit", "auto")

    def describe(self, state: Encounter) -> str | None:
        label = f"shot {self.shot}" if self.shot is not None else "roll"
        if self.natural is None:
            return f"  {label}: hits automatically (first-shot CRIT, WL-15)"
        verdict = {
            "crit": "CRIT: hits automatically",
            "critfail": "CRITFAIL: misses automatically",
            "hit": "hit",
            "miss": "miss",
        }[self.result]
        return (
            f"  {label}: d20 {self.natural}{_terms(self.parts)} = {self.total} vs "
            f"{state.name(self.target)}'s Evasion {self.evasion}: {verdict}"
        )


@dataclass(frozen=True, slots=True)
class ConditionLost(Event):
    """WL-10: a CRITFAIL costs the weapon 1 Condition (never below 0)."""

    keeps_down: ClassVar[bool] = True
    """A weapon's Condition is not HP (exact odds, ``fracas.odds.outcomes``)."""

    actor: str
    index: int
    loss: int

    def apply(self, state: Encounter) -> Encounter:
        w = sheet_as(state.get(self.actor), Sheet).weapons[self.index]
        return _with_weapon(
            state, self.actor, self.index, condition=max(0, w.condition - self.loss)
        )

    def describe(self, state: Encounter) -> str | None:
        w = sheet_as(state.get(self.actor), Sheet).weapons[self.index]
        return f"  the {w.name} loses Condition: {w.condition} -> {max(0, w.condition - self.loss)}"


@dataclass(frozen=True, slots=True)
class StrayChecked(Event):
    """WL-24: a missed shot against a creature on the line of fire (the log line)."""

    victim: str
    shot: int
    total: int
    evasion: int
    hit: bool

    def describe(self, state: Encounter) -> str | None:
        verdict = "hits" if self.hit else "passes"
        return (
            f"  stray shot {self.shot}: {self.total} vs {state.name(self.victim)}'s "
            f"Evasion {self.evasion}: {verdict}"
        )


@dataclass(frozen=True, slots=True)
class LimbHit(Event):
    """WL-11 to WL-14: one hit on a limb: its dice, cover, DT and what gets past DT."""

    reveals: ClassVar[str] = "target"

    target: str
    shot: int | None
    limb: LimbName
    solid: bool
    faces: tuple[int, ...]
    parts: tuple[tuple[str, int], ...]
    """Flat parts before DT (dice flat part, Bonus Melee Damage, a Sneak bonus)."""
    cover: int | None
    """The cover's R where the limb is covered; None when not covered."""
    stopped: bool
    dt: int
    post: int
    """Damage after cover and DT, before CRIT dice, Sneak (after DT) and DR."""

    def describe(self, state: Encounter) -> str | None:
        shot = f"shot {self.shot} " if self.shot is not None else ""
        how = "solid" if self.solid else "glancing"
        dice = "+".join(map(str, self.faces)) or "0"
        text = f"  {shot}hits {state.name(self.target)}'s {_limb(self.limb)} ({how}): {dice}"
        text += _terms(self.parts)
        if self.cover is not None:
            if self.stopped:
                return f"{text} vs cover {self.cover}: stopped"
            text += f" - cover {self.cover}"
        return f"{text} - DT {self.dt} = {self.post}"


@dataclass(frozen=True, slots=True)
class CritRolled(Event):
    """WL-9, WL-15: CRIT dice (explosions included), bypassing DT."""

    faces: tuple[int, ...]
    total: int

    def describe(self, state: Encounter) -> str | None:
        boom = " (explodes)" if len(self.faces) > 1 else ""
        return f"  CRIT dice: {' + '.join(map(str, self.faces))}{boom} = {self.total}"


@dataclass(frozen=True, slots=True)
class LimbDamaged(Event):
    """WL-20 to WL-22: Cripple Threshold damage to a limb, and any injury it causes."""

    reveals: ClassVar[str] = "target"
    keeps_down: ClassVar[bool] = True
    """A limb's CT and injury never make a creature dying (WL-19: HP does); exact odds
    need not fold it to see who is down (``fracas.odds.outcomes``)."""

    target: str
    limb: LimbName
    ct: int
    """The limb's CT after the damage."""
    damage: int
    solid: bool
    injury: Injury
    """The limb's injury after the damage."""
    injury_dc: int | None
    gained: bool
    """True when this damage crippled the limb or escalated its injury."""

    def changed(self, c: Combatant) -> Combatant:
        """``c``, its target, after it: it reads and changes the target's limb alone
        (``fracas.model.events.changes_one``)."""
        changes = {"ct": self.ct, "injury": self.injury, "injury_dc": self.injury_dc}
        return _limb_changed(c, self.limb, **changes)

    apply = apply_to_target

    def describe(self, state: Encounter) -> str | None:
        how = "" if self.solid else " (glancing: half)"
        if self.damage == 0 and not self.gained:
            return f"  {_limb(self.limb)} CT stays {self.ct}{how}"
        text = f"  {_limb(self.limb)} CT -{self.damage}{how} -> {self.ct}"
        if self.gained:
            dc = f", DC {self.injury_dc} to reduce" if self.injury == "major" else ""
            text += f": CRIPPLED, {self.injury} injury{dc}"
        return text


@dataclass(frozen=True, slots=True)
class DeathDefied(Event):
    """WL-19: Deal With the Reaper or Too Stubborn to Die: 1 HP instead, once per rest."""

    reveals: ClassVar[str] = "target"

    target: str
    ability: str

    def apply(self, state: Encounter) -> Encounter:
        c = evolve(state.get(self.target), hp=1)
        uses = (*sheet_as(c, Sheet).rest_uses, self.ability)
        return state.with_sheet(c, rest_uses=uses)

    def describe(self, state: Encounter) -> str | None:
        what = self.ability.replace("_", " ")
        return f"  {state.name(self.target)} drops to 1 HP instead ({what}, once per Long Rest)"


@dataclass(frozen=True, slots=True)
class SneakSpent(Event):
    """WL-17 (PROPOSED ``sneak_reveals``): the attacker is seen, the target aware."""

    keeps_down: ClassVar[bool] = True
    """Being seen is not being hurt (exact odds, ``fracas.odds.outcomes``)."""

    actor: str
    target: str

    def apply(self, state: Encounter) -> Encounter:
        state = state.with_sheet(state.get(self.actor), hidden="none")
        return state.with_sheet(state.get(self.target), unaware=False)

    def describe(self, state: Encounter) -> str | None:
        return f"  {state.name(self.actor)} is no longer hidden; {state.name(self.target)} is aware"


@dataclass(frozen=True, slots=True)
class InjuryTested(Event):
    """WL-21: END + Survival against the DC of a major injury; success makes it minor."""

    reveals: ClassVar[str] = "actor"

    actor: str
    limb: LimbName
    natural: int
    parts: tuple[tuple[str, int], ...]
    total: int
    dc: int
    success: bool

    def apply(self, state: Encounter) -> Encounter:
        if not self.success:
            return state
        return _with_limb(state, self.actor, self.limb, injury="minor", injury_dc=None)

    def describe(self, state: Encounter) -> str | None:
        verdict = "the injury becomes minor" if self.success else "it stays major"
        return (
            f"{state.name(self.actor)} tests the {_limb(self.limb)}'s major injury: d20 "
            f"{self.natural}{_terms(self.parts)} = {self.total} vs DC {self.dc}: {verdict}"
        )


@dataclass(frozen=True, slots=True)
class ExplosiveUsed(Event):
    """WL-27: a throw uses one of the explosive's ``count``, whatever the result."""

    keeps_down: ClassVar[bool] = True
    """An explosive's count is not HP (exact odds, ``fracas.odds.outcomes``)."""

    actor: str
    index: int

    def apply(self, state: Encounter) -> Encounter:
        w = sheet_as(state.get(self.actor), Sheet).weapons[self.index]
        return _with_weapon(state, self.actor, self.index, count=w.count - 1)

    def describe(self, state: Encounter) -> str | None:
        w = sheet_as(state.get(self.actor), Sheet).weapons[self.index]
        return f"  {w.name}: {w.count - 1} left"


@dataclass(frozen=True, slots=True)
class ThrowRolled(Event):
    """WL-27: an explosive's throw against its Throw Difficulty, at a tile."""

    actor: str
    weapon: str
    tile: tuple[int, int]
    natural: int
    parts: tuple[tuple[str, int], ...]
    total: int
    difficulty: int
    result: str
    """``crit``, ``critfail``, ``hit`` or ``miss``."""

    def describe(self, state: Encounter) -> str | None:
        verdict = {
            "crit": "CRIT: success",
            "critfail": "CRITFAIL: it fails",
            "hit": "success",
            "miss": "it fails: nothing happens",
        }[self.result]
        return (
            f"{state.name(self.actor)} throws the {self.weapon} at [{self.tile[0]}, "
            f"{self.tile[1]}]: d20 {self.natural}{_terms(self.parts)} = {self.total} vs "
            f"difficulty {self.difficulty}: {verdict}"
        )


@dataclass(frozen=True, slots=True)
class EffectGained(StatusSet):
    """WL-23: a weapon effect as the status ``{x: X}`` (its own wording)."""

    def describe(self, state: Encounter) -> str | None:
        what = self.status.replace("_", " ")
        return f"  {state.name(self.target)} gets {what} {self.details['x']}"
