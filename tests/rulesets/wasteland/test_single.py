"""wasteland part 2: the single-shot attack end to end (P-WL-1): AP (WL-5), the roll
(WL-6, WL-7), CRIT and CRITFAIL (WL-9, WL-10, WL-G4), hit location (WL-11), Glancing
(WL-12), cover (WL-13), damage (WL-14), Sneak (WL-17), Bonus Melee Damage (WL-18), HP
and dying (WL-19), Cripple Thresholds and injuries (WL-20 to WL-22), effects (WL-23).

Unless a test says otherwise: ``a`` at [0, 0] shoots ``b`` at [3, 0] with a 1d6 pistol
(4 AP, CRIT 1d6), no modifiers (the total is the natural), b's Evasion is 10, 20 HP,
every CT 10, DT and DR 0. Every die is given and the dice rolled are checked.
"""

from __future__ import annotations

from typing import Any

import pytest

from fracas.rulesets.base import is_down
from tests.helpers import Played
from tests.rulesets.wasteland.support import (
    PISTOL,
    act,
    attempts,
    damage,
    fight,
    hits,
    hp,
    limb,
    limb_damage,
    log,
    ok,
    refusal,
    rolled,
    sheet,
    shoot_b,
    shots,
    who,
)


def shoot(dice: dict[str, Any], *, weapon: dict[str, Any] | None = None, **rest: Any) -> Played:
    """One attack by a on b (a pistol unless ``weapon``); ``rest`` as :func:`shoot_b`'s."""
    return shoot_b(dice, weapon=weapon or PISTOL, **rest)


# --- WL-5: AP --------------------------------------------------------------------------


@pytest.mark.parametrize(("params", "cost"), [({}, 4), ({"called": "torso"}, 5)])
def test_WL_5_attack_ap(params: dict[str, Any], cost: int) -> None:
    dice = {"attack": 2}
    p = shoot(dice, **params)
    assert sheet(p, "a").ap == 8 - cost
    assert f"  {cost} AP: 8 -> {8 - cost}" in log(p)


# --- WL-6, WL-7, WL-8: the roll --------------------------------------------------------


def test_WL_6_WL_G13_total_adds_special_skill_accuracy_and_modifier() -> None:
    p = shoot(
        {"attack": 5},
        a={"agi_mod": 2, "str_mod": 4, "skills": {"guns": 3}},
        weapon={**PISTOL, "accuracy": 1},
        accuracy_mod=-2,
    )
    (s,) = shots(p)
    assert (s.natural, s.total, s.result) == (5, 9, "miss")
    assert s.parts == (("agi", 2), ("guns", 3), ("accuracy", 1), ("modifier", -2))
    assert (
        log(p)[-1]
        == "  roll: d20 5 + 2 agi + 3 guns + 1 accuracy - 2 modifier = 9 vs b's Evasion 10: miss"
    )


def test_WL_6_weapon_skill_and_special_by_kind() -> None:
    club = {"name": "club", "kind": "melee", "damage": "1d4", "ap": 3}
    p = ok(
        fight(
            who("a", str_mod=2, agi_mod=5, skills={"melee": 1, "guns": 9}, weapons=[club]),
            who("b", at=(1, 0)),
            actions=[act("a", "attack", "b", dice={"attack": 3})],
        )
    )
    assert shots(p)[0].parts[:2] == (("str", 2), ("melee", 1))
    assert shots(p)[0].total == 6


@pytest.mark.parametrize(("natural", "hit"), [(10, False), (11, True)])
def test_WL_7_total_must_exceed_evasion(natural: int, hit: bool) -> None:
    dice: dict[str, Any] = {"attack": natural}
    if hit:
        dice |= {"location": 5, "damage": [2]}
    p = shoot(dice)
    assert shots(p)[0].result == ("hit" if hit else "miss")
    assert attempts(p) == {"b": hit}
    assert hp(p) == (18 if hit else 20)


