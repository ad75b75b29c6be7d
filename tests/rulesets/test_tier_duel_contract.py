"""tier-duel's contract with the core: verdicts and explanations as structured events
(TD-3, TD-6, TD-9, TD-11, TD-16, TD-17, TD-21, TD-22, TD-G3), what a face shows (the
presenter), and hashable states under random play."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from fracas.model import Action, Event, Note
from fracas.rulesets.base import Shown, presenter_of
from fracas.rulesets.tier_duel.events import (
    AutomaticHit,
    ContestedShot,
    Countered,
    NoReach,
    StealthOutcome,
    Unanswered,
    Verdict,
)
from tests.rulesets.test_tier_duel_properties import begin, encounters, load
from tests.rulesets.tier_duel_support import act, duel, log, ok, who
from tests.test_properties import check_hashes_replay

SWORD: dict[str, Any] = {"reflex": 2, "body": 3, "skills": {"sword": 3}, "hand": "sword"}
SPEAR: dict[str, Any] = {"reflex": 1, "skills": {"spear": 2}, "hand": "spear"}
BOW: dict[str, Any] = {"reflex": 1, "skills": {"bow": 3}, "hand": "bow"}
CROSSBOW: dict[str, Any] = {"skills": {"crossbow": 3}, "hand": "crossbow_1h"}
FIREARM: dict[str, Any] = {"skills": {"firearm": 2}, "hand": "firearm"}
SNEAK: dict[str, Any] = {"presence": 2, "skills": {"stealth": 3}, "hand": "sword"}

CASES = [
    # TD-2: the attacker wins by (12 + 5) - (8 + 3) = 6.
    pytest.param(
        SWORD, SPEAR, 1, act("ana", "attack", "bo", dice={"attack": 12, "defend": 8}),
        Verdict("ana", 6), "  ana wins by 6", id="TD-2 verdict",
    ),
    # TD-3: 10 + 5 = 12 + 3, a tie.
    pytest.param(
        SWORD, SPEAR, 1, act("ana", "attack", "bo", dice={"attack": 10, "defend": 12}),
        Verdict(None, 0), "  a tie: nobody deals damage (TD-3)", id="TD-3 tie",
    ),
    # TD-6: bo's spear reaches 2, ana's sword 1: ana wins but does not reach.
    pytest.param(
        SWORD, SPEAR, 2, act("ana", "attack", "bo", dice={"attack": 15, "defend": 2}),
        NoReach("ana", "sword", "bo", 1, 2),
        "  the sword does not reach bo (reach 1, 2 tiles): no damage (TD-6)", id="TD-6",
    ),
    # TD-9: the bow loses to a sword in reach: melee damage to the shooter.
    pytest.param(
        BOW, SWORD, 1, act("ana", "attack", "bo", dice={"attack": 2, "defend": 15}),
        Countered("ana", "sword"), "  ana is within the reach of the sword: melee damage (TD-9)",
        id="TD-9 counter",
    ),
    # TD-9: ... and to bare hands: no damage.
    pytest.param(
        BOW, {"reflex": 1}, 1, act("ana", "attack", "bo", dice={"attack": 2, "defend": 15}),
        Unanswered("bo"), "  no damage for that event (TD-9)", id="TD-9 no counter",
    ),
    # TD-11: within crossbow skill 3: no roll.
    pytest.param(
        CROSSBOW, {}, 3, act("ana", "attack", "bo"),
        AutomaticHit("ana", "bo", "crossbow_1h", 3, 3, "crossbow", False),
        "ana shoots bo with the crossbow_1h (3 tiles): within crossbow skill 3, an automatic "
        "hit, no roll (TD-11)", id="TD-11",
    ),
    # TD-G3: beyond the skill: a contest.
    pytest.param(
        CROSSBOW, {}, 5, act("ana", "attack", "bo", dice={"attack": 15, "defend": 2}),
        ContestedShot("ana", 3, "crossbow", False),
        "  beyond crossbow skill 3: contested, no roll difference (TD-G3)", id="TD-G3",
    ),
    # TD-16: inside the guaranteed zone (5).
    pytest.param(
        FIREARM, {}, 4, act("ana", "attack", "bo"),
        AutomaticHit("ana", "bo", "firearm", 4, 5, "firearm", True),
        "ana fires at bo with the firearm (4 tiles): inside the guaranteed hit zone (5), no "
        "roll (TD-16)", id="TD-16",
    ),
    # TD-17: in the contested zone.
    pytest.param(
        FIREARM, {}, 8, act("ana", "attack", "bo", dice={"attack": 15, "defend": 2}),
        ContestedShot("ana", 5, "firearm", True),
        "  beyond the guaranteed zone (5): contested, no roll difference (TD-17)", id="TD-17",
    ),
    # TD-21: 12 + 5 beats 3 + 0.
    pytest.param(
        SNEAK, {}, 1,
        act("ana", "stealth", "bo", behind=True, dice={"stealth": 12, "notice": 3, "strike": 4}),
        StealthOutcome("ana", "bo", True, False),
        "  ana wins: a special attack (free) that bo cannot defend (TD-21)", id="TD-21",
    ),
    # TD-22: 5 + 5 = 10 + 0, a tie wastes the action.
    pytest.param(
        SNEAK, {}, 1, act("ana", "stealth", "bo", behind=True, dice={"stealth": 5, "notice": 10}),
        StealthOutcome("ana", "bo", False, True),
        "  ana ties: no opening; the contested action is wasted (TD-22)", id="TD-22 tie",
    ),
    # TD-21, TD-6: a won stealth attack with a sword 2 tiles from a spear does not reach.
    pytest.param(
        SNEAK, SPEAR, 2,
        act("ana", "stealth", "bo", behind=True, dice={"stealth": 12, "notice": 3}),
        NoReach("ana", "sword", "bo", 1, 2),
        "  the sword does not reach bo (reach 1, 2 tiles): no damage (TD-6)", id="TD-21 reach",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("ana", "bo", "x", "action", "event", "line"), CASES)
def test_verdicts_and_explanations_are_events_with_fields(
    ana: dict[str, Any], bo: dict[str, Any], x: int, action: dict[str, Any], event: Event, line: str
) -> None:
    p = ok(duel(who("ana", 0, **ana), who("bo", x, **bo), actions=[action]))
    events = p.records[-1].events
    assert not any(isinstance(e, Note) for e in events)
    assert event in events
    assert event.describe(p.start) == line
    assert line in log(p)


# --- what a face shows ------------------------------------------------------------------


def test_presenter_shows_tier_armor_temporary_damage_and_actions_left() -> None:
    p = ok(
        duel(
            who("ana", 0, **SWORD, armor_tier=1, shield_tier=1, temporary_damage=2),
            who("bo", 1, hand={"is": "crossbow_2h", "tier": 3, "loaded": False}),
            who("cy", 2, hand={"name": "hex", "type": "spell", "effect": "hexed"}),
            actions=[act("ana", "attack", "bo", dice={"attack": 12, "defend": 8})],
        )
    )
    shows = presenter_of(p.file.ruleset)
    ana, bo, cy = (p.state.get(cid) for cid in ("ana", "bo", "cy"))
    # TD-4: 12 + 5 - 8 = 9, + 3 body + 1 tier - 0 armor = 13: bo 20 -> 7.
    assert p.state.get("bo").hp == 7
    assert shows.gear(p.state, ana) == "sword T1"
    assert shows.fields(p.state, ana) == (
        Shown("Tier", "1", "sword: weapon bonus (TD-4); reach 1"),
        Shown("Armor", "2", "armor Tier 1 + shield Tier 1 (TD-4)"),
        Shown("Temp", "2", "temporary damage taken (TD-5)"),
        Shown("Actions", "0+1", "0 contested, 1 non-contested left this round (TD-G6)"),
    )
    assert shows.gear(p.state, bo) == "crossbow_2h T3 empty"
    assert shows.fields(p.state, bo) == (
        Shown("Tier", "3", "crossbow_2h: weapon bonus (TD-4); reach 0"),
        Shown("Armor", "0", "armor Tier 0 + shield Tier 0 (TD-4)"),
        Shown("Temp", "13", "temporary damage taken (TD-5)"),
        Shown("Actions", "1+1", "1 contested, 1 non-contested left this round (TD-G6)"),
    )
    assert shows.gear(p.state, cy) == "hex"


# --- hashable state ---------------------------------------------------------------------


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(encounters())
def test_random_play_states_hash_and_replay_to_equal_hashes(
    case: tuple[dict[str, Any], list[Action], int],
) -> None:
    doc, moves, seed = case
    ef = load(doc)
    engine, first = begin(ef, seed)
    check_hashes_replay(ef, engine, first, moves)
