"""The prompt's language: one line of text to one command. Pure: no terminal, no store.

::

    ana attack bo                  an action: actor, action, target
    attack bo                      the same, by whoever's turn it is
    ana throw at 4,5               a tile target
    ana attack bo cy               several targets (a ``combatants`` action: ``targets``)
    bo equip knife                 a required parameter, given by position
    ana attack bo edge=advantage   parameters as key=value (values read as YAML 1.2 core:
                                   17, "text", [a, b], {k: v}, true; `on`, `yes` stay text)
    ana attack bo attack=17        dice as label=value (physical dice), label=v1,v2 for several
    ana move to 3,4                core actions: move, set hp=5 cover=true, end_turn
    end                            the current actor ends its turn

The game master's table actions (they take no turn; :data:`GM_USAGE`)::

    heal bo 3 | bo heal 3          bo set hp=+3 is the same; bo set hp=-3 is `damage bo 3`
    damage bo 3
    status bo add=burning turns=2  one status added (its details after it), the others kept
    status bo remove=burning
    add cy name=Cy side=foes hp=8 at 3,4 after=bo   a new combatant, checked as a file's
    remove bo                      out of the fight
    initiative bo ana cy           a new turn order (every combatant once)
    delay ana bo                   ana moves to just after bo in the order
    roll 4d6kh3 [roll=4,2,6,1]     a free roll in d20's notation, logged (dice: roll=...)
    status | odds ACTION | hint [N] | undo | redo | log [N] | dice manual|auto
    save FILE | list | delete NAME | help [ACTION] | quit

Actions are checked by the table as a file's actions are, once, when submitted:
every error is a :class:`~fracas.errors.FracasError` that quotes the input and
lists what would be valid. Whether the rules allow the action now is the
engine's to say, when it is taken.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fracas.engine.catalogue import CORE_ACTIONS, dice_specs, die_spec, spec_of
from fracas.errors import FracasError
from fracas.model import Action, Encounter
from fracas.play.table_words import (
    GM_USAGE,
    SIGNED,
    SUBJECT,
    TILE,
    Change,
    add_word,
    detail,
    hp_change,
    signed,
)
from fracas.play.values import scalar
from fracas.rulesets.base import ActionSpec
from fracas.table import EncounterFile

__all__ = [
    "COMMANDS",
    "GM_USAGE",
    "Act",
    "Command",
    "Meta",
    "OddsOf",
    "action_names",
    "command_text",
    "parse",
    "parse_action",
]

COMMANDS: dict[str, str] = {
    "end": "end the current actor's turn",
    "status": "status [NAME]: every combatant (HP, statuses, gear, its state), or one in full",
    "odds": "odds ACTION: the exact odds of an action, without taking it",
    "hint": "hint [N]: the advisor's best N choices (default 3) for whoever's turn it is",
    "undo": "take back the latest action (it stays in the log)",
    "redo": "put back the latest undone action, with the same dice",
    "log": "log [N]: the whole log, or its last N entries",
    "dice": "dice manual|auto: ask for every die, or roll them",
    "save": "save FILE: write the encounter as a file whose actions carry their dice",
    "list": "the stored encounters",
    "delete": "delete NAME: delete a stored encounter",
    "help": "help [ACTION]: what the current actor may do now, and these commands",
    "quit": "leave (everything shown is already stored)",
}
"""The prompt's own commands (they win over a combatant of the same name, unless an
action follows it: ``end attack bo`` is the combatant ``end`` attacking)."""
_ALIASES = {"exit": "quit", "?": "help"}

_PAIR = re.compile(r"(-?\d+)\s*,\s*(?=-?\d)")
_TILE = TILE


Entry = dict[str, Any]
"""An action as the line gives it, an encounter file's action entry (``{"actor", "do",
"target", ...}``): the table checks it (once) when it is submitted or asked about."""


@dataclass(frozen=True, slots=True)
class Act:
    """Take an action."""

    action: Entry


@dataclass(frozen=True, slots=True)
class OddsOf:
    """Show the exact odds of an action without taking it."""

    action: Entry


@dataclass(frozen=True, slots=True)
class Meta:
    """One of :data:`COMMANDS` other than ``end`` and ``odds``, its arguments checked."""

    name: str
    args: tuple[str, ...] = ()


Command = Act | OddsOf | Meta


def action_names(ef: EncounterFile) -> list[str]:
    """Every action a prompt accepts: the ruleset's, then the core ones."""
    return [s.name for s in (*ef.ruleset.contract.actions, *CORE_ACTIONS)]


