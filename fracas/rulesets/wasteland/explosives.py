"""Explosives (wasteland.md WL-27, WL-28, P-WL-3): a throw at a tile against the Throw
Difficulty; on success every creature within the blast radius takes the damage, less
its total DT, split evenly across its limbs' Cripple Thresholds."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from fracas.dice.pools import Faces, Joint, Part, Pool, roll_joint, roll_pool, total
from fracas.dice.source import Dice
from fracas.errors import Refusal
from fracas.model import Action, Attempted, Encounter, Event
from fracas.model.grid import Tile, chebyshev
from fracas.rulesets.base import Decision, Rules, sheet_as
from fracas.rulesets.wasteland.attack import check_actor, find_weapon, pay
from fracas.rulesets.wasteland.damage import Victim, blast, dr_of, victim
from fracas.rulesets.wasteland.data import D20
from fracas.rulesets.wasteland.events import APSpent, CritRolled, ExplosiveUsed, ThrowRolled
from fracas.rulesets.wasteland.sheet import Options, Sheet
from fracas.rulesets.wasteland.stats import PEEKING
from fracas.rulesets.wasteland.weapons import Weapon, dice_spec, roll_crit, roll_damage

__all__ = ["Throw", "decide_throw", "roll_throw"]


@dataclass(frozen=True, slots=True)
class Throw(Decision):
    """A decided throw (WL-27): the explosive, the tile, the roll's modifiers, the
    creatures within the blast radius (in file order, the thrower included)."""

    actor: str
    index: int
    weapon: Weapon
    tile: Tile
    spend: int
    debt: int
    parts: tuple[tuple[str, int], ...]
    crit_min: int
    critfail_max: int
    victims: tuple[Victim, ...]
    draws: Draws
    """How its dice are drawn: what the throw's d20 decides, the blast's dice."""
    made: Made
    """Its events that no die changes but the d20, made once."""

    def roll(self, rules: Rules[Options], state: Encounter, dice: Dice) -> list[Event]:
        return roll_throw(self, dice, rules.options)


@dataclass(frozen=True, slots=True)
class Made:
    """A throw's events that no die changes, or only its d20 (P-WL-3): made once with the
    decision, read on every dice path of the exact odds."""

    head: tuple[Event, ...]
    """The AP spent and the explosive used."""
    rolled: tuple[tuple[ThrowRolled, str], ...]
    """Per natural (1 to 20): the throw's event and its result."""
    attempts: tuple[tuple[Attempted, ...], tuple[Attempted, ...]]
    """Every victim's attempt, failed and succeeded."""


def _made(actor: str, index: int, weapon: Weapon, tile: Tile, spend: int, debt: int,
          parts: tuple[tuple[str, int], ...], victims: tuple[Victim, ...],
          thrown: Thrown) -> Made:  # fmt: skip
    head = (APSpent(actor, spend, debt), ExplosiveUsed(actor, index))
    rolled = []
    for natural in range(1, D20 + 1):
        result = thrown(((natural,),))
        rolled.append((ThrowRolled(actor, weapon.name, tile, natural, parts,
                                   natural + thrown.bonus, weapon.throw_difficulty, result),
                       result))  # fmt: skip
    attempts = tuple(tuple(Attempted(actor, v.id, landed) for v in victims)
                     for landed in (False, True))  # fmt: skip
    return Made(head, tuple(rolled), (attempts[0], attempts[1]))


@dataclass(frozen=True, slots=True)
class Draws:
    """A throw's dice as pools (decided once): the d20's class (:class:`Thrown`), the
    damage dice, and the damage and CRIT dice together, classed by :class:`Blasted`."""

    thrown: Thrown
    damage: Joint
    with_crit: Joint
    blasted: Blasted


def _draws(weapon: Weapon, parts: tuple[tuple[str, int], ...], crit_min: int,
           critfail_max: int, victims: tuple[Victim, ...], options: Options) -> Draws:  # fmt: skip
    overlap, exceed = options.crit_overlap == "critfail", options.throw_compare == "exceed"
    bonus = sum(v for _, v in parts)
    thrown = Thrown(bonus, weapon.throw_difficulty, crit_min, critfail_max, overlap, exceed)
    spec = dice_spec(weapon.damage)
    damage = Part(Pool(spec.sides), "damage")
    crit = Part(Pool(dice_spec(weapon.crit_dice).sides, "repeat"), "crit")
    stops = tuple((v.attenuation + v.total_dt, v.dr) for v in victims)
    blasted = Blasted(spec.flat, stops, options.dr_rounding)
    return Draws(thrown, Joint((damage,)), Joint((damage, crit)), blasted)


