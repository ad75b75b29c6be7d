"""The odds of every choice: each action the current actor may take now, against each
target in reach and, for area attacks, each tile that matters, in one request.

Fastest first, by work: every choice is tried exactly within a small budget of dice
paths (:data:`FIRST_PATHS`); those that end are given at once, in order; the rest
follow as marked Monte Carlo estimates of :data:`CHOICE_SAMPLES` seeded samples each
(:func:`~fracas.odds.action.action_odds`): the same answers on a quiet and on a busy machine.
The wall time (``seconds``) is only an outer bound: an estimate it cuts says so
(``cut_by_time``). Cancellable between and within choices: the tracker's hover cancels
when the state moves on.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from fracas.dice.budget import CUT_BY_TIME, Budget, Cancel
from fracas.engine.may_do import _required_values, options_now
from fracas.errors import FracasError
from fracas.model import Action, Encounter
from fracas.model.grid import Tile
from fracas.odds.action import Odds, action_odds
from fracas.rulesets.base import Ruleset, decided

__all__ = [
    "CHOICE_SAMPLES",
    "DEFAULT_CHOICE_SECONDS",
    "FIRST_PATHS",
    "Choice",
    "choice_odds",
    "choices_now",
]

DEFAULT_CHOICE_SECONDS = 30.0
"""The outer bound on the wall time of one request for every choice's odds (the work
budgets below decide the answers; this only stops a request that would run on)."""
FIRST_PATHS = 500
"""Dice paths each choice's exact odds may take in the first pass (a path costs 20-120
µs in most actions: the 20 ms the old first slice of time gave on a quiet machine)."""
CHOICE_SAMPLES = 1_000
"""Seeded samples of each estimate of the second pass (a 95% interval of at most ±3.1
points on a chance; 0.1-0.25 ms a sample in most actions)."""


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
    first_paths: int = FIRST_PATHS,
    samples: int = CHOICE_SAMPLES,
) -> Iterator[Choice]:
    """The odds of every choice of ``actor`` now (:func:`choices_now`), fastest first:
    exact where they end within ``first_paths`` dice paths, else (after every exact
    one) an estimate of ``samples`` samples. ``seconds`` bounds the whole request's wall
    time: past it, what is left comes as estimates of at least 50 samples, marked
    ``cut_by_time``.

    Raises:
        FracasError: ``cancelled`` when ``cancel`` says stop.
    """
    total = Budget(seconds, cancel)
    slow: list[tuple[Action, str]] = []  # each with why it was not exact
    for action in choices_now(ruleset, state, actor):
        if total.cancelled():
            raise FracasError("cancelled", "the odds of every choice were cancelled")
        left = seconds - total.elapsed()
        if left <= 0:
            slow.append((action, f"{CUT_BY_TIME} ({seconds:g} s) before its exact odds"))
            continue
        try:
            odds = action_odds(
                ruleset, state, action, seed=seed, seconds=left, max_paths=first_paths,
                cancel=cancel, estimate=False,
            )  # fmt: skip
        except FracasError as e:
            if e.code not in ("too_slow", "too_many_paths"):
                raise
            slow.append((action, e.message))
            continue
        yield Choice(action, odds)
    for i, (action, why) in enumerate(slow):
        # what is left of the bound, shared (past it: the fewest samples, marked)
        left = max(0.0, seconds - total.elapsed())
        share = max(0.001, left / (len(slow) - i))
        odds = action_odds(
            ruleset, state, action, seed=seed, seconds=share, max_paths=0, samples=samples,
            cancel=cancel,
        )  # fmt: skip
        cut = odds.cut_by_time or why.startswith(CUT_BY_TIME)
        if odds.cut_by_time:
            why = f"{why}; {CUT_BY_TIME}: {odds.paths:,} of {samples:,} samples"
        yield Choice(action, replace(odds, why=why, cut_by_time=cut))
