"""Tactics: what a combatant does on its turn (docs/lab.md, "Tactics").

The default, for every ruleset: of the actions the rules allow now (each enemy as
target, each value of a required parameter from
:func:`fracas.choices.param_choices`, allowed where the ruleset's deciding step
takes it, as :func:`~fracas.choices.options_now` asks),
the one with the best chance to take an enemy down this action, else the highest
expected damage to enemies, from the exact distribution of the states it leads to
(cached per state and action); reload, equip or any other untargeted action only
when nothing can be attacked now and it makes an attack possible; otherwise end the
turn. No movement unless the file's ``tactics:`` asks for it (``approach``).

A pure function of the state: the same state always gets the same action, so the
exact chain and every simulated fight (in any process) follow the same tactics.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

from fracas.choices import param_choices
from fracas.dice.source import RandomDice
from fracas.engine import plan
from fracas.errors import FracasError
from fracas.files import Tactic
from fracas.grid import chebyshev
from fracas.lab.fight import canonical
from fracas.lab.folds import traced_fold
from fracas.lab.transitions import Transitions
from fracas.lab.watch import peek
from fracas.model import Action, Encounter, Turn, fold
from fracas.rulesets.base import ActionSpec, Ruleset

__all__ = ["SAMPLE_FIGHTS", "SCORE_PATHS", "Policy"]

SCORE_PATHS = 20_000
"""Dice paths an exact score may take; past it, a seeded sample ranks the action."""
SAMPLE_FIGHTS = 64
"""Draws of the seeded sample that ranks an action too large to enumerate."""
_CACHE = 200_000
"""Scores kept per policy before the cache is cleared (a long simulation's memory)."""

_ZERO = Fraction(0)
Score = tuple[Fraction, Fraction]
"""(expected enemies taken down minus allies, expected enemy HP lost minus allies')."""


class Policy:
    """The tactics of every combatant of one encounter under one ruleset."""

    def __init__(self, ruleset: Ruleset, tactics: Mapping[str, Tactic] | None = None) -> None:
        self.ruleset = ruleset
        self.tactics: Mapping[str, Tactic] = tactics or {}
        self._scores: dict[tuple[Encounter, Action], Score] = {}
        self._shared: dict[Hashable, Score] = {}
        self._fold_reads: dict[Hashable, list[tuple[str, ...]]] = {}
        self._choices: dict[Encounter, Action] = {}
        self.transitions = Transitions(ruleset)
        """The exact next states of actions, shared with the chain (``win``)."""
        self.sampled = 0
        """How many actions were ranked by the seeded sample (too many dice paths)."""

    def choose(self, state: Encounter) -> Action:
        """The action of the combatant whose turn it is: a function of the state's
        :func:`~fracas.lab.fight.canonical` form (its round folded, as the chain keys
        it), worked out on that form and cached per it, so a simulated fight in round 7
        takes the action the chain's state takes."""
        key = canonical(state)
        found = self._choices.get(key)
        if found is None:
            found = self._choose(key)
            if len(self._choices) >= _CACHE:
                self._choices.clear()
            self._choices[key] = found
        return found

    def _choose(self, state: Encounter) -> Action:
        rs = self.ruleset
        actor = state.turn.actor
        me = state.get(actor)
        tactic = self.tactics.get(actor, Tactic())
        if rs.is_down(me):
            return Action(actor, "end_turn")
        enemies = [
            c.id for c in state.combatants.values() if c.side != me.side and not rs.is_down(c)
        ]
        if not enemies:
            return Action(actor, "end_turn")
        attacks = self._attacks(state, enemies, tactic)
        if len(attacks) == 1:
            return attacks[0]
        if attacks:
            scored = [(self.score(state, a), i) for i, a in enumerate(attacks)]
            best, i = max(scored, key=lambda s: (s[0], -s[1]))
            if best > (Fraction(0), Fraction(0)):
                return attacks[i]
        enabler = self._enabler(state, enemies, tactic)
        if enabler is not None:
            return enabler
        if tactic.approach and not attacks:
            move = self._approach(state, enemies, tactic)
            if move is not None:
                return move
        return Action(actor, "end_turn")

    # --- candidates ---------------------------------------------------------

    def _attacks(self, state: Encounter, enemies: list[str], tactic: Tactic) -> list[Action]:
        """Every action the rules allow now at an enemy (several enemies at once where
        the action takes ``targets``), narrowed by the tactic's focus, action and weapon.
        Allowed: the ruleset's deciding step takes it (as ``options_now`` asks)."""
        rs = self.ruleset
        actor = state.turn.actor
        out: list[Action] = []
        for spec in rs.actions:
            if spec.targets == "none":
                continue
            for params in _combos(spec, param_choices(rs, state, actor, spec), tactic):
                ok = [
                    a
                    for t in enemies
                    if self._decides(state, a := Action(actor, spec.name, t, params=params))
                ]
                out += ok
                if spec.targets == "combatants" and len(ok) > 1:
                    many = tuple(a.target for a in ok)
                    group = Action(actor, spec.name, params={**params, "targets": many})
                    if self._decides(state, group):
                        out.append(group)
        return _narrow(state, out, tactic)

    def _decides(self, state: Encounter, action: Action) -> bool:
        try:
            self.ruleset.decided(state, action)
        except FracasError:
            return False
        return True

    def _enabler(self, state: Encounter, enemies: list[str], tactic: Tactic) -> Action | None:
        """An untargeted action (reload, equip, ...) after which an attack is possible
        (in this turn or the actor's next), when none scores now; the tactic's weapon
        first."""
        rs = self.ruleset
        actor = state.turn.actor
        fresh = replace(state, turn=Turn(actor))
        if fresh != state and self._attacks(fresh, enemies, tactic):
            return None  # its next turn can attack without it
        tries = [
            action
            for spec in rs.actions
            if spec.targets == "none"
            for params in _combos(spec, param_choices(rs, state, actor, spec), tactic)
            if self._decides(state, action := Action(actor, spec.name, params=params))
        ]
        if tactic.weapon is not None:
            tries.sort(key=lambda a: tactic.weapon not in a.params.values())
        for action in tries:
            try:
                after = self.transitions.next_states(state, action, max_paths=SCORE_PATHS)
            except FracasError:
                continue
            likely = max(after.states.items(), key=lambda kv: kv[1])[0]
            if likely == state:
                continue
            then = replace(likely, turn=Turn(actor))
            if self._attacks(then, enemies, tactic):
                return action
        return None

    def _approach(self, state: Encounter, enemies: list[str], tactic: Tactic) -> Action | None:
        """A table move to the free tile next to the focus (else the nearest enemy)
        nearest the actor; None where it stands next to it already or has no tile."""
        me = state.get(state.turn.actor)
        placed = [e for e in enemies if state.get(e).at is not None]
        if me.at is None or not placed:
            return None
        focus = tactic.focus if tactic.focus in placed else None
        here = me.at
        goal = focus or min(placed, key=lambda e: (chebyshev(here, state.get(e).at), e))  # type: ignore[arg-type]
        gx, gy = state.get(goal).at  # type: ignore[misc]
        if chebyshev(here, (gx, gy)) <= 1:
            return None
        taken = {c.at for c in state.combatants.values() if c.at is not None}
        size = state.table.map_size
        free = [
            (gx + dx, gy + dy)
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
            if (dx or dy) and (gx + dx, gy + dy) not in taken
            if size is None or (0 <= gx + dx < size[0] and 0 <= gy + dy < size[1])
        ]
        if not free:
            return None
        to = min(
            free,
            key=lambda t: (chebyshev(here, t), (t[0] - here[0]) ** 2 + (t[1] - here[1]) ** 2, t),
        )
        return Action(me.id, "move", params={"to": to})

    # --- scores -------------------------------------------------------------

    def score(self, state: Encounter, action: Action) -> Score:
        """(expected enemies taken down minus allies, expected enemy HP lost minus
        allies'), exact where the action has at most :data:`SCORE_PATHS` dice paths."""
        key = (state, action)
        found = self._scores.get(key)
        if found is not None:
            return found
        side = state.get(action.actor).side
        try:
            found = self._shared_score(state, action, side)
            if found is None:
                dist = self.transitions.runs(state, action, max_paths=SCORE_PATHS)
                found = self._total(state, dist, side)
        except FracasError as exc:
            if exc.code != "too_many_paths":
                raise
            found = self._total(state, list(self._sample(state, action).items()), side)
        if len(self._scores) >= _CACHE:
            self._scores.clear()
        self._scores[key] = found
        return found

    def _shared_score(self, state: Encounter, action: Action, side: str) -> Score | None:
        """The score kept for every state that gives the action's rolling step the same
        input and whose fold reads the same combatants with the same values (every other
        field of the state equal too): :func:`~fracas.lab.folds.traced_fold`. None where
        the events are not shared."""
        got = self.transitions.shared_runs(state, action, max_paths=SCORE_PATHS)
        if got is None:
            return None
        runs, blind = got
        base = (blind, side, _fields(state))
        combatants = state.combatants
        for ids in self._fold_reads.get(base, ()):
            found = self._shared.get((base, ids, tuple(peek(combatants, i) for i in ids)))
            if found is not None:
                return found
        folded, read = traced_fold(state, runs)
        found = self._total(state, [(folded[run], p) for run, p in runs.items()], side)
        if read is not None:
            if len(self._shared) >= _CACHE:
                self._shared.clear()
                self._fold_reads.clear()
            known = self._fold_reads.setdefault(base, [])
            if read not in known:
                known.append(read)
            self._shared[(base, read, tuple(peek(combatants, i) for i in read))] = found
        return found

    def _total(self, state: Encounter, dist: list[tuple[Encounter, Fraction]], side: str) -> Score:
        gains: dict[tuple[int, int], Fraction] = {}
        for after, p in dist:
            gain = self._gain(state, after, side)
            gains[gain] = gains.get(gain, _ZERO) + p
        downs = sum((p * d for (d, _), p in gains.items() if d), _ZERO)
        hp = sum((p * h for (_, h), p in gains.items() if h), _ZERO)
        return (downs, hp)

    def _gain(self, before: Encounter, after: Encounter, side: str) -> tuple[int, int]:
        rs = self.ruleset
        downs = hp = 0
        for cid, c in before.combatants.items():
            now = peek(after.combatants, cid)
            if now is None or now is c:  # gone, or the very record it was: no gain
                continue
            sign = 1 if c.side != side else -1
            downs += sign * (rs.is_down(now) and not rs.is_down(c))
            hp += sign * max(0, c.hp - now.hp)
        return downs, hp

    def _sample(self, state: Encounter, action: Action) -> dict[Encounter, Fraction]:
        """A seeded sample of the states ``action`` leads to (the same seed for every
        state: the ranking stays a function of the state, in every process)."""
        self.sampled += 1
        rng = random.Random(0)
        out: dict[Encounter, Fraction] = {}
        share = Fraction(1, SAMPLE_FIGHTS)
        for _ in range(SAMPLE_FIGHTS):
            after = fold(state, plan(self.ruleset, state, action, RandomDice(rng.getrandbits(63))))
            out[after] = out.get(after, Fraction(0)) + share
        return out


def _fields(state: Encounter) -> tuple[Any, ...]:
    """Every field of the state but its combatants (a shared score's key holds them)."""
    return (
        state.ruleset,
        state.order,
        state.round,
        state.turn,
        state.values,
        state.table,
        state.hidden,
        state.notes,
    )


def _combos(
    spec: ActionSpec, choices: Mapping[str, tuple[str, ...]], tactic: Tactic
) -> list[dict[str, Any]]:
    """The parameter values to try: each value of every required parameter (none: no
    try), and the tactic's weapon where an optional parameter offers it."""
    combos: list[dict[str, Any]] = [{}]
    for p in spec.required:
        combos = [{**c, p: v} for c in combos for v in choices.get(p, ())]
    for p, values in choices.items():
        if p not in spec.required and tactic.weapon is not None and tactic.weapon in values:
            combos = [{**c, p: tactic.weapon} for c in combos]
    return combos


def _narrow(state: Encounter, attacks: list[Action], tactic: Tactic) -> list[Action]:
    """The attacks the tactic prefers, where there are any (else all of them)."""
    if tactic.action is not None:
        attacks = [a for a in attacks if a.do == tactic.action] or attacks
    if tactic.weapon is not None:
        attacks = [a for a in attacks if tactic.weapon in a.params.values()] or attacks
    focus = tactic.focus
    targets = [a.target for a in attacks if a.target is not None]
    if not targets or focus is None:
        return attacks
    if focus == "weakest":
        focus = min(targets, key=lambda t: (state.get(t).hp, t))
    elif focus == "nearest":
        here = state.get(state.turn.actor).at
        if here is None:
            return attacks
        focus = min(
            targets,
            key=lambda t: (chebyshev(here, state.get(t).at or here), t),
        )
    return [a for a in attacks if a.target == focus] or attacks
