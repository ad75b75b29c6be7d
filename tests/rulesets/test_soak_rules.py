"""soak rules SK-1 to SK-16 and the worked example (soak.md 1.3, 2.7).

Each test fixes every die its actions roll, so health, AV, wounds and AP are exact.
Gaps (SK-G*) and ambiguities (SK-A*) are in ``test_soak_gaps.py``, options in
``test_soak_options.py``, refusals in ``test_soak_refusals.py``.
"""

from __future__ import annotations

import importlib
import re

import pytest

from fracas.rulesets.base import is_down
from tests.helpers import play
from tests.rulesets.soak_support import (
    SWORD,
    act,
    attack_roll,
    damage_roll,
    fight,
    log,
    ok,
    rolled,
    sheet,
    soaked,
    who,
)

# --- the worked example (2.7) -------------------------------------------------------

EXAMPLE = """
ruleset: soak
combatants:                     # order by initiative: kai 15, rook 9
  - id: kai
    at: [0, 0]
    initiative: 15
    agility: 3
    strength: 2
    skills: {dueling: 2}
    proficiencies: [sword]
    ev: 12
    av: 2
    weapons: [{name: sword, dice: 1d8, upgrades: [1d4]}]
  - id: rook
    at: [1, 0]
    initiative: 9
    agility: 1
    strength: 3
    skills: {dueling: 1}
    proficiencies: [axe]
    ev: 11
    av: 4
    max_hp: 30
    weapons: [{name: axe, dice: 1d10, additional: {dice: 1d4, type: fire}}]
actions:
  - actor: kai
    do: attack
    target: rook
    dice: {attack: 9, damage: [8, 3, 2]}
  - actor: rook
    do: attack
    target: kai
    dice: {attack: 11, damage: [3], additional: [4, 2]}
  - actor: kai
    do: attack
    target: rook
    disadvantage: true
    dice: {attack: [18, 10], damage: [5, 4, 1]}
"""


def test_worked_example_2_7() -> None:
    p = ok(play(EXAMPLE))
    kai, rook = p.state.get("kai"), p.state.get("rook")
    assert p.state.order == ("kai", "rook")
    assert (kai.hp, kai.max_hp, rook.hp, rook.max_hp) == (9, 20, 6, 30)
    k, r = sheet(p, "kai"), sheet(p, "rook")
    assert (k.av, k.wounds, k.superficial, k.aggravated) == (1, 1, 11, 0)
    assert (r.av, r.wounds, r.superficial, r.aggravated) == (2, 2, 24, 0)
    assert (p.state.round, k.ap, r.ap) == (2, 2, 2)
    # Action 1: 9 + 3 + 2 = 14 >= EV 11; d8 8 explodes + 3, d4 2: 13 + 2 + 2 = 17 vs AV 4.
    a1 = attack_roll(p, 1)
    assert (a1.total, a1.hit, a1.against) == (14, True, "EV 11")
    assert damage_roll(p, 1).base == 17
    s1 = soaked(p, 1)
    assert (s1.av, s1.av_after, s1.damage) == (4, 3, 13)
    # Action 2: the fire d4 explodes; kai takes 5 + 6.
    assert damage_roll(p, 2).base == 7
    assert soaked(p, 2).damage == 5
    # Action 3: disadvantage keeps the 10.
    a3 = attack_roll(p, 3)
    assert (a3.naturals, a3.natural, a3.total) == ((18, 10), 10, 15)
    assert (damage_roll(p, 3).base, soaked(p, 3).damage) == (14, 11)
    lines = log(p)
    assert "  base damage: d8 8+3 (explodes), d4 2 + 2 dueling + 2 strength = 17" in lines
    assert "  base 17 vs rook's AV 4: 13 gets through; AV 4 -> 3" in lines
    assert "  rook takes 13 superficial damage (base damage): HP 30 -> 17" in lines
    assert "  additional fire damage: d4 4+2 (explodes) = 6; 100% vs no armor material: 6" in lines
    assert "  kai takes 6 superficial damage (additional fire): HP 15 -> 9" in lines
    assert "  rook is wounded (a d4 showed its maximum): wounds 1 -> 2" in lines


