"""dice-combat rules DC-24 to DC-44: explosives, burning, criticals, hit and damage.

Also the worked example of section 2.7 of ``dice-combat.md`` (and its revision-A
variant) and the seed's "19 + 2 = 21 beats a natural 20". Every die is fixed.
"""

from __future__ import annotations

from typing import Any

import pytest

from fracas.model import Damaged
from fracas.rulesets.dice_combat.rules import DiceCombat
from tests.helpers import play
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
    rolled,
    sheet,
    who,
)

BURN_2 = {"burning": {"turns": 2, "damage": 1}}


def thrower(item: Any = "molotov", at: tuple[int, int] = (6, 0), **fields: Any) -> dict[str, Any]:
    """``bo``, who throws; each test lists bo first, so bo's turn comes first."""
    return who("bo", at, hand=item, **fields)


# --- explosives ----------------------------------------------------------------------


def test_DC_24_molotov_3x3_one_hp_and_two_burning_turns() -> None:
    p = ok(
        fight(
            thrower(),
            who("ana", (0, 0)),
            who("cy", (1, -1)),  # diagonal neighbour: inside 3x3
            who("dee", (2, 0)),  # outside
            actions=[
                act("bo", "throw", "ana", dice={"attack": 15, "defend:ana": 2, "defend:cy": 3})
            ],
        )
    )
    hp = {cid: c.hp for cid, c in p.state.combatants.items()}
    assert hp == {"bo": 12, "ana": 11, "cy": 11, "dee": 12}
    assert p.state.combatants["ana"].statuses == BURN_2
    assert p.state.combatants["cy"].statuses == BURN_2
    assert p.state.combatants["dee"].statuses == {}


@pytest.mark.parametrize("bomb", ["grenade", "pipe_bomb", "aerosol_bomb"])
def test_DC_24_bomb_5x5_four_hp_no_burning(bomb: str) -> None:
    p = ok(
        fight(
            thrower(bomb, at=(8, 0)),
            who("ana", (0, 0)),
            who("cy", (-2, 2)),  # corner of the 5x5
            who("dee", (3, 0)),  # outside
            actions=[
                act("bo", "attack", at=[0, 0], dice={"attack": 15, "defend:ana": 2, "defend:cy": 3})
            ],
        )
    )
    hp = {cid: c.hp for cid, c in p.state.combatants.items()}
    assert hp == {"bo": 12, "ana": 8, "cy": 8, "dee": 12}
    assert all(c.statuses == {} for c in p.state.combatants.values())


def _burn(luck: str, turns: int) -> list[tuple[int, dict[str, Any]]]:
    """ana's HP and statuses after the throw and after each of her next turn starts."""
    actions = [act("bo", "throw", "ana", dice={"attack": 15, "defend:ana": 2})]
    for _ in range(turns):
        actions += [act("bo", "end_turn"), act("ana", "end_turn")]
    p = ok(fight(thrower(), who("ana", (0, 0), luck=luck), actions=actions))
    # Action 1 is the throw; each even action ends bo's turn, so ana's turn starts.
    anas = [after(p, n).combatants["ana"] for n in (1, *range(2, 2 * turns + 1, 2))]
    return [(ana.hp, dict(ana.statuses)) for ana in anas]


def test_DC_25_burning_ticks_at_the_start_of_the_victims_turns() -> None:
    assert _burn("none", 3) == [
        (11, BURN_2),
        (10, {"burning": {"turns": 1, "damage": 1}}),
        (9, {}),
        (9, {}),
    ]


def test_DC_25_lucky_victim_burns_one_turn_less() -> None:
    assert _burn("lucky", 2) == [(11, {"burning": {"turns": 1, "damage": 1}}), (10, {}), (10, {})]


def test_DC_25_unlucky_victim_burns_one_turn_more() -> None:
    assert _burn("unlucky", 4) == [
        (11, {"burning": {"turns": 3, "damage": 1}}),
        (10, BURN_2),
        (9, {"burning": {"turns": 1, "damage": 1}}),
        (8, {}),
        (8, {}),
    ]


