"""pools' numbers as data: the die, the pool sizes a sheet may give, the defaults."""

from __future__ import annotations

D6 = 6
"""Every die of the system is a d6 (PO-1)."""
MAX_POOL = 6
"""The most dice a pool may hold (PO-1): six d6 are 46,656 draws for the exact odds."""
SUCCESS_ON = 5
"""A die showing this or more is a success (PO-2); option ``success_on``."""
DEFAULT_MAX_HP = 6
"""HP of a combatant whose file gives no ``max_hp`` (PO-3)."""
ATTACK_POOL = 3
"""A sheet's ``attack`` pool when it gives none."""
DEFENCE_POOL = 2
"""A sheet's ``defence`` pool when it gives none."""
STAGGERED = "staggered"
"""The status a hard hit leaves (PO-4)."""
STAGGER_AT = 3
"""Net successes that stagger the target (PO-4)."""
