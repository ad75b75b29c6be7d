"""wasteland part 3: burst fire exactly as written (WL-15, WL-16, P-WL-2), shot by shot;
stray shots, creature cover and Trigger Discipline (WL-24); the worked example (2.9).

Unless a test says otherwise: ``a`` at [0, 0] fires a 3-shot SMG burst (1d6, 3 AP + 1,
penalty 2, CRIT 1d6) at ``b`` at [3, 0]; a has guns 2, so each shot's total is its
natural; b's Evasion is 10, 20 HP, CT 10, DT and DR 0.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import Played
from tests.rulesets.wasteland.support import (
    SMG,
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
    play_text,
    rolled,
    sheet,
    shoot_b,
    shots,
    who,
)


def burst(
    dice: dict[str, Any],
    *,
    a: dict[str, Any] | None = None,
    weapon: dict[str, Any] | None = None,
    **rest: Any,
) -> Played:
    """A burst by ``a`` (an SMG unless ``weapon``, guns 2 unless ``a`` says) on ``b``."""
    shooter = {"skills": {"guns": 2}, **(a or {})}
    return shoot_b(dice, weapon=weapon or SMG, a=shooter, burst=True, **rest)


STRAYS: dict[str, Any] = {
    "location:1": 5,
    "damage:1": [1],
    "location:2": 5,
    "damage:2": [1],
    "location:3": 5,
    "damage:3": [1],
}
"""Each of a burst's three shots, wherever it lands: location roll 5, 1 damage."""
MISSES: dict[str, Any] = {"attack:1": 2, "attack:2": 2, "attack:3": 2, **STRAYS}
"""Three shots of natural 2: with ``accuracy_mod=-2`` each misses b and strays."""


# --- the worked example (2.9), the burst and the CRIT ----------------------------------

EXAMPLE = """
ruleset: wasteland
combatants:
  - id: vera
    side: players
    at: [0, 0]
    level: 4
    agi_mod: 2
    per_mod: 1
    skills: {guns: 3}
    dt: {physical: 1}
    weapons:
      - {name: smg, damage: 1d6, crit_dice: 1d6, accuracy: 1, ap: 3, burst: 3,
         burst_penalty: 2, effects: {bleed: 1}}
  - id: raider
    side: raiders
    npc: true
    at: [4, 0]
    agi_mod: 2
    skills: {guns: 2}
    dt: {physical: 1}
    limbs: {torso: {dt: {physical: 2}}}
    dr: {physical: 10}
    weapons:
      - {name: pistol, damage: 1d6, crit_dice: 1d6, ap: 4}
  - id: brute
    side: raiders
    npc: true
    at: [8, 0]
    skills: {explosives: 1}
actions:
  - actor: vera
    do: attack
    target: raider
    burst: true
    dice:
      "attack:1": 12
      "attack:2": 7
      "attack:3": 10
      "location:1": 5
      "damage:1": [4]
      "location:3": 19
      "damage:3": [6]
      "location:2": 10
      "damage:2": [3]
  - actor: raider
    do: attack
    target: vera
    dice: {attack: 20, location: 1, damage: [3], crit: [6, 2]}
"""


def test_worked_example_2_9_burst_and_crit() -> None:
    p = ok(play_text(EXAMPLE))
    assert p.state.order == ("vera", "raider", "brute")  # Sequence 13, 12, 10
    # 1. Totals 16 hit, 11 miss, 14 hit; both hits glance. Torso 4 - 2 = 2, right leg
    #    6 - 1 = 5; 7, DR 10%: 6. Shot 2 strays to brute (11 > 10): left arm 3.
    assert [s.total for s in shots(p, 1)] == [16, 11, 14]
    assert [s.result for s in shots(p, 1)] == ["hit", "miss", "hit"]
    assert damage(p, 1) == {"raider": 6, "brute": 3}
    assert rolled(p, 1) == [
        ("attack:1", 12),
        ("attack:2", 7),
        ("attack:3", 10),
        ("location:1", 5),
        ("damage:1", 4),
        ("location:3", 19),
        ("damage:3", 6),
        ("location:2", 10),
        ("damage:2", 3),
    ]
    assert (limb(p, "raider", "torso").ct, limb(p, "raider", "right_leg").ct) == (10, 8)
    assert limb(p, "brute", "left_arm").ct == 9
    assert sheet(p, "vera").ap == 9 - 4
    # 2. Natural 20: CRIT, Solid (24 > 23). Head 3 - 1 = 2, CRIT 6 + 2 = 8: 10.
    head = limb(p, "vera", "head")
    assert (head.ct, head.injury, head.crippled) == (0, "minor", True)
    hps = {cid: c.hp for cid, c in p.state.combatants.items()}
    assert hps == {"vera": 10, "raider": 14, "brute": 17}
    assert p.state.get("raider").statuses == {"bleed": {"x": 1}}
    assert p.state.get("brute").statuses == {"bleed": {"x": 1}}
    assert sheet(p, "raider").ap == 9 - 4


