"""Physical dice at a table: the table asks for each die an action needs, one at a time,
by its label, size and owner (a face asks "Ana's attack d20?"), and takes the action once every die
is given (as ``fracas play`` does with ``dice manual``, but across pages).

The question comes from the rules themselves: the action is run with the dice given so
far and a source that stops at the first die missing (:func:`needed`), so whatever the
ruleset rolls, in whatever order, is asked for exactly; nothing is kept until the last
die is given.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from fracas.dice.source import GivenDice, label_of
from fracas.engine.play import plan
from fracas.errors import DiceError
from fracas.model import Action, Encounter
from fracas.rulesets.base import Ruleset
from fracas.table.identity import Forbidden, Identity, Role

__all__ = ["DieNeeded", "Pending", "StopDice", "needed"]


@dataclass(frozen=True, slots=True)
class DieNeeded:
    """The next die an action needs: its full label, its size, whose it is."""

    label: str
    """The full label (``defend:bo``, ``damage:2``): the key its face is given under."""
    sides: int
    owner: str
    """The combatant whose die it is (the one it is rolled for, else the actor)."""
    rolled: str = ""
    """The label as the rules roll it (``defend``), without whose it is or its number."""
    n: int | None = None
    """Its number, where the rules roll several of one label."""

    @property
    def said(self) -> str:
        """The die in a refusal's message: ``die 'defend:bo' (a d20)``."""
        return f"die {self.label!r} (a d{self.sides})"


class _Stopped(DiceError):
    """The first die not given (never leaves :func:`needed`)."""

    def __init__(self, sides: int, label: str, of: str | None, n: int | None) -> None:
        full = label_of(label, of, n)
        super().__init__("missing_die", f"no value given for die {full!r} (a d{sides})")
        self.sides, self.label, self.of, self.n = sides, label, of, n


class StopDice:
    """A dice source that has no face: the first die asked of it stops the action."""

    def roll(self, sides: int, label: str, *, of: str | None = None, n: int | None = None) -> int:
        raise _Stopped(sides, label, of, n)


def needed(ruleset: Ruleset, state: Encounter, action: Action) -> DieNeeded | None:
    """The first die ``action`` (checked) needs beyond its given dice, or None when they
    are all given. A refusal of the rules (before any die) is raised."""
    dice = GivenDice(action.dice, StopDice())
    try:
        plan(ruleset, state, action, dice)
    except _Stopped as stop:
        owner = stop.of if stop.of is not None and stop.of in state.combatants else action.actor
        full = label_of(stop.label, stop.of, stop.n)
        return DieNeeded(full, stop.sides, owner, stop.label, stop.n)
    return None


@dataclass(frozen=True, slots=True)
class Pending:
    """An action waiting for its physical dice: the dice given so far are its own."""

    action: Action
    by: Identity
    needed: DieNeeded
    seq: int
    """The table's seq when it was asked (a record since: the action is dropped)."""

    def may_give(self, who: Identity) -> bool:
        """The game master gives any die; a player, those of its own combatants."""
        return who.role is Role.GM or (who.role is Role.PLAYER and self.needed.owner in who.owns)

    def check_give(self, who: Identity, face: int) -> Action:
        """The action with ``face`` given for the die asked.

        Raises:
            Forbidden: ``who`` may not give this die.
            DiceError: ``die_out_of_range``: not a face of the die.
        """
        need = self.needed
        if not self.may_give(who):
            raise Forbidden(
                "forbidden",
                f"the {need.said} is for the game master or the player of {need.owner!r}; "
                f"{who.name!r} may not give it",
            )
        if type(face) is not int or not 1 <= face <= need.sides:
            raise DiceError(
                "die_out_of_range",
                f"{face!r} is not a face of the {need.said}: give 1..{need.sides}",
            )
        given = dict(self.action.dice)
        given[need.label] = (*given.get(need.label, ()), face)
        return dataclasses.replace(self.action, dice=given)

    def may_cancel(self, who: Identity) -> bool:
        return who.role is Role.GM or who.name == self.by.name
