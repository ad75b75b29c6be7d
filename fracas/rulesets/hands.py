"""The hand and the inventory of rulesets whose sheets hold them (``hand``: the item
held or None; ``inventory``: a tuple of items): what their events change alike."""

from __future__ import annotations

from typing import Any

from fracas.model import Combatant, Encounter
from fracas.model.frozen import evolve, freeze

__all__ = ["equipped", "held", "with_hand"]


def held(c: Combatant) -> Any:
    """The item in ``c``'s hand (the event log says there is one)."""
    hand = c.sheet.hand
    assert hand is not None, "the event log says this hand holds an item"
    return hand


def with_hand(state: Encounter, c: Combatant, **changes: Any) -> Encounter:
    """The state with some fields of the item in ``c``'s hand changed (``loaded``)."""
    return state.with_sheet(c, hand=evolve(held(c), **{k: freeze(v) for k, v in changes.items()}))


def equipped(sheet: Any, index: int) -> dict[str, Any]:
    """The sheet fields ``equip`` changes: the inventory item at ``index`` goes to the
    hand, the old hand item (if any) to the end of the inventory."""
    inventory = list(sheet.inventory)
    item = inventory.pop(index)
    if sheet.hand is not None:
        inventory.append(sheet.hand)
    return {"hand": item, "inventory": tuple(inventory)}