# --- SK-1: initiative and AP ----------------------------------------------------------


def test_SK_1_initiative_is_d20_plus_agility_highest_first() -> None:
    p = ok(
        fight(
            who("ana", agility=1),
            who("bo", (1, 0), agility=4),
            who("cy", (2, 0), agility=0),
            order=None,
            dice={"initiative:ana": 12, "initiative:bo": 5, "initiative:cy": 17},
        )
    )
    assert p.state.order == ("cy", "ana", "bo")  # 17, 13, 9
    assert [sheet(p, c).initiative for c in ("ana", "bo", "cy")] == [13, 9, 17]
    assert rolled(p, 0) == [
        ("initiative:ana", 20, 12),
        ("initiative:bo", 20, 5),
        ("initiative:cy", 20, 17),
    ]
    assert p.state.turn.actor == "cy"
    assert log(p)[0] == "ana rolls initiative: d20 12 + 1 agility = 13"
    assert "initiative order: cy 17, ana 13, bo 9" in log(p)


def test_SK_1_a_sheet_initiative_is_used_and_not_rolled() -> None:
    p = ok(
        fight(
            who("ana", initiative=5),
            who("bo", (1, 0), agility=2),
            order=None,
            dice={"initiative:bo": 4},
        )
    )
    assert p.state.order == ("bo", "ana")  # 4 + 2 = 6 beats 5
    assert [r[0] for r in rolled(p, 0)] == ["initiative:bo"]
    assert (sheet(p, "ana").initiative, sheet(p, "bo").initiative) == (5, 6)


def test_SK_1_initiative_ties_go_to_higher_agility_then_the_file_order() -> None:
    p = ok(
        fight(
            who("ana", initiative=10, agility=1),
            who("bo", (1, 0), initiative=10, agility=2),
            who("cy", (2, 0), initiative=10, agility=1),
            order=None,
        )
    )
    assert p.state.order == ("bo", "ana", "cy")


def test_SK_1_the_file_order_wins_over_initiative() -> None:
    p = ok(fight(who("ana", initiative=1), who("bo", (1, 0), initiative=20), order=["ana", "bo"]))
    assert p.state.order == ("ana", "bo")
    assert rolled(p, 0) == []


def test_SK_1_a_set_initiative_reorders_the_turns_highest_first() -> None:
    # ana 13, bo 9: ana first. The GM sets ana's initiative to 1: bo 9 is now first. The
    # turn in progress (ana's) goes on; the next is the one after it in the new order, so
    # round 2 begins with bo.
    p = ok(
        fight(
            who("ana", agility=1),
            who("bo", (1, 0), agility=4),
            order=None,
            dice={"initiative:ana": 12, "initiative:bo": 5},
            actions=[act("ana", "set", initiative=1), act("ana", "end_turn")],
        )
    )
    assert sheet(p, "ana").initiative == 1
    assert p.state.order == ("bo", "ana")
    assert (p.state.round, p.state.turn.actor) == (2, "bo")
    assert "GM sets ana: initiative: 1; turn order: bo, ana" in log(p)


def test_SK_1_a_set_initiative_ties_go_to_higher_agility_then_the_file_order() -> None:
    p = ok(
        fight(
            who("ana", initiative=10, agility=1),
            who("bo", (1, 0), initiative=12, agility=1),
            who("cy", (2, 0), initiative=3, agility=2),
            order=None,
            actions=[act("cy", "set", initiative=10), act("bo", "set", initiative=10)],
        )
    )
    assert p.state.order == ("cy", "ana", "bo")  # all 10: cy's agility 2, then the file


def test_SK_1_a_set_of_other_fields_or_under_file_order_keeps_the_order() -> None:
    people = (who("ana", initiative=1), who("bo", (1, 0), initiative=20))
    kept = ok(fight(*people, order=["ana", "bo"], actions=[act("bo", "set", hp=5)]))
    assert kept.state.order == ("ana", "bo")  # the file's order stands until initiative is set
    files = ok(
        fight(
            *people,
            order=None,
            options={"initiative": "file_order"},
            actions=[act("bo", "set", initiative=30), act("ana", "set", initiative=0)],
        )
    )
    assert files.state.order == ("ana", "bo")
    assert "GM sets ana: initiative: 0" in log(files)
    # Combatants without an initiative (the file gave the order): nothing to rank by.
    unranked = ok(
        fight(
            who("ana"),
            who("bo", (1, 0)),
            order=["ana", "bo"],
            actions=[act("bo", "set", initiative=9)],
        )
    )
    assert unranked.state.order == ("ana", "bo")


