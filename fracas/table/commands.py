"""What a face asks of a table (:meth:`fracas.table.Table.submit`), and what it gets back.

Every change of a table is one of these commands, submitted with the identity that
asks and the seq it saw; the table alone checks the seq, the identity, the policy and
the rules, stores what is stored and tells every listener (boardgame.io's master).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fracas.dice.source import Dice
from fracas.engine.play import Record
from fracas.model import Action
from fracas.table.physical import DieNeeded

__all__ = [
    "Act",
    "Answer",
    "Cancel",
    "Command",
    "Give",
    "Outcome",
    "Redo",
    "Request",
    "SetDice",
    "SetPolicy",
    "Undo",
]


@dataclass(frozen=True, slots=True)
class Act:
    """Take an action: an :class:`~fracas.model.Action`, or an action entry as a file
    gives it (``{"actor", "do", "target", ...}``), checked once by the table."""

    action: Action | Mapping[str, Any]
    dice: Dice | None = field(default=None, compare=False)
    """The game master's own source for the dice the action does not give (the prompt's
    ``dice manual``); nobody else's."""


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the latest effective action."""


@dataclass(frozen=True, slots=True)
class Redo:
    """Put back the latest undone action, with its dice."""


@dataclass(frozen=True, slots=True)
class Give:
    """The face of the physical die the table asks for."""

    face: int


@dataclass(frozen=True, slots=True)
class Cancel:
    """Drop the action waiting for its physical dice."""


@dataclass(frozen=True, slots=True)
class SetDice:
    """The game master's choice: dice typed in (``physical``) or rolled by fracas."""

    physical: bool


@dataclass(frozen=True, slots=True)
class SetPolicy:
    """The game master's change of the table's policy (the fields given; the rest kept),
    stored as a ``policy`` action (logged, undone like any)."""

    changes: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Answer:
    """The game master's answer to a player's request (a judgement call asked for)."""

    request: int
    accept: bool


Command = Act | Undo | Redo | Give | Cancel | SetDice | SetPolicy | Answer


@dataclass(frozen=True, slots=True)
class Request:
    """A player's action that makes a judgement call the game master has not given
    players: held until the game master accepts it (it is then taken as the player's)
    or refuses it (nothing is written)."""

    id: int
    action: Action
    by: str
    """The player's name."""
    owns: frozenset[str]
    """The combatants of the player who asked (its identity, to act as when accepted)."""
    calls: tuple[str, ...]
    """The judgement calls it asks for."""
    seq: int
    """The table's seq when it was asked."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a submitted command did."""

    seq: int
    """The table's seq after it."""
    record: Record | None = None
    """The record it stored, if any."""
    asked: DieNeeded | None = None
    """The physical die the table now asks for (the action waits for it)."""
    request: Request | None = None
    """The request it made (the game master's answer is awaited)."""
