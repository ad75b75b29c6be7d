"""Properties of tier-duel play and odds over generated encounters, and statistical checks.

* Random play (hypothesis): the generated encounters (:func:`encounters`) and what holds
  after every action (:func:`invariants`: HP in 0..max_hp, temporary damage >= 0, the
  round's actions within the options), played by the one random-play harness
  (tests/rulesets/test_conformance.py).
* Exact odds: every distribution sums to exactly 1; on every dice path a combatant is
  damaged only where the event marks it as having lost to a side that can damage it
  (the odds' ``hit``); ``down`` agrees with the damage.
* A melee event's hit chances against icepool's contested d20 (TD-1 to TD-3).
* Sampling: 20,000 seeded melee events (both sides can deal damage) and 20,000 stealth
  attacks against the exact distributions (chi-square), and the same test rejecting
  a slightly wrong distribution.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cache
from typing import Any

import icepool
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from fracas.dice.exact import enumerate_exact
from fracas.dice.source import Dice, RandomDice
from fracas.engine.play import plan
from fracas.errors import Refusal
from fracas.io.files import EncounterFile
from fracas.model import Action, Attempted, Damaged, Encounter
from fracas.odds.action import action_odds
from tests.rulesets.builders import begin, load, merged_chisquare

IDS = ("ana", "bo", "cy")
SKILLS = ("sword", "axe", "spear", "bow", "thrown", "crossbow", "firearm", "unarmed", "stealth")
WEAPONS = ("sword", "axe", "spear", "greatsword", "bow", "javelin", "crossbow_1h",
           "crossbow_2h", "firearm")  # fmt: skip
SPELLS = ("fireball", "hex")


# --- strategies ------------------------------------------------------------------------------


@cache  # one strategy per argument: hypothesis prepares each new one anew
@st.composite
def items(draw: st.DrawFn) -> Any:
    name = draw(st.sampled_from((*WEAPONS, *SPELLS)))
    if name == "fireball":
        return {
            "name": name,
            "type": "spell",
            "damage": draw(st.integers(0, 8)),
            "effect": "burning",
        }
    if name == "hex":
        return {"name": name, "type": "spell", "effect": "hexed"}
    if draw(st.booleans()):
        return name
    item: dict[str, Any] = {"is": name, "tier": draw(st.integers(0, 4))}
    if name.startswith("crossbow") or name == "firearm":
        item["loaded"] = draw(st.booleans())
    if name == "firearm":
        item["ammo_bonus"] = draw(st.integers(-1, 3))
        item["guaranteed_zone"] = draw(st.integers(0, 3))
        item["contested_zone"] = draw(st.integers(3, 8))
    return item


@cache  # one strategy per argument: hypothesis prepares each new one anew
@st.composite
def combatant(draw: st.DrawFn, cid: str) -> dict[str, Any]:
    names = draw(st.lists(st.sampled_from(SKILLS), unique=True, max_size=4))
    return {
        "id": cid,
        "at": [draw(st.integers(0, 3)), draw(st.integers(0, 2))],  # mostly within reach
        "hp": draw(st.sampled_from([20, 20, 20, 14, 6, 2, 1, 0])),
        "reflex": draw(st.integers(-1, 4)),
        "body": draw(st.integers(-1, 4)),
        "presence": draw(st.integers(0, 3)),
        "skills": {n: draw(st.integers(-1, 5)) for n in names},
        "armor_tier": draw(st.integers(0, 4)),
        "shield_tier": draw(st.integers(0, 2)),
        "temporary_damage": draw(st.integers(0, 4)),
        "hand": draw(st.one_of(st.none(), items(), items())),
        "inventory": draw(st.lists(items(), max_size=2)),
    }


@cache  # one strategy per argument: hypothesis prepares each new one anew
@st.composite
def options(draw: st.DrawFn) -> dict[str, Any]:
    return {
        "tie_result": draw(st.sampled_from(["none", "initiator", "defender"])),
        "damage_floor": draw(st.sampled_from([0, 0, None, 1])),
        "projectile_defender_skill": draw(st.sampled_from(["best", "held"])),
        "projectile_counter": draw(st.booleans()),
        "crossbow_formula": draw(st.sampled_from(["text", "literal"])),
        "crossbow_beyond_skill": draw(st.sampled_from(["contest", "refuse"])),
        "unload_on_fire": draw(st.booleans()),
        "firearm_ignores_shield": draw(st.booleans()),
        "spell_ignores_armor": draw(st.booleans()),
        "stealth_tie": draw(st.sampled_from(["fail", "win"])),
        "contested_actions": draw(st.sampled_from([1, 1, 2, 0])),
        "noncontested_actions": draw(st.sampled_from([1, 1, 2, 0])),
        "reach_2h": draw(st.integers(1, 3)),
        "track_temporary": draw(st.booleans()),
    }


def item_name(item: Any) -> str:
    if isinstance(item, str):
        return item
    return str(item.get("name", item.get("is")))


@st.composite
def actions(draw: st.DrawFn, people: Sequence[Mapping[str, Any]]) -> Action:
    me = draw(st.sampled_from(people))
    actor = me["id"]
    do = draw(st.sampled_from(["attack"] * 6 + ["stealth"] * 3 + ["cast", "reload", "equip"]
                              + ["end_turn"] * 2 + ["move"]))  # fmt: skip
    if do in ("end_turn", "reload"):
        return Action(actor, do)
    if do == "move":
        return Action(actor, do, params={"to": (draw(st.integers(0, 3)), draw(st.integers(0, 2)))})
    carried = [item_name(i) for i in me["inventory"]] + (
        [item_name(me["hand"])] if me["hand"] else []
    )
    if do == "equip":
        return Action(actor, do, params={"item": draw(st.sampled_from([*carried, "sword"]))})
    ids = [p["id"] for p in people]
    others = [cid for cid in ids if cid != actor]
    target = draw(st.sampled_from(others)) if draw(st.integers(0, 9)) else actor
    params: dict[str, Any] = {}
    if do == "cast":
        params["spell"] = draw(st.sampled_from([*carried, "fireball"]))
    if do == "stealth":
        params["behind"] = draw(st.integers(0, 5)) > 0
    if draw(st.integers(0, 5)) == 0:
        params["distance"] = draw(st.integers(0, 6))
    return Action(actor, do, target, params=params)


@st.composite
def encounters(draw: st.DrawFn) -> tuple[dict[str, Any], list[Action], int]:
    people = [draw(combatant(cid)) for cid in IDS[: draw(st.integers(2, 3))]]
    doc = {"ruleset": "tier-duel", "options": draw(options()), "combatants": people}
    moves = draw(st.lists(actions(people), min_size=5, max_size=25))
    return doc, moves, draw(st.integers(0, 2**32 - 1))


# --- random play ---------------------------------------------------------------------------


def invariants(
    ef: EncounterFile, state: Encounter, before: Encounter | None, action: Action | None
) -> None:
    """What holds after every action of random play (the conformance suite's generated
    play): HP in 0..max_hp, temporary damage >= 0, a status's source a combatant, the
    round's actions within the options."""
    o = ef.ruleset.options
    for c in state.combatants.values():
        assert 0 <= c.hp <= c.max_hp, (c.id, c.hp)
        assert c.sheet.temporary_damage >= 0, c.id
        for status in c.statuses.values():
            assert status["from"] in state.combatants
    used = state.turn.used
    assert used.get("contested", 0) <= o.contested_actions
    assert used.get("noncontested", 0) <= o.noncontested_actions


