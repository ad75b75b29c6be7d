"""soak gaps SK-G1 to SK-G8, ambiguities SK-A1 to SK-A8 (soak.md 1.5, 1.6), and the
health track and sheet contract of 2.1 and 2.2 (hp derived, weapons validated)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from fracas.errors import FileError
from tests.helpers import load_text
from tests.rulesets.soak.support import (
    SWORD,
    act,
    attack_roll,
    damage_roll,
    doc,
    fight,
    log,
    ok,
    refusal,
    rolled,
    sheet,
    soaked,
    who,
)

CLUB = {"name": "club", "dice": "1d6"}

# --- gaps ---------------------------------------------------------------------------------


def test_SK_G1_advantage_keeps_the_higher_d20() -> None:
    p = ok(
        fight(
            who("ana", weapons=[SWORD]),
            who("bo", (1, 0), ev=12),
            actions=[
                act("ana", "attack", "bo", advantage=True, dice={"attack": [3, 12], "damage": [1]})
            ],
        )
    )
    roll = attack_roll(p)
    assert (roll.naturals, roll.natural, roll.hit) == ((3, 12), 12, True)


def test_SK_G1_advantage_and_disadvantage_cancel() -> None:
    chair = {"name": "chair", "improvised": True, "dice": "1d6"}
    p = ok(
        fight(
            who("ana", weapons=[chair]),
            who("bo", (1, 0), ev=12),
            actions=[
                act("ana", "attack", "bo", advantage=True, dice={"attack": 12, "damage": [1]})
            ],
        )
    )
    assert attack_roll(p).naturals == (12,)
    assert rolled(p)[0] == ("attack", 20, 12)


def test_SK_G1_three_ap_a_turn_and_one_per_attack() -> None:
    hit = {"attack": 15, "damage": [1]}
    p = fight(
        who("ana", weapons=[SWORD]),
        who("bo", (1, 0)),
        actions=[act("ana", "attack", "bo", dice=hit) for _ in range(4)],
    )
    assert refusal(p) == (4, "not_enough_ap")
    assert (sheet(p, "ana").ap, sheet(p, "ana").max_ap) == (0, 3)
    assert p.state.get("bo").hp == 20 - 3


def test_SK_G2_beyond_the_last_band_is_out_of_range() -> None:
    bow = {"name": "bow", "attack": "ranged", "dice": "1d6"}
    p = fight(who("ana", weapons=[bow]), who("bo", (31, 0)), actions=[act("ana", "attack", "bo")])
    assert refusal(p) == (1, "out_of_range")
    assert "30" in p.error[1].message if p.error else False


def test_SK_G3_a_material_or_type_missing_from_the_table_takes_100_percent() -> None:
    torch = {"name": "torch", "dice": "1d4", "additional": {"dice": "1d6", "type": "fire"}}
    p = ok(
        fight(
            who("ana", weapons=[torch], max_ap=5),
            who("bo", (1, 0), material="wood"),
            who("cy", (0, 1), material="leather"),
            actions=[
                act("ana", "attack", "bo", dice={"attack": 15, "damage": [1], "additional": [5]}),
                act("ana", "attack", "cy", dice={"attack": 15, "damage": [1], "additional": [5]}),
            ],
            options={"material_percent": {"leather/cold": 0}},
        )
    )
    assert p.state.get("bo").hp == 20 - 1 - 5
    assert p.state.get("cy").hp == 20 - 1 - 5


def test_SK_G4_health_track_of_20_and_superficial_by_default() -> None:
    p = ok(
        fight(
            who("ana", weapons=[CLUB]),
            who("bo", (1, 0)),
            actions=[act("ana", "attack", "bo", dice={"attack": 15, "damage": [4]})],
        )
    )
    bo = p.state.get("bo")
    assert (bo.max_hp, bo.hp, sheet(p, "bo").superficial, sheet(p, "bo").aggravated) == (
        20,
        16,
        4,
        0,
    )


def test_SK_G5_wounds_are_a_counter_only() -> None:
    acts = [act("ana", "attack", "bo", dice={"attack": 10, "damage": [3]})]
    fresh = ok(fight(who("ana", weapons=[CLUB]), who("bo", (1, 0)), actions=acts))
    hurt = ok(
        fight(who("ana", weapons=[CLUB], wounds=7), who("bo", (1, 0), wounds=3), actions=acts)
    )
    assert attack_roll(fresh) == attack_roll(hurt)
    assert fresh.state.get("bo").hp == hurt.state.get("bo").hp == 17
    assert (sheet(hurt, "ana").wounds, sheet(hurt, "bo").wounds) == (7, 3)


@pytest.mark.parametrize(
    ("weapon", "code"),
    [
        ({"name": "x", "dice": "1d6!"}, "bad_dice"),
        ({"name": "x", "dice": "1d8+2"}, "bad_dice"),
        ({"name": "x", "dice": "2d20kl1"}, "bad_dice"),
        ({"name": "x", "dice": "1d1"}, "bad_dice"),
        ({"name": "x", "dice": "1d101"}, "bad_dice"),
        ({"name": "x", "dice": "21d4"}, "bad_dice"),
        ({"name": "x", "dice": "one"}, "bad_dice"),
        ({"name": "x", "dice": [6]}, "bad_dice"),
        ({"name": "x"}, "missing_dice"),
        ({"name": "x", "dice": "1d6", "dv": {"5": 10}}, "bad_weapon"),
        ({"name": "x", "attack": "ranged", "dice": "1d6", "dv": {}}, "bad_dv"),
        ({"name": "x", "attack": "ranged", "dice": "1d6", "dv": {"-1": 10}}, "bad_dv"),
        ({"is": "unarmed", "dice": "1d6"}, "bad_weapon"),
        ({"is": "unarmed", "attack": "ranged"}, "bad_weapon"),
        ({"is": "unarmed", "improvised": True}, "bad_weapon"),
        ({"name": "unarmed", "dice": "1d6"}, "bad_weapon"),
        ({"is": "sword"}, "unknown_shorthand"),
        ({"name": "x", "dice": "1d6", "edge": 1}, "unknown_field"),
        ({"name": "x", "dice": "1d6", "additional": {"dice": "1d4"}}, "missing_field"),
        ({"name": "x", "dice": "1d6", "ap": -1}, "bad_value"),
    ],
)
def test_SK_G6_weapons_are_inputs_checked_as_the_file_is_read(
    weapon: dict[str, Any], code: str
) -> None:
    with pytest.raises(FileError) as exc:
        load_text(json.dumps(doc(who("ana", weapons=[weapon]), who("bo"))))
    assert exc.value.code == code
    assert "combatants[0].weapons[0]" in exc.value.where


def test_SK_G6_weapon_names_are_unique() -> None:
    with pytest.raises(FileError) as exc:
        load_text(json.dumps(doc(who("ana", weapons=[SWORD, SWORD]), who("bo"))))
    assert exc.value.code == "duplicate_weapon"


def test_SK_G6_dice_spellings_become_one_die_each() -> None:
    weapon = {"name": "x", "dice": "2d6+1d4", "upgrades": ["1d8", "2d4"]}
    p = ok(fight(who("ana", weapons=[weapon]), who("bo", (1, 0))))
    w = sheet(p, "ana").weapons[0]
    assert (w.dice, w.upgrades) == (("1d6", "1d6", "1d4"), ("1d8", "1d4", "1d4"))


def test_SK_G7_terrain_and_cover_enter_as_the_modifier() -> None:
    acts = [act("ana", "attack", "bo", modifier=-3, dice={"attack": 12})]
    p = ok(fight(who("ana", weapons=[SWORD]), who("bo", (1, 0), ev=10), actions=acts))
    assert (attack_roll(p).total, attack_roll(p).hit) == (9, False)


def test_SK_G8_additional_damage_never_erodes_av() -> None:
    torch = {"name": "torch", "dice": "1d4", "additional": {"dice": "1d6", "type": "fire"}}
    p = ok(
        fight(
            who("ana", weapons=[torch]),
            who("bo", (1, 0), av=5),
            actions=[
                act("ana", "attack", "bo", dice={"attack": 15, "damage": [2], "additional": [3]})
            ],
        )
    )
    assert (sheet(p, "bo").av, p.state.get("bo").hp) == (5, 17)


# --- ambiguities -------------------------------------------------------------------------


def test_SK_A1_weapon_bonuses_add_penalties_subtract() -> None:
    acts = [act("ana", "attack", "bo", modifier=2, dice={"attack": 8, "damage": [1]})]
    p = ok(fight(who("ana", weapons=[SWORD]), who("bo", (1, 0), ev=10), actions=acts))
    assert attack_roll(p).parts[-1] == ("modifier", 2)
    assert (attack_roll(p).total, attack_roll(p).hit) == (10, True)
    assert "d20 8 + 2 modifier = 10 vs EV 10 -> HIT" in log(p)[-4]


def test_SK_A2_base_equal_to_av_gets_nothing_through_and_keeps_av() -> None:
    acts = [act("ana", "attack", "bo", dice={"attack": 15, "damage": [6]})]
    p = ok(fight(who("ana", weapons=[CLUB]), who("bo", (1, 0), av=6), actions=acts))
    assert soaked(p).through is False
    assert (sheet(p, "bo").av, p.state.get("bo").hp, sheet(p, "bo").wounds) == (6, 20, 0)


def test_SK_A3_a_maximum_that_the_armor_stops_does_not_wound() -> None:
    acts = [act("ana", "attack", "bo", dice={"attack": 15, "damage": [6]})]
    p = ok(fight(who("ana", weapons=[CLUB]), who("bo", (1, 0), av=7), actions=acts))
    assert sheet(p, "bo").wounds == 0
    p = ok(fight(who("ana", weapons=[CLUB]), who("bo", (1, 0), av=5), actions=acts))
    assert sheet(p, "bo").wounds == 1


def test_SK_A4_an_explosion_repeats_while_the_maximum_repeats() -> None:
    acts = [act("ana", "attack", "bo", dice={"attack": 15, "damage": [4, 4, 4, 4, 1]})]
    p = ok(
        fight(
            who("ana", proficiencies=["dagger"], weapons=[{"name": "dagger", "dice": "1d4"}]),
            who("bo", (1, 0)),
            actions=acts,
        )
    )
    assert damage_roll(p).dice[0].faces == (4, 4, 4, 4, 1)
    assert p.state.get("bo").hp == 3


def test_SK_A5_a_crit_without_proficiency_maxes_but_does_not_explode() -> None:
    acts = [act("ana", "attack", "bo", dice={"attack": 20})]
    p = ok(
        fight(who("ana", weapons=[{"name": "d", "dice": "1d4"}]), who("bo", (1, 0)), actions=acts)
    )
    assert [(d.faces, d.maxed) for d in damage_roll(p).dice] == [((4,), True)]
    assert rolled(p) == [("attack", 20, 20)]


def test_SK_A6_the_skill_in_base_damage_is_the_skill_used_to_hit() -> None:
    whip = {"name": "whip", "dice": "1d4", "skill": "whips"}
    acts = [act("ana", "attack", "bo", dice={"attack": 15, "damage": [1]})]
    p = ok(
        fight(
            who("ana", skills={"dueling": 9, "whips": 2}, weapons=[whip]),
            who("bo", (1, 0)),
            actions=acts,
        )
    )
    assert damage_roll(p).parts == (("whips", 2),)
    assert p.state.get("bo").hp == 17


@pytest.mark.parametrize(("proficiencies", "base"), [(["club"], 3 + 4), (["chair"], 3)])
def test_SK_A7_improvised_strength_needs_proficiency_with_the_similar_weapon(
    proficiencies: list[str], base: int
) -> None:
    chair = {"name": "chair", "type": "club", "improvised": True, "dice": "1d6"}
    acts = [act("ana", "attack", "bo", dice={"attack": [15, 15], "damage": [3]})]
    p = ok(
        fight(
            who("ana", strength=4, proficiencies=proficiencies, weapons=[chair]),
            who("bo", (1, 0)),
            actions=acts,
        )
    )
    assert damage_roll(p).base == base


def test_SK_A8_unarmed_damage_is_soaked_like_base_damage() -> None:
    acts = [act("ana", "attack", "bo", dice={"attack": 15})]
    p = ok(fight(who("ana", skills={"brawling": 3}), who("bo", (1, 0), av=3), actions=acts))
    assert (soaked(p).base, soaked(p).through, p.state.get("bo").hp) == (3, False, 20)
    p = ok(fight(who("ana", skills={"brawling": 5}), who("bo", (1, 0), av=3), actions=acts))
    assert (p.state.get("bo").hp, sheet(p, "bo").av) == (18, 2)


# --- 2.1: hp is derived from the health track ------------------------------------------------


def test_contract_hp_given_in_a_file_sets_superficial() -> None:
    p = ok(
        fight(
            who("ana", hp=12),
            who("bo", (1, 0), hp=10, aggravated=4, max_hp=30),
            who("cy", (2, 0), superficial=5, aggravated=2),
        )
    )
    assert (p.state.get("ana").hp, sheet(p, "ana").superficial) == (12, 8)
    assert (p.state.get("bo").hp, sheet(p, "bo").superficial) == (10, 16)
    assert (p.state.get("cy").hp, sheet(p, "cy").superficial) == (13, 5)


@pytest.mark.parametrize(
    "fields",
    [
        {"hp": 18, "aggravated": 5},  # 18 + 5 > 20
        {"hp": 10, "superficial": 3},  # 10 means superficial 10
    ],
)
def test_contract_hp_that_cannot_agree_with_the_track_is_an_error(fields: dict[str, Any]) -> None:
    with pytest.raises(FileError) as exc:
        load_text(json.dumps(doc(who("ana", **fields), who("bo"))))
    assert exc.value.code == "bad_value"
    assert "combatants[0]" in exc.value.where


def test_contract_hp_0_is_any_full_track() -> None:
    p = ok(fight(who("ana", hp=0, aggravated=25), who("bo", (1, 0), hp=0, superficial=26)))
    assert (sheet(p, "ana").superficial, p.state.get("ana").hp) == (0, 0)
    assert (sheet(p, "bo").superficial, p.state.get("bo").hp) == (26, 0)


def test_contract_set_hp_superficial_aggravated_and_max_hp_keep_the_track_whole() -> None:
    p = ok(
        fight(
            who("ana"),
            who("bo", (1, 0)),
            actions=[
                act("bo", "set", hp=15),
                act("ana", "set", superficial=3, aggravated=4),
                act("ana", "set", max_hp=10),
            ],
        )
    )
    assert (p.state.get("bo").hp, sheet(p, "bo").superficial) == (15, 5)
    assert (p.state.get("ana").hp, p.state.get("ana").max_hp) == (3, 10)
    assert "GM sets bo: hp: 15, superficial: 5" in log(p)
    p = fight(who("ana", aggravated=10), who("bo"), actions=[act("ana", "set", hp=15)])
    assert refusal(p) == (1, "bad_value")


def test_contract_option_defaults_fill_the_sheet() -> None:
    p = ok(
        fight(
            who("ana", weapons=[{"name": "bow", "attack": "ranged", "dice": "1d6"}]),
            who("bo", (1, 0), ev=14, max_ap=5, ap=2),
            options={"max_hp": 25, "ev": 11, "max_ap": 4, "attack_ap": 2, "dv_table": {"9": 12}},
        )
    )
    ana, bo = sheet(p, "ana"), sheet(p, "bo")
    assert (p.state.get("ana").max_hp, ana.ev, ana.max_ap, ana.ap) == (25, 11, 4, 4)
    assert (bo.ev, bo.max_ap) == (14, 5)
    assert bo.ap == 2  # bo's turn has not started yet
    assert (ana.weapons[0].ap, ana.weapons[0].dv) == (2, {9: 12})
