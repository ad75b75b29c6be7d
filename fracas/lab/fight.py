"""What the lab reads of a fight: who is still standing, who won, and the exact
distribution of the states one action leads to (the engine's own planning, replayed
over every face by :func:`~fracas.dice.exact.enumerate_exact`)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from fracas.dice.exact import Distribution, enumerate_exact
from fracas.dice.source import Dice
from fracas.engine.catalogue import GM_ACTION_NAMES
from fracas.engine.play import Engine, plan
from fracas.errors import FracasError
from fracas.io.files import EncounterFile
from fracas.model import Action, Encounter, Event, fold
from fracas.model.frozen import evolve
from fracas.rulesets.base import Ruleset, decided, is_down
from fracas.rulesets.steps import roll_all

__all__ = [
    "DRAW",
    "ROUND_FOLD",
    "Outcomes",
    "canonical",
    "file_start",
    "fold_runs",
    "next_states",
    "outcome",
    "roll_paths",
    "sides_of",
    "standing",
]

DRAW = "draw"
"""The outcome where no side is left standing (every side down at once, a stalemate, or
the simulation's round cap)."""

ROUND_FOLD = 2
"""Rounds from this one on are one state of the chain (:func:`canonical`): the rules
read the round only to tell the first round from the rest (dice-combat's DC-28)."""


def sides_of(state: Encounter) -> list[str]:
    """Every side of the encounter, in the order they first appear."""
    out: list[str] = []
    for c in state.combatants.values():
        if c.side not in out:
            out.append(c.side)
    return out


def standing(ruleset: Ruleset, state: Encounter) -> list[str]:
    """The sides with at least one combatant that is not down."""
    out: list[str] = []
    for c in state.combatants.values():
        if c.side not in out and not is_down(ruleset, c):
            out.append(c.side)
    return out


def outcome(ruleset: Ruleset, state: Encounter) -> str | None:
    """The side that won, :data:`DRAW` (none left), or None while two or more stand."""
    up = standing(ruleset, state)
    if len(up) >= 2:
        return None
    return up[0] if up else DRAW


def canonical(state: Encounter) -> Encounter:
    """The chain's key of ``state``: the state with its round folded at
    :data:`ROUND_FOLD` (every other field as it is: equal states hash equal)."""
    if state.round <= ROUND_FOLD:
        return state
    return evolve(state, round=ROUND_FOLD)  # replace's copy, without __init__


@dataclass(frozen=True)
class Outcomes:
    """The exact distribution of the states one action leads to."""

    states: dict[Encounter, Fraction]
    paths: int
    truncated: Fraction


def next_states(
    ruleset: Ruleset, state: Encounter, action: Action, *, max_paths: int, pin: bool = True
) -> Outcomes:
    """Every state ``action`` taken in ``state`` can lead to, with its exact probability.

    A ruleset action is decided once (its refusal raised here) and only its rolling
    step replayed on every dice path, as :func:`fracas.odds.action.action_odds` does; the state
    is folded once per distinct run of state-changing events. ``pin``: dice the ruleset
    declares irrelevant to the odds (``DieSpec.odds_relevant``) take face 1.

    Raises:
        FracasError: the action's refusal, or ``too_many_paths`` past ``max_paths``.
    """
    core = action.do in ("end_turn", "move") or action.do in GM_ACTION_NAMES
    own = state.turn.actor == action.actor
    decision = None if core or not own else decided(ruleset, state, action)

    def events_of(dice: Dice) -> Hashable:
        if decision is None:
            events = plan(ruleset, state, action, dice)
        else:
            events = roll_all(ruleset, state, decision, dice)
        changing = tuple(e for e in events if type(e).apply is not Event.apply)
        try:
            hash(changing)
        except TypeError:  # an event with a mapping inside: fold it here
            return fold(state, changing)
        return changing

    if not action.dice and max_paths >= 1:
        try:
            only = events_of(_NO_DICE)
        except _Rolled:
            pass
        else:  # no die rolled: the one path enumerate_exact would take, without it
            after = only if isinstance(only, Encounter) else fold_runs(state, [only])[only]  # type: ignore[list-item,index]
            return Outcomes({after: _ONE}, 1, _ZERO)
    dist = roll_paths(ruleset, events_of, given=action.dice, max_paths=max_paths, pin=pin)
    out: dict[Encounter, Fraction] = {}
    runs = [key for key in dist.outcomes if not isinstance(key, Encounter)]
    folded = fold_runs(state, runs)  # type: ignore[arg-type]
    for key, p in dist.outcomes.items():
        after = key if isinstance(key, Encounter) else folded[key]  # type: ignore[index]
        out[after] = out.get(after, Fraction(0)) + p
    return Outcomes(out, dist.paths, dist.truncated)


_ONE = Fraction(1)
_ZERO = Fraction(0)


class _Rolled(Exception):
    """A die was asked for: the action is not one without dice."""


class _NoDice:
    """Dice that refuse every roll (issue 34). An action that finishes with them rolled
    no die (a walk, the end of a turn): its one outcome has probability 1, one path,
    nothing cut, as :func:`roll_paths` finds it, without the enumerator's set-up. A die
    the ruleset pins (``odds_relevant`` false) is still a roll asked for: refused here
    too, and the action goes the enumerator's way."""

    def roll(self, sides: int, label: str, *, of: str | None = None, n: int | None = None) -> int:
        raise _Rolled


_NO_DICE = _NoDice()


def roll_paths(
    ruleset: Ruleset,
    events_of: Callable[[Dice], Hashable],
    *,
    max_paths: int,
    given: Mapping[str, Sequence[int]] | None = None,
    pin: bool = True,
) -> Distribution[Hashable]:
    """The lab's one door to the exact engine: ``events_of`` run on every dice path
    (dice in ``given`` held fixed, the ruleset's ``odds_max_rolls`` cut for exploding
    dice; ``pin``: dice the ruleset declares irrelevant to the odds take face 1), its
    results with their exact probabilities. Every exact number of the lab (the
    policy's scores, the chain's transitions) comes through here.

    Raises:
        FracasError: ``too_many_paths`` past ``max_paths``, or what ``events_of`` raised.
    """
    skip = (
        frozenset(d.label for d in ruleset.contract.dice if not d.odds_relevant)
        if pin
        else frozenset()
    )
    return enumerate_exact(
        events_of,
        given=given or {},
        max_rolls=ruleset.contract.odds_max_rolls,
        max_paths=max_paths,
        irrelevant=skip,
    )


def fold_runs(
    state: Encounter, runs: Iterable[tuple[Event, ...]]
) -> dict[tuple[Event, ...], Encounter]:
    """Each run of events folded onto ``state``, as :func:`~fracas.model.fold` does, a
    shared first part once: the runs of one action mostly differ in their last event
    (the damage), so each event is applied once per distinct prefix of effects
    (``Event.effect``: damage of the same amount with another cause is applied once),
    and runs that end alike end in the very same state."""
    root: dict[Hashable, tuple[Encounter, dict[Hashable, Any]]] = {}
    out: dict[tuple[Event, ...], Encounter] = {}
    for run in runs:
        now, level = state, root
        for event in run:
            key = event.effect()
            found = level.get(key)
            if found is None:
                found = level[key] = (event.apply(now), {})
            now, level = found
        out[run] = now
    return out


def file_start(ef: EncounterFile) -> Encounter:
    """The state after the file's actions (its start, then every action, dice not given
    from its seed): where the lab's fights begin."""
    engine = Engine(ef.ruleset, ef.start, ef.seed, ef.bounds)
    engine.begin(ef.dice, ef.order)
    for i, action in enumerate(ef.actions):
        where = ef.action_where[i] if i < len(ef.action_where) else ""
        try:
            engine.act(action)
        except FracasError as exc:
            raise FracasError(
                exc.code, f"{where}: {exc.message}" if where else exc.message
            ) from None
    return engine.state
