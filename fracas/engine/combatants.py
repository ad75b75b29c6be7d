"""One combatant as a file gives it, validated: the same check for a file's
``combatants:`` entry and for a game master's ``add`` mid-fight (``fracas.engine.table_actions``).

Every problem is a :class:`~fracas.errors.FileError` whose ``where`` comes from the
caller's locator (``FILE:LINE: combatants[2].hp`` for a file, ``combatant.hp`` for an
action) and whose message quotes the input and lists what is valid.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import ConfigDict, Field

from fracas.errors import FileError, FracasError, Refusal
from fracas.model import Combatant, Encounter, HouseRules
from fracas.model.frozen import freeze
from fracas.model.grid import Tile
from fracas.model.validation import Locator, TileInput, check_names, validate
from fracas.rulesets.base import Ruleset, max_hp_default

__all__ = [
    "CORE_FIELDS",
    "ID",
    "MAX_MAP",
    "check_free",
    "check_tile",
    "read_combatant",
    "read_house_rules",
]

ID = re.compile(r"^[a-z0-9_-]+$")
"""What a combatant id may be."""
CORE_FIELDS = ("name", "side", "at", "hp", "max_hp")
"""Fields every combatant has, outside the ruleset's sheet."""


@dataclass(frozen=True, slots=True)
class _Core:
    __pydantic_config__ = ConfigDict(extra="forbid")

    id: str
    name: str | None = None
    side: str | None = None
    at: TileInput | None = None
    hp: Annotated[int, Field(ge=0)] | None = None
    max_hp: Annotated[int, Field(ge=1)] | None = None


@dataclass(frozen=True, slots=True)
class _HouseRulesBlock:
    __pydantic_config__ = ConfigDict(extra="forbid")

    skip_down: bool = True
    move: Annotated[int, Field(ge=0, le=1000)] = 6


def read_combatant(
    ruleset: Ruleset,
    raw: Mapping[str, Any],
    locate: Locator,
    at: tuple[str | int, ...],
    *,
    taken: Collection[str],
    map_size: tuple[int, int] | None,
) -> Combatant:
    """The combatant ``raw`` gives (``id``, the core fields, the ruleset's sheet fields),
    checked, settled (fields the ruleset derives) and prepared, frozen for the state.

    Args:
        taken: ids already in use (``duplicate_id``).
        map_size: the map's width and height, where there is a map (``off_map``).
    """
    check_names(dict(raw), locate, at)  # its name, side and sheet's names: printable text
    valid = ["id", *CORE_FIELDS, *ruleset.contract.sheet_fields()]
    core_raw = {k: v for k, v in raw.items() if k == "id" or k in CORE_FIELDS}
    sheet_raw = {k: v for k, v in raw.items() if k not in core_raw}
    core: _Core = validate(_Core, core_raw, locate, at, valid_fields=valid)
    if not ID.match(core.id):
        raise FileError("bad_id", f"id {core.id!r} must match [a-z0-9_-]+", locate((*at, "id")))
    if core.id in taken:
        raise FileError(
            "duplicate_id",
            f"id {core.id!r} is used by two combatants; ids must be unique",
            locate((*at, "id")),
        )
    sheet = validate(
        ruleset.contract.sheet, sheet_raw, locate, at, valid_fields=valid, context=ruleset.options
    )
    max_hp = core.max_hp if core.max_hp is not None else max_hp_default(ruleset)
    hp = core.hp if core.hp is not None else max_hp
    if hp > max_hp:
        raise FileError(
            "bad_value",
            f"hp {hp!r} is above max_hp {max_hp}: give 0..{max_hp}",
            locate((*at, "hp")),
        )
    if core.at is not None:
        check_tile(core.at, map_size, locate, (*at, "at"))
    c = Combatant(core.id, core.name or core.id, core.side or core.id, core.at, hp, max_hp, sheet)
    try:  # fields the ruleset derives from the given ones (an HP from damage taken)
        c = ruleset.settle(c, frozenset(raw), fresh=True)
    except FracasError as exc:
        raise FileError(exc.code, exc.message, locate(at)) from None
    frozen: Combatant = freeze(c)  # the state must hash (fracas.model.frozen)
    return frozen


MAX_MAP = 200
"""The largest map's width and height, in tiles (a page draws every tile of it)."""


def check_tile(
    tile: Tile, map_size: tuple[int, int] | None, locate: Locator, at: tuple[str | int, ...]
) -> None:
    """Refuse a tile off the map (``off_map``), where there is a map (at most
    :data:`MAX_MAP` square; without one, the grid has no edge)."""
    if map_size is None:
        return
    width, height = map_size
    if not (0 <= tile[0] < width and 0 <= tile[1] < height):
        raise FileError(
            "off_map",
            f"tile {list(tile)!r} is off the map: x in 0..{width - 1}, y in 0..{height - 1}",
            locate(at),
        )


def check_free(ruleset: Ruleset, state: Encounter, mover: Combatant, tile: Tile) -> None:
    """Refuse to put ``mover`` on ``tile`` where another stands (a move, an ``add``, a
    ``set at``), unless the rules let two share a tile (the option ``share_tiles`` where
    the options have one, else the contract's
    :attr:`~fracas.rulesets.base.Contract.share_tiles`). One the game master hides is
    "someone": the refusal reaches whoever asked.

    Raises:
        Refusal: ``tile_taken``, naming the tile and who is on it.
    """
    if getattr(ruleset.options, "share_tiles", ruleset.contract.share_tiles):
        return
    spot = (tile[0], tile[1])
    for c in state.combatants.values():
        if c.id == mover.id or c.at is None or (c.at[0], c.at[1]) != spot:
            continue
        who = "someone" if c.id in state.hidden else c.name
        raise Refusal(
            "tile_taken",
            f"{who} is on {spot[0]}, {spot[1]}: {mover.name} cannot stand there too; "
            "pick a free tile",
        )


def read_house_rules(
    raw: Mapping[str, Any], locate: Locator, map_size: tuple[int, int] | None
) -> HouseRules:
    """The file's ``table:``: the house rules (how the encounter runs, whatever the ruleset),
    with the map's size."""
    block: _HouseRulesBlock = validate(
        _HouseRulesBlock, dict(raw), locate, ("table",), valid_fields=["skip_down", "move"]
    )
    return HouseRules(skip_down=block.skip_down, map_size=map_size, move=block.move)
