"""soak's sheet fields (soak.md 2.1) and options (2.5), validated by pydantic."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Literal

from pydantic import AfterValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError

from fracas.rulesets.names import unique_names
from fracas.rulesets.soak.data import (
    DEFAULT_ATTACK_AP,
    DEFAULT_DV_TABLE,
    DEFAULT_EV,
    DEFAULT_MAX_AP,
    DEFAULT_MAX_HP,
    DEFAULT_MELEE_REACH,
)
from fracas.rulesets.soak.weapons import DVTable, Kind, WeaponField

__all__ = ["Options", "Sheet"]

NonNegative = Annotated[int, Field(ge=0)]


_unique_weapons = unique_names(
    "two weapons are named {name}: attacks name weapons, give each its own name"
)


@dataclass(frozen=True, slots=True)
class Sheet:
    """2.1: a soak character sheet, beyond the shared id/name/side/at/hp/max_hp.

    ``hp`` is derived: ``max(0, max_hp - superficial - aggravated)``; a file or ``set``
    that gives ``hp`` sets ``superficial`` to match.
    """

    __pydantic_config__ = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    superficial: NonNegative = 0
    """Superficial damage taken (SK-15)."""
    aggravated: NonNegative = 0
    """Aggravated damage taken (SK-15)."""
    agility: int = 0
    """Added to every attack roll (SK-2, SK-11) and to initiative (SK-G1)."""
    strength: int = 0
    """Added to base damage with a weapon the character is proficient with (SK-8)."""
    skills: Annotated[Mapping[str, int], Field(json_schema_extra={"default": {}})] = field(
        default_factory=dict
    )
    """Skill name -> value: dueling, marksmanship, brawling, ...; a missing skill is 0
    (SK-2, SK-8, SK-11)."""
    proficiencies: tuple[str, ...] = ()
    """Weapon types the character is proficient with: their dice explode and Strength
    adds to base damage (SK-7, SK-8). Matched exactly against each weapon's `type` (its
    name by default); a type it carries no weapon of is kept (`status NAME` says so)."""
    ev: int | None = None
    """Evasion Value a melee or unarmed attack must meet (SK-3); default: the `ev` option."""
    av: NonNegative = 0
    """Armor Value: soaks base damage, drops by 1 when damage gets through (SK-12, SK-13)."""
    material: str | None = None
    """Armor material, for additional damage (SK-16)."""
    wounds: NonNegative = 0
    """Wounds received, at most one per attack (SK-14)."""
    initiative: int | None = None
    """Turn order value; null: rolled d20 + agility as the encounter starts (SK-1)."""
    max_ap: NonNegative | None = None
    """AP at the start of each turn; default: the `max_ap` option (SK-1, SK-G1)."""
    ap: NonNegative | None = None
    """AP left this turn; default: max_ap (SK-G1)."""
    weapons: Annotated[tuple[WeaponField, ...], AfterValidator(_unique_weapons)] = ()
    """The first is the default weapon; `unarmed` is always available (2.2)."""


def _check_materials(table: Mapping[str, int]) -> Mapping[str, int]:
    for key in table:
        material, _, kind = key.partition("/")
        if not material or not kind:
            raise PydanticCustomError(
                "bad_material_key",
                "{key}: write 'material/type', e.g. 'leather/fire'",
                {"key": repr(key)},
            )
    return table


@dataclass(frozen=True, slots=True)
class Options:
    """2.5: every PROPOSED default as an option."""

    __pydantic_config__ = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    ranged_compare: Literal["meet", "exceed"] = "meet"
    """A ranged attack hits when its total meets (>=) or exceeds (>) the DV (SK-4)."""
    natural_1: Literal["nothing", "miss"] = "nothing"
    """A natural 1 does nothing special, or always misses (SK-6)."""
    explode: Literal["repeat", "once"] = "repeat"
    """An exploding die keeps exploding while it shows its maximum, or explodes once
    (SK-7, SK-A4)."""
    soak_equal: Literal["blocks", "erodes"] = "blocks"
    """Base damage equal to AV: nothing gets through, or 0 gets through and AV drops
    (SK-12, SK-A2)."""
    av_floor: int = 0
    """AV never erodes below this (SK-13)."""
    wound_needs_through: bool = True
    """A wound needs base damage through the armor; false: any hit with a maximum die
    wounds (SK-14, SK-A3)."""
    wound_dice: Literal["all", "base"] = "all"
    """Dice whose maximum wounds: all (base, explosions, additional) or base only (SK-14)."""
    damage_kind: Kind = "superficial"
    """Where damage goes when the weapon does not say (SK-15, SK-G4)."""
    additional_vs_av: Literal["ignore", "soak"] = "ignore"
    """Additional damage ignores AV, or is reduced by it without eroding it (SK-16, SK-G8)."""
    material_percent: Annotated[
        Mapping[str, NonNegative],
        AfterValidator(_check_materials),
        Field(json_schema_extra={"default": {}}),
    ] = field(default_factory=dict)
    """'material/type' -> percent of additional damage taken; missing: 100 (SK-16, SK-G3)."""
    crit_maxes_additional: bool = True
    """A natural 20 puts the additional dice at their maximum too (SK-5, SK-9)."""
    edges_cancel: bool = True
    """Advantage and disadvantage together cancel; false: disadvantage prevails
    (SK-10, SK-G1)."""
    improvised_strength: Literal["similar", "never"] = "similar"
    """Strength on improvised weapons: if proficient with the similar type, or never
    (SK-A7)."""
    dv_table: DVTable = field(default_factory=lambda: dict(DEFAULT_DV_TABLE))
    """Max tiles -> DV of a ranged weapon that gives none (SK-G2)."""
    max_hp: Annotated[int, Field(ge=1)] = DEFAULT_MAX_HP
    """Health track of a combatant whose file gives no max_hp (SK-G4)."""
    ev: int = DEFAULT_EV
    """EV of a sheet that gives none (SK-3)."""
    max_ap: NonNegative = DEFAULT_MAX_AP
    """AP per turn of a sheet that gives none (SK-G1)."""
    attack_ap: NonNegative = DEFAULT_ATTACK_AP
    """AP an attack costs with a weapon that gives no `ap` (SK-G1)."""
    melee_reach: Annotated[int, Field(ge=1)] = DEFAULT_MELEE_REACH
    """Tiles a melee or unarmed attack reaches, diagonals included (2.3 out_of_reach)."""
    metric: Literal["chebyshev", "manhattan"] = "chebyshev"
    """How tiles are counted (1.1)."""
    initiative: Literal["d20_agility", "file_order"] = "d20_agility"
    """Turn order: d20 + Agility, highest first; or the order of the file's combatants
    (SK-1, SK-G1)."""
