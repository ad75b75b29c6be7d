"""soak's rolls: the attack d20 (edges), exploding damage dice, soak and additional damage.

Pure functions of the options, the inputs and the dice source; ``rules.py`` turns
their results into events. Roll order (P-SK-1): attack d20(s), base damage dice
(each explosion right after the die that exploded), additional dice.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass

from fracas.dice.pools import Faces, Pool, roll_pool, total
from fracas.dice.source import Dice
from fracas.rulesets.soak.data import (
    COMPARE,
    CRIT_NATURAL,
    D20,
    EDGE_KEEP,
    FULL_PERCENT,
    FUMBLE_NATURAL,
)
from fracas.rulesets.soak.events import Die
from fracas.rulesets.soak.sheet import Options

__all__ = [
    "Soak",
    "additional_amount",
    "edge_of",
    "first_max",
    "roll_d20",
    "roll_dice",
    "soak",
]


def edge_of(advantage: bool, disadvantage: bool, options: Options) -> str | None:
    """SK-10, SK-G1: the edge of an attack; both cancel (option ``edges_cancel``), or
    disadvantage prevails."""
    if advantage and disadvantage:
        return None if options.edges_cancel else "disadvantage"
    if advantage:
        return "advantage"
    return "disadvantage" if disadvantage else None


@dataclass(frozen=True, slots=True)
class Hits:
    """What the attack d20 decides (SK-3 to SK-6): (critical, hit), as the class of its
    faces: faces that decide the same are one branch of the exact odds."""

    edge: str | None
    bonus: int
    need: int
    compare: str
    natural_1_misses: bool

    def natural(self, faces: Faces) -> int:
        if self.edge is None:
            return faces[0][0]
        return EDGE_KEEP[self.edge](faces[0][0], faces[1][0])

    def __call__(self, faces: Faces) -> tuple[bool, bool]:
        natural = self.natural(faces)
        if natural == CRIT_NATURAL:  # SK-5: an automatic hit
            return True, True
        if natural == FUMBLE_NATURAL and self.natural_1_misses:  # SK-6 option
            return False, False
        return False, COMPARE[self.compare](natural + self.bonus, self.need)  # SK-3, SK-4


def roll_d20(dice: Dice, hits: Hits) -> tuple[tuple[int, ...], int]:
    """SK-2, SK-10: one d20, or two with an edge, drawn as one; the kept die is the
    natural."""
    pool = D20_POOL if hits.edge is None else EDGE_POOL
    faces = roll_pool(dice, pool, "attack", key=hits)
    return tuple(f for (f,) in faces), hits.natural(faces)


D20_POOL = Pool((D20,))
EDGE_POOL = Pool((D20, D20))


def roll_dice(
    dice: Dice,
    label: str,
    sizes: tuple[int, ...],
    *,
    explodes: bool,
    at_max: bool,
    options: Options,
) -> tuple[Die, ...]:
    """SK-5, SK-7, SK-A4, SK-A5: each die in order, its explosions right after it.

    ``at_max`` (a critical hit): the die counts as its maximum without a roll.
    ``explodes`` (proficiency): a die at its maximum is rolled again and added, again
    while the maximum repeats (option ``explode: once``: a single extra roll).
    """
    if at_max and not explodes:
        return tuple(Die(sides, (sides,), True) for sides in sizes)
    if at_max:  # each die counts as its maximum and explodes from there
        again = "repeat" if options.explode == "repeat" else None  # "once": one more roll
        # One draw classed by the total: the first die is at its maximum whatever the
        # rolls (SK-14's wound), so the total is all the rest of the attack reads.
        chains = roll_pool(dice, Pool(sizes, again), label, key=total)
        return tuple(Die(s, (s, *chain), True) for s, chain in zip(sizes, chains, strict=True))
    pool = Pool(sizes, options.explode if explodes else None)
    faces = roll_pool(dice, pool, label, key=Amount(sizes))
    return tuple(Die(sides, chain, False) for sides, chain in zip(sizes, faces, strict=True))


@dataclass(frozen=True, slots=True)
class Amount:
    """What soak reads of a pool of damage dice of these sizes: the total, and whether a
    die showed its maximum (SK-14's wound; which die did only names it in the log)."""

    sizes: tuple[int, ...]

    def __call__(self, faces: Faces) -> tuple[int, bool]:
        # per die, ``sides in chain``: one pass in C (the exact odds call this per draw)
        return sum(map(sum, faces)), any(map(operator.contains, faces, self.sizes))


def first_max(dice: tuple[Die, ...]) -> str | None:
    """SK-14: the first die (an explosion roll included) that showed its maximum, as
    ``d8``; None when none did."""
    for d in dice:
        if d.sides in d.faces:
            return f"a d{d.sides}"
    return None


@dataclass(frozen=True, slots=True)
class Soak:
    """SK-12, SK-13: what the armor does to the base damage."""

    through: bool
    damage: int
    av_after: int


def soak(base: int, av: int, options: Options) -> Soak:
    """SK-12, SK-A2: through iff base > AV (option ``soak_equal: erodes``: base = AV gets 0
    through and erodes); SK-13: AV -1 when through, never below ``av_floor``."""
    through = base > av or (base == av and options.soak_equal == "erodes")
    if not through:
        return Soak(False, 0, av)
    eroded = av - 1 if av - 1 >= options.av_floor else av
    return Soak(True, base - av, eroded)


def additional_amount(
    rolled: int, material: str | None, damage_type: str, av: int, options: Options
) -> tuple[int, int, int]:
    """SK-16, SK-G3, SK-G8: (percent, AV subtracted, amount taken).

    The percent of the target's armor material against the damage type applies
    first (floor); option ``additional_vs_av: soak`` then subtracts the current AV
    (never below 0, never eroding it).
    """
    percent = FULL_PERCENT
    if material is not None:
        percent = options.material_percent.get(f"{material}/{damage_type}", FULL_PERCENT)
    amount = rolled * percent // FULL_PERCENT
    soaked = min(av, amount) if options.additional_vs_av == "soak" else 0
    return percent, soaked, amount - soaked
