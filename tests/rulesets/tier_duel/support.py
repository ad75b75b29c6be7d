"""The tier-duel tests' builders (tests/rulesets/tier_duel/test_*.py): the shared ones of
:mod:`tests.rulesets.builders` and readers of tier-duel's events and sheet. Combatants
stand on a line by default: ``who("bo", 3)`` is 3 tiles east."""

from __future__ import annotations

from typing import Any

from fracas.model import Attempted
from fracas.rulesets.tier_duel.events import Rolled
from fracas.rulesets.tier_duel.items import Item
from fracas.rulesets.tier_duel.sheet import Sheet
from tests.helpers import Played
from tests.rulesets import builders
from tests.rulesets.builders import Doc, Encounters, act, damage, events, log, ok, refusal
from tests.rulesets.builders import labels as rolled

__all__ = [
    "act",
    "attempts",
    "damage",
    "duel",
    "hp",
    "item",
    "left",
    "log",
    "ok",
    "refusal",
    "rolled",
    "rolls",
    "sheet",
    "temp",
    "who",
]

TIER_DUEL = Encounters("tier-duel")
duel = TIER_DUEL.fight


def who(cid: str, x: int | None = 0, **fields: Any) -> Doc:
    """One combatant on tile ``[x, 0]`` (None: no position) with any sheet fields."""
    return builders.who(cid, None if x is None else (x, 0), **fields)


def sheet(p: Played, cid: str) -> Sheet:
    return builders.sheet_of(p, cid, Sheet)


def hp(p: Played, cid: str) -> int:
    return p.state.combatants[cid].hp


def temp(p: Played, cid: str) -> int:
    return sheet(p, cid).temporary_damage


def item(p: Played, cid: str) -> Item:
    hand = sheet(p, cid).hand
    assert hand is not None
    return hand


def left(p: Played) -> tuple[int, int]:
    """The current actor's (contested, non-contested) actions used this turn."""
    used = p.state.turn.used
    return used.get("contested", 0), used.get("noncontested", 0)


def rolls(p: Played, action: int = -1) -> list[Rolled]:
    """The contest and strike rolls of a played action, in order."""
    return events(p, Rolled, action)


def attempts(p: Played, action: int = -1) -> dict[str, bool]:
    """Per combatant that could be damaged by the action: whether it lost to its opponent."""
    return {e.target: e.landed for e in events(p, Attempted, action)}
