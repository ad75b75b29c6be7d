"""Encounter files (YAML; JSON accepted), validated with errors that name the line.

The format is ``../shared/rules/README.md``'s "Encounter file". Every problem
is a :class:`~fracas.errors.FileError` whose ``where`` reads
``FILE:LINE: field.path`` and whose message quotes the input and lists what is valid.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import yaml
from pydantic import ConfigDict, Field

from fracas.combatants import read_combatant, read_table
from fracas.engine import (
    CORE_ACTIONS,
    CORE_FIELDS,
    SET_ONLY_FIELDS,
    Record,
    dice_from_rolls,
    dice_specs,
    die_spec,
    spec_of,
)
from fracas.errors import FileError, FracasError
from fracas.gm import added_ids
from fracas.grid import Tile
from fracas.model import Action, Combatant, Encounter, Turn
from fracas.rulesets import RULESETS, ActionSpec, Ruleset, find_ruleset
from fracas.validation import Locator, validate

__all__ = [
    "EncounterFile",
    "MapSize",
    "action_json",
    "export",
    "load",
    "parse_text",
    "read_action",
    "read_text",
]

_ACTION_KEYS = ("actor", "do", "target", "at", "dice")


@dataclass(frozen=True, slots=True)
class MapSize:
    """Optional map bounds: tiles run 0..width-1 and 0..height-1."""

    __pydantic_config__ = ConfigDict(extra="forbid")

    width: Annotated[int, Field(ge=1)]
    height: Annotated[int, Field(ge=1)]


@dataclass(frozen=True, slots=True)
class _TopLevel:
    __pydantic_config__ = ConfigDict(extra="forbid")

    ruleset: str
    combatants: Annotated[list[dict[str, Any]], Field(min_length=1)]
    options: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    round: Annotated[int, Field(ge=1)] = 1
    order: list[str] | None = None
    dice: dict[str, int | list[int]] = field(default_factory=dict)
    map: MapSize | None = None
    table: dict[str, Any] = field(default_factory=dict)
    actions: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class _ActionCore:
    __pydantic_config__ = ConfigDict(extra="forbid")

    actor: str
    do: str
    target: str | None = None
    at: tuple[int, int] | None = None
    dice: dict[str, int | list[int]] = field(default_factory=dict)


@dataclass(frozen=True)
class EncounterFile:
    """A validated encounter file, ready to play."""

    path: str
    ruleset: Ruleset
    start: Encounter
    seed: int | None
    order: tuple[str, ...] | None
    dice: Mapping[str, tuple[int, ...]]
    actions: tuple[Action, ...]
    map: MapSize | None = None
    action_where: tuple[str, ...] = ()
    """``FILE:LINE`` of each action, for messages."""
    setup: Mapping[str, Any] = field(default_factory=dict)
    """The file's data without its actions: what an export writes back."""


def load(path: str | Path) -> EncounterFile:
    """Read and validate an encounter file."""
    return parse_text(read_text(path), str(Path(path)))


def read_text(path: str | Path) -> str:
    """The text of an encounter file (``unreadable_file`` naming it when it cannot be read)."""
    p = Path(path)
    try:
        return p.read_text(encoding="utf-8")
    except OSError as exc:
        raise FileError(
            "unreadable_file", f"cannot read {str(p)!r}: {exc.strerror}", str(p)
        ) from None
    except UnicodeDecodeError:
        raise FileError("unreadable_file", f"{str(p)!r} is not UTF-8 text", str(p)) from None


def parse_text(text: str, name: str = "<encounter>") -> EncounterFile:
    """Validate the text of an encounter file (YAML, or JSON where ``name`` ends in .json)."""
    raw, lines = _read(text, name)
    locate = _locator(name, lines)
    top: _TopLevel = validate(
        _TopLevel, raw, locate, valid_fields=[f for f in _TopLevel.__dataclass_fields__]
    )
    try:
        ruleset_cls = find_ruleset(top.ruleset)
    except FracasError as exc:
        raise FileError(exc.code, exc.message, locate(("ruleset",))) from None
    options = validate(
        ruleset_cls.options_type,
        top.options,
        locate,
        ("options",),
        valid_fields=list(ruleset_cls.option_defaults()),
        unknown_code="unknown_option",
    )
    ruleset = ruleset_cls(options)
    combatants = _combatants(ruleset, top, locate)
    ids = list(combatants)
    order = _order(top.order, ids, locate)
    dice = _dice(ruleset, top.dice, ids, locate, ("dice",))
    known = list(ids)  # the ids actions may name: the file's, and those its actions add
    actions: tuple[Action, ...] = ()
    for i, a in enumerate(top.actions):
        actions += (_action(ruleset, a, known, top.map, locate, ("actions", i)),)
        known += added_ids(actions[-1])
    first = order[0] if order else ids[0]
    start = Encounter(
        ruleset.name,
        combatants,
        tuple(order or ids),
        top.round,
        Turn(first),
        ruleset.initial_values(),
        read_table(top.table, locate, (top.map.width, top.map.height) if top.map else None),
    )
    where = tuple(locate(("actions", i)).split(": ")[0] for i in range(len(actions)))
    return EncounterFile(
        name,
        ruleset,
        start,
        top.seed,
        tuple(order) if order else None,
        dice,
        actions,
        top.map,
        where,
        {k: v for k, v in raw.items() if k != "actions"},
    )