def test_DC_25_the_throwers_luck_does_not_count() -> None:
    p = ok(
        fight(
            thrower(luck="unlucky"),
            who("ana", (0, 0), luck="lucky"),
            actions=[act("bo", "throw", "ana", dice={"attack": 15, "defend:ana": 2})],
        )
    )
    assert p.state.combatants["ana"].statuses == {"burning": {"turns": 1, "damage": 1}}


def test_DC_26_scrap_bomb_deals_three() -> None:
    p = ok(
        fight(
            thrower({"is": "grenade", "scrap": True}),
            who("ana", (0, 0)),
            actions=[act("bo", "throw", "ana", dice={"attack": 15, "defend:ana": 2})],
        )
    )
    assert p.state.combatants["ana"].hp == 9


def test_DC_26_scrap_molotov_never_below_one_and_the_log_says_so() -> None:
    p = ok(
        fight(
            thrower({"is": "molotov", "scrap": True}),
            who("ana", (0, 0)),
            actions=[
                act("bo", "throw", "ana", dice={"attack": 15, "defend:ana": 2}),
                act("ana", "end_turn"),  # bo's turn ends, ana's starts: a tick
            ],
        )
    )
    assert p.state.combatants["ana"].hp == 10  # 1 now + 1 tick
    assert p.state.combatants["ana"].statuses == {"burning": {"turns": 1, "damage": 1}}
    assert "  scrap molotov: 1 less, never below 1: still 1 (DC-A6)" in log(p)


def test_DC_27_explosive_throw_is_the_action_up_to_10_tiles() -> None:
    # No Strong Arm needed; 10 tiles (diagonal) is in range.
    p = ok(
        fight(
            thrower(at=(10, 10)),
            who("ana", (0, 0)),
            actions=[act("bo", "throw", "ana", dice={"attack": 15, "defend:ana": 2})],
        )
    )
    assert p.state.turn.actions_used == 1
    assert p.state.combatants["ana"].hp == 11


@pytest.mark.parametrize("traits", [[], ["strong_arm"]])
def test_DC_27_explosive_refused_beyond_10_tiles(traits: list[str]) -> None:
    p = fight(
        thrower(at=(11, 0), traits=traits),
        who("ana", (0, 0)),
        actions=[act("bo", "throw", at=[0, 0])],
    )
    assert refusal(p) == (1, "out_of_range")
    assert hand(p, "bo") == "molotov"


@pytest.mark.parametrize("do", ["throw", "attack"])
def test_DC_28_no_explosives_in_round_one(do: str) -> None:
    p = fight(
        thrower(),
        who("ana", (0, 0)),
        actions=[act("bo", do, "ana")],
        round=1,
    )
    assert refusal(p) == (1, "explosives_round_one")
    assert hand(p, "bo") == "molotov"
    assert p.state.turn.actions_used == 0


def test_DC_29_explosive_must_be_in_the_primary_hand() -> None:
    p = fight(
        who("bo", (6, 0), hand=None, inventory=["grenade"]),
        who("ana", (0, 0)),
        actions=[act("bo", "throw", at=[0, 0])],
    )
    assert refusal(p) == (1, "tile_needs_explosive")
    assert [i.name for i in sheet(p, "bo").inventory] == ["grenade"]


def test_DC_29_item_deleted_on_the_roll_and_change_weapon_costs_a_later_turn() -> None:
    p = fight(
        thrower(inventory=["pistol"]),
        who("ana", (0, 0)),
        actions=[
            act("bo", "throw", "ana", dice={"attack": 3, "defend:ana": 15}),  # a miss
            act("bo", "equip", item="pistol"),
        ],
    )
    assert refusal(p) == (2, "turn_over")
    assert hand(p, "bo") is None
    assert [i.name for i in sheet(p, "bo").inventory] == ["pistol"]


def test_DC_29_change_weapon_into_empty_hands_is_the_action() -> None:
    p = fight(
        thrower(inventory=["pistol"]),
        who("ana", (0, 0)),
        actions=[
            act("bo", "throw", "ana", dice={"attack": 3, "defend:ana": 15}),
            act("ana", "end_turn"),
            act("bo", "equip", item="pistol"),
            act("bo", "attack", "ana"),
        ],
    )
    assert refusal(p) == (4, "changed_weapon")
    assert (p.state.round, hand(p, "bo"), p.state.turn.actions_used) == (3, "pistol", 1)


