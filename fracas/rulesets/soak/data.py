"""soak's numbers as data (``../shared/rules/soak.md``).

Every value marked PROPOSED is a default the text does not give; each is the
default of an option (``sheet.Options``). The rules code reads these tables and
never spells a number of the rules itself.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from types import MappingProxyType

__all__ = [
    "ATTACK_SKILL",
    "COMPARE",
    "CRIT_NATURAL",
    "D20",
    "DEFAULT_ATTACK_AP",
    "DEFAULT_DV_TABLE",
    "DEFAULT_EV",
    "DEFAULT_MAX_AP",
    "DEFAULT_MAX_HP",
    "DEFAULT_MELEE_REACH",
    "EDGE_KEEP",
    "FULL_PERCENT",
    "FUMBLE_NATURAL",
    "KINDS",
    "MAX_DICE",
    "MAX_SIDES",
    "ODDS_MAX_ROLLS",
    "UNARMED",
    "UNARMED_SKILL",
]

D20 = 20
"""The attack and initiative die (SK-1, SK-2)."""

CRIT_NATURAL = 20
"""SK-5: a natural 20 hits and every damage die counts as its maximum."""

FUMBLE_NATURAL = 1
"""SK-6: a natural 1 does nothing special (option ``natural_1: miss``)."""

DEFAULT_MAX_HP = 20
"""SK-G4, PROPOSED: the size of the health track."""

DEFAULT_EV = 10
"""2.1, PROPOSED: Evasion Value of a sheet that gives none."""

DEFAULT_MAX_AP = 3
"""SK-G1, PROPOSED: AP per turn."""

DEFAULT_ATTACK_AP = 1
"""SK-G1, PROPOSED: AP an attack costs (a weapon's ``ap`` overrides it)."""

DEFAULT_MELEE_REACH = 1
"""2.3 ``out_of_reach``: tiles a melee or unarmed attack reaches (diagonals included)."""

DEFAULT_DV_TABLE: Mapping[int, int] = MappingProxyType({5: 10, 15: 13, 30: 16})
"""SK-G2, PROPOSED: max tiles -> DV; the first band that holds the distance; beyond the
last, out of range."""

ATTACK_SKILL: Mapping[str, str] = MappingProxyType({"melee": "dueling", "ranged": "marksmanship"})
"""SK-2, SK-A6: the skill of a weapon that names none, by its attack."""

UNARMED = "unarmed"
"""SK-11: the weapon every character has; also the short-hand ``is: unarmed``."""

UNARMED_SKILL = "brawling"
"""SK-11: unarmed attacks hit with Agility + Brawling and deal Brawling."""

KINDS = ("superficial", "aggravated")
"""SK-15: where damage goes on the health track."""

FULL_PERCENT = 100
"""SK-16, SK-G3, PROPOSED: additional damage against an armor material not in the
``material_percent`` table is taken in full."""

COMPARE: Mapping[str, Callable[[int, int], bool]] = MappingProxyType(
    {"meet": operator.ge, "exceed": operator.gt}
)
"""SK-3 (``meet``), SK-4: how a total compares with the number it must reach."""

EDGE_KEEP: Mapping[str, Callable[[int, int], int]] = MappingProxyType(
    {"advantage": max, "disadvantage": min}
)
"""SK-G1, SK-10: two d20, keep the higher (advantage) or the lower (disadvantage)."""

MAX_SIDES = 100
"""The largest damage die a weapon may name (d2 to d100; a d1 would explode forever)."""

MAX_DICE = 20
"""The most dice one weapon entry (``dice``, ``upgrades`` or ``additional``) may list."""

ODDS_MAX_ROLLS = 12
"""Exact odds: rolls along one dice path before the enumerator cuts it (exploding dice,
SK-7) and reports the cut mass. A typical attack (d20, then a proficient 1d8 and a 1d4
upgrade, or 1d10 with 1d4 additional) loses below 2e-6 of its probability at this depth;
``fracas odds --depth N`` goes deeper."""
