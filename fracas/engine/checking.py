"""The one action validator: a file's action entry or a program's :class:`Action`.

:func:`check_action` checks what an action names (actor, target, tiles, parameters,
their types and choices, combatants in parameters, dice labels and faces) against a
ruleset, the combatants and optional map bounds, and returns the validated
:class:`Action`. The file reader calls it with its line locator (``FILE:LINE:
actions[2].target``); :meth:`fracas.engine.play.Engine.act` calls it on every action it
is given, so an action built by a program is checked exactly as a file's.

Below the engine and ``files.py`` in the layers: it imports the catalogue, the model,
the rulesets and the validation, never the engine or the file reader.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import ConfigDict

from fracas.engine.catalogue import (
    ACTORLESS,
    CORE_ACTIONS,
    CORE_FIELDS,
    SET_ONLY_FIELDS,
    dice_specs,
    die_spec,
    spec_of,
)
from fracas.engine.combatants import check_tile
from fracas.errors import DiceError, FileError, Refusal, Where, brief, dotted
from fracas.model import NO_ACTOR, Action, Encounter
from fracas.model.validation import Locator, TileInput, validate
from fracas.rulesets import ActionSpec, Ruleset

__all__ = [
    "ACTION_KEYS",
    "Bounds",
    "check_action",
    "check_dice",
    "check_now",
    "check_tile",
    "dotted",
]

ACTION_KEYS = ("actor", "do", "target", "at", "dice")
"""The keys of an action entry that are not parameters."""

Bounds = tuple[int, int]
"""A map's (width, height): tiles run 0..width-1 and 0..height-1."""

Path = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class _ActionCore:
    __pydantic_config__ = ConfigDict(extra="forbid")

    do: str
    actor: str | None = None
    target: str | None = None
    at: TileInput | None = None
    dice: dict[str, int | list[int]] = field(default_factory=dict)


def located(path: Sequence[str | int]) -> str:
    """A program's locator: the path's dotted name, the path kept as data."""
    return Where(dotted(path), tuple(path))


def check_action(
    ruleset: Ruleset,
    combatants: Encounter | Iterable[str],
    given: Mapping[str, Any] | Action,
    *,
    bounds: Bounds | None = None,
    locate: Locator = located,
    at: Path = (),
) -> Action:
    """``given`` validated as an action of ``ruleset`` among ``combatants``.

    Args:
        ruleset: the ruleset whose actions, parameters and dice labels are valid.
        combatants: the state, or the combatant ids.
        given: an action entry as a file gives it (``{"actor", "do", "target", "at",
            "dice", parameters...}``) or an :class:`Action` (checked as its entry).
        bounds: the map's (width, height); tiles off it are ``off_map``.
        locate: names the place of a path (default: the dotted field name).
        at: the path of the action (``("actions", 2)``).

    Raises:
        FileError: the first problem; ``where`` is ``locate`` of the field's path.
    """
    ids = list(combatants.combatants if isinstance(combatants, Encounter) else combatants)
    raw = _entry(given) if isinstance(given, Action) else dict(given)
    core_raw = {k: v for k, v in raw.items() if k in ACTION_KEYS}
    params = {k: v for k, v in raw.items() if k not in ACTION_KEYS}
    core: _ActionCore = validate(_ActionCore, core_raw, locate, at, valid_fields=ACTION_KEYS)
    for key in ("actor", "target"):
        cid = getattr(core, key)
        if cid is not None and cid != NO_ACTOR and cid not in ids:
            raise FileError(
                "unknown_combatant",
                f"{cid!r} is not a combatant; valid: {', '.join(ids)}",
                locate((*at, key)),
            )
    spec = spec_of(ruleset, core.do)
    if spec is None:
        valid = [s.name for s in (*ruleset.contract.actions, *CORE_ACTIONS)]
        raise FileError(
            "unknown_action",
            f"{core.do!r} is not an action of {ruleset.about.name}; valid: {', '.join(valid)}",
            locate((*at, "do")),
        )
    actor = core.actor or NO_ACTOR  # none given (or null): the game master's own roll
    if actor == NO_ACTOR and core.do not in ACTORLESS:
        raise FileError(
            "missing_field",
            f"{core.do!r} needs an `actor` (a combatant id; only a roll may have none: "
            "the game master's own)",
            locate(at),
            (*at, "actor"),
        )
    if core.at is not None:
        check_tile(core.at, bounds, locate, (*at, "at"))
    if core.do == "set":
        fields = [*CORE_FIELDS, *SET_ONLY_FIELDS, *ruleset.contract.sheet_fields()]
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
        to = validate(TileInput, params.get("to"), locate, (*at, "to"))
        check_tile(to, bounds, locate, (*at, "to"))
        params = {"to": to, **{k: v for k, v in params.items() if k != "to"}}
    dice = check_dice(ruleset, core.dice, ids, locate, (*at, "dice"))
    return Action(actor, core.do, core.target, core.at, params, dice)


