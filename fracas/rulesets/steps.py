"""Steps of a roll: where an action's rolling pauses on a hashable state.

A decision's :meth:`~fracas.rulesets.base.Decision.roll` may end its events with
``Then(step)``: the rest of the roll is ``step.roll(rules, state_after, dice)``, run on the
state after the events before it (``step`` is a frozen decision, like the one
``decide`` returns). Live play runs the steps one after the other
(:func:`roll_all`) and logs only the events; exact odds follow each distinct
(state, step) once, with the weights of every dice path that reached it added
(:mod:`fracas.odds.action`), so the paths of a hit and a miss that leave the same state
are not replayed twice. A ruleset marks a step where what follows depends on little
of what came before (after the attack roll decides hit or miss, between the shots of
a burst, between the victims of a blast).

A step may also say what the odds of the rest of the roll depend on: a method
``odds_key()`` returning a hashable such that two steps with equal keys, rolled on
the same state, give the same summary (attempts, damage dealt) and leave the same
combatants down, whatever else their events differ in (a limb's CT, a log line).
Exact odds then follow one step per key, the first reached, with the weight of all
(:func:`odds_key`); live play never asks for it. Steps without it merge when equal.

A step may also say whom the rest of the roll is about: a method ``odds_scope()``
returning the ids of the combatants the rest may read or change (the actor and the
targets still to roll, say). Every other combatant's summary is then final: exact
odds count it apart (its landed, damage and whether it is down, per combatant) and
follow the rest once for all the ways it came out, so the targets of an attack on
several, each with its own die, cost the sum of their dice, not the product
(:func:`odds_scope`). Without it the rest may read or change anyone.

A step may also say that its dice do not depend on all its key says: a method
``odds_shared()`` returning a hashable (None: nothing shared) such that two steps with
equal ones roll the same dice the same way on whatever state the odds meet them (it
names everything the dice read: the nodes that share them differ in their state, as in
their key), and a method
``odds_rebind(source)`` returning a function that makes of each result of ``source`` (a
step with the same ``odds_shared()``; a result: its summary's events as exact odds keep
them) the result this step gives on the same dice (what the two steps differ in is
worked out once, not once a result). Exact odds then enumerate such steps' dice once and
rebuild the results per step (:func:`odds_shared`): a burst's last hit, whose draw is
the same whatever the hits before it did, and only what it adds up to differs.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fracas.model import Encounter, Event, fold

if TYPE_CHECKING:
    from fracas.dice.source import Dice
    from fracas.rulesets.base import Ruleset

__all__ = ["Roller", "Then", "odds_key", "odds_scope", "odds_shared", "roll_all", "run_steps"]

Roller = Callable[[Encounter, Any, "Dice"], list[Event]]
"""A rolling step: (state, decision or step, dice) -> events, maybe ending with a Then."""


@dataclass(frozen=True, slots=True)
class Then(Event):
    """The rest of the roll: ``step`` rolled on the state after the events before it.
    Never logged, never applied."""

    step: Hashable


def roll_all(ruleset: Ruleset, state: Encounter, decision: Any, dice: Dice) -> list[Event]:
    """Every event of a decided action: its roll and each step after it, in order."""
    return run_steps(lambda s, d, x: d.roll(ruleset, s, x), state, decision, dice)


def run_steps(roll: Roller, state: Encounter, decision: Any, dice: Dice) -> list[Event]:
    """``roll`` and each step it asks for, each on the state after the events before it."""
    events: list[Event] = []
    while True:
        out = roll(state, decision, dice)
        if not out or not isinstance(out[-1], Then):
            events += out
            return events
        head = out[:-1]
        events += head
        state = fold(state, head)
        decision = out[-1].step


def odds_key(step: Any) -> Hashable:
    """What the odds of the rest of a roll from ``step`` depend on: the step's own
    ``odds_key()`` where it has one, else the step itself."""
    key = getattr(step, "odds_key", None)
    return step if key is None else key()  # type: ignore[no-any-return]


def odds_scope(step: Any) -> frozenset[str] | None:
    """The combatants the rest of a roll from ``step`` may read or change: the step's
    own ``odds_scope()`` where it has one, else None (anyone)."""
    scope = getattr(step, "odds_scope", None)
    return None if scope is None else scope()


def odds_shared(step: Any) -> Hashable | None:
    """What the dice of a step share with other steps' (its own ``odds_shared()``), or
    None: nothing (its dice are enumerated for it alone)."""
    shared = getattr(step, "odds_shared", None)
    return None if shared is None else shared()
