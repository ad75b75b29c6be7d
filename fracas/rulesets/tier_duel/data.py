"""tier-duel's numbers and formulas, as data.

Sources: ``../shared/rules/tier-duel.md`` 1.3 (the damage formulas TD-4, TD-8,
TD-12, TD-13, TD-18, TD-23; the contests TD-1, TD-7, TD-20) and 2.2 (weapon
types, short-hands, PROPOSED ranges). A formula is a tuple of terms
``(value name, factor)`` summed, minus the armor where it applies; the rules
code evaluates it, it never spells a formula out in branches.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = [
    "COMBAT_CONTEST",
    "CONTESTED",
    "COUNTER_DAMAGE",
    "CROSSBOW_ARMOR_FACTOR",
    "FIREARM_DAMAGE",
    "MELEE_DAMAGE",
    "NONCONTESTED",
    "NON_WEAPON_SKILLS",
    "PROJECTILE_DAMAGE",
    "SHORTHANDS",
    "STEALTH_CONTEST",
    "STEALTH_DAMAGE",
    "TYPES",
    "UNARMED",
    "Terms",
    "WeaponType",
]

Terms = tuple[tuple[str, int], ...]
"""``(value name, factor)`` pairs, summed: ``(("diff", 1), ("body", 1), ("tier", 1))``."""

CONTESTED = "contested"
NONCONTESTED = "noncontested"
"""The two kinds of action a combatant has each round (TD-G6)."""


@dataclass(frozen=True, slots=True)
class WeaponType:
    """One weapon type of 2.2: how an `attack` with it resolves, and its defaults."""

    name: str
    event: str
    """``melee``, ``projectile``, ``crossbow``, ``firearm`` or ``spell``: what `attack` starts."""
    skill: str | None
    """The skill rolled with it; None: the short-hand's (melee) or none (spell)."""
    range: int | None = None
    """Maximum shooting range in tiles (PROPOSED, TD-G5); None: it does not shoot."""
    reach_option: str | None = None
    """The option giving its melee reach (TD-G5); None: reach 0."""


TYPES: dict[str, WeaponType] = {
    t.name: t
    for t in (
        WeaponType("melee_1h", "melee", None, reach_option="reach_1h"),
        WeaponType("melee_2h", "melee", None, reach_option="reach_2h"),
        WeaponType("bow", "projectile", "bow", 20),
        WeaponType("thrown", "projectile", "thrown", 6),
        WeaponType("crossbow_1h", "crossbow", "crossbow", 20),
        WeaponType("crossbow_2h", "crossbow", "crossbow", 20),
        WeaponType("firearm", "firearm", "firearm"),
        WeaponType("spell", "spell", None),
    )
}


@dataclass(frozen=True, slots=True)
class Unarmed:
    """2.1: an empty hand fights as Tier 0, skill `unarmed`, reach 1."""

    name: str = "bare hands"
    tier: int = 0
    skill: str = "unarmed"
    reach: int = 1


UNARMED = Unarmed()

SHORTHANDS: dict[str, dict[str, Any]] = {
    # 2.2: Tier 1 unless given; the skill of a melee short-hand is its own.
    "sword": {"type": "melee_1h", "skill": "sword"},
    "axe": {"type": "melee_1h", "skill": "axe"},
    "spear": {"type": "melee_2h", "skill": "spear"},
    "greatsword": {"type": "melee_2h", "skill": "sword"},
    "bow": {"type": "bow"},
    "javelin": {"type": "thrown"},
    "crossbow_1h": {"type": "crossbow_1h"},
    "crossbow_2h": {"type": "crossbow_2h"},
    "firearm": {"type": "firearm"},
}

NON_WEAPON_SKILLS = frozenset({"stealth"})
"""Skills that are not weapon skills: every other skill may defend a projectile (TD-7)."""

COMBAT_CONTEST = ("reflex", "skill")
"""TD-1, TD-7, TD-17: 1d20 + reflex + skill."""
STEALTH_CONTEST = ("presence", "stealth")
"""TD-20: 1d20 + presence + stealth."""

MELEE_DAMAGE: Terms = (("diff", 1), ("body", 1), ("tier", 1))
"""TD-4: (roll difference + body + weapon bonus) - armor bonus."""
COUNTER_DAMAGE: Terms = MELEE_DAMAGE
"""TD-9, TD-A5: the melee opponent of a losing projectile deals TD-4 with the same diff."""
PROJECTILE_DAMAGE: dict[str, Terms] = {
    "bow": (("diff", 1), ("tier", 1)),  # TD-8: no body for bows
    "thrown": (("diff", 1), ("tier", 1), ("body", 1)),  # TD-8
}
STEALTH_DAMAGE: dict[str, Terms] = {
    # TD-23, TD-A6: a fresh d20 (`strike`) and the weapon skill; by the weapon's event.
    "melee": (("strike", 1), ("reflex", 1), ("skill", 1), ("body", 1), ("tier", 1)),
    "thrown": (("strike", 1), ("reflex", 1), ("skill", 1), ("body", 1), ("tier", 1)),
    "bow": (("strike", 1), ("reflex", 1), ("skill", 1), ("tier", 1)),
}
FIREARM_DAMAGE: Terms = (("tier", 2), ("ammo_bonus", 2))
"""TD-18: (weapon bonus x2) + (ammo bonus x2); no armor."""
CROSSBOW_ARMOR_FACTOR: dict[str, int] = {"crossbow_1h": 1, "crossbow_2h": 2}
"""TD-12, TD-13: the target's armor is reduced by the weapon's Tier times this."""