def test_DC_30_no_action_straps_an_explosive_to_the_body() -> None:
    assert [a.name for a in DiceCombat.contract.actions] == ["attack", "throw", "reload", "equip"]


def test_DC_31_blast_hits_allies_self_knocked_out_and_surrendered() -> None:
    p = ok(
        fight(
            thrower("grenade", at=(1, 0), side="raiders"),
            who("ana", (0, 0), side="players"),
            who("cy", (0, 1), side="raiders"),  # bo's ally
            who("dee", (-1, 0), hp=0),  # knocked out
            who("eve", (0, -2), surrendered=True),
            actions=[
                act(
                    "bo",
                    "throw",
                    "ana",
                    dice={
                        "attack": 15,
                        **{f"defend:{c}": 2 for c in ("bo", "ana", "cy", "dee", "eve")},
                    },
                )
            ],
        )
    )
    hp = {cid: c.hp for cid, c in p.state.combatants.items()}
    assert hp == {"bo": 8, "ana": 8, "cy": 8, "dee": 0, "eve": 8}
    assert rolled(p) == [
        "attack",
        "defend:bo",
        "defend:ana",
        "defend:cy",
        "defend:dee",
        "defend:eve",
    ]


def test_DC_32_one_attack_each_victim_defends_cover_counts() -> None:
    # Attack 10 + 2 bonus = 12. ana 12: tie, hit. cy 10 + 2 cover = 12: hit.
    # dee 11 + 2 ranged bonus = 13: miss. Close bonus never counts.
    p = ok(
        fight(
            thrower(attack_bonus=2),
            who("ana", (0, 0), defend_close_bonus=5),
            who("cy", (1, 1), cover=True),
            who("dee", (-1, 0), defend_ranged_bonus=2),
            actions=[
                act(
                    "bo",
                    "throw",
                    "ana",
                    dice={"attack": 10, "defend:ana": 12, "defend:cy": 10, "defend:dee": 11},
                )
            ],
        )
    )
    assert [(d.target, d.defend, d.total, d.hit) for d in defence_rolls(p)] == [
        ("ana", "ranged", 12, True),
        ("cy", "ranged", 12, True),
        ("dee", "ranged", 13, False),
    ]
    assert {c: p.state.combatants[c].statuses for c in ("ana", "cy", "dee")} == {
        "ana": BURN_2,
        "cy": BURN_2,
        "dee": {},
    }
    assert p.state.turn.over


def test_DC_32_turn_ends_after_an_explosive() -> None:
    p = fight(
        thrower("grenade", inventory=["pistol"]),
        who("ana", (0, 0)),
        actions=[
            act("bo", "throw", "ana", dice={"attack": 15, "defend:ana": 2}),
            act("bo", "move", to=[7, 0]),  # core actions stay allowed
            act("bo", "reload"),
        ],
    )
    assert refusal(p) == (3, "turn_over")
    assert p.state.combatants["bo"].at == (7, 0)


def test_DC_33_explosives_never_crit_a_fumbling_victim_still_adds_d4() -> None:
    p = ok(
        fight(
            thrower("grenade"),
            who("ana", (0, 0)),
            who("cy", (1, 0)),
            actions=[
                act(
                    "bo",
                    "throw",
                    "ana",
                    dice={"attack": 20, "defend:ana": 1, "defend:cy": 5, "fumble:ana": 3},
                )
            ],
        )
    )
    assert attack_roll(p).critical is None
    assert (p.state.combatants["ana"].hp, p.state.combatants["cy"].hp) == (5, 8)
    assert "crit" not in rolled(p)


def test_DC_33_no_crit_die_for_an_explosive() -> None:
    p = fight(
        thrower("grenade"),
        who("ana", (0, 0)),
        actions=[act("bo", "throw", "ana", dice={"attack": 20, "defend:ana": 2, "crit": 4})],
    )
    assert refusal(p) == (1, "unused_die")  # a natural 20 rolls no crit die
    assert p.state.combatants["ana"].hp == 12