def test_WL_8_target_evasion_level_and_evasion_mod() -> None:
    # b: 10 + 1 AGI + floor(8 / 4) = 13; the action's evasion_mod +1: 14.
    p = shoot({"attack": 14}, b={"agi_mod": 1, "level": 8}, evasion_mod=1)
    assert (shots(p)[0].evasion, shots(p)[0].result) == (14, "miss")


# --- WL-9, WL-10, WL-G4: CRIT and CRITFAIL ---------------------------------------------


def test_WL_9_crit_hits_regardless_of_evasion_and_bypasses_dt() -> None:
    # Natural 20, total 20 - 15 = 5 (< Evasion 10): hits. Damage 3 - DT 5 = 0; CRIT 1d6: 4.
    p = shoot(
        {"attack": 20, "location": 5, "damage": [3], "crit": [4]},
        b={"dt": {"physical": 5}},
        accuracy_mod=-15,
    )
    assert shots(p)[0].result == "crit"
    assert hp(p) == 16
    assert rolled(p) == [("attack", 20), ("location", 5), ("damage", 3), ("crit", 4)]


def test_WL_9_crit_dice_explode_and_dr_applies() -> None:
    # 2 + CRIT 6 (explodes) + 6 (explodes) + 1 = 15; DR 20%: floor(15 * 80 / 100) = 12.
    p = shoot(
        {"attack": 20, "location": 5, "damage": [2], "crit": [6, 6, 1]}, b={"dr": {"physical": 20}}
    )
    assert hp(p) == 8
    assert "  CRIT dice: 6 + 6 + 1 (explodes) = 13" in log(p)
    assert "  b takes 12 damage (15, DR 20%): HP 20 -> 8" in log(p)


def test_WL_9_every_crit_die_explodes() -> None:
    p = shoot(
        {"attack": 20, "location": 5, "damage": [1], "crit": [4, 1, 4, 2]},
        weapon={**PISTOL, "crit_dice": "2d4"},
    )
    assert hp(p) == 20 - 1 - (4 + 1) - (4 + 2)


def test_WL_10_critfail_misses_and_costs_condition() -> None:
    p = shoot({"attack": 1}, accuracy_mod=30)
    assert shots(p)[0].result == "critfail"
    assert attempts(p) == {"b": False}
    assert (hp(p), sheet(p, "a").weapons[0].condition) == (20, 9)
    assert rolled(p) == [("attack", 1)]


def test_WL_10_condition_never_below_zero() -> None:
    p = shoot({"attack": 1}, weapon={**PISTOL, "condition": 0})
    assert sheet(p, "a").weapons[0].condition == 0


def test_WL_10_implicit_unarmed_has_no_condition_to_lose() -> None:
    p = ok(
        fight(who("a"), who("b", at=(1, 0)), actions=[act("a", "attack", "b", dice={"attack": 1})])
    )
    assert sheet(p, "a").weapons == ()
    assert shots(p)[0].result == "critfail"


def test_WL_G4_crit_and_critfail_ranges_from_the_sheet() -> None:
    p = shoot(
        {"attack": 18, "location": 5, "damage": [1], "crit": [1]},
        a={"crit_min": 18},
        accuracy_mod=-10,
    )
    assert shots(p)[0].result == "crit"
    p = shoot({"attack": 3}, a={"critfail_max": 3}, accuracy_mod=10)
    assert shots(p)[0].result == "critfail"


@pytest.mark.parametrize(("overlap", "result"), [("critfail", "critfail"), ("crit", "crit")])
def test_WL_G4_overlap(overlap: str, result: str) -> None:
    dice: dict[str, Any] = {"attack": 5}
    if result == "crit":
        dice |= {"location": 5, "damage": [1], "crit": [1]}
    p = shoot(dice, a={"crit_min": 5, "critfail_max": 5}, options={"crit_overlap": overlap})
    assert shots(p)[0].result == result


