"""Questions a face asks of a table that change nothing: the odds of an action and the
win bar, each a frozen, picklable job made by the table (:meth:`Table.odds_question`,
:meth:`Table.win_question`) and run wherever the face likes (here, in a thread, in a
worker process). One road to odds for every face: the prompt, ``fracas odds`` and the
web page all ask this way, and each answer is projected for whoever asked before it
leaves (:meth:`OddsQuestion.shown`).
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fracas.dice.budget import Cancel
from fracas.dice.source import RandomDice
from fracas.engine.play import plan
from fracas.errors import FracasError
from fracas.io.files import EncounterFile, Tactic
from fracas.model import Action, Encounter, fold
from fracas.model.frozen import FrozenDict
from fracas.odds.action import Odds, action_odds
from fracas.rulesets.base import Ruleset, costs_of

if TYPE_CHECKING:
    from fracas.table.identity import Identity

__all__ = [
    "AdviceQuestion",
    "OddsQuestion",
    "WinQuestion",
    "advice_question",
    "players_state",
    "win_question",
]


@dataclass(frozen=True)
class OddsQuestion:
    """The odds of one action in one state, and what its asker may see of them."""

    ruleset: Ruleset
    state: Encounter
    action: Action
    seed: int
    limits: Mapping[str, Any] = field(default_factory=dict)
    """What :func:`~fracas.odds.action.action_odds` takes to bound the work (``seconds``, ...)."""
    unseen: frozenset[str] = frozenset()
    """Combatants the asker may not see: left out of the answer."""
    no_down: frozenset[str] = frozenset()
    """Combatants whose HP the asker does not see exactly: their chance of going down
    is left out."""
    gm: bool = True

    @classmethod
    def of(
        cls,
        ruleset: Ruleset,
        state: Encounter,
        action: Action,
        seed: int,
        by: Identity,
        limits: Mapping[str, Any],
    ) -> OddsQuestion:
        """The question of ``action`` in ``state`` as ``by`` asks it."""
        if by.is_gm:
            return cls(ruleset, state, action, seed, dict(limits))
        sides = frozenset(c.side for c in state.combatants.values() if c.id in by.owns)
        no_down = frozenset(
            cid
            for cid, c in state.combatants.items()
            if by.sees_hp(state.policy, sides, c.side) != "exact"
        )
        return cls(ruleset, state, action, seed, dict(limits), state.hidden, no_down, False)

    def answer(self, cancel: Cancel | None = None) -> Odds:
        """Work the odds out (``cancel``: looked at every few paths).

        Raises:
            FracasError: the action's refusal; ``cancelled``; past the budget without
                an estimate.
        """
        limits = dict(self.limits)
        if cancel is not None:
            limits["cancel"] = cancel
        return action_odds(self.ruleset, self.state, self.action, seed=self.seed, **limits)

    def shown(self, odds: Odds) -> dict[str, Any]:
        """The odds as ``fracas odds --json`` gives them (floats and exact), without a
        combatant the asker may not see, nor the chance of going down of one whose HP it
        does not see."""
        out = odds.to_json()
        costs = costs_of(self.ruleset, self.state, self.action)
        if costs:  # what the action spends before any die, the rules' figure (issue 35)
            out["costs"] = [c.to_json() for c in costs]
        # per combatant: the figures, and the exact ones, an estimate's intervals or the
        # cut mass where the odds have them
        keyed: list[dict[str, Any]] = [
            out["combatants"],
            out.get("exact", {}).get("combatants", {}),
            out.get("estimate", {}).get("ci95", {}),
            out.get("truncated", {}).get("combatants", {}),
        ]
        for cid in list(out["combatants"]):
            known = cid in self.state.combatants
            if cid in self.unseen or (not known and not self.gm):
                for figures in keyed:
                    figures.pop(cid, None)
            elif cid in self.no_down:
                for figures in keyed:
                    figures.get(cid, {}).pop("down", None)
        return out


@dataclass(frozen=True)
class WinQuestion:
    """The win bar of one state as one audience may see it."""

    key: str
    """The table and audience the worker keeps its tactics' caches for."""
    ruleset: Ruleset
    tactics: Mapping[str, Tactic]
    state: Encounter
    seq: int
    limits: Mapping[str, Any]
    gm: bool
    """For the game master (who sits the fight out is named) or for players."""

    def answer(self) -> dict[str, Any]:
        """The bar as JSON (:meth:`~fracas.lab.bar.WinBar.to_json`)."""
        from fracas.lab.bar import bar_in_worker  # the lab, where a bar is asked

        bar = bar_in_worker(self.key, self.ruleset, self.tactics, self.state, self.seq, self.limits)
        return bar if self.gm else {**bar, "idle": []}


