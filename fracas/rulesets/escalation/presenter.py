"""What a face shows of escalation's state (escalation.md 2.6): each combatant's Energy,
actions left and conditions; the encounter's Escalation."""

from __future__ import annotations

from typing import Any

from fracas.model import Combatant, Encounter, Turn
from fracas.rulesets.base import Presenter, Shown, is_down, sheet_as
from fracas.rulesets.escalation.attack import counted_attacks
from fracas.rulesets.escalation.sheet import Sheet
from fracas.rulesets.escalation.tables import ACTIONS_PER_ROUND

__all__ = ["EscalationPresenter"]


class EscalationPresenter(Presenter):
    """escalation's state a game master watches, short."""

    def fields(self, state: Encounter, c: Combatant, full: bool = False) -> tuple[Shown, ...]:
        s = sheet_as(c, Sheet)
        info = self.sheet_json(state, c)
        attacks = info["attacks_this_round"]
        return (
            Shown("Energy", str(s.energy), "1 per double attack, never below 0 (ES-2, ES-G3)"),
            Shown(
                "actions",
                f"{info['actions_left']}/{ACTIONS_PER_ROUND}",
                f"actions left this round; {attacks} action-attack(s) made: a second is a "
                "double attack (ES-1, ES-2)",
            ),
            Shown(
                "conditions",
                ", ".join(s.conditions) or "-",
                "a set: a condition given again does nothing (ES-12, ES-13)",
            ),
        )

    def sheet_json(self, state: Encounter, c: Combatant) -> dict[str, Any]:
        """2.6: the sheet, plus what the combatant can do if it acts now: the combatant
        whose turn it is has what its turn left; any other starts a turn when it acts,
        where both reset (2 actions, 0 attacks)."""
        out = super().sheet_json(state, c)
        turn = state.turn if state.turn.actor == c.id else Turn(c.id)
        down = is_down(self.ruleset, c)
        out["actions_left"] = 0 if down else ACTIONS_PER_ROUND - turn.actions_used
        out["attacks_this_round"] = counted_attacks(turn)
        return out