# --- WL-11: hit location ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "where"),
    [
        (1, "head"),
        (2, "head"),
        (3, "torso"),
        (8, "torso"),
        (9, "left_arm"),
        (11, "left_arm"),
        (12, "right_arm"),
        (14, "right_arm"),
        (15, "left_leg"),
        (17, "left_leg"),
        (18, "right_leg"),
        (20, "right_leg"),
    ],
)
def test_WL_11_WL_G1_hit_location_table(face: int, where: str) -> None:
    p = shoot({"attack": 15, "location": face, "damage": [2]})
    assert hits(p)[0].limb == where
    assert limb(p, "b", where).ct == 9  # glancing: half of 2


def test_WL_11_option_hit_location() -> None:
    table = {
        "head": [20, 20],
        "torso": [1, 15],
        "left_arm": [16, 16],
        "right_arm": [17, 17],
        "left_leg": [18, 18],
        "right_leg": [19, 19],
    }
    p = shoot({"attack": 15, "location": 20, "damage": [2]}, options={"hit_location": table})
    assert hits(p)[0].limb == "head"


def test_WL_11_called_shot_rolls_no_location() -> None:
    p = shoot({"attack": 19, "damage": [2]}, called="left_leg")
    assert hits(p)[0].limb == "left_leg"
    assert rolled(p) == [("attack", 19), ("damage", 2)]


# --- WL-12: Glancing -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("natural", "solid", "ct"), [(20, True, 4), (19, True, 4), (18, False, 7), (9, False, 7)]
)
def test_WL_12_glancing_threshold_evasion_plus_10(natural: int, solid: bool, ct: int) -> None:
    # Evasion 10; totals natural + 2 (accuracy): above 20 Solid (full CT damage), else half.
    dice: dict[str, Any] = {"attack": natural, "location": 5, "damage": [6]}
    if natural == 20:
        dice["damage"], dice["crit"] = [3], [3]
    p = shoot(dice, weapon={**PISTOL, "accuracy": 2})
    assert hits(p)[0].solid is solid
    assert hp(p) == 14  # HP damage is always full
    assert limb(p, "b", "torso").ct == ct


def test_WL_12_glancing_is_half_rounded_down() -> None:
    p = shoot({"attack": 15, "location": 5, "damage": [5]})
    assert limb_damage(p)[0].damage == 2
    assert limb(p, "b", "torso").ct == 8


@pytest.mark.parametrize(("natural", "solid"), [(14, False), (15, True)])
def test_WL_12_WL_A8_called_shot_threshold_is_evasion_plus_penalty(
    natural: int, solid: bool
) -> None:
    # A called head shot: -4 on the roll, +4 guns: the total is the natural. It hits above
    # Evasion 10 and is Solid above 10 + 4.
    p = shoot({"attack": natural, "damage": [4]}, a={"skills": {"guns": 4}}, called="head")
    assert shots(p)[0].total == natural
    assert hits(p)[0].solid is solid


# --- WL-13: cover ----------------------------------------------------------------------

HALF = {"type": "half", "hardness": 3, "energy_resistance": 5}


def test_WL_13_cover_stops_damage_up_to_r_with_its_crit() -> None:
    # Left leg (15) behind half cover, hardness 3: damage 3 <= 3 stops the hit, CRIT too.
    p = shoot({"attack": 20, "location": 15, "damage": [3]}, b={"cover": HALF})
    assert hp(p) == 20
    assert hits(p)[0].stopped
    assert rolled(p) == [("attack", 20), ("location", 15), ("damage", 3)]
    assert "  hits b's left leg (glancing): 3 vs cover 3: stopped" in log(p)


def test_WL_13_WL_G3_damage_above_r_goes_on_less_r() -> None:
    p = shoot(
        {"attack": 15, "location": 16, "damage": [5]}, b={"cover": HALF, "dt": {"physical": 1}}
    )
    assert hp(p) == 20 - (5 - 3 - 1)
    p = shoot(
        {"attack": 15, "location": 16, "damage": [5]},
        b={"cover": HALF},
        options={"cover_rule": "all_or_nothing"},
    )
    assert hp(p) == 15


