"""escalation's numbers, as data: failure sources, sizes, conditions, weapon defaults.

Sources: ``../shared/rules/escalation.md`` 1.3 (ES-11, ES-15 to ES-19, ES-21), the gaps
of 1.5 (ES-G1, ES-G4, ES-G5, ES-G6) and the weapon table of 2.2; the seed text
``003_891464a053191b77.txt``.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "ACTIONS_PER_ROUND",
    "ARCHETYPES",
    "BACKSTAB_BONUS",
    "CONCEALMENT_FAILURE",
    "CONDITION_BELOW_TOP",
    "COVER_FAILURE",
    "CRIT_BONUS",
    "ESCALATION",
    "LEVELS_OF_COVER",
    "SIZE_CATEGORIES",
    "SIZE_STEP_FAILURE",
    "STANDARD_CONDITIONS",
    "WEAPON_DEFAULTS",
    "ArchetypeDefaults",
]

ESCALATION = "escalation"
"""ES-5: the encounter-wide value, reported beside ``round``."""

ACTIONS_PER_ROUND = 2
"""ES-1: two actions each round (they reset at the start of the combatant's turn)."""

ARCHETYPES: tuple[str, ...] = ("melee", "remote", "whelm")
"""1.2: the three weapon archetypes; each has its own combat rating (ES-4, ES-6)."""

SIZE_STEP_FAILURE = 3
"""ES-15: failure chance 3 for every size category between attacker and target."""

CONCEALMENT_FAILURE: dict[str, int] = {"none": 0, "partial": 3, "total": 6}
"""ES-16: dim light, thin fog 3; total darkness, thick fog 6."""

COVER_FAILURE: dict[str, int | None] = {"none": 0, "partial": 6, "total": None}
"""ES-17: partial obstruction 6; total obstruction: no attack at all (None)."""

LEVELS_OF_COVER: tuple[str, ...] = tuple(COVER_FAILURE)
"""The values of the ``concealment`` and ``cover`` fields (the same three words)."""

CRIT_BONUS = 5
"""ES-11: a trigger of 12 deals +5 (a weapon's ``crit_bonus`` overrides it, ES-0)."""

CONDITION_BELOW_TOP = 2
"""ES-12: conditions on 10+ of a d12, the top face minus 2 (option ``trigger_die``)."""

BACKSTAB_BONUS = 2
"""ES-19: +2 damage against a target that cannot see the attacker."""

STANDARD_CONDITIONS: tuple[str, ...] = (
    "bleeding",
    "blinded",
    "burning",
    "confused",
    "dazed",
    "deafened",
    "frightened",
    "poisoned",
    "prone",
    "slowed",
    "stunned",
    "weakened",
)
"""ES-G1 (PROPOSED): the 12 standard conditions, names without mechanics."""

SIZE_CATEGORIES: tuple[str, ...] = ("tiny", "small", "medium", "large", "huge", "gargantuan")
"""ES-G4 (PROPOSED): size categories, smallest first; steps are index differences."""


@dataclass(frozen=True, slots=True)
class ArchetypeDefaults:
    """2.2: what a weapon of an archetype is unless its own fields say otherwise (ES-0)."""

    range: int
    """ES-3, ES-G5 (PROPOSED): reach in tiles."""
    conditions: tuple[str, str, str]
    """ES-12 (PROPOSED): the three conditions the wielder chooses from."""
    max_targets: int
    """ES-3, ES-G6 (PROPOSED): targets of one attack."""
    backstab: bool
    """ES-21: may backstab."""
    assassinate: bool
    """ES-21: may assassinate."""


WEAPON_DEFAULTS: dict[str, ArchetypeDefaults] = {
    "melee": ArchetypeDefaults(1, ("bleeding", "dazed", "prone"), 1, True, True),
    "remote": ArchetypeDefaults(30, ("bleeding", "slowed", "frightened"), 1, True, False),
    "whelm": ArchetypeDefaults(6, ("burning", "confused", "deafened"), 3, False, False),
}
"""2.2 and ES-21, per archetype: range, conditions, targets, backstab, assassinate."""
