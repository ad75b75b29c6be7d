"""escalation gap defaults (ES-G1 to ES-G8), ambiguities (ES-A1 to ES-A6), the options
of escalation.md 2.5, and the validation of sheets, weapons and actions (2.1 to 2.3).

Each option test plays the same encounter with the default and with the option
changed, and checks that exactly the documented outcome changes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fracas.engine.may_do import options_now
from fracas.errors import FileError, FracasError
from fracas.io.files import load as load_file
from fracas.model import Action
from fracas.rulesets.base import decided
from fracas.rulesets.escalation.data import SIZE_CATEGORIES, STANDARD_CONDITIONS
from tests.rulesets.escalation.support import (
    actions_left,
    ana,
    attack,
    bo,
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
    who,
)


def ends(*ids: str) -> list[dict[str, Any]]:
    return [{"actor": cid, "do": "end_turn"} for cid in ids]


def file_error(*combatants: dict[str, Any], **kw: Any) -> FileError:
    with pytest.raises(FileError) as exc:
        fight(*combatants, **kw)
    return exc.value


# --- gaps -----------------------------------------------------------------------------------


def test_ES_G1_the_twelve_standard_conditions_are_names_without_mechanics() -> None:
    assert len(STANDARD_CONDITIONS) == 12
    p = ok(fight(ana(), bo(conditions=["stunned", "blinded"]), actions=[attack("ana", "bo", 5)]))
    assert hp(p, "bo") == 17  # a stunned, blinded target is hit like any other
    err = file_error(ana(), bo(conditions=["on_fire"]))
    assert (err.code, "combatants[1].conditions" in err.where) == ("unknown_condition", True)


def test_ES_G2_the_trigger_die_is_a_d12() -> None:
    p = ok(fight(ana(), bo(), actions=[attack("ana", "bo", 12)]))
    assert p.records[-1].rolls[0].sides == 12
    err = file_error(ana(), bo(), actions=[attack("ana", "bo", 13)])
    assert err.code == "die_out_of_range"


def test_ES_G3_hp_20_energy_3_defeated_at_0() -> None:
    p = ok(fight(ana(), bo(hp=3), actions=[attack("ana", "bo", 5)]))
    a = output(p)["combatants"]["ana"]
    assert (a["hp"], a["max_hp"], a["energy"], a["down"]) == (20, 20, 3, False)
    b = output(p)["combatants"]["bo"]
    assert (b["hp"], b["down"], b["statuses"]) == (0, True, {})  # down, not dead
    assert refusal(fight(ana(), bo(hp=0), actions=[attack("bo", "ana")])) == (1, "down")


def test_ES_G4_size_categories_tiny_to_gargantuan() -> None:
    assert SIZE_CATEGORIES == ("tiny", "small", "medium", "large", "huge", "gargantuan")
    p = ok(fight(ana(size="tiny"), bo(size="huge"), actions=[attack("ana", "bo", 12)]))
    assert triggers(p)[0].failure == 12
    err = file_error(ana(), bo(size="colossal"))
    assert (err.code, "combatants[1].size" in err.where) == ("bad_value", True)


@pytest.mark.parametrize(("short", "reach"), [("melee", 1), ("remote", 30), ("whelm", 6)])
def test_ES_G5_ranges_per_archetype(short: str, reach: int) -> None:
    p = ok(fight(ana(weapons=[short]), bo((reach, 0)), actions=[attack("ana", "bo", 5)]))
    assert hp(p, "bo") < 20
    p = fight(ana(weapons=[short]), bo((reach + 1, 0)), actions=[attack("ana", "bo", 5)])
    assert refusal(p) == (1, "out_of_range")
    weapon = output(p)["combatants"]["ana"]["weapons"][0]
    assert (weapon["name"], weapon["archetype"], weapon["range"]) == (short, short, reach)


def test_ES_G6_whelm_targets_are_listed_at_most_3_each_its_own_failure() -> None:
    people = [
        ana(weapons=["whelm"]),
        bo(),
        who("cy", (0, 1), size="small"),
        who("dee", (1, 1), concealment="total"),
    ]
    p = ok(
        fight(
            *people,
            actions=[attack("ana", ["dee", "bo", "cy"], dice={"trigger:bo": 1, "trigger:cy": 1})],
        )
    )
    assert rolled(p) == ["trigger:dee", "trigger:bo", "trigger:cy"]  # in the order of targets
    assert [(t.target, t.failure) for t in triggers(p)] == [("dee", 6), ("bo", 0), ("cy", 3)]
    assert [t.success for t in triggers(p)[1:]] == [True, False]


def test_ES_G7_escalation_once_per_round_with_several_enemy_turns() -> None:
    people = (ana(), bo(), who("cy", (0, 1)), who("dee", (5, 5)))
    p = ok(fight(*people, actions=ends("ana", "bo", "cy", "dee")))
    assert (escalation(p), p.state.round) == (2, 2)


def test_ES_G8_level_and_the_unseen_unexpected_flags_are_inputs() -> None:
    p = ok(fight(ana(level=1), bo(level=2), actions=[attack("ana", "bo", 5, unexpected=True)]))
    assert hp(p, "bo") == 17  # immune: higher level
    p = ok(fight(ana(level=2), bo(level=2), actions=[attack("ana", "bo", 5, unexpected=True)]))
    assert hp(p, "bo") == 0
    p = ok(fight(ana(), bo(), actions=[attack("ana", "bo", 5)]))
    assert hp(p, "bo") == 17  # seen and expected: no bonus, no death


# --- ambiguities ----------------------------------------------------------------------------


def test_ES_A1_two_attacks_of_different_archetypes_are_a_double_attack() -> None:
    p = ok(
        fight(ana(), bo(), actions=[attack("ana", "bo", 5), attack("ana", "bo", 5, weapon="bow")])
    )
    assert energy(p, "ana") == 2


def test_ES_A2_defense_reduces_the_crit_and_the_backstab_too() -> None:
    p = ok(fight(ana(), bo(melee_rating=12), actions=[attack("ana", "bo", 12, unseen=True)]))
    assert hp(p, "bo") == 20  # 1 + 3 + 5 + 2 - 12 = -1 -> 0


def test_ES_A3_damage_below_0_is_0() -> None:
    p = ok(fight(ana(melee_rating=0), bo(melee_rating=5, hp=10), actions=[attack("ana", "bo", 5)]))
    assert hp(p, "bo") == 10


def test_ES_A4_a_failed_attack_counts_for_the_double_attack() -> None:
    p = ok(
        fight(
            ana(),
            bo(size="small"),
            actions=[attack("ana", "bo", 1), attack("ana", "bo", 5)],
        )
    )
    assert (triggers(p, 1)[0].success, energy(p, "ana")) == (False, 2)
    assert actions_left(p, "ana") == (0, 2)


def test_ES_A5_lucks_price_applies_at_failure_exactly_12() -> None:
    p = ok(fight(ana(size="tiny"), bo(size="huge"), actions=[attack("ana", "bo", 12)]))
    (t,) = triggers(p)
    assert (t.failure, t.success, t.crit, t.condition) == (12, True, False, False)


def test_ES_A6_weapons_may_give_failures_that_are_not_multiples_of_3() -> None:
    net = {"is": "remote", "name": "net", "failure_mod": 2}
    p = ok(fight(ana(weapons=[net]), bo(), actions=[attack("ana", "bo", 2)]))
    assert (triggers(p)[0].failure, hp(p, "bo")) == (2, 20)
    p = ok(fight(ana(weapons=[net]), bo(), actions=[attack("ana", "bo", 3)]))
    assert hp(p, "bo") == 20 - 3


# --- options --------------------------------------------------------------------------------


def test_option_escalation_start() -> None:
    p = ok(fight(ana(), bo(), actions=[attack("ana", "bo", 5)], options={"escalation_start": 4}))
    assert (escalation(p), hp(p, "bo")) == (4, 20 - 6)


def test_option_escalation_step_enemy_turn() -> None:
    people = (ana(), bo(), who("cy", (0, 1)))
    p = ok(fight(*people, actions=ends("ana", "bo", "cy")))
    assert escalation(p) == 2
    p = ok(
        fight(*people, actions=ends("ana", "bo", "cy"), options={"escalation_step": "enemy_turn"})
    )
    assert escalation(p) == 3
    p = ok(fight(*people, actions=ends("ana", "bo"), options={"escalation_step": "enemy_turn"}))
    assert escalation(p) == 2  # already after the first enemy's turn


def test_option_player_side() -> None:
    people = (who("gob", (5, 5), side="goblins"), who("hero", side="heroes"))
    p = ok(fight(*people, actions=ends("gob")))
    assert (p.state.order, escalation(p)) == (("gob", "hero"), 1)  # everyone is an enemy
    p = ok(fight(*people, actions=ends("hero", "gob"), options={"player_side": "heroes"}))
    assert p.state.order == ("hero", "gob")
    assert (escalation(p), p.state.round) == (2, 2)


def test_option_trigger_die() -> None:
    opts = {"trigger_die": 20}
    p = ok(fight(ana(), bo(), actions=[attack("ana", "bo", 12)], options=opts))
    (t,) = triggers(p)
    assert (t.top, t.crit, t.condition, hp(p, "bo")) == (20, False, False, 17)
    p = ok(fight(ana(), bo(), actions=[attack("ana", "bo", 18)], options=opts))
    assert (triggers(p)[0].crit, sheet(p, "bo").conditions) == (False, ("bleeding",))
    p = ok(fight(ana(), bo(), actions=[attack("ana", "bo", 20)], options=opts))
    assert (triggers(p)[0].crit, hp(p, "bo")) == (True, 20 - 8)
    assert p.records[-1].rolls[0].sides == 20
    assert output(p)["combatants"]["ana"]["weapons"][0]["condition_at"] == 18


def test_option_damage_floor() -> None:
    weak = {"melee_rating": 0}
    p = ok(
        fight(
            ana(**weak),
            bo(melee_rating=4),
            actions=[attack("ana", "bo", 5)],
            options={"damage_floor": 1},
        )
    )
    assert hp(p, "bo") == 19
    p = ok(
        fight(
            ana(**weak),
            bo(melee_rating=4, hp=15),
            actions=[attack("ana", "bo", 5)],
            options={"damage_floor": None},
        )
    )
    assert hp(p, "bo") == 18  # 1 + 0 - 4 = -3: heals
    p = ok(
        fight(
            ana(**weak),
            bo(melee_rating=4, hp=19),
            actions=[attack("ana", "bo", 5)],
            options={"damage_floor": None},
        )
    )
    assert hp(p, "bo") == 20  # never above max_hp


def test_option_defense_after_bonuses() -> None:
    people = (ana(), bo(melee_rating=9))
    hits = [attack("ana", "bo", 12, unseen=True)]
    assert hp(ok(fight(*people, actions=hits)), "bo") == 20 - 2  # 1 + 3 + 5 + 2 - 9
    p = ok(fight(*people, actions=hits, options={"defense_after_bonuses": False}))
    assert hp(p, "bo") == 20 - 7  # max(0, 1 + 3 - 9) + 5 + 2
    assert any(
        "(escalation 1 + melee 3 - defense 9 = -5, at least 0) + crit 5" in x for x in log(p)
    )


def test_option_double_attack_any_archetype() -> None:
    opts = {"double_attack_any_archetype": False}
    mixed = [attack("ana", "bo", 5), attack("ana", "bo", 5, weapon="bow")]
    assert energy(ok(fight(ana(), bo(), actions=mixed, options=opts)), "ana") == 3
    same = [attack("ana", "bo", 5), attack("ana", "bo", 5)]
    assert energy(ok(fight(ana(), bo(), actions=same, options=opts)), "ana") == 2


def test_option_failed_attack_counts() -> None:
    opts = {"failed_attack_counts": False}
    people = (ana(), bo(size="small"))
    failed_first = [attack("ana", "bo", 1), attack("ana", "bo", 5)]
    p = ok(fight(*people, actions=failed_first, options=opts))
    assert (energy(p, "ana"), actions_left(p, "ana")) == (3, (0, 1))
    failed_second = [attack("ana", "bo", 5), attack("ana", "bo", 2)]
    assert energy(ok(fight(*people, actions=failed_second, options=opts)), "ana") == 3
    both_land = [attack("ana", "bo", 5), attack("ana", "bo", 5)]
    assert energy(ok(fight(*people, actions=both_land, options=opts)), "ana") == 2


def test_option_double_attack_needs_energy() -> None:
    twice = [attack("ana", "bo", 5), attack("ana", "bo", 5)]
    assert hp(ok(fight(ana(energy=0), bo(), actions=twice)), "bo") == 14
    p = fight(ana(energy=0), bo(), actions=twice, options={"double_attack_needs_energy": True})
    assert refusal(p) == (2, "no_energy")
    p = ok(fight(ana(energy=1), bo(), actions=twice, options={"double_attack_needs_energy": True}))
    assert energy(p, "ana") == 0


def test_option_auto_condition() -> None:
    p = ok(
        fight(ana(), bo(), actions=[attack("ana", "bo", 10)], options={"auto_condition": "none"})
    )
    assert sheet(p, "bo").conditions == ()
    assert "  no condition for bo: none chosen" in log(p)
    p = ok(
        fight(
            ana(),
            bo(),
            actions=[attack("ana", "bo", 10, condition="prone")],
            options={"auto_condition": "none"},
        )
    )
    assert sheet(p, "bo").conditions == ("prone",)


def test_option_standard_conditions() -> None:
    names = [f"c{i}" for i in range(12)]
    opts = {"standard_conditions": names}
    claw = {"is": "melee", "name": "claw", "conditions": ["c3", "c1", "c2"]}
    people = (ana(weapons=[claw]), bo(conditions=["c3"], weapons=[claw]))
    p = ok(fight(*people, actions=[attack("ana", "bo", 11)], options=opts))
    assert sheet(p, "bo").conditions == ("c3", "c1")
    # The default weapon conditions are not among the new names: a weapon must give its own.
    err = file_error(ana(), bo(), options=opts)
    assert (err.code, "combatants[0].weapons[0].conditions" in err.where) == (
        "unknown_condition",
        True,
    )
    assert file_error(ana(), bo(), options={"standard_conditions": names[:11]}).code == "bad_value"


def test_option_size_categories() -> None:
    opts = {"size_categories": ["small", "medium", "big"]}
    p = ok(
        fight(ana(size="small"), bo(size="big"), actions=[attack("ana", "bo", 12)], options=opts)
    )
    assert triggers(p)[0].failure == 6
    err = file_error(ana(), bo(size="huge"), options=opts)
    assert err.code == "bad_value"
    err = file_error(ana(), bo(), options={"size_categories": ["little", "big"]})
    assert (err.code, "combatants[0]" in err.where) == ("bad_value", True)  # medium, the default


def test_option_max_hp_and_energy() -> None:
    p = ok(fight(ana(), bo(max_hp=7), options={"max_hp": 30, "energy": 5}))
    a, b = (output(p)["combatants"][c] for c in ("ana", "bo"))
    assert (a["hp"], a["max_hp"], a["energy"], b["hp"], b["max_hp"]) == (30, 30, 5, 7, 7)
    assert energy(ok(fight(ana(energy=1), bo(), options={"energy": 5})), "ana") == 1


def test_unknown_option_lists_the_valid_ones() -> None:
    err = file_error(ana(), bo(), options={"escalation_max": 6})
    assert err.code == "unknown_option"
    assert "escalation_step" in err.message and "double_attack_needs_energy" in err.message


# --- sheets, weapons and actions as files give them --------------------------------------------


@pytest.mark.parametrize(
    ("weapon", "code"),
    [
        ("axe", "unknown_weapon_type"),
        ({"name": "axe"}, "missing_field"),
        ({"is": "melee", "archetype": "remote"}, "bad_weapon"),
        ({"archetype": "magic"}, "bad_value"),
        ({"is": "melee", "conditions": ["bleeding", "dazed"]}, "bad_conditions"),
        ({"is": "melee", "conditions": ["bleeding", "dazed", "dazed"]}, "bad_conditions"),
        ({"is": "melee", "sharp": True}, "unknown_field"),
        ({"is": "melee", "range": -1}, "bad_value"),
    ],
    ids=str,
)
def test_bad_weapons_name_the_field(weapon: Any, code: str) -> None:
    err = file_error(ana(weapons=[weapon]), bo())
    assert err.code == code, err
    assert "combatants[0].weapons[0]" in err.where


def test_two_weapons_of_one_name() -> None:
    err = file_error(ana(weapons=["melee", "melee"]), bo())
    assert err.code == "duplicate_weapon"


def test_a_weapon_by_archetype_takes_its_defaults() -> None:
    p = ok(fight(ana(weapons=[{"name": "bow", "archetype": "remote", "range": 40}]), bo()))
    w = output(p)["combatants"]["ana"]["weapons"][0]
    assert w == {
        "archetype": "remote",
        "name": "bow",
        "range": 40,
        "conditions": ["bleeding", "slowed", "frightened"],
        "max_targets": 1,
        "condition_at": 10,
        "backstab": True,
        "assassinate": False,
        "crit_bonus": 5,
        "failure_mod": 0,
    }


def test_conditions_are_a_set() -> None:
    p = ok(fight(ana(), bo(conditions=["prone", "prone", "dazed"])))
    assert sheet(p, "bo").conditions == ("prone", "dazed")


@pytest.mark.parametrize(
    ("action", "code", "field"),
    [
        ({"targets": ["bo", "nobody"]}, "unknown_combatant", "targets[1]"),
        (
            {"target": "bo", "condition": {"nobody": "dazed"}},
            "unknown_combatant",
            "condition.nobody",
        ),
        ({"target": "bo", "targets": ["bo"]}, "missing_field", ""),
        ({}, "missing_field", ""),
        ({"targets": []}, "bad_value", "targets"),
        ({"target": "bo", "concealment": "some"}, "bad_value", "concealment"),
        ({"target": "bo", "free": "maybe"}, "bad_value", "free"),
        ({"target": "bo", "failure_mod": "lots"}, "bad_value", "failure_mod"),
        ({"target": "bo", "at": [1, 0]}, "unknown_field", "at"),
        ({"target": "bo", "sneaky": True}, "unknown_field", "sneaky"),
    ],
    ids=str,
)
def test_bad_attack_parameters_name_the_field(
    action: dict[str, Any], code: str, field: str
) -> None:
    err = file_error(ana(), bo(), actions=[{"actor": "ana", "do": "attack", **action}])
    assert err.code == code, err
    assert err.where.endswith(f"actions[0].{field}" if field else "actions[0]"), err.where


def test_set_validates_against_the_options() -> None:
    p = fight(ana(), bo(), actions=[{"actor": "bo", "do": "set", "conditions": ["on_fire"]}])
    assert refusal(p) == (1, "unknown_condition")
    p = ok(
        fight(
            ana(),
            bo(),
            actions=[{"actor": "bo", "do": "set", "conditions": ["prone"], "size": "huge"}],
        )
    )
    assert (sheet(p, "bo").conditions, sheet(p, "bo").size) == (("prone",), "huge")


def test_dead_ends_with_set() -> None:
    """2.6: `dead` ends with a game master's `set` (statuses and HP)."""
    p = ok(
        fight(
            ana(),
            bo(melee_rating=4),
            actions=[
                attack("ana", "bo", 5, unexpected=True),
                {"actor": "bo", "do": "set", "statuses": {}, "hp": 5},
                attack("bo", "ana", 5),
            ],
        )
    )
    assert output(p)["combatants"]["bo"]["down"] is False
    assert hp(p, "ana") == 20 - (1 + 4 - 3)


def test_es12_the_wielders_choice_of_condition_is_offered_from_its_weapons() -> None:
    """ES-12: the wielder chooses the condition, one of the weapon's three. "May do now"
    (the page's choices) offers the conditions of every weapon the attacker carries;
    one the weapon used does not have is refused with the weapon's three named."""
    ef = load_file(Path(__file__).parents[3] / "examples" / "escalation.yaml")
    attack = next(o for o in options_now(ef.ruleset, ef.start) if o.spec.name == "attack")
    # Ana's sword: bleeding, dazed, prone; her bow: bleeding, slowed, frightened
    assert attack.choices["condition"] == ("bleeding", "dazed", "prone", "slowed", "frightened")
    with_bow = Action("ana", "attack", "gob", params={"weapon": "bow", "condition": "slowed"})
    decided(ef.ruleset, ef.start, with_bow)  # the bow's own: allowed
    with_sword = Action("ana", "attack", "ogre", params={"condition": "slowed"})
    with pytest.raises(FracasError, match="'slowed' is not a condition of the 'sword'") as err:
        decided(ef.ruleset, ef.start, with_sword)
    assert err.value.code == "bad_condition"
