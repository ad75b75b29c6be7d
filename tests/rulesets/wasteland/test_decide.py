"""wasteland on the decide/roll contract (docs/writing-a-ruleset.md): decisions need no
dice and hash, the events are structured (no prose ``Note``), statuses change through
the core ``StatusSet``/``StatusCleared``, the presenter shows AP, MAP, Evasion, limbs and
explosives, and every state hashes (equal states by different routes hash equal)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.engine.play import Engine
from fracas.errors import FracasError, Refusal
from fracas.model import Action, Note, StatusCleared, StatusSet
from fracas.rulesets.base import Shown, decide, presenter_of
from fracas.rulesets.wasteland import Wasteland
from fracas.rulesets.wasteland.attack import Attack
from fracas.rulesets.wasteland.events import AttackDeclared, EffectGained
from fracas.rulesets.wasteland.rules import Opening
from fracas.rulesets.wasteland.turn_events import (
    Defended,
    OverwatchEntered,
    Peeked,
    PeekEnded,
    Reacted,
    SequenceOrdered,
)
from fracas.words.render import log_lines
from tests.helpers import load_text
from tests.rulesets.wasteland.support import PISTOL, SMG, act, doc, fight, log, ok, who


def _engine(d: dict[str, Any]) -> tuple[Engine, list[Action]]:
    ef = load_text(json.dumps(d))
    engine = Engine(ef.ruleset, ef.start, ef.seed)
    engine.begin(ef.dice, ef.order)
    return engine, list(ef.actions)


def test_P_WL_1_an_attack_is_decided_without_dice_once_and_rolled_alone() -> None:
    engine, actions = _engine(
        doc(
            who("a", weapons=[SMG], skills={"guns": 2}),
            who("b", at=(3, 0)),
            actions=[act("a", "attack", "b", burst=True)],
        )
    )
    ruleset = engine.ruleset
    assert isinstance(ruleset, Wasteland)
    assert set(vars(ruleset)) == {"options"}  # decisions are kept per process, not here
    decision = decide(ruleset, engine.state, actions[0])
    assert isinstance(decision, Opening) and isinstance(decision.family, Attack)
    assert decision == decide(ruleset, engine.state, actions[0])
    assert hash(decision) == hash(decide(ruleset, engine.state, actions[0]))
    plan = decision.family.plan
    assert (plan.shots, plan.cost, plan.bonus, plan.evasion) == (3, 4, 0, 10)  # guns 2, burst -2
    assert decision.opening  # WL-33: the encounter's first own-turn action


def test_2_5_a_refusal_is_raised_by_decide_before_any_die() -> None:
    engine, actions = _engine(
        doc(who("a", weapons=[PISTOL]), who("b", at=(30, 0)), actions=[act("a", "attack", "b")])
    )
    try:
        decide(engine.ruleset, engine.state, actions[0])
    except Refusal as exc:
        assert exc.code == "out_of_range"
    else:
        raise AssertionError("no refusal")


def test_WL_1_WL_29_to_WL_32_the_log_comes_from_structured_events() -> None:
    p = ok(
        fight(
            who("a", weapons=[PISTOL], perks=["dodger"], skills={"melee": 7}),
            who("b", at=(3, 0), weapons=[PISTOL], cover={"type": "full", "hardness": 3},
                agi_mod=1, perks=["hit_the_deck"]),
            who("c", at=(0, 3), weapons=[{**SMG, "effects": {"bleed": 2}}], skills={"guns": 4}),
            actions=[
                act("b", "peek"),
                act("b", "defend"),
                act("a", "overwatch"),
                act("c", "attack", "b", burst=True, dice={"attack:1": 20, "location:1": 5,
                    "damage:1": [6], "crit": [1], "location:2": 5, "damage:2": [6],
                    "location:3": 5, "damage:3": [6]}),
                {"actor": "b", "do": "reaction", "name": "hit_the_deck"},
            ],
            order=None,
        )
    )  # fmt: skip
    events = [e for r in p.records for e in r.events]
    assert not [e for e in events if isinstance(e, Note)]
    kinds = {type(e) for e in events}
    assert {SequenceOrdered, Peeked, Defended, OverwatchEntered, PeekEnded, EffectGained,
            Reacted} <= kinds  # fmt: skip
    assert StatusSet in kinds and issubclass(PeekEnded, StatusCleared)
    declared = [e for e in events if isinstance(e, AttackDeclared)]
    assert declared == [AttackDeclared("c", "b", "smg", 4, 3, None, False, None)]
    lines = log(p)
    assert lines[0] == "Sequence order: b 11, a 10, c 10"
    assert "c attacks b with the smg (burst of 3, 4 AP)" in lines
    assert "b peeks from full cover (half cover this turn)" in lines
    assert "  b is peeking" in lines
    assert "b defends: +3 Evasion until its next turn" in lines
    assert "  b is defending (bonus 3)" in lines
    assert "a enters Overwatch (single, 3 shot(s))" in lines
    assert "  a is overwatch (weapon pistol, mode single, shots 3)" in lines
    assert "  b gets bleed 2" in lines
    assert "b reacts: hit the deck (the GM applies it)" in lines
    assert "  b is no longer defending" not in lines  # b's next turn has not come


def test_WL_31_a_reaction_and_the_end_of_defend_are_structured() -> None:
    p = ok(
        fight(
            who("a", weapons=[PISTOL], perks=["dodger"]),
            who("b", at=(3, 0), weapons=[PISTOL]),
            actions=[
                act("a", "defend"),
                {"actor": "b", "do": "end_turn"},
            ],
        )
    )
    events = [e for r in p.records for e in r.events]
    assert [e for e in events if isinstance(e, Defended)] == [Defended("a", 5)]
    cleared = [e for e in events if isinstance(e, StatusCleared)]
    assert cleared == [StatusCleared("a", "defending")]
    assert "  a is no longer defending" in log(p)
    assert not [e for e in events if isinstance(e, Note)]


def test_2_8_presenter_shows_ap_map_evasion_limbs_and_explosives() -> None:
    grenade = {"name": "grenade", "damage": "2d6", "ap": 4, "kind": "explosive", "count": 2,
               "blast_radius": 1, "throw_difficulty": 10, "range": "close"}  # fmt: skip
    p = ok(
        fight(
            who("a", weapons=[PISTOL, grenade], agi_mod=2, max_map=3),
            who("b", at=(3, 0), weapons=[PISTOL], limbs={"head": {"ct": 4}, "left_arm": {"ct": 3}}),
            actions=[act("a", "attack", "b", called="left_arm",
                         dice={"attack": 18, "damage": [5]})],
        )
    )  # fmt: skip
    ruleset = p.file.ruleset
    presenter = presenter_of(ruleset)
    a, b = p.state.get("a"), p.state.get("b")
    assert presenter.fields(p.state, a) == (
        Shown("AP", "4/9"),
        Shown("MAP", "3/3"),
        Shown("Evasion", "12"),
        Shown("limbs", "unhurt", presenter.fields(p.state, a)[3].detail),
        Shown("explosives", "grenade 2"),
    )
    b_fields = presenter.fields(p.state, b)
    assert b_fields[:3] == (Shown("AP", "8/8"), Shown("MAP", "0/0"), Shown("Evasion", "10"))
    assert b_fields[3].label == "limbs"
    assert b_fields[3].value == "head CT 4/10, left arm CT 0/10 minor"
    assert b_fields[3].detail.startswith("head CT 4/10, DT 0/0/0; torso CT 10/10, DT 0/0/0")
    assert len(b_fields) == 4


_ACTIONS = st.sampled_from(
    [
        ("a", "attack", "b", {}),
        ("a", "attack", "b", {"burst": True}),
        ("a", "attack", "b", {"called": "head"}),
        ("b", "attack", "a", {}),
        ("b", "attack", "c", {"weapon": "knife"}),
        ("c", "attack", "b", {}),
        ("c", "throw", "b", {"weapon": "grenade"}),
        ("a", "defend", None, {}),
        ("b", "defend", None, {}),
        ("a", "overwatch", None, {"mode": "burst"}),
        ("a", "overwatch_attack", "b", {}),
        ("b", "peek", None, {}),
        ("b", "riposte", "c", {"weapon": "knife"}),
        ("b", "opportunity_attack", "c", {"weapon": "knife"}),
        ("c", "reaction", None, {"name": "hit_the_deck"}),
        ("b", "injury_test", None, {"limb": "head"}),
        ("a", "move", None, {"ap": 1, "to": (1, 0)}),
        ("c", "move", None, {"ap": 2, "to": (1, 2)}),
        ("a", "end_turn", None, {}),
        ("b", "end_turn", None, {}),
        ("c", "end_turn", None, {}),
    ]
)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**16), steps=st.lists(_ACTIONS, min_size=1, max_size=25))
def test_every_state_hashes_and_a_replay_gives_an_equal_state_with_an_equal_hash(
    seed: int, steps: list[tuple[str, str, str | None, dict[str, Any]]]
) -> None:
    grenade = {"name": "grenade", "damage": "1d6", "ap": 4, "kind": "explosive", "count": 2,
               "blast_radius": 1, "throw_difficulty": 8, "range": "close"}  # fmt: skip
    knife = {"name": "knife", "damage": "1d4", "ap": 3, "kind": "melee"}
    d = doc(
        who("a", weapons=[{**SMG, "effects": {"bleed": 1}}], skills={"guns": 3}),
        who("b", at=(0, 1), weapons=[PISTOL, knife], skills={"melee": 7},
            cover={"type": "full", "hardness": 2}, limbs={"head": {"ct": 1}}),
        who("c", at=(1, 1), side="raiders", weapons=[knife, grenade], npc=True,
            perks=["hit_the_deck"]),
        seed=seed,
    )  # fmt: skip
    ef = load_text(json.dumps(d))
    engine = Engine(ef.ruleset, ef.start, ef.seed)
    engine.begin(ef.dice, ef.order)
    hash(engine.state)
    for actor, do, target, params in steps:
        action = Action(actor, do, target, None, params)
        try:
            engine.act(action)
        except FracasError:
            continue
        hash(engine.state)
    again = Engine(ef.ruleset, load_text(json.dumps(d)).start, None)
    for record in engine.log:
        again.replay(record, ef.order)
    assert again.state == engine.state
    assert hash(again.state) == hash(engine.state)
    assert log_lines(ef.start, again.log) == log_lines(ef.start, engine.log)
