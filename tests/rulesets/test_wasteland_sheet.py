"""wasteland part 1: the sheet, limbs, weapons and options (wasteland.md 2.1-2.4, 2.7),
derived values (WL-2, WL-8, WL-1), turn order by Sequence (WL-1) and the turn's AP and
MAP (WL-3, WL-34)."""

from __future__ import annotations

from typing import Any

import pytest

from fracas.errors import FileError
from fracas.rulesets.base import presenter_of
from fracas.rulesets.wasteland import Wasteland
from fracas.rulesets.wasteland.sheet import Options
from fracas.rulesets.wasteland.stats import max_ap, sequence
from tests.rulesets.wasteland_support import (
    PISTOL,
    act,
    fight,
    limb,
    log,
    ok,
    sheet,
    who,
)


def _load_error(*combatants: dict[str, Any], options: dict[str, Any] | None = None) -> FileError:
    with pytest.raises(FileError) as info:
        fight(*combatants, options=options)
    return info.value


# --- derived values --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("agi", "floor", "trunc"),
    [(0, 8, 8), (1, 8, 8), (2, 9, 9), (3, 9, 9), (-1, 7, 8), (-2, 7, 7), (-3, 6, 7)],
)
def test_WL_2_WL_A1_max_ap_rounds_down(agi: int, floor: int, trunc: int) -> None:
    p = ok(fight(who("a", agi_mod=agi)))
    s = sheet(p, "a")
    assert max_ap(s, Options()) == floor
    assert max_ap(s, Options(ap_rounding="trunc")) == trunc
    assert s.ap == floor  # a sheet without `ap` starts with max AP


@pytest.mark.parametrize(
    ("level", "agi", "evasion"), [(1, 0, 10), (3, 2, 12), (4, 2, 13), (8, -1, 11), (12, 0, 13)]
)
def test_WL_8_evasion(level: int, agi: int, evasion: int) -> None:
    p = ok(fight(who("a", level=level, agi_mod=agi)))
    out = presenter_of(p.file.ruleset).sheet_json(p.state, p.state.get("a"))
    assert out["evasion"] == evasion


def test_WL_8_evasion_mod_adds() -> None:
    p = ok(fight(who("a", agi_mod=1, evasion_mod=2)))
    assert presenter_of(p.file.ruleset).sheet_json(p.state, p.state.get("a"))["evasion"] == 13


def test_WL_1_sequence_and_cautious_nature() -> None:
    p = ok(
        fight(
            who("a", per_mod=1, agi_mod=2, cha_mod=-1, sequence_mod=1),
            who("b", perks=["cautious_nature"]),
        )
    )
    assert sequence(sheet(p, "a")) == 13
    assert sequence(sheet(p, "b")) == 15


# --- turn order (WL-1) -----------------------------------------------------------------


def test_WL_1_turn_order_highest_sequence_first() -> None:
    p = ok(fight(who("slow"), who("fast", agi_mod=3), who("mid", per_mod=1), order=None))
    assert p.state.order == ("fast", "mid", "slow")
    assert log(p)[0] == "Sequence order: fast 13, mid 11, slow 10"


def test_WL_1_ties_players_before_npcs_then_file_order() -> None:
    combatants = (who("g1", npc=True), who("p1"), who("g2", npc=True), who("p2"))
    p = ok(fight(*combatants, order=None))
    assert p.state.order == ("p1", "p2", "g1", "g2")
    p = ok(fight(*combatants, order=None, options={"sequence_ties": "file_order"}))
    assert p.state.order == ("g1", "p1", "g2", "p2")


# --- AP and MAP (WL-2, WL-3, WL-34) ----------------------------------------------------


def test_WL_3_ap_and_map_replenish_at_turn_start() -> None:
    # The encounter begins at the start of a's turn: the AP and MAP the file gives are
    # replenished then (README, "Encounter file"); b's are replenished at its turn.
    p = ok(
        fight(
            who("a", at=(0, 0), ap=2, map=0, max_map=3, weapons=[PISTOL]),
            who("b", at=(3, 0), ap=1),
        )
    )
    assert (sheet(p, "a").ap, sheet(p, "a").map, sheet(p, "b").ap) == (8, 3, 1)
    p = ok(
        fight(
            who("a", at=(0, 0), max_map=3, weapons=[PISTOL]),
            who("b", at=(3, 0), ap=1),
            actions=[
                act("a", "attack", "b", dice={"attack": 2}),
                act("b", "end_turn"),
                act("a", "end_turn"),
            ],
        )
    )
    a, b = sheet(p, "a"), sheet(p, "b")
    assert (a.ap, a.map, b.ap) == (8, 3, 8)
    assert log(p).count("  a has 8 AP, 3 MAP") == 2


