"""The benchmark's odds cases: each an encounter and the same distribution from icepool.

Every case gives an encounter (its last action is the one whose odds are asked) and an
icepool model of that action built from the rule texts (``/work/shared/rules/*.md``), not
from our code: per combatant, the exact distribution of the damage the action deals.
Where exploding dice are cut (a die stops after ``depth`` maxima in a row), the model's
cut paths come out as ``CUT + the least damage such a path can have``, so the cut mass is
compared as its own bucket (:func:`split`).

Each ``*_case`` function takes the numbers that shape its distribution, so the tests
(``tests/test_bench_odds_cases.py``) can check a small instance and the benchmark a
full one. icepool dice are built afresh in every call of a model (``fresh``): nothing
icepool caches on a die object survives from one timed run to the next.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import icepool

__all__ = [
    "CASES",
    "CUT",
    "FRAG_ON_THREE",
    "Case",
    "Command",
    "Model",
    "Split",
    "commands",
    "cut_explode",
    "fresh",
    "split",
]

CUT = 10**9
"""A cut path's damage in a model is ``CUT + the least damage it can have``."""

Dist = dict[int, Fraction]
Model = Callable[[], dict[str, Dist]]
"""Per combatant id, its damage distribution (cut paths at ``CUT + lower bound``)."""


@dataclass(frozen=True)
class Split:
    """A distribution with its cut paths apart: the enumerated values, the cut mass and
    the least damage of a cut path (None when nothing was cut)."""

    damage: Dist
    cut: Fraction
    at_least: int | None


def split(dist: Dist) -> Split:
    damage = {v: p for v, p in dist.items() if v < CUT}
    cut = {v - CUT: p for v, p in dist.items() if v >= CUT}
    return Split(damage, sum(cut.values(), Fraction(0)), min(cut) if cut else None)


@dataclass(frozen=True)
class Case:
    """One benchmark case: the encounter (a file's mapping) and the icepool model."""

    name: str
    doc: dict[str, Any]
    model: Model
    max_rolls: int | None = None
    """Depth of exploding dice asked of ``action_odds`` (None: the ruleset's)."""


def fresh(sides: int) -> icepool.Die[int]:
    """A new dNN object (icepool keeps per-object caches; ``icepool.d20`` is shared)."""
    return icepool.Die(range(1, sides + 1))


def cut_explode(sides: int, depth: int) -> icepool.Die[int]:
    """One exploding die, cut after ``depth`` maxima in a row: icepool's ``explode``
    rolls ``depth - 1`` more dice after the first; past the last, ``CUT + 1`` stands for
    the rest (the die that was not rolled shows at least 1), so a cut die reads
    ``CUT + depth * sides + 1``. ``depth`` is 2 or more."""
    return fresh(sides).explode(depth=depth - 1, end=CUT + 1)


def to_dist(die: icepool.Die[int]) -> Dist:
    den = die.denominator()
    return {int(v): Fraction(q, den) for v, q in die.items() if q}


def marginals(joint: icepool.Die[Any], ids: tuple[str, ...]) -> dict[str, Dist]:
    """Per combatant, the marginal of a joint die over tuples of damage."""
    den = joint.denominator()
    out: dict[str, Dist] = {cid: {} for cid in ids}
    for outcome, q in joint.items():
        for cid, v in zip(ids, outcome, strict=True):
            out[cid][int(v)] = out[cid].get(int(v), Fraction(0)) + Fraction(q, den)
    return out