# --- reading with line numbers --------------------------------------------------


_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's parser where it is installed (the same results, many times faster)."""


def _read(text: str, name: str) -> tuple[Any, dict[tuple[str | int, ...], int]]:
    """Parse once into nodes (for line numbers and duplicate keys), then build the data."""
    lines: dict[tuple[str | int, ...], int] = {}
    json_file = name.endswith(".json")
    if json_file:
        try:
            raw = json.loads(text)
        except json.JSONDecodeError as exc:
            raise FileError("bad_json", exc.msg, f"{name}:{exc.lineno}") from None
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is not None:
            _walk(node, (), lines, name)
        if not json_file:
            raw = loader.construct_document(node) if node is not None else None
    except yaml.YAMLError as exc:
        if not json_file:
            mark = getattr(exc, "problem_mark", None)
            where = f"{name}:{mark.line + 1}" if mark is not None else name
            problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
            raise FileError("bad_yaml", f"not valid YAML: {problem}", where) from None
        lines.clear()  # JSON that YAML cannot read: no line numbers
    finally:
        loader.dispose()
    if not isinstance(raw, dict):
        raise FileError(
            "bad_file",
            f"an encounter file is a mapping with `ruleset:` and "
            f"`combatants:`, not {type(raw).__name__}",
            name,
        )
    return raw, lines


def _walk(
    node: yaml.Node, path: tuple[str | int, ...], out: dict[tuple[str | int, ...], int], name: str
) -> None:
    out.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key, value in node.value:
            k = str(key.value)
            if k in seen:
                raise FileError(
                    "duplicate_key",
                    f"key {k!r} appears twice in one mapping",
                    f"{name}:{key.start_mark.line + 1}",
                )
            seen.add(k)
            out[(*path, k)] = key.start_mark.line + 1
            _walk(value, (*path, k), out, name)
    elif isinstance(node, yaml.SequenceNode):
        for i, value in enumerate(node.value):
            _walk(value, (*path, i), out, name)


def _locator(name: str, lines: Mapping[tuple[str | int, ...], int]) -> Locator:
    def locate(path: Sequence[str | int]) -> str:
        key = tuple(path)
        line = None
        for n in range(len(key), -1, -1):
            line = lines.get(key[:n])
            if line is not None:
                break
        where = f"{name}:{line}" if line is not None else name
        return f"{where}: {_dotted(key)}" if key else where

    return locate


def _dotted(path: Sequence[str | int]) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else p)
    return out


# --- combatants, order, dice, actions -------------------------------------------


def _combatants(ruleset: Ruleset, top: _TopLevel, locate: Locator) -> dict[str, Combatant]:
    out: dict[str, Combatant] = {}
    size = (top.map.width, top.map.height) if top.map else None
    for i, raw in enumerate(top.combatants):
        c = read_combatant(ruleset, raw, locate, ("combatants", i), taken=out, map_size=size)
        out[c.id] = c
    return out


def _order(order: list[str] | None, ids: list[str], locate: Locator) -> list[str] | None:
    if order is None:
        return None
    for i, cid in enumerate(order):
        if cid not in ids:
            raise FileError(
                "unknown_combatant",
                f"{cid!r} is not a combatant; valid: {', '.join(ids)}",
                locate(("order", i)),
            )
        if order.index(cid) != i:
            raise FileError(
                "bad_order", f"{cid!r} appears twice in the order", locate(("order", i))
            )
    missing = [cid for cid in ids if cid not in order]
    if missing:
        raise FileError(
            "bad_order",
            f"the order must name every combatant once; missing: {', '.join(missing)}",
            locate(("order",)),
        )
    return order