def parse(line: str, ef: EncounterFile, state: Encounter) -> Command | None:
    """The command on ``line`` (None for a blank line).

    Raises:
        FracasError: the line is not a command; the message quotes it and lists what is valid.
    """
    words = _split(line)
    if not words:
        return None
    head = _ALIASES.get(words[0], words[0])
    acting = words[0] in state.combatants and len(words) > 1 and bool(_action_name(words[1], ef))
    if head == "status" and any("=" in w for w in words[1:]):
        acting = True  # `status bo add=burning`: the action; `status` alone is the table
    if head in COMMANDS and not acting:  # `end attack bo`: a combatant called `end` acts
        return _meta(head, words[1:], ef, state)
    return Act(parse_action(words, ef, state))


def _split(line: str) -> list[str]:
    line = _PAIR.sub(r"\1,", line)  # "4, 5" is one word: 4,5
    try:
        return shlex.split(line)
    except ValueError as exc:
        raise FracasError("bad_command", f"{line.strip()!r}: {exc}") from None


def _meta(name: str, args: list[str], ef: EncounterFile, state: Encounter) -> Command:
    def arity(low: int, high: int, usage: str) -> None:
        if not low <= len(args) <= high:
            given = " ".join([name, *args])
            raise FracasError("bad_command", f"{given!r}: usage: {usage}")

    if name == "end":
        arity(0, 0, "end (the current actor ends its turn; `ana end_turn` names one)")
        return Act({"actor": state.turn.actor, "do": "end_turn"})
    if name == "odds":
        if not args:
            raise FracasError(
                "bad_command", "'odds': odds of what? give an action: odds ana attack bo"
            )
        return OddsOf(parse_action(args, ef, state))
    if name == "dice":
        arity(1, 1, "dice manual|auto")
        if args[0] not in ("manual", "auto"):
            raise FracasError("bad_command", f"dice {args[0]!r}: give manual or auto")
    elif name in ("save", "delete"):
        arity(1, 1, f"{name} {'FILE' if name == 'save' else 'NAME'}")
    elif name == "hint":
        arity(0, 1, "hint [N]")
        if args and not (args[0].isdigit() and int(args[0]) >= 1):
            raise FracasError("bad_command", f"hint {args[0]!r}: give a number of choices >= 1")
    elif name == "log":
        arity(0, 1, "log [N]")
        if args and not (args[0].isdigit() and int(args[0]) >= 1):
            raise FracasError("bad_command", f"log {args[0]!r}: give a number of entries >= 1")
    elif name == "status":
        arity(0, 1, "status [NAME]")
        if args and args[0] not in state.combatants:
            valid = ", ".join(state.combatants)
            raise FracasError("bad_command", f"'status {args[0]}': name a combatant: {valid}")
    elif name == "help":
        arity(0, 1, "help [ACTION]")
        if args and _action_name(args[0], ef) is None and args[0] not in COMMANDS:
            valid = ", ".join([*action_names(ef), *COMMANDS])
            raise FracasError("bad_command", f"help {args[0]!r}: valid: {valid}")
    else:
        arity(0, 0, name)
    return Meta(name, tuple(args))


def _action_name(word: str, ef: EncounterFile) -> str | None:
    names = action_names(ef)
    for candidate in (word, word.replace("-", "_"), "end_turn" if word == "end" else ""):
        if candidate in names:
            return candidate
    return None