def test_SK_1_attacks_spend_ap_and_the_turn_start_refills_them() -> None:
    hit = {"attack": 15, "damage": [1]}
    p = ok(
        fight(
            who("ana", weapons=[SWORD, {"name": "maul", "dice": "1d8", "ap": 2}]),
            who("bo", (1, 0), max_hp=99),
            actions=[
                act("ana", "attack", "bo", dice=hit),
                act("ana", "attack", "bo", weapon="maul", dice=hit),
                act("bo", "end_turn"),  # ana's turn ends: 0 AP left
                act("ana", "attack", "bo", dice=hit),  # round 2: full again
            ],
        )
    )
    assert attack_roll(p, 1).ap_left == 2
    assert attack_roll(p, 2).ap_left == 0
    assert sheet(p, "ana").ap == 2
    assert p.state.round == 2
    assert "  ana's AP: 0 -> 3" in log(p)


def test_SK_1_a_turn_with_ap_left_does_not_refill_more_than_max() -> None:
    p = ok(fight(who("ana", max_ap=2), who("bo", (1, 0)), actions=[act("ana", "end_turn")]))
    assert sheet(p, "ana").ap == 2 and sheet(p, "ana").max_ap == 2


# --- SK-2 to SK-6: to hit ---------------------------------------------------------------


def test_SK_2_total_is_d20_plus_agility_plus_skill_plus_modifier() -> None:
    p = ok(
        fight(
            who("ana", agility=3, skills={"dueling": 4}, weapons=[SWORD]),
            who("bo", (1, 0), ev=30),
            actions=[act("ana", "attack", "bo", modifier=-2, dice={"attack": 11})],
        )
    )
    roll = attack_roll(p)
    assert roll.parts == (("agility", 3), ("dueling", 4), ("modifier", -2))
    assert (roll.natural, roll.total, roll.hit) == (11, 16, False)
    assert rolled(p) == [("attack", 20, 11)]  # a miss rolls no damage


def test_SK_2_ranged_weapons_use_marksmanship_and_a_named_skill_overrides() -> None:
    bow = {"name": "bow", "attack": "ranged", "dice": "1d6"}
    whip = {"name": "whip", "dice": "1d4", "skill": "whips"}
    skills = {"dueling": 1, "marksmanship": 2, "whips": 5}
    p = ok(
        fight(
            who("ana", skills=skills, weapons=[bow, whip]),
            who("bo", (1, 0), ev=30, max_hp=99),
            actions=[
                act("ana", "attack", "bo", dice={"attack": 2}),
                act("ana", "attack", "bo", weapon="whip", dice={"attack": 2}),
            ],
        )
    )
    assert attack_roll(p, 1).parts == (("agility", 0), ("marksmanship", 2))
    assert attack_roll(p, 2).parts == (("agility", 0), ("whips", 5))


@pytest.mark.parametrize(("natural", "hit"), [(9, True), (8, False)])
def test_SK_3_melee_hits_when_the_total_meets_the_ev(natural: int, hit: bool) -> None:
    p = ok(
        fight(
            who("ana", agility=1, skills={"dueling": 2}, weapons=[SWORD]),
            who("bo", (1, 0), ev=12),
            actions=[
                act("ana", "attack", "bo", dice={"attack": natural, "damage": [4]} if hit else {
                    "attack": natural})
            ],
        )
    )  # fmt: skip
    roll = attack_roll(p)
    assert (roll.total, roll.against, roll.hit) == (natural + 3, "EV 12", hit)
    assert p.state.get("bo").hp == (20 - 6 if hit else 20)  # 4 + 2 dueling vs AV 0


