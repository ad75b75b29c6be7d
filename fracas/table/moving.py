"""What a token's move would cost, asked before the drop (issue 22, item 3): the move is
the actor's own movement as its ruleset takes it (:meth:`Ruleset.walk`: wasteland's
``ap: n`` paid MAP first, then AP, WL-2; elsewhere the table's walk), planned by the
engine in the state now and never stored. The answer is the rules' own lines of what
it would pay (the log's words, e.g. "Vera spends 3 on movement: MAP 0 -> 0, AP 9 -> 6"),
or their refusal with its code (``not_enough_ap``, ``too_far``): no face works a cost
out itself.

A player's drop of its own token is that same move (:func:`own_move`, taken by
:meth:`Table._read`); the game master's drop stays a move by decree, free, and the
answer says so (``free``) beside what the actor's own move would pay in its turn.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from fracas.dice.source import RandomDice
from fracas.engine.catalogue import walks
from fracas.engine.combatants import check_free
from fracas.engine.play import plan
from fracas.errors import Refusal
from fracas.model import Action, Encounter, Event
from fracas.model.events import Moved
from fracas.model.grid import Tile
from fracas.rulesets.base import Ruleset, distance, move_is_own, walk

__all__ = ["MoveCost", "move_cost", "own_move"]


@dataclass(frozen=True)
class MoveCost:
    """What moving ``actor`` to ``to`` would cost now, as the rules say."""

    actor: str
    to: Tile
    tiles: int
    """The distance by the ruleset's metric."""
    allowed: bool
    """Whether the actor's own move there is allowed now (it can pay it)."""
    words: tuple[str, ...]
    """The rules' lines of what the own move pays (empty where it pays nothing)."""
    code: str | None = None
    """The rules' refusal code where it is not allowed."""
    message: str | None = None
    free: bool = False
    """The asker's drop is the game master's move by decree: it pays nothing."""
    own: bool = True
    """``words``, ``allowed`` are about the actor's own move (False: the game master
    drags a combatant whose turn it is not; only ``free`` applies)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "actor": self.actor,
            "to": list(self.to),
            "tiles": self.tiles,
            "allowed": self.allowed,
            "words": list(self.words),
            "code": self.code,
            "message": self.message,
            "free": self.free,
            "own": self.own,
        }


def own_move(ruleset: Ruleset, state: Encounter, action: Action) -> Action:
    """``action`` (a ``move``) as its actor's own movement: unchanged where it is one
    already (or where the ruleset has none: the table walks nobody), else the
    ruleset's walk to the same tile (wasteland: ``ap`` = the distance, WL-2; the
    table's walk: ``walk: true``)."""
    if action.do != "move" or move_is_own(ruleset, action) or walks(action):
        return action
    to = action.params.get("to")
    if to is None or action.actor not in state.combatants:
        return action
    own = walk(ruleset, state, action.actor, to)
    if own is None:
        return action
    return dataclasses.replace(action, params={**action.params, **own.params})


def move_cost(ruleset: Ruleset, state: Encounter, action: Action, *, free: bool) -> MoveCost:
    """What ``action`` (a checked ``move`` with ``to``) would cost as its actor's own
    move in its turn: the lines of every event the rules plan for it but the move
    itself, or their refusal. ``free``: the asker's drop is a move by decree."""
    to: Tile = action.params["to"]
    actor = state.get(action.actor)
    tiles = distance(ruleset, actor.at, to) if actor.at is not None else 0
    try:  # no two tokens on one tile, whoever drops it: no drop puts it there (issue 35)
        check_free(ruleset, state, actor, to)
    except Refusal as exc:
        return MoveCost(action.actor, to, tiles, False, (), exc.code, exc.message)
    if free and action.actor != state.turn.actor:
        return MoveCost(action.actor, to, tiles, True, (), free=True, own=False)
    own = own_move(ruleset, state, action)
    try:
        events = plan(ruleset, state, own, RandomDice(0))  # a move rolls no die
    except Refusal as exc:
        return MoveCost(action.actor, to, tiles, False, (), exc.code, exc.message, free)
    return MoveCost(action.actor, to, tiles, True, _lines(state, events), free=free)


def _lines(state: Encounter, events: list[Event]) -> tuple[str, ...]:
    """The log's lines of ``events`` but the move's own (``Moved``)."""
    lines = []
    for event in events:
        if not isinstance(event, Moved):
            line = event.describe(state)
            if line:
                lines.append(line)
        state = event.apply(state)
    return tuple(lines)