# --- exact odds ----------------------------------------------------------------------------


@st.composite
def odds_cases(draw: st.DrawFn) -> tuple[dict[str, Any], Action]:
    """An attack, stealth or cast by ana at bo, mostly legal."""
    people = [draw(combatant(cid)) for cid in IDS[:2]]
    people[0]["hp"] = max(1, people[0]["hp"])
    do = draw(st.sampled_from(["attack"] * 4 + ["stealth", "cast"]))
    params: dict[str, Any] = {}
    if do == "stealth":
        params["behind"] = True
    if do == "cast":
        people[0]["hand"] = draw(items())
        params["spell"] = item_name(people[0]["hand"])
    doc = {"ruleset": "tier-duel", "options": draw(options()), "combatants": people}
    return doc, Action("ana", do, "bo", params=params)


def check_paths(ef: EncounterFile, state: Encounter, action: Action) -> None:
    """On every dice path, damage goes only to a combatant marked as having lost."""

    def path(dice: Dice) -> bool:
        events = plan(ef.ruleset, state, action, dice)
        lost = {e.target for e in events if isinstance(e, Attempted) and e.landed}
        return all(e.target in lost for e in events if isinstance(e, Damaged))

    # Who is damaged does not depend on the strike die (only how much): not branched on.
    assert enumerate_exact(path, irrelevant=frozenset({"strike"})).outcomes == {True: 1}


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(odds_cases())
def test_exact_odds_are_distributions(case: tuple[dict[str, Any], Action]) -> None:
    doc, action = case
    ef = load(doc)
    engine, _ = begin(ef, 1)
    try:
        odds = action_odds(ef.ruleset, engine.state, action)
    except Refusal:
        assume(False)
        raise
    assert odds.truncated == 0
    assert "bo" in odds.combatants
    for cid, o in odds.combatants.items():
        assert sum(o.damage.values(), Fraction(0)) == 1, cid
        hp = engine.state.get(cid).hp
        assert o.down == sum((p for d, p in o.damage.items() if d >= hp), Fraction(0))
        if o.hit is None:
            assert o.damage == {0: 1}
        else:
            assert 0 <= o.hit <= 1
            assert sum((p for d, p in o.damage.items() if d != 0), Fraction(0)) <= o.hit
    check_paths(ef, engine.state, action)


# --- a melee event against icepool -----------------------------------------------------------