def test_WL_13_uncovered_limbs_and_flanking_bypass_cover() -> None:
    p = shoot({"attack": 15, "location": 5, "damage": [2]}, b={"cover": HALF})
    assert hp(p) == 18  # the torso is not behind half cover
    p = shoot({"attack": 15, "location": 16, "damage": [2]}, b={"cover": HALF}, flanking=True)
    assert hp(p) == 18


def test_WL_13_energy_resistance_and_radiation() -> None:
    laser = {**PISTOL, "damage_type": "energy"}
    p = shoot({"attack": 15, "location": 16, "damage": [6]}, b={"cover": HALF}, weapon=laser)
    assert hp(p) == 19
    rad = {**PISTOL, "damage_type": "radiation"}
    p = shoot({"attack": 15, "location": 16, "damage": [4]}, b={"cover": HALF}, weapon=rad)
    assert hp(p) == 16  # R 0 against radiation
    p = shoot(
        {"attack": 15, "location": 16, "damage": [4]},
        b={"cover": HALF},
        weapon=rad,
        options={"cover_vs_radiation": "hardness"},
    )
    assert hp(p) == 19


def test_WL_13_WL_G16_full_cover_covers_every_limb_and_given_limbs() -> None:
    full = {"type": "full", "hardness": 9}
    p = shoot({"attack": 15, "location": 1, "damage": [6]}, b={"cover": full})
    assert hp(p) == 20
    arms = {"type": "half", "hardness": 9, "limbs": ["left_arm"]}
    p = shoot({"attack": 15, "location": 9, "damage": [6]}, b={"cover": arms})
    assert hp(p) == 20
    p = shoot({"attack": 15, "location": 16, "damage": [6]}, b={"cover": arms})
    assert hp(p) == 14


def test_WL_13_option_cover_does_not_stop_crit() -> None:
    p = shoot(
        {"attack": 20, "location": 15, "damage": [3], "crit": [2]},
        b={"cover": HALF},
        options={"cover_stops_crit": False},
    )
    assert hp(p) == 18


# --- WL-14: damage ---------------------------------------------------------------------


def test_WL_14_dt_per_limb_and_type_fully_mitigates() -> None:
    b = {"dt": {"physical": 1, "energy": 4}, "limbs": {"torso": {"dt": {"physical": 5}}}}
    p = shoot({"attack": 15, "location": 5, "damage": [5]}, b=b)
    assert hp(p) == 20
    assert "  hits b's torso (glancing): 5 - DT 5 = 0" in log(p)
    p = shoot({"attack": 15, "location": 1, "damage": [5]}, b=b)
    assert hp(p) == 16
    p = shoot(
        {"attack": 15, "location": 1, "damage": [5]},
        b=b,
        weapon={**PISTOL, "damage_type": "energy"},
    )
    assert hp(p) == 19


def test_WL_14_flat_damage_part() -> None:
    p = shoot(
        {"attack": 15, "location": 1, "damage": [2, 3]},
        weapon={**PISTOL, "damage": "2d6+2"},
        b={"dt": {"physical": 1}},
    )
    assert hp(p) == 20 - (2 + 3 + 2 - 1)
    assert "  hits b's head (glancing): 2+3 + 2 flat - DT 1 = 6" in log(p)


@pytest.mark.parametrize(("after_full_dt", "hp_left"), [(True, 16), (False, 20)])
def test_WL_14_WL_A4_crit_after_full_dt(after_full_dt: bool, hp_left: int) -> None:
    dice: dict[str, Any] = {"attack": 20, "location": 5, "damage": [2]}
    if after_full_dt:
        dice["crit"] = [4]
    p = shoot(dice, b={"dt": {"physical": 3}}, options={"crit_after_full_dt": after_full_dt})
    assert hp(p) == hp_left