def test_WL_34_WL_G14_overflow_debt_paid_from_next_turn() -> None:
    rifle = {**PISTOL, "name": "rifle", "ap": 6, "overflowable": True}
    p = ok(
        fight(
            who("a", weapons=[rifle]),
            who("b", at=(3, 0)),
            actions=[
                act("a", "attack", "b", dice={"attack": 2}),
                act("a", "attack", "b", dice={"attack": 2}),
            ],
        )
    )
    s = sheet(p, "a")
    assert (s.ap, s.ap_debt) == (0, 4)  # 8 - 6 = 2 paid now, 4 owed
    assert "  2 AP: 2 -> 0, 4 more from next turn (overflow)" in log(p)
    p = ok(
        fight(
            who("a", weapons=[rifle]),
            who("b", at=(3, 0)),
            actions=[
                act("a", "attack", "b", dice={"attack": 2}),
                act("a", "attack", "b", dice={"attack": 2}),
                act("b", "end_turn"),
            ],
        )
    )
    s = sheet(p, "a")
    assert (s.ap, s.ap_debt) == (4, 0)  # 8 max AP - 4 owed
    assert "  a has 4 AP, 0 MAP (4 owed from an overflowed action)" in log(p)


# --- sheet validation (2.1, 2.2) -------------------------------------------------------


def test_limbs_default_and_per_type_dt() -> None:
    p = ok(
        fight(
            who(
                "a",
                dt={"physical": 1, "energy": 2},
                limbs={"torso": {"dt": {"physical": 3}}, "head": {"ct_max": 6}},
            )
        )
    )
    torso, head = limb(p, "a", "torso"), limb(p, "a", "head")
    assert dict(torso.dt) == {"physical": 3, "energy": 2, "radiation": 0}
    assert (torso.ct, torso.ct_max, head.ct, head.ct_max) == (10, 10, 6, 6)
    assert dict(limb(p, "a", "left_leg").dt) == {"physical": 1, "energy": 2, "radiation": 0}
    out = presenter_of(p.file.ruleset).sheet_json(p.state, p.state.get("a"))["limbs"]
    assert list(out) == ["head", "torso", "left_arm", "right_arm", "left_leg", "right_leg"]
    assert out["head"] == {
        "ct": 6,
        "ct_max": 6,
        "dt": {"physical": 1, "energy": 2, "radiation": 0},
        "injury": "none",
        "crippled": False,
        "injury_dc": None,
    }


def test_WL_G5_option_ct_max_and_max_hp_are_the_defaults() -> None:
    p = ok(fight(who("a"), options={"ct_max": 7, "max_hp": 30}))
    assert (p.state.get("a").hp, p.state.get("a").max_hp) == (30, 30)
    assert limb(p, "a", "torso").ct_max == 7


def test_ct_above_ct_max_is_bad_value() -> None:
    err = _load_error(who("a", limbs={"head": {"ct_max": 5, "ct": 6}}))
    assert err.code == "bad_value"
    assert "ct 6 is above ct_max 5" in err.message


def test_unknown_perk_lists_the_valid_ones() -> None:
    err = _load_error(who("a", perks=["lucky"]))
    assert err.code == "unknown_perk"
    assert "dodger" in err.message and "survival_10" in err.message


def test_unknown_limb_is_bad_value() -> None:
    err = _load_error(who("a", limbs={"tail": {}}))
    assert err.code == "bad_value"
    assert "combatants[0].limbs.tail" in err.where


def test_dr_is_a_percent() -> None:
    assert _load_error(who("a", dr={"physical": 101})).code == "bad_value"


# --- weapons (2.3) ---------------------------------------------------------------------


def test_weapon_defaults_by_kind() -> None:
    p = ok(
        fight(
            who(
                "a",
                weapons=[
                    {"name": "gun", "damage": "2d6+1"},
                    {"name": "axe", "kind": "melee", "damage": "1d8", "hands": 2},
                    "unarmed",
                ],
            )
        )
    )
    gun, axe, fists = sheet(p, "a").weapons
    assert (gun.skill, gun.special, gun.range, gun.ap, gun.crit_dice) == (
        "guns",
        "agi",
        "medium",
        4,
        "1d6",
    )
    assert (gun.condition, gun.burst, gun.damage) == (10, None, "2d6+1")
    assert (axe.skill, axe.special, axe.range, axe.hands) == ("melee", "str", None, 2)
    assert (fists.name, fists.kind, fists.damage, fists.crit_dice, fists.ap) == (
        "unarmed",
        "unarmed",
        "1d4",
        "1d4",
        3,
    )


