"""Exact win odds: the absorbing Markov chain of a fight under the policy.

Every state the fight can reach from its start under :class:`~fracas.lab.policy.Policy`
is a node (keyed by :func:`~fracas.lab.fight.canonical`: the state itself, its round
folded past the first, then by the lab's chain key of the ruleset, :mod:`fracas.lab.keys`,
which may name one state for several whose fights go on alike: dice-combat's magazines
that refill for free); its
edges are the exact distribution of the states the policy's action leads to
(:func:`~fracas.lab.fight.next_states`). A state where at most one side stands absorbs.
The chain is solved exactly (:mod:`fracas.lab.exact_solve`), one strongly connected
component at a time from the last (Tarjan's order), by Gaussian elimination inside
each. A closed component no side wins from (nobody can hurt anybody any more) is a
stalemate, counted as a draw.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from fracas.errors import FracasError
from fracas.lab.collect import fewer_collections
from fracas.lab.exact_solve import Edges, solve_exact
from fracas.lab.fight import DRAW, canonical, outcome, sides_of
from fracas.lab.keys import chain_key
from fracas.lab.policy import Policy
from fracas.model import Encounter
from fracas.rulesets.base import Ruleset, is_down

__all__ = ["MAX_PATHS", "MAX_STATES", "Chain", "Solved", "WinOdds", "win_odds"]

MAX_STATES = 20_000
"""States past which ``win`` refuses (and suggests ``sim``)."""
MAX_PATHS = 200_000
"""Dice paths one transition may take before ``win`` refuses."""


@dataclass(frozen=True)
class WinOdds:
    """Each side's exact chance to be the last standing."""

    sides: dict[str, Fraction]
    draw: Fraction
    """No side left standing: every side down at once, or a stalemate."""
    stalemate: Fraction
    """The part of ``draw`` where the fight can no longer end (nobody can hurt anybody)."""
    states: int
    rounds_mean: Fraction
    """The mean number of rounds the fight lasts (the start's round counted as one)."""
    truncated: Fraction = Fraction(0)
    """Mass lost where exploding dice were cut (the ruleset's ``odds_max_rolls``)."""
    idle: tuple[str, ...] = ()
    """Combatants standing at the start who, in every state of the chain where it was
    their turn, only ended it (nothing the tactics take is in reach, and they do not
    move unless the file says ``approach: true``): the odds are of a fight they sit out."""

    def to_json(self) -> dict[str, Any]:
        """``fracas lab win --json`` (docs/lab.md)."""
        out: dict[str, Any] = {
            "sides": {s: {"win": float(p), "exact": _frac(p)} for s, p in self.sides.items()},
            "draw": float(self.draw),
            "draw_exact": _frac(self.draw),
            "stalemate": float(self.stalemate),
            "states": self.states,
            "rounds_mean": float(self.rounds_mean),
        }
        if self.truncated:
            out["truncated"] = _frac(self.truncated)
        if self.idle:
            out["idle"] = list(self.idle)
        return out