# --- WL-5, WL-6: cost and penalties ----------------------------------------------------


def test_WL_5_burst_costs_1_more_and_called_burst_2_more() -> None:
    p = burst({"attack:1": 2, "attack:2": 2, "attack:3": 2})
    assert sheet(p, "a").ap == 8 - 4
    p = burst({"attack:1": 2, "attack:2": 2, "attack:3": 2}, called="torso")
    assert sheet(p, "a").ap == 8 - 5
    assert shots(p)[0].parts[-2:] == (("called torso", -1), ("burst", -2))


def test_WL_G2_burst_true_and_penalty_defaults_from_options() -> None:
    p = burst(
        {"attack:1": 2, "attack:2": 2, "attack:3": 2, "attack:4": 2},
        weapon={**SMG, "burst": True},
        options={"burst_shots": 4, "burst_penalty": 3},
    )
    assert [s.shot for s in shots(p)] == [1, 2, 3, 4]
    assert shots(p)[0].parts[-1] == ("burst", -3)


# --- WL-15: the burst step by step -----------------------------------------------------


def test_WL_15_each_shot_rolls_hits_location_and_damage_in_shot_order() -> None:
    p = burst(
        {
            "attack:1": 15,
            "attack:2": 10,
            "attack:3": 11,
            "location:1": 1,
            "damage:1": [4],
            "location:3": 20,
            "damage:3": [2],
        }
    )
    assert [s.result for s in shots(p)] == ["hit", "miss", "hit"]  # 10 does not exceed 10
    assert [(h.shot, h.limb) for h in hits(p)] == [(1, "head"), (3, "right_leg")]
    assert hp(p) == 14
    assert attempts(p) == {"b": True}


def test_WL_15_dt_per_hit_sum_then_dr_on_the_grand_total() -> None:
    # Torso DT 3: 2 -> 0, 5 -> 2, 6 -> 3; sum 5; DR 50%: 2 (floor 2.5).
    p = burst(
        {
            "attack:1": 15,
            "attack:2": 15,
            "attack:3": 15,
            "location:1": 5,
            "damage:1": [2],
            "location:2": 5,
            "damage:2": [5],
            "location:3": 5,
            "damage:3": [6],
        },
        b={"dt": {"physical": 3}, "dr": {"physical": 50}},
    )
    assert [h.post for h in hits(p)] == [0, 2, 3]
    assert damage(p) == {"b": 2}
    # CT per hit: floor(post * 50 / 100), halved (all glancing): 0, 0, 0.
    assert [d.damage for d in limb_damage(p)] == [0, 0, 0]
    assert "  b takes 2 damage (0 + 2 + 3 = 5, DR 50%): HP 20 -> 18" in log(p)


