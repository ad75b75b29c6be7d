"""Small builders shared by the dice-combat rule tests (tests/rulesets/dice_combat/test_*.py).

An encounter is written as Python data and handed to :func:`tests.helpers.play`
as JSON (which YAML accepts), so each test states only what its rule needs.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from fracas.engine import Record
from fracas.model import Encounter, Event, fold
from fracas.render import log_lines
from fracas.rulesets.dice_combat.events import AttackRolled, DefenceRolled
from fracas.rulesets.dice_combat.sheet import Sheet
from tests.helpers import Played, play

__all__ = [
    "act",
    "after",
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


def who(cid: str, at: Sequence[int] | None = (0, 0), **fields: Any) -> dict[str, Any]:
    """One combatant: id, tile and any sheet fields."""
    out: dict[str, Any] = {"id": cid, **fields}
    if at is not None:
        out["at"] = list(at)
    return out


def act(actor: str, do: str, target: str | None = None, **params: Any) -> dict[str, Any]:
    """One action; ``dice=``, ``at=``, ``item=``, ``edge=`` … go in as given."""
    out: dict[str, Any] = {"actor": actor, "do": do}
    if target is not None:
        out["target"] = target
    out.update(params)
    return out


def fight(
    *combatants: dict[str, Any],
    actions: Sequence[dict[str, Any]] = (),
    options: dict[str, Any] | None = None,
    round_: int = 2,
) -> Played:
    """Play a dice-combat encounter (round 2 by default, so explosives are allowed)."""
    doc: dict[str, Any] = {
        "ruleset": "dice-combat",
        "options": options or {},
        "seed": 1,
        "round": round_,
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


def hand(p: Played, cid: str) -> str | None:
    """The name of the item in ``cid``'s hand, None when empty."""
    item = sheet(p, cid).hand
    return None if item is None else item.name


def loaded(p: Played, cid: str) -> int | None:
    """Rounds loaded in the gun in ``cid``'s hand."""
    item = sheet(p, cid).hand
    assert item is not None
    return item.loaded


def _events(record: Record, kind: type[Event]) -> list[Any]:
    return [e for e in record.events if isinstance(e, kind)]


def attack_roll(p: Played, action: int = -1) -> AttackRolled:
    """The attack roll of a played action (the last one by default)."""
    rolls = _events(p.records[action], AttackRolled)
    assert len(rolls) == 1
    roll: AttackRolled = rolls[0]
    return roll


def defence_rolls(p: Played, action: int = -1) -> list[DefenceRolled]:
    """Every defence rolled in a played action, in order."""
    return _events(p.records[action], DefenceRolled)


def rolled(p: Played, action: int = -1) -> list[str]:
    """The labels of the dice a played action rolled, in order."""
    return [r.label for r in p.records[action].rolls]


def log(p: Played) -> list[str]:
    """The log lines a game master reads."""
    return log_lines(p.start, p.records)


def after(p: Played, action: int) -> Encounter:
    """The state right after action number ``action`` (0: the encounter's start)."""
    state = p.start
    for record in p.records[: action + 1]:
        state = fold(state, record.events)
    return state