def _frac(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


_CUT = "\0cut"
_STUCK = "\0stalemate"


class Chain:
    """The states fights reach under ``policy`` from one or more roots, with the exact
    distribution of each one's next states: grown on demand (:meth:`grow`, which can be
    stopped and taken up again), solved exactly (:meth:`exact`) or in floating point
    (:meth:`floating`, :mod:`fracas.lab.solve`)."""

    def __init__(
        self,
        ruleset: Ruleset,
        policy: Policy,
        sides: Sequence[str],
        *,
        max_states: int = MAX_STATES,
        max_paths: int = MAX_PATHS,
    ) -> None:
        self.ruleset = ruleset
        self.policy = policy
        self.sides = list(sides)
        self.labels = [*self.sides, DRAW, _CUT, _STUCK]
        self.max_states = max_states
        self.max_paths = max_paths
        self.index: dict[Encounter, int] = {}
        self.states: list[Encounter] = []
        self.edges: list[list[tuple[int, Fraction, int]]] = []
        self.ends: dict[int, str] = {}
        self.acted: set[str] = set()
        """Who took anything but the end of a turn in some state of the chain."""
        self._seen: dict[Encounter, int] = {}  # a state met before, keyed or not: its node
        self._cut = -1
        self._next = 0  # the first state not expanded yet
        self.spent = 0.0
        """Seconds :meth:`grow` has taken so far (said, never a budget: budgets are
        states)."""

    def key(self, state: Encounter) -> Encounter:
        """The node ``state`` is (its round folded, the lab's ``chain_key`` of the ruleset)."""
        return chain_key(self.ruleset, canonical(state))

    def node(self, state: Encounter) -> int:
        """The node of ``state``, added (to be expanded) where it is new."""
        found = self._seen.get(state)
        if found is not None:
            return found
        key = self.key(state)
        found = self.index.get(key)
        if found is None:
            found = self.index[key] = len(self.states)
            self.states.append(key)
            self.edges.append([])
        self._seen[state] = found
        return found

    def find(self, state: Encounter) -> int | None:
        """The node of ``state`` where the chain has it."""
        found = self._seen.get(state)
        return found if found is not None else self.index.get(self.key(state))

    @property
    def complete(self) -> bool:
        """Every state added is expanded: the chain can be solved."""
        return self._next >= len(self.states)

    @property
    def expanded(self) -> int:
        """The states expanded so far (the work :meth:`grow` has done)."""
        return self._next

    @property
    def size(self) -> int:
        """The states of the fight (the cut mass's placeholder not counted)."""
        return len(self.states) - (1 if self._cut >= 0 else 0)

    def grow(self, stop: Callable[[], bool] | None = None) -> None:
        """Expand every state not expanded yet, adding the states they lead to, until
        none is left. Taken up again where it stopped after a refusal.

        Raises:
            FracasError: ``too_many_states`` past ``max_states``, ``too_many_paths`` where
                one action has more dice paths than ``max_paths`` (both suggest ``fracas
                lab sim``); ``too_slow`` when ``stop`` said so.
        """
        begun = time.monotonic()
        try:
            with fewer_collections():
                self._grow(stop)
        finally:
            self.spent += time.monotonic() - begun

    def _grow(self, stop: Callable[[], bool] | None) -> None:
        rs, policy = self.ruleset, self.policy
        while self._next < len(self.states):
            i = self._next
            if len(self.states) > self.max_states:
                raise FracasError(
                    "too_many_states",
                    f"the fight reaches more than {self.max_states:,} states: too many for "
                    "the exact chain; `fracas lab sim FILE -n 20000` samples it instead",
                )
            # asked at every state: one state of a large ruleset's fight may take a
            # tenth of a second to expand (the tactics rank every choice), and a win bar's
            # slice must end within its time
            if stop is not None and stop():
                raise FracasError(
                    "too_slow",
                    f"the exact chain was stopped after {i:,} states; sample it instead",
                )
            if i in self.ends:  # the cut's sink
                self._next += 1
                continue
            state = self.states[i]
            won = outcome(rs, state)
            if won is not None:
                self.ends[i] = won
                self._next += 1
                continue
            action = policy.choose(state)
            try:
                after = policy.transitions.next_states(state, action, max_paths=self.max_paths)
            except FracasError as exc:
                if exc.code != "too_many_paths":
                    raise
                raise FracasError(
                    "too_many_paths",
                    f"{exc.message} (in the exact chain); `fracas lab sim FILE -n 20000` "
                    "samples the fight instead",
                ) from None
            if action.do != "end_turn":
                self.acted.add(action.actor)
            out: list[tuple[int, Fraction, int]] = []
            for n, p in after.states.items():
                out.append((self.node(n), p, n.round - state.round))
            if after.truncated:
                if self._cut < 0:
                    self._cut = len(self.states)
                    self.states.append(state)  # a placeholder node for the cut mass
                    self.edges.append([])
                    self.ends[self._cut] = _CUT
                out.append((self._cut, after.truncated, 0))
            self.edges[i] = out
            self._next += 1

    def exact(self) -> Solved:
        """The chain solved in Fractions (every state's odds)."""
        with fewer_collections():
            values, rounds = solve_exact(
                _passed_through(self.edges, self.ends), self.ends, self.labels
            )
        return Solved(self, "exact", values, rounds)

    def floating(self) -> Solved:
        """The chain solved in floating point (:func:`fracas.lab.solve.solve_float`)."""
        from fracas.lab.solve import solve_float

        values, rounds, residual = solve_float(self.edges, self.ends, self.labels)
        return Solved(self, "float", values, rounds, residual)

    def odds(self, solved: Solved, root: int = 0) -> WinOdds:
        """The odds from node ``root``."""
        labels = self.labels
        v = solved.values[root]
        stalemate = Fraction(v[labels.index(_STUCK)])
        start = self.states[root]
        return WinOdds(
            {s: Fraction(v[labels.index(s)]) for s in self.sides},
            Fraction(v[labels.index(DRAW)]) + stalemate,
            stalemate,
            self.size,
            Fraction(solved.rounds[root]) + 1,
            Fraction(v[labels.index(_CUT)]),
            tuple(
                c.id
                for c in start.combatants.values()
                if not is_down(self.ruleset, c) and c.id not in self.acted
            ),
        )


@dataclass(frozen=True)
class Solved:
    """A solved chain: per node, the chance of each label (:attr:`Chain.labels`) and the
    rounds left; exact (Fractions) or floating point (with the solve's residual)."""

    chain: Chain
    method: str
    """``exact`` or ``float``."""
    values: Sequence[Sequence[Any]]
    rounds: Sequence[Any]
    residual: float = 0.0
    """The largest absolute residual of the floating solve's equations (0 when exact)."""
    outcomes: frozenset[str] = field(init=False, compare=False)
    """How fights of the chain end: the labels of its ends, and the stalemate where some
    state is in one. A single one: every chance of the chain is certain (0 or 1)."""

    def __post_init__(self) -> None:
        at = self.chain.labels.index(_STUCK)
        stuck = any(row and row[at] > 0 for row in self.values)
        ends = set(self.chain.ends.values()) | ({_STUCK} if stuck else set())
        object.__setattr__(self, "outcomes", frozenset(ends))

    def certain(self, label: str, p: Any) -> bool:
        """Whether the chance ``p`` of ``label`` (a side, or ``draw``) at a state of the
        chain is certain: an exact 0 or 1, or every fight of the chain ends one way."""
        if self.method == "exact" and p in (0, 1):
            return True
        labels = {DRAW, _STUCK} if label == DRAW else {label}
        return self.outcomes <= labels or not self.outcomes & labels

    def sides(self, state: Encounter) -> dict[str, Any] | None:
        """Each side's chance to win from ``state`` and the draw's (``"draw"``), where the
        chain has the state; None where it does not."""
        i = self.chain.find(state)
        if i is None or i >= len(self.values) or not self.values[i]:
            return None
        labels = self.chain.labels
        v = self.values[i]
        out = {s: v[labels.index(s)] for s in self.chain.sides}
        out[DRAW] = v[labels.index(DRAW)] + v[labels.index(_STUCK)]
        return out


def win_odds(
    ruleset: Ruleset,
    start: Encounter,
    policy: Policy | None = None,
    *,
    max_states: int = MAX_STATES,
    stop: Callable[[], bool] | None = None,
) -> WinOdds:
    """The exact win odds of the fight from ``start`` under ``policy`` (default: the
    default tactics).

    ``stop`` (asked every few states) gives up the chain: ``too_slow``.

    Raises:
        FracasError: ``too_many_states`` past ``max_states`` states, ``too_many_paths``
            where one action has too many dice paths (both suggest ``fracas lab sim``);
            ``too_slow`` when ``stop`` said so.
    """
    chain = Chain(ruleset, policy or Policy(ruleset), sides_of(start), max_states=max_states)
    chain.node(start)
    chain.grow(stop)
    return chain.odds(chain.exact())


def _passed_through(edges: Edges, ends: dict[int, str]) -> list[list[tuple[int, Fraction, int]]]:
    """The edges with every state that leads to one state for certain (an end of turn)
    passed through: an edge into it goes on to where it leads, its rounds added. The
    chain's values are the same and its components about half as large. A ring of such
    states (a stalemate) is left as it is."""
    onward: dict[int, tuple[int, int]] = {}

    def certain(v: int) -> bool:
        return v not in ends and len(edges[v]) == 1 and edges[v][0][1] == 1

    def through(first: int) -> tuple[int, int]:
        seen: list[int] = []
        passed: set[int] = set()
        v = first
        while v not in onward and v not in passed and certain(v):
            seen.append(v)
            passed.add(v)
            v = edges[v][0][0]
        if v in passed:  # a ring: its states stay as they are
            cut = seen.index(v)
            for u in seen[cut:]:
                onward[u] = (u, 0)
            del seen[cut:]
        end, total = onward.get(v, (v, 0))
        for u in reversed(seen):
            total += edges[u][0][2]
            onward[u] = (end, total)
        return onward.get(first, (first, 0))

    out: list[list[tuple[int, Fraction, int]]] = []
    for succ in edges:
        row: list[tuple[int, Fraction, int]] = []
        for j, p, inc in succ:
            k, more = through(j)
            row.append((k, p, inc + more))
        out.append(row)
    return out
