"""Duel encounters of the lab's tests, as file texts."""

from __future__ import annotations

DC_MELEE = """
ruleset: dice-combat
order: [ana, bo]
combatants:
  - {id: ana, name: Ana, side: a, at: [0, 0], hp: HP_A, max_hp: HP_A, hand: club}
  - {id: bo, name: Bo, side: b, at: [1, 0], hp: HP_B, max_hp: HP_B, hand: knife, attack_bonus: 1}
"""

DC_PISTOL = """
ruleset: dice-combat
order: [ana, bo]
combatants:
  - {id: ana, name: Ana, side: a, at: [0, 0], hp: HP_A, max_hp: HP_A, hand: {is: pistol, loaded: 8}}
  - {id: bo, name: Bo, side: b, at: [3, 0], hp: HP_B, max_hp: HP_B, hand: {is: pistol, loaded: 8}}
"""

TIER = """
ruleset: tier-duel
order: [ana, bo]
combatants:
  - {id: ana, name: Ana, side: a, at: [0, 0], hp: HP_A, max_hp: HP_A, reflex: 1, skills: {sword: 2},
     hand: {is: sword, tier: 2}}
  - {id: bo, name: Bo, side: b, at: [1, 0], hp: HP_B, max_hp: HP_B, reflex: 2, skills: {spear: 1},
     armor_tier: 1, hand: {is: spear, tier: 2}}
"""

ESCALATION = """
ruleset: escalation
order: [ana, bo]
combatants:
  - {id: ana, name: Ana, side: players, at: [0, 0], hp: HP_A, max_hp: HP_A, melee_rating: 2,
     weapons: [{is: melee, name: sword}]}
  - {id: bo, name: Bo, side: enemies, at: [1, 0], hp: HP_B, max_hp: HP_B, melee_rating: 1,
     weapons: [{is: melee, name: club}]}
"""


def duel(text: str, hp_a: int, hp_b: int) -> str:
    """The duel's text with both HPs filled in."""
    return text.replace("HP_A", str(hp_a)).replace("HP_B", str(hp_b))
