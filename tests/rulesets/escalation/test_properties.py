"""Properties of escalation play and odds over generated encounters, and a sampling check.

* Random play (hypothesis): the generated encounters (:func:`encounters`) and what holds
  after every action (:func:`invariants`: HP in 0..max_hp, Energy in 0..its start,
  Escalation never decreasing, conditions a set of standard names), played by the one
  random-play harness (tests/rulesets/test_conformance.py).
* Exact odds: every damage distribution sums to exactly 1; each target's ``hit`` is
  the trigger's success chance computed here from the failure formula (ES-9, ES-10);
  ``down`` agrees with the damage; a Whelm on three targets too.
* Sampling: 20,000 seeded Whelm attacks on three targets against the exact odds
  (chi-square, fixed seed), with a check that the test rejects a wrong distribution.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from fractions import Fraction
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from fracas.dice.source import RandomDice
from fracas.engine.play import plan
from fracas.errors import Refusal
from fracas.io.files import EncounterFile
from fracas.model import Action, Damaged, Encounter
from fracas.odds.action import action_odds
from fracas.rulesets.base import decided
from fracas.rulesets.escalation.damage import judge
from fracas.rulesets.escalation.data import SIZE_CATEGORIES, STANDARD_CONDITIONS
from fracas.rulesets.escalation.sheet import Sheet
from tests.rulesets.builders import begin, load, merged_chisquare


def trigger_classes(ef: EncounterFile, state: Encounter, action: Action) -> int:
    """The exact odds' branches of an attack: each target's trigger die drawn as one
    branch per (success, crit) its faces give (ES-9 to ES-11, ES-14), counted here face
    by face. Each target after the first is a step of its own, about it and the
    attacker only, so the targets before it are settled there and the branches add up
    over the targets."""
    plan: Any = decided(ef.ruleset, state, action)
    out = 0
    for t in plan.targets:
        faces = range(1, plan.top + 1)
        verdicts = [judge(f, t.failure, plan.top, plan.condition_at) for f in faces]
        out += len({(v.success, v.crit) for v in verdicts})
    return out


IDS = ("ana", "bo", "cy", "dee")
LEVELS = ("none", "partial", "total")
ONE_IN = {n: [False] * (n - 1) + [True] for n in range(2, 11)}
"""`draw(st.sampled_from(ONE_IN[n]))`: true about once in n (integers lean towards 0)."""


def _sheet(state: Encounter, cid: str) -> Sheet:
    sheet: Sheet = state.get(cid).sheet
    return sheet


# --- strategies -------------------------------------------------------------------------------

near = st.tuples(st.integers(min_value=0, max_value=3), st.integers(min_value=0, max_value=3))


@cache  # one strategy per argument: hypothesis prepares each new one anew
@st.composite
def weapons(draw: st.DrawFn) -> dict[str, Any]:
    out: dict[str, Any] = {"is": draw(st.sampled_from(["melee", "remote", "whelm"]))}
    if draw(st.booleans()):  # ES-0: a weapon's own rules
        out["crit_bonus"] = draw(st.integers(min_value=0, max_value=9))
        out["failure_mod"] = draw(st.integers(min_value=-3, max_value=6))
        out["condition_at"] = draw(st.integers(min_value=6, max_value=13))
        out["backstab"] = draw(st.booleans())
        out["assassinate"] = draw(st.booleans())
    return out


@cache  # one strategy per argument: hypothesis prepares each new one anew
@st.composite
def combatant(draw: st.DrawFn, cid: str) -> dict[str, Any]:
    arms = draw(st.lists(weapons(), min_size=1, max_size=2))
    for i, w in enumerate(arms):
        w["name"] = f"w{i}"
    return {
        "id": cid,
        "side": draw(st.sampled_from(["players", "enemies", "enemies", "beasts"])),
        "at": list(draw(near)),
        "hp": draw(st.sampled_from([20, 20, 20, 12, 6, 3, 1, 0])),
        "level": draw(st.integers(min_value=1, max_value=4)),
        "size": draw(st.sampled_from(SIZE_CATEGORIES)),
        "melee_rating": draw(st.integers(min_value=-1, max_value=5)),
        "remote_rating": draw(st.integers(min_value=-1, max_value=5)),
        "whelm_rating": draw(st.integers(min_value=-1, max_value=5)),
        "energy": draw(st.integers(min_value=0, max_value=3)),
        "conditions": draw(st.lists(st.sampled_from(STANDARD_CONDITIONS[:6]), max_size=3)),
        "concealment": draw(st.sampled_from(LEVELS)),
        "cover": draw(st.sampled_from(["none", "none", "partial", "total"])),
        "underwater": draw(st.sampled_from(ONE_IN[10])),
        "weapons": arms,
    }


@cache  # one strategy per argument: hypothesis prepares each new one anew
@st.composite
def actions(draw: st.DrawFn, ids: tuple[str, ...]) -> Action:
    actor = draw(st.sampled_from(ids))
    do = draw(st.sampled_from(["attack"] * 6 + ["act", "end_turn", "end_turn", "set"]))
    if do == "set":  # a game master's edit: HP, or the `dead` status set or ended (2.6)
        edit: dict[str, Any] = draw(
            st.sampled_from([{"hp": 0}, {"hp": 5}, {"statuses": {"dead": {}}}, {"statuses": {}}])
        )
        return Action(actor, do, params=edit)
    if do != "attack":
        return Action(actor, do)
    params: dict[str, Any] = {}
    for flag in ("free", "unseen", "unexpected"):
        if draw(st.sampled_from(ONE_IN[4])):
            params[flag] = True
    if draw(st.sampled_from(ONE_IN[5])):
        params["weapon"] = draw(st.sampled_from(["w0", "w1", "w1", "w2"]))
    if draw(st.sampled_from(ONE_IN[5])):
        params["concealment"] = draw(st.sampled_from(LEVELS))
    if draw(st.sampled_from(ONE_IN[5])):
        params["failure_mod"] = draw(st.integers(min_value=-3, max_value=12))
    if draw(st.sampled_from(ONE_IN[5])):
        params["condition"] = draw(st.sampled_from(["bleeding", "burning", "prone", "slowed"]))
    others = [cid for cid in ids if cid != actor]
    if draw(st.sampled_from(ONE_IN[10])):  # now and then: self, twice
        targets = draw(st.lists(st.sampled_from(ids), min_size=1, max_size=3))
    else:
        targets = draw(st.lists(st.sampled_from(others), min_size=1, max_size=3, unique=True))
    dice: dict[str, tuple[int, ...]] = {}
    if len(targets) == 1 and draw(st.sampled_from(ONE_IN[4])):
        dice["trigger"] = (draw(st.sampled_from([1, 10, 11, 12])),)  # the special faces
    if len(targets) == 1 and draw(st.booleans()):
        return Action(actor, "attack", targets[0], params=params, dice=dice)
    return Action(actor, "attack", params={**params, "targets": targets}, dice=dice)


@st.composite
def encounters(draw: st.DrawFn) -> tuple[dict[str, Any], list[Action], int]:
    n = draw(st.integers(min_value=2, max_value=4))
    people = [draw(combatant(cid)) for cid in IDS[:n]]
    doc = {
        "ruleset": "escalation",
        "options": {
            "escalation_step": draw(st.sampled_from(["side_turn", "enemy_turn"])),
            "damage_floor": draw(st.sampled_from([0, 0, 1, None])),
            "defense_after_bonuses": draw(st.booleans()),
            "double_attack_any_archetype": draw(st.booleans()),
            "failed_attack_counts": draw(st.booleans()),
            "double_attack_needs_energy": draw(st.booleans()),
            "auto_condition": draw(st.sampled_from(["first_missing", "none"])),
            "escalation_start": draw(st.integers(min_value=0, max_value=3)),
        },
        "combatants": people,
    }
    moves = draw(st.lists(actions(IDS[:n]), min_size=5, max_size=30))
    return doc, moves, draw(st.integers(min_value=0, max_value=2**32 - 1))


# --- random play --------------------------------------------------------------------------------


def invariants(
    ef: EncounterFile, state: Encounter, before: Encounter | None, action: Action | None
) -> None:
    """What holds after every action of random play (the conformance suite's generated
    play): HP in 0..max_hp, Energy in 0..its start, the Escalation never decreases,
    conditions a set of standard names, no status but ``dead``."""
    if before is not None:
        assert state.values["escalation"] >= before.values["escalation"]
    for cid, c in state.combatants.items():
        sheet = _sheet(state, cid)
        assert 0 <= c.hp <= c.max_hp, (cid, c.hp)
        assert 0 <= sheet.energy <= _sheet(ef.start, cid).energy, (cid, sheet.energy)
        assert len(set(sheet.conditions)) == len(sheet.conditions)
        assert set(sheet.conditions) <= set(STANDARD_CONDITIONS)
        assert set(c.statuses) <= {"dead"}


# --- exact odds ---------------------------------------------------------------------------------


def expected_hit(
    ef: EncounterFile, state: Encounter, actor: str, target: str, action: Action
) -> Fraction:
    """ES-9, ES-10, ES-15 to ES-17 from the sheets: a success beats the failure or is a 12."""
    me, them = _sheet(state, actor), _sheet(state, target)
    weapon = me.weapons[0]
    steps = abs(SIZE_CATEGORIES.index(me.size) - SIZE_CATEGORIES.index(them.size))
    failure = 3 * steps + weapon.failure_mod + int(action.params.get("failure_mod", 0))
    failure += {"none": 0, "partial": 3, "total": 6}[
        action.params.get("concealment", them.concealment)
    ]
    failure += {"none": 0, "partial": 6}[them.cover]
    return Fraction(sum(1 for t in range(1, 13) if t == 12 or t > failure), 12)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_exact_odds_are_distributions(data: st.DataObject) -> None:
    n = data.draw(st.integers(min_value=2, max_value=4))
    people = [data.draw(combatant(cid)) for cid in IDS[:n]]
    people[0]["hp"] = max(1, people[0]["hp"])
    people[0]["weapons"] = [{**data.draw(weapons()), "name": "w0", "range": 10}]
    whelm = people[0]["weapons"][0]["is"] == "whelm"
    targets = list(IDS[1:n]) if whelm else [IDS[1]]
    params: dict[str, Any] = {"targets": targets}
    for flag in ("unseen", "unexpected"):
        params[flag] = data.draw(st.booleans())
    if data.draw(st.booleans()):
        params["failure_mod"] = data.draw(st.integers(min_value=-2, max_value=12))
    doc = {
        "ruleset": "escalation",
        "options": {"damage_floor": data.draw(st.sampled_from([0, 1]))},
        "combatants": people,
    }
    ef = load(doc)
    engine, _ = begin(ef, 1)
    action = Action("ana", "attack", params=params)
    try:
        odds = action_odds(ef.ruleset, engine.state, action)
    except Refusal:
        assume(False)
        raise
    state = engine.state
    assert set(odds.combatants) == set(targets)
    assert odds.paths == trigger_classes(ef, state, action)
    for cid, o in odds.combatants.items():
        assert sum(o.damage.values(), Fraction(0)) == 1, cid
        assert o.hit == expected_hit(ef, state, "ana", cid, action), cid
        assert 0 <= o.down <= 1
        hp = state.get(cid).hp
        if hp == 0 or "dead" in state.get(cid).statuses:
            assert o.down == 1
        else:  # down iff the damage reaches the HP (an assassination deals them all)
            assert o.down == sum((p for d, p in o.damage.items() if d >= hp), Fraction(0))
        # a failed trigger deals nothing, a success at least the floor
        assert o.damage.get(0, Fraction(0)) >= 1 - o.hit


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_whelm_odds_target_by_target_equal_the_plain_enumeration(data: st.DataObject) -> None:
    """P-ES-1 per target: each target after the first is a step about it and the
    attacker (``NextTarget.odds_scope``), so the targets before it are settled there.
    The odds must equal, exactly, those of every trigger face followed whole."""
    n = data.draw(st.integers(min_value=3, max_value=4))
    people = [data.draw(combatant(cid)) for cid in IDS[:n]]
    people[0].update(hp=max(1, people[0]["hp"]), underwater=False)
    people[0]["weapons"] = [{**data.draw(weapons()), "is": "whelm", "name": "w0", "range": 10}]
    for who in people[1:]:
        who.update(cover="none", underwater=False)
    params: dict[str, Any] = {"targets": list(IDS[1:n])}
    for flag in ("free", "unseen", "unexpected"):
        params[flag] = data.draw(st.booleans())
    doc = {
        "ruleset": "escalation",
        "options": {
            "damage_floor": data.draw(st.sampled_from([0, 1, None])),
            "failed_attack_counts": data.draw(st.booleans()),
            "auto_condition": data.draw(st.sampled_from(["first_missing", "none"])),
        },
        "combatants": people,
    }
    ef = load(doc)
    engine, _ = begin(ef, 1)
    if data.draw(st.booleans()):  # ES-2: a second counted attack is a double attack
        engine.act(Action("ana", "attack", params={"targets": [IDS[1]]}))
    action = Action("ana", "attack", params=params)
    try:
        odds = action_odds(ef.ruleset, engine.state, action, seconds=None)
    except Refusal:
        assume(False)
        raise
    plain = action_odds(ef.ruleset, engine.state, action, seconds=None, steps=False, pools=False)
    assert odds.combatants == plain.combatants
    assert plain.paths == 12 ** (n - 1)
    assert odds.paths == trigger_classes(ef, engine.state, action)


# --- sampling against the exact distribution ---------------------------------------------------

SAMPLES = 20_000


def fireball() -> tuple[EncounterFile, Encounter, Action]:
    """A Whelm at three targets with failures 3, 6 and 12 (Luck's Price): crits,
    conditions and failures all in play."""
    ef = load(
        {
            "ruleset": "escalation",
            "combatants": [
                {"id": "ana", "side": "players", "whelm_rating": 2, "weapons": ["whelm"]},
                {"id": "bo", "size": "small", "whelm_rating": 1},
                {"id": "cy", "size": "large", "concealment": "partial"},
                {"id": "dee", "size": "tiny", "cover": "partial"},
            ],
        }
    )
    engine, _ = begin(ef, 1)
    return ef, engine.state, Action("ana", "attack", params={"targets": ["bo", "cy", "dee"]})


@pytest.fixture(scope="module")
def fireball_samples() -> dict[str, Counter[int]]:
    ef, state, action = fireball()
    dice = RandomDice(20_260_601)
    counts: dict[str, Counter[int]] = {cid: Counter() for cid in ("bo", "cy", "dee")}
    for _ in range(SAMPLES):
        dealt = dict.fromkeys(counts, 0)
        for e in plan(ef.ruleset, state, action, dice):
            if isinstance(e, Damaged):
                dealt[e.target] += e.amount
        for cid, amount in dealt.items():
            counts[cid][amount] += 1
    return counts


def test_sampled_whelm_damage_fits_the_exact_odds(
    fireball_samples: dict[str, Counter[int]],
) -> None:
    ef, state, action = fireball()
    odds = action_odds(ef.ruleset, state, action)
    assert odds.paths == trigger_classes(ef, state, action) == 3 + 3 + 2  # dee: miss, 12
    # bo: 1 + 2 - 1 = 2, crit 7; cy: 3, crit 8; dee: failure 12, Luck's Price: 3, no crit.
    assert odds.combatants["bo"].damage == {
        0: Fraction(3, 12),
        2: Fraction(8, 12),
        7: Fraction(1, 12),
    }
    assert odds.combatants["dee"].damage == {0: Fraction(11, 12), 3: Fraction(1, 12)}
    for cid, counts in fireball_samples.items():
        assert sum(counts.values()) == SAMPLES
        assert merged_chisquare(counts, odds.combatants[cid].damage) > 0.001, cid


def test_the_chisquare_rejects_a_wrong_distribution(
    fireball_samples: dict[str, Counter[int]],
) -> None:
    # The exact odds of cy without its partial concealment (failure 3, not 6): 3/12 more hits.
    ef, state, action = fireball()
    wrong = action_odds(
        ef.ruleset,
        state,
        dataclasses.replace(action, params={**action.params, "concealment": "none"}),
    )
    assert merged_chisquare(fireball_samples["cy"], wrong.combatants["cy"].damage) < 1e-6
