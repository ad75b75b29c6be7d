"""The soak tests' builders (tests/rulesets/soak/test_*.py): the shared ones of
:mod:`tests.rulesets.builders` and readers of soak's events and sheet. Unless a test says
otherwise the file gives `order` (no initiative dice) and a seed."""

from __future__ import annotations

from typing import Any

from fracas.rulesets.soak.events import AttackRolled, DamageRolled, Soaked
from fracas.rulesets.soak.sheet import Sheet
from tests.helpers import Played
from tests.rulesets.builders import (
    Encounters,
    act,
    log,
    odds_of,
    ok,
    one,
    refusal,
    rolls,
    sheet_of,
    who,
)
from tests.rulesets.builders import before_last as state_and_action

__all__ = [
    "SWORD",
    "act",
    "attack_roll",
    "damage_roll",
    "doc",
    "fight",
    "log",
    "odds_of",
    "ok",
    "refusal",
    "rolled",
    "sheet",
    "soaked",
    "state_and_action",
    "who",
]

SWORD: dict[str, Any] = {"name": "sword", "dice": "1d8"}

SOAK = Encounters("soak", order=())
doc = SOAK.doc
fight = SOAK.fight


def sheet(p: Played, cid: str) -> Sheet:
    return sheet_of(p, cid, Sheet)


def attack_roll(p: Played, action: int = -1) -> AttackRolled:
    return one(p, AttackRolled, action)


def damage_roll(p: Played, action: int = -1) -> DamageRolled:
    return one(p, DamageRolled, action)


def soaked(p: Played, action: int = -1) -> Soaked:
    return one(p, Soaked, action)


def rolled(p: Played, action: int = -1) -> list[tuple[str, int, int]]:
    """The dice a played action rolled, in order: (label, sides, face)."""
    return [(r.label, r.sides, r.value) for r in rolls(p, action)]
