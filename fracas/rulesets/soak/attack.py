"""P-SK-1, an attack: deciding it (the refusals of 2.3, the weapon, the number to reach,
the bonuses), then rolling it (the roll to hit, damage, soak, health, the wound).

:func:`decide_attack` does everything that needs no die and returns an :class:`Attack`;
:func:`roll_attack` rolls the dice and returns the events. Exact odds decide once and
replay :func:`roll_attack` over every face, so it does only what depends on them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fracas.dice.source import Dice
from fracas.errors import Refusal
from fracas.model import Action, ActionUsed, Attempted, Combatant, Encounter, Event
from fracas.model.grid import METRICS
from fracas.rulesets.base import Cost, Decision, Rules, sheet_as
from fracas.rulesets.soak.damage import (
    Hits,
    additional_amount,
    edge_of,
    first_max,
    roll_d20,
    roll_dice,
    soak,
)
from fracas.rulesets.soak.data import UNARMED
from fracas.rulesets.soak.events import (
    AdditionalRolled,
    APSpent,
    AttackRolled,
    CriticalAttackRolled,
    DamageRolled,
    Die,
    Eroded,
    Harmed,
    Soaked,
    Wounded,
)
from fracas.rulesets.soak.sheet import Options, Sheet
from fracas.rulesets.soak.weapons import Weapon, die_sizes, dv_band, unarmed_weapon
from fracas.rulesets.steps import Then

__all__ = ["PARAMS", "Attack", "Extra", "decide_attack", "roll_attack"]

PARAMS: tuple[str, ...] = ("weapon", "advantage", "disadvantage", "modifier", "distance")
"""The parameters of ``attack`` (their types: the action's spec, checked by
:func:`fracas.engine.checking.check_action` for a file's and a program's action alike)."""


@dataclass(frozen=True, slots=True)
class Extra:
    """SK-9, SK-16: a weapon's additional damage against this target."""

    sizes: tuple[int, ...]
    type: str
    kind: str
    material: str | None


@dataclass(frozen=True, slots=True)
class Attack(Decision):
    """One allowed attack, before its dice: the decision of :func:`decide_attack`."""

    actor: str
    target: str
    weapon: str
    edge: str | None
    """``advantage``, ``disadvantage`` or None (SK-10, SK-G1)."""
    parts: tuple[tuple[str, int], ...]
    """Added to the kept d20: Agility, the skill, the modifier (SK-2, SK-A1)."""
    need: int
    """The EV (SK-3) or DV (SK-4) the total must reach."""
    against: str
    compare: str
    """``meet`` or ``exceed`` (SK-3; SK-4 option ``ranged_compare``)."""
    cost: int
    ap_left: int
    sizes: tuple[int, ...]
    """Base damage dice, ``dice`` then ``upgrades`` (SK-7, SK-8, SK-10); () unarmed (SK-11)."""
    explodes: bool
    """Proficiency with the weapon's type (SK-7, SK-9, SK-A7)."""
    damage_parts: tuple[tuple[str, int], ...]
    """Added to the dice: the skill, and Strength when proficient (SK-8, SK-11)."""
    kind: str
    """Where base damage goes (SK-15)."""
    av: int
    """The target's AV before the attack (SK-12)."""
    extra: Extra | None

    def roll(self, rules: Rules[Options], state: Encounter, dice: Dice) -> list[Event]:
        """P-SK-1's dice and events (:func:`roll_attack`)."""
        return roll_attack(self, dice, rules.options)

    def costs(self, rules: Rules[Options], state: Encounter) -> tuple[Cost, ...]:
        """Issue 35: the attack's AP (SK-1, SK-G1), as decided."""
        return (Cost(self.actor, "AP", self.cost, self.ap_left + self.cost, self.ap_left),)