def test_WL_15_WL_A2_first_shot_crit_all_hit_one_crit_die_on_shot_1_bypassing_dt() -> None:
    # Shot 1 natural 20 (total 20, Solid needs > 20: glancing). Shots 2, 3 roll no to-hit
    # die, hit, glance by shot 1's total. DT 4: 3 -> 0, 6 -> 2, 5 -> 1; + 1 CRIT die on
    # shot 1: 6 explodes + 3 = 9 (2d6 CRIT dice: one die only, WL-A2). 0 + 9 + 2 + 1 = 12.
    p = burst(
        {
            "attack:1": 20,
            "location:1": 5,
            "damage:1": [3],
            "location:2": 1,
            "damage:2": [6],
            "location:3": 9,
            "damage:3": [5],
            "crit": [6, 3],
        },
        b={"dt": {"physical": 4}},
        weapon={**SMG, "crit_dice": "2d6"},
    )
    assert [s.result for s in shots(p)] == ["crit", "auto", "auto"]
    assert [s.natural for s in shots(p)] == [20, None, None]
    assert rolled(p) == [
        ("attack:1", 20),
        ("location:1", 5),
        ("damage:1", 3),
        ("location:2", 1),
        ("damage:2", 6),
        ("location:3", 9),
        ("damage:3", 5),
        ("crit", 6),
        ("crit", 3),
    ]
    assert damage(p) == {"b": 12}
    # CT: shot 1 (0 + 9) glancing 4; shot 2: 2 -> 1; shot 3: 1 -> 0.
    assert [(d.limb, d.damage) for d in limb_damage(p)] == [
        ("torso", 4),
        ("head", 1),
        ("left_arm", 0),
    ]
    assert "  shot 2: hits automatically (first-shot CRIT, WL-15)" in log(p)


@pytest.mark.parametrize(
    ("option", "solid"), [("shot1", [True, True, True]), ("solid", [False, True, True])]
)
def test_WL_15_glancing_after_a_first_shot_crit(option: str, solid: list[bool]) -> None:
    # Shot 1: natural 20, total 20 + 2 - 2 + 1 = 21 > 20: Solid; with -2 accuracy: 19.
    acc = 1 if option == "shot1" else -1
    p = burst(
        {"attack:1": 20, **STRAYS, "crit": [1]},
        weapon={**SMG, "accuracy": acc},
        options={"burst_crit_glancing": option},
    )
    assert [h.solid for h in hits(p)] == solid


def test_WL_15_crit_die_only_when_shot_1_hits_the_target() -> None:
    # Creature cover takes shot 1: the CRIT die does not follow it (2.6 roll order).
    c = who("c", at=(1, 0))
    p = burst(
        {
            "attack:1": 20,
            "location:1": 5,
            "damage:1": [3],
            "location:2": 5,
            "damage:2": [3],
            "location:3": 5,
            "damage:3": [3],
        },
        others=(c,),
        creature_cover={"c": [1]},
    )
    assert damage(p) == {"b": 6, "c": 3}
    assert all(label != "crit" for label, _ in rolled(p))


# --- WL-16: only the first shot may CRIT or CRITFAIL -----------------------------------


def test_WL_16_later_shots_in_crit_range_are_normal_rolls() -> None:
    # accuracy -9: shot totals are natural - 9. Shot 2's natural 20 (total 11 > 10) hits
    # without CRIT dice; shot 3's natural 1 (total -8) misses, no Condition lost.
    p = burst(
        {"attack:1": 5, "attack:2": 20, "attack:3": 1, "location:2": 5, "damage:2": [4]},
        weapon={**SMG, "accuracy": -9},
    )
    assert [s.result for s in shots(p)] == ["miss", "hit", "miss"]
    assert hp(p) == 16
    assert sheet(p, "a").weapons[0].condition == 10


def test_WL_16_a_later_natural_20_below_evasion_misses() -> None:
    p = burst({"attack:1": 5, "attack:2": 20, "attack:3": 5}, weapon={**SMG, "accuracy": -12})
    assert [s.result for s in shots(p)] == ["miss", "miss", "miss"]


def test_WL_16_a_later_natural_1_that_exceeds_evasion_hits() -> None:
    # accuracy +10: totals 15, 11, 15 all exceed 10.
    p = burst(
        {
            "attack:1": 5,
            "attack:2": 1,
            "attack:3": 5,
            "location:1": 5,
            "damage:1": [1],
            "location:2": 5,
            "damage:2": [4],
            "location:3": 5,
            "damage:3": [1],
        },
        weapon={**SMG, "accuracy": 10},
    )
    assert [s.result for s in shots(p)] == ["hit", "hit", "hit"]
    assert (hp(p), sheet(p, "a").weapons[0].condition) == (14, 10)