def melee_duel(
    a: int = 0, b: int = 0, *, bo_skill: int = 2
) -> tuple[EncounterFile, Encounter, Action]:
    """ana (sword, reach 1) and bo (spear, reach 2) next to each other: both can damage."""
    ef = load(
        {
            "ruleset": "tier-duel",
            "combatants": [
                {"id": "ana", "at": [0, 0], "reflex": a, "body": 2, "skills": {"sword": 3},
                 "armor_tier": 1, "hand": {"is": "sword", "tier": 2}},
                {"id": "bo", "at": [1, 0], "reflex": b, "body": 1, "skills": {"spear": bo_skill},
                 "shield_tier": 1, "hand": "spear"},
            ],
        }
    )  # fmt: skip
    engine, _ = begin(ef, 1)
    return ef, engine.state, Action("ana", "attack", "bo")


@pytest.mark.parametrize(("a", "b"), [(0, 0), (3, 0), (0, 4), (19, 0), (-2, 22)])
def test_melee_hit_chances_equal_icepool(a: int, b: int) -> None:
    ef, state, action = melee_duel(a, b)
    odds = action_odds(ef.ruleset, state, action).combatants
    ana_total, bo_total = icepool.d20 + a + 3, icepool.d20 + b + 2
    assert odds["bo"].hit == Fraction((ana_total > bo_total).probability(True))
    assert odds["ana"].hit == Fraction((bo_total > ana_total).probability(True))
    tie = Fraction((ana_total == bo_total).probability(True))
    assert odds["ana"].hit + odds["bo"].hit + tie == 1


def test_melee_damage_equals_icepool() -> None:
    """TD-4 for both sides, from the rules: ana deals diff + 2 + 2 - 1, bo diff + 1 + 1 - 1."""
    ef, state, action = melee_duel()

    def dealt(x: int, y: int, to: str) -> int:
        diff = (x + 3) - (y + 2)
        if to == "bo":
            return max(0, diff + 3) if diff > 0 else 0
        return max(0, -diff + 1) if diff < 0 else 0

    for cid in ("ana", "bo"):
        die = icepool.map(lambda x, y, cid=cid: dealt(x, y, cid), icepool.d20, icepool.d20)
        den = die.denominator()
        expected = {int(d): Fraction(q, den) for d, q in die.items() if q}
        assert action_odds(ef.ruleset, state, action).combatants[cid].damage == expected


# --- sampling against the exact distribution ----------------------------------------------

SAMPLES = 20_000


def sample(
    ef: EncounterFile, state: Encounter, action: Action, seed: int
) -> dict[str, Counter[int]]:
    dice = RandomDice(seed)
    counts: dict[str, Counter[int]] = {"ana": Counter(), "bo": Counter()}
    for _ in range(SAMPLES):
        dealt = {"ana": 0, "bo": 0}
        for e in plan(ef.ruleset, state, action, dice):
            if isinstance(e, Damaged):
                dealt[e.target] += e.amount
        for cid, amount in dealt.items():
            counts[cid][amount] += 1
    return counts


@pytest.fixture(scope="module")
def melee_samples() -> dict[str, Counter[int]]:
    ef, state, action = melee_duel()
    return sample(ef, state, action, seed=20_260_502)


def test_sampled_melee_damage_fits_the_exact_odds_for_both_sides(
    melee_samples: dict[str, Counter[int]],
) -> None:
    ef, state, action = melee_duel()
    exact = action_odds(ef.ruleset, state, action).combatants
    assert set(exact) == {"ana", "bo"}
    for cid in ("ana", "bo"):
        assert len(exact[cid].damage) > 15
        assert merged_chisquare(melee_samples[cid], exact[cid].damage) > 0.001, cid


def test_the_chisquare_rejects_a_slightly_wrong_distribution(
    melee_samples: dict[str, Counter[int]],
) -> None:
    ef, state, action = melee_duel(bo_skill=3)  # bo one better
    wrong = action_odds(ef.ruleset, state, action).combatants
    assert merged_chisquare(melee_samples["ana"], wrong["ana"].damage) < 1e-6


def stealth_attack() -> tuple[EncounterFile, Encounter, Action]:
    ef = load(
        {
            "ruleset": "tier-duel",
            "combatants": [
                {"id": "ana", "at": [0, 0], "reflex": 1, "body": 2, "presence": 1,
                 "skills": {"stealth": 2, "bow": 3}, "hand": "bow"},
                {"id": "bo", "at": [6, 0], "presence": 2, "skills": {"stealth": 1},
                 "armor_tier": 4, "hand": "sword"},
            ],
        }
    )  # fmt: skip
    engine, _ = begin(ef, 1)
    return ef, engine.state, Action("ana", "stealth", "bo", params={"behind": True})


def test_sampled_stealth_damage_fits_the_exact_odds() -> None:
    ef, state, action = stealth_attack()
    odds = action_odds(ef.ruleset, state, action)
    # the 400 pairs of contest dice, then the strike (TD-23) as a step of its own: rolled
    # once (20 faces) for every pair that won, as they all leave the same state
    assert odds.paths == 20 * 20 + 20
    assert set(odds.combatants) == {"bo"}
    counts = sample(ef, state, action, seed=7)["bo"]
    assert merged_chisquare(counts, odds.combatants["bo"].damage) > 0.001
