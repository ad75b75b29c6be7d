"""wasteland part 4: Final Actions (WL-4), Defend (WL-29), Overwatch (WL-30), reactions
(WL-31, WL-36), Peek (WL-32), the injury test (WL-21), explosives (WL-27, WL-28, P-WL-3)
and the whole worked example (2.9)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import Played
from tests.rulesets.wasteland.support import (
    PISTOL,
    SMG,
    act,
    attempts,
    damage,
    fight,
    hp,
    limb,
    limb_damage,
    log,
    ok,
    play_text,
    refusal,
    rolled,
    sheet,
    shots,
    who,
)
from tests.rulesets.wasteland.test_burst import EXAMPLE as BURST_EXAMPLE

CLUB = {"name": "club", "kind": "melee", "damage": "1d4", "ap": 3}
GRENADE = {"name": "grenade", "kind": "explosive", "damage": "2d6", "ap": 4,
           "throw_difficulty": 12, "count": 2}  # fmt: skip


# --- WL-4, WL-29: Defend ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("agi", "perks", "spent", "bonus"), [(0, [], 3, 3), (-12, [], 2, 2), (0, ["dodger"], 3, 5)]
)
def test_WL_29_defend_spends_up_to_3_ap_for_evasion(
    agi: int, perks: list[str], spent: int, bonus: int
) -> None:
    p = ok(
        fight(
            who("a", agi_mod=agi, perks=perks),
            who("b", at=(3, 0), weapons=[PISTOL]),
            actions=[act("a", "defend"), act("b", "attack", "a", dice={"attack": 2})],
        )
    )
    a = p.state.get("a")
    assert a.statuses["defending"] == {"bonus": bonus}
    assert sheet(p, "a").ap == 8 + agi // 2 - spent
    assert shots(p)[0].evasion == 10 + agi + bonus


def test_WL_4_a_final_action_ends_the_turn() -> None:
    p = fight(
        who("a", weapons=[PISTOL]),
        who("b", at=(3, 0)),
        actions=[act("a", "defend"), act("a", "attack", "b", dice={"attack": 2})],
    )
    assert refusal(p) == (2, "turn_over")
    assert p.state.turn.over
    p = fight(who("a"), who("b"), actions=[act("a", "defend"), act("a", "defend")])
    assert refusal(p) == (2, "turn_over")


def test_WL_29_defend_lasts_until_the_start_of_the_next_turn() -> None:
    p = ok(fight(who("a"), who("b"), actions=[act("a", "defend"), act("b", "end_turn")]))
    assert "defending" not in p.state.get("a").statuses
    assert "  a is no longer defending" in log(p)


def test_WL_29_defend_needs_ap() -> None:
    p = fight(who("a", agi_mod=-16), who("b"), actions=[act("a", "defend")])
    assert refusal(p) == (1, "no_ap")


# --- WL-30: Overwatch ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("weapon", "mode", "agi", "shots_"),
    [(PISTOL, "single", 0, 3), (SMG, "burst", 0, 3), (PISTOL, "single", 2, 3),
     ({**PISTOL, "ap": 5}, "single", 0, 2), (SMG, "single", -12, 1)],
)  # fmt: skip
def test_WL_30_overwatch_allowance(weapon: dict[str, Any], mode: str, agi: int,
                                   shots_: int) -> None:  # fmt: skip
    p = ok(
        fight(
            who("a", agi_mod=agi, weapons=[weapon]),
            who("b"),
            actions=[act("a", "overwatch", mode=mode)],
        )
    )
    assert p.state.get("a").statuses["overwatch"] == {
        "weapon": weapon["name"],
        "mode": mode,
        "shots": shots_,
    }
    assert (sheet(p, "a").ap, p.state.turn.over) == (0, True)


def test_WL_30_WL_G15_overwatch_attacks_inside_the_enemys_turn() -> None:
    p = ok(
        fight(
            who("a", weapons=[PISTOL]),
            who("b", at=(3, 0), weapons=[PISTOL]),
            actions=[
                act("a", "overwatch"),
                act("b", "attack", "a", dice={"attack": 2}),
                act(
                    "a", "overwatch_attack", "b", dice={"attack": 15, "location": 5, "damage": [4]}
                ),
            ],
        )
    )
    assert hp(p, "b") == 16
    assert p.state.turn.actor == "b"  # taken inside b's turn
    assert p.state.get("a").statuses["overwatch"]["shots"] == 2
    assert sheet(p, "a").ap == 0  # the Overwatch shot cost no AP
    assert "a attacks b with the pistol (overwatch shot, single fire, no AP)" in log(p)


def test_WL_30_overwatch_shot_in_burst_mode_and_the_allowance_runs_out() -> None:
    dice = {"attack:1": 2, "attack:2": 2, "attack:3": 2}
    p = fight(
        who("a", weapons=[SMG], agi_mod=-12),
        who("b", at=(3, 0)),
        actions=[
            act("a", "overwatch", mode="burst"),
            act("a", "overwatch_attack", "b", dice=dice),
            act("a", "overwatch_attack", "b", dice=dice),
        ],
    )
    assert refusal(p) == (3, "no_overwatch_shots")
    assert [s.shot for s in shots(p, 2)] == [1, 2, 3]


def test_WL_30_refusals_and_overwatch_ends_at_the_next_turn() -> None:
    p = fight(
        who("a", weapons=[PISTOL]),
        who("b", at=(3, 0)),
        actions=[act("a", "overwatch_attack", "b", dice={"attack": 2})],
    )
    assert refusal(p) == (1, "not_in_overwatch")
    p = fight(who("a", weapons=[PISTOL]), who("b"), actions=[act("a", "overwatch",
              mode="burst")])  # fmt: skip
    assert refusal(p) == (1, "no_burst")
    p = ok(
        fight(
            who("a", weapons=[PISTOL]),
            who("b"),
            actions=[act("a", "overwatch"), act("b", "end_turn")],
        )
    )
    assert "overwatch" not in p.state.get("a").statuses


def test_WL_30_no_reactions_in_overwatch() -> None:
    a = who("a", weapons=[PISTOL, CLUB], skills={"melee": 10}, perks=["hit_the_deck"])
    for reaction in (
        act("a", "opportunity_attack", "b", weapon="club", dice={"attack": 2}),
        act("a", "riposte", "b", weapon="club", dice={"attack": 2}),
        act("a", "reaction", name="hit_the_deck"),
    ):
        p = fight(a, who("b", at=(1, 0)), actions=[act("a", "overwatch"), reaction])
        assert refusal(p) == (2, "in_overwatch")


# --- WL-31, WL-36: Opportunity Attacks, Riposte, Reactions ------------------------------


def _melee(b: dict[str, Any] | None = None, **a: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    return who("a", weapons=[CLUB, PISTOL], **a), who("b", at=(1, 0), weapons=[CLUB], **(b or {}))


def test_WL_31_opportunity_attack_is_a_free_melee_attack_once_per_round() -> None:
    a, b = _melee(skills={"melee": 3})
    hit = {"attack": 15, "location": 5, "damage": [3]}
    b_attacks = act("b", "attack", "a", dice={"attack": 2})  # b's turn begins
    p = ok(fight(a, b, actions=[b_attacks, act("a", "opportunity_attack", "b", dice=hit)]))
    assert (hp(p, "b"), sheet(p, "a").ap, p.state.turn.actor) == (17, 8, "b")
    p = fight(
        a,
        b,
        actions=[
            b_attacks,
            act("a", "opportunity_attack", "b", dice=hit),
            act("a", "opportunity_attack", "b", dice=hit),
        ],
    )
    assert refusal(p) == (3, "no_opportunity_left")


def test_WL_31_zone_of_threat_gives_two_and_they_replenish_at_the_turn_start() -> None:
    a, b = _melee(skills={"melee": 3}, perks=["zone_of_threat"])
    b_attacks = act("b", "attack", "a", dice={"attack": 2})
    oa = act("a", "opportunity_attack", "b", dice={"attack": 2})
    p = fight(a, b, actions=[b_attacks, oa, oa, oa])
    assert refusal(p) == (4, "no_opportunity_left")
    p = ok(
        fight(
            a,
            b,
            actions=[
                b_attacks,
                oa,
                oa,
                act("a", "end_turn"),
                act("b", "attack", "a", dice={"attack": 2}),
                oa,
            ],
        )
    )
    assert p.state.round == 2


@pytest.mark.parametrize(
    ("a", "action", "code"),
    [
        ({"skills": {"melee": 3}}, act("a", "opportunity_attack", "b", weapon="pistol"),
         "needs_melee_weapon"),
        ({"skills": {"melee": 2}}, act("a", "opportunity_attack", "b"), "needs_melee_3"),
        ({"skills": {"melee": 6}}, act("a", "riposte", "b"), "needs_melee_7"),
        ({"skills": {"melee": 7}}, act("a", "riposte", "b"), "no_riposte_trigger"),
        ({}, act("a", "reaction", name="snap_shot"), "not_available"),
        ({"skills": {"melee": 9}}, act("a", "reaction", name="warden_swap"), "not_available"),
        ({"skills": {"pilot": 6}}, act("a", "reaction", name="evasive_maneuvering"),
         "not_available"),
    ],
)  # fmt: skip
def test_WL_31_reaction_refusals(a: dict[str, Any], action: dict[str, Any], code: str) -> None:
    ca, cb = _melee(**a)
    p = fight(ca, cb, actions=[action])
    assert refusal(p) == (1, code)


def test_WL_36_riposte_answers_a_missed_melee_attack() -> None:
    a, b = _melee(skills={"melee": 7})
    actions = [
        act("b", "attack", "a", dice={"attack": 3}),  # b's club misses a
        act("a", "riposte", "b", dice={"attack": 15, "location": 5, "damage": [2]}),
    ]
    p = ok(fight(a, b, actions=actions))
    assert hp(p, "b") == 18
    p = fight(a, b, actions=[*actions, actions[1]])
    assert refusal(p) == (3, "no_riposte_left")


def test_WL_31_reactions_once_per_round() -> None:
    a, b = _melee(skills={"melee": 10}, perks=["hit_the_deck"])
    p = fight(
        a,
        b,
        actions=[
            act("a", "reaction", name="warden_swap"),
            act("a", "reaction", name="hit_the_deck"),
        ],
    )
    assert refusal(p) == (2, "no_reaction_left")
    assert "a reacts: warden swap (the GM applies it)" in log(p)


# --- WL-32: Peek -----------------------------------------------------------------------


def test_WL_32_peek_lets_full_cover_fire_and_counts_as_half() -> None:
    # b (Overwatch) shoots a's torso; a's full cover (hardness 9) stops 4, unless a peeks:
    # half cover covers the legs only.
    full = {"type": "full", "hardness": 9}
    shot = act("b", "overwatch_attack", "a", dice={"attack": 15, "location": 5, "damage": [4]})
    shooters = (who("a", weapons=[PISTOL], cover=full), who("b", at=(3, 0), weapons=[PISTOL]))
    p = ok(fight(*shooters, order=("b", "a"), actions=[act("b", "overwatch"), shot]))
    assert hp(p, "a") == 20
    p = fight(
        *shooters,
        order=("b", "a"),
        actions=[act("b", "overwatch"), act("a", "attack", "b", dice={"attack": 2})],
    )
    assert refusal(p) == (2, "must_peek")
    p = ok(
        fight(
            *shooters,
            order=("b", "a"),
            actions=[
                act("b", "overwatch"),
                act("a", "peek"),
                shot,
                act("a", "attack", "b", dice={"attack": 2}),
            ],
        )
    )
    assert hp(p, "a") == 16
    assert sheet(p, "a").ap == 4
    p = ok(
        fight(
            *shooters,
            order=("b", "a"),
            actions=[act("b", "overwatch"), act("a", "peek"), act("a", "end_turn")],
        )
    )
    assert "peeking" not in p.state.get("a").statuses  # for the duration of the turn


def test_WL_32_peek_needs_full_cover() -> None:
    p = fight(who("a", cover={"type": "half"}), who("b"), actions=[act("a", "peek")])
    assert refusal(p) == (1, "not_in_full_cover")


# --- WL-21: the injury test ------------------------------------------------------------

MAJOR: dict[str, Any] = {"limbs": {"left_arm": {"ct": 0, "injury": "major", "injury_dc": 14}}}


@pytest.mark.parametrize(
    ("natural", "compare", "injury"),
    [
        (11, "meet", "minor"),
        (10, "meet", "major"),
        (11, "exceed", "major"),
        (12, "exceed", "minor"),
    ],
)
def test_WL_21_injury_test_end_plus_survival(natural: int, compare: str, injury: str) -> None:
    p = ok(
        fight(
            who("a", end_mod=1, skills={"survival": 2}, **MAJOR),
            who("b"),
            actions=[act("a", "injury_test", limb="left_arm", dice={"test": natural})],
            options={"test_compare": compare},
        )
    )
    arm = limb(p, "a", "left_arm")
    assert arm.injury == injury
    assert arm.injury_dc == (14 if injury == "major" else None)


def test_WL_21_injury_test_refusals_and_off_turn() -> None:
    p = fight(who("a", **MAJOR), who("b"), actions=[act("a", "injury_test", limb="head")])
    assert refusal(p) == (1, "no_major_injury")
    p = fight(who("a", **MAJOR), who("b"), actions=[act("a", "injury_test", limb="tail")])
    assert refusal(p) == (1, "bad_limb")
    p = ok(
        fight(
            who("a"),
            who("b", **MAJOR),
            actions=[act("b", "injury_test", limb="left_arm", dice={"test": 20})],
        )
    )
    assert p.state.turn.actor == "a"  # taken inside a's turn


# --- WL-27, WL-28: explosives ----------------------------------------------------------


def throw(*others: dict[str, Any], dice: dict[str, Any], options: dict[str, Any] | None = None,
          **params: Any) -> Played:  # fmt: skip
    thrower = who("a", weapons=[GRENADE], skills={"explosives": 2})
    return ok(
        fight(thrower, *others, options=options, actions=[act("a", "throw", dice=dice, **params)])
    )


def test_WL_27_WL_G9_blast_hits_everyone_in_the_radius_with_total_dt_and_dr() -> None:
    # At [5, 5], radius 1: b ([5, 5]) and c ([6, 4]) are in, d ([7, 5]) is not.
    b = who("b", at=(5, 5), dt={"physical": 1}, limbs={"torso": {"dt": {"physical": 3}}})
    c = who("c", at=(6, 4), dr={"physical": 50}, cover={"type": "half", "attenuation": 2})
    d = who("d", at=(7, 5))
    p = throw(b, c, d, at=[5, 5], dice={"attack": 11, "damage": [6, 5]})
    # Total 11 + 2 = 13 > 12. Damage 11. b: 11 - (1 * 5 + 3) = 3. c: (11 - 2) * 50%: 4.
    assert damage(p) == {"b": 3, "c": 4}
    assert attempts(p) == {"b": True, "c": True}
    assert sheet(p, "a").weapons[0].count == 1
    assert sheet(p, "a").ap == 4
    assert rolled(p) == [("attack", 11), ("damage", 6), ("damage", 5)]


def test_WL_28_WL_A11_blast_ct_split_evenly_across_six_limbs_no_glancing() -> None:
    b = who("b", at=(3, 0), limbs={"head": {"ct": 2}})
    p = throw(b, target="b", dice={"attack": 15, "damage": [6, 6]})
    # 12 final: 2 per limb; the head's CT 2 -> 0: crippled, minor.
    assert hp(p, "b") == 8
    assert [d.damage for d in limb_damage(p)] == [2] * 6
    assert limb(p, "b", "head").injury == "minor"
    p = throw(
        who("b", at=(3, 0)),
        target="b",
        dice={"attack": 15, "damage": [6, 5]},
        options={"blast_ct_remainder": "torso"},
    )
    assert (limb(p, "b", "torso").ct, limb(p, "b", "head").ct) == (10 - 1 - 5, 9)


def test_WL_27_WL_G8_throw_difficulty_miss_crit_and_critfail() -> None:
    p = throw(who("b", at=(3, 0)), target="b", dice={"attack": 10})  # 12 does not exceed 12
    assert (damage(p), attempts(p), sheet(p, "a").weapons[0].count) == ({}, {"b": False}, 1)
    p = throw(
        who("b", at=(3, 0)),
        target="b",
        dice={"attack": 10, "damage": [1, 2]},
        options={"throw_compare": "meet"},
    )
    assert damage(p) == {"b": 3}
    p = throw(
        who("b", at=(3, 0)), target="b", dice={"attack": 20, "damage": [1, 1], "crit": [6, 2]}
    )
    assert damage(p) == {"b": 2 + 8}
    p = throw(who("b", at=(3, 0)), target="b", dice={"attack": 1}, accuracy_mod=20)
    assert damage(p) == {}


def test_WL_27_option_explosive_crits() -> None:
    p = throw(
        who("b", at=(3, 0)),
        target="b",
        dice={"attack": 20, "damage": [1, 1]},
        options={"explosive_crits": False},
    )
    assert damage(p) == {"b": 2}


def test_WL_27_the_thrower_is_caught_in_its_own_blast() -> None:
    p = throw(who("b", at=(1, 0)), at=[0, 1], dice={"attack": 15, "damage": [2, 2]})
    assert damage(p) == {"a": 4, "b": 4}


def test_WL_27_option_damage_rolled_per_creature() -> None:
    p = throw(
        who("b", at=(3, 0)),
        who("c", at=(3, 1)),
        at=[3, 0],
        dice={"attack": 15, "damage:b": [1, 1], "damage:c": [6, 6]},
        options={"explosive_roll_once": False},
    )
    assert damage(p) == {"b": 2, "c": 12}


@pytest.mark.parametrize(
    ("weapons", "params", "code"),
    [([PISTOL], {"target": "b"}, "not_explosive"),
     ([{**GRENADE, "count": 0}], {"target": "b"}, "none_left"),
     ([GRENADE], {"at": [11, 0]}, "out_of_range"),
     ([GRENADE], {"target": "c"}, "no_position")],
)  # fmt: skip
def test_WL_27_throw_refusals(weapons: list[Any], params: dict[str, Any], code: str) -> None:
    p = fight(
        who("a", weapons=weapons),
        who("b", at=(3, 0)),
        who("c", at=None),
        actions=[act("a", "throw", dice={"attack": 15}, **params)],
    )
    assert refusal(p) == (1, code)
    assert sheet(p, "a").ap == 8


# --- the worked example (2.9) ----------------------------------------------------------

EXAMPLE = (
    BURST_EXAMPLE.replace(
        "    skills: {explosives: 1}\n",
        """    skills: {explosives: 1}
    weapons:
      - {name: grenade, kind: explosive, damage: 2d6, throw_difficulty: 12, blast_radius: 1,
         ap: 4}
""",
    )
    + """  - actor: brute
    do: throw
    target: vera
    dice: {attack: 13, damage: [3, 5]}
"""
)


def test_worked_example_2_9() -> None:
    p = ok(play_text(EXAMPLE))
    # 3. Grenade at vera's tile (8 tiles, Medium 10): 13 + 0 per + 1 = 14 > 12. Damage
    #    3 + 5 = 8 - total DT 6 = 2. vera 10 -> 8; CT floor(2 / 6) = 0 per limb.
    assert {cid: c.hp for cid, c in p.state.combatants.items()} == {
        "vera": 8,
        "raider": 14,
        "brute": 17,
    }
    assert limb(p, "vera", "head").injury == "minor"
    assert p.state.get("raider").statuses == {"bleed": {"x": 1}}
    assert p.state.get("brute").statuses == {"bleed": {"x": 1}}
    assert sheet(p, "brute").weapons[0].count == 0
    assert "  vera takes 2 damage (blast 8 - total DT 6 = 2): HP 10 -> 8" in log(p)