def test_WL_16_WL_A5_first_shot_critfail_misses_that_shot_only() -> None:
    p = burst({"attack:1": 1, "attack:2": 15, "attack:3": 3, "location:2": 5, "damage:2": [4]})
    assert [s.result for s in shots(p)] == ["critfail", "hit", "miss"]
    assert (hp(p), sheet(p, "a").weapons[0].condition) == (16, 9)


def test_WL_A5_option_critfail_aborts_burst() -> None:
    p = burst({"attack:1": 1}, options={"critfail_aborts_burst": True})
    assert [s.result for s in shots(p)] == ["critfail"]
    assert rolled(p) == [("attack:1", 1)]
    assert sheet(p, "a").weapons[0].condition == 9


# --- WL-11, WL-12, WL-17, WL-23 in a burst ---------------------------------------------


def test_WL_11_called_burst_hits_the_declared_limb_without_location_rolls() -> None:
    # Penalties -1 (torso) -2 (burst): totals natural - 1.
    p = burst(
        {"attack:1": 15, "attack:2": 11, "attack:3": 12, "damage:1": [2], "damage:3": [3]},
        called="torso",
    )
    assert [s.result for s in shots(p)] == ["hit", "miss", "hit"]
    assert [h.limb for h in hits(p)] == ["torso", "torso"]
    # Called Glancing Threshold 10 + 1: 14 and 11 -> Solid, glancing. CT 10 - 2 - 1 = 7.
    assert [h.solid for h in hits(p)] == [True, False]
    assert limb(p, "b", "torso").ct == 7


@pytest.mark.parametrize(
    ("option", "solid"), [("per_shot", [True, False]), ("first_shot", [True, True])]
)
def test_WL_12_burst_glancing_per_shot(option: str, solid: list[bool]) -> None:
    p = burst(
        {
            "attack:1": 19,
            "attack:2": 14,
            "attack:3": 2,
            "location:1": 5,
            "damage:1": [2],
            "location:2": 5,
            "damage:2": [2],
        },
        a={"skills": {"guns": 4}},
        options={"burst_glancing": option},
    )
    assert [h.solid for h in hits(p)] == solid  # totals 21, 16 vs threshold 20


def test_WL_17_sneak_bonus_once_on_the_first_hit() -> None:
    p = burst(
        {
            "attack:1": 5,
            "attack:2": 15,
            "attack:3": 15,
            "location:2": 5,
            "damage:2": [2],
            "location:3": 5,
            "damage:3": [2],
        },
        a={"hidden": "hidden", "skills": {"guns": 2, "sneak": 4}},
        b={"unaware": True},
        sneak=True,
    )
    assert damage(p) == {"b": 2 + 4 + 2}


def test_WL_23_effects_once_per_attack_not_per_hit() -> None:
    p = burst(
        {
            "attack:1": 15,
            "attack:2": 15,
            "attack:3": 15,
            "location:1": 5,
            "damage:1": [2],
            "location:2": 5,
            "damage:2": [2],
            "location:3": 5,
            "damage:3": [2],
        },
        weapon={**SMG, "effects": {"bleed": 2}},
        options={"effect_stacking": "add"},
    )
    assert p.state.get("b").statuses == {"bleed": {"x": 2}}


def test_WL_21_two_hits_on_one_limb_cripple_then_escalate() -> None:
    # CT 3: shot 1 solid 4 cripples (minor); shot 2 escalates to major.
    p = burst(
        {"attack:1": 19, "attack:2": 19, "attack:3": 2, "damage:1": [4], "damage:2": [2]},
        a={"skills": {"guns": 10}},
        b={"limbs": {"head": {"ct": 3}}},
        called="head",
    )
    assert [(d.ct, d.injury, d.gained) for d in limb_damage(p)] == [
        (0, "minor", True),
        (0, "major", True),
    ]


# --- WL-24: stray shots ----------------------------------------------------------------


