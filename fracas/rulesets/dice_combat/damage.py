"""The rolls and damage every dice-combat attack shares (DC-35 to DC-44): the d20 with an edge, the
critical profiles, a defender's Defend roll and the damage with its extra d4s."""

from __future__ import annotations

from dataclasses import dataclass

from fracas.dice.pools import Faces, Pool, keep_highest, keep_lowest, roll_pool
from fracas.dice.source import Dice
from fracas.model import Damaged
from fracas.rulesets.dice_combat.data import COVER_BONUS, CRIT_DIE, CRIT_PROFILES
from fracas.rulesets.dice_combat.events import DefenceRolled
from fracas.rulesets.dice_combat.sheet import Options, Sheet

__all__ = [
    "D20",
    "EDGE",
    "KEEP",
    "Defends",
    "Guard",
    "Parts",
    "critical",
    "damage",
    "defend",
    "defended",
    "guard",
    "roll_d20",
]

Parts = tuple[tuple[str, int], ...]


EDGE = Pool((20, 20))
"""DC-35: an edge rolls two d20s, drawn as one (the kept die decides)."""
KEEP = {"advantage": keep_highest, "disadvantage": keep_lowest}
D20 = Pool((20,))


def roll_d20(
    dice: Dice, label: str, edge: str | None, of: str | None = None
) -> tuple[tuple[int, ...], int]:
    """DC-G2, DC-35: one d20, or two with an edge; the kept die is the natural."""
    if edge is None:
        natural = dice.roll(20, label, of=of)
        return (natural,), natural
    keep = KEEP[edge]
    faces = roll_pool(dice, EDGE, label, of=of, key=keep)
    return (faces[0][0], faces[1][0]), keep(faces)


@dataclass(frozen=True, slots=True)
class Defends:
    """What a Defend roll decides (DC-39, DC-43), as the class of its d20s: whether the
    attack lands and whether the defender fumbled. Faces that decide the same are one
    branch of the exact odds."""

    against: int
    bonus: int
    failure: frozenset[int]
    ties_hit: bool
    edge: str | None

    def __call__(self, faces: Faces) -> tuple[bool, bool]:
        natural = KEEP[self.edge](faces) if self.edge is not None else faces[0][0]
        fumbled = natural in self.failure
        total = natural + self.bonus
        return fumbled or self.against > total or (self.ties_hit and self.against == total), fumbled


def critical(profile: str, natural: int) -> str | None:
    """DC-36: ``success``, ``failure`` or None for a natural under a critical profile."""
    crits = CRIT_PROFILES[profile]
    if natural in crits.success:
        return "success"
    if natural in crits.failure:
        return "failure"
    return None


@dataclass(frozen=True, slots=True)
class Guard:
    """What a defender adds to its Defend roll (DC-43), known before any die."""

    target: str
    ranged: bool
    parts: Parts
    bonus: int
    crit: str
    """The defender's critical profile (its fumbles, DC-39)."""


def guard(
    target: str, sheet: Sheet, ranged: bool, options: Options, *, explosive: bool = False
) -> Guard:
    """The Defend (close or ranged) of ``target`` against an attack (DC-5, DC-16, DC-32):
    its modifiers (DC-43: bonus, cover) and their sum."""
    parts: list[tuple[str, int]] = []
    bonus = sheet.defend_ranged_bonus if ranged else sheet.defend_close_bonus
    if bonus:
        parts.append(("bonus", bonus))
    if ranged and sheet.cover and (explosive or options.cover_all_ranged):
        parts.append(("cover", COVER_BONUS))  # DC-32, DC-G8
    return Guard(target, ranged, tuple(parts), sum(v for _, v in parts), sheet.crit)


def defend(
    g: Guard, dice: Dice, against: int, edge: str | None = None, *, ties_hit: bool = True
) -> DefenceRolled:
    """The defender's roll against the attack total ``against``: a fumble always hits (DC-39),
    else the attack lands above the defence, or on a tie when ties hit (DC-43)."""
    decides = Defends(against, g.bonus, CRIT_PROFILES[g.crit].failure, ties_hit, edge)
    faces = roll_pool(dice, EDGE if edge is not None else D20, "defend", of=g.target, key=decides)
    return defended(g, faces, decides)


def defended(g: Guard, faces: Faces, decides: Defends) -> DefenceRolled:
    """The Defend roll of ``g`` that showed ``faces``, as ``decides`` reads them."""
    edge = decides.edge
    naturals = tuple(f for (f,) in faces)
    natural = KEEP[edge](faces) if edge is not None else naturals[0]
    total = natural + g.bonus
    hit, fumbled = decides(faces)
    return DefenceRolled(
        g.target,
        "ranged" if g.ranged else "close",
        naturals,
        natural,
        g.parts,
        total,
        fumbled,
        hit,
    )


def damage(target: str, base: int, crit: bool, fumbled: bool, dice: Dice) -> Damaged:
    """DC-44: base + crit d4 (DC-37) + fumble d4 (DC-39); they stack (DC-40)."""
    amount, why = base, [f"{base} base"]
    if crit:
        extra = CRIT_DIE.roll(dice, "crit")
        amount += extra
        why.append(f"{extra} critical")
    if fumbled:
        extra = CRIT_DIE.roll(dice, "fumble", of=target)
        amount += extra
        why.append(f"{extra} fumble")
    return Damaged(target, amount, " + ".join(why))
