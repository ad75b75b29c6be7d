"""What a worker keeps per table between questions (the win bar's, the advisor's): the
tactics with their caches and the turns played, every chain solved so far (a later
state found in one is answered from its values at once), the chain being grown, and the
fights sampled per state (an estimate refined, not restarted).

Per process and per key (a table and an audience); a few keys at most, the oldest
dropped. One thread at a time (:data:`LOCK`): an executor's threads share it.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fracas.io.files import Tactic
from fracas.lab.alongside import Alongside
from fracas.lab.chain import Chain, Solved
from fracas.lab.played import Played
from fracas.lab.policy import Policy
from fracas.lab.sim import Tally
from fracas.model import Encounter
from fracas.rulesets.base import Ruleset

__all__ = ["LOCK", "Kept", "kept"]

KEYS = 4
"""Keys kept per process."""
SOLVED = 8
"""Solved chains kept per key (the latest first)."""
TALLIES = 64
"""States whose sampled fights are kept per key."""
PLAYED = 20_000
"""States whose turns played are kept per key (:class:`Played`: about 18 MB; the bar
replays a fight a slice dropped, and a few keys live in one worker)."""

LOCK = threading.RLock()
"""One question at a time per process (the kept caches are not shared by threads)."""


@dataclass
class Kept:
    """One key's caches."""

    ruleset: Ruleset
    tactics: Mapping[str, Tactic]
    policy: Policy
    solved: list[Solved] = field(default_factory=list)
    growing: Chain | None = None
    """The chain being grown from the latest state not found in a solved one."""
    given_up: set[Encounter] = field(default_factory=set)
    """Roots whose chain was too large (not tried again)."""
    tallies: dict[Encounter, Tally] = field(default_factory=dict)
    unsolved: dict[tuple[Encounter, int], str] = field(default_factory=dict)
    """Per state the advisor asked of and its budget of states, why its chain did not
    end (a bound of work: the same question ends the same way)."""
    played: Played = field(init=False)
    """The turns the sampled fights played under ``policy`` (:class:`Played`)."""
    alongside: Alongside | None = None
    """The process playing the bar's fights of the latest state meanwhile, where a
    worker plays them on the other core (:mod:`fracas.lab.alongside`)."""
    alongside_failed: set[Encounter] = field(default_factory=set)
    """States whose fights failed in that process (their slices play them here)."""

    def __post_init__(self) -> None:
        self.played = Played(self.policy, limit=PLAYED)

    def stop_alongside(self) -> None:
        """End the process playing fights meanwhile, where there is one."""
        if self.alongside is not None:
            self.alongside.stop()
            self.alongside = None

    def lookup(self, state: Encounter) -> tuple[Solved, dict[str, Any]] | None:
        """The solved chain that has ``state``, and its odds there."""
        for solved in self.solved:
            found = solved.sides(state)
            if found is not None:
                return solved, dict(found)
        return None

    def keep(self, solved: Solved) -> None:
        self.solved.insert(0, solved)
        del self.solved[SOLVED:]

    def remember_unsolved(self, key: tuple[Encounter, int], why: str) -> None:
        if len(self.unsolved) >= TALLIES:
            del self.unsolved[next(iter(self.unsolved))]
        self.unsolved[key] = why

    def tally(self, state: Encounter) -> Tally:
        found = self.tallies.get(state)
        if found is None:
            if len(self.tallies) >= TALLIES:
                del self.tallies[next(iter(self.tallies))]
            found = self.tallies[state] = Tally()
        return found


_KEPT: dict[str, Kept] = {}


def kept(key: str, ruleset: Ruleset, tactics: Mapping[str, Tactic]) -> Kept:
    """The caches of ``key`` in this process (new where the ruleset's options or the
    tactics changed: a kept chain is only as good as the rules and tactics it used)."""
    found = _KEPT.get(key)
    if found is not None and _same(found.ruleset, ruleset) and dict(found.tactics) == dict(tactics):
        return found
    if found is not None:
        found.stop_alongside()
    elif len(_KEPT) >= KEYS:
        _KEPT.pop(next(iter(_KEPT))).stop_alongside()
    made = _KEPT[key] = Kept(ruleset, tactics, Policy(ruleset, tactics))
    return made


def _same(a: Ruleset, b: Ruleset) -> bool:
    """The same rules: one ruleset with equal options (a question's ruleset is a copy)."""
    return type(a) is type(b) and a.options == b.options