@pytest.mark.parametrize(("rounding", "hp_left"), [("floor", 15), ("nearest", 14)])
def test_WL_14_WL_G12_dr_rounding(rounding: str, hp_left: int) -> None:
    # 4 + CRIT 6 (explodes) + 1 = 11, DR 50%: 5.5 -> 5 (floor) or 6 (nearest).
    p = shoot(
        {"attack": 20, "location": 5, "damage": [4], "crit": [6, 1]},
        b={"dr": {"physical": 50}},
        options={"dr_rounding": rounding},
    )
    assert hp(p) == hp_left


# --- WL-17: Sneak Attack ---------------------------------------------------------------


def test_WL_17_sneak_adds_skill_after_dt_before_dr_and_reveals() -> None:
    # 4 - DT 4 = 0; + 3 Sneak = 3; DR 50%: 1.
    p = shoot(
        {"attack": 15, "location": 5, "damage": [4]},
        a={"hidden": "hidden", "skills": {"sneak": 3}},
        b={"unaware": True, "dt": {"physical": 4}, "dr": {"physical": 50}},
        sneak=True,
    )
    assert hp(p) == 19
    assert (sheet(p, "a").hidden, sheet(p, "b").unaware) == ("none", False)


def test_WL_17_WL_A3_sneak_before_dt_and_no_reveal_options() -> None:
    p = shoot(
        {"attack": 15, "location": 5, "damage": [4]},
        a={"hidden": "undetected", "skills": {"sneak": 3}},
        b={"unaware": True, "dt": {"physical": 5}},
        sneak=True,
        options={"sneak_bypasses_dt": False, "sneak_reveals": False},
    )
    assert hp(p) == 18
    assert (sheet(p, "a").hidden, sheet(p, "b").unaware) == ("undetected", True)


def test_WL_17_a_missed_sneak_attack_still_reveals() -> None:
    p = shoot({"attack": 3}, a={"hidden": "hidden"}, b={"unaware": True}, sneak=True)
    assert (hp(p), sheet(p, "a").hidden) == (20, "none")


# --- WL-18: Bonus Melee Damage ---------------------------------------------------------

CLUB = {"name": "club", "kind": "melee", "damage": "1d4", "ap": 3}


@pytest.mark.parametrize(("before", "hp_left"), [(True, 18), (False, 17)])
def test_WL_18_bonus_melee_damage(before: bool, hp_left: int) -> None:
    # Dice 1, bonus 3, DT 2: before DT 1 + 3 - 2 = 2; after DT max(0, 1 - 2) + 3 = 3.
    p = ok(
        fight(
            who("a", melee_damage=3, weapons=[CLUB]),
            who("b", at=(1, 0), dt={"physical": 2}),
            actions=[act("a", "attack", "b", dice={"attack": 15, "location": 5, "damage": [1]})],
            options={"melee_bonus_before_dt": before},
        )
    )
    assert hp(p) == hp_left


def test_WL_18_bonus_melee_damage_not_on_guns() -> None:
    p = shoot({"attack": 15, "location": 5, "damage": [1]}, a={"melee_damage": 3})
    assert hp(p) == 19


# --- WL-19: HP 0, dying, the save abilities --------------------------------------------


def test_WL_19_hp_0_is_dying() -> None:
    p = shoot({"attack": 15, "location": 5, "damage": [6]}, b={"hp": 5})
    b = p.state.get("b")
    assert (b.hp, "dying" in b.statuses, is_down(p.file.ruleset, b)) == (0, True, True)
    assert damage(p) == {"b": 6}  # the damage dealt, before HP stops at 0


