"""dice-combat's numbers, as data: weapon classes, range bands, groups, traits, crits.

Sources: ``../shared/rules/dice-combat.md`` 1.5 (weapon classes), DC-12 (bands),
DC-13 (range modifiers, per revision), DC-14 (gun groups and traits), DC-36
(critical profiles), DC-17/DC-27 (throw and explosive ranges).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fracas.dice.notation import Expression, parse

__all__ = [
    "BANDS",
    "BEGAN_UNARMED",
    "BURN_DAMAGE",
    "BURN_TURNS",
    "CHANGED_WEAPON",
    "CLASSES",
    "CRIT_PROFILES",
    "EDGES",
    "GROUP_TRAITS",
    "THROW",
    "TRAITS",
    "CritProfile",
    "WeaponClass",
]


@dataclass(frozen=True, slots=True)
class WeaponClass:
    """One weapon class of section 1.5."""

    name: str
    label: str
    damage: int
    kind: str
    """``melee``, ``gun`` or ``explosive`` (how it attacks)."""
    max_range: int = 1
    ammo: Expression | None = None
    """Rounds used per attack (DC-9); None for weapons without ammunition."""
    range_mods: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    """Revision -> (close, medium, long) attack modifiers (DC-13)."""
    radius: int = 0
    """Blast radius of an explosive: 1 is 3x3, 2 is 5x5 (DC-24)."""
    burns: int = 0
    """Further burning ticks at the start of the victim's turns (DC-24, DC-25)."""


def _gun(
    name: str,
    label: str,
    damage: int,
    reach: int,
    ammo: str,
    mods: tuple[int, int, int],
    mods_a: tuple[int, int, int] | None = None,
) -> WeaponClass:
    return WeaponClass(
        name, label, damage, "gun", reach, parse(ammo), {"B": mods, "A": mods_a or mods}
    )


CLASSES: dict[str, WeaponClass] = {
    c.name: c
    for c in (
        # DC-5: unarmed 1, one-handed 2, two-handed 3; reach 1 (DC-6).
        WeaponClass("unarmed", "unarmed", 1, "melee"),
        WeaponClass("one_handed_melee", "one-handed melee", 2, "melee"),
        WeaponClass("two_handed_melee", "two-handed melee", 3, "melee"),
        # DC-7, DC-9, DC-13: damage, max range, rounds per attack, range modifiers B (A).
        _gun("pistol", "pistol", 3, 15, "1d3", (1, 0, -2), (0, 0, -2)),
        _gun("smg", "SMG", 4, 15, "1d3", (0, 0, -2), (1, 0, -2)),
        _gun("shotgun", "shotgun", 4, 15, "1", (2, 0, -4)),
        _gun("rifle", "rifle", 4, 20, "1d3", (-4, 0, 1)),
        _gun("crossbow", "crossbow", 4, 20, "1", (-2, 0, 1)),
        # DC-24: explosives, range 10 (DC-27).
        WeaponClass("bomb", "bomb", 4, "explosive", 10, radius=2),
        WeaponClass("molotov", "Molotov", 1, "explosive", 10, radius=1, burns=2),
    )
}

BANDS: tuple[tuple[int, str], ...] = ((5, "close"), (12, "medium"))
"""DC-12: Close 1-5, Medium 6-12, Long 13+ (the last band is everything beyond)."""


def band(distance: int) -> str:
    """The range band of a distance in tiles (DC-12)."""
    for limit, name in BANDS:
        if distance <= limit:
            return name
    return "long"


BAND_INDEX = {"close": 0, "medium": 1, "long": 2}

GROUP_TRAITS: dict[str, frozenset[str]] = {
    # DC-14: gun traits by group.
    "close": frozenset({"snapshooter", "gunslinger"}),
    "medium": frozenset({"rifleman", "dead_eye"}),
    "long": frozenset({"spotter", "longshot"}),
}

TRAITS: tuple[str, ...] = (
    "strong_arm",
    "snapshooter",
    "gunslinger",
    "rifleman",
    "dead_eye",
    "spotter",
    "longshot",
    "hewer",
    "cutter",
)
"""Every trait a sheet may name (2.1); Hewer and Cutter have no effect (DC-G4)."""

CLASS_GROUPS: dict[str, dict[str, str]] = {
    # DC-14 and 2.2: the group of a gun class by revision, before named items override it.
    "B": {
        "pistol": "close",
        "shotgun": "close",
        "smg": "medium",
        "rifle": "long",
        "crossbow": "long",
    },
    "A": {
        "pistol": "medium",
        "smg": "close",
        "shotgun": "close",
        "rifle": "long",
        "crossbow": "long",
    },
}


@dataclass(frozen=True, slots=True)
class ThrowTable:
    """DC-16, DC-17, DC-27: weapon throws and explosive throws."""

    damage: int = 2
    strong_arm_damage: int = 1
    max_range: int = 10
    strong_arm_range: dict[str, int] = field(default_factory=lambda: {"B": 15, "A": 13})


THROW = ThrowTable()


@dataclass(frozen=True, slots=True)
class CritProfile:
    """DC-36: the naturals that are critical successes and failures."""

    success: frozenset[int]
    failure: frozenset[int]


CRIT_PROFILES: dict[str, CritProfile] = {
    "normal": CritProfile(frozenset({20}), frozenset({1})),
    "wildcard": CritProfile(frozenset({19, 20}), frozenset({1, 2})),
    "even_keel": CritProfile(frozenset(), frozenset()),
}

CRIT_DIE = parse("1d4")
"""DC-37, DC-39: a critical success or a defender's fumble adds 1d4."""

SCATTER_DIE = parse("1d3")
"""DC-34: how far a critically failed explosive goes wide."""

BURN_LUCK = {"none": 0, "lucky": -1, "unlucky": 1}
"""DC-25: the victim's luck shortens or lengthens burning by one turn."""

COVER_BONUS = 2
"""DC-32: +2 on Defend (ranged) in cover."""

BURN_TURNS = CLASSES["molotov"].burns
"""DC-24: a Molotov burns for 2 further turns (``burning``'s default ``turns``)."""

BURN_DAMAGE = CLASSES["molotov"].damage
"""DC-24, P-DC-3: each tick deals the Molotov's damage, 1 (``burning``'s default ``damage``)."""

EDGES = ("advantage", "disadvantage")
"""DC-G2: an attack or Defend rolled with two d20s, the higher or the lower kept."""

CHANGED_WEAPON = "changed_weapon"
"""The turn's flag after a paid ``equip``: no other action this turn (DC-21)."""

BEGAN_UNARMED = "began_unarmed"
"""The combatant's mark until its first ``equip``: that equip is free (DC-22)."""
