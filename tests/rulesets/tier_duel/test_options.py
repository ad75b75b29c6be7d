"""tier-duel gap defaults (TD-G1 to TD-G10), ambiguities (TD-A1 to TD-A8), every option
of 2.5, the items of 2.2 and the outputs of 2.6.

Each option test plays the same encounter with the default and with the option
changed, and checks that exactly the documented outcome changes.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from fracas.errors import FileError
from fracas.model import Damaged
from fracas.rulesets.tier_duel.data import SHORTHANDS
from fracas.rulesets.tier_duel.items import Item, check_item, expand_item
from fracas.rulesets.tier_duel.rules import TierDuel
from fracas.words.render import state_json
from tests.helpers import Played
from tests.rulesets.tier_duel.support import (
    ANA,
    BO,
    act,
    attempts,
    damage,
    duel,
    hp,
    item,
    left,
    log,
    melee,
    ok,
    refusal,
    rolled,
    rolls,
    temp,
    who,
)


def parsed(value: str | dict[str, Any]) -> Item:
    """An item as a file gives it (a short-hand or a mapping), validated."""
    checked = check_item(Item(**expand_item(value)))
    assert checked is not None
    return checked


# --- gaps ---------------------------------------------------------------------------------


def test_TD_G1_hp_is_an_input_default_20_and_zero_is_down() -> None:
    p = ok(duel(who("ana"), who("bo", 1, hp=7, max_hp=9)))
    assert [(c.hp, c.max_hp) for c in p.state.combatants.values()] == [(20, 20), (7, 9)]
    q = ok(duel(who("ana"), who("bo", 1, hp=0)))
    assert state_json(q.file.ruleset, q.state)["combatants"]["bo"]["down"] is True


def test_TD_G1_option_max_hp() -> None:
    p = ok(duel(who("ana"), who("bo", 1, max_hp=9), options={"max_hp": 30}))
    assert [(c.hp, c.max_hp) for c in p.state.combatants.values()] == [(30, 30), (9, 9)]
    assert TierDuel.contract.default_max_hp == 20  # what `fracas rules` shows


def test_TD_G2_ties_deal_no_damage_and_the_stealth_initiator_fails() -> None:
    melee_tie = ok(melee(10, 12))  # 15 vs 15
    assert (damage(melee_tie), attempts(melee_tie)) == ({}, {"bo": False, "ana": False})
    sneak = ok(
        duel(
            who("ana", 0, skills={"stealth": 2}, hand="sword"),
            who("bo", 1, skills={"stealth": 2}),
            actions=[act("ana", "stealth", "bo", behind=True, dice={"stealth": 8, "notice": 8})],
        )
    )
    assert (rolled(sneak), damage(sneak), left(sneak)) == (["stealth", "notice"], {}, (1, 0))
    assert "  ana ties: no opening; the contested action is wasted (TD-22)" in log(sneak)


@pytest.mark.parametrize(
    ("x", "attack", "defend", "bo_hp"),
    [
        (2, None, None, 18),  # within skill 2: automatic, 2 - max(0, 1 - 2) = 2
        (3, 20, 1, 18),  # beyond: a contest; won by 19, still 2 (no roll difference)
        (3, 12, 10, 18),  # 14 vs 13, won by 1: 2
        (3, 5, 15, 20),  # lost: nothing
    ],
)
def test_TD_G3_a_crossbow_beyond_its_skill_is_a_contest_without_the_difference(
    x: int, attack: int | None, defend: int | None, bo_hp: int
) -> None:
    dice = {} if attack is None else {"attack": attack, "defend": defend}
    p = ok(
        duel(
            who("ana", 0, skills={"crossbow": 2}, hand={"is": "crossbow_1h", "tier": 2}),
            who("bo", x, armor_tier=1, skills={"sword": 3}),
            actions=[act("ana", "attack", "bo", dice=dice)],
        )
    )
    assert hp(p, "bo") == bo_hp
    assert item(p, "ana").loaded is False  # fired, hit or not
    if attack is not None:
        # the shooter's crossbow skill; the defender's best weapon skill
        assert [r.parts for r in rolls(p)] == [
            (("crossbow", 2),),
            (("sword (best weapon skill)", 3),),
        ]
        assert left(p) == (1, 0)


def test_TD_G4_reloading_is_a_non_contested_action_without_ammunition_stock() -> None:
    p = ok(
        duel(
            who("ana", 0, skills={"crossbow": 5}, hand="crossbow_2h"),
            who("bo", 1),
            actions=[
                act("ana", "attack", "bo"),
                act("ana", "end_turn"),
                act("bo", "end_turn"),
                act("ana", "reload"),
                act("ana", "end_turn"),
                act("bo", "end_turn"),
                act("ana", "attack", "bo"),
                act("ana", "end_turn"),
                act("bo", "end_turn"),
                act("ana", "reload"),
            ],
        )
    )
    assert (hp(p, "bo"), item(p, "ana").loaded, p.state.round) == (18, True, 4)


@pytest.mark.parametrize(
    ("hand", "x", "legal"),
    [
        ("sword", 1, True),
        ("sword", 2, False),
        ("spear", 2, True),
        ("spear", 3, False),
        ({"is": "sword", "reach": 3}, 3, True),  # an item's own reach
        (None, 1, True),  # bare hands reach 1
        (None, 2, False),
    ],
    ids=str,
)
def test_TD_G5_melee_reach_1h_1_2h_2(hand: Any, x: int, legal: bool) -> None:
    p = duel(
        who("ana", 0, hand=hand),
        who("bo", x, hand="bow"),  # a bow has no reach: only ana's counts
        actions=[act("ana", "attack", "bo", dice={"attack": 20, "defend": 1})],
    )
    if legal:
        assert ok(p).state.get("bo").hp < 20
    else:
        assert refusal(p) == (1, "out_of_reach")


def test_TD_G6_actions_left_are_restored_at_the_start_of_the_turn() -> None:
    p = ok(
        duel(
            who("ana", 0, **ANA),
            who("bo", 1, **BO),
            actions=[act("ana", "attack", "bo", dice={"attack": 10, "defend": 10})],
        )
    )
    out = state_json(p.file.ruleset, p.state)["combatants"]
    assert out["ana"]["actions_left"] == {"contested": 0, "noncontested": 1}
    assert out["bo"]["actions_left"] == {"contested": 1, "noncontested": 1}
    q = ok(
        duel(
            who("ana", 0, **ANA),
            who("bo", 1, **BO),
            actions=[
                act("ana", "attack", "bo", dice={"attack": 10, "defend": 10}),
                act("bo", "end_turn"),
            ],
        )
    )
    assert (q.state.round, q.state.turn.actor, left(q)) == (2, "ana", (0, 0))
    out = state_json(q.file.ruleset, q.state)["combatants"]
    assert out["ana"]["actions_left"] == {"contested": 1, "noncontested": 1}


@pytest.mark.parametrize(
    ("hand", "skill"),
    [
        ("greatsword", "sword"),  # a short-hand's skill is its own
        ("axe", "axe"),
        ({"name": "mace", "type": "melee_1h"}, "mace"),  # no short-hand: the item's name
        ({"name": "mace", "type": "melee_1h", "skill": "axe"}, "axe"),
        (None, "unarmed"),
    ],
    ids=str,
)
def test_TD_G7_the_melee_skill_is_the_held_weapons(hand: Any, skill: str) -> None:
    skills = {"sword": 1, "axe": 2, "mace": 3, "unarmed": 4}
    p = ok(
        duel(
            who("ana", 0, skills=skills, hand=hand),
            who("bo", 1),
            actions=[act("ana", "attack", "bo", dice={"attack": 10, "defend": 10})],
        )
    )
    assert rolls(p)[0].parts == ((skill, skills[skill]),)


def test_TD_G7_bare_hands_are_tier_0() -> None:
    p = ok(
        duel(
            who("ana", 0, body=1),
            who("bo", 1),
            actions=[act("ana", "attack", "bo", dice={"attack": 15, "defend": 5})],
        )
    )
    assert damage(p) == {"bo": 11}  # 10 diff + 1 body + 0 tier


def test_TD_G8_ammo_bonus_and_spells_are_inputs() -> None:
    assert (parsed("firearm").ammo_bonus, parsed("firearm").tier) == (0, 1)
    p = ok(
        duel(
            who("ana", 0, hand={"is": "firearm", "ammo_bonus": 4}),
            who("bo", 1),
            actions=[act("ana", "attack", "bo")],
        )
    )
    assert damage(p) == {"bo": 10}  # 2 x 1 + 2 x 4


def test_TD_G9_negative_damage_is_floored() -> None:
    p = ok(melee(11, 12, {**BO, "armor_tier": 8, "shield_tier": 4}))  # 1 + 3 + 2 - 12 = -6
    assert (damage(p), hp(p, "bo")) == ({"bo": 0}, 20)
    assert "1 diff + 3 body + 2 tier - 12 armor = -6, floor 0" in log(p)[-1]


def test_TD_G10_firearms_ignore_armor_and_shield() -> None:
    p = ok(
        duel(
            who("ana", 0, hand="firearm"),
            who("bo", 1, armor_tier=3, shield_tier=3),
            actions=[act("ana", "attack", "bo")],
        )
    )
    assert damage(p) == {"bo": 2}


# --- ambiguities -------------------------------------------------------------------------


def crossbow(kind: str, tier: int, armor: int, **options: Any) -> Played:
    return duel(
        who("ana", 0, skills={"crossbow": 3}, hand={"is": kind, "tier": tier}),
        who("bo", 1, armor_tier=armor),
        actions=[act("ana", "attack", "bo")],
        options=options,
    )


def test_TD_A1_one_handed_crossbow_text_versus_formula_line() -> None:
    assert damage(ok(crossbow("crossbow_1h", 3, 1))) == {"bo": 3}
    assert damage(ok(crossbow("crossbow_1h", 3, 1, crossbow_formula="literal"))) == {"bo": 5}


def test_TD_A2_two_handed_crossbow_text_versus_formula_line() -> None:
    assert damage(ok(crossbow("crossbow_2h", 3, 4))) == {"bo": 3}
    assert damage(ok(crossbow("crossbow_2h", 3, 4, crossbow_formula="literal"))) == {"bo": 5}


def test_TD_A3_the_tier_both_reduces_the_armor_and_is_the_damage() -> None:
    # Tier 5 against armor 3: the armor goes to 0, the damage is 5 (one number, twice).
    assert damage(ok(crossbow("crossbow_1h", 5, 3))) == {"bo": 5}
    assert damage(ok(crossbow("crossbow_1h", 0, 0))) == {"bo": 0}


@pytest.mark.parametrize(("option", "bo_hp"), [("best", 20), ("held", 16)])
def test_TD_A4_projectile_defender_skill(option: str, bo_hp: int) -> None:
    p = ok(
        duel(
            who("ana", 0, reflex=2, skills={"bow": 2}, hand="bow"),
            who("bo", 5, reflex=1, skills={"axe": 4}),
            actions=[act("ana", "attack", "bo", dice={"attack": 10, "defend": 10})],
            options={"projectile_defender_skill": option},
        )
    )
    # 14 vs 15 with the best weapon skill (axe 4); vs 11 with the held one (unarmed 0):
    # ana by 3, 3 + 1 tier = 4.
    assert hp(p, "bo") == bo_hp


def test_TD_A5_the_melee_counter_uses_the_same_difference() -> None:
    p = ok(
        duel(
            who("ana", 0, skills={"bow": 2}, hand="bow", armor_tier=1),
            who("bo", 1, body=4, skills={"sword": 3}, hand={"is": "sword", "tier": 3}),
            actions=[act("ana", "attack", "bo", dice={"attack": 3, "defend": 12})],
        )
    )
    # 5 vs 15: bo by 10 with his sword: 10 + 4 body + 3 tier - 1 armor = 16.
    assert damage(p) == {"ana": 16}


def test_TD_A6_the_stealth_strike_is_a_fresh_d20_with_the_weapon_skill() -> None:
    p = ok(
        duel(
            who("ana", 0, skills={"stealth": 9, "sword": 1}, hand="sword"),
            who("bo", 1),
            actions=[
                act(
                    "ana",
                    "stealth",
                    "bo",
                    behind=True,
                    dice={"stealth": 3, "notice": 2, "strike": 7},
                )
            ],
        )
    )
    assert rolled(p) == ["stealth", "notice", "strike"]
    # 7 strike + 1 sword skill (not stealth 9) + 1 tier.
    assert damage(p) == {"bo": 9}


@pytest.mark.parametrize(("track", "bo_temp"), [(True, 14), (False, 0)])
def test_TD_A7_temporary_damage_is_tracked_by_option(track: bool, bo_temp: int) -> None:
    p = ok(melee(15, 6, track_temporary=track))
    assert (hp(p, "bo"), temp(p, "bo")) == (6, bo_temp)


def test_TD_A8_the_firearm_formula_counts_the_ammo_bonus() -> None:
    p = ok(
        duel(
            who("ana", 0, hand={"is": "firearm", "tier": 2, "ammo_bonus": 1}),
            who("bo", 8, skills={}),
            actions=[act("ana", "attack", "bo", dice={"attack": 15, "defend": 2})],
        )
    )
    assert damage(p) == {"bo": 6}  # contested zone, won: 2 x 2 + 2 x 1, no difference


# --- options -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tie", "ana_hp", "bo_hp"),
    [("none", 20, 20), ("initiator", 20, 17), ("defender", 19, 20)],
)
def test_option_tie_result(tie: str, ana_hp: int, bo_hp: int) -> None:
    # 15 vs 15: by 0. ana: 0 + 3 + 2 - 2 = 3; bo: 0 + 2 + 1 - 2 = 1.
    p = ok(melee(10, 12, tie_result=tie))
    assert (hp(p, "ana"), hp(p, "bo")) == (ana_hp, bo_hp)


def test_option_tie_result_for_a_contested_firearm() -> None:
    def shot(**options: Any) -> Played:
        return duel(
            who("ana", 0, hand="firearm"),
            who("bo", 9),
            actions=[act("ana", "attack", "bo", dice={"attack": 10, "defend": 10})],
            options=options,
        )

    assert damage(ok(shot())) == {}
    assert damage(ok(shot(tie_result="initiator"))) == {"bo": 2}


def test_option_damage_floor_none_lets_negative_damage_heal() -> None:
    bo = {**BO, "armor_tier": 8, "shield_tier": 4, "hp": 10, "temporary_damage": 10}
    p = ok(melee(11, 12, bo, damage_floor=None))
    assert damage(p) == {"bo": -6}
    assert (hp(p, "bo"), temp(p, "bo")) == (16, 4)
    capped = ok(melee(11, 12, {**bo, "hp": 18}, damage_floor=None))
    assert hp(capped, "bo") == 20  # HP stops at max_hp


def test_option_damage_floor_raised() -> None:
    p = ok(melee(11, 12, {**BO, "armor_tier": 8}, damage_floor=2))  # 1 + 3 + 2 - 8 = -2
    assert damage(p) == {"bo": 2}
    assert damage(ok(melee(15, 6, damage_floor=2))) == {"bo": 14}  # above the floor: as is


@pytest.mark.parametrize(("counter", "ana_hp"), [(True, 8), (False, 20)])
def test_option_projectile_counter(counter: bool, ana_hp: int) -> None:
    p = ok(
        duel(
            who("ana", 0, reflex=2, skills={"bow": 2}, hand="bow", armor_tier=1),
            who("bo", 1, reflex=1, body=2, skills={"axe": 3}, hand="axe"),
            actions=[act("ana", "attack", "bo", dice={"attack": 5, "defend": 15})],
            options={"projectile_counter": counter},
        )
    )
    assert hp(p, "ana") == ana_hp
    assert ("ana" in attempts(p)) is counter


@pytest.mark.parametrize(("option", "refused"), [("contest", False), ("refuse", True)])
def test_option_crossbow_beyond_skill(option: str, refused: bool) -> None:
    p = duel(
        who("ana", 0, skills={"crossbow": 3}, hand="crossbow_1h"),
        who("bo", 4),
        actions=[act("ana", "attack", "bo", dice={"attack": 15, "defend": 2})],
        options={"crossbow_beyond_skill": option},
    )
    if refused:
        assert refusal(p) == (1, "out_of_range")
    else:
        assert hp(ok(p), "bo") == 19


@pytest.mark.parametrize("hand", ["crossbow_1h", "firearm"])
@pytest.mark.parametrize("unload", [True, False])
def test_option_unload_on_fire(hand: str, unload: bool) -> None:
    p = ok(
        duel(
            who("ana", 0, skills={"crossbow": 3}, hand=hand),
            who("bo", 1),
            actions=[act("ana", "attack", "bo")],
            options={"unload_on_fire": unload},
        )
    )
    assert item(p, "ana").loaded is not unload


@pytest.mark.parametrize(("ignores", "bo_hp"), [(True, 12), (False, 15)])
def test_option_firearm_ignores_shield(ignores: bool, bo_hp: int) -> None:
    p = ok(
        duel(
            who("ana", 0, hand={"is": "firearm", "tier": 3, "ammo_bonus": 1}),
            who("bo", 1, armor_tier=5, shield_tier=3),
            actions=[act("ana", "attack", "bo")],
            options={"firearm_ignores_shield": ignores},
        )
    )
    assert hp(p, "bo") == bo_hp  # 8, or 8 - 3 shield (the armor never counts)


@pytest.mark.parametrize(
    ("ignores", "spell_damage", "bo_hp"), [(True, 5, 15), (False, 5, 20), (False, 8, 18)]
)
def test_option_spell_ignores_armor(ignores: bool, spell_damage: int, bo_hp: int) -> None:
    spell = {"name": "bolt", "type": "spell", "damage": spell_damage}
    p = ok(
        duel(
            who("ana", 0, hand=spell),
            who("bo", 1, armor_tier=4, shield_tier=2),
            actions=[act("ana", "cast", "bo", spell="bolt")],
            options={"spell_ignores_armor": ignores},
        )
    )
    assert hp(p, "bo") == bo_hp  # 5; 5 - 6 floored at 0; 8 - 6


@pytest.mark.parametrize(("option", "bo_hp"), [("fail", 20), ("win", 17)])
def test_option_stealth_tie(option: str, bo_hp: int) -> None:
    p = ok(
        duel(
            who("ana", 0, skills={"stealth": 2}, hand="sword"),
            who("bo", 1, skills={"stealth": 2}),
            actions=[
                act(
                    "ana",
                    "stealth",
                    "bo",
                    behind=True,
                    dice={"stealth": 8, "notice": 8, **({"strike": 2} if option == "win" else {})},
                )
            ],
            options={"stealth_tie": option},
        )
    )
    assert hp(p, "bo") == bo_hp  # 10 vs 10; a won tie strikes: 2 strike + 1 tier
    assert p.records[-1].rolls[-1].label == ("strike" if option == "win" else "notice")


@pytest.mark.parametrize(("n", "refused_at"), [(0, 1), (1, 2), (2, 3)])
def test_option_contested_actions(n: int, refused_at: int) -> None:
    attack = act("ana", "attack", "bo", dice={"attack": 10, "defend": 10})
    p = duel(
        who("ana", 0, **ANA),
        who("bo", 1, **BO),
        actions=[attack, attack, attack],
        options={"contested_actions": n},
    )
    assert refusal(p) == (refused_at, "no_contested_action")


@pytest.mark.parametrize(("n", "refused_at"), [(0, 1), (1, 2), (2, 3)])
def test_option_noncontested_actions(n: int, refused_at: int) -> None:
    cast = act("ana", "cast", "bo", spell="bolt")
    p = duel(
        who("ana", 0, hand={"name": "bolt", "type": "spell", "damage": 1}),
        who("bo", 1),
        actions=[cast, cast, cast],
        options={"noncontested_actions": n},
    )
    assert refusal(p) == (refused_at, "no_noncontested_action")


@pytest.mark.parametrize(
    ("hand", "x", "options", "legal"),
    [
        ("sword", 2, {"reach_1h": 2}, True),
        ("sword", 2, {}, False),
        ("spear", 3, {"reach_2h": 3}, True),
        ("spear", 3, {}, False),
        ("spear", 1, {"reach_2h": 0}, False),
    ],
    ids=str,
)
def test_option_reach(hand: str, x: int, options: dict[str, Any], legal: bool) -> None:
    p = duel(
        who("ana", 0, hand=hand),
        who("bo", x, hand="bow"),
        actions=[act("ana", "attack", "bo", dice={"attack": 20, "defend": 1})],
        options=options,
    )
    if legal:
        assert hp(ok(p), "bo") == 20 - 20  # by 19, + 1 tier
    else:
        assert refusal(p) == (1, "out_of_reach")


def test_unknown_option_lists_the_valid_ones() -> None:
    with pytest.raises(FileError) as exc:
        duel(who("ana"), who("bo", 1), options={"ties": "none"})
    assert exc.value.code == "unknown_option"
    assert "tie_result" in exc.value.message and "track_temporary" in exc.value.message


# --- items (2.2) ----------------------------------------------------------------------------

ITEMS = [  # short-hand, type, skill, reach (default options), range
    ("sword", "melee_1h", "sword", 1, None),
    ("axe", "melee_1h", "axe", 1, None),
    ("spear", "melee_2h", "spear", 2, None),
    ("greatsword", "melee_2h", "sword", 2, None),
    ("bow", "bow", "bow", 0, 20),
    ("javelin", "thrown", "thrown", 0, 6),
    ("crossbow_1h", "crossbow_1h", "crossbow", 0, 20),
    ("crossbow_2h", "crossbow_2h", "crossbow", 0, 20),
    ("firearm", "firearm", "firearm", 0, None),
]


@pytest.mark.parametrize(("name", "kind", "skill", "reach", "rng"), ITEMS)
def test_every_shorthand(name: str, kind: str, skill: str, reach: int, rng: int | None) -> None:
    p = ok(duel(who("ana", hand=name), who("bo", 1)))
    out = state_json(p.file.ruleset, p.state)["combatants"]["ana"]["hand"]
    assert (out["name"], out["type"], out["tier"], out["skill"]) == (name, kind, 1, skill)
    assert (out["reach"], out["range"], out["loaded"]) == (reach, rng, True)
    assert (out["guaranteed_zone"], out["contested_zone"]) == (5, 15)


def test_the_shorthand_table_is_the_contracts() -> None:
    assert sorted(SHORTHANDS) == sorted(row[0] for row in ITEMS)
    assert TierDuel.contract.item_shorthands == tuple(SHORTHANDS)


def test_the_reach_shown_follows_the_options() -> None:
    p = ok(
        duel(who("ana", hand="spear", inventory=["sword"]), who("bo", 1), options={"reach_2h": 4})
    )
    out = state_json(p.file.ruleset, p.state)["combatants"]["ana"]
    assert (out["hand"]["reach"], out["inventory"][0]["reach"]) == (4, 1)


@pytest.mark.parametrize(
    ("hand", "code"),
    [
        ("katana", "unknown_item"),
        ({"is": "sword", "edge": 2}, "unknown_field"),
        ({"name": "stick"}, "missing_field"),
        ({"name": "stick", "type": "club"}, "bad_value"),
        ({"is": "sword", "tier": -1}, "bad_value"),
        ({"is": "firearm", "guaranteed_zone": 9, "contested_zone": 8}, "bad_zones"),
        ({"name": "hex", "type": "spell", "effect": "Bad Luck"}, "bad_value"),
        ({"name": "hex", "type": "spell", "damage": -2}, "bad_value"),
    ],
    ids=str,
)
def test_bad_items_are_file_errors(hand: Any, code: str) -> None:
    with pytest.raises(FileError) as exc:
        duel(who("ana", hand=hand), who("bo", 1))
    assert exc.value.code == code
    assert "combatants[0].hand" in exc.value.where


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"armor_tier": -1}, "bad_value"),
        ({"skills": {"sword": "high"}}, "bad_value"),
        ({"temporary_damage": -3}, "bad_value"),
        ({"agility": 2}, "unknown_field"),
    ],
    ids=str,
)
def test_bad_sheets_are_file_errors(fields: dict[str, Any], code: str) -> None:
    with pytest.raises(FileError) as exc:
        duel(who("ana", **fields), who("bo", 1))
    assert exc.value.code == code


# --- action parameters and set (core) ------------------------------------------------------------


@pytest.mark.parametrize(
    ("do", "params", "code"),
    [
        ("attack", {"distance": -1}, "bad_value"),
        ("attack", {"distance": "far"}, "bad_value"),
        ("attack", {"distance": True}, "bad_value"),  # strict: not the int 1
        ("stealth", {"behind": "yes"}, "bad_value"),
        ("stealth", {"behind": 1}, "bad_value"),
        ("cast", {"spell": 3}, "bad_value"),
        ("equip", {"item": ["sword"]}, "bad_value"),
        ("attack", {"behind": True}, "unknown_field"),
    ],
    ids=str,
)
def test_typed_action_parameters(do: str, params: dict[str, Any], code: str) -> None:
    target = None if do == "equip" else "bo"
    with pytest.raises(FileError) as exc:
        duel(who("ana"), who("bo", 1), actions=[act("ana", do, target, **params)])
    assert exc.value.code == code
    assert exc.value.where.endswith(f"actions[0].{next(iter(params))}")


def test_distance_stands_in_for_positions_and_overrides_them() -> None:
    p = ok(
        duel(
            who("ana", None, hand="bow"),
            who("bo", None),
            actions=[act("ana", "attack", "bo", distance=20, dice={"attack": 20, "defend": 1})],
        )
    )
    assert "(bow, 20 tiles)" in rolls(p)[0].how
    q = duel(
        who("ana", 0, hand="sword"),
        who("bo", 1),
        actions=[act("ana", "attack", "bo", distance=2)],
    )
    assert refusal(q) == (1, "out_of_reach")


def test_set_statuses_ends_a_spell_effect() -> None:
    hex_ = {"name": "hex", "type": "spell", "effect": "hexed"}
    p = ok(
        duel(
            who("ana", 0, hand=hex_),
            who("bo", 1),
            actions=[
                act("ana", "cast", "bo", spell="hex"),
                act("bo", "set", statuses={}),
                act("bo", "set", statuses={"blessed": {"from": "gm", "turns": 2}}),
            ],
        )
    )
    assert p.state.get("bo").statuses == {"blessed": {"from": "gm", "turns": 2}}
    assert "GM sets bo: statuses: {}" in log(p)


def test_set_statuses_validates() -> None:
    p = duel(who("ana"), who("bo", 1), actions=[act("bo", "set", statuses={"hexed": 3})])
    assert refusal(p) == (1, "bad_value")


# --- outputs (2.6) ---------------------------------------------------------------------------


def test_run_json_combatant_fields() -> None:
    p = ok(
        duel(
            who("ana", 0, **ANA, inventory=["bow"]),
            who("bo", 1, **BO),
            actions=[act("ana", "attack", "bo", dice={"attack": 15, "defend": 6})],
        )
    )
    out = state_json(p.file.ruleset, p.state)
    bo = out["combatants"]["bo"]
    assert {k: bo[k] for k in ("hp", "max_hp", "down", "statuses", "temporary_damage")} == {
        "hp": 6,
        "max_hp": 20,
        "down": False,
        "statuses": {},
        "temporary_damage": 14,
    }
    fields = ("reflex", "body", "presence", "skills", "armor_tier", "shield_tier", "hand")
    assert set(fields) | {"inventory", "actions_left"} <= set(bo)
    assert out["combatants"]["ana"]["inventory"][0]["name"] == "bow"
    json.dumps(out)  # JSON-ready


def test_damage_cause_is_in_the_log() -> None:
    p = ok(melee(15, 6))
    (dealt,) = [e for e in p.records[-1].events if isinstance(e, Damaged)]
    assert dealt.cause == "11 diff + 3 body + 2 tier - 2 armor"
    assert "  bo takes 14 damage (11 diff + 3 body + 2 tier - 2 armor): HP 20 -> 6" in log(p)
