"""What ``fracas rules`` prints, read from the code: schemas, action specs, dice specs."""

from __future__ import annotations

import dataclasses
from typing import Any

from fracas.engine.catalogue import core_actions
from fracas.model.validation import adapter
from fracas.rulesets import broken_plugins, find_ruleset, rulesets
from fracas.rulesets.base import plain

__all__ = ["broken_table", "describe_ruleset", "ruleset_table"]

_CORE_SHEET = (
    ("id", "string [a-z0-9_-]+", None, "unique id; required"),
    ("name", "string", None, "default: the id"),
    ("side", "string", None, "default: the id (everyone alone)"),
    ("at", "[x, y]", None, "tile; needed where a rule measures distance"),
    ("hp", "integer", None, "current HP; default: max_hp"),
)


def ruleset_table() -> list[dict[str, str]]:
    """One row per registered ruleset."""
    return [
        {
            "name": r.about.name,
            "seed": r.about.rule_text,
            "title": r.about.title,
            "summary": r.about.summary,
        }
        for r in rulesets()
    ]


def broken_table() -> list[dict[str, str]]:
    """One row per installed ruleset that failed to load: its entry point's name, and its
    error's code and message (the rulesets it did not hide still play)."""
    return [{"name": e.plugin, "code": e.code, "message": e.message} for e in broken_plugins()]


def _type(prop: dict[str, Any]) -> str:
    if "enum" in prop:
        return " | ".join(str(v) for v in prop["enum"])
    if "anyOf" in prop:
        kinds = [_type(p) for p in prop["anyOf"]]
        return " | ".join(k for k in kinds if k)
    if "$ref" in prop:
        return str(prop["$ref"]).rsplit("/", 1)[-1].lower()
    if prop.get("type") == "array":
        return f"list of {_type(prop.get('items', {}))}"
    return str(prop.get("type", ""))


def _defaults(kind: type[Any]) -> dict[str, Any]:
    """Defaults made by a field's factory (a table, a mapping), which the JSON schema
    leaves out, as plain JSON data."""
    if not dataclasses.is_dataclass(kind):
        return {}
    return {
        f.name: plain(f.default_factory())
        for f in dataclasses.fields(kind)
        if f.default_factory is not dataclasses.MISSING
    }


def _fields(kind: type[Any]) -> list[dict[str, Any]]:
    schema = adapter(kind).json_schema()
    made = _defaults(kind)
    return [
        {
            "name": name,
            "type": _type(prop),
            "default": prop["default"] if "default" in prop else made.get(name),
            "meaning": " ".join(str(prop.get("description", "")).split()),
        }
        for name, prop in schema.get("properties", {}).items()
    ]


def describe_ruleset(name: str) -> dict[str, Any]:
    """A ruleset's contract: sheet fields, item fields, actions, dice labels, options."""
    r = find_ruleset(name)
    core: list[dict[str, Any]] = [
        {"name": n, "type": t, "default": d, "meaning": m} for n, t, d, m in _CORE_SHEET
    ]
    core.append(
        {
            "name": "max_hp",
            "type": "integer",
            "default": r.contract.default_max_hp,
            "meaning": "maximum HP",
        }
    )
    return {
        "name": r.about.name,
        "title": r.about.title,
        "seed": r.about.rule_text,
        "summary": r.about.summary,
        "sheet": core + _fields(r.contract.sheet),
        "item": _fields(r.contract.item_type) if r.contract.item_type is not None else [],
        "shorthands": list(r.contract.item_shorthands),
        "actions": [
            {
                "do": a.name,
                "target": a.targets,
                "params": list(a.params),
                "summary": a.summary,
                "off_turn": a.off_turn,
            }
            for a in (*r.contract.actions, *core_actions(r))
        ],
        "dice": [
            {"label": d.label, "sides": d.sides, "when": d.when, "per_combatant": d.per_combatant}
            for d in r.contract.dice
        ],
        "options": _fields(r.contract.options),
        "values": [v.name for v in r.contract.encounter_values],
    }
