"""The state's values (``fracas.model.state``): whatever a caller gives (a plain dict,
a list), a combatant, a turn, an encounter and an action hold frozen values, so equal
states compare and hash equal however they were built; every change is a new value
(the hash kept once asked for is ``test_state_hash.py``'s)."""

from __future__ import annotations

import pytest

from fracas.model import Action, Encounter, HouseRules, Policy, Turn
from fracas.model.frozen import FrozenDict
from tests.model.support import Sheet, combatant, encounter

# --- Combatant ---------------------------------------------------------------------------------


def test_statuses_given_plain_are_frozen_all_the_way_down() -> None:
    c = combatant(statuses={"burning": {"turns": 2, "from": ["bo", "cy"]}})
    assert type(c.statuses) is FrozenDict and type(c.statuses["burning"]) is FrozenDict
    assert c.statuses["burning"]["from"] == ("bo", "cy")
    frozen = combatant(
        statuses=FrozenDict({"burning": FrozenDict({"turns": 2, "from": ("bo", "cy")})})
    )
    assert c == frozen and hash(c) == hash(frozen)


def test_with_status_sets_one_status_and_keeps_the_others() -> None:
    c = combatant(statuses={"prone": {}})
    burning = c.with_status("burning", {"turns": 2})
    assert dict(burning.statuses) == {"prone": {}, "burning": {"turns": 2}}
    assert type(burning.statuses["burning"]) is FrozenDict
    assert dict(c.statuses) == {"prone": {}}  # a new value: the first is unchanged
    again = burning.with_status("burning", {"turns": 1})
    assert again.statuses["burning"] == {"turns": 1} and list(again.statuses) == [
        "prone",
        "burning",
    ]


def test_without_status_drops_one_status_and_is_the_same_value_without_it() -> None:
    c = combatant(statuses={"prone": {}, "burning": {"turns": 2}})
    assert dict(c.without_status("prone").statuses) == {"burning": {"turns": 2}}
    assert c.without_status("hexed") is c


def test_combatants_differing_in_any_field_differ() -> None:
    c = combatant()
    for changed in (
        combatant(hp=11),
        combatant(at=None),
        combatant(side="raiders"),
        combatant(sheet=Sheet(ammo=2)),
        combatant(marks=frozenset({"marked"})),
        c.with_status("prone", {}),
    ):
        assert changed != c
    assert combatant() == c and hash(combatant()) == hash(c)


# --- Turn, HouseRules, Policy ----------------------------------------------------------------


def test_a_turn_starts_with_nothing_used_and_freezes_what_it_counts() -> None:
    turn = Turn("ana")
    assert (turn.actions_used, turn.over, turn.flags, dict(turn.used), turn.walked) == (
        0,
        False,
        frozenset(),
        {},
        0,
    )
    used = Turn("ana", used={"contested": 1})
    assert type(used.used) is FrozenDict
    assert used == Turn("ana", used=FrozenDict({"contested": 1}))
    assert hash(used) == hash(Turn("ana", used=FrozenDict({"contested": 1})))


def test_the_house_rules_default_to_skipping_down_turns_and_a_six_tile_walk() -> None:
    rules = HouseRules()
    assert (rules.skip_down, rules.map_size, rules.move) == (True, None, 6)
    assert hash(HouseRules(move=3)) == hash(HouseRules(move=3)) and HouseRules(move=3) != rules


def test_the_policys_defaults_and_its_calls_as_a_set() -> None:
    policy = Policy()
    assert (policy.player_undo, policy.player_calls, policy.enemy_hp) == (
        False,
        frozenset(),
        "label",
    )
    assert (policy.winbar, policy.player_move, policy.advisor) == (False, True, False)
    calls = Policy(player_calls=["edge", "cover", "edge"])  # type: ignore[arg-type]
    assert calls.player_calls == frozenset({"edge", "cover"})
    assert calls == Policy(player_calls=frozenset({"cover", "edge"}))


