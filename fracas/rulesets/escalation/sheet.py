"""escalation's sheet fields (2.1), validated under the encounter's options."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, ConfigDict, Field, ValidationInfo, model_validator

from fracas.rulesets.escalation.options import options_of
from fracas.rulesets.escalation.weapons import WeaponField, check_condition_names
from fracas.rulesets.names import one_of, unique_names

__all__ = ["Level", "Sheet"]

Level = Literal["none", "partial", "total"]
"""Concealment (ES-16) and cover (ES-17)."""


def _size(name: str, info: ValidationInfo) -> str:
    return one_of(name, options_of(info).size_categories, "bad_value", "size category")


def _condition_set(names: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
    # ES-13: a set; a name given twice is held once.
    return check_condition_names(tuple(dict.fromkeys(names)), info)


_unique_weapons = unique_names("two weapons are called {name}: give each a `name`")


@dataclass(frozen=True, slots=True)
class Sheet:
    """2.1: an escalation character sheet, beyond the shared id/name/side/at/hp/max_hp."""

    __pydantic_config__ = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    level: int = 1
    """Creature level; attackers of this level or higher may assassinate it (ES-20)."""
    size: Annotated[str, AfterValidator(_size), Field(validate_default=True)] = "medium"
    """A name from the option size_categories; a step apart is failure 3 (ES-15, ES-G4)."""
    melee_rating: int = 0
    """Melee combat rating: damage dealt with and resisted against Melee (ES-4, ES-6)."""
    remote_rating: int = 0
    """Remote combat rating (ES-4, ES-6)."""
    whelm_rating: int = 0
    """Whelm combat rating (ES-4, ES-6)."""
    energy: Annotated[int, Field(ge=0)] = 3
    """Energy, spent by double attacks; default: the option energy (ES-2, ES-G3)."""
    conditions: Annotated[tuple[str, ...], AfterValidator(_condition_set)] = ()
    """Conditions held, a set of standard condition names (ES-12, ES-13)."""
    concealment: Level = "none"
    """This combatant's concealment as a target: partial 3, total 6 (ES-16)."""
    cover: Level = "none"
    """Obstruction in front of this combatant: partial 6, total: no attack (ES-17)."""
    underwater: bool = False
    """No weapon attacks by or against it (ES-18)."""
    weapons: Annotated[tuple[WeaponField, ...], AfterValidator(_unique_weapons)] = ()
    """Its weapons; the first is the default of `attack` (2.2)."""

    @model_validator(mode="before")
    @classmethod
    def _energy_default(cls, data: Any, info: ValidationInfo) -> Any:
        """ES-G3: a sheet that gives no energy starts with the option's."""
        if isinstance(data, dict) and "energy" not in data:
            return {**data, "energy": options_of(info).energy}
        return data

    def rating(self, archetype: str) -> int:
        """The combat rating of an archetype (ES-4, ES-6)."""
        ratings = {
            "melee": self.melee_rating,
            "remote": self.remote_rating,
            "whelm": self.whelm_rating,
        }
        return ratings[archetype]