def decide_throw(state: Encounter, action: Action, options: Options) -> Throw:
    """2.5 ``throw``: refusals in the table's order, then what the throw needs."""
    actor = state.get(action.actor)
    check_actor(state, actor, own_turn=True)
    index, weapon = find_weapon(actor, action.params.get("weapon"))
    spend, debt = pay(actor, weapon.ap, weapon, options)
    target = state.get(action.target) if action.target is not None else None
    tile = action.at if action.at is not None else (target.at if target is not None else None)
    if actor.at is None or tile is None:
        who = actor.id if actor.at is None else action.target
        raise Refusal("no_position", f"{who!r} has no position (`at`) on the map")
    if weapon.kind != "explosive" or index is None:  # WL-27
        raise Refusal("not_explosive", f"the {weapon.name} is not an explosive: `attack` with it")
    if weapon.count <= 0:
        raise Refusal("none_left", f"{actor.id!r} has no {weapon.name} left")
    assert weapon.range is not None
    reach = options.range_tiles[weapon.range]
    distance = chebyshev(actor.at, tile)
    if distance > reach:  # WL-35
        raise Refusal(
            "out_of_range",
            f"[{tile[0]}, {tile[1]}] is {distance} tiles away; the {weapon.name} reaches {reach}",
        )
    sheet = sheet_as(actor, Sheet)
    full = sheet.cover is not None and sheet.cover.type == "full"
    if full and PEEKING not in actor.statuses and not action.params.get("clear_shot"):
        raise Refusal(  # WL-32
            "must_peek", f"{actor.id!r} is in full cover: `peek` first, or say `clear_shot: true`"
        )
    parts = (
        (weapon.special_name, getattr(sheet, f"{weapon.special_name}_mod")),
        (weapon.skill_name, sheet.skills.get(weapon.skill_name, 0)),
        ("accuracy", weapon.accuracy),
        ("modifier", int(action.params.get("accuracy_mod", 0))),
    )
    victims = tuple(
        victim(c, weapon, options)
        for c in state.combatants.values()  # in file order, the thrower included
        if c.at is not None and chebyshev(c.at, tile) <= weapon.blast_radius
    )
    draws = _draws(weapon, parts, sheet.crit_min, sheet.critfail_max, victims, options)
    made = _made(actor.id, index, weapon, tile, spend, debt, parts, victims, draws.thrown)
    return Throw(actor.id, index, weapon, tile, spend, debt, parts, sheet.crit_min,
                 sheet.critfail_max, victims, draws, made)  # fmt: skip


def roll_throw(throw: Throw, dice: Dice, options: Options) -> list[Event]:
    """P-WL-3: the throw's d20, then the blast on every creature in its radius."""
    weapon, draws, made = throw.weapon, throw.draws, throw.made
    ((natural,),) = roll_pool(dice, D20_POOL, "attack", key=draws.thrown)
    rolled, result = made.rolled[natural - 1]
    success = result in ("hit", "crit")
    events: list[Event] = [*made.head, rolled, *made.attempts[success]]
    if not success:
        return events  # WL-G8: a miss does nothing
    damage = 0
    crit = 0
    crits = result == "crit" and options.explosive_crits
    if options.explosive_roll_once:  # the damage, then the CRIT dice: one draw
        key = draws.blasted
        drawn = roll_joint(dice, draws.with_crit if crits else draws.damage, key=key)
        damage = max(0, total(drawn[0]) + key.flat)
        if crits:
            faces = sum(drawn[1], ())
            crit = sum(faces)
            events.append(CritRolled(faces, crit))
    elif crits:
        crit, faces = roll_crit(weapon.crit_dice, dice)
        events.append(CritRolled(faces, crit))
    for v in throw.victims:
        if not options.explosive_roll_once:
            damage, _ = roll_damage(weapon.damage, dice, of=v.id)
        events += blast(v, weapon, damage, crit, options)
    return events


D20_POOL = Pool((D20,))


@dataclass(frozen=True, slots=True)
class Thrown:
    """WL-27, WL-G8: a throw's result, the class of its d20: CRITFAIL fails, CRIT
    succeeds; else the total must exceed (option: meet) the Throw Difficulty."""

    bonus: int
    difficulty: int
    crit_min: int
    critfail_max: int
    overlap_critfail: bool
    exceed: bool

    def __call__(self, faces: Faces) -> str:
        natural = faces[0][0]
        critfail, crit = natural <= self.critfail_max, natural >= self.crit_min
        if critfail and crit:  # WL-G4
            critfail = self.overlap_critfail
            crit = not critfail
        if critfail:
            return "critfail"
        if crit:
            return "crit"
        total = natural + self.bonus
        success = total > self.difficulty if self.exceed else total >= self.difficulty
        return "hit" if success else "miss"


@dataclass(frozen=True, slots=True)
class Blasted:
    """The class of a blast's damage and CRIT dice (P-WL-3): all :func:`blast` reads of
    them is each victim's final damage, ``DR(max(0, damage - attenuation - total DT) +
    CRIT)``."""

    flat: int
    victims: tuple[tuple[int, int], ...]
    """Per victim: attenuation + total DT, DR."""
    rounding: str
    reads_totals: ClassVar[bool] = True
    """It reads the damage dice's total and the CRIT dice's, nothing else of their faces
    (``fracas.dice.pools.reads_totals``)."""

    def __call__(self, faces: tuple[Faces, ...]) -> tuple[int, ...]:
        damage = max(0, total(faces[0]) + self.flat)
        crit = total(faces[1]) if len(faces) > 1 else 0
        return tuple(
            dr_of(max(0, damage - stop) + crit, dr, self.rounding) for stop, dr in self.victims
        )
