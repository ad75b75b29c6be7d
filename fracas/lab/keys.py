"""The state the balance lab's exact chain keys a state by: one whose fight goes on
exactly as the state's does under the lab's tactics (which reload when an attack needs
it), where the rules make the two the same; the chain then follows one of them instead
of both. Each ruleset declares its own (its contract's ``chain_key``;
default: the state itself): dice-combat fills a magazine that reloads for free (DC-10).
A test checks every ruleset's key against the chain without it, exactly.
"""

from __future__ import annotations

from fracas.model import Encounter
from fracas.rulesets.base import Ruleset

__all__ = ["chain_key"]


def chain_key(rules: Ruleset, state: Encounter) -> Encounter:
    """``state`` as the lab's exact chain keys it (the ruleset's own key)."""
    key = rules.contract.chain_key
    return state if key is None else key(rules, state)