def chebyshev(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


# --- dice-combat -------------------------------------------------------------------------


def pistol_case(bonus: int = 0) -> Case:
    """DC-13 (B): a pistol at 1-5 tiles gets +1 on top of the attack bonus; damage 3
    (1.5). DC-37: natural 20, +1d4 on a hit; DC-38: natural 1 misses; DC-39: the
    defender's natural 1 hits, +1d4; DC-40 they stack; DC-43 ties hit. The ammo d3
    (DC-9) changes no damage."""
    doc = {
        "ruleset": "dice-combat",
        "options": {"revision": "B"},
        "combatants": [
            {"id": "ana", "at": [0, 0], "hand": "pistol", "attack_bonus": bonus},
            {"id": "bo", "at": [3, 0]},
        ],
        "actions": [{"actor": "ana", "do": "attack", "target": "bo"}],
    }
    close, damage = 1 + bonus, 3

    def model() -> dict[str, Dist]:
        d4 = fresh(4)

        def dealt(attack: int, ammo: int, defence: int) -> Any:
            if attack == 1:
                return 0
            if defence != 1 and attack + close < defence:
                return 0
            return damage + (d4 if attack == 20 else 0) + (d4 if defence == 1 else 0)

        return {"bo": to_dist(icepool.map(dealt, fresh(20), fresh(3), fresh(20)))}

    return Case("dice-combat pistol, crits and fumbles", doc, model)


def advantage_case(bonus: int = 1, defend: int = 2) -> Case:
    """DC-G2: advantage is 2d20 keep the higher, the kept die's natural decides crits
    (DC-35); DC-5: two-handed melee deals 3, the defender rolls Defend (close)."""
    doc = {
        "ruleset": "dice-combat",
        "combatants": [
            {"id": "ana", "at": [0, 0], "hand": "greataxe", "attack_bonus": bonus},
            {"id": "bo", "at": [1, 0], "defend_close_bonus": defend},
        ],
        "actions": [{"actor": "ana", "do": "attack", "target": "bo", "edge": "advantage"}],
    }

    def model() -> dict[str, Dist]:
        d4 = fresh(4)
        kept = icepool.highest(fresh(20), fresh(20))

        def dealt(attack: int, defence: int) -> Any:
            if attack == 1:  # DC-38
                return 0
            if defence != 1 and attack + bonus < defence + defend:  # DC-39, DC-43
                return 0
            return 3 + (d4 if attack == 20 else 0) + (d4 if defence == 1 else 0)

        return {"bo": to_dist(icepool.map(dealt, kept, fresh(20)))}

    return Case("dice-combat 2h melee, advantage", doc, model)


MOLOTOV_VICTIMS: tuple[tuple[str, tuple[int, int], int, bool], ...] = (
    ("bo", (8, 0), 0, False),
    ("cy", (8, 1), 1, True),
    ("dee", (9, 0), 0, False),
)
"""id, tile, defend_ranged_bonus, cover: the Molotov's victims (the first ``n``)."""
DIRECTIONS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
"""DC-G12: d8 1 N, 2 NE, 3 E, 4 SE, 5 S, 6 SW, 7 W, 8 NW (N = +y, E = +x)."""


def molotov_case(victims: int = 2, bonus: int = 1) -> Case:
    """P-DC-3: one attack d20 for the thrower; each victim in the 3x3 area (DC-24) rolls
    Defend (ranged) + 2 in cover (DC-32), hit iff fumbled or defence <= attack, 1 HP and
    +1d4 on a fumble (DC-33, DC-39). A natural 1 scatters the centre by 1d3 tiles in one
    of 8 directions (DC-34); the new area's occupants defend against the original
    total. The thrower stands far enough away never to be caught."""
    chosen = MOLOTOV_VICTIMS[:victims]
    doc = {
        "ruleset": "dice-combat",
        "round": 2,
        "combatants": [
            {"id": "ana", "at": [0, 0], "hand": "molotov", "attack_bonus": bonus},
            *(
                {"id": cid, "at": list(at), "defend_ranged_bonus": dr, "cover": cover}
                for cid, at, dr, cover in chosen
            ),
        ],
        "actions": [{"actor": "ana", "do": "throw", "target": chosen[0][0]}],
    }
    ids = tuple(cid for cid, *_ in chosen)
    centre = chosen[0][1]

    def model() -> dict[str, Dist]:
        d4, d20 = fresh(4), fresh(20)

        def one(total: int, defend: int, cover: bool) -> icepool.Die[int]:
            def hurt(defence: int) -> Any:
                if defence == 1:
                    return 1 + d4
                return 1 if defence + defend + 2 * cover <= total else 0

            return icepool.map(hurt, d20)

        def area(total: int, at: tuple[int, int]) -> icepool.Die[Any]:
            parts = [
                one(total, dr, cover) if chebyshev(tile, at) <= 1 else icepool.Die([0])
                for _, tile, dr, cover in chosen
            ]
            return icepool.tupleize(*parts)

        def throw(attack: int) -> Any:
            total = attack + bonus
            if attack != 1:
                return area(total, centre)

            def scatter(distance: int, way: int) -> Any:
                dx, dy = DIRECTIONS[way - 1]
                return area(total, (centre[0] + distance * dx, centre[1] + distance * dy))

            return icepool.map(scatter, fresh(3), fresh(8))

        return marginals(icepool.map(throw, d20), ids)

    return Case(f"dice-combat Molotov, {victims} victims", doc, model)


# --- tier-duel ---------------------------------------------------------------------------


def contest_case(bo_reflex: int = 1, ana_reflex: int = 2) -> Case:
    """TD-1: both roll 1d20 + reflex + weapon skill; TD-2 only the higher deals damage,
    TD-3 a tie deals none; TD-4 damage = diff + body + weapon Tier - (armor + shield
    Tier), floor 0. Both have the other in reach (spear reach 2, sword 1, 1 tile)."""
    doc = {
        "ruleset": "tier-duel",
        "combatants": [
            {
                "id": "ana",
                "at": [1, 0],
                "reflex": ana_reflex,
                "body": 3,
                "skills": {"sword": 3},
                "armor_tier": 1,
                "shield_tier": 1,
                "hand": {"is": "sword", "tier": 2},
            },
            {
                "id": "bo",
                "at": [2, 0],
                "reflex": bo_reflex,
                "body": 2,
                "skills": {"spear": 3},
                "armor_tier": 2,
                "hand": {"is": "spear", "tier": 2},
            },
        ],
        "order": ["bo", "ana"],
        "actions": [{"actor": "bo", "do": "attack", "target": "ana"}],
    }

    def model() -> dict[str, Dist]:
        def dealt(bo: int, ana: int) -> tuple[int, int]:
            b, a = bo + bo_reflex + 3, ana + ana_reflex + 3
            if b > a:
                return (max(0, b - a + 2 + 2 - (1 + 1)), 0)  # to ana, to bo
            if a > b:
                return (0, max(0, a - b + 3 + 2 - 2))
            return (0, 0)

        return marginals(icepool.map(dealt, fresh(20), fresh(20)), ("ana", "bo"))

    return Case("tier-duel melee contest", doc, model)


# --- escalation --------------------------------------------------------------------------


def whelm_case(rating: int = 2, gob_rating: int = 0) -> Case:
    """ES-4, ES-6, ES-7: damage = max(0, Escalation + rating + 5 crit - target rating);
    ES-8, ES-9: a d12 trigger die per target, no effect at or below the failure chance
    (ES-15 size 3 per category, ES-16 partial concealment 3) but ES-10 a 12 always hits
    and ES-11 crits for +5 (ES-14: not when the failure is 12 or more)."""
    doc = {
        "ruleset": "escalation",
        "combatants": [
            {
                "id": "cy",
                "side": "players",
                "at": [0, 2],
                "level": 2,
                "whelm_rating": rating,
                "energy": 1,
                "weapons": [{"is": "whelm", "name": "fireball", "range": 8}],
            },
            {
                "id": "ogre",
                "side": "enemies",
                "at": [1, 1],
                "level": 4,
                "size": "large",
                "max_hp": 30,
                "whelm_rating": 1,
                "weapons": [{"is": "melee", "name": "club"}],
            },
            {
                "id": "gob",
                "side": "enemies",
                "at": [4, 1],
                "size": "small",
                "max_hp": 10,
                "concealment": "partial",
                "whelm_rating": gob_rating,
                "weapons": [{"is": "remote", "name": "sling", "range": 12}],
            },
        ],
        "actions": [{"actor": "cy", "do": "attack", "targets": ["ogre", "gob"]}],
    }
    escalation = 1  # ES-5: 1 as the conflict begins
    targets = {"ogre": (3, 1), "gob": (3 + 3, gob_rating)}  # failure chance, whelm rating

    def model() -> dict[str, Dist]:
        out: dict[str, Dist] = {}
        for cid, (failure, defence) in targets.items():

            def dealt(trigger: int, failure: int = failure, defence: int = defence) -> int:
                if trigger <= failure and trigger != 12:
                    return 0
                crit = 5 if trigger == 12 and failure < 12 else 0
                return max(0, escalation + rating + crit - defence)

            out[cid] = to_dist(icepool.map(dealt, fresh(12)))
        return out

    return Case("escalation Whelm, 2 targets", doc, model)


# --- soak --------------------------------------------------------------------------------


def longsword_case(depth: int = 12, ev: int = 11, av: int = 6) -> Case:
    """P-SK-1: d20 + Agility 3 + Dueling 3 >= EV hits (SK-3), a natural 20 always hits
    with every damage die at its maximum, which then explodes (SK-5); proficient, each
    of the 1d8 and the 1d4 upgrade explodes while it shows its maximum (SK-7); base =
    dice + Dueling 3 + Strength 2 (SK-8); through iff base > AV (SK-12)."""
    doc = {
        "ruleset": "soak",
        "combatants": [
            {
                "id": "mara",
                "at": [0, 0],
                "agility": 3,
                "strength": 2,
                "skills": {"dueling": 3},
                "proficiencies": ["sword"],
                "initiative": 20,
                "weapons": [{"name": "sword", "dice": "1d8", "upgrades": ["1d4"]}],
            },
            {"id": "brute", "at": [1, 0], "ev": ev, "av": av, "max_hp": 30, "initiative": 1},
        ],
        "actions": [{"actor": "mara", "do": "attack", "target": "brute"}],
    }

    def model() -> dict[str, Dist]:
        rolled = cut_explode(8, depth) + cut_explode(4, depth)
        # SK-5: on a crit each die shows its maximum (not rolled, so not counted in the
        # depth) and explodes from there: a die rolled exploding, plus its maximum.
        maxed = (8 + cut_explode(8, depth)) + (4 + cut_explode(4, depth))

        def through(dice: int) -> int:
            cut = dice >= CUT
            base = dice % CUT + 3 + 2
            hurt = base - av if base > av else 0
            return CUT + hurt if cut else hurt

        def attack(d20: int) -> Any:
            if d20 == 20:
                return icepool.map(through, maxed)
            if d20 + 3 + 3 < ev:
                return 0
            return icepool.map(through, rolled)

        return {"brute": to_dist(icepool.map(attack, fresh(20)))}

    return Case("soak longsword, exploding upgrade", doc, model, max_rolls=depth)


# --- wasteland ---------------------------------------------------------------------------


def _dr(amount: int, dr: int) -> int:
    return amount * (100 - dr) // 100  # WL-14, WL-G12: floor


def _cut_dr(pre: int, dr: int) -> int:
    """DR on a pre-DR total that may carry the CUT marker (its lower bound below CUT)."""
    if pre >= CUT:
        return CUT + _dr(pre - CUT, dr)
    return _dr(pre, dr)


def pistol_crit_case(depth: int = 24, agi: int = 2, evasion_agi: int = 3) -> Case:
    """P-WL-1: d20 + AGI + guns 2 must exceed Evasion 10 + AGI (WL-6..8); natural 1
    misses (WL-10), natural 20 hits and adds the exploding 1d6 CRIT die, bypassing DT
    (WL-9); damage 1d6 - DT 1 (floor 0, WL-14) + CRIT, then DR 10% floored. Every limb has
    the same DT and there is no cover, so the location d20 changes nothing."""
    doc = {
        "ruleset": "wasteland",
        "order": ["a", "b"],
        "combatants": [
            {
                "id": "a",
                "at": [0, 0],
                "agi_mod": agi,
                "skills": {"guns": 2},
                "weapons": [{"name": "pistol", "damage": "1d6", "crit_dice": "1d6", "ap": 4}],
            },
            {
                "id": "b",
                "at": [3, 0],
                "agi_mod": evasion_agi,
                "dt": {"physical": 1},
                "dr": {"physical": 10},
            },
        ],
        "actions": [{"actor": "a", "do": "attack", "target": "b"}],
    }
    evasion = 10 + evasion_agi

    def model() -> dict[str, Dist]:
        crit_die = cut_explode(6, depth)

        def shot(natural: int, damage: int, crit: int) -> int:
            if natural == 1 or (natural != 20 and natural + agi + 2 <= evasion):
                return 0
            return _cut_dr(max(0, damage - 1) + (crit if natural == 20 else 0), 10)

        return {"b": to_dist(icepool.map(shot, fresh(20), fresh(6), crit_die))}

    return Case("wasteland pistol, exploding CRIT", doc, model, max_rolls=depth)


def grenade_case(depth: int = 24, per: int = 1) -> Case:
    """P-WL-3: a throw d20 + PER + explosives skill must exceed the Throw Difficulty 10
    (WL-27, WL-G8; natural 1 fails, 20 succeeds with the exploding CRIT 1d6); the damage
    2d6 is rolled once for the blast (PROPOSED), each creature in the radius 1 takes
    DR(max(0, damage - total DT) + CRIT): total DT = 6 limbs x DT."""
    doc = {
        "ruleset": "wasteland",
        "order": ["a", "b", "c"],
        "combatants": [
            {
                "id": "a",
                "at": [0, 0],
                "per_mod": per,
                "skills": {"explosives": 3},
                "weapons": [
                    {"name": "grenade", "kind": "explosive", "damage": "2d6", "ap": 4, "count": 2}
                ],
            },
            {"id": "b", "at": [4, 0]},
            {"id": "c", "at": [4, 1], "dt": {"physical": 1}, "dr": {"physical": 20}},
        ],
        "actions": [{"actor": "a", "do": "throw", "target": "b"}],
    }
    victims = {"b": (0, 0), "c": (6, 20)}  # total DT, DR

    def model() -> dict[str, Dist]:
        crit_die = cut_explode(6, depth)
        damage = fresh(6) + fresh(6)

        def blast(natural: int, dice: int, crit: int) -> tuple[int, ...]:
            if natural == 1 or (natural != 20 and natural + per + 3 <= 10):
                return (0, 0)
            extra = crit if natural == 20 else 0
            return tuple(_cut_dr(max(0, dice - dt) + extra, dr) for dt, dr in victims.values())

        joint = icepool.map(blast, fresh(20), damage, crit_die)
        return marginals(joint, tuple(victims))

    return Case("wasteland grenade, 2 victims", doc, model, max_rolls=depth)


CASES: tuple[Callable[[], Case], ...] = (
    pistol_case,
    advantage_case,
    molotov_case,
    contest_case,
    pistol_crit_case,
    grenade_case,
    whelm_case,
    longsword_case,
)
"""The cases icepool can model, in the benchmark's order, at their full size."""


# --- the named cases, timed only (no icepool model) --------------------------------


def _wasteland(weapon: dict[str, Any], *others: dict[str, Any]) -> dict[str, Any]:
    """A wasteland attacker with ``weapon`` and its targets (the last action's)."""
    return {
        "ruleset": "wasteland",
        "seed": 1,
        "order": ["a", *(o["id"] for o in others)],
        "combatants": [
            {
                "id": "a",
                "at": [0, 0],
                "per_mod": 1,
                "skills": {"guns": 2, "melee": 2, "explosives": 2},
                "weapons": [weapon],
            },
            *others,
        ],
    }


def _attack(doc: dict[str, Any], **action: Any) -> dict[str, Any]:
    return {**doc, "actions": [{"actor": "a", "do": "attack", "target": "b", **action}]}


RIFLE = {"name": "rifle", "damage": "2d6", "crit_dice": "1d6", "accuracy": 1, "ap": 5}
HAMMER = {"name": "hammer", "kind": "melee", "hands": 2, "damage": "2d8", "ap": 4}
FRAG = {"name": "frag", "kind": "explosive", "damage": "3d6", "ap": 4, "count": 1}
SMG = {"name": "smg", "damage": "1d6", "ap": 3, "burst": 3}
HOMEBREW = {"name": "minigun", "damage": "1d6", "ap": 3, "burst": 50}
TARGET_B = {"id": "b", "at": [3, 0], "agi_mod": 1, "dt": {"physical": 1}}

MOLOTOV3: dict[str, Any] = {  # one throw, three in the blast
    "ruleset": "dice-combat",
    "round": 2,
    "seed": 1,
    "combatants": [
        {"id": "ana", "at": [0, 0], "hand": "molotov"},
        {"id": "bo", "at": [3, 0]},
        {"id": "cy", "at": [3, 1]},
        {"id": "dee", "at": [4, 0]},
    ],
    "actions": [{"actor": "ana", "do": "throw", "target": "bo"}],
}


@dataclass(frozen=True)
class Named:
    """One of the issue's named cases: the encounter, its target and the time budget."""

    name: str
    doc: dict[str, Any]
    target: float
    """The issue's target, seconds ("Done when")."""
    budget: float | None = None
    """The odds request's time budget (None: the default, 5 s)."""


def named() -> tuple[Named, ...]:
    located = {"location:1": 5, "location:2": 3, "location:3": 1}
    longsword = longsword_case().doc
    frag = {
        **_wasteland(FRAG, {"id": "b", "at": [4, 0]}, {"id": "c", "at": [4, 1]},
                     {"id": "d", "at": [5, 1], "dt": {"physical": 1}}),
        "actions": [{"actor": "a", "do": "throw", "target": "b"}],
    }  # fmt: skip
    return (
        Named("wasteland 2d6 single shot", _attack(_wasteland(RIFLE, TARGET_B)), 0.05),
        Named(
            "wasteland 2d8 melee hit",
            _attack(_wasteland(HAMMER, {**TARGET_B, "at": [1, 0]})),
            0.05,
        ),
        Named("wasteland frag grenade on 3", frag, 0.05),
        Named(
            "wasteland 3-shot burst, located",
            _attack(_wasteland(SMG, TARGET_B), burst=True, dice=located),
            1.0,
        ),
        Named("wasteland free 3-shot burst", _attack(_wasteland(SMG, TARGET_B), burst=True), 1.0),
        Named("dice-combat Molotov on 3", MOLOTOV3, 0.1),
        Named(
            "soak longsword, disadvantage",
            {**longsword, "actions": [{**longsword["actions"][0], "disadvantage": True}]},
            0.05,
        ),
        Named(
            "wasteland 50-shot burst, 1 s",
            _attack(_wasteland(HOMEBREW, TARGET_B), burst=True),
            1.0,
            budget=1.0,
        ),
    )


# --- timed as the command gives them (issue 20, item 9) ----------------------------------

FRAG_ON_THREE: dict[str, Any] = {
    **_wasteland(FRAG, {"id": "b", "at": [4, 0]}, {"id": "c", "at": [4, 1], "dt": {"physical": 2}},
                 {"id": "d", "at": [5, 1], "dt": {"physical": 1}}),
    "actions": [{"actor": "a", "do": "throw", "target": "b"}],
}  # fmt: skip
"""A frag grenade on three victims of three total DTs (0, 12, 6): 1,263 dice paths."""


@dataclass(frozen=True)
class Command:
    """A case timed as ``fracas odds FILE --json`` gives it, less ``fracas run FILE
    --json`` of the same file: the odds with all the command does around them."""

    name: str
    doc: dict[str, Any]
    budget: float | None = None
    """The issue's budget, seconds (None: compared with icepool instead)."""
    model: Model | None = None
    """icepool's model of the same distribution, to time beside it."""
    aim: float | None = None
    """How many times faster than icepool the issue aims at."""


def commands() -> tuple[Command, ...]:
    pistol = pistol_case()
    return (
        Command("wasteland frag grenade on 3", FRAG_ON_THREE, budget=0.05),
        Command("dice-combat pistol", pistol.doc, model=pistol.model, aim=3.0),
    )
