"""Exact odds of an action, from the ruleset's own resolution code.

The action is decided once and its roll enumerated step by step
(:mod:`fracas.odds.outcomes`: pools branch once per class, paths that reach the same state
and step are followed once) and each path is summarised per combatant: did the attack
land on it, how much damage it took, is it down afterwards. There is no per-ruleset
odds code: only ``decide``, ``roll`` and the events.

Every request is bounded by **work**, not by the clock, so the same question gets the
same answer on a quiet and on a busy machine: exact when the enumeration ends within
:data:`ODDS_PATHS` dice paths, else a Monte Carlo estimate of :data:`ODDS_SAMPLES`
seeded samples with 95% intervals, marked as an estimate (``Odds.estimate``). The wall
time (``seconds``, default 30 s) is only an outer bound: an answer it cuts says so
(``Odds.cut_by_time``, "cut by the time limit"); ``cancelled`` when the caller's hook
says stop (:mod:`fracas.dice.budget`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING, Any

from fracas.dice.budget import CUT_BY_TIME, DEFAULT_SECONDS, Budget, Cancel
from fracas.dice.source import Dice, GivenDice, RandomDice
from fracas.engine.catalogue import GM_ACTION_NAMES, advances_turn
from fracas.engine.play import advance_to, plan
from fracas.errors import FracasError
from fracas.model import Action, Encounter, Event, fold
from fracas.odds.outcomes import Entry, Exact, Partial, Sampled, exact_outcomes, sample_outcomes
from fracas.rulesets import base as rulesets_base
from fracas.rulesets.base import Ruleset, decided, roll
from fracas.rulesets.steps import roll_all

if TYPE_CHECKING:
    from fracas.dice.d20_odds import FreeOdds

__all__ = ["ODDS_PATHS", "ODDS_SAMPLES", "CombatantOdds", "Estimate", "Odds", "action_odds"]

ODDS_PATHS = 30_000
"""Dice paths (replays, complete or cut at the depth) the exact enumeration may take
before the odds become an estimate. A path costs 20-120 µs of CPU in most actions
(about 1 ms in a Molotov's): the exact part of a request ends within about the 2.5 s
the old wall-time budget gave it on a quiet machine. The wasteland 3-shot burst with
its locations given (2,857 paths over its steps) is exact; a 50-shot burst (about 24 million) is
refused after about 1,000 replays (Knuth's estimate, :mod:`fracas.dice.exact`)."""
ODDS_SAMPLES = 2_000
"""Seeded samples an estimate takes (a 95% interval of at most ±2.2 points on a
chance); a sample costs 0.07-0.25 ms, 1.6 ms for a 50-shot burst."""
EXACT_SHARE = 0.5
"""The share of the wall-time bound the exact enumeration may take before the rest goes
to the estimate (only where the clock cuts it: the work budget decides first)."""
MIN_SAMPLES = 50
"""Samples an estimate takes at least, even past the wall-time bound (a very slow
action still answers)."""


@dataclass(frozen=True)
class CombatantOdds:
    """The odds for one combatant the action can affect.

    ``damage`` holds the enumerated values; where exploding dice were cut, ``cut`` is
    the mass left out of it, each such path dealing at least ``at_least``."""

    hit: Fraction | None
    damage: dict[int, Fraction]
    down: Fraction
    cut: Fraction = Fraction(0)
    at_least: int | None = None

    @property
    def mean(self) -> Fraction:
        # summed as integers over one denominator, one Fraction made at the end
        den = math.lcm(*(p.denominator for p in self.damage.values()))
        return Fraction(
            sum(d * p.numerator * (den // p.denominator) for d, p in self.damage.items()), den
        )


@dataclass(frozen=True)
class Estimate:
    """A Monte Carlo estimate: how many samples, the seed, and per combatant the 95%
    intervals of hit, mean damage and down."""

    samples: int
    seed: int
    intervals: dict[str, dict[str, tuple[float, float] | None]]


@dataclass(frozen=True)
class Odds:
    """The outcome distribution of one action: exact, or an estimate (``estimate``)."""

    paths: int
    combatants: dict[str, CombatantOdds]
    truncated: Fraction
    depth: int
    at_least: int | None = None
    estimate: Estimate | None = None
    why: str = ""
    """Why an estimate was given instead (the exact enumeration's refusal), and, where
    the wall-time bound cut the work short, "cut by the time limit"."""
    cut_by_time: bool = False
    """The wall-time bound cut the work: the answer is an estimate that depends on the
    machine's speed (fewer samples than asked, or the exact part given up early)."""
    roll: FreeOdds | None = None
    """A free roll's odds of its total, pooled (issue 36: ``roll 8d6`` exact in ms)."""

    def to_json(self) -> dict[str, Any]:
        """The ``fracas odds --json`` object (README, "Command line")."""
        floats: dict[str, Any] = {}
        exact: dict[str, Any] = {}
        for cid, o in self.combatants.items():
            mean, damage = o.mean, sorted(o.damage.items())
            floats[cid] = {
                "hit": None if o.hit is None else float(o.hit),
                "damage": {str(d): float(p) for d, p in damage},
                "mean": float(mean),
                "down": float(o.down),
            }
            exact[cid] = {
                "hit": None if o.hit is None else _frac(o.hit),
                "damage": {str(d): _frac(p) for d, p in damage},
                "mean": _frac(mean),
                "down": _frac(o.down),
            }
        out: dict[str, Any] = {"paths": self.paths, "combatants": floats}
        if self.roll is not None:
            out["roll"] = self.roll.to_json()
        if self.estimate is not None:
            e = self.estimate
            out["estimate"] = {
                "samples": e.samples,
                "seed": e.seed,
                "why": self.why,
                "cut_by_time": self.cut_by_time,
                "ci95": {
                    cid: {k: None if v is None else list(v) for k, v in iv.items()}
                    for cid, iv in e.intervals.items()
                },
            }
            return out
        out["exact"] = {"combatants": exact}
        if self.truncated:
            cut: dict[str, Any] = {"depth": self.depth, "mass": _frac(self.truncated)}
            if self.at_least is not None:
                cut["at_least"] = self.at_least
            cut["combatants"] = {
                cid: {"mass": _frac(o.cut), "at_least": o.at_least}
                for cid, o in self.combatants.items()
                if o.cut
            }
            out["truncated"] = cut
        return out


def _frac(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def action_odds(
    ruleset: Ruleset,
    state: Encounter,
    action: Action,
    *,
    seed: int | None = None,
    max_rolls: int | None = None,
    shortcut: bool = True,
    seconds: float | None = DEFAULT_SECONDS,
    max_paths: int = ODDS_PATHS,
    samples: int = ODDS_SAMPLES,
    cancel: Cancel | None = None,
    estimate: bool = True,
    steps: bool = True,
    pools: bool = True,
) -> Odds:
    """The odds of ``action`` taken in ``state``, conditional on the dice it names.

    The turn advance the action causes (ends of turns, burning ticks) happens
    first, as it would in play; the odds are those of the action itself. Where
    paths are cut at ``max_rolls`` rolls (exploding dice; default: the ruleset's
    ``odds_max_rolls``), every probability given is exact: what the cut cannot change
    (a hit decided before the explosion, a combatant down at the least damage of the
    cut) counts, the rest falls short of 1 by at most ``truncated``. With ``shortcut``,
    dice the ruleset declares irrelevant to the odds (``DieSpec.odds_relevant``) are
    not branched on. ``steps=False`` follows every path whole (no merging) and
    ``pools=False`` rolls pools die by die: the plain enumeration tests compare with.

    Bounded by work: ``max_paths`` dice paths for the exact answer; past them, with
    ``estimate``, a Monte Carlo estimate of ``samples`` samples seeded by ``seed`` (the
    same answer whatever the machine's load), else the refusal. ``seconds`` is an outer
    bound on wall time (None: none): where it cuts the exact part (after half of it,
    with ``estimate``) or the samples, the answer is an estimate marked
    ``cut_by_time`` ("cut by the time limit" in ``why``), of at least 50 samples.
    ``cancel`` (a :class:`threading.Event` or a callable) is looked at every few paths.

    Raises:
        FracasError: the action's refusal; ``cancelled``; ``too_many_paths`` or
            ``too_slow`` (cut by the time limit) without ``estimate``.
    """
    if advances_turn(ruleset, action) and state.turn.actor != action.actor:
        dice = GivenDice(action.dice, RandomDice(seed))
        state = fold(state, advance_to(ruleset, state, action.actor, dice))
    before = state
    pooled = _pooled_roll(
        action, ruleset.contract.odds_max_rolls if max_rolls is None else max_rolls
    )
    if pooled is not None:
        return pooled
    # The game master's table actions (set, heal, status, roll, ...), moves and ends of
    # turns are not a ruleset's decision: their odds are planned as the engine plans
    # them, whole.
    core = action.do in GM_ACTION_NAMES or action.do in ("move", "end_turn")
    # The turn is already the actor's: a ruleset action is decided once (its refusal is
    # raised here), and only its rolling step is replayed on every dice path.
    decision = None if core else decided(ruleset, before, action)

    def planned(st: Encounter, step: Any, dice: Dice) -> list[Event]:
        return plan(ruleset, st, action, dice)

    # the ruleset's own roll, called on every dice path
    roller = planned if core else partial(roll, ruleset) if steps else partial(roll_all, ruleset)

    skip = (
        frozenset(d.label for d in ruleset.contract.dice if not d.odds_relevant)
        if shortcut
        else None
    )
    depth = ruleset.contract.odds_max_rolls if max_rolls is None else max_rolls
    exact_seconds = None if seconds is None else seconds * (EXACT_SHARE if estimate else 1)
    budget = Budget(exact_seconds, cancel)
    try:
        found = exact_outcomes(
            ruleset, before, decision, roller,
            given=action.dice, max_rolls=depth, skip=skip or frozenset(),
            max_paths=max_paths, budget=budget, pools=pools,
        )  # fmt: skip
    except FracasError as refusal:
        if not estimate or refusal.code not in ("too_slow", "too_many_paths"):
            raise
        # Free what the exact enumeration built (its frames hang on the traceback) now,
        # within the budget, not when this returns.
        refusal.__traceback__ = None
        total = Budget(seconds, cancel)
        total.started = budget.started
        total.deadline = None if seconds is None else budget.started + seconds
        timed_out = [refusal.code == "too_slow"]

        def until(n: int) -> bool:
            if n % 16 == 0:
                if total.cancelled():
                    raise FracasError(
                        "cancelled", "the odds were cancelled by their caller"
                    ) from None
                if n >= MIN_SAMPLES and n < samples and total.expired():
                    timed_out[0] = True
                    return True
            return n >= samples

        sampled = sample_outcomes(
            ruleset, before, decision, partial(roll_all, ruleset) if not core else roller,
            given=action.dice, seed=0 if seed is None else seed, until=until,
        )  # fmt: skip
        why, got = refusal.message, f"{sampled.samples:,} of {samples:,} samples"
        if timed_out[0] and refusal.code != "too_slow":
            why = f"{why}; {CUT_BY_TIME} ({seconds or 0:g} s): {got}"
        elif timed_out[0] and sampled.samples < samples:
            why = f"{why}; {got}"
        return _estimated(before, action, sampled, ruleset, why, timed_out[0])
    combatants = _per_combatant(ruleset, before, action, found)
    least = [o.at_least for o in combatants.values() if o.at_least is not None]
    target = combatants.get(action.target) if action.target is not None else None
    at_least = target.at_least if target is not None and target.at_least is not None else None
    if at_least is None and least:
        at_least = min(least)
    return Odds(found.paths, combatants, found.truncated, depth, at_least)


def _pooled_roll(action: Action, depth: int) -> Odds | None:
    """A free roll's odds by pooling (:mod:`fracas.dice.d20_odds`): its total's exact
    distribution, and no combatant's (a roll changes nothing). None where it is not
    pooled: dice given (the odds are conditional on them), fracas's own ``!`` (its
    explosion adds into the die), a notation refused (the plan refuses it as play
    does) or past the pooled work (the enumeration, then an estimate)."""
    text = action.params.get("notation")
    if action.do != "roll" or action.dice or not isinstance(text, str) or "!" in text:
        return None
    from fracas.dice.d20_free import free_odds_of, parse_notation  # d20's grammar: only here
    from fracas.dice.d20_odds import dice_paths

    try:
        found = free_odds_of(text)
    except FracasError:
        return None
    return Odds(dice_paths(parse_notation(text)), {}, Fraction(0), depth, roll=found)


def _ids(action: Action, paths: Any) -> list[str]:
    seen: dict[str, None] = {} if action.target is None else {action.target: None}
    for path in paths:
        for entry in path:
            if entry[0] not in seen:
                seen[entry[0]] = None
    return list(seen)


def _per_combatant(
    ruleset: Ruleset, before: Encounter, action: Action, found: Exact
) -> dict[str, CombatantOdds]:
    outcomes = found.outcomes
    settled = found.settled
    ids = _ids(
        action,
        [
            *(path for _, path in outcomes),
            *(lower for _, lower, _, _ in found.cut),
            [(cid,) for cid in settled],
        ],
    )
    # the outcomes' probabilities are integer numerators over one denominator: the sums
    # below add integers, and a Fraction is made per figure at the end
    den = found.den
    # the cut paths' probabilities likewise, over their own denominator
    cut_den = math.lcm(*(p.denominator for _, _, p, _ in found.cut))
    cuts = [(known, lower, p.numerator * (cut_den // p.denominator), gone)
            for known, lower, p, gone in found.cut]  # fmt: skip
    was = {cid: rulesets_base.is_down(ruleset, before.get(cid)) for cid in ids}
    # Per combatant's entry on the final summaries (landed, damage, down), its weight, in
    # the order met; a combatant a summary leaves out (and did not settle before it)
    # has the entry it had before the roll there.
    counted: dict[tuple[str, bool | None, int, bool], int] = {}
    everyone = len(ids)
    for (gone, path), n in outcomes.items():
        if gone or len(path) != everyone:  # someone settled before, or left out
            on = {e[0] for e in path}
            path = (
                *(e for e in path if e[0] not in gone),
                *((cid, None, 0, was[cid]) for cid in ids if cid not in on and cid not in gone),
            )
        for entry in path:
            counted[entry] = counted.get(entry, 0) + n
    out: dict[str, CombatantOdds] = {}
    for cid in ids:
        targeted = False
        hits = downs = 0
        dealt_n: dict[int, int] = {}
        was_down = was[cid]
        entries: list[tuple[Entry, int]] = list(settled.get(cid, {}).items())
        entries += [(entry[1:], n) for entry, n in counted.items() if entry[0] == cid]
        for (landed, dealt, is_down), n in entries:
            if landed is not None:
                targeted = True
                hits += n if landed else 0
            dealt_n[dealt] = dealt_n.get(dealt, 0) + n
            downs += n if is_down else 0
        damage = {d: Fraction(n, den) for d, n in dealt_n.items()}
        cut_hits = cut_downs = cut = 0  # numerators over cut_den
        at_least: int | None = None
        for known, lower, n, gone in cuts:
            if cid in gone:  # settled exactly before the cut
                continue
            sure = _entry(known, cid)
            if sure is not None and sure[1] is not None:  # decided before the cut
                targeted = True
                cut_hits += n if sure[1] else 0
            low = next((e for e in lower if e[0] == cid), None)
            dealt = low[2] if low is not None else 0
            # Damage never falls as an exploding die grows: down at the least, down.
            if low[3] if low is not None else was_down:
                cut_downs += n
            cut += n
            at_least = dealt if at_least is None else min(at_least, dealt)
        hit, down, lost = Fraction(hits, den), Fraction(downs, den), _ZERO
        if cut:
            hit += Fraction(cut_hits, cut_den)
            down += Fraction(cut_downs, cut_den)
            lost = Fraction(cut, cut_den)
        out[cid] = CombatantOdds(hit if targeted else None, damage, down, lost, at_least)
    return out


_ZERO = Fraction(0)


def _entry(partial: Partial, cid: str) -> tuple[str, bool | None, int] | None:
    return next((e for e in partial if e[0] == cid), None)


def _estimated(
    before: Encounter,
    action: Action,
    sampled: Sampled,
    ruleset: Ruleset,
    why: str,
    cut_by_time: bool = False,
) -> Odds:
    """Odds from samples, each probability a frequency, with its 95% interval."""
    n = sampled.samples
    ids = _ids(action, sampled.counts)
    combatants: dict[str, CombatantOdds] = {}
    intervals: dict[str, dict[str, tuple[float, float] | None]] = {}
    for cid in ids:
        hits = tried = downs = 0
        damage: dict[int, int] = {}
        sq = 0.0
        was_down = rulesets_base.is_down(ruleset, before.get(cid))
        for path, count in sampled.counts.items():
            entry = next((e for e in path if e[0] == cid), None)
            landed, dealt, is_down = (None, 0, was_down) if entry is None else entry[1:]
            if landed is not None:
                tried += count
                hits += count if landed else 0
            damage[dealt] = damage.get(dealt, 0) + count
            downs += count if is_down else 0
            sq += dealt * dealt * count
        mean = sum(d * c for d, c in damage.items()) / n
        sd = math.sqrt(max(0.0, sq / n - mean * mean))
        half = 1.96 * sd / math.sqrt(n)
        combatants[cid] = CombatantOdds(
            Fraction(hits, n) if tried else None,
            {d: Fraction(c, n) for d, c in damage.items()},
            Fraction(downs, n),
        )
        intervals[cid] = {
            "hit": _wilson(hits, n) if tried else None,
            "mean": (max(0.0, mean - half), mean + half),
            "down": _wilson(downs, n),
        }
    estimate = Estimate(n, sampled.seed, intervals)
    return Odds(n, combatants, Fraction(0), 0, None, estimate, why, cut_by_time)


def _wilson(k: int, n: int) -> tuple[float, float]:
    """Wilson's 95% interval for k successes in n trials."""
    z = 1.96
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # The interval holds the frequency itself (rounding once left 1.0 out when k == n).
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))
