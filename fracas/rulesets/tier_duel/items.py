"""tier-duel weapons and spells (2.2): an item is a mapping or a short-hand string.

``hand: {is: crossbow_2h, tier: 3}`` takes the short-hand's fields and overrides
some. The defaults that depend on the type (skill, range) are filled when the
item is read; the melee reach depends on the options and is read at the roll
(:func:`wielded`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field
from pydantic_core import PydanticCustomError

from fracas.model import Combatant
from fracas.rulesets.shorthands import expand_shorthand
from fracas.rulesets.tier_duel.data import SHORTHANDS, TYPES, UNARMED

__all__ = ["Item", "Wielded", "check_item", "expand_item", "wielded"]

ItemType = Literal[
    "melee_1h", "melee_2h", "bow", "thrown", "crossbow_1h", "crossbow_2h", "firearm", "spell"
]
Tiles = Annotated[int, Field(ge=0)]


@dataclass(frozen=True, slots=True)
class Item:
    """A weapon or a spell (2.2)."""

    __pydantic_config__ = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    name: str
    """What `equip` and `cast` name; default: the short-hand."""
    type: ItemType
    """melee_1h, melee_2h, bow, thrown, crossbow_1h, crossbow_2h, firearm or spell; required
    without `is`."""
    tier: Annotated[int, Field(ge=0)] = 1
    """The weapon bonus (TD-4, TD-8, TD-12, TD-18)."""
    skill: str | None = None
    """The skill rolled with it; default: bow, thrown, crossbow, firearm by type, a melee
    short-hand's own (greatsword: sword), else the item's name; none for spells."""
    reach: Tiles | None = None
    """Melee reach in tiles; default: melee_1h the option reach_1h (1), melee_2h reach_2h (2),
    others 0 (TD-6, TD-G5)."""
    range: Tiles | None = None
    """Maximum shooting range in tiles; default: bow 20, thrown 6, crossbows 20 (PROPOSED,
    TD-G5); a firearm's is its contested_zone."""
    loaded: bool = True
    """Crossbows and firearms: ready to fire (TD-11, TD-15, TD-16)."""
    ammo_bonus: int = 0
    """Firearms: the ammo bonus (TD-18, TD-G8)."""
    guaranteed_zone: Tiles = 5
    """Firearms: an automatic hit up to here (TD-16; PROPOSED 5)."""
    contested_zone: Tiles = 15
    """Firearms: contested up to here, out of range beyond (TD-17; PROPOSED 15)."""
    damage: Annotated[int, Field(ge=0)] = 0
    """Spells: damage removed from the receiver's HP (TD-19, TD-G8)."""
    effect: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")] | None = None
    """Spells: a status (snake_case) put on the receiver (TD-19)."""


def expand_item(value: Any) -> Any:
    """Pydantic before-validator: a short-hand string or ``is:`` becomes full fields (2.2)."""
    return expand_shorthand(value, SHORTHANDS, Item, what="item", unknown_code="unknown_item")


def check_item(item: Item | None) -> Item | None:
    """Pydantic after-validator: fill the type's skill and range; firearm zones in order."""
    if item is None:
        return None
    kind = TYPES[item.type]
    skill = item.skill
    if skill is None and kind.event != "spell":
        skill = kind.skill or item.name  # TD-G7: a melee weapon's skill is its type's
    rng = item.range if item.range is not None else kind.range
    if kind.event == "firearm" and item.guaranteed_zone > item.contested_zone:
        raise PydanticCustomError(
            "bad_zones",
            "firearm {name}: guaranteed_zone {g} is beyond contested_zone {c}",
            {"name": repr(item.name), "g": item.guaranteed_zone, "c": item.contested_zone},
        )
    return dataclasses.replace(item, skill=skill, range=rng)


@dataclass(frozen=True, slots=True)
class Wielded:
    """What a combatant fights with at this moment: its hand, or bare hands."""

    name: str
    type: str
    """The item's type, or ``unarmed``."""
    event: str
    """What an `attack` with it starts (``TYPES``); bare hands: ``melee``."""
    tier: int
    skill: str | None
    reach: int
    item: Item | None

    @property
    def is_melee_weapon(self) -> bool:
        """A melee weapon equipped (TD-9): bare hands are not one."""
        return self.item is not None and self.event == "melee"


def reach_of(item: Item, reach_1h: int, reach_2h: int) -> int:
    """TD-G5: the item's own reach, else its type's by the options, else 0."""
    if item.reach is not None:
        return item.reach
    option = TYPES[item.type].reach_option
    return {"reach_1h": reach_1h, "reach_2h": reach_2h}.get(option or "", 0)


def wielded(c: Combatant, reach_1h: int, reach_2h: int) -> Wielded:
    """The weapon ``c`` holds (2.1: an empty hand is Tier 0, skill unarmed, reach 1)."""
    item: Item | None = c.sheet.hand
    if item is None:
        u = UNARMED
        return Wielded(u.name, "unarmed", "melee", u.tier, u.skill, u.reach, None)
    return Wielded(
        item.name,
        item.type,
        TYPES[item.type].event,
        item.tier,
        item.skill,
        reach_of(item, reach_1h, reach_2h),
        item,
    )
