"""dice-combat (seed 000): opposed d20 attack vs Defend, fixed damage, 12 HP."""

from fracas.rulesets.dice_combat.rules import DiceCombat

__all__ = ["DiceCombat"]