def parse_action(words: Sequence[str], ef: EncounterFile, state: Encounter) -> Entry:
    """The action ``words`` say, as an action entry (the table checks it as a file's
    action is, when it is submitted).

    Raises:
        FracasError: an unknown actor, action or word; the message lists what is valid.
    """
    ids = list(state.combatants)
    first = words[0]
    if first in state.combatants:
        actor, rest = first, list(words[1:])
    elif _action_name(first, ef) is not None:
        actor, rest = state.turn.actor, list(words)
    else:
        raise FracasError(
            "unknown_command",
            f"{first!r} is not a combatant, an action or a command; combatants: "
            f"{', '.join(ids)}; actions: {', '.join(action_names(ef))}; `help` lists commands",
        )
    if not rest:
        raise FracasError(
            "missing_action",
            f"what does {actor} do? give an action: {', '.join(action_names(ef))}",
        )
    do = _action_name(rest[0], ef)
    if do is None:
        raise FracasError(
            "unknown_action",
            f"{rest[0]!r} is not an action of {ef.ruleset.about.name}; valid: "
            f"{', '.join(action_names(ef))}",
        )
    spec = spec_of(ef.ruleset, do)
    assert spec is not None
    if first not in state.combatants and do in SUBJECT and rest[1:2] and rest[1] in ids:
        actor, rest = rest[1], rest[1:]  # `heal bo 3`: the game master names whom
    return _build(actor, spec, rest[1:], ef, state)


def _joined(text: str, word: str) -> str:
    """A notation's words joined as typed: glued next to an operator (``1d20 + 5`` is
    ``1d20+5``), but a space kept between two numbers (``1d2 0`` is no ``1d20``: d20's
    notation refuses it, issue 36)."""
    if (
        text
        and word
        and (text[-1].isalnum() or text[-1] == ".")
        and (word[0].isalnum() or word[0] == ".")
    ):
        return f"{text} {word}"
    return text + word


def _build(
    actor: str, spec: ActionSpec, tokens: list[str], ef: EncounterFile, state: Encounter
) -> Entry:
    raw: dict[str, Any] = {"actor": actor, "do": spec.name}
    dice: dict[str, list[int]] = {}
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if spec.name == "add":
            i += add_word(raw, tokens, i) + 1
            continue
        if spec.name == "roll" and "=" not in token:
            raw["notation"] = _joined(raw.get("notation", ""), token)  # `roll 1d20 + 5`
        elif spec.name == "initiative" and "=" not in token:  # `initiative bo ana cy`
            given = raw.get("order", [])
            raw["order"] = [*(given if isinstance(given, list) else [given]), token]
        elif "=" in token:
            key, _, value = token.partition("=")
            _keyed(raw, dice, spec, key, value, ef)
        elif token in ("at", "to") and i + 1 < len(tokens) and _TILE.match(tokens[i + 1]):
            _place(raw, spec, token, tokens[i + 1])
            i += 1
        elif _TILE.match(token):
            _place(raw, spec, "at" if spec.targets == "combatant_or_tile" else "to", token)
        elif token in state.combatants and spec.targets != "none":
            _target(raw, spec, token)
        elif (free := [p for p in spec.required if p not in raw]) and spec.name != "set":
            raw[free[0]] = _value(spec, free[0], token)
        else:
            raise FracasError(
                "bad_word",
                f"{token!r} is not a target, a tile or a key=value of {spec.name!r}: "
                f"{_expects(spec, state)}",
            )
        i += 1
    if dice:
        raw["dice"] = {k: v[0] if len(v) == 1 else v for k, v in dice.items()}
    if isinstance(raw.get("hp"), Change):
        raw = hp_change(raw)
    return raw


def _target(raw: dict[str, Any], spec: ActionSpec, token: str) -> None:
    if "target" not in raw and "targets" not in raw:
        raw["target"] = token
    elif spec.targets == "combatants":  # several targets: the `targets` list
        first = [raw.pop("target")] if "target" in raw else []
        raw["targets"] = [*first, *raw.get("targets", []), token]
    else:
        raise FracasError(
            "bad_word", f"{spec.name!r} takes one target: {raw['target']!r}, then {token!r}?"
        )


