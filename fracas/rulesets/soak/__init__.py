"""soak (seed 004): d20 + Agility + skill vs EV/DV, exploding damage, armor soak that
erodes, wounds."""

from fracas.rulesets.soak.rules import Soak

__all__ = ["Soak"]