def _dice(
    ruleset: Ruleset,
    raw: Mapping[str, int | list[int]],
    ids: Sequence[str],
    locate: Locator,
    at: tuple[str | int, ...],
) -> dict[str, tuple[int, ...]]:
    out: dict[str, tuple[int, ...]] = {}
    labels = ", ".join(d.label for d in dice_specs(ruleset)) or "none"
    for key, value in raw.items():
        here = locate((*at, key))
        name, *rest = key.split(":")
        spec = die_spec(ruleset, name)
        if spec is None:
            raise FileError(
                "unknown_die_label",
                f"{key!r} is not a dice label of {ruleset.name}; valid: {labels}",
                here,
            )
        if len(rest) > 2 or not all(p in ids or (p.isdigit() and int(p) >= 1) for p in rest):
            raise FileError(
                "unknown_die_label",
                f"{key!r}: after {name!r} give a combatant id "
                f"({', '.join(ids)}) and/or a roll number (name:id, name:N)",
                here,
            )
        values = tuple(value) if isinstance(value, list) else (value,)
        for v in values:
            if not 1 <= v <= spec.sides:
                raise FileError(
                    "die_out_of_range",
                    f"{key!r} = {v!r} is not a face of a d{spec.sides}: give 1..{spec.sides}",
                    here,
                )
        out[key] = values
    return out


def _check_tile(
    tile: Tile, size: MapSize | None, locate: Locator, at: tuple[str | int, ...]
) -> None:
    if size is None:
        return
    if not (0 <= tile[0] < size.width and 0 <= tile[1] < size.height):
        raise FileError(
            "off_map",
            f"tile {list(tile)!r} is off the map: x in "
            f"0..{size.width - 1}, y in 0..{size.height - 1}",
            locate(at),
        )


def _action(
    ruleset: Ruleset,
    raw: dict[str, Any],
    combatants: Collection[str],
    size: MapSize | None,
    locate: Locator,
    at: tuple[str | int, ...],
) -> Action:
    core_raw = {k: v for k, v in raw.items() if k in _ACTION_KEYS}
    params = {k: v for k, v in raw.items() if k not in _ACTION_KEYS}
    core: _ActionCore = validate(_ActionCore, core_raw, locate, at, valid_fields=_ACTION_KEYS)
    ids = list(combatants)
    for key in ("actor", "target"):
        cid = getattr(core, key)
        if cid is not None and cid not in combatants:
            raise FileError(
                "unknown_combatant",
                f"{cid!r} is not a combatant; valid: {', '.join(ids)}",
                locate((*at, key)),
            )
    spec = spec_of(ruleset, core.do)
    if spec is None:
        valid = [s.name for s in (*ruleset.actions, *CORE_ACTIONS)]
        raise FileError(
            "unknown_action",
            f"{core.do!r} is not an action of {ruleset.name}; valid: {', '.join(valid)}",
            locate((*at, "do")),
        )
    if core.at is not None:
        _check_tile(core.at, size, locate, (*at, "at"))
    if core.do == "set":
        fields = [*CORE_FIELDS, *SET_ONLY_FIELDS, *ruleset.sheet_fields()]
        for key in params:
            if key not in fields:
                raise FileError(
                    "unknown_field",
                    f"{key!r} is not a field to set; valid: {', '.join(fields)}",
                    locate((*at, key)),
                )
        if core.target is not None or core.at is not None:
            raise FileError(
                "unknown_field", "set takes the fields to change, not a target or `at`", locate(at)
            )
    else:
        _check_params(spec, params, locate, at)
        _check_targets(spec.targets, core, params, locate, at)
        params = {
            k: validate(spec.types[k], v, locate, (*at, k)) if k in spec.types else v
            for k, v in params.items()
        }
        _check_ids(spec.combatant_params, params, ids, locate, at)
    if core.do == "move":
        to = validate(tuple[int, int], params.get("to"), locate, (*at, "to"))
        _check_tile(to, size, locate, (*at, "to"))
        params = {"to": to, **{k: v for k, v in params.items() if k != "to"}}
    dice = _dice(ruleset, core.dice, ids, locate, (*at, "dice"))
    return Action(core.actor, core.do, core.target, core.at, params, dice)


def _check_params(
    spec: ActionSpec, params: Mapping[str, Any], locate: Locator, at: tuple[str | int, ...]
) -> None:
    allowed, required, choices = spec.params, spec.required, spec.choices
    for key, value in params.items():
        if key not in allowed:
            valid = ", ".join([*_ACTION_KEYS, *allowed])
            raise FileError(
                "unknown_field",
                f"{key!r} is not a field of this action; valid: {valid}",
                locate((*at, key)),
            )
        if key in choices and value not in choices[key]:
            raise FileError(
                "bad_value",
                f"{key} {value!r}: give one of {', '.join(choices[key])}",
                locate((*at, key)),
            )
        if key not in choices and key not in spec.types and not isinstance(value, str | int | list):
            raise FileError("bad_value", f"{key} {value!r} is not a value", locate((*at, key)))
    for key in required:
        if key not in params:
            raise FileError("missing_field", f"{key!r} is required for this action", locate(at))