def _expects(spec: ActionSpec, state: Encounter) -> str:
    parts = []
    if spec.targets != "none":
        parts.append(f"a target ({', '.join(state.combatants)})")
    if spec.targets == "combatant_or_tile":
        parts.append("a tile (at X,Y)")
    if "to" in spec.params:
        parts.append("a tile (to X,Y)")
    keys = [p for p in spec.params if p != "to"]
    if keys:
        parts.append(f"key=value ({', '.join(keys)})")
    if spec.name == "set":
        parts.append("field=value")
    parts.append("dice as label=N")
    return "give " + ", ".join(parts)


def _keyed(
    raw: dict[str, Any],
    dice: dict[str, list[int]],
    spec: ActionSpec,
    key: str,
    value: str,
    ef: EncounterFile,
) -> None:
    if not key or not value:
        raise FracasError("bad_word", f"{key + '=' + value!r}: give key=value with both")
    if key in ("at", "to") and spec.name != "set":
        _place(raw, spec, key, value)
    elif key == "target":
        raw["target"] = value
    elif key in spec.combatant_params and "," in value and value[:1] not in "[{":
        raw[key] = [v.strip() for v in value.split(",")]  # targets=bo,cy
    elif spec.name == "set" and SIGNED.match(value):
        signed(raw, key, value)
    elif spec.name == "set" or key in spec.params:
        raw[key] = _value(spec, key, value)
    elif spec.name == "status":
        detail(raw, key, value)
    elif die_spec(ef.ruleset, key.split(":")[0]) is not None:
        try:
            dice[key] = [int(v) for v in value.split(",")]
        except ValueError:
            raise FracasError(
                "bad_value", f"die {key!r} = {value!r}: give whole numbers (17, or 17,3)"
            ) from None
    else:
        params = ", ".join(spec.params) or "none"
        labels = ", ".join(d.label for d in dice_specs(ef.ruleset)) or "none"
        raise FracasError(
            "unknown_field",
            f"{key!r} is not a parameter of {spec.name!r} ({params}) nor a dice label ({labels})",
        )


def _place(raw: dict[str, Any], spec: ActionSpec, key: str, text: str) -> None:
    m = _TILE.match(text)
    if m is None:
        raise FracasError("bad_value", f"{key} {text!r}: give a tile as X,Y (4,5)")
    if key == "to" and "to" not in spec.params:
        raise FracasError("bad_word", f"{spec.name!r} takes no `to`; {spec.name} at X,Y?")
    if key == "at" and spec.targets != "combatant_or_tile":
        raise FracasError("bad_word", f"{spec.name!r} does not target a tile")
    raw[key] = [int(m.group(1)), int(m.group(2))]


def _value(spec: ActionSpec, key: str, text: str) -> Any:
    if text in spec.choices.get(key, ()):
        return text
    return scalar(text)


def command_text(action: Action, dice: Mapping[str, Sequence[int]] | None = None) -> str:
    """The prompt line that gives ``action`` (and ``dice``, default the action's own):
    the inverse of :func:`parse_action`."""
    words = [action.actor, action.do]
    if action.target is not None:
        words.append(action.target)
    if action.at is not None:
        words += ["at", f"{action.at[0]},{action.at[1]}"]
    for key, value in action.params.items():
        if key == "to" and isinstance(value, tuple | list) and len(value) == 2:
            words += ["to", f"{value[0]},{value[1]}"]
        else:
            words.append(f"{key}={_text(value)}")
    given = action.dice if dice is None else dice
    words += [f"{label}={','.join(str(v) for v in values)}" for label, values in given.items()]
    return " ".join(shlex.quote(w) for w in words)


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value if value and scalar(value) == value else json.dumps(value)
    if isinstance(value, int):
        return str(value)
    return json.dumps(_listed(value), separators=(",", ":"))


def _listed(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _listed(v) for k, v in value.items()}
    if isinstance(value, tuple | list | frozenset):
        return [_listed(v) for v in value]
    return value