@pytest.mark.parametrize(
    ("distance", "dv"),
    [(0, 10), (1, 10), (5, 10), (6, 13), (15, 13), (16, 16), (30, 16)],
)
def test_SK_4_ranged_attacks_meet_the_dv_of_the_range_band(distance: int, dv: int) -> None:
    bow = {"name": "bow", "attack": "ranged", "dice": "1d6"}
    # The target's EV (30) plays no part: the DV for the range does (SK-4).
    base = [who("ana", weapons=[bow]), who("bo", (distance, 0), ev=30)]
    p_hit = ok(
        fight(*base, actions=[act("ana", "attack", "bo", dice={"attack": dv, "damage": [2]})])
    )
    roll = attack_roll(p_hit)
    assert (roll.total, roll.hit) == (dv, True)
    assert roll.against.startswith(f"DV {dv} (")
    assert p_hit.state.get("bo").hp == 18
    p_miss = ok(fight(*base, actions=[act("ana", "attack", "bo", dice={"attack": dv - 1})]))
    assert attack_roll(p_miss).hit is False


def test_SK_4_a_weapons_own_dv_table_and_the_band_in_the_log() -> None:
    gun = {"name": "gun", "attack": "ranged", "dice": "1d6", "dv": {"3": 8, "40": 15}}
    p = ok(
        fight(
            who("ana", weapons=[gun]),
            who("bo", (20, 0)),
            actions=[act("ana", "attack", "bo", dice={"attack": 14})],
        )
    )
    roll = attack_roll(p)
    assert (roll.against, roll.hit) == ("DV 15 (4-40 tiles: 20)", False)


def test_SK_5_natural_20_hits_and_maxes_every_die_which_explodes_with_proficiency() -> None:
    sword = {"name": "sword", "dice": "1d8", "upgrades": ["1d4"]}
    p = ok(
        fight(
            who("ana", agility=-10, strength=1, proficiencies=["sword"], weapons=[sword]),
            who("bo", (1, 0), ev=40, max_hp=40),
            actions=[act("ana", "attack", "bo", dice={"attack": 20, "damage": [2, 4, 3]})],
        )
    )
    roll = attack_roll(p)
    assert (roll.total, roll.critical, roll.hit) == (10, True, True)  # 10 < EV 40: hits anyway
    # The d8 counts as 8 without a roll and explodes (2); the d4 counts 4, explodes 4, 3.
    dmg = damage_roll(p)
    assert [(d.sides, d.faces, d.maxed) for d in dmg.dice] == [
        (8, (8, 2), True),
        (4, (4, 4, 3), True),
    ]
    assert dmg.base == 8 + 2 + 4 + 4 + 3 + 1
    assert rolled(p) == [("attack", 20, 20), ("damage", 8, 2), ("damage", 4, 4), ("damage", 4, 3)]
    assert p.state.get("bo").hp == 40 - 22
    assert sheet(p, "bo").wounds == 1
    assert "d8 [8]+2 (explodes), d4 [4]+4+3 (explodes)" in log(p)[-4]


def test_SK_5_natural_20_without_proficiency_maxes_the_dice_and_rolls_none() -> None:
    p = ok(
        fight(
            who("ana", strength=5, weapons=[{"name": "axe", "dice": "2d6"}]),
            who("bo", (1, 0), av=3),
            actions=[act("ana", "attack", "bo", dice={"attack": 20})],
        )
    )
    assert rolled(p) == [("attack", 20, 20)]
    assert damage_roll(p).base == 12  # 6 + 6, no Strength (SK-8), no explosion (SK-A5)
    assert p.state.get("bo").hp == 20 - 9
    assert sheet(p, "bo").wounds == 1


def test_SK_5_a_natural_20_line_is_marked_critical_hit_for_a_face() -> None:
    p = ok(
        fight(
            who("ana", weapons=[SWORD]),
            who("bo", (1, 0), ev=5),
            actions=[
                act("ana", "attack", "bo", dice={"attack": 20}),
                act("ana", "attack", "bo", dice={"attack": 19, "damage": [1]}),
            ],
        )
    )
    crit, plain = attack_roll(p, 1), attack_roll(p, 2)
    assert (type(crit).__name__, crit.tone) == ("CriticalAttackRolled", "critical_hit")
    assert (type(plain).__name__, plain.tone) == ("AttackRolled", "")
    assert (
        "ana attacks bo with sword (1 AP, 2 left): d20 20 = 20 vs EV 5 -> natural 20: CRITICAL HIT"
        in log(p)
    )


