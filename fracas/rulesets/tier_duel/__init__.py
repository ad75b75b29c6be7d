"""tier-duel (seed 001): both sides roll 1d20 + reflex + skill; the margin becomes damage."""

from fracas.rulesets.tier_duel.rules import TierDuel

__all__ = ["TierDuel"]
