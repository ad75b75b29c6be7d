"""Engine records as the JSON objects a store keeps, and back.

A stored record::

    {"seq": 3, "kind": "action",                      # start | action | undo | redo
     "action": {"actor": "ana", "do": "attack", "target": "bo", "edge": "advantage"},
     "rolls": [{"label": "attack", "sides": 20, "value": 14}, ...],
     "events": [{"type": "Damaged", "target": "bo", "amount": 3, "cause": ""}, ...]}

``target`` (the record undone or redone) replaces ``action`` for undo and redo.
The action is written as a file's action entry and read back through the same
validation as a file's; ``events`` (``fracas.model.event_json``) are for other
readers (the web tracker, a report): a resumed encounter re-resolves every action
with its recorded dice, and :func:`check_replayed` refuses a log whose events the
rules no longer produce (``log_drift``) instead of drifting silently.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from fracas.dice.source import Roll
from fracas.engine.play import Record
from fracas.errors import FracasError
from fracas.io.files import EncounterFile, action_json, read_action
from fracas.io.store import JSON, StoreError
from fracas.model import event_json

__all__ = ["check_replayed", "record_from_json", "record_json"]

KINDS = ("start", "action", "undo", "redo")


def _normal(value: Any) -> Any:
    """``value`` as it reads back from JSON (tuples as lists, other types as text)."""
    return json.loads(json.dumps(value, default=str))


def record_json(record: Record) -> JSON:
    """The stored form of one engine record."""
    out: JSON = {"seq": record.seq, "kind": record.kind}
    if record.target is not None:
        out["target"] = record.target
    if record.by is not None:
        out["by"] = record.by
    if record.action is not None:
        out["action"] = action_json(dataclasses.replace(record.action, dice={}))
    out["rolls"] = [{"label": r.label, "sides": r.sides, "value": r.value} for r in record.rolls]
    out["events"] = _normal([event_json(e) for e in record.events])
    return out


def record_from_json(ef: EncounterFile, body: JSON) -> Record:
    """An engine record to replay from its stored form (events are recomputed by the replay).

    Raises:
        StoreError: ``bad_record`` naming the record, when it does not read back.
    """
    seq = body.get("seq")
    try:
        kind = body["kind"]
        if kind not in KINDS or not isinstance(seq, int):
            raise ValueError(f"kind {kind!r} / seq {seq!r}")
        rolls = tuple(
            Roll(str(r["label"]), int(r["sides"]), int(r["value"])) for r in body["rolls"]
        )
        action = (
            read_action(ef, body["action"], _ids(ef, body["action"])) if kind == "action" else None
        )
        target = body.get("target")
        if kind in ("undo", "redo") and not isinstance(target, int):
            raise ValueError(f"{kind} without a target record")
        by = body.get("by")
        if by is not None and not isinstance(by, str):
            raise ValueError(f"by {by!r}")
    except FracasError as exc:
        raise StoreError("bad_record", f"stored record #{seq}: {exc}") from None
    except (KeyError, TypeError, ValueError) as exc:
        raise StoreError(
            "bad_record", f"stored record #{seq} is not a fracas record: {exc}"
        ) from None
    return Record(seq, action, rolls, (), kind, target, by)


def _ids(ef: EncounterFile, raw: Any) -> list[str]:
    """The ids a stored action may name: the file's, and any it names (a combatant a
    game master added mid-fight). The replay checks each against the state it is
    played in (``unknown_combatant``), as it was checked when it was taken."""
    known = list(ef.start.combatants)
    return known + sorted(_words(raw) - set(known))


def _words(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_words(k) | _words(v) for k, v in value.items()))
    if isinstance(value, list):
        return set().union(*(_words(v) for v in value))
    return set()


def check_replayed(body: JSON, replayed: Record, name: str) -> None:
    """Refuse a replayed record that differs from its stored form (``log_drift``).

    The same dice must give the same events; if they do not, the rules changed
    under a stored encounter, and playing on would silently rewrite its past.
    """
    events = [event_json(e) for e in replayed.events]
    if events != body.get("events"):
        events = _normal(events)  # what JSON makes of the values, before concluding
    again: JSON = {
        "kind": replayed.kind,
        "target": replayed.target,
        "rolls": [{"label": r.label, "sides": r.sides, "value": r.value} for r in replayed.rolls],
        "events": events,
    }
    for key, value in again.items():
        if value != body.get(key):
            raise StoreError(
                "log_drift",
                f"{name!r} record #{body.get('seq')} no longer replays: its {key} were "
                f"{_short(body.get(key))}, the rules now give {_short(value)} "
                f"(fracas or the ruleset changed since it was played)",
            )


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 160 else text[:157] + "..."