def test_DC_34_critical_failure_goes_wide_and_catches_the_thrower() -> None:
    # Target [4, 0]; scatter 2 east: centre [6, 0]. The 3x3 holds bo [7, 0] and cy [5, 1].
    # Original total 1 + 3 = 4: bo's 4 ties (hit), cy's 5 misses; ana is not in the area.
    p = ok(
        fight(
            thrower(at=(7, 0), attack_bonus=3),
            who("ana", (4, 0)),
            who("cy", (5, 1)),
            actions=[
                act(
                    "bo",
                    "throw",
                    "ana",
                    dice={
                        "attack": 1,
                        "scatter": 2,
                        "direction": 3,
                        "defend:bo": 4,
                        "defend:cy": 5,
                    },
                )
            ],
        )
    )
    assert rolled(p) == ["attack", "scatter", "direction", "defend:bo", "defend:cy"]
    hp = {cid: c.hp for cid, c in p.state.combatants.items()}
    assert hp == {"bo": 11, "ana": 12, "cy": 12}
    assert p.state.combatants["bo"].statuses == BURN_2
    assert hand(p, "bo") is None
    assert p.state.turn.over
    lines = log(p)
    assert "  CRITICAL FAILURE" in lines
    assert "  the throw goes wide: 2 tile(s) E, blast centred on [6, 0]" in lines


# --- criticals ----------------------------------------------------------------------


def test_DC_35_criticals_read_the_natural_die_not_the_total() -> None:
    # Natural 19 + 5 = 24 is no critical; natural 20 - 5 = 15 is.
    plain = ok(
        attack_bo(
            who("ana", hand="sword", attack_bonus=5), who("bo", (1, 0)), {"attack": 19, "defend": 2}
        )
    )
    assert (attack_roll(plain).critical, plain.state.combatants["bo"].hp) == (None, 10)
    crit = ok(
        attack_bo(
            who("ana", hand="sword", attack_bonus=-5),
            who("bo", (1, 0)),
            {"attack": 20, "defend": 2, "crit": 4},
        )
    )
    assert (attack_roll(crit).critical, crit.state.combatants["bo"].hp) == ("success", 6)


@pytest.mark.parametrize(
    ("edge", "critical", "hp"), [("advantage", "success", 7), ("disadvantage", "failure", 12)]
)
def test_DC_35_kept_die_of_an_edge_is_the_natural(edge: str, critical: str, hp: int) -> None:
    dice: dict[str, Any] = {"attack": [20, 1]}
    if critical == "success":
        dice |= {"defend": 5, "crit": 3}
    p = ok(
        fight(
            who("ana", hand="sword"),
            who("bo", (1, 0)),
            actions=[act("ana", "attack", "bo", edge=edge, dice=dice)],
        )
    )
    roll = attack_roll(p)
    assert (roll.naturals, roll.critical) == ((20, 1), critical)
    assert p.state.combatants["bo"].hp == hp


def test_DC_35_defence_fumble_reads_the_natural_die() -> None:
    # Natural 1 + 10 = 11 beats 5, but a fumble hits anyway.
    p = ok(
        attack_bo(
            who("ana", hand="sword"),
            who("bo", (1, 0), defend_close_bonus=10),
            {"attack": 5, "defend": 1, "fumble": 2},
        )
    )
    assert p.state.combatants["bo"].hp == 8


@pytest.mark.parametrize(
    ("profile", "natural", "critical"),
    [
        ("normal", 20, "success"),
        ("normal", 19, None),
        ("normal", 1, "failure"),
        ("normal", 2, None),
        ("wildcard", 19, "success"),
        ("wildcard", 18, None),
        ("wildcard", 2, "failure"),
        ("wildcard", 3, None),
        ("even_keel", 20, None),
        ("even_keel", 1, None),
    ],
)
def test_DC_36_critical_ranges_by_profile(profile: str, natural: int, critical: str | None) -> None:
    # bo cannot fumble (Even Keel) and cannot beat any attack (-20): every non-failure hits.
    dice = {"attack": natural}
    if critical != "failure":
        dice["defend"] = 1
    if critical == "success":
        dice["crit"] = 4
    p = ok(
        attack_bo(
            who("ana", hand="sword", crit=profile),
            who("bo", (1, 0), crit="even_keel", defend_close_bonus=-20),
            dice,
        )
    )
    assert attack_roll(p).critical == critical
    damage = {"success": 6, "failure": 0, None: 2}[critical]
    assert p.state.combatants["bo"].hp == 12 - damage