def test_SK_6_natural_1_has_no_effect_of_its_own() -> None:
    p = ok(
        fight(
            who("ana", agility=5, skills={"dueling": 5}, weapons=[SWORD]),
            who("bo", (1, 0), ev=11),
            actions=[act("ana", "attack", "bo", dice={"attack": 1, "damage": [3]})],
        )
    )
    roll = attack_roll(p)
    assert (roll.natural, roll.total, roll.hit, roll.critical) == (1, 11, True, False)
    assert p.state.get("bo").hp == 20 - 8


# --- SK-7 to SK-11: damage ----------------------------------------------------------------


def test_SK_7_a_proficient_die_explodes_again_while_it_shows_its_maximum() -> None:
    p = ok(
        fight(
            who("ana", proficiencies=["knife"], weapons=[{"name": "knife", "dice": "1d6"}]),
            who("bo", (1, 0), max_hp=50),
            actions=[act("ana", "attack", "bo", dice={"attack": 15, "damage": [6, 6, 6, 2]})],
        )
    )
    assert damage_roll(p).dice[0].faces == (6, 6, 6, 2)
    assert damage_roll(p).base == 20
    assert p.state.get("bo").hp == 30


def test_SK_7_without_proficiency_a_maximum_does_not_explode() -> None:
    p = ok(
        fight(
            who("ana", proficiencies=["axe"], weapons=[{"name": "knife", "dice": "1d6"}]),
            who("bo", (1, 0)),
            actions=[act("ana", "attack", "bo", dice={"attack": 15, "damage": [6]})],
        )
    )
    assert rolled(p) == [("attack", 20, 15), ("damage", 6, 6)]
    assert p.state.get("bo").hp == 14
    assert sheet(p, "bo").wounds == 1  # a maximum still wounds (SK-14)


def test_SK_7_dice_then_upgrades_each_explosion_right_after_its_die() -> None:
    sword = {"name": "sword", "dice": ["1d8", "1d6"], "upgrades": "1d4+1d4"}
    p = ok(
        fight(
            who("ana", proficiencies=["sword"], weapons=[sword]),
            who("bo", (1, 0), max_hp=60),
            actions=[
                act(
                    "ana",
                    "attack",
                    "bo",
                    dice={"attack": 12, "damage": [8, 1, 6, 6, 2, 3, 4, 4, 1]},
                )
            ],
        )
    )
    assert [(d.sides, d.faces) for d in damage_roll(p).dice] == [
        (8, (8, 1)),
        (6, (6, 6, 2)),
        (4, (3,)),
        (4, (4, 4, 1)),
    ]
    assert [r[1] for r in rolled(p)] == [20, 8, 8, 6, 6, 6, 4, 4, 4, 4]
    assert p.state.get("bo").hp == 60 - 35


@pytest.mark.parametrize(("proficient", "base"), [(True, 5 + 2 + 3), (False, 5 + 2)])
def test_SK_8_base_damage_is_dice_plus_skill_plus_strength_when_proficient(
    proficient: bool, base: int
) -> None:
    p = ok(
        fight(
            who(
                "ana",
                strength=3,
                skills={"dueling": 2},
                proficiencies=["sword"] if proficient else [],
                weapons=[SWORD],
            ),
            who("bo", (1, 0), av=1),
            actions=[act("ana", "attack", "bo", dice={"attack": 15, "damage": [5]})],
        )
    )
    assert damage_roll(p).base == base
    assert p.state.get("bo").hp == 20 - (base - 1)


def test_SK_8_a_weapons_type_is_what_proficiency_names() -> None:
    blade = {"name": "old blade", "type": "sword", "dice": "1d4"}
    p = ok(
        fight(
            who("ana", strength=2, proficiencies=["sword"], weapons=[blade]),
            who("bo", (1, 0)),
            actions=[act("ana", "attack", "bo", dice={"attack": 15, "damage": [4, 1]})],
        )
    )
    assert damage_roll(p).base == 4 + 1 + 2


