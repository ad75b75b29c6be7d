"""Encounter files (YAML; JSON accepted), validated with errors that name the line.

The format is ``../shared/rules/README.md``'s "Encounter file". Every problem
is a :class:`~fracas.errors.FileError` whose ``where`` reads
``FILE:LINE: field.path`` and whose message quotes the input and lists what is valid.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import json
import re
import typing
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import ConfigDict, Field

from fracas.engine.catalogue import POLICY_FIELDS
from fracas.engine.checking import Bounds, check_action, check_dice, dotted
from fracas.engine.combatants import MAX_MAP, read_combatant, read_house_rules
from fracas.engine.play import Engine, Record, dice_from_rolls
from fracas.engine.table_actions import added_ids, policy_of
from fracas.errors import FileError, FracasError, Where, brief
from fracas.model import NO_ACTOR, Action, Combatant, Encounter, Policy, Turn
from fracas.model.validation import Locator, check_names, validate
from fracas.rulesets import Ruleset, find_ruleset
from fracas.rulesets.base import plain

__all__ = [
    "EncounterFile",
    "MapSize",
    "Played",
    "Tactic",
    "action_json",
    "export",
    "load",
    "parse_text",
    "play_file",
    "read_action",
    "read_text",
]

_ID = re.compile(r"^[a-z0-9_-]+$")


@dataclass(frozen=True, slots=True)
class MapSize:
    """Optional map bounds: tiles run 0..width-1 and 0..height-1."""

    __pydantic_config__ = ConfigDict(extra="forbid")

    width: Annotated[int, Field(ge=1, le=MAX_MAP)]
    height: Annotated[int, Field(ge=1, le=MAX_MAP)]


FOCUS = ("weakest", "nearest", "dangerous")
"""The ``focus:`` of a tactic that names no combatant."""


@dataclass(frozen=True, slots=True)
class Tactic:
    """One combatant's tactics for the balance lab (``tactics:``; docs/lab.md)."""

    __pydantic_config__ = ConfigDict(extra="forbid")

    preset: Literal["default", "naive", "random"] = "default"
    """``default`` (the lab's tactics), ``naive`` (attacks the first enemy it can, never
    moves, reloads or switches) or ``random`` (a seeded random choice of the default's
    choices, a function of the state and ``seed``)."""
    seed: int = 0
    """The seed of the ``random`` preset."""
    focus: str | None = None
    """``weakest``, ``nearest``, ``dangerous`` or a combatant id: whom it attacks first."""
    action: str | None = None
    """A ruleset action it prefers when that action is allowed."""
    weapon: str | None = None
    """A weapon or item it prefers (a parameter value: ``weapon``, ``item``)."""
    approach: bool = True
    """It walks (closes in, or to a better tile to attack from); false: it stays put."""


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
    tactics: dict[str, Tactic] = field(default_factory=dict)
    policy: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class _Policy:
    """A file's ``policy:`` (``fracas.model.Policy``): each field optional."""

    __pydantic_config__ = ConfigDict(extra="forbid")

    player_undo: bool | None = None
    player_calls: list[str] | None = None
    enemy_hp: Literal["exact", "label", "hidden"] | None = None
    winbar: bool | None = None
    player_move: bool | None = None
    advisor: bool | None = None


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
    tactics: Mapping[str, Tactic] = field(default_factory=dict)
    """The lab's per-combatant tactics (``tactics:``), by combatant id."""

    @property
    def bounds(self) -> Bounds | None:
        """The map's (width, height), for :class:`~fracas.engine.play.Engine`; None: no map."""
        return None if self.map is None else (self.map.width, self.map.height)


@dataclass(frozen=True, slots=True)
class Played:
    """A file played up to its end or its first refused action."""

    engine: Engine
    records: list[Record]
    """The start's record, then one per action played."""
    before: list[Encounter]
    """The state before each record (the first: before the start)."""
    refused: tuple[int, FracasError] | None
    """The first refused action's number (from 1) and its refusal; None: all played."""


