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
    "ANA",
    "BO",
    "act",
    "attempts",
    "damage",
    "duel",
    "hp",
    "item",
    "left",
    "log",
    "melee",
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

ANA: dict[str, Any] = {
    "reflex": 2,
    "body": 3,
    "skills": {"sword": 3},
    "armor_tier": 1,
    "shield_tier": 1,
    "hand": {"is": "sword", "tier": 2},
}
"""ana: 2 + 3 on the roll with her Tier 2 sword; armor bonus 1 + 1 = 2."""
BO: dict[str, Any] = {"reflex": 1, "body": 2, "skills": {"axe": 2}, "armor_tier": 2, "hand": "axe"}
"""bo: 1 + 2 on the roll with his axe (Tier 1); armor bonus 2."""


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


def melee(attack: int, defend: int, bo: Doc | None = None, **options: Any) -> Played:
    """ana (:data:`ANA`) attacks bo (:data:`BO`, or ``bo``) next to her, the contest's
    two dice given; ``options``: the encounter's."""
    return duel(
        who("ana", 0, **ANA),
        who("bo", 1, **(bo or BO)),
        actions=[act("ana", "attack", "bo", dice={"attack": attack, "defend": defend})],
        options=options,
    )
