"""The lab's own hooks of a ruleset: what the balance lab asks of some rulesets beyond
their contract, registered here, never on the ruleset class.

:func:`chain_key` is the state the lab's exact chain keys a state by: one whose fight
goes on exactly as the state's does under the lab's tactics (which reload when an attack
needs it), where the rules make the two the same; the chain then follows one of them
instead of both. Default: the state itself. dice-combat fills a magazine that reloads for
free (DC-10). A test checks every registered key against the chain without it, exactly.
"""

from __future__ import annotations

from typing import Protocol

from fracas.model import Encounter
from fracas.rulesets.base import Ruleset
from fracas.rulesets.dice_combat import DiceCombat
from fracas.rulesets.dice_combat.lab import full_magazines

__all__ = ["CHAIN_KEYS", "ChainKey", "chain_key"]


class ChainKey(Protocol):
    """A ruleset's chain key: (rules, state) -> the state the chain keys it by."""

    def __call__(self, rules: Ruleset, state: Encounter, /) -> Encounter: ...


CHAIN_KEYS: dict[type[Ruleset], ChainKey] = {DiceCombat: full_magazines}
"""The rulesets with a chain key of their own, each with its key."""


def chain_key(rules: Ruleset, state: Encounter) -> Encounter:
    """``state`` as the lab's exact chain keys it (:data:`CHAIN_KEYS`; else itself)."""
    key = CHAIN_KEYS.get(type(rules))
    return state if key is None else key(rules, state)
