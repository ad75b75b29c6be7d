"""Properties of soak play and odds over generated encounters (hypothesis).

* Random play: the generated encounters (:func:`encounters`) and what holds after every
  action (:func:`invariants`: the health track and hp agree, hp = max(0, max_hp -
  superficial - aggravated) in 0..max_hp, AV stays >= 0 and only erodes, wounds only
  grow, AP stay in 0..max_ap), played by the one random-play harness
  (tests/rulesets/test_conformance.py).
* Exact odds: each distribution sums to exactly 1 minus the reported cut mass, the cut
  mass is all on hits (hit + cut = the d20's chance, computed here from the rules), and
  ``down`` agrees with the damage.
"""

from __future__ import annotations

import json
from fractions import Fraction
from functools import cache
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.engine.play import Engine
from fracas.io.files import EncounterFile
from fracas.model import Action, Encounter
from fracas.model.grid import METRICS
from fracas.odds.action import action_odds
from fracas.rulesets.soak.sheet import Sheet
from fracas.rulesets.soak.weapons import dv_band
from tests.helpers import load_text

IDS = ("ana", "bo", "cy")
WEAPONS: dict[str, dict[str, Any]] = {
    "sword": {"name": "sword", "dice": "1d8", "upgrades": ["1d4"]},
    "bow": {"name": "bow", "attack": "ranged", "dice": "1d6", "dv": {"3": 9, "8": 14}},
    "sling": {"name": "sling", "attack": "ranged", "dice": "1d4"},
    "chair": {"name": "chair", "type": "club", "improvised": True, "dice": "1d6"},
    "torch": {"name": "torch", "dice": "1d4", "additional": {"dice": "1d4", "type": "fire"}},
    "claw": {"name": "claw", "dice": "1d6", "damage_kind": "aggravated", "ap": 2},
    "fists": {"is": "unarmed", "name": "fists"},
}
TYPES = ("sword", "bow", "sling", "club", "torch", "claw")


