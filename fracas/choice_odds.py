"""The odds of every choice: each action the current actor may take now, against each
target in reach and, for area attacks, each tile that matters, in one request.

Fastest first: every choice is tried with a small slice of the time; those that end
are given at once, in the order they ended; the rest share what is left of the
budget, exact if they end in it, else a marked Monte Carlo estimate
(:func:`~fracas.odds.action_odds`). Cancellable between and within choices: the
tracker's hover cancels when the state moves on, and the lab's tactics ask for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from fracas.choices import _required_values, options_now
from fracas.dice.budget import Budget, Cancel
from fracas.errors import FracasError
from fracas.grid import Tile
from fracas.model import Action, Encounter
from fracas.odds import Odds, action_odds
from fracas.rulesets.base import Ruleset, decided

__all__ = ["DEFAULT_CHOICE_SECONDS", "Choice", "choice_odds", "choices_now"]

DEFAULT_CHOICE_SECONDS = 0.25
"""The wall time one request for every choice's odds may take."""
FIRST_SLICE = 0.02
"""The time each choice gets in the first, fastest-first pass."""


@dataclass(frozen=True, slots=True)
class Choice:
    """One choice and its odds (exact, or an estimate: ``odds.estimate``)."""

    action: Action
    odds: Odds


def _near(state: Encounter) -> list[Tile]:
    """The tiles that matter for an area attack: every combatant's tile and its
    neighbours (a blast centred there catches different creatures)."""
    tiles: set[Tile] = set()
    for c in state.combatants.values():
        if c.at is None:
            continue
        x, y = c.at
        tiles |= {(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    return sorted(t for t in tiles if t[0] >= 0 and t[1] >= 0)


def choices_now(ruleset: Ruleset, state: Encounter, actor: str | None = None) -> list[Action]:
    """Every action ``actor`` (default: whose turn it is) may take now on a target or a
    tile: the allowed ones of "may do now", each target, each tile that matters, each
    value of their required parameters. Actions on nothing (reload, end turn) have no
    odds to show and are left out."""
    out: list[Action] = []
    for option in options_now(ruleset, state, actor):
        if not option.allowed:
            continue
        for params in _required_values(option.spec, option.choices):
            out += [
                Action(option.actor, option.spec.name, t, params=params) for t in option.targets
            ]
            if option.tile:
                for tile in _near(state):
                    action = Action(option.actor, option.spec.name, at=tile, params=params)
                    try:
                        decided(ruleset, state, action)
                    except FracasError:
                        continue
                    out.append(action)
    return out


def choice_odds(
    ruleset: Ruleset,
    state: Encounter,
    actor: str | None = None,
    *,
    seed: int | None = None,
    seconds: float = DEFAULT_CHOICE_SECONDS,
    cancel: Cancel | None = None,
) -> Iterator[Choice]:
    """The odds of every choice of ``actor`` now (:func:`choices_now`), fastest first.

    Raises:
        FracasError: ``cancelled`` when ``cancel`` says stop.
    """
    total = Budget(seconds, cancel)
    slow: list[Action] = []
    for action in choices_now(ruleset, state, actor):
        if total.cancelled():
            raise FracasError("cancelled", "the odds of every choice were cancelled")
        left = max(0.001, seconds - total.elapsed())
        try:
            odds = action_odds(
                ruleset, state, action, seed=seed, seconds=min(FIRST_SLICE, left),
                cancel=cancel, estimate=False,
            )  # fmt: skip
        except FracasError as e:
            if e.code not in ("too_slow", "too_many_paths"):
                raise
            slow.append(action)
            continue
        yield Choice(action, odds)
    for i, action in enumerate(slow):
        left = max(0.0, seconds - total.elapsed())
        share = max(0.005, left / (len(slow) - i))
        yield Choice(
            action, action_odds(ruleset, state, action, seed=seed, seconds=share, cancel=cancel)
        )
