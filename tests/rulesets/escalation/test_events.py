"""escalation's events as facts (fields, not prose), the presenter, the `dead` status's
schema, and the attack decided once then rolled (escalation.md 2.3, 2.6, P-ES-1).

The log lines stay the sentences they were; each test checks the event's fields and
its line exactly.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from fracas.dice.source import GivenDice
from fracas.engine.play import Engine
from fracas.errors import FracasError
from fracas.model import Event, Note, fold
from fracas.rulesets.base import Shown, decided, encounter_shown, is_down, presenter_of, roll
from fracas.rulesets.escalation.attack import AttackPlan
from fracas.rulesets.escalation.events import (
    Acted,
    AssassinationImmune,
    ConditionHeld,
    CriticalTrigger,
    NoCondition,
    TriggerRolled,
    WeaponCannot,
)
from fracas.rulesets.escalation.presenter import EscalationPresenter
from tests.helpers import Played, load_text
from tests.rulesets.escalation.support import SWORD, act, attack, fight, log, ok, who

SLING = {"is": "remote", "name": "sling"}


def ana(**fields: Any) -> dict[str, Any]:
    return who("ana", **{"level": 3, "melee_rating": 3, "weapons": [SWORD, SLING], **fields})


def bo(**fields: Any) -> dict[str, Any]:
    return who("bo", (1, 0), melee_rating=1, weapons=[{"is": "melee", "name": "claws"}], **fields)


def events(p: Played, action: int = -1) -> list[Event]:
    return list(p.records[action].events)


def one(p: Played, kind: type[Event], action: int = -1) -> Any:
    found = [e for e in events(p, action) if type(e) is kind]
    assert len(found) == 1, found
    return found[0]


def test_no_event_of_escalation_is_a_note() -> None:
    p = ok(
        fight(
            ana(),
            bo(level=5, conditions=["bleeding", "dazed", "prone"]),
            actions=[
                act("ana", "act", note="hides"),
                attack("ana", "bo", 11, weapon="sling", unexpected=True, free=True),
                attack("ana", "bo", 10, unexpected=True, free=True),
            ],
        )
    )
    assert not [e for r in p.records for e in r.events if isinstance(e, Note)]


def test_ES_1_act_is_an_acted_event() -> None:
    p = ok(fight(ana(), bo(), actions=[act("ana", "act", note="hides"), act("ana", "act")]))
    assert one(p, Acted, 1) == Acted("ana", "hides")
    assert one(p, Acted, 2) == Acted("ana", None)
    lines = log(p)
    assert lines.index("ana acts: hides") < lines.index("ana acts")


def test_ES_21_what_a_weapon_cannot_do_is_a_weapon_cannot_event() -> None:
    p = ok(fight(ana(), bo(), actions=[attack("ana", "bo", 5, weapon="sling", unexpected=True)]))
    assert one(p, WeaponCannot) == WeaponCannot("sling", "assassinate")
    assert "  no assassination: the sling cannot (ES-21)" in log(p)
    whelm = {"is": "whelm", "name": "blast"}
    q = ok(fight(ana(weapons=[whelm]), bo(), actions=[attack("ana", "bo", 5, unseen=True)]))
    assert one(q, WeaponCannot) == WeaponCannot("blast", "backstab")
    assert "  no backstab: the blast cannot backstab (ES-21)" in log(q)


def test_ES_20_immunity_is_an_assassination_immune_event() -> None:
    p = ok(fight(ana(), bo(level=5), actions=[attack("ana", "bo", 5, unexpected=True)]))
    assert one(p, AssassinationImmune) == AssassinationImmune("bo", 5, 3)
    assert "  bo is immune to assassination (level 5 > 3)" in log(p)
    assert p.state.get("bo").hp == 20 - (1 + 3 - 1)


def test_ES_12_ES_13_conditions_not_given_are_events() -> None:
    held = ["bleeding", "dazed", "prone"]
    p = ok(fight(ana(), bo(conditions=held), actions=[attack("ana", "bo", 10)]))
    assert one(p, NoCondition) == NoCondition("bo", all_held=True)
    assert "  no condition for bo: it has all three" in log(p)
    q = ok(
        fight(
            ana(),
            bo(),
            actions=[attack("ana", "bo", 10)],
            options={"auto_condition": "none"},
        )
    )
    assert one(q, NoCondition) == NoCondition("bo", all_held=False)
    assert "  no condition for bo: none chosen" in log(q)
    r = ok(
        fight(ana(), bo(conditions=["dazed"]), actions=[attack("ana", "bo", 11, condition="dazed")])
    )
    assert one(r, ConditionHeld) == ConditionHeld("bo", "dazed")
    assert "  bo is already dazed: nothing more (ES-13)" in log(r)


def test_ES_11_a_critical_trigger_is_marked_critical_hit_for_a_face() -> None:
    p = ok(fight(ana(), bo(), actions=[attack("ana", "bo", 12), attack("ana", "bo", 11)]))
    crit, plain = one(p, CriticalTrigger, 1), one(p, TriggerRolled, 2)
    assert (crit.tone, crit.crit, plain.tone, plain.crit) == ("critical_hit", True, "", False)
    assert "  vs bo: failure 0; trigger 12: success (Lucky Hit, critical, condition)" in log(p)
    # ES-14, Luck's Price: the top face without the crit is no critical hit.
    q = ok(fight(ana(), bo(), actions=[attack("ana", "bo", 12, failure_mod=12)]))
    assert type(one(q, TriggerRolled)) is TriggerRolled


# --- 2.6: what a face shows ---------------------------------------------------------------


def test_presenter_shows_energy_actions_conditions_and_escalation() -> None:
    p = ok(
        fight(
            ana(energy=3),
            bo(conditions=["prone"]),
            actions=[attack("ana", "bo", 10, condition="bleeding"), attack("ana", "bo", 2)],
        )
    )
    presenter = presenter_of(p.file.ruleset)
    assert isinstance(presenter, EscalationPresenter)
    shown = presenter.fields(p.state, p.state.get("ana"))
    assert [(s.label, s.value) for s in shown] == [
        ("Energy", "2"),  # a double attack (ES-2)
        ("actions", "0/2"),
        ("conditions", "-"),
    ]
    assert shown[1].detail.startswith("actions left this round; 2 action-attack(s) made")
    bo_shown = presenter.fields(p.state, p.state.get("bo"))
    assert [(s.label, s.value) for s in bo_shown] == [
        ("Energy", "3"),
        ("actions", "2/2"),  # bo's turn starts when it acts
        ("conditions", "prone, bleeding"),
    ]
    assert encounter_shown(presenter, p.state) == (
        Shown(
            "Escalation",
            "1",
            "added to every weapon's damage; +1 as the turn passes from the enemies to the "
            "players (ES-4, ES-5)",
        ),
    )
    assert presenter.gear(p.state, p.state.get("ana")) == "sword, sling"


# --- 2.6: the `dead` status ---------------------------------------------------------------


def _set_statuses(statuses: dict[str, Any]) -> Played:
    return fight(ana(), bo(), actions=[act("bo", "set", statuses=statuses)])


def test_ES_20_dead_is_declared_and_a_set_fills_its_default() -> None:
    spec = p_spec = _set_statuses({}).file.ruleset.contract.status("dead")
    assert spec is not None and p_spec is not None and list(spec.details) == ["by"]
    p = ok(_set_statuses({"dead": {}}))
    assert p.state.get("bo").statuses == {"dead": {"by": ""}}
    assert is_down(p.file.ruleset, p.state.get("bo"))
    q = ok(_set_statuses({"dead": {"by": "ana"}, "marked": {"turns": 2}}))
    assert q.state.get("bo").statuses == {"dead": {"by": "ana"}, "marked": {"turns": 2}}


@pytest.mark.parametrize(
    ("details", "code"), [({"by": 3}, "bad_value"), ({"turns": 1}, "unknown_detail")]
)
def test_ES_20_a_set_of_dead_with_a_wrong_detail_is_refused(
    details: dict[str, Any], code: str
) -> None:
    p = _set_statuses({"dead": details})
    assert p.error is not None and isinstance(p.error[1], FracasError)
    assert (p.error[0], p.error[1].code) == (1, code)


# --- P-ES-1: decided once, then rolled ------------------------------------------------------


def test_P_ES_1_an_attack_is_decided_once_by_value_then_rolled() -> None:
    doc = {
        "ruleset": "escalation",
        "combatants": [ana(), who("bo", (1, 0), size="small", max_hp=8, melee_rating=1)],
        "actions": [{"actor": "ana", "do": "attack", "target": "bo", "unseen": True}],
    }
    ef = load_text(json.dumps(doc))
    engine = Engine(ef.ruleset, ef.start, 1)
    engine.begin(ef.dice, ef.order)
    state, action = engine.state, ef.actions[0]
    decision = decided(ef.ruleset, state, action)
    assert isinstance(decision, AttackPlan) and hash(decision)
    (target,) = decision.targets
    assert (target.target, target.parts, target.failure) == ("bo", (("size", 3),), 3)
    equal = dataclasses.replace(state, combatants=dict(state.combatants))
    assert equal is not state and decided(ef.ruleset, equal, action) is decision
    assert "resolve" not in vars(type(ef.ruleset))
    rolled = roll(ef.ruleset, state, decision, GivenDice({"trigger": (12,)}, None))
    # 1 + 3 + 5 crit + 2 backstab - 1 = 10 > 8 HP.
    assert fold(state, rolled).get("bo").hp == 0
    missed = roll(ef.ruleset, state, decision, GivenDice({"trigger": (3,)}, None))
    assert fold(state, missed).get("bo").hp == 8
