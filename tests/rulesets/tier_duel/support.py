"""Small builders shared by the tier-duel tests (tests/rulesets/tier_duel/test_*.py).

An encounter is written as Python data and handed to :func:`tests.helpers.play`
as JSON (which YAML accepts), so each test states only what its rule needs.
Combatants stand on a line by default: ``who("bo", 3)`` is 3 tiles east.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from fracas.model import Attempted, Damaged, Event
from fracas.render import log_lines
from fracas.rulesets.tier_duel.events import Rolled
from fracas.rulesets.tier_duel.items import Item
from fracas.rulesets.tier_duel.sheet import Sheet
from tests.helpers import Played, play

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


def who(cid: str, x: int | None = 0, **fields: Any) -> dict[str, Any]:
    """One combatant on tile ``[x, 0]`` (None: no position) with any sheet fields."""
    out: dict[str, Any] = {"id": cid, **fields}
    if x is not None:
        out["at"] = [x, 0]
    return out


def act(actor: str, do: str, target: str | None = None, **params: Any) -> dict[str, Any]:
    """One action; ``dice=``, ``distance=``, ``behind=``, ``spell=``, ``item=`` as given."""
    out: dict[str, Any] = {"actor": actor, "do": do}
    if target is not None:
        out["target"] = target
    out.update(params)
    return out


def duel(
    *combatants: dict[str, Any],
    actions: Sequence[dict[str, Any]] = (),
    options: dict[str, Any] | None = None,
    seed: int = 1,
) -> Played:
    """Play a tier-duel encounter in file order."""
    doc: dict[str, Any] = {
        "ruleset": "tier-duel",
        "options": options or {},
        "seed": seed,
        "combatants": list(combatants),
        "actions": list(actions),
    }
    return play(json.dumps(doc))


def ok(p: Played) -> Played:
    """The played encounter, after checking that no action was refused."""
    assert p.error is None, f"action {p.error[0]} refused: {p.error[1]}"
    return p


def refusal(p: Played) -> tuple[int, str]:
    """The number and code of the refused action."""
    assert p.error is not None, "expected a refusal, every action was played"
    return p.error[0], p.error[1].code


def sheet(p: Played, cid: str) -> Sheet:
    s: Sheet = p.state.combatants[cid].sheet
    return s


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


def _events(p: Played, kind: type[Event], action: int) -> list[Any]:
    return [e for e in p.records[action].events if isinstance(e, kind)]


def rolls(p: Played, action: int = -1) -> list[Rolled]:
    """The contest and strike rolls of a played action, in order."""
    return _events(p, Rolled, action)


def rolled(p: Played, action: int = -1) -> list[str]:
    """The labels of the dice a played action rolled, in order."""
    return [r.label for r in p.records[action].rolls]


def attempts(p: Played, action: int = -1) -> dict[str, bool]:
    """Per combatant that could be damaged by the action: whether it lost to its opponent."""
    return {e.target: e.landed for e in _events(p, Attempted, action)}


def damage(p: Played, action: int = -1) -> dict[str, int]:
    """Damage dealt by a played action, per combatant."""
    out: dict[str, int] = {}
    for e in _events(p, Damaged, action):
        out[e.target] = out.get(e.target, 0) + e.amount
    return out


def log(p: Played) -> list[str]:
    """The log lines a game master reads."""
    return log_lines(p.start, p.records)
