"""dice-combat's contract with the core: the statuses its rules read (DC-24, DC-25,
P-DC-4) as ``set`` may give them, critical failures as structured events (DC-34,
DC-38), what a face shows (the presenter).
Random play (states hash, replays hash alike) is the conformance suite's
(tests/rulesets/test_conformance.py)."""

from __future__ import annotations

import pytest

from fracas.model import Event, Note
from fracas.rulesets.base import Shown, presenter_of
from tests.rulesets.dice_combat.support import act, attack_bo, fight, log, ok, refusal, who

# --- statuses: burning as `set` gives it (DC-24, DC-25, P-DC-4) -------------------------


def test_P_DC_4_set_burning_with_turns_only_ticks_the_molotov_damage() -> None:
    """README: ``statuses: {burning: {turns: 2}}``; the tick is the Molotov's 1 (DC-24)."""
    p = ok(
        fight(
            who("ana"),
            who("bo", (1, 0)),
            actions=[
                act("ana", "set", statuses={"burning": {"turns": 2}}),
                act("ana", "end_turn"),
                act("bo", "end_turn"),
            ],
        )
    )
    ana = p.state.combatants["ana"]
    assert ana.hp == 11
    assert ana.statuses == {"burning": {"turns": 1, "damage": 1}}
    assert "  ana takes 1 damage (burning): HP 12 -> 11" in log(p)


def test_P_DC_4_set_burning_with_no_details_is_the_molotov_burn() -> None:
    """DC-24: 1 HP at the start of each of the victim's next 2 turns."""
    p = ok(
        fight(
            who("ana"),
            who("bo", (1, 0)),
            actions=[
                act("ana", "set", statuses={"burning": {}}),
                act("ana", "end_turn"),
                act("bo", "end_turn"),
                act("ana", "end_turn"),
                act("bo", "end_turn"),
                act("ana", "end_turn"),
                act("bo", "end_turn"),
            ],
        )
    )
    assert p.state.combatants["ana"].hp == 10
    assert p.state.combatants["ana"].statuses == {}


def test_P_DC_4_set_burning_with_its_own_damage_ticks_it() -> None:
    p = ok(
        fight(
            who("ana"),
            who("bo", (1, 0)),
            actions=[
                act("ana", "set", statuses={"burning": {"turns": 1, "damage": 3}}),
                act("ana", "end_turn"),
                act("bo", "end_turn"),
            ],
        )
    )
    assert p.state.combatants["ana"].hp == 9
    assert p.state.combatants["ana"].statuses == {}


def test_P_DC_4_set_burning_with_no_turns_left_ends_without_a_tick() -> None:
    p = ok(
        fight(
            who("ana"),
            who("bo", (1, 0)),
            actions=[
                act("ana", "set", statuses={"burning": {"turns": 0}}),
                act("ana", "end_turn"),
                act("bo", "end_turn"),
            ],
        )
    )
    assert p.state.combatants["ana"].hp == 12
    assert p.state.combatants["ana"].statuses == {}


@pytest.mark.parametrize(
    ("details", "code"),
    [({"turns": "two"}, "bad_value"), ({"ticks": 2}, "unknown_detail")],
)
def test_P_DC_4_set_burning_refuses_details_the_rules_do_not_read(
    details: dict[str, object], code: str
) -> None:
    p = fight(
        who("ana"), who("bo", (1, 0)), actions=[act("ana", "set", statuses={"burning": details})]
    )
    assert refusal(p) == (1, code)


# --- critical failures are events with a tone (DC-34, DC-38) ----------------------------


def _critical_failures(events: tuple[Event, ...]) -> list[Event]:
    return [e for e in events if e.tone == "critical_failure"]


def test_DC_38_gun_critical_failure_is_an_event_with_its_tone() -> None:
    p = ok(attack_bo(who("ana", hand="pistol"), who("bo", (3, 0)), {"attack": 1, "ammo": 1}))
    events = p.records[-1].events
    assert not any(isinstance(e, Note) for e in events)
    [failure] = _critical_failures(events)
    assert failure.describe(p.start) == "  CRITICAL FAILURE: an automatic miss; the turn ends"
    assert "  CRITICAL FAILURE: an automatic miss; the turn ends" in log(p)