@pytest.mark.parametrize(
    ("weapon", "code"),
    [
        ({"name": "x", "damage": "1d6!"}, "bad_dice"),
        ({"name": "x", "damage": "2d6kh1"}, "bad_dice"),
        ({"name": "x", "damage": "1d6", "crit_dice": "1d6+2"}, "bad_dice"),
        ({"name": "x", "kind": "melee", "damage": "1d6", "range": "close"}, "bad_weapon"),
        ({"name": "x", "kind": "melee", "damage": "1d6", "burst": 3}, "bad_weapon"),
        ({"name": "x", "damage": "1d6", "burst": 1}, "bad_value"),
        ({"name": "x", "damage": "1d6", "colour": "red"}, "unknown_field"),
        ({"is": "sword"}, "unknown_shorthand"),
        ({"name": "x"}, "missing_field"),
    ],
)
def test_bad_weapons_are_file_errors(weapon: dict[str, Any], code: str) -> None:
    assert _load_error(who("a", weapons=[weapon])).code == code


def test_two_weapons_with_one_name() -> None:
    assert _load_error(who("a", weapons=[PISTOL, PISTOL])).code == "duplicate_weapon"


# --- options (2.7) ---------------------------------------------------------------------


def test_every_option_has_its_proposed_default() -> None:
    defaults = Wasteland.contract.option_defaults()
    assert defaults["hit_location"] == {  # plain data, as `fracas rules --json` prints it
        "head": [1, 2],
        "torso": [3, 8],
        "left_arm": [9, 11],
        "right_arm": [12, 14],
        "left_leg": [15, 17],
        "right_leg": [18, 20],
    }
    assert defaults["called_shot_penalty"] == {"head": 4, "torso": 1, "arms": 2, "legs": 2}
    assert defaults["range_tiles"] == {"close": 5, "medium": 10, "long": 20, "extreme": 40}
    assert defaults["half_cover_limbs"] == ["left_leg", "right_leg"]
    expected = {
        "burst_shots": 3,
        "burst_penalty": 2,
        "max_hp": 20,
        "ct_max": 10,
        "sequence_ties": "players_first",
        "ap_rounding": "floor",
        "crit_overlap": "critfail",
        "cover_rule": "subtract",
        "cover_stops_crit": True,
        "cover_vs_radiation": "none",
        "dr_rounding": "floor",
        "crit_after_full_dt": True,
        "burst_glancing": "per_shot",
        "burst_crit_glancing": "shot1",
        "critfail_aborts_burst": False,
        "critfail_strays": False,
        "sneak_bypasses_dt": True,
        "sneak_reveals": True,
        "melee_bonus_before_dt": True,
        "injury_size": "per_hit",
        "injury_escalation": "minor_to_major",
        "test_compare": "meet",
        "effects_need_damage": True,
        "effect_stacking": "max",
        "stray_effects": True,
        "trigger_discipline_continues": True,
        "throw_compare": "exceed",
        "explosive_roll_once": True,
        "explosive_crits": True,
        "blast_ct_remainder": "ignore",
        "surprised_skips": True,
        "death_saves": "auto",
    }
    assert {k: v for k, v in defaults.items() if k in expected} == expected
    assert set(defaults) == set(expected) | {
        "hit_location",
        "called_shot_penalty",
        "range_tiles",
        "half_cover_limbs",
    }


@pytest.mark.parametrize(
    "table",
    [
        {
            "head": [1, 3],
            "torso": [3, 8],
            "left_arm": [9, 11],
            "right_arm": [12, 14],
            "left_leg": [15, 17],
            "right_leg": [18, 20],
        },
        {
            "head": [1, 1],
            "torso": [3, 8],
            "left_arm": [9, 11],
            "right_arm": [12, 14],
            "left_leg": [15, 17],
            "right_leg": [18, 20],
        },
        {
            "torso": [1, 8],
            "left_arm": [9, 11],
            "right_arm": [12, 14],
            "left_leg": [15, 17],
            "right_leg": [18, 20],
        },
    ],
)
def test_WL_G1_hit_location_must_cover_each_face_once(table: dict[str, list[int]]) -> None:
    assert _load_error(who("a"), options={"hit_location": table}).code == "bad_hit_location"


def test_unknown_option() -> None:
    assert _load_error(who("a"), options={"luck": 1}).code == "unknown_option"