@cache  # one strategy per argument: hypothesis prepares each new one anew
@st.composite
def combatant(draw: st.DrawFn, cid: str) -> dict[str, Any]:
    max_hp = draw(st.integers(min_value=4, max_value=30))
    aggravated = draw(st.integers(min_value=0, max_value=3))
    out: dict[str, Any] = {
        "id": cid,
        "max_hp": max_hp,
        "aggravated": aggravated,
        "superficial": draw(st.sampled_from([0, 0, 0, 1, 3, max_hp - aggravated // 2])),
        "agility": draw(st.integers(min_value=-2, max_value=5)),
        "strength": draw(st.integers(min_value=-1, max_value=4)),
        "skills": draw(
            st.dictionaries(
                st.sampled_from(["dueling", "marksmanship", "brawling"]),
                st.integers(min_value=-1, max_value=5),
            )
        ),
        "proficiencies": draw(st.lists(st.sampled_from(TYPES), unique=True, max_size=3)),
        "ev": draw(st.integers(min_value=4, max_value=20)),
        "av": draw(st.integers(min_value=0, max_value=8)),
        "material": draw(st.sampled_from([None, "leather", "plate"])),
        "max_ap": draw(st.integers(min_value=1, max_value=3)),
        "weapons": [
            WEAPONS[w]
            for w in draw(st.lists(st.sampled_from(list(WEAPONS)), unique=True, max_size=3))
        ],
    }
    if draw(st.sampled_from([True] * 5 + [False])):  # mostly on a small board
        out["at"] = [draw(st.integers(0, 2)), draw(st.integers(0, 2))]
    return out


OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "ranged_compare": st.sampled_from(["meet", "exceed"]),
        "natural_1": st.sampled_from(["nothing", "miss"]),
        "explode": st.sampled_from(["repeat", "once"]),
        "soak_equal": st.sampled_from(["blocks", "erodes"]),
        "av_floor": st.integers(min_value=0, max_value=3),
        "wound_needs_through": st.booleans(),
        "wound_dice": st.sampled_from(["all", "base"]),
        "damage_kind": st.sampled_from(["superficial", "aggravated"]),
        "additional_vs_av": st.sampled_from(["ignore", "soak"]),
        "material_percent": st.just({"leather/fire": 150, "plate/fire": 50}),
        "crit_maxes_additional": st.booleans(),
        "edges_cancel": st.booleans(),
        "improvised_strength": st.sampled_from(["similar", "never"]),
        "metric": st.sampled_from(["chebyshev", "manhattan"]),
        "melee_reach": st.integers(min_value=1, max_value=2),
    },
)


@cache  # one strategy per argument: hypothesis prepares each new one anew
@st.composite
def attack_params(draw: st.DrawFn, names: tuple[str, ...] = tuple(WEAPONS)) -> dict[str, Any]:
    params: dict[str, Any] = {}
    weapon = draw(st.sampled_from([None, None, *names, *names, "unarmed", "nope"]))
    if weapon is not None:
        params["weapon"] = weapon
    for edge in ("advantage", "disadvantage"):
        if draw(st.integers(min_value=0, max_value=4)) == 0:
            params[edge] = True
    if draw(st.booleans()):
        params["modifier"] = draw(st.integers(min_value=-4, max_value=4))
    if draw(st.integers(min_value=0, max_value=5)) == 0:
        params["distance"] = draw(st.integers(min_value=0, max_value=35))
    return params


@st.composite
def moves(draw: st.DrawFn, people: list[dict[str, Any]]) -> Action:
    ids = tuple(p["id"] for p in people)
    me = draw(st.sampled_from(people))
    actor = me["id"]
    do = draw(st.sampled_from(["attack"] * 6 + ["end_turn"] * 2 + ["set", "move"]))
    if do == "end_turn":
        return Action(actor, do)
    if do == "move":
        return Action(actor, do, params={"to": (draw(st.integers(0, 4)), draw(st.integers(0, 4)))})
    if do == "set":
        key = draw(
            st.sampled_from(["hp", "superficial", "av", "ap", "max_ap", "max_hp", "initiative"])
        )
        return Action(actor, do, params={key: draw(st.integers(min_value=0, max_value=12))})
    dice: dict[str, tuple[int, ...]] = {}
    if draw(st.integers(min_value=0, max_value=3)) == 0:  # push towards criticals
        dice["attack"] = (draw(st.sampled_from([1, 20])),)
    others = [cid for cid in ids if cid != actor]
    target = draw(st.sampled_from([*others, *others, *others, actor]))
    names = tuple(w["name"] for w in me["weapons"])
    return Action(actor, do, target, params=draw(attack_params(names)), dice=dice)


@st.composite
def encounters(draw: st.DrawFn) -> tuple[dict[str, Any], list[Action], int]:
    ids = IDS[: draw(st.integers(min_value=2, max_value=3))]
    data: dict[str, Any] = {
        "ruleset": "soak",
        "options": draw(OPTIONS),
        "combatants": [draw(combatant(cid)) for cid in ids],
    }
    if draw(st.booleans()):
        data["order"] = list(draw(st.permutations(ids)))
    acts = draw(st.lists(moves(data["combatants"]), min_size=4, max_size=25))
    return data, acts, draw(st.integers(min_value=0, max_value=2**32 - 1))


def invariants(
    ef: EncounterFile, state: Encounter, before: Encounter | None, action: Action | None
) -> None:
    """What holds after every action of random play (the conformance suite's generated
    play): the health track and hp agree, AV stays >= 0 and only erodes, wounds only
    grow (one an attack), AP stay in 0..max_ap."""
    for cid, c in state.combatants.items():
        s: Sheet = c.sheet
        assert c.hp == max(0, c.max_hp - s.superficial - s.aggravated), cid
        assert 0 <= c.hp <= c.max_hp
        assert s.superficial >= 0 and s.aggravated >= 0 and s.av >= 0 and s.wounds >= 0
        assert s.max_ap is not None and s.ap is not None and 0 <= s.ap <= s.max_ap
        if before is not None and action is not None and action.do != "set":
            old: Sheet = before.get(cid).sheet
            assert s.av <= old.av  # AV only erodes (SK-13)
            assert old.wounds <= s.wounds <= old.wounds + 1  # one per attack (SK-14)
            assert s.superficial >= old.superficial and s.aggravated >= old.aggravated


# --- exact odds ------------------------------------------------------------------------------


def d20_hit_chance(state: Encounter, action: Action, options: Any) -> Fraction:
    """P(the attack lands), from SK-2 to SK-6, SK-10 and SK-G1, by the d20 faces alone."""
    actor, target = state.get(action.actor), state.get(action.target or "")
    a: Sheet = actor.sheet
    name = action.params.get("weapon")
    weapons = {w.name: w for w in a.weapons}
    w = weapons[name] if name in weapons else (a.weapons[0] if name is None and a.weapons else None)
    ranged = w is not None and w.ranged
    skill = w.skill_name if w is not None else "brawling"
    bonus = a.agility + a.skills.get(skill, 0) + action.params.get("modifier", 0)
    if ranged:
        assert w is not None and w.dv is not None
        if "distance" in action.params:
            distance = action.params["distance"]
        else:
            assert actor.at is not None and target.at is not None
            distance = METRICS[options.metric](actor.at, target.at)
        band = dv_band(w.dv, distance)
        assert band is not None
        need = band[2]
    else:
        need = target.sheet.ev
    adv = bool(action.params.get("advantage"))
    dis = bool(action.params.get("disadvantage")) or (w is not None and w.improvised)
    if adv and dis:
        adv, dis = (False, False) if options.edges_cancel else (False, True)
    faces = [(n, n) for n in range(1, 21)]
    if adv or dis:
        keep = max if adv else min
        faces = [(keep(x, y), 0) for x in range(1, 21) for y in range(1, 21)]

    def lands(natural: int) -> bool:
        if natural == 20:
            return True
        if natural == 1 and options.natural_1 == "miss":
            return False
        total: int = natural + bonus
        if ranged and options.ranged_compare == "exceed":
            return total > need
        return total >= need

    return Fraction(sum(lands(n) for n, _ in faces), len(faces))


@st.composite
def odds_cases(draw: st.DrawFn) -> tuple[dict[str, Any], Action, int]:
    """A legal attack by ana on bo: ana able to act, bo in reach or range of the weapon."""
    data, _, _ = draw(encounters())
    ana, bo = data["combatants"][0], data["combatants"][1]
    ana.update(superficial=0, aggravated=0, at=[0, 0], max_ap=3)
    data["order"] = [c["id"] for c in data["combatants"]]
    names = [w["name"] for w in ana["weapons"]]
    params = draw(attack_params())
    params.pop("distance", None)
    params["weapon"] = draw(st.sampled_from([*names, "unarmed"]))
    ranged = WEAPONS.get(params["weapon"], {}).get("attack") == "ranged"
    bo["at"] = [draw(st.integers(min_value=1, max_value=8)) if ranged else 1, 0]
    return data, Action("ana", "attack", "bo", params=params), draw(st.integers(5, 6))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(odds_cases())
def test_exact_odds_sum_to_one_less_the_cut_mass(case: tuple[dict[str, Any], Action, int]) -> None:
    data, action, depth = case
    ef = load_text(json.dumps(data))
    engine = Engine(ef.ruleset, ef.start, 1)
    engine.begin(ef.dice, ef.order)
    odds = action_odds(ef.ruleset, engine.state, action, max_rolls=depth)
    assert set(odds.combatants) == {"bo"}
    bo = odds.combatants["bo"]
    assert sum(bo.damage.values(), Fraction(0)) == 1 - odds.truncated
    assert all(p > 0 for p in bo.damage.values()) and all(d >= 0 for d in bo.damage)
    assert odds.depth == depth and 0 <= odds.truncated < 1
    hp = engine.state.get("bo").hp
    # A cut path downs bo when its least damage does (damage never falls as a die grows):
    # all of the cut mass counts when the least of every cut path downs bo, part of it
    # otherwise.
    assert bo.cut == odds.truncated
    enumerated = sum((p for d, p in bo.damage.items() if d >= hp), Fraction(0))
    assert enumerated <= bo.down <= enumerated + bo.cut
    if bo.at_least is not None and bo.at_least >= hp:
        assert bo.down == enumerated + bo.cut
    assert bo.hit is not None
    # SK-3: the d20 decides the hit, before any damage die: it is exact whatever the cut.
    assert bo.hit == d20_hit_chance(engine.state, action, ef.ruleset.options)
    assert bo.damage.get(0, Fraction(0)) >= 1 - bo.hit - odds.truncated
