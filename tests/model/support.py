"""The model tests' builders: a small sheet, a combatant and an encounter of plain values."""

from __future__ import annotations

from dataclasses import dataclass

from fracas.model import Combatant, Encounter, Turn

__all__ = ["Sheet", "combatant", "encounter"]


@dataclass(frozen=True, slots=True)
class Sheet:
    """A ruleset's sheet, as small as one gets."""

    ammo: int = 3
    bag: tuple[str, ...] = ()
    notes: object = None


def combatant(cid: str = "ana", **fields: object) -> Combatant:
    """A player on [0, 0] with 12 HP of 12, named after its id, unless ``fields`` say."""
    base: dict[str, object] = {
        "name": cid.title(),
        "side": "players",
        "at": (0, 0),
        "hp": 12,
        "max_hp": 12,
        "sheet": Sheet(),
    }
    return Combatant(cid, **{**base, **fields})  # type: ignore[arg-type]


def encounter(*cs: Combatant, **fields: object) -> Encounter:
    """Round 1 of ``cs`` in that order (default: ana, and bo of the raiders beside her),
    the first one's turn; ``fields``: the encounter's others."""
    cs = cs or (combatant("ana"), combatant("bo", side="raiders", at=(1, 0)))
    return Encounter(
        "dice-combat",
        {c.id: c for c in cs},
        [c.id for c in cs],  # type: ignore[arg-type]
        1,
        Turn(cs[0].id),
        **fields,  # type: ignore[arg-type]
    )
