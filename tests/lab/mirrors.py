"""Mirror duels, one per ruleset whose duel the exact chain holds (wasteland's, with its
AP, limbs and bleeding, passes 20,000 states): two identical combatants four tiles apart (so the
tactics must walk), as file texts with ``ORDER`` and ``TACTICS`` to fill in."""

from __future__ import annotations

MIRRORS: dict[str, str] = {
    "dice-combat": """
ruleset: dice-combat
order: ORDER
combatants:
  - {id: ana, name: Ana, side: a, at: [0, 0], hp: 6, max_hp: 6, hand: club, inventory: [knife]}
  - {id: bo, name: Bo, side: b, at: [4, 0], hp: 6, max_hp: 6, hand: club, inventory: [knife]}
TACTICS""",
    "tier-duel": """
ruleset: tier-duel
order: ORDER
combatants:
  - {id: ana, name: Ana, side: a, at: [0, 0], hp: 8, max_hp: 8, reflex: 1, skills: {sword: 2},
     hand: {is: sword, tier: 2}}
  - {id: bo, name: Bo, side: b, at: [4, 0], hp: 8, max_hp: 8, reflex: 1, skills: {sword: 2},
     hand: {is: sword, tier: 2}}
TACTICS""",
    "escalation": """
ruleset: escalation
order: ORDER
combatants:
  - {id: ana, name: Ana, side: a, at: [0, 0], hp: 6, max_hp: 6, melee_rating: 2,
     weapons: [{is: melee, name: sword}]}
  - {id: bo, name: Bo, side: b, at: [4, 0], hp: 6, max_hp: 6, melee_rating: 2,
     weapons: [{is: melee, name: sword}]}
TACTICS""",
    "soak": """
ruleset: soak
order: ORDER
combatants:
  - {id: ana, name: Ana, side: a, at: [0, 0], initiative: 10, agility: 2, skills: {dueling: 2},
     ev: 12, av: 1, max_hp: 8, weapons: [{name: sword, dice: 1d6}]}
  - {id: bo, name: Bo, side: b, at: [4, 0], initiative: 10, agility: 2, skills: {dueling: 2},
     ev: 12, av: 1, max_hp: 8, weapons: [{name: sword, dice: 1d6}]}
TACTICS""",
}


def mirror(ruleset: str, first: str, tactics: str) -> str:
    """The mirror duel of ``ruleset``, ``first`` acting first, Bo under ``tactics``'
    preset (``default``: no ``tactics:``)."""
    order = "[ana, bo]" if first == "ana" else "[bo, ana]"
    extra = "" if tactics == "default" else f"tactics: {{bo: {{preset: {tactics}}}}}\n"
    return MIRRORS[ruleset].replace("ORDER", order).replace("TACTICS", extra)
