"""The tracker's win bar: each side's chance to win from a live state, in bounded time.

Exact where the fight's chain is small (:func:`~fracas.lab.chain.win_odds` within
:data:`BAR_STATES` states and the time budget), else an estimate: seeded fights played
from the state through the real rules (:func:`~fracas.lab.sim.play`) until
:data:`BAR_FIGHTS` or the time budget, each side's rate with its 95% Wilson interval.
A face shows it (``fracas serve``'s bar, :mod:`fracas.web.winbar`); nothing here knows
of pages or sockets.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fracas.errors import FracasError
from fracas.files import Tactic
from fracas.lab.chain import win_odds
from fracas.lab.fight import DRAW, sides_of
from fracas.lab.policy import Policy
from fracas.lab.sim import play, wilson
from fracas.model import Encounter
from fracas.rulesets.base import Ruleset

__all__ = ["BAR_FIGHTS", "BAR_SECONDS", "BAR_STATES", "WinBar", "bar_in_worker", "win_bar"]

BAR_STATES = 4_000
"""States past which the bar samples instead of solving the chain."""
BAR_FIGHTS = 2_000
"""Fights the estimate plays at most."""
BAR_SECONDS = 2.0
"""Seconds of wall time one bar may take (the chain's part, then the fights')."""


@dataclass(frozen=True)
class WinBar:
    """Each side's chance to be the last standing, exact or estimated."""

    sides: dict[str, float]
    draw: float
    exact: bool
    ci95: dict[str, tuple[float, float]]
    """Per side, the 95% interval of an estimate (empty when exact)."""
    fights: int = 0
    """The fights an estimate played (0 when exact)."""
    states: int = 0
    """The chain's states (0 for an estimate)."""
    idle: tuple[str, ...] = ()
    """The names of combatants who only end their turns in the exact chain
    (:attr:`~fracas.lab.chain.WinOdds.idle`); a face shows them to the game master."""

    def to_json(self) -> dict[str, Any]:
        return {
            "method": "exact" if self.exact else "estimate",
            "sides": {
                s: {"win": p, "ci95": list(self.ci95[s]) if s in self.ci95 else None}
                for s, p in self.sides.items()
            },
            "draw": self.draw,
            "fights": self.fights,
            "states": self.states,
            "idle": list(self.idle),
        }


def win_bar(
    ruleset: Ruleset,
    state: Encounter,
    policy: Policy,
    *,
    max_states: int = BAR_STATES,
    fights: int = BAR_FIGHTS,
    seconds: float = BAR_SECONDS,
    seed: int = 0,
) -> WinBar:
    """The win bar of ``state`` under ``policy`` (its caches kept for the next state).

    Raises:
        FracasError: what the rules refuse in the estimate's fights (the policy takes
            only actions the rules allow, so a bug).
    """
    deadline = time.monotonic() + seconds

    def late() -> bool:
        return time.monotonic() > deadline

    sides = sides_of(state)
    try:
        odds = win_odds(ruleset, state, policy, max_states=max_states, stop=late)
    except FracasError as exc:
        if exc.code not in ("too_many_states", "too_many_paths", "too_slow"):
            raise
    else:
        return WinBar(
            {s: float(p) for s, p in odds.sides.items()},
            float(odds.draw),
            True,
            {},
            states=odds.states,
            idle=tuple(state.name(cid) for cid in odds.idle),
        )
    rng = random.Random(f"fracas-bar/{seed}")
    tally = play(ruleset, state, policy, rng, fights, stop=late)
    if tally.fights == 0:  # the chain took the budget: at least a few fights
        tally = play(ruleset, state, policy, rng, 20)
    n = tally.fights
    return WinBar(
        {s: tally.wins.get(s, 0) / n for s in sides},
        tally.wins.get(DRAW, 0) / n,
        False,
        {s: wilson(tally.wins.get(s, 0), n) for s in sides},
        fights=n,
    )


_POLICIES: dict[str, Policy] = {}
"""Per table (its key), the policy of its last bar in this process: the next state's
bar reuses the exact transitions and choices already worked out."""
_KEPT = 4
_ONE_AT_A_TIME = threading.Lock()
"""A kept policy is not shared by two threads at once (an executor's threads)."""


def bar_in_worker(
    key: str,
    ruleset: Ruleset,
    tactics: Mapping[str, Tactic],
    state: Encounter,
    seed: int,
    limits: Mapping[str, Any],
) -> dict[str, Any]:
    """:func:`win_bar` as an executor's task (a top-level function: it may run in a
    process pool), its policy kept per ``key`` between calls; the bar as JSON."""
    with _ONE_AT_A_TIME:
        policy = _POLICIES.get(key)
        if policy is None:
            if len(_POLICIES) >= _KEPT:
                del _POLICIES[next(iter(_POLICIES))]
            policy = _POLICIES[key] = Policy(ruleset, tactics)
        return win_bar(ruleset, state, policy, seed=seed, **limits).to_json()
