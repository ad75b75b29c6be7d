"""wasteland's own events: AP, the shots, each hit on a limb, CT and injuries, saves.

Each changes the state only through :meth:`apply`; :meth:`describe` is its log line.
Every field is a plain value or a tuple, so events hash (exact odds fold each distinct
run of events once). HP changes through the core ``Damaged``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from fracas.model import Combatant, Encounter, Event
from fracas.rulesets.wasteland.sheet import Limb, Sheet
from fracas.rulesets.wasteland.tables import Injury, LimbName
from fracas.rulesets.words import signed_terms as _terms

__all__ = [
    "MISSED_BY",
    "OPENING",
    "REGULAR",
    "USED",
    "APSpent",
    "AttackDeclared",
    "ConditionLost",
    "CritRolled",
    "DeathDefied",
    "ExplosiveUsed",
    "InjuryTested",
    "LimbDamaged",
    "LimbHit",
    "Marked",
    "MissedInMelee",
    "MovementPaid",
    "OpeningPassed",
    "ReactionUsed",
    "RoundEnded",
    "ShotRolled",
    "SneakSpent",
    "StrayChecked",
    "SurpriseRound",
    "TurnRefreshed",
    "Unmarked",
    "used",
]

Details = tuple[tuple[str, int | str], ...]


def _sheet(c: Combatant) -> Sheet:
    sheet: Sheet = c.sheet
    return sheet


def _limb(name: str) -> str:
    return name.replace("_", " ")


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
        c = dataclasses.replace(c, marks=marks)
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
        c = state.get(self.actor)
        mark = f"{USED}{self.kind}:{used(c, self.kind) + 1}"
        return state.with_combatant(dataclasses.replace(c, marks=c.marks | {mark}))


@dataclass(frozen=True, slots=True)
class MissedInMelee(Event):
    """WL-36: ``attacker``'s melee attack missed ``target`` (a Riposte may answer it)."""

    target: str
    attacker: str

    def apply(self, state: Encounter) -> Encounter:
        c = state.get(self.target)
        mark = f"{MISSED_BY}{self.attacker}"
        return state.with_combatant(dataclasses.replace(c, marks=c.marks | {mark}))


@dataclass(frozen=True, slots=True)
class APSpent(Event):
    """WL-5, WL-34: the AP an action costs; an overflowed shortfall becomes debt."""

    actor: str
    ap: int
    debt: int = 0

    def apply(self, state: Encounter) -> Encounter:
        c = state.get(self.actor)
        sheet = _sheet(c)
        return state.with_sheet(c, ap=(sheet.ap or 0) - self.ap, ap_debt=sheet.ap_debt + self.debt)

    def describe(self, state: Encounter) -> str | None:
        before = _sheet(state.get(self.actor)).ap or 0
        owed = f", {self.debt} more from next turn (overflow)" if self.debt else ""
        return f"  {self.ap} AP: {before} -> {before - self.ap}{owed}"


