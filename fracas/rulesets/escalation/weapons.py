"""escalation weapons (2.2): an archetype, the universal rules as defaults, and the
weapon's own fields that override them (ES-0).

A weapon in a file is a short-hand (``melee``, ``remote``, ``whelm``) or a mapping
(``{is: melee, name: sword}``, ``{name: bow, archetype: remote, range: 40}``). Every field
the file leaves out takes its archetype's default from ``data.WEAPON_DEFAULTS``; the
condition threshold is the trigger die's top face minus 2 (10 on a d12).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BeforeValidator, ConfigDict, Field, ValidationInfo
from pydantic_core import PydanticCustomError

from fracas.rulesets.escalation.data import ARCHETYPES, CONDITION_BELOW_TOP, WEAPON_DEFAULTS
from fracas.rulesets.escalation.options import options_of
from fracas.rulesets.names import one_of

__all__ = ["SHORTHANDS", "Weapon", "WeaponField", "check_condition_names"]

SHORTHANDS: tuple[str, ...] = ARCHETYPES
"""2.2: `is: melee | remote | whelm`, the base weapons."""


def check_condition_names(names: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
    """Every name is one of the options' standard conditions (ES-G1)."""
    valid = options_of(info).standard_conditions
    for name in names:
        one_of(name, valid, "unknown_condition", "standard condition")
    return names


def _three(names: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
    # ES-12: "Each weapon has a different selection of three drawn from the list of 12".
    if len(names) != 3 or len(set(names)) != 3:
        raise PydanticCustomError(
            "bad_conditions",
            "a weapon has three different conditions, not {given}",
            {"given": list(names)},
        )
    return check_condition_names(names, info)


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon (2.2). The archetype's universal rules, unless the weapon says otherwise."""

    __pydantic_config__ = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    archetype: Literal["melee", "remote", "whelm"]
    """The rating it uses and the target resists; required without `is` (ES-4, ES-6)."""
    name: str
    """What `attack` names as `weapon`; default: the short-hand, else the archetype."""
    range: Annotated[int, Field(ge=0)]
    """Reach in tiles; default melee 1, remote 30, whelm 6 (ES-3, ES-G5)."""
    conditions: Annotated[tuple[str, ...], AfterValidator(_three)]
    """Its three conditions; default melee bleeding, dazed, prone; remote bleeding,
    slowed, frightened; whelm burning, confused, deafened (ES-12)."""
    max_targets: Annotated[int, Field(ge=1)]
    """Targets of one attack; default melee 1, remote 1, whelm 3 (ES-G6)."""
    condition_at: int
    """Lowest trigger that inflicts a condition; default the die's top - 2, 10 (ES-12)."""
    backstab: bool
    """May backstab; default true for melee and remote (ES-21)."""
    assassinate: bool
    """May assassinate; default true for melee (ES-21)."""
    crit_bonus: int = 5
    """Damage of a critical hit (ES-11)."""
    failure_mod: int = 0
    """The weapon's own change to the failure chance (ES-0, ES-A6)."""


_FIELDS = ("is", *Weapon.__dataclass_fields__)


def expand_weapon(value: Any, info: ValidationInfo) -> Any:
    """Pydantic before-validator: a short-hand or `is:` becomes full fields, every field
    left out takes its archetype's default (ES-0: the weapon's own fields win)."""
    if isinstance(value, str):
        value = {"is": value}
    if not isinstance(value, dict):
        return value  # pydantic reports the wrong type
    unknown = [k for k in value if k not in _FIELDS]
    if unknown:
        raise PydanticCustomError(
            "unknown_field",
            "{given} is not a weapon field; valid: {valid}",
            {"given": repr(unknown[0]), "valid": ", ".join(_FIELDS)},
        )
    out = {k: v for k, v in value.items() if k != "is"}
    if "is" in value:
        base = value["is"]
        if base not in SHORTHANDS:
            raise PydanticCustomError(
                "unknown_weapon_type",
                "{given} is not a weapon short-hand; valid: {valid}",
                {"given": repr(base), "valid": ", ".join(SHORTHANDS)},
            )
        if out.setdefault("archetype", base) != base:
            raise PydanticCustomError(
                "bad_weapon",
                "`is: {base}` and `archetype: {given}` disagree: give one of them",
                {"base": base, "given": out["archetype"]},
            )
        out.setdefault("name", base)
    archetype = out.get("archetype")
    defaults = WEAPON_DEFAULTS.get(archetype) if isinstance(archetype, str) else None
    if defaults is None:
        return out  # pydantic reports the archetype: missing, or not one of the three
    out.setdefault("name", archetype)
    out.setdefault("range", defaults.range)
    out.setdefault("conditions", list(defaults.conditions))
    out.setdefault("max_targets", defaults.max_targets)
    out.setdefault("backstab", defaults.backstab)
    out.setdefault("assassinate", defaults.assassinate)
    out.setdefault("condition_at", options_of(info).trigger_die - CONDITION_BELOW_TOP)
    return out


WeaponField = Annotated[Weapon, BeforeValidator(expand_weapon)]
"""A weapon as a sheet's `weapons` list gives it."""
