"""Small builders shared by the escalation rule tests (tests/rulesets/escalation/test_*.py).

An encounter is written as Python data and handed to :func:`tests.helpers.play` as
JSON (which YAML accepts), so each test states only what its rule needs. By default
``ana`` is a player and every other combatant an enemy; everyone stands on the map.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from fracas.model import Encounter, Event, fold
from fracas.render import log_lines, state_json
from fracas.rulesets.escalation.events import TriggerRolled
from fracas.rulesets.escalation.rules import counted_attacks
from fracas.rulesets.escalation.sheet import Sheet
from tests.helpers import Played, play

__all__ = [
    "act",
    "after",
    "attack",
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


def who(
    cid: str, at: Sequence[int] | None = (0, 0), side: str | None = None, **fields: Any
) -> dict[str, Any]:
    """One combatant: id, tile, side (``players`` for ana, else ``enemies``), sheet fields."""
    out: dict[str, Any] = {"id": cid, "side": side or ("players" if cid == "ana" else "enemies")}
    if at is not None:
        out["at"] = list(at)
    out.update(fields)
    return out


def act(actor: str, do: str, target: str | None = None, **params: Any) -> dict[str, Any]:
    """One action; ``dice=``, ``targets=``, ``weapon=`` … go in as given."""
    out: dict[str, Any] = {"actor": actor, "do": do}
    if target is not None:
        out["target"] = target
    out.update(params)
    return out


def attack(
    actor: str, target: str | list[str], trigger: int | None = None, **params: Any
) -> dict[str, Any]:
    """An attack on one target (``target``) or several (``targets``), the trigger fixed
    where given (``trigger`` for one target)."""
    out = act(actor, "attack", target if isinstance(target, str) else None, **params)
    if isinstance(target, list):
        out["targets"] = target
    if trigger is not None:
        out["dice"] = {"trigger": trigger}
    return out


def fight(
    *combatants: dict[str, Any],
    actions: Sequence[dict[str, Any]] = (),
    options: dict[str, Any] | None = None,
    order: Sequence[str] | None = None,
    seed: int = 1,
) -> Played:
    """Play an escalation encounter."""
    doc: dict[str, Any] = {
        "ruleset": "escalation",
        "options": options or {},
        "seed": seed,
        "combatants": list(combatants),
        "actions": list(actions),
    }
    if order is not None:
        doc["order"] = list(order)
    return play(json.dumps(doc))


def ok(p: Played) -> Played:
    """The played encounter, after checking that no action was refused."""
    assert p.error is None, f"action {p.error[0]} refused: {p.error[1]}"
    return p


def refusal(p: Played) -> tuple[int, str]:
    """The number and code of the refused action."""
    assert p.error is not None, "expected a refusal, every action was played"
    return p.error[0], p.error[1].code


def sheet(p: Played | Encounter, cid: str) -> Sheet:
    state = p if isinstance(p, Encounter) else p.state
    s: Sheet = state.combatants[cid].sheet
    return s


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


def _events(p: Played, kind: type[Event], action: int) -> list[Any]:
    return [e for e in p.records[action].events if isinstance(e, kind)]


def triggers(p: Played, action: int = -1) -> list[TriggerRolled]:
    """Every trigger die of a played action (the last one by default), in order."""
    return _events(p, TriggerRolled, action)


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
