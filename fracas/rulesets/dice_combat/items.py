"""dice-combat items: described by what they are; the class is derived (DC-3).

An item in a file is a mapping or a short-hand string (``pistol``,
``{is: pistol, loaded: 2, scrap: true}``). Its weapon class and gun group are
never stored: they are read from the item at the moment of the roll.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from pydantic import ConfigDict
from pydantic_core import PydanticCustomError

from fracas.rulesets.dice_combat.data import CLASS_GROUPS, CLASSES, WeaponClass
from fracas.rulesets.shorthands import expand_shorthand

__all__ = ["SHORTHANDS", "Item", "check_item", "expand_item", "gun_group", "weapon_class"]


@dataclass(frozen=True, slots=True)
class Item:
    """A carried item (2.2)."""

    __pydantic_config__ = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    name: str = "item"
    """What `equip` names; default: the short-hand, else `item`."""
    type: Literal["melee", "gun", "explosive", "fire", "other"] = "other"
    """`gun` covers crossbows; `fire` is a Molotov or fire bomb."""
    hands: Literal[1, 2] = 1
    """Hands it needs."""
    fires: Literal["rounds", "shells", "bolts"] = "rounds"
    """What a gun fires."""
    automatic: bool = False
    """An automatic gun."""
    sawn_off: bool = False
    """A sawn-off gun."""
    subtype: str | None = None
    """Named kinds the rules single out: pistol, revolver, machine_pistol, hand_crossbow,
    machine_gun, or another name."""
    short: bool = False
    """A short blade or short blunt weapon: throwable with Strong Arm (DC-15)."""
    scrap: bool = False
    """Scrap: 1 less damage (DC-11, DC-16, DC-26)."""
    capacity: int | None = None
    """Rounds a gun holds; the short-hand's, 1 for bolts (DC-G6)."""
    loaded: int | None = None
    """Rounds loaded, 0..capacity; default: capacity."""

    @property
    def is_ranged_kind(self) -> bool:
        """DC-21: guns, explosives and fire weapons are ranged; melee and other are not."""
        return self.type in ("gun", "explosive", "fire")


_G = "gun"
SHORTHANDS: dict[str, dict[str, Any]] = {
    # 2.2 short-hands; capacities are PROPOSED (DC-G6).
    "pistol": {"type": _G, "hands": 1, "fires": "rounds", "subtype": "pistol", "capacity": 8},
    "revolver": {"type": _G, "hands": 1, "fires": "rounds", "subtype": "revolver", "capacity": 6},
    "machine_pistol": {
        "type": _G,
        "hands": 1,
        "fires": "rounds",
        "automatic": True,
        "subtype": "machine_pistol",
        "capacity": 12,
    },
    "smg": {"type": _G, "hands": 1, "fires": "rounds", "automatic": True, "capacity": 20},
    "shotgun": {"type": _G, "hands": 2, "fires": "shells", "capacity": 5},
    "sawn_off_shotgun": {
        "type": _G,
        "hands": 2,
        "fires": "shells",
        "sawn_off": True,
        "capacity": 2,
    },
    "rifle": {"type": _G, "hands": 2, "fires": "rounds", "capacity": 5},
    "sawn_off_rifle": {"type": _G, "hands": 2, "fires": "rounds", "sawn_off": True, "capacity": 5},
    "machine_gun": {
        "type": _G,
        "hands": 2,
        "fires": "rounds",
        "automatic": True,
        "subtype": "machine_gun",
        "capacity": 30,
    },
    "crossbow": {"type": _G, "hands": 2, "fires": "bolts", "capacity": 1},
    "hand_crossbow": {
        "type": _G,
        "hands": 1,
        "fires": "bolts",
        "subtype": "hand_crossbow",
        "capacity": 1,
    },
    "knife": {"type": "melee", "hands": 1, "short": True},
    "club": {"type": "melee", "hands": 1, "short": True},
    "sword": {"type": "melee", "hands": 1},
    "greataxe": {"type": "melee", "hands": 2},
    "grenade": {"type": "explosive", "hands": 2},
    "pipe_bomb": {"type": "explosive", "hands": 2},
    "aerosol_bomb": {"type": "explosive", "hands": 2},
    "molotov": {"type": "fire", "hands": 2},
    "fire_bomb": {"type": "fire", "hands": 2},
}