def test_DC_38_weapon_throw_critical_failure_is_an_event_with_its_tone() -> None:
    p = ok(
        fight(
            who("ana", hand="knife", traits=["strong_arm"]),
            who("bo", (3, 0)),
            actions=[act("ana", "throw", "bo", dice={"attack": 1})],
        )
    )
    events = p.records[-1].events
    assert not any(isinstance(e, Note) for e in events)
    [failure] = _critical_failures(events)
    assert failure.describe(p.start) == "  CRITICAL FAILURE: an automatic miss; the turn ends"


def test_DC_34_explosive_critical_failure_is_an_event_with_its_tone() -> None:
    p = ok(
        fight(
            who("ana", hand="grenade"),
            who("bo", (5, 0)),
            actions=[
                act("ana", "throw", "bo", dice={"attack": 1, "scatter": 3, "direction": 1}),
            ],
        )
    )
    events = p.records[-1].events
    assert not any(isinstance(e, Note) for e in events)
    [failure] = _critical_failures(events)
    assert failure.describe(p.start) == "  CRITICAL FAILURE"
    assert "  nobody is in the blast" in log(p)


# --- what a face shows ------------------------------------------------------------------


def test_presenter_shows_class_ammo_scrap_cover_and_luck() -> None:
    p = ok(
        fight(
            who("ana", hand={"is": "pistol", "loaded": 6, "scrap": True}, cover=True),
            who("bo", (1, 0), hand="greataxe", luck="lucky"),
            who("cy", (2, 0)),
        )
    )
    shows = presenter_of(p.file.ruleset)
    ana, bo, cy = (p.state.get(cid) for cid in ("ana", "bo", "cy"))
    assert shows.gear(p.state, ana) == "scrap pistol 6/8"
    assert shows.fields(p.state, ana) == (
        Shown("Class", "pistol", "3 damage (DC-3, 1.5)"),
        Shown("Ammo", "6/8", "rounds loaded (DC-8, DC-9)"),
        Shown("Scrap", "-1", "scrap pistol: 1 less damage, never below the floor (DC-11, DC-26)"),
        Shown("Cover", "+2", "on Defend (ranged) (DC-32)"),
    )
    assert shows.gear(p.state, bo) == "greataxe"
    assert shows.fields(p.state, bo) == (
        Shown("Class", "two-handed melee", "3 damage (DC-3, 1.5)"),
        Shown("Luck", "lucky", "burning lasts 1 turn less (DC-25)"),
    )
    assert shows.gear(p.state, cy) == ""
    assert shows.fields(p.state, cy) == (Shown("Class", "unarmed", "1 damage (DC-3, 1.5)"),)


def test_presenter_ammo_follows_the_rounds_fired() -> None:
    """DC-9: 2 rounds fired of 6 leave 4."""
    p = ok(
        attack_bo(
            who("ana", hand={"is": "pistol", "loaded": 6}),
            who("bo", (3, 0)),
            {"attack": 10, "ammo": 2, "defend": 15},
        )
    )
    shown = presenter_of(p.file.ruleset).fields(p.state, p.state.get("ana"))
    assert Shown("Ammo", "4/8", "rounds loaded (DC-8, DC-9)") in shown


# --- hashable state ---------------------------------------------------------------------


def test_burning_set_by_hand_and_by_a_molotov_hash_alike() -> None:
    """P-DC-4: the same burning reached two ways is the same state."""
    thrown = ok(
        fight(
            who("bo", (6, 0), hand="molotov"),
            who("ana", (0, 0)),
            actions=[act("bo", "throw", "ana", dice={"attack": 15, "defend:ana": 2})],
        )
    )
    by_hand = ok(
        fight(
            who("bo", (6, 0), hand="molotov"),
            who("ana", (0, 0)),
            actions=[
                act("ana", "set", hp=11, statuses={"burning": {"turns": 2}}),
                act("bo", "set", hand=None),
            ],
        )
    )
    a, b = thrown.state.get("ana"), by_hand.state.get("ana")
    assert a == b and hash(a) == hash(b)
