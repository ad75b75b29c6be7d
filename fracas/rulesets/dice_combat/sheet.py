"""dice-combat's sheet fields (2.1) and options (2.5)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import AfterValidator, BeforeValidator, ConfigDict, Field

from fracas.rulesets.dice_combat.data import TRAITS
from fracas.rulesets.dice_combat.items import Item, check_item, expand_item
from fracas.rulesets.names import one_of

__all__ = ["Options", "Sheet"]


def _check_trait(name: str) -> str:
    return one_of(name, TRAITS, "unknown_trait", "trait")


Trait = Annotated[str, AfterValidator(_check_trait)]
HeldItem = Annotated[Item | None, BeforeValidator(expand_item), AfterValidator(check_item)]
CarriedItem = Annotated[Item, BeforeValidator(expand_item), AfterValidator(check_item)]


@dataclass(frozen=True, slots=True)
class Sheet:
    """2.1: a dice-combat character sheet, beyond the shared id/name/side/at/hp/max_hp."""

    __pydantic_config__ = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    attack_bonus: int = 0
    """Flat bonus on every attack roll, throws included (DC-G1, DC-43)."""
    defend_close_bonus: int = 0
    """Bonus on Defend (close) (DC-5, DC-G1)."""
    defend_ranged_bonus: int = 0
    """Bonus on Defend (ranged) (DC-16, DC-32)."""
    crit: Literal["normal", "wildcard", "even_keel"] = "normal"
    """Critical profile, attack and defence (DC-36)."""
    luck: Literal["none", "lucky", "unlucky"] = "none"
    """Burning lasts 1 turn less / more (DC-25)."""
    traits: tuple[Trait, ...] = ()
    """From strong_arm, snapshooter, gunslinger, rifleman, dead_eye, spotter, longshot,
    hewer, cutter (DC-14 to DC-20, DC-G4)."""
    cover: bool = False
    """+2 on Defend (ranged) (DC-32, DC-G8)."""
    surrendered: bool = False
    """Recorded; explosions still catch surrendered combatants (DC-31)."""
    hand: HeldItem = None
    """The primary hand, the only weapon read (DC-3, DC-4)."""
    inventory: tuple[CarriedItem, ...] = ()
    """Carried items, equipped with ``equip`` (DC-21, DC-22)."""


@dataclass(frozen=True, slots=True)
class Options:
    """2.5: every PROPOSED default as an option."""

    __pydantic_config__ = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    revision: Literal["B", "A"] = "B"
    """Page revision: B (latest) or A (DC-A1, 1.4)."""
    ties_hit: bool = True
    """Melee and gun ties go to the attacker (DC-43, DC-G5)."""
    gun_defend: Literal["ranged", "close"] = "ranged"
    """Which Defend a gun's target rolls (DC-7)."""
    cover_all_ranged: bool = True
    """False: cover counts against explosives only (DC-G8)."""
    gun_trait_bonus: int = 1
    """Attack bonus of a gun trait of the weapon's group (DC-14, DC-G3)."""
    gun_trait_stacks: bool = False
    """Two traits of the group give the bonus twice (DC-14)."""
    strong_arm_penalty: Annotated[int, Field(ge=0)] = 1
    """Penalty of Strong Arm on non-throw attacks (DC-20)."""
    ammo_on_miss: bool = True
    """False: rounds are removed only on a hit (DC-9, DC-A8)."""
    scrap_floor: int = 1
    """Scrap damage never goes below this (DC-11, DC-26)."""
    scrap_molotov: Literal["per_hit", "drop_tick"] = "per_hit"
    """per_hit: 1 less per instance, floored; drop_tick: a scrap Molotov burns 1 turn less
    (DC-A6)."""
    actions_per_turn: Annotated[int, Field(ge=1)] = 1
    """Actions per turn (DC-23)."""
    free_same_kind_swap: bool = True
    """False: every equip costs the action (DC-21)."""
    machine_pistol: Literal["pistol", "smg"] = "pistol"
    """The class of a machine pistol (DC-A2)."""
    burn_reignite: Literal["max", "add"] = "max"
    """Re-ignition: turns = max(current, new), or their sum (P-DC-4, DC-G13)."""
    ko_burns: bool = True
    """Burning continues at 0 HP (DC-G13)."""
