"""wasteland's numbers as data (``../shared/rules/wasteland.md``).

Every value marked PROPOSED is a default the text does not give; each is the
default of an option (``sheet.Options``) or of a sheet or weapon field. The rules
code reads these tables and never spells a number of the rules itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Literal

__all__ = [
    "AP_BASE",
    "BURST_EXTRA_AP",
    "CALLED_EXTRA_AP",
    "CAUTIOUS_NATURE_SEQUENCE",
    "CONDITION_LOSS",
    "D20",
    "DAMAGE_TYPES",
    "DEFAULT_BLAST_RADIUS",
    "DEFAULT_BURST_PENALTY",
    "DEFAULT_BURST_SHOTS",
    "DEFAULT_CALLED_PENALTY",
    "DEFAULT_CONDITION",
    "DEFAULT_CRITFAIL_MAX",
    "DEFAULT_CRIT_DICE",
    "DEFAULT_CRIT_MIN",
    "DEFAULT_CT_MAX",
    "DEFAULT_HIT_LOCATION",
    "DEFAULT_MAX_HP",
    "DEFAULT_RANGE_TILES",
    "DEFAULT_THROW_DIFFICULTY",
    "DEFAULT_WEAPON_AP",
    "DEFEND_MAX_AP",
    "DODGER_BONUS",
    "EVASION_BASE",
    "EVASION_LEVELS",
    "GLANCING_MARGIN",
    "INJURY_DC_BASE",
    "KIND_RANGE",
    "KIND_SKILL",
    "KIND_SPECIAL",
    "LIMBS",
    "LIMB_GROUP",
    "MILESTONES",
    "ODDS_MAX_ROLLS",
    "PERKS",
    "REACTIONS",
    "SEQUENCE_BASE",
    "SPECIALS",
    "UNARMED",
    "UNARMED_WEAPON",
    "ZONE_OF_THREAT_OPPORTUNITIES",
    "Band",
    "DamageType",
    "Injury",
    "LimbGroup",
    "LimbName",
]

LimbName = Literal["head", "torso", "left_arm", "right_arm", "left_leg", "right_leg"]
DamageType = Literal["physical", "energy", "radiation"]
Injury = Literal["none", "minor", "major"]
LimbGroup = Literal["head", "torso", "arms", "legs"]
Band = Literal["close", "medium", "long", "extreme"]

LIMBS: tuple[LimbName, ...] = ("head", "torso", "left_arm", "right_arm", "left_leg", "right_leg")
"""1.2: the six limbs, in the order the log and the output list them."""

DAMAGE_TYPES: tuple[DamageType, ...] = ("physical", "energy", "radiation")
"""1.2: DT and DR are given per damage type (WL-14)."""

SPECIALS: tuple[str, ...] = ("str", "per", "end", "cha", "int", "agi", "lck")
"""1.2: the SPECIAL modifiers; the sheet names them ``str_mod`` … ``lck_mod``."""

D20 = 20
"""WL-6, WL-11: the attack die and the hit-location die."""

# --- turn economy ---------------------------------------------------------------

AP_BASE = 8
"""WL-2: Maximum AP = 8 + floor(AGI MOD / 2)."""

SEQUENCE_BASE = 10
"""WL-1: Sequence = 10 + PER MOD + AGI MOD + CHA MOD."""

CAUTIOUS_NATURE_SEQUENCE = 5
"""WL-1: Cautious Nature grants +5 Sequence."""

EVASION_BASE = 10
"""WL-8: Evasion = 10 + AGI MOD + 1 every 4 levels."""

EVASION_LEVELS = 4
"""WL-8: +1 Evasion every 4 levels, starting at level 4."""

CALLED_EXTRA_AP = 1
"""WL-5: a Called Shot costs +1 AP."""

BURST_EXTRA_AP = 1
"""WL-5: Burst Fire costs +1 AP (+2 with a Called Shot)."""

DEFEND_MAX_AP = 3
"""WL-29: Defend spends all remaining AP, up to 3, +1 Evasion each."""

DODGER_BONUS = 2
"""WL-29: Dodger (Rank 1) adds +2 Evasion when Defending."""

# --- the roll -----------------------------------------------------------------

DEFAULT_CRIT_MIN = 20
"""WL-G4, PROPOSED: a natural >= 20 is a CRIT."""

DEFAULT_CRITFAIL_MAX = 1
"""WL-G4, PROPOSED: a natural <= 1 is a CRITFAIL."""

GLANCING_MARGIN = 10
"""WL-12: the Glancing Threshold of a standard attack is Evasion + 10."""

CONDITION_LOSS = 1
"""WL-10: a CRITFAIL costs the weapon 1 Condition (never below 0, PROPOSED)."""

DEFAULT_HIT_LOCATION: Mapping[LimbName, tuple[int, int]] = MappingProxyType(
    {
        # WL-G1, PROPOSED: the Hit Location Table the text names but does not give.
        "head": (1, 2),
        "torso": (3, 8),
        "left_arm": (9, 11),
        "right_arm": (12, 14),
        "left_leg": (15, 17),
        "right_leg": (18, 20),
    }
)

LIMB_GROUP: Mapping[LimbName, LimbGroup] = MappingProxyType(
    {
        "head": "head",
        "torso": "torso",
        "left_arm": "arms",
        "right_arm": "arms",
        "left_leg": "legs",
        "right_leg": "legs",
    }
)
"""WL-G2: called-shot penalties are given per group of limbs."""

DEFAULT_CALLED_PENALTY: Mapping[LimbGroup, int] = MappingProxyType(
    {"head": 4, "torso": 1, "arms": 2, "legs": 2}  # WL-G2, PROPOSED
)

DEFAULT_BURST_SHOTS = 3
"""WL-G2, PROPOSED: shots of a burst whose weapon says ``burst: true``."""

DEFAULT_BURST_PENALTY = 2
"""WL-G2, PROPOSED: the Burst Fire Penalty on every shot's roll."""

