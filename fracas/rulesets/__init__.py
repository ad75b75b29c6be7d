"""The ruleset registry: the rulesets fracas ships, those installed as packages (the
entry-point group ``fracas.rulesets``) and those added to it, read at each call
(:func:`rulesets`) by every face (the rules listing, the setup page, files, the lab,
serve), looked up by name or alias. The shipped rulesets are imported at the first
look, not with this package (``fracas --help`` reads none of them); the installed ones
at the first look that needs more than a shipped ruleset by its name (``fracas odds
FILE`` of a shipped ruleset imports none), once per process. An installed ruleset that
fails to load is left out, named with its error (:func:`broken_plugins`, and one
warning line through :mod:`logging`: on stderr for the command line); every other
ruleset still plays."""

from __future__ import annotations

import importlib
import logging
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from fracas.errors import PluginError, UnknownRulesetError, brief
from fracas.rulesets.base import ActionSpec, DieSpec, Ruleset

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

__all__ = [
    "GROUP",
    "RULESETS",
    "ActionSpec",
    "DieSpec",
    "Ruleset",
    "broken_plugins",
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

GROUP = "fracas.rulesets"
"""The entry-point group an installed ruleset registers itself in: each entry point
names its Ruleset class, ``pools = "pools.rules:Pools"``."""

_plugins: tuple[type[Ruleset], ...] | None = None
"""The installed rulesets that loaded, by their entry points' names; None: not looked
for yet in this process."""
_broken: tuple[PluginError, ...] = ()
"""The installed rulesets that failed to load, each as its error."""
_plugins_lock = threading.RLock()
"""One thread looks for the installed rulesets (the server's threads share them)."""
_log = logging.getLogger(__name__)


def rulesets() -> tuple[type[Ruleset], ...]:
    """Every ruleset fracas plays now: those it ships, those added, then those installed
    (read at each call, so every face sees a ruleset the moment it is added). An added
    ruleset hides an installed one of its name: the one being built is the one tried."""
    shipped = _ships()
    added = tuple(r for r in _added if r not in shipped)
    names = {_key(r.about.name) for r in added}
    installed = (r for r in _installed() if r not in added and _key(r.about.name) not in names)
    return (*shipped, *added, *installed)


def broken_plugins() -> tuple[PluginError, ...]:
    """The installed rulesets that failed to load, each as its error (``plugin``: its
    entry point's name): ``plugin_import_failed``, ``plugin_not_a_ruleset``,
    ``plugin_name_clash``."""
    _installed()
    return _broken


def _installed() -> tuple[type[Ruleset], ...]:
    """The installed rulesets, looked for once per process; each that fails is logged
    once (a warning line). A plugin that reads the registry as it is imported sees the
    shipped rulesets alone (not a second search)."""
    global _plugins, _broken
    with _plugins_lock:
        if _plugins is None:
            _plugins = ()  # what a read from inside the search sees
            _plugins, _broken = _load(_entry_points(), _ships())
            for error in _broken:
                _log.warning("warning: ruleset plugin left out: %s", error)
        return _plugins


def _entry_points() -> list[EntryPoint]:
    """The group's entry points installed where Python finds packages, in name order (the
    order `fracas rules` lists them in; the same name twice is a clash: the first wins)."""
    from importlib.metadata import entry_points  # here: a shipped ruleset's file needs none

    return sorted(entry_points(group=GROUP), key=lambda e: (e.name, e.value))


def _load(
    points: list[EntryPoint], shipped: tuple[type[Ruleset], ...]
) -> tuple[tuple[type[Ruleset], ...], tuple[PluginError, ...]]:
    """Each entry point's ruleset, or its error: a module that raises as it is imported
    (any exception: it is another package's code), an object that is not a Ruleset
    class, a ruleset name (in any of its spellings) that a shipped ruleset or an
    earlier entry point has."""
    taken = {_key(r.about.name): f"fracas ships {r.about.name!r}" for r in shipped}
    names = [r.about.name for r in shipped]
    found: list[type[Ruleset]] = []
    broken: list[PluginError] = []
    for point in points:
        where = f"entry point {point.name + ' = ' + point.value!r} of {_distribution(point)}"
        try:
            loaded = point.load()
        except Exception as exc:  # another package's code: any failure of its import
            said = " ".join(f"{type(exc).__name__}: {exc}".split())
            broken.append(
                PluginError(
                    "plugin_import_failed",
                    f"{where} did not load ({said}); valid: MODULE:CLASS of an importable module",
                    point.name,
                )
            )
            continue
        name = _ruleset_name(loaded)
        if name is None:
            broken.append(
                PluginError(
                    "plugin_not_a_ruleset",
                    f"{where} names {_what(loaded)}, not a ruleset; valid: a subclass of "
                    "fracas.rulesets.Ruleset with an `about`",
                    point.name,
                )
            )
            continue
        if loaded in found:
            continue  # the same class under a second entry point: one ruleset
        clash = taken.get(_key(name))
        if clash is not None:
            broken.append(
                PluginError(
                    "plugin_name_clash",
                    f"{where} names ruleset {name!r}, and {clash}; valid: a name other "
                    f"than {', '.join(names)} (in any spelling)",
                    point.name,
                )
            )
            continue
        taken[_key(name)] = f"entry point {point.name!r} gives {name!r}"
        names.append(name)
        found.append(loaded)
    return tuple(found), tuple(broken)


def _ruleset_name(loaded: object) -> str | None:
    """The name of the ruleset class ``loaded``; None where it is not one."""
    if not (isinstance(loaded, type) and issubclass(loaded, Ruleset)):
        return None
    name = getattr(getattr(loaded, "about", None), "name", None)
    return name if isinstance(name, str) and _key(name) else None


def _what(loaded: object) -> str:
    """``dumps (a function)``: what an entry point named, without its address."""
    name = getattr(loaded, "__qualname__", None)
    return f"{name if isinstance(name, str) else brief(loaded)} (a {type(loaded).__name__})"


def _distribution(point: EntryPoint) -> str:
    """``fracas-pools 0.1.0``: the package that installed an entry point."""
    dist = point.dist
    return f"{dist.name} {dist.version}" if dist is not None else "an unnamed package"


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
        PluginError: the name is an installed ruleset's that failed to load (its error).
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
    for error in _broken:  # an installed ruleset of that name that failed: its error
        if key and _key(error.plugin) == key:
            raise error
    valid = ", ".join(r.about.name for r in every)
    raise UnknownRulesetError("unknown_ruleset", f"{name!r} is not a ruleset; valid: {valid}")


@contextmanager
def registered(*extra: type[Ruleset]) -> Iterator[None]:
    """Add rulesets to the registry for the duration of a ``with`` block (a ruleset still
    being built, tried through files and every face before it is listed); the registry is
    as it was after. Every reader (:func:`rulesets`, :func:`find_ruleset`) sees them."""
    new = [r for r in extra if r not in _ships() and r not in _added]
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