@pytest.mark.parametrize(
    ("profile", "natural", "fumbled"),
    [("normal", 1, True), ("normal", 2, False), ("wildcard", 2, True), ("even_keel", 1, False)],
)
def test_DC_36_defence_fumble_ranges_by_profile(profile: str, natural: int, fumbled: bool) -> None:
    dice = {"attack": 10, "defend": natural, **({"fumble": 1} if fumbled else {})}
    p = ok(
        attack_bo(
            who("ana", hand="sword"), who("bo", (1, 0), crit=profile, defend_close_bonus=20), dice
        )
    )
    (d,) = defence_rolls(p)
    assert (d.fumbled, d.hit) == (fumbled, fumbled)
    assert p.state.combatants["bo"].hp == (9 if fumbled else 12)


@pytest.mark.parametrize("luck", ["lucky", "unlucky"])
def test_DC_36_luck_does_not_change_criticals(luck: str) -> None:
    p = ok(
        attack_bo(
            who("ana", hand="sword", luck=luck),
            who("bo", (1, 0), luck=luck),
            {"attack": 19, "defend": 2},
        )
    )
    assert attack_roll(p).critical is None
    assert p.state.combatants["bo"].hp == 10


def test_DC_37_crit_adds_d4_only_on_hit() -> None:
    hit = ok(
        attack_bo(
            who("ana", hand="greataxe"), who("bo", (1, 0)), {"attack": 20, "defend": 12, "crit": 3}
        )
    )
    assert hit.state.combatants["bo"].hp == 6  # 3 + 3
    assert rolled(hit) == ["attack", "defend:bo", "crit"]
    miss = ok(
        attack_bo(
            who("ana", hand="greataxe", attack_bonus=-5),
            who("bo", (1, 0)),
            {"attack": 20, "defend": 16},
        )
    )
    assert miss.state.combatants["bo"].hp == 12
    assert rolled(miss) == ["attack", "defend:bo"]


def test_DC_37_seed_example_19_plus_2_beats_a_natural_20() -> None:
    # The seed: "19 + 2 = 21 beats a natural 20": hit, and 19 is no critical.
    p = ok(
        attack_bo(
            who("ana", hand="sword", attack_bonus=2),
            who("bo", (1, 0)),
            {"attack": 19, "defend": 20},
        )
    )
    (d,) = defence_rolls(p)
    assert (attack_roll(p).total, d.total, d.hit) == (21, 20, True)
    assert p.state.combatants["bo"].hp == 10


def test_DC_37_crit_on_a_gun_and_a_weapon_throw() -> None:
    gun = ok(
        attack_bo(
            who("ana", hand="pistol"),
            who("bo", (8, 0)),
            {"attack": 20, "ammo": 1, "defend": 2, "crit": 4},
        )
    )
    assert gun.state.combatants["bo"].hp == 5
    throw = ok(
        fight(
            who("ana", hand="knife", traits=["strong_arm"]),
            who("bo", (3, 0)),
            actions=[act("ana", "throw", "bo", dice={"attack": 20, "defend": 2, "crit": 2})],
        )
    )
    assert throw.state.combatants["bo"].hp == 7


def test_DC_38_critical_failure_misses_without_defence_and_ends_the_turn() -> None:
    p = fight(
        who("ana", hand={"is": "pistol", "loaded": 5}, attack_bonus=30),
        who("bo", (8, 0)),
        actions=[
            act("ana", "attack", "bo", dice={"attack": 1, "ammo": 2}),
            act("ana", "reload"),
        ],
    )
    assert refusal(p) == (2, "turn_over")
    assert rolled(p, 1) == ["attack", "ammo"]
    assert p.state.combatants["bo"].hp == 12
    assert loaded(p, "ana") == 3  # rounds still fired
    assert p.state.turn.over
    assert "  CRITICAL FAILURE: an automatic miss; the turn ends" in log(p)