def _check_ids(
    keys: Sequence[str],
    params: Mapping[str, Any],
    ids: Sequence[str],
    locate: Locator,
    at: tuple[str | int, ...],
) -> None:
    """Every combatant a parameter names: the items of a list, the keys of a mapping."""
    for key in keys:
        value = params.get(key)
        named: list[tuple[str | int, Any]]
        if isinstance(value, list | tuple):
            named = list(enumerate(value))
        elif isinstance(value, Mapping):
            named = [(cid, cid) for cid in value]
        else:
            continue
        for where, cid in named:
            if cid not in ids:
                raise FileError(
                    "unknown_combatant",
                    f"{cid!r} is not a combatant; valid: {', '.join(ids)}",
                    locate((*at, key, where)),
                )


def _check_targets(
    targets: str,
    core: _ActionCore,
    params: Mapping[str, Any],
    locate: Locator,
    at: tuple[str | int, ...],
) -> None:
    if targets == "none" and (core.target is not None or core.at is not None):
        raise FileError("unknown_field", f"{core.do!r} takes no target and no `at`", locate(at))
    if targets == "combatant":
        if core.at is not None:
            raise FileError(
                "unknown_field", f"{core.do!r} targets a combatant, not a tile", locate((*at, "at"))
            )
        if core.target is None:
            raise FileError("missing_field", f"{core.do!r} needs a `target`", locate(at))
    if targets == "combatants":
        if core.at is not None:
            raise FileError(
                "unknown_field", f"{core.do!r} targets combatants, not a tile", locate((*at, "at"))
            )
        if (core.target is None) == ("targets" not in params):
            raise FileError(
                "missing_field",
                f"{core.do!r} needs a `target` or several `targets: [ids]`, not both",
                locate(at),
            )
    if targets == "combatant_or_tile" and (core.target is None) == (core.at is None):
        raise FileError(
            "missing_field",
            f"{core.do!r} needs a `target` or a tile `at: [x, y]`, not both",
            locate(at),
        )


def rulesets_available() -> list[str]:
    """Names of every registered ruleset."""
    return [r.name for r in RULESETS]


def read_action(
    ef: EncounterFile, raw: Mapping[str, Any], ids: Collection[str] | None = None
) -> Action:
    """One action given as a file's action entry (``{"actor", "do", "target", ...}``),
    validated as the file's own actions are (a stored log, a prompt); ``ids``: the
    combatants it may name (default: the file's; a prompt gives those in the fight).

    Raises:
        FileError: its ``where`` names the field (``edge``, ``dice.attack``), no file or line.
    """
    known = ef.start.combatants if ids is None else ids
    return _action(ef.ruleset, dict(raw), known, ef.map, lambda path: _dotted(path), ())


def action_json(action: Action, dice: Mapping[str, Sequence[int]] | None = None) -> dict[str, Any]:
    """An action as a file's action entry: ``actor``, ``do``, ``target``, ``at``, its
    parameters, and ``dice`` (``dice`` where given, else the action's own) when any."""
    entry: dict[str, Any] = {"actor": action.actor, "do": action.do}
    if action.target is not None:
        entry["target"] = action.target
    if action.at is not None:
        entry["at"] = list(action.at)
    entry.update({k: list(v) if isinstance(v, tuple) else v for k, v in action.params.items()})
    given = action.dice if dice is None else dice
    if given:
        entry["dice"] = {label: list(v) if len(v) > 1 else v[0] for label, v in given.items()}
    return entry


def export(
    ef: EncounterFile, records: Sequence[Record], order: Sequence[str] | None = None
) -> dict[str, Any]:
    """An encounter file that replays ``records`` exactly with ``fracas run``.

    ``records`` are the start and the effective actions (``Engine.effective``).
    The setup is the original file's (with its ``order:`` if it has one); the
    initiative dice and every action's dice are written as rolled, so no die
    comes from the seed and the start's order follows again. ``order`` (the turn
    order in play) is not written: the game master's actions (``initiative``,
    ``delay``, ``add``, ``remove``) change it during play, and the file's actions
    replay those changes.
    """
    out: dict[str, Any] = dict(ef.setup)
    actions: list[dict[str, Any]] = []
    for record in records:
        rolled = dice_from_rolls(record.rolls)
        if record.kind == "start":
            out["dice"] = {label: list(v) if len(v) > 1 else v[0] for label, v in rolled.items()}
            continue
        assert record.action is not None
        actions.append(action_json(record.action, rolled))
    out["actions"] = actions
    return out
