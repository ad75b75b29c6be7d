"""escalation's options (2.5): every PROPOSED default, changeable by a game master.

Sheet and weapon validation reads the encounter's options (the validation context):
sizes and condition names are checked against the lists the options give.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, ConfigDict, Field, ValidationInfo
from pydantic_core import PydanticCustomError

from fracas.rulesets.escalation.data import SIZE_CATEGORIES, STANDARD_CONDITIONS

__all__ = ["Options", "options_of"]


def _unique(names: tuple[str, ...]) -> tuple[str, ...]:
    for i, name in enumerate(names):
        if name in names[:i]:
            raise PydanticCustomError(
                "duplicate_name", "{given} is listed twice", {"given": repr(name)}
            )
    return names


def _twelve(names: tuple[str, ...]) -> tuple[str, ...]:
    if len(names) != len(STANDARD_CONDITIONS):  # ES-G1: "the list of 12 standard conditions"
        raise PydanticCustomError(
            "bad_value",
            "give {n} standard conditions, not {given}",
            {"n": len(STANDARD_CONDITIONS), "given": len(names)},
        )
    return _unique(names)


@dataclass(frozen=True, slots=True)
class Options:
    """2.5: the options of escalation, with our defaults."""

    __pydantic_config__ = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    escalation_start: Annotated[int, Field(ge=0)] = 1
    """Escalation when the encounter starts: 1 at the beginning of a conflict, more for an
    encounter joined mid-conflict (ES-5)."""
    escalation_step: Literal["side_turn", "enemy_turn"] = "side_turn"
    """side_turn: +1 when the turn passes from an enemy to a player; enemy_turn: +1 after
    every enemy combatant's turn (ES-5, ES-G7)."""
    player_side: str = "players"
    """The side of the player adventurers; every other side is the enemy (ES-5)."""
    trigger_die: Annotated[int, Field(ge=3)] = 12
    """Faces of the trigger die; its top face plays the 12 (Lucky Hit, crit, Luck's Price)
    and top - 2 the 10 (conditions) (ES-G2)."""
    damage_floor: int | None = 0
    """Least damage a successful attack deals; null: none (a negative total heals, up to
    max_hp) (ES-6, ES-A3)."""
    defense_after_bonuses: bool = True
    """Defense subtracts from the total with crit and backstab; false: only from
    escalation + rating, the bonuses added after (ES-7, ES-A2)."""
    double_attack_any_archetype: bool = True
    """Any two action-attacks of a round are a double attack; false: only two of the same
    archetype (ES-2, ES-A1)."""
    failed_attack_counts: bool = True
    """A failed attack counts towards a double attack (ES-A4)."""
    double_attack_needs_energy: bool = False
    """A double attack at 0 Energy is refused (no_energy); false: Energy stops at 0 (ES-2)."""
    auto_condition: Literal["first_missing", "none"] = "first_missing"
    """Without a `condition` choice: the first of the weapon's three the target lacks, or
    none (ES-12)."""
    standard_conditions: Annotated[tuple[str, ...], AfterValidator(_twelve)] = STANDARD_CONDITIONS
    """The 12 standard conditions, names without mechanics (ES-G1)."""
    size_categories: Annotated[tuple[str, ...], Field(min_length=1), AfterValidator(_unique)] = (
        SIZE_CATEGORIES
    )
    """Size categories, smallest first; a step apart is failure 3 (ES-15, ES-G4)."""
    max_hp: Annotated[int, Field(ge=1)] = 20
    """max_hp of a combatant whose file gives none (ES-G3)."""
    energy: Annotated[int, Field(ge=0)] = 3
    """energy of a combatant whose file gives none (ES-G3)."""


DEFAULT_OPTIONS = Options()


def options_of(info: ValidationInfo | Any) -> Options:
    """The options a sheet or weapon is validated under (the defaults where none given)."""
    context = getattr(info, "context", None)
    return context if isinstance(context, Options) else DEFAULT_OPTIONS
