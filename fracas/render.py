"""Turning the state, the log and the odds into words and JSON (the faces' shared part)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from fracas.engine import Record
from fracas.model import Action, Encounter, event_json
from fracas.rulesets.base import Ruleset, plain

__all__ = ["action_title", "events_json", "log_lines", "rolls_json", "state_json"]


def action_title(number: int, action: Action) -> str:
    """The heading of an action in the log: ``#2 bo: throw ana``."""
    what = action.do
    if action.target is not None:
        what += f" {action.target}"
    if action.at is not None:
        what += f" at [{action.at[0]}, {action.at[1]}]"
    extras = [f"{k}={_shown(v)}" for k, v in action.params.items()]
    return f"#{number} {action.actor}: {what}" + (f" ({', '.join(extras)})" if extras else "")


def _shown(value: Any) -> Any:
    """A parameter's value as the log shows it: a tile ``(x, y)``, a list ``['a', 'b']``,
    a mapping ``{'k': v}``."""
    if isinstance(value, tuple) and len(value) == 2 and all(type(v) is int for v in value):
        return value
    if isinstance(value, Mapping):
        return {k: _shown(v) for k, v in value.items()}  # nested too: {'burning': {'turns': 2}}
    return plain(value)


def log_lines(start: Encounter, records: Iterable[Record]) -> list[str]:
    """The log a game master reads: every event's line, action by action."""
    lines: list[str] = []
    state = start
    for record in records:
        if record.action is not None:
            lines.append(action_title(record.seq, record.action))
        for event in record.events:
            line = event.describe(state)
            state = event.apply(state)
            if line:
                lines.append(line)
    return lines


def state_json(ruleset: Ruleset, state: Encounter) -> dict[str, Any]:
    """``ruleset``, ``round``, ``turn``, encounter values and ``combatants`` (README)."""
    out: dict[str, Any] = {"ruleset": ruleset.name, "round": state.round, "turn": state.turn.actor}
    out.update(ruleset.values_json(state))
    out["combatants"] = {
        c.id: {
            "name": c.name,
            "side": c.side,
            "at": list(c.at) if c.at is not None else None,
            "hp": c.hp,
            "max_hp": c.max_hp,
            "down": ruleset.is_down(c),
            "statuses": {k: dict(v) for k, v in c.statuses.items()},
            **ruleset.combatant_json(state, c),
        }
        for c in state.combatants.values()
    }
    return out


def events_json(records: Sequence[Record]) -> list[dict[str, Any]]:
    """Every event, tagged with the number of its action (0: the encounter's start)."""
    return [{"action": r.seq, **event_json(e)} for r in records for e in r.events]


def rolls_json(records: Sequence[Record]) -> list[dict[str, Any]]:
    """Every die as rolled, so a log replays with no seed."""
    return [
        {"action": r.seq, "label": roll.label, "sides": roll.sides, "value": roll.value}
        for r in records
        for roll in r.rolls
    ]