@pytest.mark.parametrize(
    ("b", "ability"),
    [
        ({"perks": ["deal_with_the_reaper", "too_stubborn_to_die"]}, "deal_with_the_reaper"),
        ({"perks": ["too_stubborn_to_die"]}, "too_stubborn_to_die"),
        ({"skills": {"survival": 10}}, "too_stubborn_to_die"),
        ({"perks": ["survival_10"]}, "too_stubborn_to_die"),
        (
            {
                "perks": ["deal_with_the_reaper", "too_stubborn_to_die"],
                "rest_uses": ["deal_with_the_reaper"],
            },
            "too_stubborn_to_die",
        ),
    ],
)
def test_WL_19_save_abilities_drop_to_1_hp_once_per_rest(b: dict[str, Any], ability: str) -> None:
    p = shoot({"attack": 15, "location": 5, "damage": [6]}, b={"hp": 5, **b})
    target = p.state.get("b")
    assert (target.hp, "dying" in target.statuses) == (1, False)
    assert sheet(p, "b").rest_uses[-1] == ability


def test_WL_19_used_abilities_and_option_off() -> None:
    p = shoot(
        {"attack": 15, "location": 5, "damage": [6]},
        b={"hp": 5, "perks": ["too_stubborn_to_die"], "rest_uses": ["too_stubborn_to_die"]},
    )
    assert p.state.get("b").hp == 0
    p = shoot(
        {"attack": 15, "location": 5, "damage": [6]},
        b={"hp": 5, "perks": ["deal_with_the_reaper"]},
        options={"death_saves": "off"},
    )
    assert p.state.get("b").hp == 0


# --- WL-20 to WL-22: Cripple Threshold and injuries ------------------------------------


GUNNER = {"skills": {"guns": 1}}
"""A natural 20 with no modifiers totals 20, not above Evasion 10 + 10: it would glance
(WL-A9); +1 makes CRITs Solid."""


def test_WL_A9_a_crit_may_glance() -> None:
    p = shoot({"attack": 20, "location": 5, "damage": [4], "crit": [3]})
    assert (hits(p)[0].solid, hp(p), limb(p, "b", "torso").ct) == (False, 13, 7)


def test_WL_20_solid_hit_takes_full_final_damage_from_ct() -> None:
    p = shoot(
        {"attack": 20, "location": 5, "damage": [4], "crit": [3]},
        a=GUNNER,
        b={"dr": {"physical": 25}},
    )
    # 4 + 3 = 7, DR 25%: floor(5.25) = 5 to HP and (solid) to the torso's CT.
    assert (hp(p), limb(p, "b", "torso").ct) == (15, 5)


def test_WL_21_ct_0_cripples_with_a_minor_injury() -> None:
    p = shoot(
        {"attack": 20, "location": 1, "damage": [5], "crit": [1]},
        a=GUNNER,
        b={"limbs": {"head": {"ct": 4}}},
    )
    head = limb(p, "b", "head")
    assert (head.ct, head.injury, head.crippled, head.injury_dc) == (0, "minor", True, None)
    assert "  head CT -6 -> 0: CRIPPLED, minor injury" in log(p)


def test_WL_21_damage_above_the_max_threshold_is_major() -> None:
    # Solid 14 > max CT 10: major, DC 10 + 4.
    p = shoot({"attack": 20, "location": 1, "damage": [6], "crit": [6, 2]}, a=GUNNER)
    head = limb(p, "b", "head")
    assert (head.ct, head.injury, head.injury_dc) == (0, "major", 14)
    assert "  head CT -14 -> 0: CRIPPLED, major injury, DC 14 to reduce" in log(p)


def test_WL_21_WL_A6_injury_size_cumulative() -> None:
    # CT 3 of 10, a solid 8: per hit 8 <= 10 minor; cumulative 7 + 8 = 15 > 10 major, DC 15.
    b = {"limbs": {"torso": {"ct": 3}}}
    p = shoot({"attack": 20, "location": 5, "damage": [6], "crit": [2]}, a=GUNNER, b=b)
    assert limb(p, "b", "torso").injury == "minor"
    p = shoot(
        {"attack": 20, "location": 5, "damage": [6], "crit": [2]},
        a=GUNNER,
        b=b,
        options={"injury_size": "cumulative"},
    )
    assert (limb(p, "b", "torso").injury, limb(p, "b", "torso").injury_dc) == ("major", 15)


