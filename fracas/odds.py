"""Exact odds of an action, from the ruleset's own resolution code.

The action is replayed under the exact enumerator (every face of every die it
rolls, dice it names held fixed) and each path is summarised per combatant:
did the attack land on it, how much damage it took, is it down afterwards.
There is no per-ruleset odds code: only ``resolve`` and the events.

Every request answers or refuses within its time budget (default 5 s of wall time):
``too_many_paths`` past the path budget, ``too_slow`` past the time budget,
``cancelled`` when the caller's hook says stop (:mod:`fracas.dice.budget`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from fracas.dice.budget import DEFAULT_SECONDS, Budget, Cancel
from fracas.dice.exact import DEFAULT_MAX_PATHS, enumerate_exact
from fracas.dice.source import Dice, RandomDice, TableDice
from fracas.engine import TABLE_ACTIONS, advance_to, plan, spec_of
from fracas.model import Action, Attempted, Damaged, Encounter, Event, fold
from fracas.rulesets.base import Ruleset

__all__ = ["CombatantOdds", "Odds", "action_odds"]

# One path's summary: per affected combatant (id, landed: True/False/None, damage, down).
_Path = tuple[tuple[str, bool | None, int, bool], ...]


@dataclass(frozen=True)
class CombatantOdds:
    """The exact odds for one combatant the action can affect."""

    hit: Fraction | None
    damage: dict[int, Fraction]
    down: Fraction

    @property
    def mean(self) -> Fraction:
        return sum((d * p for d, p in self.damage.items()), Fraction(0))


@dataclass(frozen=True)
class Odds:
    """The exact outcome distribution of one action."""

    paths: int
    combatants: dict[str, CombatantOdds]
    truncated: Fraction
    depth: int

    def to_json(self) -> dict[str, Any]:
        """The ``fracas odds --json`` object (README, "Command line")."""
        floats: dict[str, Any] = {}
        exact: dict[str, Any] = {}
        for cid, o in self.combatants.items():
            floats[cid] = {
                "hit": None if o.hit is None else float(o.hit),
                "damage": {str(d): float(p) for d, p in sorted(o.damage.items())},
                "mean": float(o.mean),
                "down": float(o.down),
            }
            exact[cid] = {
                "hit": None if o.hit is None else _frac(o.hit),
                "damage": {str(d): _frac(p) for d, p in sorted(o.damage.items())},
                "mean": _frac(o.mean),
                "down": _frac(o.down),
            }
        out: dict[str, Any] = {
            "paths": self.paths,
            "combatants": floats,
            "exact": {"combatants": exact},
        }
        if self.truncated:
            out["truncated"] = {"depth": self.depth, "mass": _frac(self.truncated)}
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
    max_paths: int = DEFAULT_MAX_PATHS,
    cancel: Cancel | None = None,
) -> Odds:
    """The exact odds of ``action`` taken in ``state``, conditional on the dice it names.

    The turn advance the action causes (ends of turns, burning ticks) happens
    first, as it would in play; the odds are those of the action itself. Where
    paths are cut at ``max_rolls`` rolls (exploding dice; default: the ruleset's
    ``odds_max_rolls``), every probability given is exact and their sum falls short
    of 1 by exactly ``truncated``. With
    ``shortcut``, dice the ruleset declares irrelevant to the odds
    (``DieSpec.odds_relevant``) are not branched on.

    Bounded: ``seconds`` of wall time (None: unbounded) and ``max_paths`` dice paths;
    ``cancel`` (a :class:`threading.Event` or a callable) is looked at every few paths.

    Raises:
        FracasError: the action's refusal; ``too_many_paths``, ``too_slow`` (with how far
            it got and which dice to give) or ``cancelled``.
    """
    budget = Budget(seconds, cancel)
    spec = spec_of(ruleset, action.do)
    # The game master's table actions (set, heal, status, roll, ...) and moves take no
    # turn: their odds are planned as the engine plans them, whole.
    table = action.do in TABLE_ACTIONS or action.do == "move"
    if spec is not None and not spec.off_turn and not table and state.turn.actor != action.actor:
        dice = TableDice(action.dice, RandomDice(seed))
        state = fold(state, advance_to(ruleset, state, action.actor, dice))
    before = state
    core = table or action.do == "end_turn"
    # The turn is already the actor's: a ruleset action is decided once (its refusal is
    # raised here), and only its rolling step is replayed on every dice path.
    decision = None if core else ruleset.decided(before, action)
    # A path is kept as the events the odds read (attempts, damage, changes of state):
    # paths that differ only in rolls the log records fall together, and each distinct
    # run is summarised (and folded, for the down test) once, after the enumeration.
    read = _Read()

    def relevant(dice: Dice) -> tuple[Event, ...]:
        events = (
            plan(ruleset, before, action, dice) if core else ruleset.roll(before, decision, dice)
        )
        return tuple([e for e in events if read[type(e)]])

    skip = frozenset(d.label for d in ruleset.dice if not d.odds_relevant) if shortcut else None
    dist = enumerate_exact(
        relevant,
        given=action.dice,
        max_rolls=ruleset.odds_max_rolls if max_rolls is None else max_rolls,
        irrelevant=skip or frozenset(),
        max_paths=max_paths,
        budget=budget,
    )
    outcomes: dict[_Path, Fraction] = {}
    for events, p in dist.outcomes.items():
        path = _summary(ruleset, before, events)
        outcomes[path] = outcomes.get(path, Fraction(0)) + p
    return Odds(
        dist.paths,
        _per_combatant(ruleset, before, action, outcomes),
        dist.truncated,
        dist.depth,
    )


class _Read(dict[type[Event], bool]):
    """Per event type: whether the odds read it (an attempt, damage, a change of state);
    worked out once per type."""

    def __missing__(self, kind: type[Event]) -> bool:
        read = self[kind] = issubclass(kind, Attempted | Damaged) or kind.apply is not Event.apply
        return read


def _summary(ruleset: Ruleset, before: Encounter, events: tuple[Event, ...]) -> _Path:
    """One path's summary: per combatant attempted or damaged, whether it was hit, the
    damage and whether it is down after the events."""
    landed: dict[str, bool] = {}
    damage: dict[str, int] = {}
    for e in events:
        if isinstance(e, Attempted):
            landed[e.target] = landed.get(e.target, False) or e.landed
        elif isinstance(e, Damaged):
            damage[e.target] = damage.get(e.target, 0) + e.amount
    after = fold(before, events)
    return tuple(
        (cid, landed.get(cid), damage.get(cid, 0), ruleset.is_down(after.get(cid)))
        for cid in sorted(landed.keys() | damage.keys())
    )


def _per_combatant(
    ruleset: Ruleset, before: Encounter, action: Action, outcomes: Mapping[_Path, Fraction]
) -> dict[str, CombatantOdds]:
    ids: list[str] = [action.target] if action.target is not None else []
    for path in outcomes:
        ids += [cid for cid, *_ in path if cid not in ids]
    out: dict[str, CombatantOdds] = {}
    for cid in ids:
        targeted = False
        hit = Fraction(0)
        damage: dict[int, Fraction] = {}
        down = Fraction(0)
        for path, p in outcomes.items():
            entry = next((e for e in path if e[0] == cid), None)
            if entry is None:
                damage[0] = damage.get(0, Fraction(0)) + p
                down += p if ruleset.is_down(before.get(cid)) else 0
                continue
            _, landed, dealt, is_down = entry
            if landed is not None:
                targeted = True
                hit += p if landed else 0
            damage[dealt] = damage.get(dealt, Fraction(0)) + p
            down += p if is_down else 0
        out[cid] = CombatantOdds(hit if targeted else None, damage, down)
    return out