def check_now(
    ruleset: Ruleset,
    combatants: Encounter | Iterable[str] | Mapping[str, Any],
    given: Mapping[str, Any] | Action,
    bounds: Bounds | None = None,
) -> Action:
    """``given`` checked as an action taken now among ``combatants`` (the state, or the
    combatants it may name), as :func:`check_action` checks a file's: the validated
    action, or a :class:`~fracas.errors.Refusal` (a :class:`~fracas.errors.DiceError`
    for its dice) whose message names the field it is about, unless it quotes it."""
    try:
        return check_action(ruleset, combatants, given, bounds=bounds)
    except FileError as exc:
        kind = DiceError if exc.where.startswith("dice.") else Refusal
        raise kind(exc.code, _named(exc.where, exc.message)) from None


def _named(where: str, message: str) -> str:
    """``message`` after the field it is about (``to: tile [9, 0] is off the map``),
    unless it names that field already (``'edge' is not ...``, ``'attack' = 25 is ...``)."""
    field = where.rsplit(".", 1)[-1]
    if not where or f"{field!r}" in message or message.startswith(field):
        return message
    return f"{where}: {message}"


def _entry(action: Action) -> dict[str, Any]:
    """An :class:`Action` as the entry a file would give (tuples as lists)."""
    entry: dict[str, Any] = {"do": action.do}
    if action.actor != NO_ACTOR:
        entry["actor"] = action.actor
    if action.target is not None:
        entry["target"] = action.target
    if action.at is not None:
        entry["at"] = list(action.at) if isinstance(action.at, tuple) else action.at
    entry.update({k: list(v) if isinstance(v, tuple) else v for k, v in action.params.items()})
    if action.dice:
        entry["dice"] = {k: list(v) if isinstance(v, tuple) else v for k, v in action.dice.items()}
    return entry


def check_dice(
    ruleset: Ruleset,
    raw: Mapping[str, int | list[int]],
    ids: Sequence[str],
    locate: Locator,
    at: Path,
) -> dict[str, tuple[int, ...]]:
    """Given dice by label (``attack``, ``damage:bo``, ``attack:2``): known labels, faces
    of the die; as tuples."""
    out: dict[str, tuple[int, ...]] = {}
    labels = ", ".join(d.label for d in dice_specs(ruleset)) or "none"
    for key, value in raw.items():
        here = locate((*at, key))
        name, *rest = key.split(":")
        spec = die_spec(ruleset, name)
        if spec is None:
            raise FileError(
                "unknown_die_label",
                f"{key!r} is not a dice label of {ruleset.about.name}; valid: {labels}",
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


def _check_params(spec: ActionSpec, params: Mapping[str, Any], locate: Locator, at: Path) -> None:
    allowed, required, choices = spec.params, spec.required, spec.choices
    for key, value in params.items():
        if key not in allowed:
            valid = ", ".join([*ACTION_KEYS, *allowed])
            raise FileError(
                "unknown_field",
                f"{key!r} is not a field of this action; valid: {valid}",
                locate((*at, key)),
            )
        if key in choices and value not in choices[key]:
            raise FileError(
                "bad_value",
                f"{key} {brief(value)}: give one of {', '.join(choices[key])}",
                locate((*at, key)),
            )
        if key not in choices and key not in spec.types and not isinstance(value, str | int | list):
            raise FileError("bad_value", f"{key} {brief(value)} is not a value", locate((*at, key)))
    for key in required:
        if key not in params:
            raise FileError(
                "missing_field",
                f"{key!r} is required for this action",
                locate(at),
                (*at, key),
            )


def _check_ids(
    keys: Sequence[str], params: Mapping[str, Any], ids: Sequence[str], locate: Locator, at: Path
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
                    f"{brief(cid)} is not a combatant; valid: {', '.join(ids)}",
                    locate((*at, key, where)),
                )


def _check_targets(
    targets: str, core: _ActionCore, params: Mapping[str, Any], locate: Locator, at: Path
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