@dataclass(frozen=True)
class AdviceQuestion:
    """The advisor's choices for whoever's turn it is in one state, as one audience may
    see them (:mod:`fracas.lab.advisor`)."""

    key: str
    """The table and audience whose kept chains the worker reuses (the win bar's)."""
    ruleset: Ruleset
    tactics: Mapping[str, Tactic]
    state: Encounter
    seq: int
    seed: int
    seconds: float | None = None
    """The advisor's outer bound on wall time (None: the advisor's own,
    :data:`~fracas.lab.advisor.ADVICE_SECONDS`)."""
    gm: bool = True
    no_down: frozenset[str] = frozenset()
    """Combatants whose HP the asker does not see exactly: their chance of going down
    is left out, and the lines on why say no such figure."""
    win: bool = True
    """The chances to win are worked out and shown (the game master's; a player's only
    where the policy shows players the win bar and enemy HP exactly)."""
    first: bool = False
    """The choices alone, the chances to win to follow in a second answer
    (:meth:`list_first`)."""
    max_states: int | None = None
    """The states the chain for the chances to win may grow to (None: the advisor's
    own, :data:`~fracas.lab.advisor.ADVICE_STATES`)."""

    def list_first(self) -> AdviceQuestion | None:
        """The question of the choices alone, answered first where the chances to win
        are asked (they take a chain of the fight, seconds; the choices take the
        tactics' ranking and each choice's odds, milliseconds): None where they are
        not asked (this question is as quick)."""
        return dataclasses.replace(self, first=True) if self.win else None

    def answer(self) -> dict[str, Any]:
        """The advice as data, projected for its audience: ``working`` says whether the
        chances to win follow in another answer, ``chances`` whether they are shown."""
        from fracas.lab.advisor import (  # the lab, where advice is asked
            ADVICE_SECONDS,
            ADVICE_STATES,
            advise,
        )
        from fracas.lab.keep import LOCK, kept

        seconds = ADVICE_SECONDS if self.seconds is None else self.seconds
        states = ADVICE_STATES if self.max_states is None else self.max_states
        win = self.win and not self.first
        with LOCK:
            keep = kept(self.key, self.ruleset, self.tactics)
            advice = advise(
                keep, self.state, seconds=seconds, seed=self.seed, win=win, max_states=states
            )
        data = self.shown(advice.to_json(self.state))
        return {**data, "working": self.first, "chances": self.win}

    def shown(self, data: dict[str, Any]) -> dict[str, Any]:
        """``data`` without what the asker may not see (hidden combatants are out of its
        state already)."""
        if not self.no_down:
            return data
        for c in data["choices"]:
            c["why"] = c["plain"]
            c["score"] = None
            odds = c["odds"]
            if odds is None:
                continue
            for figures in (
                odds["combatants"],
                odds.get("exact", {}).get("combatants", {}),
                odds.get("estimate", {}).get("ci95", {}),
            ):
                for cid in self.no_down:
                    figures.get(cid, {}).pop("down", None)
        return data


@dataclass(frozen=True)
class _Audience:
    """What one asker's question of a state is worked out from (one builder for the win
    bar's and the advisor's questions): the key of the worker's kept chains, the state
    as the asker may know it, its combatants' tactics, and (for players) the combatants
    whose HP the asker does not see exactly."""

    key: str
    state: Encounter
    tactics: Mapping[str, Tactic]
    gm: bool
    no_down: frozenset[str] = frozenset()


