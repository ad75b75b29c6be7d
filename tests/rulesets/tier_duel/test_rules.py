"""tier-duel rules TD-1 to TD-24 and the worked example of tier-duel.md 2.7.

Each test fixes every die its actions roll, so HP, temporary damage, loads,
statuses and the turn's spent actions are exact. The reading tested is
``/work/shared/rules/tier-duel.md``; gaps, ambiguities and options are in
``test_options.py``, refusals in ``test_refusals.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

from fracas.model import Damaged, StatusSet
from fracas.rulesets.base import is_down
from fracas.rulesets.tier_duel.events import Revealed
from tests.helpers import Played, play
from tests.rulesets.tier_duel.support import (
    ANA,
    act,
    attempts,
    damage,
    duel,
    hp,
    item,
    left,
    log,
    ok,
    refusal,
    rolled,
    rolls,
    sheet,
    temp,
    who,
)
from tests.rulesets.tier_duel.support import BO as AXE_BO
from tests.rulesets.tier_duel.support import melee as ana_on_bo

# ana: armor bonus 1 + 1 = 2, sword Tier 2; bo: armor bonus 2, axe Tier 1, and a better
# sword skill he does not use while he holds the axe.
BO: dict[str, Any] = {**AXE_BO, "skills": {"axe": 2, "sword": 5}}


def melee(attack: int, defend: int, **options: Any) -> Played:
    return ana_on_bo(attack, defend, BO, **options)


# --- the contested roll core -----------------------------------------------------------


def test_TD_1_both_roll_d20_reflex_and_the_skill_of_their_own_weapon() -> None:
    p = ok(melee(10, 8))
    a, d = rolls(p)
    assert (a.actor, a.natural, a.parts, a.total) == ("ana", 10, (("reflex", 2), ("sword", 3)), 15)
    # bo holds an axe: his axe skill (2) counts, not his better sword skill (5).
    assert (d.actor, d.natural, d.parts, d.total) == ("bo", 8, (("reflex", 1), ("axe", 2)), 11)
    assert rolled(p) == ["attack", "defend"]


@pytest.mark.parametrize(
    ("attack", "defend", "ana_hp", "bo_hp", "lost"),
    [
        # ana 15+5 = 20, bo 6+3 = 9: ana by 11, 11 + 3 body + 2 tier - 2 armor = 14.
        (15, 6, 20, 6, {"bo": True, "ana": False}),
        # ana 5+5 = 10, bo 15+3 = 18: bo by 8, though ana attacked: 8 + 2 + 1 - 2 = 9.
        (5, 15, 11, 20, {"bo": False, "ana": True}),
    ],
)
def test_TD_2_only_the_winner_deals_damage_whoever_attacked(
    attack: int, defend: int, ana_hp: int, bo_hp: int, lost: dict[str, bool]
) -> None:
    p = ok(melee(attack, defend))
    assert (hp(p, "ana"), hp(p, "bo")) == (ana_hp, bo_hp)
    assert attempts(p) == lost  # both could deal damage: both are reported to the odds
    assert left(p) == (1, 0)


def test_TD_3_a_tie_deals_no_damage() -> None:
    p = ok(melee(10, 12))  # 15 vs 15
    assert (hp(p, "ana"), hp(p, "bo")) == (20, 20)
    assert damage(p) == {}
    assert attempts(p) == {"bo": False, "ana": False}
    assert left(p) == (1, 0)  # the contested action is spent all the same
    assert "  a tie: nobody deals damage (TD-3)" in log(p)


def test_TD_4_melee_damage_is_diff_body_tier_minus_armor_and_shield() -> None:
    p = ok(
        duel(
            who("ana", 0, **{**ANA, "body": 4, "hand": {"is": "sword", "tier": 3}}),
            who("bo", 1, **{**BO, "armor_tier": 1, "shield_tier": 2}),
            actions=[act("ana", "attack", "bo", dice={"attack": 12, "defend": 4})],
        )
    )
    # 17 vs 7: 10 diff + 4 body + 3 tier - (1 + 2) armor = 14.
    (dealt,) = [e for e in p.records[-1].events if isinstance(e, Damaged)]
    assert (dealt.target, dealt.amount) == ("bo", 14)
    assert dealt.cause == "10 diff + 4 body + 3 tier - 3 armor"
    assert (hp(p, "bo"), temp(p, "bo")) == (6, 14)


def test_TD_4_negative_damage_is_floored_at_zero() -> None:
    p = ok(
        duel(
            who("ana", 0, **ANA),
            who("bo", 1, **{**BO, "armor_tier": 8, "shield_tier": 4}),
            actions=[act("ana", "attack", "bo", dice={"attack": 11, "defend": 12})],
        )
    )
    # 16 vs 15: 1 + 3 + 2 - 12 = -6, floored: 0. A hit all the same (it lost the event).
    assert damage(p) == {"bo": 0}
    assert attempts(p)["bo"] is True
    assert (hp(p, "bo"), temp(p, "bo")) == (20, 0)


def test_TD_5_damage_is_removed_from_hp_and_tracked_as_temporary_damage() -> None:
    p = ok(
        duel(
            who("ana", 0, **ANA),
            who("bo", 1, **BO, hp=17, temporary_damage=3),
            actions=[act("ana", "attack", "bo", dice={"attack": 15, "defend": 6})],
        )
    )
    assert (hp(p, "bo"), temp(p, "bo")) == (3, 17)  # 14 more


def test_TD_5_hp_stops_at_zero_and_the_combatant_is_down() -> None:
    p = ok(
        duel(
            who("ana", 0, **ANA),
            who("bo", 1, **BO, hp=5),
            actions=[act("ana", "attack", "bo", dice={"attack": 15, "defend": 6})],
        )
    )
    assert (hp(p, "bo"), temp(p, "bo")) == (0, 14)  # HP stops at 0; the damage is tracked
    assert is_down(p.file.ruleset, p.state.get("bo"))


SPEAR_ANA: dict[str, Any] = {**ANA, "skills": {"spear": 3}, "hand": {"is": "spear", "tier": 2}}
SWORD_BO: dict[str, Any] = {**BO, "skills": {"sword": 2}, "hand": "sword"}


@pytest.mark.parametrize(
    ("attack", "defend", "bo_hp", "lost"),
    [
        # ana 5+5 = 10, bo 15+3 = 18: bo wins by 8 but his sword (reach 1) is 2 tiles off.
        (5, 15, 20, {"bo": False}),
        # ana 15+5 = 20, bo 6+3 = 9: ana's spear reaches 2: 11 + 3 + 2 - 2 = 14.
        (15, 6, 6, {"bo": True}),
    ],
)
def test_TD_6_only_the_side_in_reach_deals_damage(
    attack: int, defend: int, bo_hp: int, lost: dict[str, bool]
) -> None:
    p = ok(
        duel(
            who("ana", 0, **SPEAR_ANA),
            who("bo", 2, **SWORD_BO),
            actions=[act("ana", "attack", "bo", dice={"attack": attack, "defend": defend})],
        )
    )
    assert (hp(p, "ana"), hp(p, "bo")) == (20, bo_hp)
    assert attempts(p) == lost  # bo can never damage ana here: only bo is reported
    if bo_hp == 20:
        assert "  the sword does not reach ana (reach 1, 2 tiles): no damage (TD-6)" in log(p)


def test_TD_6_the_side_out_of_reach_may_still_declare_the_event() -> None:
    p = ok(
        duel(
            who("ana", 0, **SPEAR_ANA),
            who("bo", 2, **SWORD_BO),
            actions=[
                act("bo", "attack", "ana", dice={"attack": 15, "defend": 2}),  # bo by far
                act("bo", "end_turn"),
                act("bo", "attack", "ana", dice={"attack": 2, "defend": 15}),  # ana wins by 17
            ],
        )
    )
    assert damage(p, 1) == {}
    assert attempts(p, 1) == {"ana": False, "bo": False}
    # ana 15+5 = 20, bo 2+3 = 5: 15 + 3 + 2 - 2 = 18.
    assert (hp(p, "ana"), hp(p, "bo")) == (20, 2)


# --- projectiles -------------------------------------------------------------------------

BOWMAN: dict[str, Any] = {
    "reflex": 2,
    "body": 3,
    "skills": {"bow": 2, "thrown": 2},
    "armor_tier": 1,
    "hand": "bow",
}


def test_TD_7_the_defender_adds_its_best_weapon_skill_even_unarmed() -> None:
    p = ok(
        duel(
            who("ana", 0, **BOWMAN),
            who("bo", 5, reflex=1, skills={"axe": 4, "sword": 1, "stealth": 9}),
            actions=[act("ana", "attack", "bo", dice={"attack": 10, "defend": 10})],
        )
    )
    a, d = rolls(p)
    assert a.total == 14
    # Stealth (9) is not a weapon skill; the axe (4) is, though bo holds nothing.
    assert d.parts == (("reflex", 1), ("axe (best weapon skill)", 4))
    assert d.total == 15
    assert (hp(p, "ana"), hp(p, "bo")) == (20, 20)  # bo wins by 1, unarmed and far: nothing


@pytest.mark.parametrize(
    ("hand", "bo_hp"),
    [
        # 15+2+2 = 19 vs 5+1 = 6: by 13. Bow: 13 + 2 tier - 2 armor = 13 (no body).
        ({"is": "bow", "tier": 2}, 7),
        # Thrown: 13 + 2 tier + 3 body - 2 armor = 16.
        ({"is": "javelin", "tier": 2}, 4),
    ],
)
def test_TD_8_bow_damage_has_no_body_thrown_damage_has(hand: dict[str, Any], bo_hp: int) -> None:
    p = ok(
        duel(
            who("ana", 0, **{**BOWMAN, "hand": hand}),
            who("bo", 4, reflex=1, armor_tier=2),
            actions=[act("ana", "attack", "bo", dice={"attack": 15, "defend": 5})],
        )
    )
    assert (hp(p, "bo"), temp(p, "bo")) == (bo_hp, 20 - bo_hp)
    assert attempts(p) == {"bo": True}
    assert item(p, "ana").name == hand["is"]  # a thrown weapon stays in hand (2.3)
    assert left(p) == (1, 0)


@pytest.mark.parametrize(
    ("bo_hand", "x", "ana_hp", "lost"),
    [
        # 5+2+2 = 9 vs 15+1+3 = 19: bo by 10; within his axe's reach: 10 + 2 + 1 - 1 = 12.
        ("axe", 1, 8, {"bo": False, "ana": True}),
        ("spear", 2, 8, {"bo": False, "ana": True}),  # reach 2
        ("axe", 3, 20, {"bo": False}),  # out of reach: no damage
        (None, 1, 20, {"bo": False}),  # bare hands are not a melee weapon equipped
        ("bow", 1, 20, {"bo": False}),  # "even if both units are using projectile weapons"
    ],
)
def test_TD_9_the_defender_wins_no_damage_unless_a_melee_weapon_reaches(
    bo_hand: str | None, x: int, ana_hp: int, lost: dict[str, bool]
) -> None:
    p = ok(
        duel(
            who("ana", 0, **BOWMAN),
            who("bo", x, reflex=1, body=2, skills={"axe": 3}, hand=bo_hand),
            actions=[act("ana", "attack", "bo", dice={"attack": 5, "defend": 15})],
        )
    )
    assert (hp(p, "ana"), hp(p, "bo")) == (ana_hp, 20)
    assert attempts(p) == lost
    assert temp(p, "ana") == 20 - ana_hp


def test_TD_10_a_projectile_tie_deals_no_damage() -> None:
    p = ok(
        duel(
            who("ana", 0, **BOWMAN),
            who("bo", 1, reflex=1, body=2, skills={"axe": 3}, hand="axe"),
            actions=[act("ana", "attack", "bo", dice={"attack": 9, "defend": 9})],  # 13 vs 13
        )
    )
    assert (hp(p, "ana"), hp(p, "bo")) == (20, 20)
    assert attempts(p) == {"bo": False, "ana": False}


# --- crossbows ------------------------------------------------------------------------


def crossbow(hand: dict[str, Any], x: int, bo: dict[str, Any], **options: Any) -> Any:
    dice = {} if x <= 3 else {"attack": 15, "defend": 2}
    return duel(
        who("ana", 0, reflex=1, skills={"crossbow": 3}, hand=hand),
        who("bo", x, **bo),
        actions=[act("ana", "attack", "bo", dice=dice)],
        options=options,
    )


def test_TD_11_a_crossbow_hits_automatically_within_the_skill_in_tiles() -> None:
    p = ok(crossbow({"is": "crossbow_1h", "tier": 2}, 3, {}))
    assert rolled(p) == []  # no contest
    assert (hp(p, "bo"), attempts(p)) == (18, {"bo": True})
    assert left(p) == (0, 1)  # a non-contested action
    beyond = ok(crossbow({"is": "crossbow_1h", "tier": 2}, 4, {}))
    assert rolled(beyond) == ["attack", "defend"]  # one tile further: contested (TD-G3)
    assert left(beyond) == (1, 0)


@pytest.mark.parametrize(
    ("tier", "armor", "shield", "bo_hp"),
    [
        (3, 4, 0, 18),  # armor 4 - 3 = 1 left: 3 - 1 = 2
        (3, 2, 2, 18),  # the shield is armor too (4)
        (3, 1, 0, 17),  # 1 - 3: nothing left: 3 (TD-A1: the formula line would give 5)
        (1, 8, 0, 20),  # 1 - 7 = -6, floored: 0
    ],
)
def test_TD_12_one_handed_crossbow_reduces_armor_by_tier(
    tier: int, armor: int, shield: int, bo_hp: int
) -> None:
    p = ok(
        crossbow(
            {"is": "crossbow_1h", "tier": tier}, 2, {"armor_tier": armor, "shield_tier": shield}
        )
    )
    assert (hp(p, "bo"), temp(p, "bo")) == (bo_hp, 20 - bo_hp)


@pytest.mark.parametrize(
    ("tier", "armor", "shield", "bo_hp"),
    [
        (3, 4, 0, 17),  # 4 - 6: nothing left: 3 (TD-A2: not 5)
        (2, 5, 0, 19),  # 5 - 4 = 1 left: 1
        (2, 7, 0, 20),  # 7 - 4 = 3 left: -1, floored: 0
        (1, 3, 1, 20),  # 4 - 2 = 2 left: -1, floored: 0
    ],
)
def test_TD_13_two_handed_crossbow_reduces_armor_by_twice_the_tier(
    tier: int, armor: int, shield: int, bo_hp: int
) -> None:
    p = ok(
        crossbow(
            {"is": "crossbow_2h", "tier": tier}, 2, {"armor_tier": armor, "shield_tier": shield}
        )
    )
    assert hp(p, "bo") == bo_hp


@pytest.mark.parametrize(("kind", "armor"), [("crossbow_1h", 1), ("crossbow_2h", 0)])
def test_TD_14_armor_is_never_reduced_below_zero(kind: str, armor: int) -> None:
    p = ok(crossbow({"is": kind, "tier": 4}, 1, {"armor_tier": armor}))
    assert hp(p, "bo") == 16  # a crossbow never deals more than its Tier
    (dealt,) = [e for e in p.records[-1].events if isinstance(e, Damaged)]
    assert dealt.cause.startswith("4 tier - 0 armor left")


def test_TD_15_firing_unloads_the_crossbow_hit_or_miss() -> None:
    p = ok(
        duel(
            who("ana", 0, skills={"crossbow": 1}, hand="crossbow_1h"),
            who("bo", 5),
            actions=[
                act("ana", "attack", "bo", dice={"attack": 2, "defend": 15}),  # a lost contest
            ],
        )
    )
    assert hp(p, "bo") == 20
    assert item(p, "ana").loaded is False
    again = duel(
        who("ana", 0, skills={"crossbow": 1}, hand="crossbow_1h"),
        who("bo", 1),
        actions=[
            act("ana", "attack", "bo"),
            act("ana", "end_turn"),
            act("bo", "end_turn"),
            act("ana", "attack", "bo"),
        ],
    )
    assert refusal(again) == (4, "not_loaded")
    reloaded = ok(
        duel(
            who("ana", 0, skills={"crossbow": 1}, hand={"is": "crossbow_1h", "loaded": False}),
            who("bo", 1),
            actions=[act("ana", "reload")],
        )
    )
    assert item(reloaded, "ana").loaded is True
    assert left(reloaded) == (0, 1)  # TD-G4: reloading is a non-contested action


# --- firearms ---------------------------------------------------------------------------

GUN: dict[str, Any] = {"is": "firearm", "tier": 3, "ammo_bonus": 1}


def shoot(x: int, dice: dict[str, int], bo: dict[str, Any] | None = None) -> Any:
    return duel(
        who("ana", 0, reflex=1, skills={"firearm": 2}, hand=GUN),
        who("bo", x, **(bo or {"skills": {"sword": 3}})),
        actions=[act("ana", "attack", "bo", dice=dice)],
    )


@pytest.mark.parametrize("x", [1, 5])
def test_TD_16_inside_the_guaranteed_zone_the_damage_applies_with_no_roll(x: int) -> None:
    p = ok(shoot(x, {}))
    assert rolled(p) == []
    assert (hp(p, "bo"), temp(p, "bo")) == (12, 8)  # 2 x 3 + 2 x 1
    assert attempts(p) == {"bo": True}
    assert left(p) == (0, 1)
    assert item(p, "ana").loaded is False


@pytest.mark.parametrize(
    ("attack", "defend", "bo_hp"),
    [
        (11, 10, 12),  # 14 vs 13: the weapon's damage, 8, without the difference
        (20, 1, 12),  # by 18: still 8
        (10, 10, 20),  # 13 vs 13: a tie, nothing
        (5, 15, 20),  # the shooter loses: nothing
    ],
)
def test_TD_17_in_the_contested_zone_both_roll_and_a_win_deals_the_weapon_damage(
    attack: int, defend: int, bo_hp: int
) -> None:
    p = ok(shoot(6, {"attack": attack, "defend": defend}))
    assert rolled(p) == ["attack", "defend"]
    assert rolls(p)[1].parts == (("sword (best weapon skill)", 3),)  # the defender's bonus
    assert hp(p, "bo") == bo_hp
    assert attempts(p) == {"bo": bo_hp < 20}
    assert left(p) == (1, 0)


def test_TD_17_beyond_the_contested_zone_is_out_of_range() -> None:
    assert refusal(shoot(16, {"attack": 11, "defend": 10})) == (1, "out_of_range")
    assert ok(shoot(15, {"attack": 11, "defend": 10})).state.get("bo").hp == 12


def test_TD_18_no_armor_is_applied_versus_firearm_damage() -> None:
    p = ok(shoot(2, {}, {"armor_tier": 5, "shield_tier": 3}))
    assert hp(p, "bo") == 12
    (dealt,) = [e for e in p.records[-1].events if isinstance(e, Damaged)]
    assert dealt.cause == "6 tier x2 + 2 ammo_bonus x2, no armor (TD-18)"


# --- magic ----------------------------------------------------------------------------


def test_TD_19_a_spell_takes_no_dice_and_ignores_armor() -> None:
    fireball = {"name": "fireball", "type": "spell", "damage": 5, "effect": "burning"}
    p = ok(
        duel(
            who("ana", 0, hand=fireball),
            who("bo", 9, armor_tier=4, shield_tier=2),
            actions=[act("ana", "cast", "bo", spell="fireball")],
        )
    )
    assert rolled(p) == []
    assert (hp(p, "bo"), temp(p, "bo")) == (15, 5)
    assert p.state.get("bo").statuses == {"burning": {"from": "ana"}}
    assert attempts(p) == {"bo": True}
    assert left(p) == (0, 1)


def test_TD_19_an_effect_only_spell_from_the_inventory() -> None:
    hex_ = {"name": "hex", "type": "spell", "effect": "hexed"}
    p = ok(
        duel(
            who("ana", 0, hand="sword", inventory=[hex_]),
            who("bo", 9),
            actions=[act("ana", "cast", "bo", spell="hex")],
        )
    )
    assert damage(p) == {}
    assert hp(p, "bo") == 20
    (status,) = [e for e in p.records[-1].events if isinstance(e, StatusSet)]
    assert (status.target, status.status, dict(status.details)) == ("bo", "hexed", {"from": "ana"})
    assert [i.name for i in sheet(p, "ana").inventory] == ["hex"]  # a spell is not used up
    assert item(p, "ana").name == "sword"


# --- stealth --------------------------------------------------------------------------

SNEAK: dict[str, Any] = {
    "reflex": 2,
    "body": 3,
    "presence": 2,
    "skills": {"sword": 3, "bow": 4, "thrown": 2, "stealth": 3},
    "hand": {"is": "sword", "tier": 2},
}
MARK: dict[str, Any] = {"presence": 1, "skills": {"stealth": 1}, "armor_tier": 2, "shield_tier": 1}


def sneak(
    dice: dict[str, int], *, hand: Any = None, x: int = 1, mark: dict[str, Any] | None = None
) -> Any:
    ana = {**SNEAK, **({"hand": hand} if hand is not None else {})}
    return duel(
        who("ana", 0, **ana),
        who("bo", x, **(mark or MARK)),
        actions=[act("ana", "stealth", "bo", behind=True, dice=dice)],
    )


def test_TD_20_the_stealth_contest_is_d20_presence_and_stealth() -> None:
    p = ok(sneak({"stealth": 10, "notice": 12, "strike": 1}))
    s, n, _ = rolls(p)
    assert (s.label, s.parts, s.total) == ("stealth", (("presence", 2), ("stealth", 3)), 15)
    assert (n.label, n.parts, n.total) == ("notice", (("presence", 1), ("stealth", 1)), 14)
    assert rolled(p) == ["stealth", "notice", "strike"]
    assert left(p) == (1, 0)


def test_TD_20_stealth_with_a_ranged_weapon_too() -> None:
    p = ok(sneak({"stealth": 10, "notice": 2, "strike": 10}, hand={"is": "bow", "tier": 2}, x=5))
    assert rolled(p) == ["stealth", "notice", "strike"]
    assert hp(p, "bo") == 5  # 10 strike + 2 reflex + 4 bow + 2 tier - 3 armor = 15


def test_TD_21_a_win_is_a_strike_the_opponent_cannot_defend() -> None:
    # bo's reflex and weapon skills do not count: he rolls no defence at all.
    strong = {**MARK, "reflex": 9, "skills": {"stealth": 1, "sword": 9}, "hand": "sword"}
    p = ok(sneak({"stealth": 10, "notice": 12, "strike": 10}, mark=strong))
    q = ok(sneak({"stealth": 10, "notice": 12, "strike": 10}))
    assert "defend" not in rolled(p)
    assert hp(p, "bo") == hp(q, "bo") == 3
    assert attempts(p) == {"bo": True}  # bo cannot strike back: ana is not at risk
    assert left(p) == (1, 0)  # the strike is free: only the contest's action is spent


@pytest.mark.parametrize(("stealth", "notice"), [(5, 15), (10, 13)])  # a loss; a tie (15 vs 15)
def test_TD_22_a_lost_or_tied_contest_wastes_the_contested_action(
    stealth: int, notice: int
) -> None:
    p = ok(sneak({"stealth": stealth, "notice": notice}))
    assert rolled(p) == ["stealth", "notice"]
    assert (hp(p, "bo"), damage(p), attempts(p)) == (20, {}, {"bo": False})
    assert left(p) == (1, 0)
    assert not [e for e in p.records[-1].events if isinstance(e, Revealed)]


@pytest.mark.parametrize(
    ("hand", "x", "bo_hp"),
    [
        # strike 10 + 2 reflex + 3 sword + 3 body + 2 tier - 3 armor = 17
        ({"is": "sword", "tier": 2}, 1, 3),
        # thrown: 10 + 2 + 2 thrown + 3 body + 2 tier - 3 = 16
        ({"is": "javelin", "tier": 2}, 3, 4),
        # bow, no body: 10 + 2 + 4 bow + 2 tier - 3 = 15
        ({"is": "bow", "tier": 2}, 5, 5),
    ],
)
def test_TD_23_stealth_damage_by_weapon(hand: dict[str, Any], x: int, bo_hp: int) -> None:
    p = ok(sneak({"stealth": 15, "notice": 3, "strike": 10}, hand=hand, x=x))
    assert (hp(p, "bo"), temp(p, "bo")) == (bo_hp, 20 - bo_hp)
    strike = rolls(p)[2]
    assert (strike.label, strike.natural, strike.total) == ("strike", 10, 23 - bo_hp)


def test_TD_23_stealth_damage_is_floored_at_zero() -> None:
    p = ok(sneak({"stealth": 15, "notice": 3, "strike": 1}, mark={**MARK, "armor_tier": 30}))
    assert damage(p) == {"bo": 0}
    assert hp(p, "bo") == 20


def test_TD_6_a_stealth_strike_needs_the_initiators_own_reach() -> None:
    # bo's spear reaches ana, so the contest is legal (2.3: out_of_reach only if neither
    # reaches); ana wins it, but her sword does not reach: no strike, no damage, no reveal.
    p = ok(sneak({"stealth": 15, "notice": 3}, x=2, mark={**MARK, "hand": "spear"}))
    assert rolled(p) == ["stealth", "notice"]
    assert (damage(p), attempts(p)) == ({}, {"bo": False})
    assert not [e for e in p.records[-1].events if isinstance(e, Revealed)]
    assert "  the sword does not reach bo (reach 1, 2 tiles): no damage (TD-6)" in log(p)


def test_TD_24_a_stealth_attack_reveals_the_attacker_and_may_come_again() -> None:
    p = ok(
        duel(
            who("ana", 0, **SNEAK),
            who("bo", 1, **MARK),
            actions=[
                act("ana", "stealth", "bo", behind=True, dice={"stealth": 15, "notice": 3}),
                act("bo", "end_turn"),  # bo ignores ana
                act("ana", "stealth", "bo", behind=True, dice={"stealth": 15, "notice": 3}),
            ],
        )
    )
    for n in (1, 3):
        (revealed,) = [e for e in p.records[n].events if isinstance(e, Revealed)]
        assert (revealed.actor, revealed.at) == ("ana", (0, 0))
    assert "  ana's location is revealed to everyone: [0, 0] (TD-24)" in log(p)
    assert p.state.round == 2


# --- the worked example (tier-duel.md 2.7) ---------------------------------------------

EXAMPLE = """
ruleset: tier-duel
order: [ana, bo]
combatants:
  - id: ana
    at: [0, 0]
    reflex: 2
    body: 3
    skills: {sword: 3, stealth: 2}
    armor_tier: 1
    shield_tier: 1
    hand: {is: sword, tier: 2}
  - id: bo
    at: [1, 0]
    reflex: 1
    body: 2
    skills: {crossbow: 4}
    armor_tier: 2
    hand: {is: crossbow_2h, tier: 2}
