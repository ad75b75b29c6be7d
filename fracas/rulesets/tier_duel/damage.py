"""tier-duel's damage: a formula of ``data.py`` evaluated, minus the armor, floored
(TD-4, TD-8, TD-12, TD-13, TD-18, TD-23, TD-G9), and the wound it makes (TD-5)."""

from __future__ import annotations

from collections.abc import Mapping

from fracas.model import Combatant, Damaged, Event
from fracas.rulesets.base import sheet_as
from fracas.rulesets.tier_duel.data import CROSSBOW_ARMOR_FACTOR, FIREARM_DAMAGE, Terms
from fracas.rulesets.tier_duel.events import TemporaryDamage
from fracas.rulesets.tier_duel.items import Item, Wielded
from fracas.rulesets.tier_duel.sheet import Options, Sheet

__all__ = [
    "armor_bonus",
    "crossbow_hit",
    "firearm_hit",
    "formula",
    "hit",
    "skill_of",
    "wound",
]


def armor_bonus(c: Combatant) -> int:
    """TD-4: the Tier of the armor and of the shield."""
    sheet = sheet_as(c, Sheet)
    return sheet.armor_tier + sheet.shield_tier


def skill_of(c: Combatant, name: str | None) -> int:
    """A skill's level; a missing skill (or none at all) is 0 (2.1)."""
    return sheet_as(c, Sheet).skills.get(name, 0) if name is not None else 0


def _sum_text(items: list[tuple[int, str]]) -> str:
    out = ""
    for value, name in items:
        if not out:
            out = f"{value} {name}"
        else:
            out += f" {'+' if value >= 0 else '-'} {abs(value)} {name}"
    return out


def formula(
    options: Options,
    terms: Terms,
    values: Mapping[str, int],
    armor: tuple[str, int] | None,
    *,
    floor: bool = True,
    labels: Mapping[str, str] | None = None,
) -> tuple[int, str]:
    """A damage formula: its terms summed, minus the armor, floored (TD-G9); and its
    text for the log (``labels`` renames terms, e.g. ``skill`` to the skill's name)."""
    names = labels or {}
    items = [(f * values[n], names.get(n, n) + ("" if f == 1 else f" x{f}")) for n, f in terms]
    amount = sum(v for v, _ in items)
    text = _sum_text(items)
    if armor is not None:
        amount -= armor[1]
        sign = "-" if armor[1] >= 0 else "+"
        text += f" {sign} {abs(armor[1])} {armor[0]}"
    low = options.damage_floor
    if floor and low is not None and amount < low:
        amount, text = low, f"{text} = {amount}, floor {low}"
    return amount, text


def wound(options: Options, target: str, amount: int, cause: str) -> list[Event]:
    """TD-5: HP down (stops at 0), the damage added to temporary_damage."""
    events: list[Event] = [Damaged(target, amount, cause)]
    if options.track_temporary and amount:
        events.append(TemporaryDamage(target, amount))
    return events


def hit(
    options: Options,
    target: Combatant,
    terms: Terms,
    values: Mapping[str, int],
    why: str = "",
    labels: Mapping[str, str] | None = None,
) -> list[Event]:
    """A formula against ``target``'s armor (TD-4), and its wound."""
    armor = ("armor", armor_bonus(target))
    amount, text = formula(options, terms, values, armor, labels=labels)
    return wound(options, target.id, amount, text + why)


def crossbow_hit(options: Options, target: Combatant, a: Wielded) -> list[Event]:
    """TD-12, TD-13, TD-14, TD-A1 to TD-A3: armor reduced by Tier (x2), then Tier - armor."""
    factor = CROSSBOW_ARMOR_FACTOR[a.type]
    armor = armor_bonus(target)
    left = armor - factor * a.tier
    rule = "TD-13" if factor == 2 else "TD-12"
    if options.crossbow_formula == "text":
        left = max(0, left)  # TD-14: armor cannot be reduced below 0
        how = f"armor {armor} reduced by {factor} x {a.tier} tier, never below 0; {rule}"
    else:
        how = f"armor {armor} - {factor} x {a.tier} tier, the formula line; {rule}"
    amount, text = formula(options, (("tier", 1),), {"tier": a.tier}, ("armor left", left))
    return wound(options, target.id, amount, f"{text} ({how})")


def firearm_hit(options: Options, target: Combatant, a: Wielded) -> list[Event]:
    """TD-18, TD-G10: 2 x tier + 2 x ammo bonus; no armor (nor shield, by option)."""
    item: Item | None = a.item
    assert item is not None
    shield = (
        None if options.firearm_ignores_shield else ("shield", sheet_as(target, Sheet).shield_tier)
    )
    values = {"tier": item.tier, "ammo_bonus": item.ammo_bonus}
    amount, text = formula(options, FIREARM_DAMAGE, values, shield)
    return wound(options, target.id, amount, f"{text}, no armor (TD-18)")