def test_SK_9_additional_damage_is_not_soaked_and_explodes_with_proficiency() -> None:
    axe = {"name": "axe", "dice": "1d4", "additional": {"dice": "1d6", "type": "fire"}}
    p = ok(
        fight(
            who("ana", proficiencies=["axe"], weapons=[axe]),
            who("bo", (1, 0), av=9),
            actions=[
                act("ana", "attack", "bo", dice={"attack": 15, "damage": [2], "additional": [6, 3]})
            ],
        )
    )
    # Base 2 < AV 9: nothing through, AV kept; the fire (6 + 3) goes around the armor.
    assert soaked(p).through is False
    assert sheet(p, "bo").av == 9
    assert p.state.get("bo").hp == 20 - 9
    assert sheet(p, "bo").superficial == 9
    assert rolled(p) == [
        ("attack", 20, 15),
        ("damage", 4, 2),
        ("additional", 6, 6),
        ("additional", 6, 3),
    ]


def test_SK_9_additional_dice_are_never_upgraded_and_do_not_explode_without_proficiency() -> None:
    axe = {
        "name": "axe",
        "dice": "1d4",
        "upgrades": ["1d4"],
        "additional": {"dice": "1d6", "type": "acid"},
    }
    p = ok(
        fight(
            who("ana", weapons=[axe]),
            who("bo", (1, 0)),
            actions=[
                act("ana", "attack", "bo", dice={"attack": 15, "damage": [1, 1], "additional": [6]})
            ],
        )
    )
    assert [r[0] for r in rolled(p)] == ["attack", "damage", "damage", "additional"]
    assert p.state.get("bo").hp == 20 - 2 - 6


def test_SK_10_improvised_weapons_attack_at_disadvantage_without_upgrades() -> None:
    chair = {
        "name": "chair",
        "type": "club",
        "improvised": True,
        "dice": "1d6",
        "upgrades": ["1d8"],
    }
    p = ok(
        fight(
            who("ana", strength=2, proficiencies=["club"], weapons=[chair]),
            who("bo", (1, 0), ev=10),
            actions=[act("ana", "attack", "bo", dice={"attack": [15, 9]})],
        )
    )
    roll = attack_roll(p)
    assert (roll.naturals, roll.natural, roll.hit) == ((15, 9), 9, False)
    p = ok(
        fight(
            who("ana", strength=2, proficiencies=["club"], weapons=[chair]),
            who("bo", (1, 0), ev=10),
            actions=[act("ana", "attack", "bo", dice={"attack": [12, 19], "damage": [6, 2]})],
        )
    )
    assert attack_roll(p).natural == 12
    # The d8 upgrade is not rolled; proficient with clubs (the similar weapon): the d6
    # explodes and Strength adds (SK-A7).
    assert [r[1] for r in rolled(p)] == [20, 20, 6, 6]
    assert damage_roll(p).base == 6 + 2 + 2


def test_SK_10_an_improvised_natural_20_is_the_kept_die() -> None:
    chair = {"name": "chair", "improvised": True, "dice": "1d6"}
    p = ok(
        fight(
            who("ana", weapons=[chair]),
            who("bo", (1, 0)),
            actions=[act("ana", "attack", "bo", dice={"attack": [20, 4]})],
        )
    )
    roll = attack_roll(p)
    assert (roll.natural, roll.critical, roll.hit) == (4, False, False)


def test_SK_11_unarmed_hits_with_agility_and_brawling_and_deals_brawling() -> None:
    p = ok(
        fight(
            who("ana", agility=2, strength=5, skills={"brawling": 4, "dueling": 9},
                proficiencies=["unarmed"], weapons=[SWORD]),
            who("bo", (1, 0), ev=12, av=1),
            actions=[act("ana", "attack", "bo", weapon="unarmed", dice={"attack": 6})],
        )
    )  # fmt: skip
    roll = attack_roll(p)
    assert roll.parts == (("agility", 2), ("brawling", 4))
    assert (roll.total, roll.hit) == (12, True)
    assert rolled(p) == [("attack", 20, 6)]  # no damage die
    assert damage_roll(p).base == 4  # Brawling only: no Strength
    assert p.state.get("bo").hp == 17
    assert (sheet(p, "bo").av, sheet(p, "bo").wounds) == (0, 0)  # no die: no wound


