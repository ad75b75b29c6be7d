"""The dice-combat tests' builders (tests/rulesets/dice_combat/test_*.py): the shared
ones of :mod:`tests.rulesets.builders`, a fight in round 2 by default (so explosives are
allowed), and readers of dice-combat's events and sheet."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fracas.rulesets.dice_combat.events import AttackRolled, DefenceRolled
from fracas.rulesets.dice_combat.sheet import Sheet
from tests.helpers import Played
from tests.rulesets.builders import (
    Doc,
    Encounters,
    act,
    after,
    events,
    log,
    ok,
    one,
    refusal,
    sheet_of,
    who,
)
from tests.rulesets.builders import labels as rolled

__all__ = [
    "act",
    "after",
    "attack_bo",
    "attack_roll",
    "defence_rolls",
    "fight",
    "hand",
    "loaded",
    "log",
    "ok",
    "refusal",
    "rolled",
    "sheet",
    "who",
]

DICE_COMBAT = Encounters("dice-combat", top={"round": 2})
fight = DICE_COMBAT.fight


def attack_bo(ana: Doc, bo: Doc, dice: Mapping[str, Any]) -> Played:
    """The fight of ``ana`` and ``bo`` (as :func:`who` gives them) in which ana attacks
    bo once, the dice given (``dice``)."""
    return fight(ana, bo, actions=[act("ana", "attack", "bo", dice=dice)])


def sheet(p: Played, cid: str) -> Sheet:
    return sheet_of(p, cid, Sheet)


def hand(p: Played, cid: str) -> str | None:
    """The name of the item in ``cid``'s hand, None when empty."""
    item = sheet(p, cid).hand
    return None if item is None else item.name


def loaded(p: Played, cid: str) -> int | None:
    """Rounds loaded in the gun in ``cid``'s hand."""
    item = sheet(p, cid).hand
    assert item is not None
    return item.loaded


def attack_roll(p: Played, action: int = -1) -> AttackRolled:
    """The attack roll of a played action (the last one by default)."""
    return one(p, AttackRolled, action)


def defence_rolls(p: Played, action: int = -1) -> list[DefenceRolled]:
    """Every defence rolled in a played action, in order."""
    return events(p, DefenceRolled, action)