def test_DC_38_weapon_throw_critical_failure() -> None:
    p = fight(
        who("ana", hand="knife", traits=["strong_arm"]),
        who("bo", (3, 0)),
        actions=[act("ana", "throw", "bo", dice={"attack": 1}), act("ana", "end_turn")],
    )
    ok(p)
    assert p.state.turn.actor == "bo"  # end_turn still allowed
    assert p.state.combatants["bo"].hp == 12
    assert any("CRITICAL FAILURE" in line for line in log(p))
    assert any("drop it OOC on [3, 0]" in line for line in log(p))  # still thrown (DC-19)


def test_DC_38_another_combatant_acting_ends_the_over_turn() -> None:
    p = ok(
        fight(
            who("ana", hand="sword"),
            who("bo", (1, 0), hand="sword"),
            actions=[
                act("ana", "attack", "bo", dice={"attack": 1}),
                act("bo", "attack", "ana", dice={"attack": 15, "defend": 2}),
            ],
        )
    )
    assert (p.state.turn.actor, p.state.turn.over) == ("bo", False)
    assert p.state.combatants["ana"].hp == 10


def test_DC_39_defender_fumble_hits_whatever_the_totals() -> None:
    p = ok(
        attack_bo(
            who("ana", hand="rifle", attack_bonus=-10),
            who("bo", (8, 0), defend_ranged_bonus=15, cover=True),
            {"attack": 3, "ammo": 1, "defend": 1, "fumble": 4},
        )
    )
    (d,) = defence_rolls(p)
    assert (d.fumbled, d.hit) == (True, True)
    assert p.state.combatants["bo"].hp == 4  # 4 + 4
    assert rolled(p) == ["attack", "ammo", "defend:bo", "fumble:bo"]


def test_DC_39_fumble_on_a_weapon_throw() -> None:
    p = ok(
        fight(
            who("ana", hand="club", traits=["strong_arm"]),
            who("bo", (3, 0), defend_ranged_bonus=30),
            actions=[act("ana", "throw", "bo", dice={"attack": 2, "defend": 1, "fumble": 1})],
        )
    )
    assert p.state.combatants["bo"].hp == 8


def test_DC_40_crit_and_fumble_stack() -> None:
    p = ok(
        attack_bo(
            who("ana", hand="sword"),
            who("bo", (1, 0)),
            {"attack": 20, "defend": 1, "crit": 4, "fumble": 3},
        )
    )
    assert p.state.combatants["bo"].hp == 3  # 2 + 4 + 3
    assert rolled(p) == ["attack", "defend:bo", "crit", "fumble:bo"]


@pytest.mark.parametrize(
    ("natural", "bonus", "hit"), [(19, 2, True), (18, 2, True), (19, 0, False)]
)
def test_DC_41_natural_20_defence_is_just_its_total(natural: int, bonus: int, hit: bool) -> None:
    p = ok(
        attack_bo(
            who("ana", hand="pistol", attack_bonus=bonus),
            who("bo", (8, 0)),
            {"attack": natural, "ammo": 1, "defend": 20},
        )
    )
    (d,) = defence_rolls(p)
    assert (d.total, d.hit) == (20, hit)
    assert p.state.combatants["bo"].hp == (9 if hit else 12)


def test_DC_42_critical_failure_harms_nobody() -> None:
    p = ok(
        fight(
            who("ana", hand="greataxe"),
            who("bo", (1, 0)),
            who("cy", (0, 1), side="ana"),
            actions=[act("ana", "attack", "bo", dice={"attack": 1})],
        )
    )
    assert not [e for e in p.records[1].events if isinstance(e, Damaged)]
    assert all(c.hp == 12 for c in p.state.combatants.values())


# --- general resolution ----------------------------------------------------------------