def decide_attack(state: Encounter, action: Action, o: Options) -> Attack:
    """P-SK-1 up to the first die: the refusals of 2.3 in the table's order, the weapon,
    the number to reach, the bonuses and the damage dice."""
    params = action.params
    actor = state.get(action.actor)
    assert action.target is not None  # the file reader requires a target
    target = state.get(action.target)
    weapon = _check(actor, target, params, o)
    distance = _distance(actor, target, params, o)
    need, against = _target_number(actor, target, weapon, distance, o)
    sheet, target_sheet = sheet_as(actor, Sheet), sheet_as(target, Sheet)
    skill = weapon.skill_name
    parts = [("agility", sheet.agility), (skill, sheet.skills.get(skill, 0))]
    if params.get("modifier"):  # SK-2, SK-A1: penalties subtract, bonuses add
        parts.append(("modifier", params["modifier"]))
    disadvantage = bool(params.get("disadvantage")) or weapon.improvised  # SK-10
    proficient = not weapon.unarmed and weapon.weapon_type in sheet.proficiencies
    damage_parts = [(skill, sheet.skills.get(skill, 0))]  # SK-8, SK-A6, SK-11
    sizes: tuple[int, ...] = ()
    if not weapon.unarmed:  # SK-11, SK-A8: Brawling, no dice, no Strength
        sizes = die_sizes(weapon.dice)
        if not weapon.improvised:  # SK-10: upgrades do not apply to improvised weapons
            sizes += die_sizes(weapon.upgrades)
        if proficient and not (weapon.improvised and o.improvised_strength == "never"):
            damage_parts.append(("strength", sheet.strength))  # SK-8, SK-A7
    extra = None
    if weapon.additional is not None:
        extra = Extra(
            die_sizes(weapon.additional.dice),
            weapon.additional.type,
            weapon.additional.kind or o.damage_kind,
            target_sheet.material,
        )
    cost = _cost(weapon, o)
    return Attack(
        actor.id,
        target.id,
        weapon.name,
        edge_of(bool(params.get("advantage")), disadvantage, o),
        tuple(parts),
        need,
        against,
        o.ranged_compare if weapon.ranged else "meet",
        cost,
        _ap(sheet, o) - cost,
        sizes,
        proficient,
        tuple(damage_parts),
        weapon.damage_kind or o.damage_kind,
        target_sheet.av,
        extra,
    )


def _ap(sheet: Sheet, o: Options) -> int:
    return sheet.ap if sheet.ap is not None else o.max_ap


def _weapon(actor: Combatant, params: Mapping[str, Any]) -> Weapon | None:
    weapons = sheet_as(actor, Sheet).weapons
    name = params.get("weapon")
    if name is None:
        return weapons[0] if weapons else unarmed_weapon()
    found = next((w for w in weapons if w.name == name), None)
    if found is None and name == UNARMED:
        return unarmed_weapon()  # 2.2: unarmed is always available
    return found


def _check(actor: Combatant, target: Combatant, params: Mapping[str, Any], o: Options) -> Weapon:
    """2.3: down, not_enough_ap, unknown_weapon, self_target (range checks follow)."""
    if actor.hp == 0:  # SK-G4
        raise Refusal("down", f"{actor.id!r} is down (0 HP: the health track is full)")
    sheet = sheet_as(actor, Sheet)
    weapon = _weapon(actor, params)
    # An unknown weapon's cost is not known: the default attack cost stands for it.
    cost = _cost(weapon, o)
    ap = _ap(sheet, o)
    if ap < cost:  # SK-1, SK-G1
        raise Refusal(
            "not_enough_ap",
            f"{actor.id!r} has {ap} AP; the attack costs {cost}: end_turn to go on",
        )
    if weapon is None:
        names = [w.name for w in sheet.weapons]
        if UNARMED not in names:
            names.append(UNARMED)
        raise Refusal(
            "unknown_weapon",
            f"{actor.id!r} has no weapon {params.get('weapon')!r}; valid: {', '.join(names)}",
        )
    if target.id == actor.id:
        raise Refusal("self_target", f"{actor.name} cannot attack itself: choose another combatant")
    return weapon


def _cost(weapon: Weapon | None, o: Options) -> int:
    if weapon is None or weapon.ap is None:
        return o.attack_ap
    return weapon.ap


def _distance(
    actor: Combatant, target: Combatant, params: Mapping[str, Any], o: Options
) -> int | None:
    """A given `distance` wins; else the tiles between the two where both have `at`."""
    if "distance" in params:
        distance: int = params["distance"]
        return distance
    if actor.at is None or target.at is None:
        return None
    return METRICS[o.metric](actor.at, target.at)  # 1.1: Chebyshev (PROPOSED)


def _target_number(
    actor: Combatant, target: Combatant, weapon: Weapon, distance: int | None, o: Options
) -> tuple[int, str]:
    """SK-3, SK-4: the EV of the target (melee, unarmed) or the weapon's DV for the
    range (ranged); refuses no_distance, out_of_range and out_of_reach (2.3)."""
    if weapon.ranged:
        if distance is None:
            lacking = target.id if actor.at is not None else actor.id
            raise Refusal(
                "no_distance",
                f"a ranged attack needs the distance: {lacking!r} has no `at`; "
                "give `distance` (tiles)",
            )
        table = weapon.dv if weapon.dv is not None else o.dv_table
        band = dv_band(table, distance)
        if band is None:  # SK-G2
            raise Refusal(
                "out_of_range",
                f"the target is {distance} tiles away; the {weapon.name} reaches "
                f"{max(table)} (its DV table)",
            )
        low, high, dv = band
        return dv, f"DV {dv} ({low}-{high} tiles: {distance})"
    reach = o.melee_reach
    if distance is not None and distance > reach:
        raise Refusal(
            "out_of_reach",
            f"{target.id!r} is {distance} tiles away; a {weapon.name} attack reaches "
            f"{reach} tile(s), diagonals included",
        )
    ev = sheet_as(target, Sheet).ev
    ev = ev if ev is not None else o.ev
    return ev, f"EV {ev}"


