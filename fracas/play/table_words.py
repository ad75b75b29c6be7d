"""The prompt's words for the game master's table actions
(``fracas.engine.table_actions``): ``hp=+N`` as a
heal, ``status bo add=burning turns=2``, ``add zed name=Zed at 3,4 after=bo``. Pure."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from fracas.errors import FracasError
from fracas.play.values import scalar

__all__ = [
    "GM_USAGE",
    "SIGNED",
    "SUBJECT",
    "TILE",
    "Change",
    "add_word",
    "detail",
    "hp_change",
    "signed",
]

GM_USAGE: dict[str, str] = {
    "move": "move ID to X,Y",
    "set": "set ID FIELD=VALUE ... (hp=+N heals, hp=-N damages)",
    "heal": "heal ID N",
    "damage": "damage ID N",
    "status": "status ID add=NAME [DETAIL=VALUE ...] | remove=NAME",
    "add": "add ID [name=.. side=.. hp=.. at X,Y ...sheet fields] [after=ID]",
    "remove": "remove ID",
    "initiative": "initiative ID ID ... (every combatant once)",
    "delay": "delay ID AFTER-ID",
    "roll": "roll NOTATION (as d20 writes it: 2d6+1, 4d6kh3, 1d20 [fire]) [roll=FACES]",
}
"""How the prompt gives each of the game master's actions (``help`` lists them)."""
SUBJECT = frozenset(["move", "set", "heal", "damage", "status", "remove", "delay"])
"""Table actions whose actor may follow the action's name (``heal bo 3``)."""
SIGNED = re.compile(r"^[+-]\d+$")

TILE = re.compile(r"^\[?\s*(-?\d+)\s*,\s*(-?\d+)\s*\]?$")
"""A tile as the prompt writes it: ``4,5`` or ``[4, 5]``."""


@dataclass(frozen=True, slots=True)
class Change:
    """``hp=+N`` / ``hp=-N`` at the prompt: a heal or damage, not a value."""

    amount: int
    text: str


def signed(raw: dict[str, Any], key: str, value: str) -> None:
    """A ``set`` value written with a sign: ``hp=+2`` heals, ``hp=-2`` damages; another
    field's ``+N`` is refused (it would silently be the value N, not N more)."""
    if key == "hp":
        raw["hp"] = Change(int(value), value)
    elif value.startswith("+"):
        raise FracasError(
            "bad_value",
            f"{key}={value}: set gives a field its value, not a change; write "
            f"{key}={value[1:]} (only hp=+N / hp=-N heal and damage)",
        )
    else:
        raw[key] = int(value)


def hp_change(raw: dict[str, Any]) -> dict[str, Any]:
    """A ``set`` whose ``hp`` is a change, as the ``heal`` or ``damage`` it means."""
    change: Change = raw["hp"]
    others = [k for k in raw if k not in ("actor", "do", "hp")]
    if others:
        raise FracasError(
            "bad_value",
            f"hp={change.text} heals or damages: give it alone, and set "
            f"{', '.join(others)} in another command (or give hp a value: hp=5)",
        )
    if change.amount == 0:
        raise FracasError(
            "bad_value", f"hp={change.text} changes nothing: give hp=+N, hp=-N (N >= 1) or hp=N"
        )
    do = "heal" if change.amount > 0 else "damage"
    return {"actor": raw["actor"], "do": do, "amount": abs(change.amount)}


def detail(raw: dict[str, Any], key: str, value: str) -> None:
    """``status bo add=burning turns=2``: a detail of the status being added."""
    add = raw.get("add")
    if isinstance(add, str):
        add = {add: {}}
    if not isinstance(add, dict) or len(add) != 1:
        raise FracasError(
            "unknown_field",
            f"{key}={value}: status takes add=NAME (then its details: add=burning turns=2) "
            "and remove=NAME",
        )
    ((name, details),) = add.items()
    raw["add"] = {name: {**details, key: scalar(value)}}


def add_word(raw: dict[str, Any], tokens: list[str], i: int) -> int:
    """One word of ``add ID FIELD=VALUE ... [at X,Y] [after=ID]``; how many more it took."""
    token = tokens[i]
    fields: dict[str, Any] = raw.setdefault("combatant", {})
    key, eq, value = token.partition("=")
    if eq and key and value:
        if key == "after":
            raw["after"] = value
        elif key == "combatant":
            given = scalar(value)
            if not isinstance(given, dict):
                raise FracasError(
                    "bad_value", f"combatant={value!r}: give a mapping {{id: cy, hp: 8, ...}}"
                )
            fields.update(given)
        elif key == "at" and TILE.match(value):
            m = TILE.match(value)
            assert m is not None
            fields["at"] = [int(m.group(1)), int(m.group(2))]
        else:
            fields[key] = scalar(value)
        return 0
    if token == "at" and i + 1 < len(tokens) and TILE.match(tokens[i + 1]):
        return add_word(raw, [f"at={tokens[i + 1]}"], 0) + 1
    if not eq and "id" not in fields:
        fields["id"] = token
        return 0
    raise FracasError(
        "bad_word",
        f"{token!r}: add takes an id, then FIELD=VALUE (name, side, hp, max_hp, the sheet's "
        "fields), at X,Y and after=ID",
    )
