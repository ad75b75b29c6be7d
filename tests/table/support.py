"""The table tests' shared fights (each ``tests/table/test_*.py`` that plays one)."""

__all__ = ["PISTOL_FIGHT", "WALK_FIGHT"]

PISTOL_FIGHT = """\
ruleset: dice-combat
seed: 5
order: [ana, bo]
combatants:
  - {id: ana, name: Ana, side: players, at: [0, 0], hand: {is: pistol, loaded: 6}}
  - {id: bo, name: Bo, side: raiders, at: [1, 0], hand: knife}
"""
"""Ana (a pistol, 6 loaded) beside Bo (a knife); Ana's turn first."""
WALK_FIGHT = """\
ruleset: dice-combat
seed: 5
order: [ana, bo]
table: {move: 4}
combatants:
  - {id: ana, name: Ana, side: players, at: [0, 0], hand: {is: pistol, loaded: 6}}
  - {id: bo, name: Bo, side: raiders, at: [9, 0], hand: knife}
"""
"""Ana (a pistol) and Bo (a knife) 9 tiles apart, at a table where each walks 4 tiles a turn."""
