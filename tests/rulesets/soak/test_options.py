"""soak options (soak.md 2.5): each changes what it says, against the default."""

from __future__ import annotations

import json
from typing import Any

import pytest

from fracas.errors import FileError
from fracas.rulesets.soak.sheet import Options
from tests.helpers import Played, load_text
from tests.rulesets.soak.support import (
    SWORD,
    act,
    attack_roll,
    damage_roll,
    doc,
    fight,
    ok,
    refusal,
    rolled,
    sheet,
    who,
)

CLUB = {"name": "club", "dice": "1d6"}
BOW = {"name": "bow", "attack": "ranged", "dice": "1d6"}
TORCH = {"name": "torch", "dice": "1d6", "additional": {"dice": "1d4", "type": "fire"}}


def both(
    options: dict[str, Any], *combatants: dict[str, Any], actions: list[dict[str, Any]]
) -> tuple[Played, Played]:
    """The same encounter under the default options and under ``options``."""
    return (
        ok(fight(*combatants, actions=actions)),
        ok(fight(*combatants, actions=actions, options=options)),
    )


def test_every_option_is_tested_here() -> None:
    names = set(Options.__dataclass_fields__)
    tested = {n for n in names if f"test_option_{n}" in " ".join(globals())}
    assert tested == names


def test_option_ranged_compare() -> None:
    plain, exceed = both(
        {"ranged_compare": "exceed"},
        who("ana", weapons=[BOW]),
        who("bo", (3, 0)),
        actions=[act("ana", "attack", "bo", dice={"attack": 10})],  # DV 10 at 3 tiles
    )
    assert attack_roll(plain).hit is True and attack_roll(exceed).hit is False
    # Melee still meets the EV (SK-3): the option is about the DV only.
    melee = ok(
        fight(
            who("ana", weapons=[SWORD]),
            who("bo", (1, 0)),
            actions=[act("ana", "attack", "bo", dice={"attack": 10, "damage": [1]})],
            options={"ranged_compare": "exceed"},
        )
    )
    assert attack_roll(melee).hit is True


def test_option_natural_1() -> None:
    acts = [act("ana", "attack", "bo", dice={"attack": 1, "damage": [2]})]
    plain = ok(fight(who("ana", agility=9, weapons=[SWORD]), who("bo", (1, 0)), actions=acts))
    assert attack_roll(plain).hit is True
    acts = [act("ana", "attack", "bo", dice={"attack": 1})]
    miss = ok(
        fight(
            who("ana", agility=9, weapons=[SWORD]),
            who("bo", (1, 0)),
            actions=acts,
            options={"natural_1": "miss"},
        )
    )
    assert attack_roll(miss).hit is False and miss.state.get("bo").hp == 20


def test_option_explode() -> None:
    people = (who("ana", proficiencies=["club"], weapons=[CLUB]), who("bo", (1, 0)))
    plain = ok(
        fight(
            *people, actions=[act("ana", "attack", "bo", dice={"attack": 15, "damage": [6, 6, 1]})]
        )
    )
    once = ok(
        fight(
            *people,
            actions=[act("ana", "attack", "bo", dice={"attack": 15, "damage": [6, 6]})],
            options={"explode": "once"},
        )
    )
    assert damage_roll(plain).dice[0].faces == (6, 6, 1)
    assert damage_roll(once).dice[0].faces == (6, 6)  # a single extra roll, even on a 6
    assert (plain.state.get("bo").hp, once.state.get("bo").hp) == (7, 8)


def test_option_soak_equal() -> None:
    plain, erodes = both(
        {"soak_equal": "erodes"},
        who("ana", weapons=[CLUB]),
        who("bo", (1, 0), av=6),
        actions=[act("ana", "attack", "bo", dice={"attack": 15, "damage": [6]})],
    )
    assert (sheet(plain, "bo").av, sheet(plain, "bo").wounds) == (6, 0)
    # 0 gets through but it got through: AV -1, and the 6 wounds.
    assert (sheet(erodes, "bo").av, sheet(erodes, "bo").wounds) == (5, 1)
    assert plain.state.get("bo").hp == erodes.state.get("bo").hp == 20


def test_option_av_floor() -> None:
    hit = {"attack": 15, "damage": [6]}
    plain, floored = both(
        {"av_floor": 2},
        who("ana", weapons=[CLUB], max_ap=5),
        who("bo", (1, 0), av=3),
        actions=[act("ana", "attack", "bo", dice=hit), act("ana", "attack", "bo", dice=hit)],
    )
    assert sheet(plain, "bo").av == 1
    assert sheet(floored, "bo").av == 2
    assert floored.state.get("bo").hp == 20 - 3 - 4


