"""``fracas lab win``: each side's chance to win, by the best method that answers
within its budget of work (docs/lab.md, "fracas lab win"):

1. **exact**: the absorbing chain of the fight under the tactics
   (:class:`~fracas.lab.chain.Chain`), solved in Fractions, where it has at most
   :data:`EXACT_STATES` states;
2. **float**: the same chain, larger, solved in floating point by scipy's sparse LU
   (:mod:`fracas.lab.solve`), its residual worked out and reported;
3. **estimate**: where the chain reaches more than :data:`FLOAT_STATES` states, seeded
   fights through the real rules until every side's 95% interval is within
   :data:`HALF` of its rate (±1 point) or :data:`FIGHTS` fights are played, labelled.

The budgets are work (states, fights, a seed), so the same command gives the same
answer on a quiet and on a busy machine. ``seconds`` is only an outer bound on wall time
(:data:`SECONDS`): an answer it cuts says so (``cut_by_time``, "cut by the time limit").

A side's chance is printed as 100% (or 0%) only when it is certain in every state the
chain reaches (:func:`percent`): never from a float that rounds so, never from fights.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from fracas.dice.budget import CUT_BY_TIME
from fracas.errors import FracasError
from fracas.lab.ahead import Ahead
from fracas.lab.chain import MAX_PATHS, Chain
from fracas.lab.fight import DRAW, sides_of
from fracas.lab.sim import precise, setup
from fracas.rulesets.base import is_down

__all__ = [
    "EXACT_STATES",
    "FIGHTS",
    "FLOAT_STATES",
    "HALF",
    "SECONDS",
    "Win",
    "percent",
    "win",
]

EXACT_STATES = 20_000
"""States up to which the chain is solved in Fractions."""
FLOAT_STATES = 20_000
"""States past which the chain gives up for the estimate (its work budget; a larger
``max_states`` solves chains past :data:`EXACT_STATES` in floating point). A state
costs 0.7-3 ms of CPU to expand in most examples (up to 35 ms in wasteland's): about the
half minute of growing the old wall-time budget gave the chain on a quiet machine."""
FIGHTS = 1_000
"""Fights the estimate plays at most (its work budget; it stops sooner once within
:data:`HALF`): a 95% interval of at most ±3.1 points. Escalation's example plays about
55 fights a CPU second: with its chain, about half a minute on a quiet 2-core machine,
well within :data:`SECONDS` on a busy one."""
SECONDS = 120.0
"""The outer bound on ``fracas lab win``'s wall time, by default: generous, so that the
work budgets decide the answer on a busy machine too."""
CHAIN_SHARE = 0.5
"""The share of the wall-time bound the chain may take before the estimate takes over
(only where the clock cuts it: the states decide first)."""
HALF = 0.01
"""The estimate's 95% interval: at most this far either side of its rate (1 point)."""


@dataclass(frozen=True)
class Win:
    """Each side's chance to be the last standing, and how it was found."""

    method: str
    """``exact``, ``float`` or ``estimate``."""
    sides: dict[str, float]
    draw: float
    certain: dict[str, bool]
    """Per side (and ``draw``): its outcome is certain (all or nothing) in every state
    the chain reaches; never for an estimate."""
    seconds: float
    states: int = 0
    exact: dict[str, Fraction] = field(default_factory=dict)
    """The exact chances (``exact``), the draw's under ``draw``."""
    residual: float | None = None
    """The largest absolute residual of the floating solve (``float``)."""
    ci95: dict[str, tuple[float, float]] = field(default_factory=dict)
    """Per side and ``draw``, the estimate's 95% interval."""
    fights: int = 0
    precise: bool = True
    """The estimate met its interval (False: its fights, or the time, ran out first)."""
    cut_by_time: bool = False
    """The wall-time bound cut the work (the chain or the fights): the answer depends on
    the machine's speed."""
    rounds_mean: float = 0.0
    idle: tuple[str, ...] = ()
    why: str = ""
    """Why a cheaper method did not answer (the chain's refusal)."""

    def to_json(self) -> dict[str, Any]:
        """``fracas lab win --json`` (docs/lab.md)."""
        sides: dict[str, Any] = {}
        for s, p in self.sides.items():
            entry: dict[str, Any] = {"win": p, "certain": self.certain[s]}
            if s in self.exact:
                entry["exact"] = _frac(self.exact[s])
            if s in self.ci95:
                entry["ci95"] = list(self.ci95[s])
            sides[s] = entry
        out: dict[str, Any] = {
            "method": self.method,
            "sides": sides,
            "draw": self.draw,
            "seconds": round(self.seconds, 3),
            "cut_by_time": self.cut_by_time,
            "rounds_mean": self.rounds_mean,
            "idle": list(self.idle),
        }
        if DRAW in self.exact:
            out["draw_exact"] = _frac(self.exact[DRAW])
        if self.method != "estimate":
            out["states"] = self.states
        if self.residual is not None:
            out["residual"] = self.residual
        if self.method == "estimate":
            out["fights"] = self.fights
            out["draw_ci95"] = list(self.ci95[DRAW])
            out["precise"] = self.precise
        if self.why:
            out["why"] = self.why
        return out


def _frac(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def percent(p: float, certain: bool = False) -> str:
    """``p`` as a percentage with two decimals that says 100% (0%) only when
    ``certain``: else a chance that rounds to it is shown as ``>99.99%`` (``<0.01%``)."""
    if certain and p >= 1:
        return "100%"
    if certain and p <= 0:
        return "0%"
    text = f"{p * 100:.2f}%"
    if text == "100.00%":
        return ">99.99%"
    if text == "0.00%" and not (p == 0 and certain):
        return "<0.01%" if p > 0 or not certain else "0%"
    return text


def win(
    text: str,
    name: str,
    *,
    seconds: float = SECONDS,
    max_states: int = FLOAT_STATES,
    exact_states: int = EXACT_STATES,
    fights: int = FIGHTS,
    seed: int = 0,
    workers: int | None = None,
    methods: tuple[str, ...] = ("exact", "float", "estimate"),
) -> Win:
    """Each side's chance to win the fight of the file ``text`` from its state after its
    actions, under its tactics: the chain where it reaches at most ``max_states`` states
    (in Fractions up to ``exact_states``), else at most ``fights`` seeded fights. Within
    ``seconds`` of wall time at most: an answer that bound cuts is marked
    ``cut_by_time``.

    Raises:
        FracasError: the file's errors; ``too_many_states`` (or the chain's other
            refusals) where ``methods`` leaves out the estimate.
    """
    begun = time.monotonic()
    setup(text, name)  # the file's errors here, and parsed before the fork below
    many = workers if workers is not None else min(2, os.cpu_count() or 1)
    # while the chain grows here, the other core plays the estimate's first fights
    ahead = None
    chained = "exact" in methods or "float" in methods
    if chained and "estimate" in methods and many >= 2:
        ahead = Ahead(text, name, seed=seed, deadline=begun + seconds)
    try:
        return _win(
            text, name, begun, seconds, max_states, exact_states, fights, seed, many,
            methods, ahead,
        )  # fmt: skip
    finally:
        if ahead is not None:
            ahead.take()


def _win(
    text: str,
    name: str,
    begun: float,
    seconds: float,
    max_states: int,
    exact_states: int,
    fights: int,
    seed: int,
    many: int,
    methods: tuple[str, ...],
    ahead: Ahead | None,
) -> Win:
    # the policy the fights' workers start from (forked, they inherit the choices the
    # chain has cached: a fight then walks mostly through states already decided)
    ef, start, policy = setup(text, name)
    rs = ef.ruleset
    sides = sides_of(start)
    why = ""
    timed_out = False
    if "exact" in methods or "float" in methods:
        cap = max_states if "float" in methods else min(max_states, exact_states)
        chain = Chain(rs, policy, sides, max_states=cap, max_paths=MAX_PATHS)
        chain.node(start)
        share = seconds * (CHAIN_SHARE if "estimate" in methods else 1.0)
        try:
            chain.grow(lambda: time.monotonic() - begun > share)
        except FracasError as exc:
            if exc.code == "too_slow":  # the clock, not the states: say so
                timed_out = True
                exc = FracasError(
                    "too_slow",
                    f"{CUT_BY_TIME} ({share:g} s of the {seconds:g}): the exact chain "
                    f"was stopped at {chain.size:,} states (--seconds allows more time)",
                )
            if "estimate" not in methods or exc.code not in (
                "too_many_states",
                "too_many_paths",
                "too_slow",
            ):
                raise exc from None
            why = exc.message
        else:
            return _solved(chain, start, begun, exact_states if "exact" in methods else 0)
    left = max(1.0, seconds - (time.monotonic() - begun))
    played = ahead.take() if ahead is not None else []
    sim, enough = precise(
        text, name, half=HALF, seed=seed, workers=many, fights=fights,
        deadline=time.monotonic() + left, ahead=played,
    )  # fmt: skip
    n = sim.n
    if n == 0:
        raise FracasError(
            "too_slow", f"{CUT_BY_TIME}: not one fight of {name!r} ended in {seconds:.0f} s"
        )
    data = sim.to_json()
    idle = tuple(
        c.id
        for c in start.combatants.values()
        if not is_down(rs, c) and c.id not in sim.tally.acted
    )
    ci = {s: sim.ci95(s) for s in sides}
    draws = sim.tally.wins.get(DRAW, 0)
    from fracas.lab.sim import wilson

    ci[DRAW] = wilson(draws, n)
    return Win(
        "estimate",
        {s: sim.win(s) for s in sides},
        draws / n,
        {s: False for s in (*sides, DRAW)},
        time.monotonic() - begun,
        ci95=ci,
        fights=n,
        precise=enough,
        cut_by_time=timed_out or sim.cut_by_time,
        rounds_mean=float(data["rounds"]["mean"]),
        idle=idle,
        why=why,
    )


_STUCK = "\0stalemate"


def _solved(chain: Chain, start: Any, begun: float, exact_states: int) -> Win:
    labels = chain.labels
    solved = chain.exact() if chain.size <= exact_states else chain.floating()
    v = solved.values[0]
    stuck = v[labels.index(_STUCK)]
    sides = chain.sides
    certain = {s: solved.certain(s, v[labels.index(s)]) for s in sides}
    certain[DRAW] = solved.certain(DRAW, v[labels.index(DRAW)] + stuck)
    exact: dict[str, Fraction] = {}
    if solved.method == "exact":
        exact = {s: v[labels.index(s)] for s in sides}
        exact[DRAW] = v[labels.index(DRAW)] + stuck
    odds_idle = tuple(
        c.id
        for c in start.combatants.values()
        if not is_down(chain.ruleset, c) and c.id not in chain.acted
    )
    return Win(
        solved.method,
        {s: float(v[labels.index(s)]) for s in sides},
        float(v[labels.index(DRAW)] + stuck),
        certain,
        time.monotonic() - begun,
        states=chain.size,
        exact=exact,
        residual=solved.residual if solved.method == "float" else None,
        rounds_mean=float(solved.rounds[0]) + 1,
        idle=odds_idle,
    )