def play_file(ef: EncounterFile, actions: int | None = None) -> Played:
    """Start ``ef``'s encounter and play its first ``actions`` actions (None: all), its
    dice as the file gives them, the rest from its seed; a refusal stops there (the
    engine keeps nothing of it)."""
    engine = Engine(ef.ruleset, ef.start, ef.seed, ef.bounds)
    before = [engine.state]
    records = [engine.begin(ef.dice, ef.order)]
    for number, action in enumerate(ef.actions[:actions], 1):
        state = engine.state
        try:
            records.append(engine.act(action))
        except FracasError as exc:
            return Played(engine, records, before, (number, exc))
        before.append(state)
    return Played(engine, records, before, None)


def load(path: str | Path) -> EncounterFile:
    """Read and validate an encounter file."""
    return parse_text(read_text(path), str(Path(path)))


def read_text(path: str | Path) -> str:
    """The text of an encounter file (``unreadable_file`` naming it when it cannot be read)."""
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > MAX_BYTES:
            raise _too_big(str(p), size)
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
    _check_text(raw, (), locate)
    _check_names(raw, locate)
    top: _TopLevel = validate(
        _TopLevel, raw, locate, valid_fields=[f for f in _TopLevel.__dataclass_fields__]
    )
    try:
        ruleset_cls = find_ruleset(top.ruleset)
    except FracasError as exc:
        raise FileError(exc.code, exc.message, locate(("ruleset",))) from None
    options = validate(
        ruleset_cls.contract.options,
        _merge_partial(ruleset_cls.contract.options, top.options),
        locate,
        ("options",),
        valid_fields=list(ruleset_cls.contract.option_defaults()),
        unknown_code="unknown_option",
    )
    ruleset = ruleset_cls(options)  # which freezes them: pure rules may be memoised on them
    combatants = _combatants(ruleset, top, locate)
    ids = list(combatants)
    order = _order(top.order, ids, locate)
    dice = check_dice(ruleset, top.dice, ids, locate, ("dice",))
    bounds = None if top.map is None else (top.map.width, top.map.height)
    known = list(ids)  # the ids actions may name: the file's, and those its actions add
    actions: tuple[Action, ...] = ()
    for i, a in enumerate(top.actions):
        actions += (
            check_action(ruleset, known, a, bounds=bounds, locate=locate, at=("actions", i)),
        )
        known += added_ids(actions[-1])
    first = order[0] if order else ids[0]
    tactics = _tactics(ruleset, top.tactics, ids, locate)
    start = Encounter(
        ruleset.about.name,
        combatants,
        tuple(order or ids),
        top.round,
        Turn(first),
        ruleset.initial_values(),
        read_house_rules(top.table, locate, bounds),
        policy=_policy(ruleset, top.policy, locate),
        presets={cid: t.preset for cid, t in tactics.items() if t.preset != "default"},
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
        tactics,
    )


def _with_presets(
    setup: dict[str, Any], ef: EncounterFile, presets: Mapping[str, str]
) -> dict[str, Any]:
    """``setup`` with ``presets`` written in its ``tactics:`` (``default``: no ``preset``
    key; a tactic left empty: no entry), for the file's own combatants."""
    tactics = {cid: dict(t) for cid, t in dict(setup.get("tactics") or {}).items()}
    for cid, preset in presets.items():
        if cid not in ef.start.combatants:
            continue
        entry = tactics.setdefault(cid, {})
        if preset == "default":
            entry.pop("preset", None)
        else:
            entry["preset"] = preset
        if not entry:
            del tactics[cid]
    return {k: v for k, v in {**setup, "tactics": tactics}.items() if k != "tactics" or v}


def _merge_partial(kind: type[Any], given: Mapping[str, Any]) -> dict[str, Any]:
    """Options whose value is a table with a fixed set of keys (``called_shot_penalty:
    {head, torso, arms, legs}``), given in part, merged over the default table: the keys
    left out keep their default. A table with open keys (a DV table) is taken whole."""
    hints = typing.get_type_hints(kind, include_extras=True)
    defaults = {f.name: f for f in dataclasses.fields(kind)}
    out = dict(given)
    for key, value in given.items():
        f = defaults.get(key)
        if f is None or not isinstance(value, dict) or f.default_factory is dataclasses.MISSING:
            continue
        if _literal_keys(hints[key]):
            default = f.default_factory()
            if isinstance(default, Mapping):
                out[key] = {**plain(dict(default)), **value}
    return out


