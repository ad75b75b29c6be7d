"""dice-combat rules DC-1 to DC-23: HP, weapon classes, melee, guns, throws, actions.

Each test fixes every die its actions roll, so HP, ammo, hands and turn state are
exact. The reading tested is ``/work/shared/rules/dice-combat.md`` (revision B
unless an option says otherwise); explosives and criticals (DC-24 to DC-44) are in
``test_explosives.py``, gaps and options in ``test_options.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

from fracas.errors import FileError
from tests.rulesets.dice_combat.support import (
    act,
    attack_bo,
    attack_roll,
    defence_rolls,
    fight,
    hand,
    loaded,
    log,
    ok,
    refusal,
    rolled,
    sheet,
    who,
)

# --- hit points --------------------------------------------------------------


def test_DC_1_everyone_starts_with_12_hp() -> None:
    p = ok(fight(who("ana"), who("bo", (1, 0), hand="greataxe")))
    for c in p.state.combatants.values():
        assert (c.hp, c.max_hp) == (12, 12)


def test_DC_2_zero_hp_knocks_out_and_clamps() -> None:
    p = fight(
        who("ana", hand="greataxe"),
        who("bo", (1, 0), hp=2),
        actions=[
            act("ana", "attack", "bo", dice={"attack": 15, "defend": 3}),
            act("bo", "equip", item="knife"),
        ],
    )
    assert p.state.combatants["bo"].hp == 0  # 2 - 3, stops at 0
    assert p.state.combatants["bo"].at == (1, 0)  # stays on the map
    assert refusal(p) == (2, "knocked_out")


# --- weapon class from the primary hand ----------------------------------------


def test_DC_3_class_read_from_the_hand_at_the_moment_of_the_roll() -> None:
    # A free same-kind swap (pistol -> rifle) before the roll: the rifle's class counts.
    p = ok(
        fight(
            who("ana", hand="pistol", inventory=["rifle"]),
            who("bo", (3, 0)),
            actions=[
                act("ana", "equip", item="rifle"),
                act("ana", "attack", "bo", dice={"attack": 15, "ammo": 1, "defend": 2}),
            ],
        )
    )
    assert attack_roll(p).parts == (("close", -4),)  # rifle close modifier, not pistol's +1
    assert p.state.combatants["bo"].hp == 8  # rifle 4, not pistol 3
    assert (hand(p, "ana"), loaded(p, "ana")) == ("rifle", 4)
    assert [i.name for i in sheet(p, "ana").inventory] == ["pistol"]


@pytest.mark.parametrize(
    ("item", "damage"),
    [
        ({"name": "rope", "type": "other"}, 1),  # non-weapon: unarmed
        ({"name": "spear", "type": "melee", "hands": 2}, 3),  # two-handed melee
        ({"name": "baton", "type": "melee"}, 2),  # one-handed melee
    ],
)
def test_DC_3_melee_lines_of_the_class_list(item: dict[str, Any], damage: int) -> None:
    p = ok(attack_bo(who("ana", hand=item), who("bo", (1, 0)), {"attack": 15, "defend": 3}))
    assert p.state.combatants["bo"].hp == 12 - damage


@pytest.mark.parametrize(
    ("item", "damage", "ammo_die"),
    [
        # first matching line: shells win over automatic and one hand
        ({"name": "g", "type": "gun", "hands": 1, "automatic": True, "fires": "shells",
          "capacity": 4}, 4, False),
        # a one-handed automatic gun without a pistol subtype is an SMG
        ({"name": "g", "type": "gun", "automatic": True, "capacity": 9}, 4, True),
        # any other two-handed gun is a rifle, automatic or not
        ({"name": "g", "type": "gun", "hands": 2, "automatic": True, "capacity": 9}, 4, True),
        # any other one-handed gun is a pistol
        ({"name": "g", "type": "gun", "capacity": 9}, 3, True),
        # a sawn-off rifle given one hand becomes a pistol (2.2)
        ({"is": "sawn_off_rifle", "hands": 1}, 3, True),
    ],
)  # fmt: skip
def test_DC_3_gun_lines_of_the_class_list(
    item: dict[str, Any], damage: int, ammo_die: bool
) -> None:
    dice = {"attack": 15, "defend": 3, **({"ammo": 1} if ammo_die else {})}
    p = ok(attack_bo(who("ana", hand=item), who("bo", (8, 0)), dice))
    assert p.state.combatants["bo"].hp == 12 - damage


def test_DC_4_only_the_primary_hand_is_read() -> None:
    # Weapons carried in the inventory do nothing: an empty hand is unarmed (1 HP).
    p = ok(
        attack_bo(
            who("ana", hand=None, inventory=["greataxe", "pistol"]),
            who("bo", (1, 0)),
            {"attack": 15, "defend": 3},
        )
    )
    assert p.state.combatants["bo"].hp == 11
    assert "bare hands" in attack_roll(p).how


def test_DC_4_one_weapon_equipped_at_most() -> None:
    with pytest.raises(FileError) as exc:
        fight(who("ana", hand=["pistol", "knife"]), who("bo", (1, 0)))
    assert "combatants[0].hand" in exc.value.where


# --- melee ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("item", "damage"), [(None, 1), ("knife", 2), ("sword", 2), ("greataxe", 3)]
)
def test_DC_5_melee_damage_by_class(item: str | None, damage: int) -> None:
    p = ok(attack_bo(who("ana", hand=item), who("bo", (1, 0)), {"attack": 15, "defend": 3}))
    assert p.state.combatants["bo"].hp == 12 - damage


def test_DC_5_melee_defender_rolls_defend_close() -> None:
    # Close bonus counts; the ranged bonus and cover do not. 10 vs 8 + 3 = 11: miss.
    p = ok(
        attack_bo(
            who("ana", hand="sword"),
            who("bo", (1, 0), defend_close_bonus=3, defend_ranged_bonus=5, cover=True),
            {"attack": 10, "defend": 8},
        )
    )
    (d,) = defence_rolls(p)
    assert (d.defend, d.total, d.hit) == ("close", 11, False)
    assert p.state.combatants["bo"].hp == 12


@pytest.mark.parametrize("at", [(1, 0), (1, 1), (0, -1), (-1, 1)])
def test_DC_6_melee_reaches_one_tile_diagonals_included(at: tuple[int, int]) -> None:
    p = ok(attack_bo(who("ana", hand="sword"), who("bo", at), {"attack": 15, "defend": 3}))
    assert p.state.combatants["bo"].hp == 10


@pytest.mark.parametrize("at", [(0, 0), (2, 0), (2, 1), (2, 2)])
def test_DC_6_melee_refused_out_of_reach(at: tuple[int, int]) -> None:
    p = attack_bo(who("ana", (0, 0), hand="sword"), who("bo", at), {"attack": 15, "defend": 3})
    assert refusal(p) == (1, "out_of_reach")
    assert p.state.turn.actions_used == 0


# --- guns ------------------------------------------------------------------------

GUNS = [  # short-hand, damage, max range, rolls the ammo d3
    ("pistol", 3, 15, True),
    ("smg", 4, 15, True),
    ("shotgun", 4, 15, False),
    ("rifle", 4, 20, True),
    ("crossbow", 4, 20, False),
]


@pytest.mark.parametrize(("gun", "damage", "reach", "ammo_die"), GUNS)
def test_DC_7_gun_damage_at_maximum_range(
    gun: str, damage: int, reach: int, ammo_die: bool
) -> None:
    dice = {"attack": 15, "defend": 2, **({"ammo": 1} if ammo_die else {})}
    p = ok(attack_bo(who("ana", hand=gun), who("bo", (reach, 0)), dice))
    assert p.state.combatants["bo"].hp == 12 - damage
    assert rolled(p) == ["attack", *(["ammo"] if ammo_die else []), "defend:bo"]


@pytest.mark.parametrize(("gun", "damage", "reach", "ammo_die"), GUNS)
def test_DC_7_gun_refused_beyond_maximum_range(
    gun: str, damage: int, reach: int, ammo_die: bool
) -> None:
    p = fight(
        who("ana", hand={"is": gun, "loaded": 1}),
        who("bo", (reach + 1, 3)),
        actions=[act("ana", "attack", "bo")],
    )
    assert refusal(p) == (1, "out_of_range")
    assert loaded(p, "ana") == 1
    assert p.state.turn.actions_used == 0
    assert len(p.records) == 1  # nothing rolled, nothing kept


def test_DC_7_gun_defender_rolls_defend_ranged() -> None:
    # 10 vs 7 + 2 ranged bonus = 9: hit; the close bonus does not count.
    p = ok(
        attack_bo(
            who("ana", hand="rifle"),
            who("bo", (8, 0), defend_close_bonus=5, defend_ranged_bonus=2),
            {"attack": 10, "ammo": 1, "defend": 7},
        )
    )
    (d,) = defence_rolls(p)
    assert (d.defend, d.total, d.hit) == ("ranged", 9, True)
    assert p.state.combatants["bo"].hp == 8


@pytest.mark.parametrize("gun", ["pistol", "shotgun", "crossbow", "hand_crossbow"])
def test_DC_8_empty_gun_cannot_attack(gun: str) -> None:
    p = fight(
        who("ana", hand={"is": gun, "loaded": 0}),
        who("bo", (3, 0)),
        actions=[act("ana", "attack", "bo")],
    )
    assert refusal(p) == (1, "empty_gun")
    assert p.state.turn.actions_used == 0


@pytest.mark.parametrize(("ammo", "left"), [(1, 5), (2, 4), (3, 3)])
def test_DC_9_system_removes_rolled_rounds_damage_unchanged(ammo: int, left: int) -> None:
    p = ok(
        attack_bo(
            who("ana", hand={"is": "pistol", "loaded": 6}),
            who("bo", (8, 0)),
            {"attack": 15, "ammo": ammo, "defend": 2},
        )
    )
    assert loaded(p, "ana") == left
    assert p.state.combatants["bo"].hp == 9


def test_DC_9_fires_what_is_left_when_fewer_are_loaded() -> None:
    p = ok(
        attack_bo(
            who("ana", hand={"is": "smg", "loaded": 2}),
            who("bo", (8, 0)),
            {"attack": 15, "ammo": 3, "defend": 2},
        )
    )
    assert loaded(p, "ana") == 0
    assert p.state.combatants["bo"].hp == 8


@pytest.mark.parametrize("gun", ["shotgun", "crossbow"])
def test_DC_9_shotgun_and_crossbow_use_exactly_one(gun: str) -> None:
    p = ok(
        attack_bo(
            who("ana", hand={"is": gun, "loaded": 1}),
            who("bo", (8, 0)),
            {"attack": 15, "defend": 2},
        )
    )
    assert loaded(p, "ana") == 0
    assert "ammo" not in rolled(p)


def test_DC_9_rounds_removed_on_a_miss() -> None:
    p = ok(
        attack_bo(
            who("ana", hand={"is": "rifle", "loaded": 5}),
            who("bo", (8, 0)),
            {"attack": 3, "ammo": 2, "defend": 18},
        )
    )
    assert loaded(p, "ana") == 3
    assert p.state.combatants["bo"].hp == 12


def test_DC_10_crossbow_reload_is_the_action() -> None:
    p = fight(
        who("ana", hand={"is": "crossbow", "loaded": 0}),
        who("bo", (8, 0)),
        actions=[act("ana", "reload"), act("ana", "attack", "bo")],
    )
    assert refusal(p) == (2, "no_action_left")
    assert loaded(p, "ana") == 1
    assert p.state.turn.actions_used == 1


def test_DC_10_P_DC_5_crossbow_fires_once_every_two_turns() -> None:
    shot = {"attack": 15, "defend": 2}
    p = ok(
        fight(
            who("ana", hand="crossbow"),
            who("bo", (8, 0)),
            actions=[
                act("ana", "attack", "bo", dice=shot),  # 1 -> 0
                act("ana", "end_turn"),
                act("bo", "end_turn"),
                act("ana", "reload"),  # the whole turn
                act("ana", "end_turn"),
                act("bo", "end_turn"),
                act("ana", "attack", "bo", dice=shot),
            ],
        )
    )
    assert (p.state.round, loaded(p, "ana"), p.state.combatants["bo"].hp) == (4, 0, 4)


@pytest.mark.parametrize(("gun", "capacity"), [("pistol", 8), ("rifle", 5), ("shotgun", 5)])
def test_DC_10_other_reloads_are_free_and_fill_the_gun(gun: str, capacity: int) -> None:
    dice = {"attack": 15, "defend": 2, **({} if gun == "shotgun" else {"ammo": 1})}
    p = ok(
        fight(
            who("ana", hand={"is": gun, "loaded": 1}),
            who("bo", (8, 0)),
            actions=[act("ana", "reload"), act("ana", "attack", "bo", dice=dice)],
        )
    )
    assert loaded(p, "ana") == capacity - 1
    assert p.state.turn.actions_used == 1  # the attack only
    assert p.state.combatants["bo"].hp == 12 - (3 if gun == "pistol" else 4)


def test_DC_10_reload_refusals() -> None:
    full = fight(who("ana", hand="pistol"), who("bo", (8, 0)), actions=[act("ana", "reload")])
    assert refusal(full) == (1, "already_full")
    melee = fight(who("ana", hand="knife"), who("bo", (8, 0)), actions=[act("ana", "reload")])
    assert refusal(melee) == (1, "not_a_gun")


@pytest.mark.parametrize(("gun", "damage"), [("pistol", 2), ("smg", 3), ("crossbow", 3)])
def test_DC_11_scrap_guns_deal_one_less(gun: str, damage: int) -> None:
    dice = {"attack": 15, "defend": 2, **({} if gun == "crossbow" else {"ammo": 1})}
    p = ok(attack_bo(who("ana", hand={"is": gun, "scrap": True}), who("bo", (8, 0)), dice))
    assert p.state.combatants["bo"].hp == 12 - damage


def test_DC_11_scrap_melee_weapons_are_unaffected() -> None:
    p = ok(
        attack_bo(
            who("ana", hand={"is": "greataxe", "scrap": True}),
            who("bo", (1, 0)),
            {"attack": 15, "defend": 2},
        )
    )
    assert p.state.combatants["bo"].hp == 9


# --- range bands and modifiers -------------------------------------------------------


@pytest.mark.parametrize(
    ("distance", "band", "mod"),
    [(1, "close", -4), (5, "close", -4), (6, "medium", 0), (12, "medium", 0),
     (13, "long", 1), (20, "long", 1)],
)  # fmt: skip
def test_DC_12_range_bands(distance: int, band: str, mod: int) -> None:
    p = ok(
        attack_bo(
            who("ana", hand="rifle"),
            who("bo", (distance, 0)),
            {"attack": 10, "ammo": 1, "defend": 2},
        )
    )
    roll = attack_roll(p)
    assert f"({band}, " in roll.how
    assert roll.total == 10 + mod


@pytest.mark.parametrize(
    ("gun", "revision", "close", "long"),
    [
        ("pistol", "B", 1, -2),
        ("pistol", "A", 0, -2),
        ("smg", "B", 0, -2),
        ("smg", "A", 1, -2),
        ("shotgun", "B", 2, -4),
        ("shotgun", "A", 2, -4),
        ("rifle", "B", -4, 1),
        ("crossbow", "B", -2, 1),
        ("crossbow", "A", -2, 1),
    ],
)
def test_DC_13_range_modifiers(gun: str, revision: str, close: int, long: int) -> None:
    ammo = {} if gun in ("shotgun", "crossbow") else {"ammo": 1}
    for distance, mod in ((3, close), (9, 0), (14, long)):
        p = ok(
            fight(
                who("ana", hand=gun),
                who("bo", (distance, 0)),
                actions=[act("ana", "attack", "bo", dice={"attack": 10, "defend": 1, **ammo})],
                options={"revision": revision},
            )
        )
        assert attack_roll(p).total == 10 + mod, (distance, mod)


@pytest.mark.parametrize(
    ("gun", "trait", "bonus"),
    [
        ("pistol", "gunslinger", 1),  # pistols are Close in B
        ("pistol", "snapshooter", 1),
        ("pistol", "rifleman", 0),
        ("smg", "dead_eye", 1),  # SMGs are Medium in B
        ("smg", "snapshooter", 0),
        ("rifle", "spotter", 1),
        ("rifle", "longshot", 1),
        ("rifle", "rifleman", 0),
        ("crossbow", "longshot", 1),
        ("hand_crossbow", "snapshooter", 1),  # named: Close, though a Crossbow
        ("hand_crossbow", "spotter", 0),
        ("sawn_off_shotgun", "rifleman", 1),  # "all sawn-off guns": Medium
        ("sawn_off_shotgun", "gunslinger", 0),
        ("sawn_off_rifle", "dead_eye", 1),
        ("machine_gun", "rifleman", 1),  # machine guns: Medium, though a Rifle
        ("machine_gun", "spotter", 0),
        ("shotgun", "gunslinger", 1),
    ],
)
def test_DC_14_gun_trait_adds_one_for_its_group(gun: str, trait: str, bonus: int) -> None:
    # Medium range (8 tiles): every range modifier is 0.
    ammo = {} if "shotgun" in gun or "crossbow" in gun else {"ammo": 1}
    p = ok(
        attack_bo(
            who("ana", hand=gun, traits=[trait]),
            who("bo", (8, 0)),
            {"attack": 10, "defend": 1, **ammo},
        )
    )
    assert attack_roll(p).total == 10 + bonus


# --- throwing ----------------------------------------------------------------------


def test_DC_15_throw_is_an_action() -> None:
    p = fight(
        who("ana", hand="knife", traits=["strong_arm"]),
        who("bo", (3, 0)),
        actions=[
            act("ana", "throw", "bo", dice={"attack": 15, "defend": 2}),
            act("ana", "throw", "bo"),
        ],
    )
    assert refusal(p) == (2, "no_action_left")
    assert p.state.combatants["bo"].hp == 9


@pytest.mark.parametrize("item", ["knife", "club"])
def test_DC_15_short_weapons_need_strong_arm(item: str) -> None:
    p = fight(who("ana", hand=item), who("bo", (3, 0)), actions=[act("ana", "throw", "bo")])
    assert refusal(p) == (1, "needs_strong_arm")
    assert hand(p, "ana") == item


@pytest.mark.parametrize("item", ["sword", "greataxe", "pistol", None])
def test_DC_15_only_short_weapons_and_explosives_are_thrown(item: str | None) -> None:
    p = fight(
        who("ana", hand=item, traits=["strong_arm"]),
        who("bo", (3, 0)),
        actions=[act("ana", "throw", "bo")],
    )
    assert refusal(p) == (1, "not_throwable")


@pytest.mark.parametrize(("natural", "hp"), [(10, 9), (9, 12)])
def test_DC_16_throw_hits_when_attack_reaches_defend_ranged(natural: int, hp: int) -> None:
    # bo: 8 + 2 ranged bonus = 10; a tie hits; the close bonus does not count.
    p = ok(
        fight(
            who("ana", hand="knife", traits=["strong_arm"]),
            who("bo", (3, 0), defend_ranged_bonus=2, defend_close_bonus=9),
            actions=[act("ana", "throw", "bo", dice={"attack": natural, "defend": 8})],
        )
    )
    (d,) = defence_rolls(p)
    assert (d.defend, d.total) == ("ranged", 10)
    assert p.state.combatants["bo"].hp == hp
    assert rolled(p) == ["attack", "defend:bo"]


def test_DC_16_scrap_throw_deals_two() -> None:
    p = ok(
        fight(
            who("ana", hand={"is": "club", "scrap": True}, traits=["strong_arm"]),
            who("bo", (3, 0)),
            actions=[act("ana", "throw", "bo", dice={"attack": 15, "defend": 2})],
        )
    )
    assert p.state.combatants["bo"].hp == 10


@pytest.mark.parametrize(("revision", "reach"), [("B", 15), ("A", 13)])
def test_DC_17_strong_arm_throw_range(revision: str, reach: int) -> None:
    options = {"revision": revision}
    near = fight(
        who("ana", hand="knife", traits=["strong_arm"]),
        who("bo", (reach, reach)),
        actions=[act("ana", "throw", "bo", dice={"attack": 15, "defend": 2})],
        options=options,
    )
    assert ok(near).state.combatants["bo"].hp == 9
    far = fight(
        who("ana", hand="knife", traits=["strong_arm"]),
        who("bo", (reach + 1, 0)),
        actions=[act("ana", "throw", "bo")],
        options=options,
    )
    assert refusal(far) == (1, "out_of_range")


def test_DC_18_melee_traits_do_not_apply_to_throws() -> None:
    p = ok(
        fight(
            who("ana", hand="knife", traits=["strong_arm", "hewer", "cutter"], attack_bonus=1),
            who("bo", (3, 0)),
            actions=[act("ana", "throw", "bo", dice={"attack": 10, "defend": 2})],
        )
    )
    roll = attack_roll(p)
    assert (roll.parts, roll.total) == ((("bonus", 1),), 11)
    assert p.state.combatants["bo"].hp == 9  # 2 + 1 Strong Arm, nothing from Hewer/Cutter


def test_DC_19_thrown_weapon_stays_in_hand_and_log_notes_the_drop() -> None:
    p = ok(
        fight(
            who("ana", hand="knife", traits=["strong_arm"], inventory=["club"]),
            who("bo", (3, 2)),
            actions=[act("ana", "throw", "bo", dice={"attack": 15, "defend": 2})],
        )
    )
    assert hand(p, "ana") == "knife"
    assert [i.name for i in sheet(p, "ana").inventory] == ["club"]
    assert "  the knife stays in hand: drop it OOC on [3, 2] (DC-19)" in log(p)


def test_DC_19_drop_note_after_a_miss() -> None:
    p = ok(
        fight(
            who("ana", hand="knife", traits=["strong_arm"]),
            who("bo", (3, 2)),
            actions=[act("ana", "throw", "bo", dice={"attack": 2, "defend": 19})],
        )
    )
    assert hand(p, "ana") == "knife"
    assert any("drop it OOC on [3, 2]" in line for line in log(p))


@pytest.mark.parametrize(("item", "distance", "ammo"), [("sword", 1, False), ("rifle", 8, True)])
def test_DC_20_strong_arm_minus_one_on_other_attacks(item: str, distance: int, ammo: bool) -> None:
    dice = {"attack": 10, "defend": 9, **({"ammo": 1} if ammo else {})}
    p = ok(attack_bo(who("ana", hand=item, traits=["strong_arm"]), who("bo", (distance, 0)), dice))
    assert attack_roll(p).total == 9  # a tie: still a hit
    assert p.state.combatants["bo"].hp < 12


def test_DC_20_no_strong_arm_penalty_on_throws() -> None:
    p = ok(
        fight(
            who("ana", hand="knife", traits=["strong_arm"]),
            who("bo", (3, 0)),
            actions=[act("ana", "throw", "bo", dice={"attack": 10, "defend": 10})],
        )
    )
    assert attack_roll(p).total == 10
    assert p.state.combatants["bo"].hp == 9


# --- actions and weapon changes ---------------------------------------------------


@pytest.mark.parametrize(("held", "switch"), [("knife", "pistol"), ("rifle", "sword")])
def test_DC_21_melee_ranged_switch_is_the_action_and_ends_the_turn(held: str, switch: str) -> None:
    p = fight(
        who("ana", hand=held, inventory=[switch]),
        who("bo", (1, 0)),
        actions=[act("ana", "equip", item=switch), act("ana", "attack", "bo")],
        options={"actions_per_turn": 2},  # the action count is not what refuses
    )
    assert refusal(p) == (2, "changed_weapon")
    assert hand(p, "ana") == switch
    assert [i.name for i in sheet(p, "ana").inventory] == [held]
    assert p.state.turn.actions_used == 1


@pytest.mark.parametrize(
    "then", [act("ana", "reload"), act("ana", "equip", item="knife"), act("ana", "throw", "bo")]
)
def test_DC_21_nothing_else_follows_a_switch(then: dict[str, Any]) -> None:
    p = fight(
        who("ana", hand="knife", inventory=["pistol"]),
        who("bo", (1, 0)),
        actions=[act("ana", "equip", item="pistol"), then],
    )
    assert refusal(p) == (2, "changed_weapon")


def test_DC_21_switch_refused_when_the_action_is_used() -> None:
    p = fight(
        who("ana", hand="sword", inventory=["pistol"]),
        who("bo", (1, 0)),
        actions=[
            act("ana", "attack", "bo", dice={"attack": 5, "defend": 15}),
            act("ana", "equip", item="pistol"),
        ],
    )
    assert refusal(p) == (2, "no_action_left")
    assert hand(p, "ana") == "sword"


def test_DC_21_same_kind_swap_is_free() -> None:
    p = ok(
        fight(
            who("ana", hand="knife", inventory=["sword"]),
            who("bo", (1, 0)),
            actions=[
                act("ana", "equip", item="sword"),
                act("ana", "attack", "bo", dice={"attack": 15, "defend": 2}),
            ],
        )
    )
    assert p.state.turn.actions_used == 1
    assert p.state.combatants["bo"].hp == 10


@pytest.mark.parametrize("start", [None, {"name": "lantern", "type": "other"}])
def test_DC_22_began_unarmed_equips_for_free(start: dict[str, Any] | None) -> None:
    p = ok(
        fight(
            who("ana", hand=start, inventory=["pistol"]),
            who("bo", (8, 0)),
            actions=[
                act("ana", "equip", item="pistol"),
                act("ana", "attack", "bo", dice={"attack": 15, "ammo": 2, "defend": 2}),
            ],
        )
    )
    assert p.state.turn.actions_used == 1
    assert "changed_weapon" not in p.state.turn.flags
    assert (hand(p, "ana"), loaded(p, "ana")) == ("pistol", 6)
    assert p.state.combatants["bo"].hp == 9


def test_DC_22_only_the_first_equip_is_free() -> None:
    p = fight(
        who("ana", hand=None, inventory=["pistol", "knife"]),
        who("bo", (1, 0)),
        actions=[
            act("ana", "equip", item="pistol"),
            act("ana", "equip", item="knife"),
            act("ana", "attack", "bo"),
        ],
    )
    assert refusal(p) == (3, "changed_weapon")
    assert hand(p, "ana") == "knife"


def test_DC_22_armed_start_pays_for_a_switch() -> None:
    p = ok(
        fight(
            who("ana", hand="knife", inventory=["pistol"]),
            who("bo", (8, 0)),
            actions=[act("ana", "equip", item="pistol")],
        )
    )
    assert p.state.turn.actions_used == 1
    assert "changed_weapon" in p.state.turn.flags


def test_DC_23_one_action_per_turn() -> None:
    p = fight(
        who("ana", hand="sword"),
        who("bo", (1, 0), hand="sword"),
        actions=[
            act("ana", "attack", "bo", dice={"attack": 15, "defend": 2}),
            act("ana", "move", to=[0, 1]),  # movement is another section's: free
            act("ana", "attack", "bo"),
        ],
    )
    assert refusal(p) == (3, "no_action_left")
    assert p.state.combatants["bo"].hp == 10
    assert p.state.combatants["ana"].at == (0, 1)


def test_DC_23_the_action_comes_back_next_turn() -> None:
    p = ok(
        fight(
            who("ana", hand="sword"),
            who("bo", (1, 0)),
            actions=[
                act("ana", "attack", "bo", dice={"attack": 15, "defend": 2}),
                act("ana", "end_turn"),
                act("bo", "end_turn"),
                act("ana", "attack", "bo", dice={"attack": 15, "defend": 2}),
            ],
        )
    )
    assert (p.state.round, p.state.turn.actor, p.state.turn.actions_used) == (3, "ana", 1)
    assert p.state.combatants["bo"].hp == 8
