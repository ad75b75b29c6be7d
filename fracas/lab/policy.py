"""Tactics: what a combatant does on its turn (docs/lab.md, "Tactics").

The default, for every ruleset: of the actions the rules allow now (each enemy as
target, each value of a required parameter from
:func:`fracas.engine.may_do.param_choices`, allowed where the ruleset's deciding step
takes it, as :func:`~fracas.engine.may_do.options_now` asks),
the one with the best chance to take an enemy down this action, else the highest
expected damage to enemies, from the exact distribution of the states it leads to
(cached per state and action); reload, equip or any other untargeted action only
when nothing can be attacked now and it makes an attack possible; otherwise end the
turn. No movement unless the file's ``tactics:`` asks for it (``approach``).
A combatant's preset (``naive``, ``random``) is the state's
(:attr:`~fracas.model.Encounter.presets`: the file's, then the game master's), else its
tactic's.

A pure function of the state: the same state always gets the same action, so the
exact chain and every simulated fight (in any process) follow the same tactics.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping
from fractions import Fraction

from fracas.dice.source import RandomDice
from fracas.engine.play import plan
from fracas.errors import FracasError
from fracas.io.files import Tactic
from fracas.lab.fight import canonical
from fracas.lab.folds import Gain, Gains, traced_gains
from fracas.lab.plans import rank
from fracas.lab.presets import at_random, naive
from fracas.lab.transitions import Transitions
from fracas.lab.watch import peek
from fracas.model import Action, Encounter, fold
from fracas.rulesets.base import Presenter, Ruleset, presenter_of
from fracas.rulesets.memo import decision_of, fields_but_combatants, memos_on

__all__ = ["SAMPLE_FIGHTS", "SCORE_PATHS", "Policy", "Score"]

SCORE_PATHS = 20_000
"""Dice paths an exact score may take; past it, a seeded sample ranks the action."""
SAMPLE_FIGHTS = 64
"""Draws of the seeded sample that ranks an action too large to enumerate."""
_CACHE = 200_000
"""Scores kept per policy before the cache is cleared (a long simulation's memory)."""

_ZERO = Fraction(0)
_DEFAULT = Tactic()
Score = tuple[Fraction, Fraction, Fraction, Fraction]
"""(expected enemies taken down minus allies, expected enemy HP lost minus allies',
expected enemy HP lost, expected HP lost by the actor's allies other than itself)."""


def _expected(sums: Gain, den: int) -> Score:
    """The expected gains: the runs' gains summed, each times its probability's
    numerator over the runs' one denominator ``den`` (one Fraction a figure, exactly
    the sum of Fractions :meth:`Policy._total` makes)."""
    return (
        Fraction(sums[0], den),
        Fraction(sums[1], den),
        Fraction(sums[2], den),
        Fraction(sums[3], den),
    )


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
        self._presenter: Presenter | None = None

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
        actor = state.turn.actor
        preset = self.preset(state, actor)
        if preset == "naive":
            return naive(self, state)
        if preset == "random":
            return at_random(self, state, self.tactic(actor).seed)
        return rank(self, state)[0].first

    def tactic(self, actor: str) -> Tactic:
        """The file's tactic of ``actor`` (the default's where it gives none)."""
        return self.tactics.get(actor, _DEFAULT)

    def preset(self, state: Encounter, actor: str) -> str:
        """The preset ``actor`` plays by in ``state``: the state's (the file's at the
        start, then the game master's ``tactics`` action), else its tactic's."""
        return state.presets.get(actor) or self.tactic(actor).preset

    @property
    def presenter(self) -> Presenter:
        found = self._presenter
        if found is None:
            found = self._presenter = presenter_of(self.ruleset)
        return found

    def decides(self, state: Encounter, action: Action) -> bool:
        """Whether the ruleset's deciding step takes ``action`` in ``state`` (a look-up
        where deciding read the same before: :func:`~fracas.rulesets.memo.decision_of`;
        a refusal is a value, not an exception)."""
        return not isinstance(decision_of(self.ruleset, state, action), FracasError)

    def certain(self, state: Encounter, action: Action) -> Encounter | None:
        """The state ``action`` leads to where it leads to one for certain (a walk, a
        reload, an equip); None where the rules refuse it or dice decide."""
        try:
            after = self.transitions.next_states(state, action, max_paths=SCORE_PATHS)
        except FracasError:
            return None
        if len(after.states) != 1 or after.truncated:
            return None
        return next(iter(after.states))

    # --- scores -------------------------------------------------------------

    def score(self, state: Encounter, action: Action) -> Score:
        """(expected enemies taken down minus allies, expected enemy HP lost minus
        allies', expected enemy HP lost, expected HP the actor's allies but itself lose),
        exact where the action has at most :data:`SCORE_PATHS` dice paths."""
        key = (state, action)
        found = self._scores.get(key)
        if found is not None:
            return found
        actor = action.actor
        try:
            found = self._shared_score(state, action, actor) if memos_on() else None
            if found is None:
                dist = self.transitions.runs(state, action, max_paths=SCORE_PATHS)
                found = self._total(state, dist, actor)
        except FracasError as exc:
            if exc.code != "too_many_paths":
                raise
            found = self._total(state, list(self._sample(state, action).items()), actor)
        if len(self._scores) >= _CACHE:
            self._scores.clear()
        self._scores[key] = found
        return found

    def _shared_score(self, state: Encounter, action: Action, actor: str) -> Score | None:
        """The score kept for every state that gives the action's rolling step the same
        input and whose folds read the same combatants with the same values (every other
        field of the state, and the actor's side, equal too):
        :func:`~fracas.lab.folds.traced_gains`. None where the events are not shared."""
        got = self.transitions.shared_runs(state, action, max_paths=SCORE_PATHS)
        if got is None:
            return None
        blind, (den, nums) = got
        side = state.get(actor).side
        base = (blind, actor, side, fields_but_combatants(state))
        combatants = state.combatants
        for ids in self._fold_reads.get(base, ()):
            found = self._shared.get((base, ids, tuple(peek(combatants, i) for i in ids)))
            if found is not None:
                return found
        sums, read = traced_gains(self.ruleset, state, nums, side, actor)
        found = _expected(sums, den)
        if read is not None:
            if len(self._shared) >= _CACHE:
                self._shared.clear()
                self._fold_reads.clear()
            known = self._fold_reads.setdefault(base, [])
            if read not in known:
                known.append(read)
            self._shared[(base, read, tuple(peek(combatants, i) for i in read))] = found
        return found

    def _total(self, state: Encounter, dist: list[tuple[Encounter, Fraction]], actor: str) -> Score:
        gain_of = Gains(self.ruleset, state, state.get(actor).side, actor).of_state
        gains: dict[Gain, Fraction] = {}
        for after, p in dist:
            gain = gain_of(after)
            gains[gain] = gains.get(gain, _ZERO) + p
        out = [_ZERO, _ZERO, _ZERO, _ZERO]
        for gain, p in gains.items():
            for i, g in enumerate(gain):
                if g:
                    out[i] += p * g
        return (out[0], out[1], out[2], out[3])

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