def _literal_keys(hint: Any) -> bool:
    """Whether ``hint`` is a mapping type keyed by a closed set of names (a ``Literal``)."""
    while typing.get_origin(hint) is Annotated:
        hint = typing.get_args(hint)[0]
    origin = typing.get_origin(hint)
    if origin not in (dict, Mapping, collections.abc.Mapping):
        return False
    return typing.get_origin(typing.get_args(hint)[0]) is Literal


# --- reading with line numbers --------------------------------------------------


_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's parser where it is installed (the same results, many times faster)."""


MAX_BYTES = 1_000_000
"""The largest encounter file read (a long saved session is far below it)."""
MAX_DEPTH = 32
"""The deepest nesting of mappings and lists (an encounter needs about 6)."""
MAX_ALIASED = 10_000
"""Nodes a file's YAML aliases (``*name``) may repeat in all: an alias is expanded only
within this bound (a few aliases nested can stand for billions of nodes)."""
MAX_DIGITS = 100
"""Digits of the longest integer read."""

_Lines = dict[tuple[str | int, ...], int]
_INT_TAG = "tag:yaml.org,2002:int"
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKETS = re.compile(r"[\[\]{}\n]")


def _read(text: str, name: str) -> tuple[Any, _Lines]:
    """Parse once into nodes (for line numbers and duplicate keys), then build the data.

    Refused before anything is built: a file above :data:`MAX_BYTES`, nesting deeper
    than :data:`MAX_DEPTH`, aliases repeating more than :data:`MAX_ALIASED` nodes
    (``too_large``), an integer of more than :data:`MAX_DIGITS` digits (``bad_value``).
    """
    if len(text) > MAX_BYTES:
        raise _too_big(name, len(text.encode("utf-8", "surrogatepass")))
    lines: _Lines = {}
    json_file = name.endswith(".json")
    if json_file:
        _json_depth(text, name)
        try:
            raw = json.loads(text, parse_int=_json_int(text, name))
        except json.JSONDecodeError as exc:
            raise FileError("bad_json", exc.msg, f"{name}:{exc.lineno}") from None
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is not None:
            _Walk(name, lines).walk(node, ())
        if not json_file:
            raw = loader.construct_document(node) if node is not None else None
    except yaml.YAMLError as exc:
        if not json_file:
            raise _yaml_error(exc, text, name) from None
        lines.clear()  # JSON that YAML cannot read: no line numbers
    finally:
        loader.dispose()
    if not isinstance(raw, dict):
        if raw is None:
            what = "the file is empty"
        else:
            kind = _KINDS.get(type(raw), type(raw).__name__)
            what = f"the file holds {kind} ({brief(raw)}), not a mapping of fields"
        raise FileError(
            "bad_file", f"{what}: an encounter needs `ruleset:` and `combatants:`", name
        )
    return raw, lines


_KINDS = {list: "a list", str: "a string", int: "an integer", float: "a number", bool: "a boolean"}


def _too_big(name: str, size: int) -> FileError:
    return FileError(
        "too_large",
        f"the file has {size:,} bytes: an encounter file has at most {MAX_BYTES:,}",
        name,
    )


def _yaml_error(exc: yaml.YAMLError, text: str, name: str) -> FileError:
    """A YAML error in words a user knows: the line, and a tab named as a tab."""
    mark = getattr(exc, "problem_mark", None)
    where = f"{name}:{mark.line + 1}" if mark is not None else name
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    if mark is not None and ("tab" in problem or "cannot start any token" in problem):
        row = text.splitlines()[mark.line] if mark.line < len(text.splitlines()) else ""
        if "\t" in row[: mark.column + 1]:
            return FileError(
                "bad_yaml",
                f"line {mark.line + 1}: a tab in indentation; YAML indents with spaces",
                where,
            )
    if "nesting depth" in problem:
        return FileError("too_large", f"nesting deeper than {MAX_DEPTH} levels", where)
    return FileError("bad_yaml", f"not valid YAML: {problem}", where)


