"""soak's rolls: the attack d20 (edges), exploding damage dice, soak and additional damage.

Pure functions of the options, the inputs and the dice source; ``rules.py`` turns
their results into events. Roll order (P-SK-1): attack d20(s), base damage dice
(each explosion right after the die that exploded), additional dice.
"""

from __future__ import annotations

from dataclasses import dataclass

from fracas.dice.source import Dice
from fracas.rulesets.soak.events import Die
from fracas.rulesets.soak.sheet import Options
from fracas.rulesets.soak.tables import D20, EDGE_KEEP, FULL_PERCENT

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


def roll_d20(dice: Dice, edge: str | None) -> tuple[tuple[int, ...], int]:
    """SK-2, SK-10: one d20, or two with an edge; the kept die is the natural."""
    if edge is None:
        natural = dice.roll(D20, "attack")
        return (natural,), natural
    first, second = dice.roll(D20, "attack"), dice.roll(D20, "attack")
    return (first, second), EDGE_KEEP[edge](first, second)


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
    out: list[Die] = []
    repeat = options.explode == "repeat"
    for sides in sizes:
        face = sides if at_max else dice.roll(sides, label)
        faces = [face]
        if explodes:
            while face == sides:
                face = dice.roll(sides, label)
                faces.append(face)
                if not repeat:
                    break
        out.append(Die(sides, tuple(faces), at_max))
    return tuple(out)


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