def test_SK_11_unarmed_is_the_default_without_weapons_and_a_named_unarmed_entry_works() -> None:
    fists = {"is": "unarmed", "name": "fists", "ap": 2}
    p = ok(
        fight(
            who("ana", skills={"brawling": 2}),
            who("bo", (1, 0), skills={"brawling": 3}, weapons=[fists]),
            actions=[
                act("ana", "attack", "bo", dice={"attack": 10}),
                act("bo", "attack", "ana", weapon="fists", dice={"attack": 10}),
            ],
        )
    )
    assert attack_roll(p, 1).weapon == "unarmed"
    assert p.state.get("bo").hp == 18
    assert (attack_roll(p, 2).weapon, attack_roll(p, 2).cost) == ("fists", 2)
    assert p.state.get("ana").hp == 17


# --- SK-12 to SK-16: soak and application ---------------------------------------------------


@pytest.mark.parametrize(
    ("face", "through", "damage", "av_after"),
    [(6, True, 2, 3), (5, True, 1, 3), (4, False, 0, 4), (1, False, 0, 4)],
)
def test_SK_12_only_base_damage_above_av_gets_through(
    face: int, through: bool, damage: int, av_after: int
) -> None:
    p = ok(
        fight(
            who("ana", weapons=[{"name": "club", "dice": "1d6"}]),
            who("bo", (1, 0), av=4),
            actions=[act("ana", "attack", "bo", dice={"attack": 15, "damage": [face]})],
        )
    )
    s = soaked(p)
    assert (s.base, s.through, s.damage) == (face, through, damage)
    assert sheet(p, "bo").av == av_after
    assert p.state.get("bo").hp == 20 - damage


def test_SK_13_av_drops_by_one_per_attack_that_gets_through_never_below_0() -> None:
    hit = {"attack": 15, "damage": [5]}
    p = ok(
        fight(
            who("ana", weapons=[{"name": "club", "dice": "1d6"}], max_ap=9),
            who("bo", (1, 0), av=1, max_hp=50),
            actions=[act("ana", "attack", "bo", dice=hit) for _ in range(3)],
        )
    )
    assert [soaked(p, i).av for i in (1, 2, 3)] == [1, 0, 0]
    assert sheet(p, "bo").av == 0
    assert p.state.get("bo").hp == 50 - 4 - 5 - 5
    assert "AV stays 0 (floor)" in log(p)[-2]


def test_SK_14_one_wound_per_attack_however_many_maximums() -> None:
    p = ok(
        fight(
            who("ana", weapons=[{"name": "flail", "dice": "3d4"}]),
            who("bo", (1, 0)),
            actions=[act("ana", "attack", "bo", dice={"attack": 15, "damage": [4, 4, 4]})],
        )
    )
    assert sheet(p, "bo").wounds == 1
    assert p.state.get("bo").hp == 8


def test_SK_14_no_maximum_no_wound_and_a_blocked_maximum_does_not_wound() -> None:
    club = {"name": "club", "dice": "1d6"}
    p = ok(
        fight(
            who("ana", weapons=[club], max_ap=5),
            who("bo", (1, 0), av=6),
            actions=[
                act("ana", "attack", "bo", dice={"attack": 15, "damage": [5]}),
                act("ana", "attack", "bo", dice={"attack": 15, "damage": [6]}),  # 6 = AV 6
            ],
        )
    )
    assert sheet(p, "bo").wounds == 0
    assert (p.state.get("bo").hp, sheet(p, "bo").av) == (20, 6)