def roll_attack(a: Attack, dice: Dice, o: Options) -> list[Event]:
    """P-SK-1: roll to hit (SK-2 to SK-6, SK-10), then on a hit the damage."""
    bonus = 0
    for _, value in a.parts:
        bonus += value
    hits = Hits(a.edge, bonus, a.need, a.compare, o.natural_1 == "miss")
    naturals, natural = roll_d20(dice, hits)
    total = natural + bonus
    critical, hit = hits((naturals[:1],) if a.edge is None else ((naturals[0],), (naturals[1],)))
    events: list[Event] = [
        APSpent(a.actor, a.cost),
        ActionUsed(a.actor),
        (CriticalAttackRolled if critical else AttackRolled)(  # SK-5: the face marks a crit
            a.actor,
            a.target,
            a.weapon,
            naturals,
            natural,
            a.parts,
            total,
            a.against,
            critical,
            hit,
            a.cost,
            a.ap_left,
        ),
        Attempted(a.actor, a.target, hit),
    ]
    if hit:  # the damage is a step of its own: hits that leave the same state merge
        events.append(Then(DamageStep(a, critical)))
    return events


@dataclass(frozen=True, slots=True)
class DamageStep(Decision):
    """The damage of a hit, rolled after the attack (a step: ``fracas.rulesets.steps``)."""

    attack: Attack
    critical: bool

    def roll(self, rules: Rules[Options], state: Encounter, dice: Dice) -> list[Event]:
        return roll_damage(self, dice, rules.options)


def roll_damage(step: DamageStep, dice: Dice, o: Options) -> list[Event]:
    """SK-7 to SK-16, the rest of P-SK-1 after a hit."""
    events: list[Event] = []
    _damage(step.attack, step.critical, dice, o, events)
    return events


def _damage(a: Attack, critical: bool, dice: Dice, o: Options, events: list[Event]) -> None:
    """SK-7 to SK-16: base damage, soak, erosion, health, additional damage, the wound."""
    # SK-5, SK-7, SK-A5: on a crit every die is at its maximum; with proficiency it explodes.
    base_dice = roll_dice(dice, "damage", a.sizes, explodes=a.explodes, at_max=critical, options=o)
    base = 0
    for d in base_dice:
        base += d.total
    for _, value in a.damage_parts:  # SK-8, SK-11
        base += value
    armor = soak(base, a.av, o)  # SK-12, SK-13
    events.append(DamageRolled(a.actor, base_dice, a.damage_parts, base))
    events.append(Soaked(a.target, base, a.av, armor.av_after, armor.through, armor.damage))
    if armor.av_after != a.av:
        events.append(Eroded(a.target, armor.av_after))
    if armor.damage:  # SK-15
        events.append(Harmed(a.target, armor.damage, "base damage", a.kind))
    extra_dice: tuple[Die, ...] = ()
    extra = a.extra
    if extra is not None:  # SK-9, SK-16: rolled after the base dice, never upgraded
        extra_dice = roll_dice(
            dice,
            "additional",
            extra.sizes,
            explodes=a.explodes,
            at_max=critical and o.crit_maxes_additional,
            options=o,
        )
        rolled = sum(d.total for d in extra_dice)
        percent, soaked, amount = additional_amount(
            rolled, extra.material, extra.type, armor.av_after, o
        )
        events.append(
            AdditionalRolled(
                a.target, extra.type, extra_dice, rolled, percent, extra.material, soaked, amount
            )
        )
        if amount:
            events.append(Harmed(a.target, amount, f"additional {extra.type}", extra.kind))
    # SK-14, SK-A3: one wound when a die showed its maximum (and base damage got through).
    maxed = first_max(base_dice + extra_dice if o.wound_dice == "all" else base_dice)
    if maxed is not None and (armor.through or not o.wound_needs_through):
        why = (
            "a critical hit: every die at its maximum"
            if critical
            else f"{maxed} showed its maximum"
        )
        events.append(Wounded(a.target, why))
