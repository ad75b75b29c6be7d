"""escalation rules ES-0 to ES-21, the procedures P-ES-1 and P-ES-2, and the worked
example of escalation.md 2.7.

Each test fixes every trigger die its actions roll, so HP, Energy, Escalation,
conditions, statuses and actions left are exact. The reading tested is
``/work/shared/rules/escalation.md``; gaps, ambiguities and options are in
``test_options.py``, refusals in ``test_refusals.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.escalation.support import (
    BOW,
    SWORD,
    actions_left,
    attack,
    energy,
    escalation,
    fight,
    hp,
    log,
    ok,
    output,
    refusal,
    rolled,
    sheet,
    triggers,
    turn_attacks,
    who,
)
from tests.rulesets.escalation.support import ana as player
from tests.rulesets.escalation.support import bo as enemy

BLAST = {"is": "whelm", "name": "blast"}
CLAWS = {"is": "melee", "name": "claws"}


def ana(**fields: Any) -> dict[str, Any]:
    """The player: level 3, ratings melee 3, remote 2, whelm 1; sword, bow, blast."""
    return player(**{"whelm_rating": 1, "weapons": [SWORD, BOW, BLAST], **fields})


def bo(at: tuple[int, int] | None = (1, 0), **fields: Any) -> dict[str, Any]:
    """An enemy beside ana: level 1, melee rating 1 (its defense against melee)."""
    return enemy(at, **{"weapons": [CLAWS], **fields})


# --- ES-0: a weapon's own rule wins ------------------------------------------------------


def test_ES_0_weapon_crit_bonus_overrides_the_universal_plus_5() -> None:
    axe = {"is": "melee", "name": "axe", "crit_bonus": 9}
    p = ok(fight(ana(weapons=[axe]), bo(), actions=[attack("ana", "bo", 12)]))
    assert hp(p, "bo") == 20 - (1 + 3 + 9 - 1)


def test_ES_0_weapon_condition_threshold_overrides_10() -> None:
    whip = {"is": "melee", "name": "whip", "condition_at": 7}
    p = ok(fight(ana(weapons=[whip]), bo(), actions=[attack("ana", "bo", 7)]))
    assert sheet(p, "bo").conditions == ("bleeding",)
    p = ok(fight(ana(), bo(), actions=[attack("ana", "bo", 7)]))
    assert sheet(p, "bo").conditions == ()


def test_ES_0_weapon_failure_mod_adds_to_the_failure() -> None:
    rifle = {"is": "remote", "name": "rifle", "failure_mod": -3}
    big = bo(size="large")  # size failure 3, the rifle's -3: failure 0
    p = ok(fight(ana(weapons=[rifle]), big, actions=[attack("ana", "bo", 1)]))
    (t,) = triggers(p)
    assert (t.failure, t.parts, t.success) == (0, (("size", 3), ("weapon", -3)), True)
    assert hp(p, "bo") == 20 - (1 + 2 - 0)


def test_ES_0_a_melee_weapon_that_cannot_backstab_or_assassinate() -> None:
    mace = {"is": "melee", "name": "mace", "backstab": False, "assassinate": False}
    p = ok(
        fight(
            ana(weapons=[mace]),
            bo(),
            actions=[attack("ana", "bo", 5, unseen=True, unexpected=True)],
        )
    )
    assert hp(p, "bo") == 20 - 3  # no +2, no death
    assert "dead" not in p.state.get("bo").statuses


def test_ES_0_a_whelm_weapon_that_may_assassinate() -> None:
    curse = {"is": "whelm", "name": "curse", "assassinate": True}
    p = ok(fight(ana(weapons=[curse]), bo(), actions=[attack("ana", "bo", 5, unexpected=True)]))
    assert hp(p, "bo") == 0
    assert p.state.get("bo").statuses["dead"] == {"by": "ana"}


def test_ES_0_weapon_range_and_max_targets_override_the_archetype() -> None:
    spear = {"is": "melee", "name": "spear", "range": 2, "max_targets": 2}
    p = ok(
        fight(
            ana(weapons=[spear]),
            bo((2, 0)),
            who("cy", (0, 2)),
            actions=[attack("ana", ["bo", "cy"], dice={"trigger:bo": 5, "trigger:cy": 5})],
        )
    )
    assert (hp(p, "bo"), hp(p, "cy")) == (20 - 3, 20 - 4)


# --- ES-1, ES-2: two actions, double attacks ------------------------------------------------


def test_ES_1_an_attack_takes_one_of_the_two_actions() -> None:
    p = ok(fight(ana(), bo(), actions=[attack("ana", "bo", 5)]))
    assert actions_left(p, "ana") == (1, 1)
    assert p.state.turn.actions_used == 1
    p = ok(fight(ana(), bo(), actions=[attack("ana", "bo", 5), attack("ana", "bo", 5)]))
    assert actions_left(p, "ana") == (0, 2)
    p = fight(
        ana(),
        bo(),
        actions=[attack("ana", "bo", 5), attack("ana", "bo", 5), attack("ana", "bo", 5)],
    )
    assert refusal(p) == (3, "no_action_left")
    assert hp(p, "bo") == 20 - 3 - 3


def test_ES_1_actions_reset_at_the_start_of_each_turn() -> None:
    p = ok(
        fight(
            ana(),
            bo(),
            actions=[
                attack("ana", "bo", 5),
                attack("ana", "bo", 5),
                attack("bo", "ana", 5),
                attack("ana", "bo", 5),
            ],
        )
    )
    assert actions_left(p, "ana") == (1, 1)
    assert actions_left(p, "bo") == (2, 0)  # acting would start its next turn
    assert p.state.round == 2


def test_ES_2_a_double_attack_costs_1_energy() -> None:
    p = ok(fight(ana(), bo(), actions=[attack("ana", "bo", 5), attack("ana", "bo", 5)]))
    assert energy(p, "ana") == 2
    assert "  double attack: ana's Energy 3 -> 2" in log(p)


def test_ES_2_a_single_attack_and_another_action_cost_nothing() -> None:
    p = ok(
        fight(
            ana(),
            bo(),
            actions=[
                {"actor": "ana", "do": "act", "note": "drinks a potion"},
                attack("ana", "bo", 5),
            ],
        )
    )
    assert energy(p, "ana") == 3
    assert actions_left(p, "ana") == (0, 1)
    assert "ana acts: drinks a potion" in log(p)


def test_ES_2_free_attacks_use_no_action_and_do_not_count() -> None:
    p = ok(
        fight(
            ana(),
            bo(),
            actions=[
                attack("ana", "bo", 5, free=True),
                attack("ana", "bo", 5),
                attack("ana", "bo", 5, free=True),
            ],
        )
    )
    assert energy(p, "ana") == 3
    assert actions_left(p, "ana") == (1, 1)
    assert hp(p, "bo") == 20 - 9


def test_ES_2_a_free_attack_with_both_actions_used() -> None:
    p = ok(
        fight(
            ana(),
            bo(),
            actions=[
                attack("ana", "bo", 5),
                attack("ana", "bo", 5),
                attack("ana", "bo", 5, free=True),
            ],
        )
    )
    assert (energy(p, "ana"), actions_left(p, "ana"), hp(p, "bo")) == (2, (0, 2), 11)


def test_ES_2_energy_stops_at_0() -> None:
    p = ok(fight(ana(energy=0), bo(), actions=[attack("ana", "bo", 5), attack("ana", "bo", 5)]))
    assert energy(p, "ana") == 0
    assert hp(p, "bo") == 20 - 6  # the attack is still made
    assert "  double attack: ana's Energy 0 -> 0" in log(p)


def test_ES_2_any_two_archetypes_make_a_double_attack() -> None:
    p = ok(
        fight(
            ana(),
            bo(),
            actions=[attack("ana", "bo", 5), attack("ana", "bo", 5, weapon="bow")],
        )
    )
    assert energy(p, "ana") == 2
    assert turn_attacks(p) == 2


def test_ES_2_double_attacks_are_counted_per_round() -> None:
    # One attack in round 1, one in round 2: no double attack.
    p = ok(
        fight(
            ana(),
            bo(),
            actions=[attack("ana", "bo", 5), attack("bo", "ana", 5), attack("ana", "bo", 5)],
        )
    )
    assert energy(p, "ana") == 3
    assert p.state.round == 2


# --- ES-3: range ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("weapon", "at", "legal"),
    [
        ("sword", (1, 1), True),
        ("sword", (2, 0), False),
        ("bow", (30, 0), True),
        ("bow", (31, 5), False),
        ("blast", (6, 6), True),
        ("blast", (7, 0), False),
    ],
)
def test_ES_3_only_targets_within_range(weapon: str, at: tuple[int, int], legal: bool) -> None:
    p = fight(ana(), bo(at), actions=[attack("ana", "bo", 5, weapon=weapon)])
    if legal:
        ok(p)
        assert hp(p, "bo") < 20
    else:
        assert refusal(p) == (1, "out_of_range")
        assert hp(p, "bo") == 20


def test_ES_3_range_is_checked_only_where_both_are_on_the_map() -> None:
    p = ok(fight(ana(), bo(None), actions=[attack("ana", "bo", 5)]))
    assert hp(p, "bo") == 17


def test_ES_3_whelm_hits_several_targets_each_with_its_own_trigger() -> None:
    p = ok(
        fight(
            ana(),
            bo((3, 0)),
            who("cy", (0, 4), size="small", whelm_rating=1),
            who("dee", (5, 5), size="small"),
            actions=[
                attack(
                    "ana",
                    ["bo", "cy", "dee"],
                    weapon="blast",
                    dice={"trigger:bo": 12, "trigger:cy": 1, "trigger:dee": 4},
                )
            ],
        )
    )
    assert rolled(p) == ["trigger:bo", "trigger:cy", "trigger:dee"]
    bo_t, cy_t, dee_t = triggers(p)
    assert (bo_t.success, bo_t.crit, bo_t.condition) == (True, True, True)
    assert (cy_t.failure, cy_t.success, dee_t.failure, dee_t.success) == (3, False, 3, True)
    # 1 + whelm 1 (+5 crit) - whelm rating 0 / 1 / 0
    assert (hp(p, "bo"), hp(p, "cy"), hp(p, "dee")) == (20 - 7, 20, 20 - 2)
    assert (sheet(p, "bo").conditions, sheet(p, "cy").conditions) == (("burning",), ())
    assert actions_left(p, "ana") == (1, 1)  # one action for the whole attack


# --- ES-4 to ES-7: damage --------------------------------------------------------------------


@pytest.mark.parametrize(("rating", "expected"), [(0, 1), (3, 4), (7, 8)])
def test_ES_4_damage_is_escalation_plus_the_combat_rating(rating: int, expected: int) -> None:
    p = ok(fight(ana(melee_rating=rating), bo(melee_rating=0), actions=[attack("ana", "bo", 5)]))
    assert hp(p, "bo") == 20 - expected


def test_ES_4_the_rating_of_the_weapons_archetype() -> None:
    p = ok(fight(ana(), bo(melee_rating=0), actions=[attack("ana", "bo", 5, weapon="bow")]))
    assert hp(p, "bo") == 20 - (1 + 2)


def test_ES_5_escalation_starts_at_1() -> None:
    p = ok(fight(ana(), bo()))
    assert escalation(p) == 1
    assert output(p)["escalation"] == 1


def test_ES_5_escalation_rises_at_the_end_of_the_enemy_turn() -> None:
    # Order: ana (players), bo, cy (enemies). +1 only when cy's turn passes to ana.
    people = (ana(), bo(), who("cy", (0, 1)))
    p = ok(
        fight(
            *people,
            actions=[
                {"actor": "ana", "do": "end_turn"},
                {"actor": "bo", "do": "end_turn"},
            ],
        )
    )
    assert escalation(p) == 1
    p = ok(fight(*people, actions=[{"actor": "ana", "do": "end_turn"}] * 1 + _ends("bo", "cy")))
    assert (escalation(p), p.state.round, p.state.turn.actor) == (2, 2, "ana")
    p = ok(fight(*people, actions=_ends("ana", "bo", "cy") * 3))
    assert (escalation(p), p.state.round) == (4, 4)


def _ends(*ids: str) -> list[dict[str, Any]]:
    return [{"actor": cid, "do": "end_turn"} for cid in ids]


def test_ES_5_escalation_affects_everybody_equally() -> None:
    p = ok(
        fight(
            ana(),
            bo(melee_rating=2),
            actions=[*_ends("ana", "bo"), attack("ana", "bo", 5), attack("bo", "ana", 5)],
        )
    )
    assert escalation(p) == 3 - 1
    assert (hp(p, "bo"), hp(p, "ana")) == (20 - (2 + 3 - 2), 20 - (2 + 2 - 3 + 0))


def test_ES_6_defense_is_the_rating_of_the_attacks_archetype() -> None:
    tough = bo(melee_rating=2, remote_rating=0, whelm_rating=5)
    p = ok(
        fight(
            ana(),
            tough,
            actions=[
                attack("ana", "bo", 5),
                attack("ana", "bo", 5, weapon="bow"),
                attack("ana", "bo", 5, weapon="blast", free=True),
            ],
        )
    )
    # melee 1 + 3 - 2 = 2; remote 1 + 2 - 0 = 3; whelm 1 + 1 - 5 -> 0
    assert hp(p, "bo") == 20 - 2 - 3 - 0


def test_ES_6_damage_never_below_0() -> None:
    p = ok(fight(ana(), bo(melee_rating=10), actions=[attack("ana", "bo", 5)]))
    assert hp(p, "bo") == 20
    assert any("takes 0 damage" in line for line in log(p))


def test_ES_7_crit_and_backstab_count_before_the_defense() -> None:
    # 1 + 3 + 5 + 2 - 9 = 2 (the bonuses are not lost to the defense first)
    p = ok(fight(ana(), bo(melee_rating=9), actions=[attack("ana", "bo", 12, unseen=True)]))
    assert hp(p, "bo") == 18


# --- ES-8 to ES-14: the trigger die ----------------------------------------------------------


def test_ES_8_one_trigger_die_per_attack_and_target() -> None:
    p = ok(fight(ana(), bo(), actions=[attack("ana", "bo", 5)]))
    assert rolled(p) == ["trigger"]
    assert [r.sides for r in p.records[-1].rolls] == [12]


def test_ES_9_failure_sources_stack_and_at_or_below_fail() -> None:
    hidden = bo(size="tiny", concealment="partial", cover="partial")  # 6 + 3 + 6 = 15
    p = ok(
        fight(
            ana(),
            hidden,
            actions=[attack("ana", "bo", 11, unseen=True, unexpected=True, failure_mod=-4)],
        )
    )
    (t,) = triggers(p)
    assert t.failure == 11
    assert t.parts == (("size", 6), ("concealment", 3), ("cover", 6), ("situation", -4))
    assert not t.success
    # "no effect at all": no damage, no condition, no assassination
    assert (hp(p, "bo"), sheet(p, "bo").conditions, p.state.get("bo").statuses) == (20, (), {})
    assert log(p)[-1] == (
        "  vs bo: failure 11 (size 6 + concealment 3 + cover 6 + situation -4); "
        "trigger 11 <= 11: FAILED, no effect"
    )


@pytest.mark.parametrize(("trigger", "success"), [(1, False), (6, False), (7, True)])
def test_ES_9_trigger_must_beat_the_failure(trigger: int, success: bool) -> None:
    p = ok(fight(ana(), bo(cover="partial"), actions=[attack("ana", "bo", trigger)]))
    (t,) = triggers(p)
    assert (t.failure, t.success) == (6, success)
    assert hp(p, "bo") == (17 if success else 20)


def test_ES_10_lucky_hit_on_12_whatever_the_failure() -> None:
    p = ok(fight(ana(), bo(size="gargantuan"), actions=[attack("ana", "bo", 12, failure_mod=3)]))
    (t,) = triggers(p)
    assert (t.failure, t.success) == (12, True)
    p = ok(fight(ana(), bo(size="tiny"), actions=[attack("ana", "bo", 11, failure_mod=20)]))
    assert not triggers(p)[0].success


def test_ES_11_a_12_deals_5_more() -> None:
    p = ok(fight(ana(), bo(), actions=[attack("ana", "bo", 12)]))
    assert triggers(p)[0].crit
    assert hp(p, "bo") == 20 - (3 + 5)
    p = ok(fight(ana(), bo(), actions=[attack("ana", "bo", 11)]))
    assert not triggers(p)[0].crit
    assert hp(p, "bo") == 20 - 3


@pytest.mark.parametrize(("trigger", "condition"), [(9, ()), (10, ("dazed",)), (11, ("dazed",))])
def test_ES_12_a_condition_of_the_wielders_choice_on_10_plus(
    trigger: int, condition: tuple[str, ...]
) -> None:
    p = ok(fight(ana(), bo(), actions=[attack("ana", "bo", trigger, condition="dazed")]))
    assert sheet(p, "bo").conditions == condition


def test_ES_12_without_a_choice_the_first_the_target_lacks() -> None:
    p = ok(
        fight(ana(), bo(conditions=["bleeding"]), actions=[attack("ana", "bo", 10)]),
    )
    assert sheet(p, "bo").conditions == ("bleeding", "dazed")


def test_ES_12_only_on_a_successful_attack() -> None:
    # A 10 against failure 10 fails: no condition although the trigger is 10.
    p = ok(fight(ana(), bo(size="tiny"), actions=[attack("ana", "bo", 10, failure_mod=4)]))
    assert (triggers(p)[0].success, sheet(p, "bo").conditions) == (False, ())


def test_ES_12_a_choice_per_target_of_a_whelm() -> None:
    p = ok(
        fight(
            ana(),
            bo(),
            who("cy", (0, 1)),
            actions=[
                attack(
                    "ana",
                    ["bo", "cy"],
                    weapon="blast",
                    condition={"cy": "deafened"},
                    dice={"trigger:bo": 11, "trigger:cy": 11},
                )
            ],
        )
    )
    assert (sheet(p, "bo").conditions, sheet(p, "cy").conditions) == (("burning",), ("deafened",))


def test_ES_13_conditions_do_not_stack() -> None:
    p = ok(
        fight(
            ana(),
            bo(conditions=["dazed", "prone"]),
            actions=[attack("ana", "bo", 10, condition="dazed")],
        )
    )
    assert sheet(p, "bo").conditions == ("dazed", "prone")
    assert "  bo is already dazed: nothing more (ES-13)" in log(p)


def test_ES_13_all_three_held_adds_nothing() -> None:
    p = ok(
        fight(
            ana(), bo(conditions=["prone", "dazed", "bleeding"]), actions=[attack("ana", "bo", 11)]
        )
    )
    assert sheet(p, "bo").conditions == ("prone", "dazed", "bleeding")


@pytest.mark.parametrize("extra", [0, 3])
def test_ES_14_lucks_price_at_failure_12_or_more(extra: int) -> None:
    # gargantuan vs medium: failure 9, + 3 situational = 12 (ES-A5), or 15.
    p = ok(
        fight(
            ana(),
            bo(size="gargantuan"),
            actions=[attack("ana", "bo", 12, failure_mod=3 + extra, condition="dazed")],
        )
    )
    (t,) = triggers(p)
    assert (t.failure, t.success, t.crit, t.lucks_price, t.condition) == (
        12 + extra,
        True,
        False,
        True,
        False,
    )
    assert hp(p, "bo") == 20 - 3  # regular damage and that's it
    assert sheet(p, "bo").conditions == ()


def test_ES_14_no_price_at_failure_11() -> None:
    p = ok(fight(ana(), bo(size="gargantuan"), actions=[attack("ana", "bo", 12, failure_mod=2)]))
    (t,) = triggers(p)
    assert (t.failure, t.crit, t.lucks_price, t.condition) == (11, True, False, True)
    assert hp(p, "bo") == 20 - 8


# --- ES-15 to ES-18: failure sources, blocked attacks ----------------------------------------


@pytest.mark.parametrize(
    ("mine", "theirs", "failure"),
    [
        ("medium", "medium", 0),
        ("medium", "small", 3),
        ("medium", "large", 3),
        ("tiny", "gargantuan", 15),
        ("huge", "small", 9),
    ],
)
def test_ES_15_size_failure_3_per_category(mine: str, theirs: str, failure: int) -> None:
    p = ok(fight(ana(size=mine), bo(size=theirs), actions=[attack("ana", "bo", 12)]))
    assert triggers(p)[0].failure == failure


@pytest.mark.parametrize(("level", "failure"), [("none", 0), ("partial", 3), ("total", 6)])
def test_ES_16_concealment(level: str, failure: int) -> None:
    p = ok(fight(ana(), bo(concealment=level), actions=[attack("ana", "bo", 12)]))
    assert triggers(p)[0].failure == failure
    # The action may say so instead of the sheet.
    p = ok(fight(ana(), bo(), actions=[attack("ana", "bo", 12, concealment=level)]))
    assert triggers(p)[0].failure == failure


def test_ES_16_the_actions_concealment_replaces_the_targets() -> None:
    p = ok(
        fight(ana(), bo(concealment="total"), actions=[attack("ana", "bo", 7, concealment="none")])
    )
    assert (triggers(p)[0].failure, hp(p, "bo")) == (0, 17)


def test_ES_17_partial_cover_6() -> None:
    p = ok(fight(ana(), bo(cover="partial"), actions=[attack("ana", "bo", 6)]))
    assert (triggers(p)[0].failure, hp(p, "bo")) == (6, 20)
    p = ok(fight(ana(), bo(), actions=[attack("ana", "bo", 7, cover="partial")]))
    assert (triggers(p)[0].failure, hp(p, "bo")) == (6, 17)


def test_ES_17_total_cover_cannot_be_attacked() -> None:
    p = fight(ana(), bo(cover="total"), actions=[attack("ana", "bo", 12)])
    assert refusal(p) == (1, "total_cover")
    p = fight(ana(), bo(), actions=[attack("ana", "bo", 12, cover="total")])
    assert refusal(p) == (1, "total_cover")
    p = ok(fight(ana(), bo(cover="total"), actions=[attack("ana", "bo", 12, cover="partial")]))
    assert hp(p, "bo") == 12


@pytest.mark.parametrize("who_", ["ana", "bo"])
def test_ES_18_no_attacks_underwater(who_: str) -> None:
    people = [ana(underwater=who_ == "ana"), bo(underwater=who_ == "bo")]
    p = fight(*people, actions=[attack("ana", "bo", 12)])
    assert refusal(p) == (1, "underwater")


# --- ES-19 to ES-21: skullduggery ------------------------------------------------------------


def test_ES_19_backstab_adds_2() -> None:
    p = ok(fight(ana(), bo(), actions=[attack("ana", "bo", 5, unseen=True)]))
    assert hp(p, "bo") == 20 - (3 + 2)


def test_ES_20_assassinate_a_creature_of_lower_or_equal_level() -> None:
    for level in (1, 3):
        p = ok(fight(ana(), bo(level=level), actions=[attack("ana", "bo", 2, unexpected=True)]))
        assert hp(p, "bo") == 0
        assert p.state.get("bo").statuses == {"dead": {"by": "ana"}}
        assert output(p)["combatants"]["bo"]["down"] is True


def test_ES_20_higher_level_is_immune_and_resolved_normally() -> None:
    p = ok(fight(ana(), bo(level=4), actions=[attack("ana", "bo", 10, unexpected=True)]))
    assert hp(p, "bo") == 17
    assert sheet(p, "bo").conditions == ("bleeding",)
    assert p.state.get("bo").statuses == {}
    assert "  bo is immune to assassination (level 4 > 3)" in log(p)


def test_ES_20_only_a_successful_attack_assassinates() -> None:
    p = ok(fight(ana(), bo(size="small"), actions=[attack("ana", "bo", 3, unexpected=True)]))
    assert (hp(p, "bo"), p.state.get("bo").statuses) == (20, {})


def test_ES_20_an_assassination_still_inflicts_the_condition() -> None:
    p = ok(fight(ana(), bo(), actions=[attack("ana", "bo", 11, unexpected=True)]))
    assert (hp(p, "bo"), sheet(p, "bo").conditions) == (0, ("bleeding",))


def test_ES_20_the_dead_cannot_act() -> None:
    p = fight(ana(), bo(), actions=[attack("ana", "bo", 2, unexpected=True), attack("bo", "ana")])
    assert refusal(p) == (2, "down")


@pytest.mark.parametrize(
    ("weapon", "backstab", "assassinate"),
    [("sword", True, True), ("bow", True, False), ("blast", False, False)],
)
def test_ES_21_skullduggery_by_archetype(weapon: str, backstab: bool, assassinate: bool) -> None:
    p = ok(
        fight(
            ana(), bo(melee_rating=0), actions=[attack("ana", "bo", 5, weapon=weapon, unseen=True)]
        )
    )
    rating = {"sword": 3, "bow": 2, "blast": 1}[weapon]
    assert hp(p, "bo") == 20 - (1 + rating + (2 if backstab else 0))
    p = ok(fight(ana(), bo(), actions=[attack("ana", "bo", 5, weapon=weapon, unexpected=True)]))
    assert ("dead" in p.state.get("bo").statuses) is assassinate
    if not assassinate:
        assert f"  no assassination: the {weapon} cannot (ES-21)" in log(p)


# --- P-ES-2: sides take turns -------------------------------------------------------------------


def test_P_ES_2_players_first_in_file_order_then_the_rest() -> None:
    p = ok(
        fight(
            who("gob", (5, 5)),
            ana(),
            who("ogre", (6, 6), side="monsters"),
            who("cy", (1, 1), side="players"),
        )
    )
    assert p.state.order == ("ana", "cy", "gob", "ogre")
    assert p.state.turn.actor == "ana"


def test_P_ES_2_an_ambush_enemies_first_players_at_escalation_2() -> None:
    p = ok(
        fight(
            ana(),
            bo(melee_rating=0),
            order=["bo", "ana"],
            actions=[attack("bo", "ana", 5), attack("ana", "bo", 5)],
        )
    )
    # bo hits at Escalation 1: 1 + 0 - 3 -> 0; ana at 2: 2 + 3 - 0 = 5.
    assert (hp(p, "ana"), hp(p, "bo"), escalation(p), p.state.round) == (20, 15, 2, 1)


# --- 2.7: the worked example --------------------------------------------------------------------


def test_worked_example_2_7() -> None:
    p = ok(
        fight(
            who(
                "ana",
                level=3,
                melee_rating=3,
                remote_rating=1,
                weapons=[{"is": "melee", "name": "sword",
                          "conditions": ["bleeding", "dazed", "prone"]}],
            ),
            who("ogre", (0, 1), level=5, size="large", max_hp=30, melee_rating=4,
                concealment="partial", weapons=[{"is": "melee", "name": "club"}]),
            who("gob", (1, 0), size="small", max_hp=8, melee_rating=1,
                weapons=[{"is": "melee", "name": "knife"}]),
            actions=[
                attack("ana", "gob", 10, condition="bleeding"),
                attack("ana", "ogre", 12, unseen=True, condition="dazed"),
                attack("ogre", "ana", 7),
                attack("ana", "gob", 5, unexpected=True),
            ],
        )
    )  # fmt: skip
    assert p.state.order == ("ana", "ogre", "gob")
    first, second, third, fourth = (triggers(p, i)[0] for i in (1, 2, 3, 4))
    assert (first.failure, first.success, first.condition) == (3, True, True)
    assert (second.failure, second.crit, second.condition) == (6, True, True)
    assert (third.failure, third.success, third.condition) == (3, True, False)
    assert (fourth.failure, fourth.success) == (3, True)
    assert escalation(p) == 2
    assert (p.state.round, p.state.turn.actor) == (2, "ana")
    assert (hp(p, "ana"), energy(p, "ana")) == (18, 2)
    assert (hp(p, "ogre"), sheet(p, "ogre").conditions) == (23, ("dazed",))
    assert (hp(p, "gob"), sheet(p, "gob").conditions) == (0, ("bleeding",))
    assert p.state.get("gob").statuses == {"dead": {"by": "ana"}}
    assert actions_left(p, "ana") == (1, 1)  # first attack of round 2: no Energy cost
    lines = log(p)
    assert "  gob takes 3 damage (escalation 1 + melee 3 - defense 1): HP 8 -> 5" in lines
    assert (
        "  ogre takes 7 damage (escalation 1 + melee 3 + crit 5 + backstab 2 - defense 4): "
        "HP 30 -> 23" in lines
    )
    assert "escalation: 1 -> 2" in lines
