"""Properties of play and odds over generated dice-combat encounters, and statistical checks.

* Random play (hypothesis): the generated encounters (:func:`plays`) and what holds
  after every action (:func:`invariants`: HP in 0..max_hp, ammo in 0..capacity), played
  by the one random-play harness (tests/rulesets/test_conformance.py).
* Exact odds: every damage distribution sums to exactly 1, ``hit`` and ``down`` are
  probabilities and agree with the damage distribution.
* Sampling: 20,000 seeded pistol attacks against the exact distribution (chi-square),
  with a check that the same test rejects a wrong distribution.
* icepool: the contested d20 and the full melee hit chance (DC-38, DC-39, DC-43).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import icepool
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from fracas.dice.exact import enumerate_exact
from fracas.dice.source import Dice, RandomDice
from fracas.engine.play import Engine, plan
from fracas.errors import Refusal
from fracas.io.files import EncounterFile
from fracas.model import Action, Damaged, Encounter
from fracas.odds.action import Odds, action_odds
from tests.rulesets.builders import begin, load, merged_chisquare

IDS = ("ana", "bo", "cy", "dee")

# 2.2 short-hands and their capacities (guns), as the contract gives them.
GUNS = {
    "pistol": 8,
    "revolver": 6,
    "machine_pistol": 12,
    "smg": 20,
    "shotgun": 5,
    "sawn_off_shotgun": 2,
    "rifle": 5,
    "sawn_off_rifle": 5,
    "machine_gun": 30,
    "crossbow": 1,
    "hand_crossbow": 1,
}
MELEE = ("knife", "club", "sword", "greataxe")
EXPLOSIVES = ("grenade", "pipe_bomb", "aerosol_bomb", "molotov", "fire_bomb")
SHORTHANDS = (*GUNS, *MELEE, *EXPLOSIVES)
TRAITS = (
    "strong_arm",
    "snapshooter",
    "gunslinger",
    "rifleman",
    "dead_eye",
    "spotter",
    "longshot",
    "hewer",
    "cutter",
)


def invariants(
    ef: EncounterFile, state: Encounter, before: Encounter | None, action: Action | None
) -> None:
    """What holds after every action of random play (the conformance suite's generated
    play): HP in 0..max_hp, ammo in 0..capacity, a burning's turns and damage at least 1
    where the rules wrote them (a game master's ``set`` may give any, :func:`plays`)."""
    for c in state.combatants.values():
        assert 0 <= c.hp <= c.max_hp, (c.id, c.hp, c.max_hp)
        for item in (c.sheet.hand, *c.sheet.inventory):
            if item is not None and item.type == "gun":
                assert item.capacity is not None and item.loaded is not None, item
                assert 0 <= item.loaded <= item.capacity, (c.id, item)
        burning = c.statuses.get("burning")
        prev = before.combatants.get(c.id) if before is not None else None
        was = prev.statuses.get("burning") if prev is not None else None
        if burning is not None and (action is None or action.do != "set"):
            for key in ("turns", "damage"):  # each the rules wrote
                if was is None or burning.get(key) != was.get(key):
                    assert burning[key] >= 1, (c.id, burning)


# --- strategies -------------------------------------------------------------------------

tiles = st.tuples(st.integers(min_value=0, max_value=10), st.integers(min_value=0, max_value=10))
near_tiles = st.tuples(st.integers(min_value=0, max_value=4), st.integers(min_value=0, max_value=4))


def item_name(item: Any) -> str:
    return str(item if isinstance(item, str) else item["is"])


# Each strategy built once, at import: hypothesis works out a strategy's properties
# (its validity, whether it can be empty, ...) for each new strategy object, and one made
# anew at every draw cost as much as the play it generated (half this harness's time).
_SHORT_OR_FULL = st.sampled_from(["short", "full"])
_SHORTHAND = st.sampled_from(SHORTHANDS)
_LOADED = {
    name: st.sampled_from(sorted({n for n in (0, 1, 2, 3, cap) if n <= cap}))
    for name, cap in GUNS.items()
}


@st.composite
def items(draw: st.DrawFn) -> Any:
    name = draw(_SHORTHAND)
    if draw(_SHORT_OR_FULL) == "short":
        return name
    item: dict[str, Any] = {"is": name, "scrap": draw(st.booleans())}
    if name in GUNS:  # mostly nearly empty: DC-9 fires what is left
        item["loaded"] = draw(_LOADED[name])
    return item


ITEMS = items()
_HAND = st.one_of(st.none(), ITEMS, ITEMS)
_TRAITS = st.lists(st.sampled_from(TRAITS), unique=True, max_size=3)
_SIDES = {cid: st.sampled_from(["players", "raiders", cid]) for cid in IDS}
_AT = st.one_of(near_tiles, near_tiles, tiles)
_HP = st.sampled_from([12, 12, 12, 10, 8, 5, 3, 2, 1, 0])
_BONUS = st.integers(min_value=-3, max_value=3)
_CRIT = st.sampled_from(["normal", "wildcard", "even_keel"])
_LUCK = st.sampled_from(["none", "lucky", "unlucky"])
_INVENTORY = st.lists(ITEMS, max_size=2)


@st.composite
def _combatant(draw: st.DrawFn, cid: str) -> dict[str, Any]:
    hand = draw(_HAND)
    traits = draw(_TRAITS)
    if hand is not None and item_name(hand) in ("knife", "club") and draw(st.booleans()):
        traits = [*traits, "strong_arm"] if "strong_arm" not in traits else traits
    out: dict[str, Any] = {
        "id": cid,
        "side": draw(_SIDES[cid]),
        # Mostly a small board, so that melee reach (1 tile) and blasts catch people.
        "at": list(draw(_AT)),
        "hp": draw(_HP),
        "attack_bonus": draw(_BONUS),
        "defend_close_bonus": draw(_BONUS),
        "defend_ranged_bonus": draw(_BONUS),
        "crit": draw(_CRIT),
        "luck": draw(_LUCK),
        "traits": traits,
        "cover": draw(st.booleans()),
        "hand": hand,
        "inventory": draw(_INVENTORY),
    }
    return out


_COMBATANTS = {cid: _combatant(cid) for cid in IDS}


def combatant(cid: str) -> st.SearchStrategy[dict[str, Any]]:
    """A generated dice-combat combatant of id ``cid`` (one of :data:`IDS`)."""
    return _COMBATANTS[cid]


_DO = st.sampled_from(
    ["attack"] * 6 + ["throw"] * 2 + ["reload"] * 2 + ["equip"] * 2 + ["end_turn"] * 4 + ["move"]
)
_0_TO = {n: st.integers(min_value=0, max_value=n) for n in (3, 4, 5, 7, 9)}
_EDGE = st.sampled_from(["advantage", "disadvantage"])
_CRITICAL_FACE = st.sampled_from([1, 2, 19, 20])


@st.composite
def actions(draw: st.DrawFn, people: Sequence[Mapping[str, Any]]) -> Action:
    ids = [p["id"] for p in people]
    me = draw(st.sampled_from(people))
    actor = me["id"]
    do = draw(_DO)
    if do == "end_turn":
        return Action(actor, do)
    if do == "move":
        return Action(actor, do, params={"to": draw(near_tiles)})
    if do == "reload":
        return Action(actor, do)
    if do == "equip":
        carried = [item_name(i) for i in me["inventory"]]
        pick_carried = bool(carried) and draw(_0_TO[4]) > 0
        item = draw(st.sampled_from(carried)) if pick_carried else "sword"
        return Action(actor, do, params={"item": item})
    params: dict[str, Any] = {}
    if draw(_0_TO[5]) == 0:
        params["edge"] = draw(_EDGE)
    if do == "attack" and draw(_0_TO[5]) == 0:
        params["defend_edge"] = draw(_EDGE)
    dice: dict[str, tuple[int, ...]] = {}
    if draw(_0_TO[3]) == 0:  # push towards criticals
        dice["attack"] = (draw(_CRITICAL_FACE),)
    if draw(_0_TO[7]) == 0:
        return Action(actor, do, at=draw(near_tiles), params=params, dice=dice)
    others = [cid for cid in ids if cid != actor]
    target = draw(st.sampled_from(others)) if draw(_0_TO[9]) else actor
    return Action(actor, do, target, params=params, dice=dice)


@st.composite
def encounters(draw: st.DrawFn) -> tuple[dict[str, Any], list[Action], int]:
    n = draw(st.integers(min_value=2, max_value=4))
    ids = IDS[:n]
    people = [draw(combatant(cid)) for cid in ids]
    doc: dict[str, Any] = {
        "ruleset": "dice-combat",
        "options": {
            "revision": draw(st.sampled_from(["A", "B"])),
            "ammo_on_miss": draw(st.booleans()),
            "actions_per_turn": draw(st.integers(min_value=1, max_value=2)),
            "burn_reignite": draw(st.sampled_from(["max", "add"])),
        },
        "round": draw(st.sampled_from([1, 2, 2, 3])),
        "combatants": people,
    }
    if draw(st.booleans()):
        doc["order"] = list(draw(st.permutations(ids)))
    moves = draw(st.lists(actions(people), min_size=5, max_size=30))
    seed = draw(st.integers(min_value=0, max_value=2**32 - 1))
    return doc, moves, seed


@st.composite
def plays(draw: st.DrawFn) -> tuple[dict[str, Any], list[Action], int]:
    """Random play of :func:`encounters`, with burning set by hand now and then (P-DC-4:
    the statuses the rules read, as ``set`` may give them)."""
    doc, moves, seed = draw(encounters())
    ids = [c["id"] for c in doc["combatants"]]
    for _ in range(draw(st.integers(0, 3))):
        details = draw(
            st.fixed_dictionaries(
                {}, optional={"turns": st.integers(0, 3), "damage": st.integers(0, 3)}
            )
        )
        set_burning = Action(
            draw(st.sampled_from(ids)), "set", params={"statuses": {"burning": details}}
        )
        moves.insert(draw(st.integers(0, len(moves))), set_burning)
    return doc, moves, seed


# --- exact odds ----------------------------------------------------------------------------

ODDS_HANDS = (*GUNS, *MELEE, None)


@st.composite
def odds_cases(draw: st.DrawFn) -> tuple[dict[str, Any], Action]:
    """An attack or weapon throw by the first combatant, mostly legal (no explosives: their
    path counts grow with every victim)."""
    n = draw(st.integers(min_value=2, max_value=3))
    people = [draw(combatant(cid)) for cid in IDS[:n]]
    actor, target = people[0], people[1]
    hand = draw(st.sampled_from(ODDS_HANDS))
    throw = hand in ("knife", "club") and draw(st.booleans())
    actor["hp"] = max(actor["hp"], 1)
    actor["inventory"] = []
    if hand is None:
        actor["hand"] = None
    elif hand in GUNS:
        actor["hand"] = {
            "is": hand,
            "scrap": draw(st.booleans()),
            "loaded": draw(st.integers(min_value=1, max_value=GUNS[hand])),
        }
    else:
        actor["hand"] = {"is": hand, "scrap": draw(st.booleans())}
    if throw and "strong_arm" not in actor["traits"]:
        actor["traits"] = [*actor["traits"], "strong_arm"]
    x, y = actor["at"]
    if hand in GUNS or throw:
        dx = draw(st.integers(min_value=-10, max_value=10))
        dy = draw(st.integers(min_value=-10, max_value=10))
        assume((dx, dy) != (0, 0))
    else:
        dx, dy = draw(st.sampled_from([(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (0, -1)]))
    target["at"] = [x + dx, y + dy]
    doc = {
        "ruleset": "dice-combat",
        "options": {
            "revision": draw(st.sampled_from(["A", "B"])),
            "ties_hit": draw(st.booleans()),
            "gun_defend": draw(st.sampled_from(["ranged", "close"])),
        },
        "round": 2,
        "combatants": people,
    }
    return doc, Action("ana", "throw" if throw else "attack", "bo")


def check_odds(state: Encounter, odds: Odds, target: str) -> None:
    assert odds.truncated == 0
    assert target in odds.combatants
    for cid, o in odds.combatants.items():
        assert sum(o.damage.values(), Fraction(0)) == 1, cid
        assert all(p > 0 for p in o.damage.values()), cid
        assert all(d >= 0 for d in o.damage), cid
        assert 0 <= o.down <= 1
        assert o.mean == sum((d * p for d, p in o.damage.items()), Fraction(0))
        # Down afterwards iff the damage reaches the HP before (hp = max(0, hp - damage)).
        hp = state.get(cid).hp
        assert o.down == sum((p for d, p in o.damage.items() if d >= hp), Fraction(0))
        if cid == target:
            assert o.hit is not None
        if o.hit is not None:
            assert 0 <= o.hit <= 1
            # Every landed attack deals at least 1 (DC-44, scrap floor 1); a miss deals 0.
            assert o.hit == sum((p for d, p in o.damage.items() if d > 0), Fraction(0))
        else:
            assert o.damage == {0: 1}


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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
    check_odds(engine.state, odds, "bo")
    assert set(odds.combatants) == {"bo"}  # a single-target attack affects no one else


@pytest.mark.parametrize(
    ("explosive", "reach"),
    # P(the scatter moves the blast onto the thrower), from DC-34: W at distance 2 or 3
    # for the 3x3 Molotov; W at 1..3, NW or SW at 1..2 for the 5x5 bomb.
    [("molotov", Fraction(1, 8) * Fraction(2, 3)), ("grenade", Fraction(1, 8) * Fraction(7, 3))],
)
def test_exact_odds_of_an_explosion_are_distributions(explosive: str, reach: Fraction) -> None:
    ef = load(
        {
            "ruleset": "dice-combat",
            "round": 2,
            "combatants": [
                {"id": "ana", "at": [0, 0], "hand": explosive},
                {"id": "bo", "at": [3, 0], "hp": 3},
                {"id": "cy", "at": [9, 9]},
            ],
        }
    )
    engine, _ = begin(ef, 1)
    odds = action_odds(ef.ruleset, engine.state, Action("ana", "throw", "bo"))
    check_odds(engine.state, odds, "bo")
    assert set(odds.combatants) == {"ana", "bo"}
    # The thrower is caught only by a critical failure (natural 1, total 1) that scatters
    # onto it, and then hit only by its own natural 1 (a fumble, and 1 <= 1).
    assert odds.combatants["ana"].hit == Fraction(1, 20) * reach * Fraction(1, 20)


# --- sampling against the exact distribution ----------------------------------------------

SAMPLES = 20_000


def pistol_duel(attack_bonus: int = 0) -> tuple[EncounterFile, Encounter, Action]:
    """A pistol at close range (3 tiles), normal crits: natural 20 adds 1d4 on a hit, the
    defender's natural 1 hits and adds 1d4 (DC-37, DC-39); the ammo d3 is rolled."""
    ef = load(
        {
            "ruleset": "dice-combat",
            "combatants": [
                {"id": "ana", "at": [0, 0], "attack_bonus": attack_bonus, "hand": "pistol"},
                {"id": "bo", "at": [3, 0], "defend_ranged_bonus": 2},
            ],
        }
    )
    engine, _ = begin(ef, 1)
    return ef, engine.state, Action("ana", "attack", "bo")


def sample_damage(ef: EncounterFile, state: Encounter, action: Action, seed: int) -> Counter[int]:
    dice = RandomDice(seed)
    counts: Counter[int] = Counter()
    for _ in range(SAMPLES):
        events = plan(ef.ruleset, state, action, dice)
        counts[sum(e.amount for e in events if isinstance(e, Damaged) and e.target == "bo")] += 1
    return counts


@pytest.fixture(scope="module")
def pistol_samples() -> Counter[int]:
    ef, state, action = pistol_duel()
    return sample_damage(ef, state, action, seed=20_260_501)


def test_sampled_pistol_damage_fits_the_exact_odds(pistol_samples: Counter[int]) -> None:
    ef, state, action = pistol_duel()
    exact = action_odds(ef.ruleset, state, action).combatants["bo"].damage
    # The crit and fumble dice are really in play.
    assert {0, 3, 4, 5, 6, 7}.issubset(exact) and max(exact) == 11
    assert merged_chisquare(pistol_samples, exact) > 0.001


def test_the_chisquare_rejects_a_wrong_distribution(pistol_samples: Counter[int]) -> None:
    # The exact odds of a slightly better shooter (+1): about 5% more hits.
    ef, state, action = pistol_duel(attack_bonus=1)
    wrong = action_odds(ef.ruleset, state, action).combatants["bo"].damage
    assert merged_chisquare(pistol_samples, wrong) < 1e-6


def test_the_chisquare_rejects_a_distribution_without_crits(pistol_samples: Counter[int]) -> None:
    ef, state, action = pistol_duel()
    exact = action_odds(ef.ruleset, state, action).combatants["bo"].damage
    # Fold every crit and fumble bonus into plain 3 damage: same hit chance, no extras.
    flat = {0: exact[0], 3: 1 - exact[0]}
    with pytest.raises(AssertionError, match="probability 0"):
        merged_chisquare(pistol_samples, flat)


def test_sampling_through_the_engine_fits_too() -> None:
    # Whole actions through Engine.act, one seed each: the engine's own path to the dice.
    ef, state, action = pistol_duel()
    counts: Counter[int] = Counter()
    for seed in range(4000):
        engine = Engine(ef.ruleset, state, seed)
        record = engine.act(action)
        counts[sum(e.amount for e in record.events if isinstance(e, Damaged))] += 1
    exact = action_odds(ef.ruleset, state, action).combatants["bo"].damage
    assert merged_chisquare(counts, exact) > 0.001


# --- icepool ------------------------------------------------------------------------------


@pytest.mark.parametrize(("a", "b"), [(0, 0), (2, 0), (0, 3), (5, -2), (-4, 4), (19, 0), (0, 19)])
def test_contested_d20_equals_icepool(a: int, b: int) -> None:
    def contest(dice: Dice) -> bool:
        return dice.roll(20, "attack") + a >= dice.roll(20, "defend") + b

    ours = enumerate_exact(contest).outcomes.get(True, Fraction(0))
    theirs = (icepool.d20 + a >= icepool.d20 + b).probability(True)
    assert ours == Fraction(theirs)


def melee_duel(a: int, b: int, crit: str = "normal") -> tuple[EncounterFile, Encounter, Action]:
    ef = load(
        {
            "ruleset": "dice-combat",
            "combatants": [
                {"id": "ana", "at": [0, 0], "attack_bonus": a, "hand": "sword", "crit": crit},
                {"id": "bo", "at": [1, 1], "defend_close_bonus": b, "crit": crit},
            ],
        }
    )
    engine, _ = begin(ef, 1)
    return ef, engine.state, Action("ana", "attack", "bo")


def icepool_melee(a: int, b: int) -> tuple[Fraction, dict[int, Fraction]]:
    """Hit chance and damage of a sword (2 HP), normal crits, straight from the rules:
    DC-38 a natural 1 misses; DC-39 a defender's natural 1 hits and adds 1d4; DC-43 ties
    hit; DC-37 a natural 20 adds 1d4 on a hit; DC-40 both stack."""

    def hits(na: int, nd: int) -> bool:
        return na != 1 and (nd == 1 or na + a >= nd + b)

    def damage(na: int, nd: int) -> Any:
        if not hits(na, nd):
            return 0
        return 2 + (icepool.d4 if na == 20 else 0) + (icepool.d4 if nd == 1 else 0)

    hit = Fraction(icepool.map(hits, icepool.d20, icepool.d20).probability(True))
    die = icepool.map(damage, icepool.d20, icepool.d20)
    den = die.denominator()
    return hit, {int(d): Fraction(q, den) for d, q in die.items() if q}


@pytest.mark.parametrize(("a", "b"), [(0, 0), (3, 0), (0, 3), (-5, 5), (15, 0), (0, 25), (25, 0)])
def test_melee_hit_chance_equals_icepool(a: int, b: int) -> None:
    ef, state, action = melee_duel(a, b)
    odds = action_odds(ef.ruleset, state, action).combatants["bo"]
    hit, damage = icepool_melee(a, b)
    assert odds.hit == hit
    assert odds.damage == damage


def test_natural_one_rules_matter_in_the_comparison() -> None:
    # Without DC-38/DC-39 the plain contest differs: the check above is not vacuous.
    ef, state, action = melee_duel(25, 0)
    plain = Fraction((icepool.d20 + 25 >= icepool.d20).probability(True))
    odds = action_odds(ef.ruleset, state, action).combatants["bo"]
    assert plain == 1 and odds.hit == Fraction(19, 20)
    ef, state, action = melee_duel(0, 25)
    odds = action_odds(ef.ruleset, state, action).combatants["bo"]
    assert odds.hit == Fraction(19, 400)  # only the defender's natural 1 lets it land
