"""Who won: when one side alone has anyone standing (not down by its ruleset), the fight
is over and that side won; when nobody stands, nobody did. Derived from the state, never
stored: an undo or a heal that stands someone up again reopens it by itself."""

from __future__ import annotations

from dataclasses import dataclass

from fracas.model import Encounter
from fracas.rulesets.base import Ruleset, is_down

__all__ = ["Outcome", "outcome"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """A fight over: ``side`` won (None: nobody stands), ``standing``: the names of who
    still stands, in turn order (its words: ``fracas.words.render.outcome_words``)."""

    side: str | None
    standing: tuple[str, ...]


def outcome(ruleset: Ruleset, state: Encounter) -> Outcome | None:
    """The fight's outcome, or None while two sides or more have someone standing."""
    everyone = list(state.order) + [c for c in state.combatants if c not in state.order]
    up = [state.combatants[c] for c in everyone if not is_down(ruleset, state.combatants[c])]
    sides = {c.side for c in up}
    if len(sides) > 1:
        return None
    return Outcome(next(iter(sides), None), tuple(c.name for c in up))
