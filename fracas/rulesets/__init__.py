"""The ruleset registry: one explicit list, looked up by name or alias."""

from __future__ import annotations

from fracas.errors import UnknownRulesetError
from fracas.rulesets.base import ActionSpec, DieSpec, Ruleset
from fracas.rulesets.dice_combat import DiceCombat

__all__ = ["RULESETS", "ActionSpec", "DieSpec", "Ruleset", "find_ruleset"]

RULESETS: tuple[type[Ruleset], ...] = (DiceCombat,)
"""Every ruleset fracas plays, in the order `fracas rules` lists them."""


def find_ruleset(name: str) -> type[Ruleset]:
    """The ruleset class named ``name``.

    Raises:
        UnknownRulesetError: ``unknown_ruleset``, listing the valid names.
    """
    for ruleset in RULESETS:
        if ruleset.name == name:
            return ruleset
    valid = ", ".join(r.name for r in RULESETS)
    raise UnknownRulesetError("unknown_ruleset", f"{name!r} is not a ruleset; valid: {valid}")