actions:
  - actor: ana
    do: attack
    target: bo
    dice: {attack: 9, defend: 13}
  - actor: bo
    do: attack
    target: ana
  - actor: ana
    do: attack
    target: bo
    dice: {attack: 15, defend: 6}
  - actor: bo
    do: reload
"""


def test_TD_worked_example_2_7() -> None:
    p = ok(play(EXAMPLE))
    # 1. 14 vs 18 (bo adds his held crossbow's skill); the crossbow has no reach: nothing.
    assert [r.total for r in rolls(p, 1)] == [14, 18]
    assert damage(p, 1) == {}
    # 2. No dice; armor 2 - 2 x 2: nothing left; 2 damage (not the literal line's 4).
    assert (rolled(p, 2), damage(p, 2)) == ([], {"ana": 2})
    # 3. Round 2: 20 vs 11, 9 + 3 + 2 - 2 = 12.
    assert (p.state.round, damage(p, 3)) == (2, {"bo": 12})
    # Expected: ana hp 18 (temporary_damage 2); bo hp 8 (temporary_damage 12, loaded).
    assert (hp(p, "ana"), temp(p, "ana")) == (18, 2)
    assert (hp(p, "bo"), temp(p, "bo"), item(p, "bo").loaded) == (8, 12, True)
    assert left(p) == (0, 1)  # bo's reload is his non-contested action of round 2
