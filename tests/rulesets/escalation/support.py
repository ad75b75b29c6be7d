"""The escalation tests' builders (tests/rulesets/escalation/test_*.py): the shared ones
of :mod:`tests.rulesets.builders` and readers of escalation's events, sheet and values.
By default ``ana`` is a player and every other combatant an enemy; everyone stands on
the map."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fracas.model import Encounter
from fracas.rulesets.escalation.events import TriggerRolled
from fracas.rulesets.escalation.rules import counted_attacks
from fracas.rulesets.escalation.sheet import Sheet
from fracas.words.render import state_json
from tests.helpers import Played
from tests.rulesets import builders
from tests.rulesets.builders import Doc, Encounters, act, after, events, log, ok, refusal
from tests.rulesets.builders import labels as rolled

__all__ = [
    "BOW",
    "SWORD",
    "act",
    "after",
    "ana",
    "attack",
    "bo",
    "energy",
    "escalation",
    "fight",
    "hp",
    "log",
    "ok",
    "output",
    "refusal",
    "rolled",
    "sheet",
    "triggers",
    "who",
]

ESCALATION = Encounters("escalation")
fight = ESCALATION.fight

SWORD = {"is": "melee", "name": "sword"}
BOW = {"is": "remote", "name": "bow"}


def who(cid: str, at: Sequence[int] | None = (0, 0), side: str | None = None, **fields: Any) -> Doc:
    """One combatant: id, tile, side (``players`` for ana, else ``enemies``), sheet fields."""
    side = side or ("players" if cid == "ana" else "enemies")
    return builders.who(cid, at, side=side, **fields)


def ana(**fields: Any) -> Doc:
    """The player: level 3, melee rating 3, remote rating 2; a sword and a bow."""
    base: dict[str, Any] = {
        "level": 3,
        "melee_rating": 3,
        "remote_rating": 2,
        "weapons": [SWORD, BOW],
    }
    return who("ana", **{**base, **fields})


def bo(at: Sequence[int] | None = (1, 0), **fields: Any) -> Doc:
    """An enemy beside ana: melee rating 1 (its defense against melee), a sword."""
    return who("bo", at, **{"melee_rating": 1, "weapons": [SWORD], **fields})


def attack(actor: str, target: str | list[str], trigger: int | None = None, **params: Any) -> Doc:
    """An attack on one target (``target``) or several (``targets``), the trigger fixed
    where given (``trigger`` for one target)."""
    out = act(actor, "attack", target if isinstance(target, str) else None, **params)
    if isinstance(target, list):
        out["targets"] = target
    if trigger is not None:
        out["dice"] = {"trigger": trigger}
    return out


def sheet(p: Played | Encounter, cid: str) -> Sheet:
    return builders.sheet_of(p, cid, Sheet)


def hp(p: Played, cid: str) -> int:
    return p.state.combatants[cid].hp


def energy(p: Played, cid: str) -> int:
    return sheet(p, cid).energy


def escalation(p: Played | Encounter) -> int:
    state = p if isinstance(p, Encounter) else p.state
    return state.values["escalation"]


def output(p: Played) -> dict[str, Any]:
    """What ``fracas run --json`` prints for the state (without log and events)."""
    return state_json(p.file.ruleset, p.state)


def actions_left(p: Played, cid: str) -> tuple[int, int]:
    """(actions_left, attacks_this_round) as the JSON output gives them."""
    c = output(p)["combatants"][cid]
    return c["actions_left"], c["attacks_this_round"]


def turn_attacks(p: Played) -> int:
    return counted_attacks(p.state.turn)


def triggers(p: Played, action: int = -1) -> list[TriggerRolled]:
    """Every trigger die of a played action (the last one by default), in order."""
    return events(p, TriggerRolled, action)
