"""dice-combat gap defaults (DC-G1 to DC-G14), the options of section 2.5, and the
derived weapon class and gun group of every short-hand of section 2.2.

Each option test plays the same encounter with the default and with the option
changed, and checks that exactly the documented outcome changes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fracas.errors import FileError
from fracas.rulesets.dice_combat.items import Item, check_item, expand_item, gun_group, weapon_class
from fracas.rulesets.dice_combat.rules import DiceCombat
from tests.helpers import Played, cli
from tests.rulesets.dice_combat.support import (
    act,
    after,
    attack_bo,
    attack_roll,
    defence_rolls,
    fight,
    hand,
    loaded,
    log,
    ok,
    refusal,
    who,
)


def item(value: str | dict[str, Any]) -> Item:
    """An item as a file gives it (a short-hand or a mapping), validated."""
    checked = check_item(Item(**expand_item(value)))
    assert checked is not None
    return checked


# --- 2.2: class and group of every short-hand ------------------------------------------

SHORTHANDS = [  # short-hand, class, group B, group A, capacity
    ("pistol", "pistol", "close", "medium", 8),
    ("revolver", "pistol", "close", "medium", 6),
    ("machine_pistol", "pistol", "close", "medium", 12),
    ("smg", "smg", "medium", "close", 20),
    ("shotgun", "shotgun", "close", "close", 5),
    ("sawn_off_shotgun", "shotgun", "medium", "close", 2),
    ("rifle", "rifle", "long", "long", 5),
    ("sawn_off_rifle", "rifle", "medium", "close", 5),
    ("machine_gun", "rifle", "medium", "long", 30),
    ("crossbow", "crossbow", "long", "long", 1),
    ("hand_crossbow", "crossbow", "close", "long", 1),
    ("knife", "one_handed_melee", None, None, None),
    ("club", "one_handed_melee", None, None, None),
    ("sword", "one_handed_melee", None, None, None),
    ("greataxe", "two_handed_melee", None, None, None),
    ("grenade", "bomb", None, None, None),
    ("pipe_bomb", "bomb", None, None, None),
    ("aerosol_bomb", "bomb", None, None, None),
    ("molotov", "molotov", None, None, None),
    ("fire_bomb", "molotov", None, None, None),
]


@pytest.mark.parametrize(("name", "cls", "group_b", "group_a", "capacity"), SHORTHANDS)
def test_DC_3_DC_14_class_and_group_of_each_shorthand(
    name: str, cls: str, group_b: str | None, group_a: str | None, capacity: int | None
) -> None:
    it = item(name)
    assert weapon_class(it).name == cls
    assert (gun_group(it, "B"), gun_group(it, "A")) == (group_b, group_a)
    assert (it.capacity, it.loaded) == (capacity, capacity)


def test_DC_3_shorthand_table_covers_every_shorthand() -> None:
    assert sorted(DiceCombat.contract.item_shorthands) == sorted(row[0] for row in SHORTHANDS)


def test_DC_3_unarmed_hands_have_no_group() -> None:
    assert weapon_class(None).name == "unarmed"
    assert weapon_class(item({"name": "rope", "type": "other"})).name == "unarmed"
    assert gun_group(None, "B") is None


def test_DC_14_sawn_off_rifle_with_one_hand_is_a_pistol_still_medium_in_B() -> None:
    it = item({"is": "sawn_off_rifle", "hands": 1})
    assert weapon_class(it).name == "pistol"
    assert (gun_group(it, "B"), gun_group(it, "A")) == ("medium", "medium")


def test_DC_14_revision_A_makes_only_sawn_off_rifles_close() -> None:
    it = item({"is": "pistol", "sawn_off": True})
    assert (weapon_class(it).name, gun_group(it, "B"), gun_group(it, "A")) == (
        "pistol",
        "medium",
        "medium",
    )


def test_DC_14_a_two_handed_automatic_rifle_is_a_machine_gun_in_B() -> None:
    it = item({"name": "lmg", "type": "gun", "hands": 2, "automatic": True, "capacity": 50})
    assert (weapon_class(it).name, gun_group(it, "B"), gun_group(it, "A")) == (
        "rifle",
        "medium",
        "long",
    )


def test_DC_3_DC_14_json_reports_derived_class_and_group(tmp_path: Path) -> None:
    path = tmp_path / "enc.yaml"
    path.write_text(
        json.dumps(
            {
                "ruleset": "dice-combat",
                "options": {"revision": "A"},
                "combatants": [
                    {"id": "ana", "hand": "hand_crossbow", "inventory": ["machine_pistol"]},
                    {"id": "bo", "hand": None},
                ],
            }
        )
    )
    result = cli("run", "--json", str(path))
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)["combatants"]
    ana = out["ana"]
    assert (ana["hand"]["class"], ana["hand"]["group"], ana["hand"]["loaded"]) == (
        "crossbow",
        "long",
        1,
    )
    assert (ana["inventory"][0]["class"], ana["inventory"][0]["group"]) == ("pistol", "medium")
    assert out["bo"]["hand"] is None


# --- gap defaults ------------------------------------------------------------------


def test_DC_G1_flat_bonuses_on_attacks_throws_explosives_and_defence() -> None:
    p = ok(
        fight(
            who("ana", hand="knife", traits=["strong_arm"], attack_bonus=3),
            who("bo", (1, 0), hand="molotov", attack_bonus=4),
            who("cy", (8, 8), defend_ranged_bonus=2),
            actions=[
                act("ana", "throw", "bo", dice={"attack": 10, "defend": 12}),
                act("bo", "throw", at=[8, 8], dice={"attack": 10, "defend:cy": 12}),
            ],
        )
    )
    assert attack_roll(p, 1).total == 13  # throw: natural + attack_bonus, no penalty
    assert attack_roll(p, 2).total == 14
    assert [d.total for d in defence_rolls(p, 2)] == [14]
    assert (p.state.combatants["bo"].hp, p.state.combatants["cy"].hp) == (9, 11)


@pytest.mark.parametrize(
    ("edge", "defend_edge", "kept_attack", "kept_defend"),
    [("advantage", "disadvantage", 15, 4), ("disadvantage", "advantage", 6, 11)],
)
def test_DC_G2_edge_rolls_two_d20_and_keeps_one(
    edge: str, defend_edge: str, kept_attack: int, kept_defend: int
) -> None:
    p = ok(
        fight(
            who("ana", hand="sword"),
            who("bo", (1, 0)),
            actions=[
                act(
                    "ana",
                    "attack",
                    "bo",
                    edge=edge,
                    defend_edge=defend_edge,
                    dice={"attack": [6, 15], "defend": [11, 4]},
                )
            ],
        )
    )
    (d,) = defence_rolls(p)
    assert (attack_roll(p).natural, d.natural) == (kept_attack, kept_defend)
    assert p.state.combatants["bo"].hp == (10 if kept_attack >= kept_defend else 12)


def test_DC_G3_gun_trait_is_plus_one() -> None:
    p = ok(
        attack_bo(
            who("ana", hand="rifle", traits=["spotter"]),
            who("bo", (8, 0)),
            {"attack": 10, "ammo": 1, "defend": 11},
        )
    )
    assert attack_roll(p).parts == (("spotter", 1),)
    assert p.state.combatants["bo"].hp == 8  # 11 vs 11: a hit


def test_DC_G4_hewer_and_cutter_do_nothing() -> None:
    p = ok(
        attack_bo(
            who("ana", hand="greataxe", traits=["hewer", "cutter"]),
            who("bo", (1, 0)),
            {"attack": 10, "defend": 5},
        )
    )
    assert (attack_roll(p).total, p.state.combatants["bo"].hp) == (10, 9)


def test_DC_G4_unknown_trait_is_a_file_error_listing_the_valid_ones() -> None:
    with pytest.raises(FileError) as exc:
        fight(who("ana", traits=["brawler"]), who("bo"))
    assert exc.value.code == "unknown_trait"
    assert "'brawler'" in exc.value.message
    assert "strong_arm, snapshooter, gunslinger" in exc.value.message


@pytest.mark.parametrize(("defend", "hp"), [(12, 10), (13, 12)])
def test_DC_G5_melee_tie_goes_to_the_attacker(defend: int, hp: int) -> None:
    p = ok(attack_bo(who("ana", hand="sword"), who("bo", (1, 0)), {"attack": 12, "defend": defend}))
    assert p.state.combatants["bo"].hp == hp


def test_DC_G6_reload_fills_the_capacity_and_stock_is_unlimited() -> None:
    actions = []
    for _ in range(3):
        actions += [
            act("ana", "attack", "bo", dice={"attack": 2, "ammo": 1, "defend": 20}),
            act("ana", "reload"),
            act("ana", "end_turn"),
        ]
    p = ok(
        fight(
            who("ana", hand={"is": "revolver", "loaded": 3}),
            who("bo", (8, 0)),
            actions=actions,
            options={"actions_per_turn": 1},
        )
    )
    assert loaded(p, "ana") == 6


def test_DC_G7_turn_order_as_given_one_action_each() -> None:
    p = fight(
        who("ana", hand="sword"),
        who("bo", (1, 0), hand="sword"),
        actions=[
            act("bo", "attack", "ana", dice={"attack": 15, "defend": 2}),
            act("bo", "attack", "ana"),
        ],
    )
    assert refusal(p) == (2, "no_action_left")
    assert (p.state.turn.actor, p.state.combatants["ana"].hp) == ("bo", 10)
    assert "ana's turn ends (another combatant acts)" in log(p)


@pytest.mark.parametrize(("cover", "hit"), [(False, True), (True, False)])
def test_DC_G8_cover_adds_two_against_guns_and_throws(cover: bool, hit: bool) -> None:
    p = ok(
        fight(
            who("ana", hand="knife", traits=["strong_arm"], inventory=["smg"]),
            who("bo", (4, 0), cover=cover),
            actions=[
                act("ana", "throw", "bo", dice={"attack": 10, "defend": 9}),
                act("ana", "end_turn"),
                act("bo", "end_turn"),
                act("ana", "equip", item="smg"),
                act("ana", "end_turn"),
                act("bo", "end_turn"),
                act("ana", "attack", "bo", dice={"attack": 10, "ammo": 1, "defend": 9}),
            ],
        )
    )
    assert defence_rolls(p, 1)[0].hit is hit
    assert defence_rolls(p, 7)[0].hit is hit
    assert p.state.combatants["bo"].hp == (12 - 3 - 4 if hit else 12)


def test_DC_G9_no_attack_of_opportunity_action() -> None:
    names = {a.name for a in DiceCombat.contract.actions}
    assert names == {"attack", "throw", "reload", "equip"}
    assert not any(a.off_turn for a in DiceCombat.contract.actions)


@pytest.mark.parametrize(
    "action",
    [act("bo", "attack", "ana"), act("bo", "reload"), act("bo", "equip", item="knife")],
)
def test_DC_G10_knocked_out_cannot_act(action: dict[str, Any]) -> None:
    p = fight(
        who("ana", hand="sword"),
        who("bo", (1, 0), hp=0, hand={"is": "pistol", "loaded": 1}, inventory=["knife"]),
        actions=[act("bo", "move", to=[2, 0]), action],
    )
    assert refusal(p) == (2, "knocked_out")
    assert p.state.combatants["bo"].at == (2, 0)  # core actions still allowed


def test_DC_G10_knocked_out_can_still_be_hit() -> None:
    p = ok(
        fight(
            who("ana", hand="sword"),
            who("bo", (1, 0), hp=1),
            actions=[
                act("ana", "attack", "bo", dice={"attack": 15, "defend": 2}),
                act("ana", "end_turn"),
                act("bo", "end_turn"),
                act("ana", "attack", "bo", dice={"attack": 15, "defend": 2}),
            ],
        )
    )
    assert p.state.combatants["bo"].hp == 0
    assert defence_rolls(p, 4)[0].hit


def test_DC_G11_distance_is_chebyshev() -> None:
    # [13, 12] is 13 tiles away (long), within the pistol's 15; Manhattan would say 25.
    p = ok(
        attack_bo(
            who("ana", hand="pistol"), who("bo", (13, 12)), {"attack": 10, "ammo": 1, "defend": 2}
        )
    )
    assert attack_roll(p).parts == (("long", -2),)
    assert "13 tiles" in attack_roll(p).how


@pytest.mark.parametrize(
    ("direction", "centre"),
    [
        (1, (0, 1)),
        (2, (1, 1)),
        (3, (1, 0)),
        (4, (1, -1)),
        (5, (0, -1)),
        (6, (-1, -1)),
        (7, (-1, 0)),
        (8, (-1, 1)),
    ],
)
def test_DC_G12_scatter_direction_numbering(direction: int, centre: tuple[int, int]) -> None:
    # A grenade (5x5) at [0, 0] goes 3 tiles wide: ana, 3 tiles off, is on the new centre.
    x, y = centre
    p = ok(
        fight(
            who("bo", (9, 9), hand="grenade", attack_bonus=5),
            who("ana", (3 * x, 3 * y)),
            actions=[
                act(
                    "bo",
                    "throw",
                    at=[0, 0],
                    dice={"attack": 1, "scatter": 3, "direction": direction, "defend:ana": 2},
                )
            ],
        )
    )
    assert p.state.combatants["ana"].hp == 8
    assert any(f"blast centred on [{3 * x}, {3 * y}]" in line for line in log(p))


def _reignite(options: dict[str, Any] | None = None) -> Played:
    """An unlucky ana (3 turns) hit by a Molotov, ticked twice, then hit by a fire bomb."""
    return ok(
        fight(
            who("bo", (6, 0), hand="molotov", inventory=["fire_bomb"]),
            who("ana", (0, 0), luck="unlucky"),
            actions=[
                act("bo", "throw", "ana", dice={"attack": 15, "defend:ana": 2}),
                act("bo", "end_turn"),  # ana's turn starts: tick, 2 left
                act("ana", "end_turn"),
                act("bo", "equip", item="fire_bomb"),  # Change Weapon (DC-29)
                act("bo", "end_turn"),  # tick, 1 left
                act("ana", "end_turn"),
                act("bo", "throw", "ana", dice={"attack": 15, "defend:ana": 2}),
            ],
            options=options,
        )
    )


def test_DC_G13_P_DC_4_reignition_keeps_the_longer_burn() -> None:
    p = _reignite()
    assert after(p, 6).combatants["ana"].statuses == {"burning": {"turns": 1, "damage": 1}}
    # The immediate 1 HP applies again; turns = max(1, 3) = 3. HP 12 - 1 - 1 - 1 - 1.
    assert p.state.combatants["ana"].statuses == {"burning": {"turns": 3, "damage": 1}}
    assert p.state.combatants["ana"].hp == 8


def test_DC_G13_reignition_never_shortens_the_burn() -> None:
    # An unlucky ana burns 3 turns; made luckless by the GM, cy's Molotov gives 2: max 3.
    p = ok(
        fight(
            who("bo", (6, 0), hand="molotov"),
            who("cy", (0, 6), hand="molotov"),
            who("ana", (0, 0), luck="unlucky"),
            actions=[
                act("bo", "throw", "ana", dice={"attack": 15, "defend:ana": 2}),
                act("ana", "set", luck="none"),
                act("cy", "throw", "ana", dice={"attack": 15, "defend:ana": 2}),
            ],
        )
    )
    assert after(p, 1).combatants["ana"].statuses == {"burning": {"turns": 3, "damage": 1}}
    assert p.state.combatants["ana"].statuses == {"burning": {"turns": 3, "damage": 1}}
    assert p.state.combatants["ana"].hp == 10


def test_DC_G13_burning_continues_at_zero_hp() -> None:
    p = ok(
        fight(
            who("bo", (6, 0), hand="molotov"),
            who("ana", (0, 0), hp=1),
            actions=[
                act("bo", "throw", "ana", dice={"attack": 15, "defend:ana": 2}),
                act("bo", "end_turn"),
            ],
        )
    )
    assert p.state.combatants["ana"].hp == 0
    assert p.state.combatants["ana"].statuses == {"burning": {"turns": 1, "damage": 1}}


def test_DC_G14_no_range_modifiers_on_throws_or_explosives() -> None:
    p = ok(
        fight(
            who("ana", hand="knife", traits=["strong_arm", "snapshooter"]),
            who("bo", (14, 0), hand="grenade"),
            actions=[
                act("ana", "throw", "bo", dice={"attack": 10, "defend": 2}),
                act("bo", "throw", at=[4, 0], dice={"attack": 10}),
            ],
        )
    )
    assert (attack_roll(p, 1).total, attack_roll(p, 1).parts) == (10, ())
    assert (attack_roll(p, 2).total, attack_roll(p, 2).parts) == (10, ())


# --- options (2.5) ---------------------------------------------------------------------


def _pistol_shot(
    options: dict[str, Any] | None = None,
    *,
    distance: int = 8,
    attack: int = 10,
    defend: int = 10,
    ana: dict[str, Any] | None = None,
    bo: dict[str, Any] | None = None,
) -> Played:
    """ana shoots bo with a pistol (or the hand given), 8 tiles by default, ammo 2."""
    ana_fields = {"hand": {"is": "pistol", "loaded": 6}, **(ana or {})}
    return ok(
        fight(
            who("ana", **ana_fields),
            who("bo", (distance, 0), **(bo or {})),
            actions=[
                act("ana", "attack", "bo", dice={"attack": attack, "ammo": 2, "defend": defend})
            ],
            options=options,
        )
    )


def test_option_revision_A_pistol_group_and_modifiers() -> None:
    b = _pistol_shot(distance=3, ana={"traits": ["gunslinger"]})
    a = _pistol_shot({"revision": "A"}, distance=3, ana={"traits": ["gunslinger"]})
    assert (attack_roll(b).total, attack_roll(a).total) == (12, 10)
    a_medium = _pistol_shot({"revision": "A"}, ana={"traits": ["rifleman"]})
    assert attack_roll(a_medium).parts == (("rifleman", 1),)


def test_option_ties_hit_false() -> None:
    assert _pistol_shot().state.combatants["bo"].hp == 9
    assert _pistol_shot({"ties_hit": False}).state.combatants["bo"].hp == 12


def test_option_ties_hit_false_keeps_throw_and_explosion_ties() -> None:
    p = ok(
        fight(
            who("ana", hand="knife", traits=["strong_arm"]),
            who("bo", (3, 0), hand="grenade"),
            who("cy", (9, 9)),
            actions=[
                act("ana", "throw", "bo", dice={"attack": 10, "defend": 10}),
                act("bo", "throw", "cy", dice={"attack": 10, "defend:cy": 10}),
            ],
            options={"ties_hit": False},
        )
    )
    assert (p.state.combatants["bo"].hp, p.state.combatants["cy"].hp) == (9, 8)


def test_option_gun_defend_close() -> None:
    bo = {"defend_close_bonus": 4, "defend_ranged_bonus": 1, "cover": True}
    ranged = _pistol_shot(bo=bo)
    close = _pistol_shot({"gun_defend": "close"}, bo=bo)
    assert [(d.defend, d.total) for d in defence_rolls(ranged)] == [("ranged", 13)]
    assert [(d.defend, d.total) for d in defence_rolls(close)] == [("close", 14)]
    close_hit = _pistol_shot({"gun_defend": "close"}, bo={"defend_close_bonus": -1, "cover": True})
    assert (defence_rolls(close_hit)[0].total, close_hit.state.combatants["bo"].hp) == (9, 9)


def test_option_cover_all_ranged_false() -> None:
    covered = {"cover": True}
    assert _pistol_shot(bo=covered).state.combatants["bo"].hp == 12  # 10 vs 12
    assert _pistol_shot({"cover_all_ranged": False}, bo=covered).state.combatants["bo"].hp == 9
    blast = ok(
        fight(
            who("bo", (6, 0), hand="grenade"),
            who("ana", (0, 0), cover=True),
            actions=[act("bo", "throw", "ana", dice={"attack": 10, "defend:ana": 9})],
            options={"cover_all_ranged": False},
        )
    )
    assert defence_rolls(blast)[0].total == 11  # cover still counts against explosives
    assert blast.state.combatants["ana"].hp == 12


def test_option_gun_trait_bonus() -> None:
    p = ok(
        fight(
            who("ana", traits=["dead_eye"], hand={"is": "smg", "loaded": 6}),
            who("bo", (8, 0)),
            actions=[act("ana", "attack", "bo", dice={"attack": 10, "ammo": 1, "defend": 13})],
            options={"gun_trait_bonus": 3},
        )
    )
    assert (attack_roll(p).total, p.state.combatants["bo"].hp) == (13, 8)


def test_option_gun_trait_stacks() -> None:
    ana = {"traits": ["gunslinger", "snapshooter"]}
    assert attack_roll(_pistol_shot(ana=ana)).total == 11
    assert attack_roll(_pistol_shot({"gun_trait_stacks": True}, ana=ana)).total == 12


@pytest.mark.parametrize(("penalty", "total"), [(0, 10), (1, 9), (3, 7)])
def test_option_strong_arm_penalty(penalty: int, total: int) -> None:
    ana = {"traits": ["strong_arm"]}
    p = _pistol_shot({"strong_arm_penalty": penalty}, ana=ana)
    assert attack_roll(p).total == total


def test_option_strong_arm_penalty_never_on_throws_or_explosives() -> None:
    p = ok(
        fight(
            who("ana", hand="knife", traits=["strong_arm"]),
            who("bo", (3, 0), hand="grenade", traits=["strong_arm"]),
            who("cy", (9, 9)),
            actions=[
                act("ana", "throw", "bo", dice={"attack": 10, "defend": 2}),
                act("bo", "throw", "cy", dice={"attack": 10, "defend:cy": 2}),
            ],
            options={"strong_arm_penalty": 5},
        )
    )
    assert (attack_roll(p, 1).total, attack_roll(p, 2).total) == (10, 10)


def test_option_ammo_on_miss_false() -> None:
    miss = _pistol_shot({"ammo_on_miss": False}, defend=15)
    assert loaded(miss, "ana") == 6
    hit = _pistol_shot({"ammo_on_miss": False}, defend=5)
    assert loaded(hit, "ana") == 4
    fumble = ok(
        fight(
            who("ana", hand={"is": "pistol", "loaded": 6}),
            who("bo", (8, 0)),
            actions=[act("ana", "attack", "bo", dice={"attack": 1, "ammo": 3})],
            options={"ammo_on_miss": False},
        )
    )
    assert loaded(fumble, "ana") == 6


def test_option_scrap_floor() -> None:
    scrap = {"hand": {"is": "pistol", "loaded": 6, "scrap": True}}
    assert _pistol_shot(ana=scrap).state.combatants["bo"].hp == 10  # 3 - 1
    assert _pistol_shot({"scrap_floor": 3}, ana=scrap).state.combatants["bo"].hp == 9


def test_option_scrap_molotov_drop_tick() -> None:
    p = ok(
        fight(
            who("bo", (6, 0), hand={"is": "molotov", "scrap": True}),
            who("ana", (0, 0)),
            actions=[
                act("bo", "throw", "ana", dice={"attack": 15, "defend:ana": 2}),
                act("bo", "end_turn"),
            ],
            options={"scrap_molotov": "drop_tick"},
        )
    )
    assert after(p, 1).combatants["ana"].statuses == {"burning": {"turns": 1, "damage": 1}}
    assert (p.state.combatants["ana"].hp, p.state.combatants["ana"].statuses) == (10, {})
    assert not any("never below" in line for line in log(p))


def test_option_actions_per_turn_2() -> None:
    p = fight(
        who("ana", hand={"is": "crossbow", "loaded": 1}),
        who("bo", (8, 0)),
        actions=[
            act("ana", "attack", "bo", dice={"attack": 15, "defend": 2}),
            act("ana", "reload"),
            act("ana", "attack", "bo", dice={"attack": 15, "defend": 2}),
        ],
        options={"actions_per_turn": 2},
    )
    assert refusal(p) == (3, "no_action_left")
    assert (p.state.turn.actions_used, loaded(p, "ana")) == (2, 1)
    assert p.state.combatants["bo"].hp == 8


def test_option_free_same_kind_swap_false() -> None:
    p = fight(
        who("ana", hand="pistol", inventory=["rifle"]),
        who("bo", (8, 0)),
        actions=[act("ana", "equip", item="rifle"), act("ana", "attack", "bo")],
        options={"free_same_kind_swap": False},
    )
    assert refusal(p) == (2, "changed_weapon")
    assert (hand(p, "ana"), p.state.turn.actions_used) == ("rifle", 1)


def test_option_machine_pistol_smg() -> None:
    ana = {"hand": "machine_pistol", "traits": ["dead_eye"]}
    as_pistol = _pistol_shot(distance=3, ana=ana, defend=11)
    as_smg = _pistol_shot({"machine_pistol": "smg"}, distance=3, ana=ana, defend=11)
    assert attack_roll(as_pistol).parts == (("close", 1),)  # pistol, Close group
    assert attack_roll(as_smg).parts == (("dead_eye", 1),)  # SMG: no close mod, Medium
    assert (as_pistol.state.combatants["bo"].hp, as_smg.state.combatants["bo"].hp) == (9, 8)


def test_option_burn_reignite_add() -> None:
    p = _reignite({"burn_reignite": "add"})
    assert p.state.combatants["ana"].statuses == {"burning": {"turns": 4, "damage": 1}}
    assert p.state.combatants["ana"].hp == 8


def test_option_ko_burns_false() -> None:
    p = ok(
        fight(
            who("bo", (6, 0), hand="molotov"),
            who("ana", (0, 0), hp=1),
            actions=[
                act("bo", "throw", "ana", dice={"attack": 15, "defend:ana": 2}),
                act("bo", "end_turn"),
            ],
            options={"ko_burns": False},
        )
    )
    assert (p.state.combatants["ana"].hp, p.state.combatants["ana"].statuses) == (0, {})