def test_option_wound_needs_through() -> None:
    plain, any_hit = both(
        {"wound_needs_through": False},
        who("ana", weapons=[CLUB]),
        who("bo", (1, 0), av=8),
        actions=[act("ana", "attack", "bo", dice={"attack": 15, "damage": [6]})],
    )
    assert sheet(plain, "bo").wounds == 0
    assert sheet(any_hit, "bo").wounds == 1
    assert sheet(any_hit, "bo").av == 8 and any_hit.state.get("bo").hp == 20


def test_option_wound_dice() -> None:
    plain, base = both(
        {"wound_dice": "base"},
        who("ana", weapons=[TORCH]),
        who("bo", (1, 0)),
        actions=[act("ana", "attack", "bo", dice={"attack": 15, "damage": [2], "additional": [4]})],
    )
    assert sheet(plain, "bo").wounds == 1
    assert sheet(base, "bo").wounds == 0


def test_option_damage_kind() -> None:
    plain, aggravated = both(
        {"damage_kind": "aggravated"},
        who("ana", weapons=[TORCH, {"name": "whip", "dice": "1d4", "damage_kind": "superficial"}]),
        who("bo", (1, 0)),
        actions=[
            act("ana", "attack", "bo", dice={"attack": 15, "damage": [3], "additional": [2]}),
            act("ana", "attack", "bo", weapon="whip", dice={"attack": 15, "damage": [1]}),
        ],
    )
    assert (sheet(plain, "bo").superficial, sheet(plain, "bo").aggravated) == (6, 0)
    # The weapon's own kind wins over the option; the additional damage follows the option.
    assert (sheet(aggravated, "bo").superficial, sheet(aggravated, "bo").aggravated) == (1, 5)
    assert plain.state.get("bo").hp == aggravated.state.get("bo").hp == 14


def test_option_additional_vs_av() -> None:
    plain, soaked = both(
        {"additional_vs_av": "soak"},
        who("ana", weapons=[TORCH]),
        who("bo", (1, 0), av=3),
        actions=[act("ana", "attack", "bo", dice={"attack": 15, "damage": [5], "additional": [3]})],
    )
    # Base 5 - AV 3 = 2 and AV 3 -> 2; the fire 3: in full, or less the AV it now has (2).
    assert plain.state.get("bo").hp == 20 - 2 - 3
    assert soaked.state.get("bo").hp == 20 - 2 - 1
    assert sheet(plain, "bo").av == sheet(soaked, "bo").av == 2


def test_option_material_percent() -> None:
    plain, table = both(
        {"material_percent": {"leather/fire": 200}},
        who("ana", weapons=[TORCH]),
        who("bo", (1, 0), material="leather"),
        actions=[act("ana", "attack", "bo", dice={"attack": 15, "damage": [1], "additional": [3]})],
    )
    assert plain.state.get("bo").hp == 20 - 1 - 3
    assert table.state.get("bo").hp == 20 - 1 - 6


def test_option_material_percent_keys_are_checked() -> None:
    with pytest.raises(FileError) as exc:
        load_text(json.dumps(doc(who("ana"), options={"material_percent": {"leather": 50}})))
    assert exc.value.code == "bad_material_key"


def test_option_crit_maxes_additional() -> None:
    plain = ok(
        fight(
            who("ana", weapons=[TORCH]),
            who("bo", (1, 0)),
            actions=[act("ana", "attack", "bo", dice={"attack": 20})],
        )
    )
    assert rolled(plain) == [("attack", 20, 20)]
    assert plain.state.get("bo").hp == 20 - 6 - 4
    rolls = ok(
        fight(
            who("ana", weapons=[TORCH]),
            who("bo", (1, 0)),
            actions=[act("ana", "attack", "bo", dice={"attack": 20, "additional": [1]})],
            options={"crit_maxes_additional": False},
        )
    )
    assert rolled(rolls) == [("attack", 20, 20), ("additional", 4, 1)]
    assert rolls.state.get("bo").hp == 20 - 6 - 1


def test_option_edges_cancel() -> None:
    acts = [act("ana", "attack", "bo", advantage=True, disadvantage=True, dice={"attack": [15, 4]})]
    plain = fight(who("ana", weapons=[SWORD]), who("bo", (1, 0)), actions=acts)
    assert refusal(plain) == (1, "unused_die")  # cancelled: one d20 only
    worse = ok(
        fight(
            who("ana", weapons=[SWORD]),
            who("bo", (1, 0)),
            actions=acts,
            options={"edges_cancel": False},
        )
    )
    assert (attack_roll(worse).natural, attack_roll(worse).hit) == (4, False)