DEFAULT_RANGE_TILES: Mapping[Band, int] = MappingProxyType(
    {"close": 5, "medium": 10, "long": 20, "extreme": 40}  # WL-35, WL-G16, PROPOSED
)

# --- damage -------------------------------------------------------------------

DEFAULT_MAX_HP = 20
"""WL-G5, PROPOSED: max HP of a combatant whose file gives none."""

DEFAULT_CT_MAX = 10
"""WL-G5, PROPOSED: a limb's Cripple Threshold maximum."""

INJURY_DC_BASE = 10
"""WL-21: a Major Injury's test is DC 10 + damage above threshold."""

# --- perks and milestones -----------------------------------------------------

MILESTONES: Mapping[str, tuple[str, int]] = MappingProxyType(
    {
        # 2.1: a milestone "Skill +N" is held with skills[skill] >= N or the perk named.
        "melee_3": ("melee", 3),
        "melee_7": ("melee", 7),
        "melee_10": ("melee", 10),
        "pilot_7": ("pilot", 7),
        "survival_10": ("survival", 10),
    }
)

REACTIONS: Mapping[str, str] = MappingProxyType(
    {
        # WL-31: the Reactions and what each needs (a milestone or the perk of its name).
        "warden_swap": "melee_10",
        "hit_the_deck": "hit_the_deck",
        "snap_shot": "snap_shot",
        "evasive_maneuvering": "pilot_7",
    }
)

ZONE_OF_THREAT_OPPORTUNITIES = 2
"""WL-31: Opportunity Attacks per round with Zone of Threat (1 without)."""

PERKS: tuple[str, ...] = (
    "dodger",
    "cautious_nature",
    "trigger_discipline",
    "deal_with_the_reaper",
    "too_stubborn_to_die",
    "zone_of_threat",
    "hit_the_deck",
    "snap_shot",
    *MILESTONES,
)
"""2.1: every name ``perks`` may hold (perks, traits and milestones)."""

# --- weapons --------------------------------------------------------------------

DEFAULT_WEAPON_AP = 4
"""2.3, PROPOSED: single-fire AP of a weapon that gives none."""

DEFAULT_CONDITION = 10
"""2.3, PROPOSED: a weapon's Condition."""

DEFAULT_CRIT_DICE = "1d6"
"""2.3, PROPOSED: CRIT dice of a weapon that gives none (they explode, WL-9)."""

DEFAULT_THROW_DIFFICULTY = 10
"""WL-G8, PROPOSED: an explosive's Throw Difficulty."""

DEFAULT_BLAST_RADIUS = 1
"""WL-G8, PROPOSED: an explosive's blast radius in tiles."""

KIND_SKILL: Mapping[str, str] = MappingProxyType(
    {"ranged": "guns", "melee": "melee", "unarmed": "unarmed", "explosive": "explosives"}
)
"""2.3, PROPOSED: the skill a weapon adds to the roll when it names none."""

KIND_SPECIAL: Mapping[str, str] = MappingProxyType(
    {"ranged": "agi", "melee": "str", "unarmed": "str", "explosive": "per"}
)
"""2.3, PROPOSED: the SPECIAL modifier a weapon adds to the roll when it names none."""

KIND_RANGE: Mapping[str, str | None] = MappingProxyType(
    {"ranged": "medium", "melee": None, "unarmed": None, "explosive": "medium"}
)
"""2.3: the range band of a weapon that gives none; melee and unarmed reach 1 tile."""

UNARMED = "unarmed"
UNARMED_WEAPON: Mapping[str, object] = MappingProxyType(
    {"name": UNARMED, "kind": "unarmed", "damage": "1d4", "crit_dice": "1d4", "ap": 3}
)
"""2.3, PROPOSED: the unarmed short-hand, usable by everyone even when not listed."""

ODDS_MAX_ROLLS = 24
"""Exact odds: CRIT dice explode (WL-9); a path is cut after this many rolls."""