# --- Encounter ---------------------------------------------------------------------------------


def test_an_encounter_given_plain_parts_holds_frozen_ones() -> None:
    state = encounter(
        values={"escalation": 1},
        hidden=["bo"],
        notes={"bo": "a spy"},
        presets={"bo": "naive"},
    )
    assert type(state.combatants) is FrozenDict
    assert state.order == ("ana", "bo")
    assert state.hidden == frozenset({"bo"})
    for part in (state.values, state.notes, state.presets):
        assert type(part) is FrozenDict
    assert (state.table, state.policy, state.ended) == (HouseRules(), Policy(), False)


def test_equal_encounters_built_two_ways_are_one_key() -> None:
    plain = encounter(values={"escalation": 1}, hidden=["bo"])
    ana, bo = combatant("ana"), combatant("bo", side="raiders", at=(1, 0))
    built = Encounter(
        "dice-combat",
        FrozenDict({"ana": ana, "bo": bo}),
        ("ana", "bo"),
        1,
        Turn("ana"),
        FrozenDict({"escalation": 1}),
        hidden=frozenset({"bo"}),
    )
    assert plain == built and hash(plain) == hash(built)
    assert {plain: "seen"}[built] == "seen"


def test_get_and_name_read_a_combatant_by_id() -> None:
    state = encounter()
    assert state.get("bo").side == "raiders"
    assert state.name("bo") == "Bo"
    with pytest.raises(KeyError):
        state.get("cy")


def test_with_combatant_replaces_one_and_adds_a_new_one_last() -> None:
    state = encounter()
    hurt = state.with_combatant(combatant("ana", hp=5))
    assert hurt.get("ana").hp == 5 and state.get("ana").hp == 12
    assert list(hurt.combatants) == ["ana", "bo"]
    more = state.with_combatant(combatant("cy", side="raiders"))
    assert list(more.combatants) == ["ana", "bo", "cy"]
    assert more.order == ("ana", "bo")  # the order is the turn order's own


def test_with_sheet_changes_sheet_fields_and_freezes_what_it_is_given() -> None:
    state = encounter()
    changed = state.with_sheet("ana", ammo=1, bag=["rope", "torch"], notes={"hurt": [1, 2]})
    sheet = changed.get("ana").sheet
    assert sheet == Sheet(ammo=1, bag=("rope", "torch"), notes=FrozenDict({"hurt": (1, 2)}))
    assert type(sheet.notes) is FrozenDict
    assert state.get("ana").sheet == Sheet()
    by_value = state.with_sheet(state.get("ana"), ammo=1, bag=("rope", "torch"))
    assert by_value.get("ana").sheet == Sheet(ammo=1, bag=("rope", "torch"))
    hash(changed)  # still a key


def test_with_turn_and_with_value() -> None:
    state = encounter(values={"escalation": 1})
    assert state.with_turn(actions_used=1, over=True).turn == Turn("ana", 1, True)
    assert dict(state.with_value("escalation", 2).values) == {"escalation": 2}
    assert dict(state.with_value("round_bonus", 3).values) == {"escalation": 1, "round_bonus": 3}
    assert dict(state.values) == {"escalation": 1}


# --- Action ------------------------------------------------------------------------------------


def test_an_actions_parameters_and_dice_are_frozen_and_it_hashes() -> None:
    action = Action("ana", "attack", "bo", params={"to": [3, 4], "edge": "advantage"})
    assert type(action.params) is FrozenDict and action.params["to"] == (3, 4)
    assert type(action.dice) is FrozenDict and dict(action.dice) == {}
    same = Action("ana", "attack", "bo", params=FrozenDict({"to": (3, 4), "edge": "advantage"}))
    assert action == same and hash(action) == hash(same)
    assert Action("ana", "attack", "bo", dice={"attack": (15,)}) != Action("ana", "attack", "bo")
