"""The ruleset registry: the rulesets fracas ships, and those added to it, read at each
call (:func:`rulesets`) by every face (the rules listing, the setup page, files, the lab,
serve), looked up by name or alias. The shipped rulesets are imported at the first
look, not with this package (``fracas --help`` reads none of them)."""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from fracas.errors import UnknownRulesetError
from fracas.rulesets.base import ActionSpec, DieSpec, Ruleset

__all__ = [
    "RULESETS",
    "ActionSpec",
    "DieSpec",
    "Ruleset",
    "find_ruleset",
    "json_schema",
    "registered",
    "rulesets",
]

SHIPPED = (
    ("fracas.rulesets.dice_combat", "DiceCombat"),
    ("fracas.rulesets.tier_duel", "TierDuel"),
    ("fracas.rulesets.escalation", "Escalation"),
    ("fracas.rulesets.soak", "Soak"),
    ("fracas.rulesets.wasteland", "Wasteland"),
)
"""The rulesets fracas ships (module, class), in the order `fracas rules` lists them."""

RULESETS: tuple[type[Ruleset], ...]
"""The rulesets fracas ships, imported at the first read (every ruleset fracas plays
now: :func:`rulesets`)."""

_shipped: tuple[type[Ruleset], ...] = ()


def _ships() -> tuple[type[Ruleset], ...]:
    global _shipped
    if not _shipped:
        _shipped = tuple(getattr(importlib.import_module(m), c) for m, c in SHIPPED)
    return _shipped


def __getattr__(name: str) -> Any:
    if name == "RULESETS":
        return _ships()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_added: list[type[Ruleset]] = []
"""The rulesets :func:`registered` adds, in the order they were added."""


def rulesets() -> tuple[type[Ruleset], ...]:
    """Every ruleset fracas plays now: those it ships, then those added (read at each
    call, so every face sees a ruleset the moment it is added)."""
    shipped = _ships()
    return (*shipped, *(r for r in _added if r not in shipped))


def _key(name: str) -> str:
    """A name with case and separators dropped: ``tier_duel``, ``TIER-DUEL`` -> ``tierduel``."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


def _shipped_alone(name: str) -> type[Ruleset] | None:
    """The shipped ruleset named exactly ``name``, its package (``dice_combat`` for
    ``dice-combat``) imported alone, before the rest are: a file names one ruleset, and
    ``fracas odds FILE`` need not import the other four (issue 34, startup). None where
    the rest are imported already, or no package is named so, or its ruleset is not."""
    if _shipped:
        return None
    for module, attr in SHIPPED:
        if module.rsplit(".", 1)[1] == name.replace("-", "_"):
            found: type[Ruleset] = getattr(importlib.import_module(module), attr)
            if found.about.name == name:  # the first of that name: the names are unique
                return found
    return None


def find_ruleset(name: str) -> type[Ruleset]:
    """The ruleset class named ``name``, or an alias of it: the name in any case, with
    ``_``, spaces or nothing for its ``-`` (``tier_duel``, ``tierduel``, ``TIER-DUEL``).

    Raises:
        UnknownRulesetError: ``unknown_ruleset``, listing the valid names.
    """
    alone = _shipped_alone(name)
    if alone is not None:
        return alone
    every = rulesets()
    for ruleset in every:
        if ruleset.about.name == name:
            return ruleset
    key = _key(name)
    for ruleset in every:
        if key and _key(ruleset.about.name) == key:
            return ruleset
    valid = ", ".join(r.about.name for r in every)
    raise UnknownRulesetError("unknown_ruleset", f"{name!r} is not a ruleset; valid: {valid}")


@contextmanager
def registered(*extra: type[Ruleset]) -> Iterator[None]:
    """Add rulesets to the registry for the duration of a ``with`` block (a ruleset still
    being built, tried through files and every face before it is listed); the registry is
    as it was after. Every reader (:func:`rulesets`, :func:`find_ruleset`) sees them."""
    new = [r for r in extra if r not in rulesets()]
    _added.extend(new)
    try:
        yield
    finally:
        for r in new:
            _added.remove(r)


def json_schema(kind: Any) -> dict[str, Any]:
    """The JSON schema of one of a ruleset's types (its sheet, an item, its options), as
    the file reader validates it: what a form is built from."""
    from fracas.model.validation import adapter  # the file reader's validation, one per type

    schema: dict[str, Any] = adapter(kind).json_schema()
    return schema