def test_option_improvised_strength() -> None:
    chair = {"name": "chair", "type": "club", "improvised": True, "dice": "1d6"}
    plain, never = both(
        {"improvised_strength": "never"},
        who("ana", strength=3, proficiencies=["club"], weapons=[chair]),
        who("bo", (1, 0)),
        actions=[act("ana", "attack", "bo", dice={"attack": [15, 15], "damage": [6, 2]})],
    )
    assert damage_roll(plain).base == 6 + 2 + 3
    assert damage_roll(never).base == 6 + 2  # still proficient: the 6 explodes


def test_option_dv_table() -> None:
    plain, table = both(
        {"dv_table": {"4": 8, "10": 18}},
        who("ana", weapons=[BOW]),
        who("bo", (6, 0)),
        actions=[act("ana", "attack", "bo", dice={"attack": 14})],
    )
    assert (attack_roll(plain).against, attack_roll(plain).hit) == ("DV 13 (6-15 tiles: 6)", True)
    assert (attack_roll(table).against, attack_roll(table).hit) == ("DV 18 (5-10 tiles: 6)", False)


def test_option_max_hp() -> None:
    p = ok(fight(who("ana"), who("bo", (1, 0), max_hp=8), options={"max_hp": 30}))
    assert (p.state.get("ana").max_hp, p.state.get("ana").hp, p.state.get("bo").max_hp) == (
        30,
        30,
        8,
    )


def test_option_ev() -> None:
    hit = [act("ana", "attack", "bo", dice={"attack": 11, "damage": [1]})]
    plain = ok(fight(who("ana", weapons=[SWORD]), who("bo", (1, 0)), actions=hit))
    assert (attack_roll(plain).against, attack_roll(plain).hit) == ("EV 10", True)
    miss = [act("ana", "attack", "bo", dice={"attack": 11})]
    high = ok(
        fight(who("ana", weapons=[SWORD]), who("bo", (1, 0)), actions=miss, options={"ev": 12})
    )
    assert (attack_roll(high).against, attack_roll(high).hit) == ("EV 12", False)
    assert sheet(high, "bo").ev == 12


def test_option_max_ap() -> None:
    hit = {"attack": 2}
    p = fight(
        who("ana", weapons=[SWORD]),
        who("bo", (1, 0)),
        actions=[act("ana", "attack", "bo", dice=hit)] * 3,
        options={"max_ap": 2},
    )
    assert refusal(p) == (3, "not_enough_ap")


def test_option_attack_ap() -> None:
    hit = {"attack": 2}
    p = fight(
        who("ana", weapons=[SWORD, {"name": "dart", "dice": "1d4", "ap": 1}]),
        who("bo", (1, 0)),
        actions=[
            act("ana", "attack", "bo", dice=hit),
            act("ana", "attack", "bo", weapon="dart", dice=hit),
            act("ana", "attack", "bo", dice=hit),
        ],
        options={"attack_ap": 2},
    )
    assert [attack_roll(p, i).cost for i in (1, 2)] == [2, 1]
    assert refusal(p) == (3, "not_enough_ap")


def test_option_melee_reach() -> None:
    acts = [act("ana", "attack", "bo", dice={"attack": 2})]
    plain = fight(who("ana", weapons=[SWORD]), who("bo", (2, 2)), actions=acts)
    assert refusal(plain) == (1, "out_of_reach")
    ok(
        fight(
            who("ana", weapons=[SWORD]), who("bo", (2, 2)), actions=acts, options={"melee_reach": 2}
        )
    )


def test_option_metric() -> None:
    acts = [act("ana", "attack", "bo", dice={"attack": 2})]
    ok(fight(who("ana", weapons=[SWORD]), who("bo", (1, 1)), actions=acts))  # diagonal: 1
    p = fight(
        who("ana", weapons=[SWORD]),
        who("bo", (1, 1)),
        actions=acts,
        options={"metric": "manhattan"},
    )
    assert refusal(p) == (1, "out_of_reach")
    assert "2 tiles away" in (p.error[1].message if p.error else "")


def test_option_initiative() -> None:
    people = (who("ana", agility=0), who("bo", (1, 0), agility=5))
    rolled_order = ok(fight(*people, order=None, dice={"initiative:ana": 20, "initiative:bo": 1}))
    assert rolled_order.state.order == ("ana", "bo")
    files = ok(fight(*reversed(people), order=None, options={"initiative": "file_order"}))
    assert files.state.order == ("bo", "ana")
    assert rolled(files, 0) == []
    assert sheet(files, "ana").initiative is None


def test_unknown_option_lists_the_valid_ones() -> None:
    with pytest.raises(FileError) as exc:
        load_text(json.dumps(doc(who("ana"), options={"explosions": "off"})))
    assert exc.value.code == "unknown_option"
    assert "explode" in exc.value.message and "material_percent" in exc.value.message
