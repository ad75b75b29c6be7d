"""P-SK-1 once the attack is allowed: the roll to hit, damage, soak, health, the wound.

:class:`Attack` holds everything that is known before a die is rolled (checked and
computed once by ``rules.py``); :func:`strike` rolls the dice and returns the events.
Exact odds replay :func:`strike` over every face, so it does only what depends on them.
"""

from __future__ import annotations

from dataclasses import dataclass

from fracas.dice.source import Dice
from fracas.model import ActionUsed, Attempted, Event
from fracas.rulesets.soak.damage import (
    additional_amount,
    first_max,
    roll_attack,
    roll_dice,
    soak,
)
from fracas.rulesets.soak.events import (
    AdditionalRolled,
    APSpent,
    AttackRolled,
    DamageRolled,
    Die,
    Eroded,
    Harmed,
    Soaked,
    Wounded,
)
from fracas.rulesets.soak.sheet import Options
from fracas.rulesets.soak.tables import COMPARE, CRIT_NATURAL, FUMBLE_NATURAL

__all__ = ["Attack", "Extra", "strike"]


@dataclass(frozen=True, slots=True)
class Extra:
    """SK-9, SK-16: a weapon's additional damage against this target."""

    sizes: tuple[int, ...]
    type: str
    kind: str
    material: str | None


@dataclass(frozen=True, slots=True)
class Attack:
    """One allowed attack, before its dice."""

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


def strike(a: Attack, dice: Dice, o: Options) -> list[Event]:
    """P-SK-1: roll to hit (SK-2 to SK-6, SK-10), then on a hit the damage."""
    naturals, natural = roll_attack(dice, a.edge)
    total = natural
    for _, value in a.parts:
        total += value
    critical = natural == CRIT_NATURAL  # SK-5: an automatic hit
    if critical:
        hit = True
    elif natural == FUMBLE_NATURAL and o.natural_1 == "miss":  # SK-6 option
        hit = False
    else:  # SK-3, SK-4
        hit = COMPARE[a.compare](total, a.need)
    events: list[Event] = [
        APSpent(a.actor, a.cost),
        ActionUsed(a.actor),
        AttackRolled(
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
    if hit:
        _damage(a, critical, dice, o, events)
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
