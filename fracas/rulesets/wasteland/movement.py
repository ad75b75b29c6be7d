"""Movement (WL-2): a ``move`` with ``ap: n`` is the actor's own Movement Action, paid
MAP first, then AP. A ``move`` without ``ap`` stays the game master's (a Warden swap, a
push): it takes no turn and costs nothing.

The text gives no cost per tile: ``ap`` is the movement cost, an input (wasteland.md 2.5).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StrictInt

from fracas.errors import Refusal
from fracas.model import Action, Encounter, Event
from fracas.rulesets.base import ActionSpec, sheet_as
from fracas.rulesets.wasteland.attack import check_actor
from fracas.rulesets.wasteland.sheet import Sheet
from fracas.rulesets.wasteland.turn_events import MovementPaid

__all__ = ["MOVE_SPEC", "move_cost", "own_move"]

COST = "ap"
"""The ``move`` parameter that makes it the actor's own, costing that many points."""

MOVE_SPEC = ActionSpec(
    "move",
    "`ap: n` makes it the actor's own move in its turn, paying n: MAP first, then AP (WL-2)",
    (COST,),
    types={COST: Annotated[StrictInt, Field(ge=0)]},
)


def own_move(action: Action) -> bool:
    """A ``move`` that gives a cost is the actor's own Movement Action."""
    return COST in action.params


def move_cost(state: Encounter, action: Action) -> list[Event]:
    """WL-2, WL-4, WL-19, WL-33: the refusals of an own move (``down``, ``surprised``,
    ``turn_over``, ``not_enough_ap``), then its payment; a game master's move: nothing."""
    if not own_move(action):
        return []
    actor = state.get(action.actor)
    check_actor(state, actor, own_turn=True)
    cost = action.params[COST]
    sheet = sheet_as(actor, Sheet)
    map_, ap = sheet.map or 0, sheet.ap or 0
    from_map = min(map_, cost)
    from_ap = cost - from_map
    if from_ap > ap:
        raise Refusal(
            "not_enough_ap",
            f"{actor.id!r} has {map_} MAP and {ap} AP; this move costs {cost} (WL-2)",
        )
    return [MovementPaid(actor.id, from_map, from_ap)]