def _json_depth(text: str, name: str) -> None:
    """Refuse JSON nested deeper than :data:`MAX_DEPTH` before parsing it (the parser
    would recurse once per level)."""
    depth, line = 0, 1
    for m in _BRACKETS.finditer(_JSON_STRING.sub('""', text)):
        c = m.group()
        if c == "\n":
            line += 1
        elif c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise FileError(
                    "too_large",
                    f"nesting deeper than {MAX_DEPTH} levels of mappings and lists",
                    f"{name}:{line}",
                )
        else:
            depth -= 1


def _json_int(text: str, name: str) -> Any:
    def parse(digits: str) -> int:
        if len(digits.lstrip("-")) > MAX_DIGITS:
            raise _long_int(
                len(digits.lstrip("-")), f"{name}:{text.count(chr(10), 0, text.find(digits)) + 1}"
            )
        return int(digits)

    return parse


def _long_int(digits: int, where: str) -> FileError:
    return FileError(
        "bad_value", f"an integer of {digits:,} digits: give at most {MAX_DIGITS}", where
    )


class _Walk:
    """One pass over the YAML nodes: the line of every path, duplicate keys, and the
    bounds on nesting, aliases and integers."""

    def __init__(self, name: str, out: _Lines) -> None:
        self.name = name
        self.out = out
        self.seen: set[int] = set()
        self.aliased = 0

    def walk(self, node: yaml.Node, path: tuple[str | int, ...], repeat: bool = False) -> None:
        name, out = self.name, self.out
        line = node.start_mark.line + 1
        if len(path) > MAX_DEPTH:
            raise FileError(
                "too_large",
                f"nesting deeper than {MAX_DEPTH} levels of mappings and lists",
                f"{name}:{line}",
            )
        repeat = repeat or id(node) in self.seen
        if repeat:  # reached through an alias: the loader would build it again
            self.aliased += 1
            if self.aliased > MAX_ALIASED:
                raise FileError(
                    "too_large",
                    f"its aliases (*name) repeat more than {MAX_ALIASED:,} values: "
                    "expand them within that, or write the values out",
                    f"{name}:{line}",
                )
        else:
            self.seen.add(id(node))
        out.setdefault(path, line)
        if isinstance(node, yaml.ScalarNode):
            if node.tag == _INT_TAG:
                digits = sum(ch.isdigit() for ch in node.value)
                if digits > MAX_DIGITS:
                    raise _long_int(digits, f"{name}:{line}: {dotted(path)}")
        elif isinstance(node, yaml.MappingNode):
            keys: set[str] = set()
            for key, value in node.value:
                k = str(key.value)
                if k in keys:
                    raise FileError(
                        "duplicate_key",
                        f"key {k!r} appears twice in one mapping",
                        f"{name}:{key.start_mark.line + 1}",
                    )
                keys.add(k)
                out[(*path, k)] = key.start_mark.line + 1
                self.walk(value, (*path, k), repeat)
        elif isinstance(node, yaml.SequenceNode):
            for i, value in enumerate(node.value):
                self.walk(value, (*path, i), repeat)


def _check_text(value: Any, path: tuple[str | int, ...], locate: Locator) -> None:
    """Refuse strings that are not text: a JSON escape of half a UTF-16 pair (``"\\ud800"``)
    reads as a lone surrogate, which no output can print."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise FileError(
                "bad_value",
                f"{brief(value)} holds {value[exc.start]!a}, half of a UTF-16 pair and not a "
                "character: give text (a JSON escape names both halves, or write the "
                "character itself)",
                locate(path),
            ) from None
    elif isinstance(value, dict):
        for k, v in value.items():
            _check_text(k, path, locate)
            _check_text(v, (*path, str(k)), locate)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _check_text(v, (*path, i), locate)


FREE_TEXT = ("text",)
"""An action's fields that are free text, not names (a note's ``text``): they may hold
any character; every face escapes what it shows (``fracas.words.console.printable``)."""


def _check_names(raw: dict[str, Any], locate: Locator) -> None:
    """Refuse a control character in every name and id of the file, and in every other
    text but an action's free text (``bad_name``): a name a page, a link or a
    terminal shows is printable text."""
    check_names({k: v for k, v in raw.items() if k != "actions"}, locate)
    actions = raw.get("actions")
    if not isinstance(actions, list):
        check_names(actions, locate, ("actions",))
        return
    for i, action in enumerate(actions):
        if isinstance(action, dict):
            kept = {k: v for k, v in action.items() if k not in FREE_TEXT}
            check_names(kept, locate, ("actions", i))
        else:
            check_names(action, locate, ("actions", i))


def _locator(name: str, lines: Mapping[tuple[str | int, ...], int]) -> Locator:
    def locate(path: Sequence[str | int]) -> str:
        key = tuple(path)
        line = None
        for n in range(len(key), -1, -1):
            line = lines.get(key[:n])
            if line is not None:
                break
        where = f"{name}:{line}" if line is not None else name
        return Where(f"{where}: {dotted(key)}" if key else where, key)

    return locate


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


def _policy(ruleset: Ruleset, raw: Mapping[str, Any], locate: Locator) -> Policy:
    """The file's ``policy:`` over the default policy."""
    given: _Policy = validate(
        _Policy, dict(raw), locate, ("policy",), valid_fields=list(POLICY_FIELDS)
    )
    changes = {f: getattr(given, f) for f in POLICY_FIELDS if getattr(given, f) is not None}
    try:
        return policy_of(ruleset, Policy(), changes, "policy")
    except FracasError as exc:
        raise FileError(exc.code, exc.message, locate(("policy", "player_calls"))) from None