@pytest.mark.parametrize(("escalation", "injury"), [("minor_to_major", "major"), ("none", "minor")])
def test_WL_22_WL_G6_injured_limb_escalates(escalation: str, injury: str) -> None:
    p = shoot(
        {"attack": 15, "location": 1, "damage": [2]},
        b={"limbs": {"head": {"ct": 0, "injury": "minor"}}},
        options={"injury_escalation": escalation},
    )
    head = limb(p, "b", "head")
    assert (head.ct, head.injury) == (0, injury)
    if injury == "major":
        assert head.injury_dc == 10  # 10 + damage above threshold (none)


def test_WL_22_no_ct_damage_no_escalation() -> None:
    # 1 damage glancing: 0 CT damage.
    p = shoot(
        {"attack": 15, "location": 1, "damage": [1]},
        b={"limbs": {"head": {"ct": 0, "injury": "minor"}}},
    )
    assert limb(p, "b", "head").injury == "minor"


# --- WL-23: effects --------------------------------------------------------------------

BLEEDER = {**PISTOL, "effects": {"bleed": 2, "burn": 1}}


def test_WL_23_WL_A7_effects_need_damage() -> None:
    p = shoot({"attack": 15, "location": 5, "damage": [3]}, weapon=BLEEDER)
    assert p.state.get("b").statuses == {"bleed": {"x": 2}, "burn": {"x": 1}}
    p = shoot(
        {"attack": 15, "location": 5, "damage": [3]}, weapon=BLEEDER, b={"dt": {"physical": 3}}
    )
    assert p.state.get("b").statuses == {}
    p = shoot(
        {"attack": 15, "location": 5, "damage": [3]},
        weapon=BLEEDER,
        b={"dt": {"physical": 3}},
        options={"effects_need_damage": False},
    )
    assert "bleed" in p.state.get("b").statuses


@pytest.mark.parametrize(("stacking", "x"), [("max", 3), ("add", 5), ("replace", 2)])
def test_WL_G10_effect_stacking(stacking: str, x: int) -> None:
    p = ok(
        fight(
            who("a", weapons=[BLEEDER]),
            who("b", at=(3, 0)),
            actions=[
                {"actor": "b", "do": "set", "statuses": {"bleed": {"x": 3}}},
                act("a", "attack", "b", dice={"attack": 15, "location": 5, "damage": [3]}),
            ],
            options={"effect_stacking": stacking},
        )
    )
    assert p.state.get("b").statuses["bleed"] == {"x": x}


# --- options of the attack's tables ----------------------------------------------------


def test_WL_G2_option_called_shot_penalty() -> None:
    penalties = {"head": 1, "torso": 0, "arms": 3, "legs": 5}
    p = shoot(
        {"attack": 12, "damage": [1]}, called="head", options={"called_shot_penalty": penalties}
    )
    assert (shots(p)[0].total, shots(p)[0].parts[-1]) == (11, ("called head", -1))
    p = shoot({"attack": 12}, called="right_leg", options={"called_shot_penalty": penalties})
    assert shots(p)[0].total == 7


def test_WL_G16_option_half_cover_limbs() -> None:
    p = shoot(
        {"attack": 15, "location": 5, "damage": [2]},
        b={"cover": HALF},
        options={"half_cover_limbs": ["torso"]},
    )
    assert (hits(p)[0].stopped, hp(p)) == (True, 20)


def test_WL_35_option_range_tiles() -> None:
    tiles = {"close": 2, "medium": 3, "long": 4, "extreme": 5}
    p = shoot({"attack": 2}, options={"range_tiles": tiles})
    assert shots(p)[0].result == "miss"  # 3 tiles: within medium
    p = fight(
        who("a", weapons=[PISTOL]),
        who("b", at=(4, 0)),
        actions=[act("a", "attack", "b", dice={"attack": 2})],
        options={"range_tiles": tiles},
    )
    assert refusal(p) == (1, "out_of_range")
