"""What a face shows of escalation's state (escalation.md 2.6): each combatant's Energy,
actions left and conditions; the encounter's Escalation."""

from __future__ import annotations

from fracas.model import Combatant, Encounter
from fracas.rulesets.base import Presenter, Shown, sheet_as
from fracas.rulesets.escalation.data import ACTIONS_PER_ROUND, ESCALATION
from fracas.rulesets.escalation.sheet import Sheet

__all__ = ["EscalationPresenter"]


class EscalationPresenter(Presenter):
    """escalation's state a game master watches, short."""

    def fields(self, state: Encounter, c: Combatant) -> tuple[Shown, ...]:
        s = sheet_as(c, Sheet)
        info = self.ruleset.combatant_json(state, c)
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

    def encounter(self, state: Encounter) -> tuple[Shown, ...]:
        values = self.ruleset.values_json(state)
        if ESCALATION not in values:
            return ()
        return (
            Shown(
                "Escalation",
                str(values[ESCALATION]),
                "added to every weapon's damage; +1 as the turn passes from the enemies to "
                "the players (ES-4, ES-5)",
            ),
        )