def test_SK_14_an_additional_die_at_its_maximum_wounds() -> None:
    axe = {"name": "axe", "dice": "1d6", "additional": {"dice": "1d4", "type": "fire"}}
    p = ok(
        fight(
            who("ana", weapons=[axe]),
            who("bo", (1, 0)),
            actions=[
                act("ana", "attack", "bo", dice={"attack": 15, "damage": [2], "additional": [4]})
            ],
        )
    )
    assert sheet(p, "bo").wounds == 1
    assert log(p)[-1] == "  bo is wounded (a d4 showed its maximum): wounds 0 -> 1"


def test_SK_15_damage_goes_to_the_health_track_as_superficial_or_aggravated() -> None:
    weapons = [SWORD, {"name": "claw", "dice": "1d6", "damage_kind": "aggravated"}]
    p = ok(
        fight(
            who("ana", weapons=weapons),
            who("bo", (1, 0)),
            actions=[
                act("ana", "attack", "bo", dice={"attack": 15, "damage": [3]}),
                act("ana", "attack", "bo", weapon="claw", dice={"attack": 15, "damage": [5]}),
            ],
        )
    )
    b = sheet(p, "bo")
    assert (b.superficial, b.aggravated, p.state.get("bo").hp) == (3, 5, 12)
    assert "  bo takes 5 aggravated damage (base damage): HP 17 -> 12" in log(p)


def test_SK_15_a_full_health_track_is_down() -> None:
    p = ok(
        fight(
            who("ana", weapons=[{"name": "maul", "dice": "1d10"}]),
            who("bo", (1, 0), hp=3, aggravated=5),
            actions=[act("ana", "attack", "bo", dice={"attack": 15, "damage": [9]})],
        )
    )
    bo = p.state.get("bo")
    assert (bo.hp, sheet(p, "bo").superficial, sheet(p, "bo").aggravated) == (0, 21, 5)
    assert is_down(p.file.ruleset, bo)


def test_SK_16_additional_damage_in_full_times_the_material_percent() -> None:
    axe = {
        "name": "axe",
        "dice": "1d4",
        "additional": {"dice": "1d6", "type": "fire", "kind": "aggravated"},
    }
    p = ok(
        fight(
            who("ana", weapons=[axe], max_ap=5),
            who("bo", (1, 0), av=2, material="leather"),
            who("cy", (0, 1), av=2, material="plate"),
            actions=[
                act("ana", "attack", "bo", dice={"attack": 15, "damage": [1], "additional": [5]}),
                act("ana", "attack", "cy", dice={"attack": 15, "damage": [1], "additional": [5]}),
            ],
            options={"material_percent": {"leather/fire": 150, "plate/fire": 30}},
        )
    )
    assert sheet(p, "bo").aggravated == 7  # 5 * 150% = 7.5, floor
    assert sheet(p, "cy").aggravated == 1  # 5 * 30% = 1.5, floor
    assert sheet(p, "bo").av == 2  # additional damage never erodes AV (SK-G8)
    assert "  additional fire damage: d6 5 = 5; 150% vs leather: 7" in log(p)


def test_P_SK_1_the_roll_order_attack_damage_additional() -> None:
    axe = {
        "name": "axe",
        "dice": "1d8",
        "upgrades": ["1d4"],
        "additional": {"dice": "2d6", "type": "cold"},
    }
    p = ok(
        fight(
            who("ana", weapons=[axe]),
            who("bo", (1, 0), max_hp=60),
            actions=[act("ana", "attack", "bo", advantage=True)],
        )
    )
    assert [(r[0], r[1]) for r in rolled(p)] in (
        [("attack", 20)] * 2,  # a miss stops after the d20s
        [("attack", 20)] * 2 + [("damage", 8), ("damage", 4), ("additional", 6), ("additional", 6)],
    )


def test_every_rule_gap_and_ambiguity_has_a_test_named_for_it() -> None:
    names: list[str] = []
    for module in ("rules", "gaps", "options", "odds"):
        mod = importlib.import_module(f"tests.rulesets.test_soak_{module}")
        names += [n for n in dir(mod) if n.startswith("test_")]
    ids = [f"SK_{n}" for n in range(1, 17)]
    ids += [f"SK_G{n}" for n in range(1, 9)] + [f"SK_A{n}" for n in range(1, 9)]
    for rule in ids:
        assert any(re.search(rf"_{rule}_", n) for n in names), rule
