"""The ruleset registry: one explicit list, looked up by name or alias."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from fracas.errors import UnknownRulesetError
from fracas.rulesets.base import ActionSpec, DieSpec, Ruleset
from fracas.rulesets.dice_combat import DiceCombat
from fracas.rulesets.escalation import Escalation
from fracas.rulesets.soak import Soak
from fracas.rulesets.tier_duel import TierDuel
from fracas.rulesets.wasteland import Wasteland

__all__ = [
    "RULESETS",
    "ActionSpec",
    "DieSpec",
    "Ruleset",
    "find_ruleset",
    "json_schema",
    "registered",
]

RULESETS: tuple[type[Ruleset], ...] = (DiceCombat, TierDuel, Escalation, Soak, Wasteland)
"""Every ruleset fracas plays, in the order `fracas rules` lists them."""


def _key(name: str) -> str:
    """A name with case and separators dropped: ``tier_duel``, ``TIER-DUEL`` -> ``tierduel``."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


def find_ruleset(name: str) -> type[Ruleset]:
    """The ruleset class named ``name``, or an alias of it: the name in any case, with
    ``_``, spaces or nothing for its ``-`` (``tier_duel``, ``tierduel``, ``TIER-DUEL``).

    Raises:
        UnknownRulesetError: ``unknown_ruleset``, listing the valid names.
    """
    for ruleset in RULESETS:
        if ruleset.about.name == name:
            return ruleset
    key = _key(name)
    for ruleset in RULESETS:
        if key and _key(ruleset.about.name) == key:
            return ruleset
    valid = ", ".join(r.about.name for r in RULESETS)
    raise UnknownRulesetError("unknown_ruleset", f"{name!r} is not a ruleset; valid: {valid}")


@contextmanager
def registered(*extra: type[Ruleset]) -> Iterator[None]:
    """Add rulesets to :data:`RULESETS` for the duration of a ``with`` block (a ruleset
    still being built, tried through files and the CLI before it is listed); the registry
    is restored after.

    Lookups by name (:func:`find_ruleset`: files, ``fracas rules NAME``) see the added
    rulesets; code that imported the tuple itself keeps the tuple it imported.
    """
    global RULESETS
    saved = RULESETS
    RULESETS = (*saved, *(r for r in extra if r not in saved))
    try:
        yield
    finally:
        RULESETS = saved


def json_schema(kind: Any) -> dict[str, Any]:
    """The JSON schema of one of a ruleset's types (its sheet, an item, its options), as
    the file reader validates it: what a form is built from."""
    from fracas.validation import adapter  # the file reader's validation, one per type

    schema: dict[str, Any] = adapter(kind).json_schema()
    return schema