@pytest.mark.parametrize(("defend", "hit"), [(10, True), (11, False)])
def test_DC_43_hit_iff_attack_total_reaches_defence_total(defend: int, hit: bool) -> None:
    # Pistol at 3 tiles (B): 10 + 2 bonus + 1 close + 1 gunslinger - 1 Strong Arm = 13.
    # bo: natural + 1 ranged bonus + 2 cover.
    p = ok(
        attack_bo(
            who("ana", hand="pistol", attack_bonus=2, traits=["gunslinger", "strong_arm"]),
            who("bo", (3, 0), defend_ranged_bonus=1, cover=True),
            {"attack": 10, "ammo": 1, "defend": defend},
        )
    )
    (d,) = defence_rolls(p)
    assert (attack_roll(p).total, d.total, d.hit) == (13, defend + 3, hit)
    assert p.state.combatants["bo"].hp == (9 if hit else 12)


def test_DC_44_damage_adds_scrap_crit_and_fumble_then_clamps() -> None:
    p = ok(
        attack_bo(
            who("ana", hand={"is": "smg", "scrap": True}),
            who("bo", (8, 0), hp=9),
            {"attack": 20, "ammo": 1, "defend": 1, "crit": 4, "fumble": 3},
        )
    )
    (damage,) = [e for e in p.records[1].events if isinstance(e, Damaged)]
    assert damage.amount == 10  # (4 - 1) + 4 + 3
    assert p.state.combatants["bo"].hp == 0


def test_DC_44_molotov_fumble_adds_to_the_immediate_hit_only() -> None:
    p = ok(
        fight(
            thrower(),
            who("ana", (0, 0)),
            actions=[
                act("bo", "throw", "ana", dice={"attack": 15, "defend:ana": 1, "fumble:ana": 4}),
                act("ana", "end_turn"),
            ],
        )
    )
    assert p.state.combatants["ana"].hp == 6  # 12 - (1 + 4) - 1 tick
    assert p.state.combatants["ana"].statuses == {"burning": {"turns": 1, "damage": 1}}


# --- the worked example of section 2.7 ----------------------------------------------

EXAMPLE = """
ruleset: dice-combat
options: {revision: REV}
round: 2
order: [ana, bo, cy]
combatants:
  - id: ana
    side: players
    at: [0, 0]
    attack_bonus: 1
    traits: [gunslinger]
    hand: {is: pistol, loaded: 6}
  - id: bo
    side: raiders
    at: [5, 0]
    hand: molotov
  - id: cy
    side: raiders
    at: [1, 1]
    luck: lucky
    cover: true
    hand: greataxe
actions:
  - actor: ana
    do: attack
    target: bo
    dice: {attack: 12, ammo: 2, defend: 15}
  - actor: bo
    do: throw
    target: ana
    dice: {attack: 20, "defend:ana": 20, "defend:cy": 17}
  - actor: cy
    do: attack
    target: ana
    dice: {attack: 20, defend: 1, crit: 3, fumble: 2}
  - actor: ana
    do: attack
    target: cy
    dice: {attack: 1, ammo: 3}
"""


def test_worked_example_2_7() -> None:
    p = ok(play(EXAMPLE.replace("REV", "B")))
    ana, bo, cy = (p.state.combatants[c] for c in ("ana", "bo", "cy"))
    assert (ana.hp, ana.statuses, loaded(p, "ana")) == (
        2,
        {"burning": {"turns": 1, "damage": 1}},
        1,
    )
    assert (bo.hp, hand(p, "bo")) == (9, None)
    assert (cy.hp, cy.statuses) == (10, {})
    assert (p.state.round, p.state.turn.actor, p.state.turn.over) == (3, "ana", True)
    assert attack_roll(p, 1).total == 15
    assert "  CRITICAL FAILURE: an automatic miss; the turn ends" in log(p)


def test_worked_example_2_7_revision_A_first_shot_misses() -> None:
    p = ok(play(EXAMPLE.replace("REV", "A")))
    (d,) = defence_rolls(p, 1)
    assert (attack_roll(p, 1).total, d.total, d.hit) == (13, 15, False)  # 12 + 1 + 0 + 0
    ana, bo, cy = (p.state.combatants[c] for c in ("ana", "bo", "cy"))
    assert (bo.hp, hand(p, "bo")) == (12, None)
    assert (ana.hp, loaded(p, "ana")) == (2, 1)
    assert cy.hp == 10
