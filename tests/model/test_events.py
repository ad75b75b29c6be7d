"""The core events (``fracas.model.events``): what each changes of the state, its log
line, its JSON, and the fold that applies them in order; damage stops at 0 and at
``max_hp``, and an event's effect leaves out what only its line reads."""

from __future__ import annotations

from fracas.model import (
    ActionUsed,
    Attempted,
    Damaged,
    FieldsSet,
    Moved,
    Note,
    StatusCleared,
    StatusSet,
    TurnEnded,
    TurnFlagged,
    TurnOver,
    TurnStarted,
    ValueSet,
    Walked,
    event_json,
    fold,
)
from fracas.model.events import changes_one
from fracas.model.frozen import FrozenDict
from tests.model.support import Sheet, combatant, encounter


def test_a_turns_start_and_end() -> None:
    state = encounter().with_turn(actions_used=1, over=True)
    started = TurnStarted("bo", 2)
    after = started.apply(state)
    assert (after.round, after.turn.actor, after.turn.actions_used, after.turn.over) == (
        2,
        "bo",
        0,
        False,
    )
    assert started.describe(state) == "-- round 2, Bo's turn --" and started.tone == "turn"
    assert TurnEnded("ana").describe(state) == "Ana's turn ends"
    assert TurnEnded("ana", passed=True).describe(state) == (
        "Ana's turn ends (another combatant acts)"
    )
    assert TurnEnded("ana").apply(state) is state


def test_the_turns_own_events_count_what_it_used() -> None:
    state = encounter()
    used = fold(
        state, [ActionUsed("ana"), ActionUsed("ana", "contested"), ActionUsed("ana", "contested")]
    )
    assert used.turn.actions_used == 3 and dict(used.turn.used) == {"contested": 2}
    assert TurnOver("ana").apply(state).turn.over is True
    assert TurnOver("ana").describe(state) == "Ana's turn is over"
    flagged = fold(state, [TurnFlagged("ana", "aimed"), TurnFlagged("ana", "moved")])
    assert flagged.turn.flags == frozenset({"aimed", "moved"})
    assert all(kind.keeps_down for kind in (ActionUsed, TurnOver, TurnFlagged, Walked))


def test_a_walk_and_a_move() -> None:
    state = encounter()
    walked = Walked("ana", 2)
    assert walked.describe(state) == "Ana walks 2 tiles (4 left this turn)"
    assert walked.apply(walked.apply(state)).turn.walked == 4
    assert Moved("ana", (3, 4)).apply(state).get("ana").at == (3, 4)
    assert Moved("ana", (3, 4)).describe(state) == "Ana moves to [3, 4]"
    assert Moved("ana", None).apply(state).get("ana").at is None
    assert Moved("ana", None).describe(state) == "Ana moves off the map"


def test_damage_stops_at_zero_and_a_negative_amount_heals_up_to_max_hp() -> None:
    state = encounter()
    assert Damaged("bo", 5).apply(state).get("bo").hp == 7
    assert Damaged("bo", 50).apply(state).get("bo").hp == 0
    hurt = state.with_combatant(combatant("bo", side="raiders", hp=5))
    assert Damaged("bo", -3).apply(hurt).get("bo").hp == 8
    assert Damaged("bo", -30).apply(hurt).get("bo").hp == 12
    above = state.with_combatant(combatant("bo", hp=15))  # above its max: kept, never raised
    assert Damaged("bo", -3).apply(above).get("bo").hp == 15
    assert Damaged("bo", 5, "2 base").describe(state) == "  Bo takes 5 damage (2 base): HP 12 -> 7"
    assert Damaged("bo", 5).line(state, "superficial damage") == (
        "  Bo takes 5 superficial damage: HP 12 -> 7"
    )
    assert Damaged("bo", 5).veiled(state) == "  Bo: details hidden"


def test_a_damages_effect_leaves_out_its_cause() -> None:
    assert Damaged("bo", 5, "a club").effect() == Damaged("bo", 5, "a knife").effect()
    assert Damaged("bo", 5).effect() != Damaged("bo", 4).effect()
    assert Note("hi").effect() == Note("hi")


def test_statuses_set_and_cleared() -> None:
    state = encounter()
    burning = StatusSet("bo", "burning", {"turns": 2, "from": "ana"})
    assert type(burning.details) is FrozenDict
    after = burning.apply(state)
    assert dict(after.get("bo").statuses) == {"burning": {"turns": 2, "from": "ana"}}
    assert burning.describe(state) == "  Bo is burning (turns 2, from ana)"
    assert StatusSet("bo", "prone", {}).describe(state) == "  Bo is prone"
    cleared = StatusCleared("bo", "burning")
    assert dict(cleared.apply(after).get("bo").statuses) == {}
    assert cleared.describe(after) == "  Bo is no longer burning"


def test_which_events_change_one_combatant_alone() -> None:
    assert changes_one(Damaged) and changes_one(StatusSet) and changes_one(StatusCleared)
    assert not changes_one(Moved) and not changes_one(FieldsSet) and not changes_one(Note)


def test_a_game_masters_edit_of_fields_and_the_order() -> None:
    state = encounter()
    edit = FieldsSet("bo", {"hp": 3}, {"ammo": 1, "bag": ("rope",)}, order=("bo", "ana"))
    after = edit.apply(state)
    assert after.get("bo").hp == 3 and after.get("bo").sheet == Sheet(ammo=1, bag=("rope",))
    assert after.order == ("bo", "ana")
    assert edit.describe(state) == "GM sets Bo: hp: 3, ammo: 1, bag: ['rope']; turn order: Bo, Ana"
    assert FieldsSet("bo", {"hp": 3}, {}).apply(state).order == ("ana", "bo")


def test_values_and_notes() -> None:
    state = encounter()
    assert dict(ValueSet("escalation", 2).apply(state).values) == {"escalation": 2}
    assert ValueSet("escalation", 2).describe(state) == "escalation: 0 -> 2"
    assert Note("a line").apply(state) is state and Note("a line").describe(state) == "a line"
    assert Attempted("ana", "bo", True).describe(state) is None


def test_fold_applies_in_order_and_event_json_names_the_type() -> None:
    state = encounter()
    after = fold(state, [Damaged("bo", 5), Damaged("bo", -2), StatusSet("bo", "prone", {})])
    assert after.get("bo").hp == 9 and "prone" in after.get("bo").statuses
    assert fold(state, []) is state
    assert event_json(StatusSet("bo", "burning", {"turns": 2})) == {
        "type": "StatusSet",
        "target": "bo",
        "status": "burning",
        "details": {"turns": 2},
    }
    assert event_json(Moved("ana", (3, 4))) == {"type": "Moved", "actor": "ana", "to": [3, 4]}