@dataclass(frozen=True, slots=True)
class AttackDeclared(Event):
    """WL-5, P-WL-1: who attacks whom with what, how, and the AP it costs."""

    actor: str
    target: str
    weapon: str
    how: str
    """``single``, ``burst of 3``, ``called shot (head)``, ``sneak``, … for the log."""
    cost: int

    def describe(self, state: Encounter) -> str | None:
        cost = f"{self.cost} AP" if self.cost else "no AP"
        return (
            f"{state.name(self.actor)} attacks {state.name(self.target)} with the "
            f"{self.weapon} ({self.how}, {cost})"
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

    actor: str
    index: int
    loss: int

    def apply(self, state: Encounter) -> Encounter:
        c = state.get(self.actor)
        weapons = list(_sheet(c).weapons)
        w = weapons[self.index]
        weapons[self.index] = dataclasses.replace(w, condition=max(0, w.condition - self.loss))
        return state.with_sheet(c, weapons=tuple(weapons))

    def describe(self, state: Encounter) -> str | None:
        w = _sheet(state.get(self.actor)).weapons[self.index]
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

    def apply(self, state: Encounter) -> Encounter:
        c = state.get(self.target)
        limbs = dict(_sheet(c).limbs)
        old = limbs.get(self.limb, Limb())
        limbs[self.limb] = dataclasses.replace(
            old,
            ct=self.ct,
            injury=self.injury,
            injury_dc=self.injury_dc,
        )
        return state.with_sheet(c, limbs=limbs)

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

    target: str
    ability: str

    def apply(self, state: Encounter) -> Encounter:
        c = dataclasses.replace(state.get(self.target), hp=1)
        uses = (*_sheet(c).rest_uses, self.ability)
        return state.with_sheet(c, rest_uses=uses)

    def describe(self, state: Encounter) -> str | None:
        what = self.ability.replace("_", " ")
        return f"  {state.name(self.target)} drops to 1 HP instead ({what}, once per Long Rest)"


@dataclass(frozen=True, slots=True)
class Marked(Event):
    """A status with its details (hashable, unlike the core ``StatusSet``)."""

    target: str
    status: str
    details: Details = ()

    def apply(self, state: Encounter) -> Encounter:
        c = state.get(self.target)
        statuses = {**c.statuses, self.status: dict(self.details)}
        return state.with_combatant(dataclasses.replace(c, statuses=statuses))

    def describe(self, state: Encounter) -> str | None:
        name = state.name(self.target)
        if len(self.details) == 1 and self.details[0][0] == "x":  # a weapon effect (WL-23)
            return f"  {name} gets {self.status.replace('_', ' ')} {self.details[0][1]}"
        details = ", ".join(f"{k} {v}" for k, v in self.details)
        return f"  {name} is {self.status}" + (f" ({details})" if details else "")


@dataclass(frozen=True, slots=True)
class Unmarked(Event):
    """A status ends (quietly: the line that ends it says why)."""

    target: str
    status: str

    def apply(self, state: Encounter) -> Encounter:
        c = state.get(self.target)
        statuses = {k: v for k, v in c.statuses.items() if k != self.status}
        return state.with_combatant(dataclasses.replace(c, statuses=statuses))


@dataclass(frozen=True, slots=True)
class SneakSpent(Event):
    """WL-17 (PROPOSED ``sneak_reveals``): the attacker is seen, the target aware."""

    actor: str
    target: str

    def apply(self, state: Encounter) -> Encounter:
        state = state.with_sheet(state.get(self.actor), hidden="none")
        return state.with_sheet(state.get(self.target), unaware=False)

    def describe(self, state: Encounter) -> str | None:
        return f"  {state.name(self.actor)} is no longer hidden; {state.name(self.target)} is aware"


@dataclass(frozen=True, slots=True)
class MovementPaid(Event):
    """WL-2: a Movement Action's cost, MAP first, then AP."""

    actor: str
    map: int
    ap: int

    def apply(self, state: Encounter) -> Encounter:
        c = state.get(self.actor)
        sheet = _sheet(c)
        return state.with_sheet(c, map=(sheet.map or 0) - self.map, ap=(sheet.ap or 0) - self.ap)

    def describe(self, state: Encounter) -> str | None:
        sheet = _sheet(state.get(self.actor))
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

    def apply(self, state: Encounter) -> Encounter:
        return dataclasses.replace(state, values={**state.values, OPENING: 0})


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
            c = state.get(cid)
            state = state.with_combatant(dataclasses.replace(c, marks=c.marks | {f"{REGULAR}{i}"}))
        for cid in self.victims:
            c = state.get(cid)
            if self.status:
                c = dataclasses.replace(c, statuses={**c.statuses, "surprised": {}})
            state = state.with_sheet(c, surprised=True)
        return dataclasses.replace(state, order=self.order)

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
            c = state.get(cid)
            statuses = {k: v for k, v in c.statuses.items() if k != "surprised"}
            state = state.with_sheet(dataclasses.replace(c, statuses=statuses), surprised=False)
        if not self.order:
            return state
        for cid in self.order:
            c = state.get(cid)
            marks = frozenset(m for m in c.marks if not m.startswith(REGULAR))
            state = state.with_combatant(dataclasses.replace(c, marks=marks))
        return dataclasses.replace(state, order=self.order)

    def describe(self, state: Encounter) -> str | None:
        names = ", ".join(state.name(cid) for cid in self.surprised)
        line = "  the surprise round is over" + (f": {names} may act" if names else "")
        if self.order:
            line += f"; the regular order is back: {', '.join(map(state.name, self.order))}"
        return line


@dataclass(frozen=True, slots=True)
class InjuryTested(Event):
    """WL-21: END + Survival against the DC of a major injury; success makes it minor."""

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
        c = state.get(self.actor)
        limbs = dict(_sheet(c).limbs)
        old = limbs.get(self.limb, Limb())
        limbs[self.limb] = dataclasses.replace(old, injury="minor", injury_dc=None)
        return state.with_sheet(c, limbs=limbs)

    def describe(self, state: Encounter) -> str | None:
        verdict = "the injury becomes minor" if self.success else "it stays major"
        return (
            f"{state.name(self.actor)} tests the {_limb(self.limb)}'s major injury: d20 "
            f"{self.natural}{_terms(self.parts)} = {self.total} vs DC {self.dc}: {verdict}"
        )


@dataclass(frozen=True, slots=True)
class ExplosiveUsed(Event):
    """WL-27: a throw uses one of the explosive's ``count``, whatever the result."""

    actor: str
    index: int

    def apply(self, state: Encounter) -> Encounter:
        c = state.get(self.actor)
        weapons = list(_sheet(c).weapons)
        w = weapons[self.index]
        weapons[self.index] = dataclasses.replace(w, count=w.count - 1)
        return state.with_sheet(c, weapons=tuple(weapons))

    def describe(self, state: Encounter) -> str | None:
        w = _sheet(state.get(self.actor)).weapons[self.index]
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