def test_WL_24_missed_shots_stray_to_creatures_behind_nearest_first() -> None:
    # Totals natural + 2: 12, 6, 17 against b's Evasion 15. c at 5 (Evasion 14), d at 7
    # (Evasion 10): shot 1's 12 passes c and hits d; shot 2's 6 is lost.
    others = (who("c", at=(5, 0), evasion_mod=4), who("d", at=(7, 0)))
    p = burst(
        {
            "attack:1": 10,
            "attack:2": 4,
            "attack:3": 15,
            "location:3": 5,
            "damage:3": [2],
            "location:1": 5,
            "damage:1": [3],
        },
        others=others,
        b={"evasion_mod": 5},
        accuracy_mod=2,
    )
    assert [s.result for s in shots(p)] == ["miss", "miss", "hit"]
    assert attempts(p) == {"b": True, "c": False, "d": True}
    assert damage(p) == {"b": 2, "d": 3}
    assert rolled(p)[-2:] == [("location:1", 5), ("damage:1", 3)]
    assert "  stray shot 1: 12 vs c's Evasion 14: passes" in log(p)
    assert "  stray shot 1: 12 vs d's Evasion 10: hits" in log(p)


@pytest.mark.parametrize(
    ("at", "behind"),
    [
        ((5, 0), True),
        ((4, 1), False),
        ((6, 1), False),
        ((2, 0), False),
        ((3, 0), False),
        ((-3, 0), False),
        ((10, 0), True),
        ((11, 0), False),
    ],
)
def test_WL_24_the_line_of_fire_behind_the_target(at: tuple[int, int], behind: bool) -> None:
    # From [0, 0] through [3, 0], half a tile wide, within 10 tiles (medium). Totals 0:
    # every shot misses b and would hit c (Evasion -10).
    dice: dict[str, Any] = {"attack:1": 2, "attack:2": 2, "attack:3": 2}
    if behind:
        for n in (1, 2, 3):
            dice |= {f"location:{n}": 5, f"damage:{n}": [1]}
    p = burst(dice, others=(who("c", at=at, evasion_mod=-20),), accuracy_mod=-2)
    assert attempts(p) == ({"b": False, "c": True} if behind else {"b": False})
    assert damage(p) == ({"c": 3} if behind else {})


def test_WL_24_the_line_of_fire_off_the_axes() -> None:
    # From [0, 0] through [2, 1]: [5, 2] lies within half a tile of the line, [5, 3] not.
    dice: dict[str, Any] = {"attack:1": 2, "attack:2": 2, "attack:3": 2}
    for n in (1, 2, 3):
        dice |= {f"location:{n}": 5, f"damage:{n}": [1]}
    p = ok(
        fight(
            who("a", weapons=[SMG], skills={"guns": 2}),
            who("b", at=(2, 1)),
            who("c", at=(5, 3), evasion_mod=-20),
            who("d", at=(5, 2), evasion_mod=-20),
            actions=[act("a", "attack", "b", burst=True, accuracy_mod=-2, dice=dice)],
        )
    )
    assert damage(p) == {"d": 3}


def test_WL_24_behind_overrides_the_line() -> None:
    p = burst(
        MISSES,
        others=(who("c", at=(0, 9), evasion_mod=-20),),
        behind=["c"],
        accuracy_mod=-2,
    )
    assert damage(p) == {"c": 3}


def test_WL_24_each_victim_sums_its_strays_and_applies_its_dr_once() -> None:
    c = who("c", at=(6, 0), evasion_mod=-20, dr={"physical": 50})
    p = burst(
        MISSES,
        others=(c,),
        accuracy_mod=-2,
    )
    assert damage(p) == {"c": 1}  # 3, DR 50%: 1


def test_WL_24_stray_hits_use_standard_glancing_and_roll_location_on_a_called_burst() -> None:
    c = who("c", at=(6, 0), evasion_mod=-5)  # Evasion 5: Solid above 15
    # Called torso: totals natural - 1 (16, 12, 9), all below b's Evasion 30.
    p = burst(
        {
            "attack:1": 17,
            "attack:2": 13,
            "attack:3": 10,
            "location:1": 1,
            "damage:1": [1],
            "location:2": 20,
            "damage:2": [1],
            "location:3": 3,
            "damage:3": [1],
        },
        others=(c,),
        called="torso",
        evasion_mod=20,
    )
    assert [(h.target, h.limb, h.solid) for h in hits(p)] == [
        ("c", "head", True),
        ("c", "right_leg", False),
        ("c", "torso", False),
    ]


