"""Mirror duels, one per ruleset: two identical combatants four tiles apart (so the
tactics must walk), as file texts with ``ORDER`` and ``TACTICS`` to fill in. Those of
:data:`MIRRORS` are answered by the exact chain itself; wasteland's (:data:`LARGE`) as
``fracas lab win`` answers it (:func:`fracas.lab.win.win`: exact, float or estimate, by
size and time). Wasteland's duels grow past the exact chain's 20,000 states or its
time quickly (CRIT dice explode, six limbs keep their Cripple Thresholds, 8 AP buy
many actions a turn), so its mirror is kept small: 4 HP, 4 AP and 3 MAP (walk three
tiles, then one knife attack a turn), no CRIT or CRITFAIL (``crit_min: 21``,
``critfail_max: 0``), Evasion 12."""

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


LARGE: dict[str, str] = {
    "wasteland": """
ruleset: wasteland
order: ORDER
combatants:
  - {id: ana, name: Ana, side: a, at: [0, 0], max_hp: 4, agi_mod: -8, max_map: 3,
     evasion_mod: 10, crit_min: 21, critfail_max: 0, skills: {melee: 2},
     weapons: [{name: knife, kind: melee, damage: 1d4, ap: 4}]}
  - {id: bo, name: Bo, side: b, at: [4, 0], max_hp: 4, agi_mod: -8, max_map: 3,
     evasion_mod: 10, crit_min: 21, critfail_max: 0, skills: {melee: 2},
     weapons: [{name: knife, kind: melee, damage: 1d4, ap: 4}]}
TACTICS""",
}


def mirror(ruleset: str, first: str, tactics: str) -> str:
    """The mirror duel of ``ruleset``, ``first`` acting first, Bo under ``tactics``'
    preset (``default``: no ``tactics:``). A random Bo takes seed 1: its picks are a
    digest of the state, and under seed 0 escalation's Bo, Ana first, picks ending its
    turn in every state it meets (a fight it sits out, ``idle``) since the state's
    house rules changed their name."""
    order = "[ana, bo]" if first == "ana" else "[bo, ana]"
    seed = ", seed: 1" if tactics == "random" else ""
    extra = "" if tactics == "default" else f"tactics: {{bo: {{preset: {tactics}{seed}}}}}\n"
    return {**MIRRORS, **LARGE}[ruleset].replace("ORDER", order).replace("TACTICS", extra)
