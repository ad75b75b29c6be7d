"""tier-duel's sheet fields (2.1) and options (2.5)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Literal

from pydantic import AfterValidator, BeforeValidator, ConfigDict, Field

from fracas.rulesets.tier_duel.items import Item, check_item, expand_item

__all__ = ["Options", "Sheet"]

HeldItem = Annotated[Item | None, BeforeValidator(expand_item), AfterValidator(check_item)]
CarriedItem = Annotated[Item, BeforeValidator(expand_item), AfterValidator(check_item)]
Count = Annotated[int, Field(ge=0)]


@dataclass(frozen=True, slots=True)
class Sheet:
    """2.1: a tier-duel character, beyond the shared id/name/side/at/hp/max_hp."""

    __pydantic_config__ = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    reflex: int = 0
    """Added to every combat contest (TD-1, TD-7, TD-17) and the stealth strike (TD-23)."""
    body: int = 0
    """Melee, thrown and stealth damage (TD-4, TD-8, TD-23)."""
    presence: int = 0
    """The stealth contest (TD-20)."""
    skills: Annotated[dict[str, int], Field(json_schema_extra={"default": {}})] = field(
        default_factory=dict
    )
    """Skill name -> level: weapon skills (sword, axe, spear, bow, thrown, unarmed, ...),
    crossbow (also the automatic-hit range in tiles, TD-11), firearm, stealth; a missing
    skill is 0."""
    armor_tier: Count = 0
    """Armor bonus, part 1 (TD-4)."""
    shield_tier: Count = 0
    """Armor bonus, part 2 (TD-4); firearms ignore it too (TD-G10)."""
    hand: HeldItem = None
    """The equipped weapon or spell; null: unarmed (Tier 0, skill unarmed, reach 1)."""
    inventory: tuple[CarriedItem, ...] = ()
    """Carried weapons and spells, for `equip` and `cast`."""
    temporary_damage: Count = 0
    """Damage taken so far, removed from HP "temporarily" (TD-5, TD-A7)."""


@dataclass(frozen=True, slots=True)
class Options:
    """2.5: every PROPOSED default as an option."""

    __pydantic_config__ = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    max_hp: Annotated[int, Field(ge=1)] = 20
    """max_hp of a combatant whose file gives none (TD-G1)."""
    tie_result: Literal["none", "initiator", "defender"] = "none"
    """Who wins a tied contest, with a difference of 0 (TD-3, TD-10, TD-G2)."""
    damage_floor: int | None = 0
    """Damage never goes below this; null: negative damage heals (TD-4, TD-8, TD-12, TD-13,
    TD-23, TD-G9)."""
    projectile_defender_skill: Literal["best", "held"] = "best"
    """The defender's skill against projectiles and contested shots: its best weapon skill,
    or its held weapon's (TD-7, TD-A4)."""
    projectile_counter: bool = True
    """A melee defender who beats a projectile within its reach deals TD-4 damage (TD-9,
    TD-A5)."""
    crossbow_formula: Literal["text", "literal"] = "text"
    """text: armor reduced by Tier (x2), never below 0; literal: the formula lines, no floor
    on armor (TD-A1, TD-A2)."""
    crossbow_beyond_skill: Literal["contest", "refuse"] = "contest"
    """A crossbow beyond its skill range: a contested shot, or refused (TD-G3)."""
    unload_on_fire: bool = True
    """Firing unloads a crossbow or firearm (TD-15)."""
    firearm_ignores_shield: bool = True
    """False: the shield counts against firearms (armor never does) (TD-G10)."""
    spell_ignores_armor: bool = True
    """False: armor and shield count against spell damage (TD-19)."""
    stealth_tie: Literal["fail", "win"] = "fail"
    """A tied stealth contest (TD-22)."""
    contested_actions: Count = 1
    """Contested actions per round (TD-G6)."""
    noncontested_actions: Count = 1
    """Non-contested actions per round (TD-G6)."""
    reach_1h: Count = 1
    """Reach of one-handed melee weapons (TD-G5)."""
    reach_2h: Count = 2
    """Reach of two-handed melee weapons (TD-G5)."""
    track_temporary: bool = True
    """Add damage taken to temporary_damage (TD-5, TD-A7)."""