def test_WL_24_critfail_shot_does_not_stray_unless_option() -> None:
    c = who("c", at=(6, 0), evasion_mod=-20)
    p = burst(
        {
            "attack:1": 1,
            "attack:2": 2,
            "attack:3": 2,
            "location:2": 5,
            "damage:2": [1],
            "location:3": 5,
            "damage:3": [1],
        },
        others=(c,),
        accuracy_mod=-2,
    )
    assert [h.shot for h in hits(p)] == [2, 3]
    p = burst(
        {"attack:1": 1, "attack:2": 2, "attack:3": 2, **STRAYS},
        others=(c,),
        accuracy_mod=-2,
        options={"critfail_strays": True},
    )
    assert [h.shot for h in hits(p)] == [1, 2, 3]


def test_WL_24_stray_effects_option() -> None:
    c = who("c", at=(6, 0), evasion_mod=-20)
    dice = MISSES
    bleeder = {**SMG, "effects": {"bleed": 1}}
    p = burst(dice, others=(c,), accuracy_mod=-2, weapon=bleeder)
    assert p.state.get("c").statuses == {"bleed": {"x": 1}}
    p = burst(dice, others=(c,), accuracy_mod=-2, weapon=bleeder, options={"stray_effects": False})
    assert p.state.get("c").statuses == {}


def test_WL_25_melee_never_strays() -> None:
    club = {"name": "club", "kind": "melee", "damage": "1d4", "ap": 3}
    p = ok(
        fight(
            who("a", weapons=[club]),
            who("b", at=(1, 0)),
            who("c", at=(2, 0), evasion_mod=-20),
            actions=[act("a", "attack", "b", dice={"attack": 2})],
        )
    )
    assert attempts(p) == {"b": False}


# --- WL-24: Trigger Discipline and creature cover --------------------------------------


def test_WL_24_trigger_discipline_skips_allies_and_the_shot_goes_on() -> None:
    ally = who("c", at=(5, 0), side="a", evasion_mod=-20)
    foe = who("d", at=(7, 0), evasion_mod=-20)
    dice = MISSES
    p = burst(dice, a={"side": "a"}, others=(ally, foe), accuracy_mod=-2)
    assert damage(p) == {"c": 3}
    p = burst(
        dice, a={"side": "a", "perks": ["trigger_discipline"]}, others=(ally, foe), accuracy_mod=-2
    )
    assert damage(p) == {"d": 3}
    assert "c" not in attempts(p)


def test_WL_24_option_trigger_discipline_loses_the_shot() -> None:
    ally = who("c", at=(5, 0), side="a", evasion_mod=-20)
    foe = who("d", at=(7, 0), evasion_mod=-20)
    p = burst(
        {"attack:1": 2, "attack:2": 2, "attack:3": 2},
        a={"side": "a", "perks": ["trigger_discipline"]},
        others=(ally, foe),
        accuracy_mod=-2,
        options={"trigger_discipline_continues": False},
    )
    assert damage(p) == {}


def test_WL_24_WL_G7_creature_cover_takes_the_shots_named() -> None:
    # c stands between: shots 2 and 3, when they hit, hit c; shot 3 misses and strays on.
    c = who("c", at=(1, 0), dt={"physical": 1})
    d = who("d", at=(6, 0), evasion_mod=-20)
    p = burst(
        {
            "attack:1": 15,
            "attack:2": 15,
            "attack:3": 3,
            "location:1": 5,
            "damage:1": [2],
            "location:2": 1,
            "damage:2": [4],
            "location:3": 5,
            "damage:3": [5],
        },
        others=(c, d),
        creature_cover={"c": [2, 3]},
    )
    assert damage(p) == {"b": 2, "c": 3, "d": 5}
    assert attempts(p) == {"b": True, "c": True, "d": True}
