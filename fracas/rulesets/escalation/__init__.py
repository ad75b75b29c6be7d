"""escalation (seed 003): damage = Escalation + combat rating - defense; a d12 trigger die."""

from fracas.rulesets.escalation.rules import Escalation

__all__ = ["Escalation"]