_PISTOL_SUBTYPES = frozenset({"pistol", "revolver", "machine_pistol"})


def expand_item(value: Any) -> Any:
    """Pydantic before-validator: a short-hand string or ``is:`` becomes full fields (2.2)."""
    return expand_shorthand(value, SHORTHANDS, Item, what="item", unknown_code="unknown_item")


def check_item(item: Item | None) -> Item | None:
    """Pydantic after-validator: gun capacity and loaded rounds (2.2)."""
    if item is None:
        return None
    if item.type != "gun":
        if item.capacity is not None or item.loaded is not None:
            raise PydanticCustomError(
                "gun_only_field",
                "{name} is a {type} item: capacity and loaded are for guns only",
                {"name": repr(item.name), "type": item.type},
            )
        return item
    capacity = item.capacity
    if capacity is None:
        if item.fires != "bolts":
            raise PydanticCustomError(
                "missing_capacity",
                "gun {name} needs a capacity (an int >= 1), or an 'is:' short-hand that has one",
                {"name": repr(item.name)},
            )
        capacity = 1
    if capacity < 1:
        raise PydanticCustomError(
            "bad_capacity",
            "capacity {capacity} of {name}: give an int >= 1",
            {"capacity": capacity, "name": repr(item.name)},
        )
    loaded = capacity if item.loaded is None else item.loaded
    if not 0 <= loaded <= capacity:
        raise PydanticCustomError(
            "bad_loaded",
            "loaded {loaded} of {name}: give 0..{capacity}",
            {"loaded": loaded, "name": repr(item.name), "capacity": capacity},
        )
    return dataclasses.replace(item, capacity=capacity, loaded=loaded)


@cache
def weapon_class(item: Item | None, machine_pistol: str = "pistol") -> WeaponClass:
    """DC-3: the class of the item in the primary hand, first matching line."""
    if item is None or item.type == "other":
        return CLASSES["unarmed"]
    if item.type == "explosive":
        return CLASSES["bomb"]
    if item.type == "fire":
        return CLASSES["molotov"]
    if item.type == "gun":
        if item.fires == "shells":
            return CLASSES["shotgun"]
        if item.fires == "bolts":
            return CLASSES["crossbow"]
        # DC-A2: a named pistol, revolver or machine pistol is a Pistol (option machine_pistol).
        if item.subtype in _PISTOL_SUBTYPES and not (
            item.subtype == "machine_pistol" and machine_pistol == "smg"
        ):
            return CLASSES["pistol"]
        if item.hands == 1 and item.automatic:
            return CLASSES["smg"]
        return CLASSES["rifle"] if item.hands == 2 else CLASSES["pistol"]
    return CLASSES["two_handed_melee"] if item.hands == 2 else CLASSES["one_handed_melee"]


def is_machine_gun(item: Item) -> bool:
    """2.2: subtype machine_gun, or a two-handed automatic gun firing rounds."""
    return item.subtype == "machine_gun" or (
        item.hands == 2 and item.automatic and item.fires == "rounds"
    )


@cache
def gun_group(item: Item | None, revision: str, machine_pistol: str = "pistol") -> str | None:
    """DC-14, DC-A3: the gun group (for trait bonuses only); None for non-guns."""
    if item is None or item.type != "gun":
        return None
    cls = weapon_class(item, machine_pistol).name
    if revision == "B":
        if item.subtype == "hand_crossbow":
            return "close"
        if item.sawn_off or is_machine_gun(item):
            return "medium"
    elif item.sawn_off and cls == "rifle":
        return "close"
    return CLASS_GROUPS[revision][cls]