def _tactics(
    ruleset: Ruleset, tactics: Mapping[str, Tactic], ids: list[str], locate: Locator
) -> dict[str, Tactic]:
    names = [spec.name for spec in ruleset.contract.actions]
    for cid, t in tactics.items():
        where = ("tactics", cid)
        if cid not in ids:
            raise FileError(
                "unknown_combatant",
                f"{cid!r} is not a combatant; valid: {', '.join(ids)}",
                locate(where),
            )
        if t.focus is not None and t.focus not in (*FOCUS, *ids):
            raise FileError(
                "bad_value",
                f"focus {t.focus!r} is not weakest, nearest, dangerous or a combatant; "
                f"combatants: {', '.join(ids)}",
                locate((*where, "focus")),
            )
        if t.action is not None and t.action not in names:
            raise FileError(
                "unknown_action",
                f"action {t.action!r} is not an action of {ruleset.about.name}; valid: "
                f"{', '.join(names)}",
                locate((*where, "action")),
            )
    return dict(tactics)


def read_action(
    ef: EncounterFile, raw: Mapping[str, Any] | Action, ids: Collection[str] | None = None
) -> Action:
    """One action given as a file's action entry (``{"actor", "do", "target", ...}``),
    validated as the file's own actions are (a stored log, a prompt); ``ids``: the
    combatants it may name (default: the file's; a prompt gives those in the fight).

    Raises:
        FileError: its ``where`` names the field (``edge``, ``dice.attack``), no file or line.
    """
    known = ef.start if ids is None else ids
    return check_action(ef.ruleset, known, raw, bounds=ef.bounds)


def action_json(action: Action, dice: Mapping[str, Sequence[int]] | None = None) -> dict[str, Any]:
    """An action as a file's action entry: ``actor``, ``do``, ``target``, ``at``, its
    parameters, and ``dice`` (``dice`` where given, else the action's own) when any."""
    entry: dict[str, Any] = {"actor": action.actor, "do": action.do}
    if action.actor == NO_ACTOR:  # the game master's own roll: an entry without an actor
        del entry["actor"]
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
    ef: EncounterFile,
    records: Sequence[Record],
    order: Sequence[str] | None = None,
    presets: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """An encounter file that replays ``records`` exactly with ``fracas run``.

    ``records`` are the start and the effective actions (``Engine.effective``).
    The setup is the original file's (with its ``order:`` if it has one); the
    initiative dice and every action's dice are written as rolled, so no die
    comes from the seed and the start's order follows again. ``order`` (the turn
    order in play) is not written: the game master's actions (``initiative``,
    ``delay``, ``add``, ``remove``) change it during play, and the file's actions
    replay those changes. ``presets`` (the state's :attr:`~fracas.model.Encounter.presets`
    at the end): written in the file's ``tactics:`` for its own combatants, so the
    lab reads them as the table plays them (the ``tactics`` actions replay them too,
    and set those of a combatant added in play).
    """
    out: dict[str, Any] = dict(ef.setup)
    if presets:
        out = _with_presets(out, ef, presets)
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