def _audience(
    name: str,
    text: str,
    ef: EncounterFile,
    state: Encounter,
    seq: int,
    by: Identity,
    *,
    whole: bool = False,
) -> _Audience | None:
    """The game master's audience, the state whole; a player's or a viewer's, what
    players know of it (no hidden combatant, nor a side only hidden ones hold; where no
    one would be left, None, or with ``whole`` the state whole)."""
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    if by.is_gm:
        return _Audience(f"{name}/{digest}/gm", state, ef.tactics, gm=True)
    seen = players_state(ef.ruleset, state, seq) or (state if whole else None)
    if seen is None:
        return None
    sides = frozenset(c.side for c in seen.combatants.values() if c.id in by.owns)
    policy = state.policy
    no_down = frozenset(
        cid for cid, c in seen.combatants.items() if by.sees_hp(policy, sides, c.side) != "exact"
    )
    tactics = FrozenDict({k: v for k, v in ef.tactics.items() if k in seen.combatants})
    return _Audience(f"{name}/{digest}/players", seen, tactics, gm=False, no_down=no_down)


def _players_win(state: Encounter) -> bool:
    """Whether players are shown the chances to win: the policy shows them the win bar,
    and their enemies' HP exactly."""
    return state.policy.winbar and state.policy.enemy_hp == "exact"


def players_bar_withheld(state: Encounter) -> str | None:
    """Why players see no win bar though the game master shows it to them (their enemies'
    HP is not shown exactly: a bar would tell what the label hides), in words for the
    game master's page; None where they see it, or it is not shown to them."""
    policy = state.policy
    if not policy.winbar or _players_win(state):
        return None
    shown = "as a label" if policy.enemy_hp == "label" else "not at all"
    return (
        f"Players see no win bar while they see enemy HP {shown}: the bar would give "
        "away what that hides. Show them enemy HP exactly (Table rules) to show it."
    )


def advice_question(
    name: str,
    text: str,
    ef: EncounterFile,
    state: Encounter,
    seq: int,
    by: Identity,
    seed: int,
) -> AdviceQuestion:
    """The advisor's job of ``state`` for ``by`` (who may ask it: the table decides,
    :meth:`~fracas.table.identity.Identity.check_advice`): the game master's from the
    state whole; a player's from what players know of it (no hidden combatant), without
    the chance to take down an enemy whose HP it does not see exactly, and with the
    chances to win only where the policy shows players the win bar.

    Raises:
        Forbidden: ``by`` may not ask the advisor now.
    """
    by.check_advice(state)
    seen = _audience(name, text, ef, state, seq, by, whole=True)
    assert seen is not None  # whole: never None
    return AdviceQuestion(
        seen.key,
        ef.ruleset,
        seen.tactics,
        seen.state,
        seq,
        seed,
        gm=seen.gm,
        no_down=seen.no_down,
        win=seen.gm or _players_win(state),
    )


def win_question(
    name: str,
    text: str,
    ef: EncounterFile,
    state: Encounter,
    seq: int,
    by: Identity,
    limits: Mapping[str, Any],
) -> WinQuestion | None:
    """The win bar job of ``state`` for ``by``: the game master's, from the state whole;
    a player's or a viewer's, from what they see of it (no hidden combatant, nor a side
    only hidden ones hold), only while the policy shows players the bar and their enemy
    HP exactly (else None)."""
    if not by.is_gm and not _players_win(state):
        return None
    seen = _audience(name, text, ef, state, seq, by)
    if seen is None:
        return None
    return WinQuestion(seen.key, ef.ruleset, seen.tactics, seen.state, seq, dict(limits), seen.gm)


def players_state(ruleset: Ruleset, state: Encounter, seed: int) -> Encounter | None:
    """``state`` as players know it: every hidden combatant out of the fight, as the
    game master's ``remove`` takes one out (a turn of one passed on), its dice from
    ``seed``; None when no one would be left."""
    dice = RandomDice(seed)
    for cid in sorted(state.hidden):
        if len(state.combatants) <= 1:
            return None
        try:
            state = fold(state, plan(ruleset, state, Action(cid, "remove"), dice))
        except FracasError:
            return None
    return state
