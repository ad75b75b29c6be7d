"""Explosives (wasteland.md WL-27, WL-28, P-WL-3): a throw at a tile against the Throw
Difficulty; on success every creature within the blast radius takes the damage, less
its total DT, split evenly across its limbs' Cripple Thresholds."""

from __future__ import annotations

from dataclasses import dataclass

from fracas.dice.source import Dice
from fracas.errors import Refusal
from fracas.grid import Tile, chebyshev
from fracas.model import Action, Attempted, Encounter, Event
from fracas.rulesets.base import sheet_as
from fracas.rulesets.wasteland.attack import check_actor, find_weapon, pay
from fracas.rulesets.wasteland.events import APSpent, CritRolled, ExplosiveUsed, ThrowRolled
from fracas.rulesets.wasteland.harm import Victim, blast, victim
from fracas.rulesets.wasteland.sheet import Options, Sheet
from fracas.rulesets.wasteland.stats import PEEKING
from fracas.rulesets.wasteland.tables import D20
from fracas.rulesets.wasteland.weapons import Weapon, roll_crit, roll_damage

__all__ = ["Throw", "decide_throw", "roll_throw"]


@dataclass(frozen=True, slots=True)
class Throw:
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
    return Throw(actor.id, index, weapon, tile, spend, debt, parts, sheet.crit_min,
                 sheet.critfail_max, victims)  # fmt: skip


def roll_throw(throw: Throw, dice: Dice, options: Options) -> list[Event]:
    """P-WL-3: the throw's d20, then the blast on every creature in its radius."""
    weapon = throw.weapon
    events: list[Event] = [
        APSpent(throw.actor, throw.spend, throw.debt),
        ExplosiveUsed(throw.actor, throw.index),
    ]
    natural = dice.roll(D20, "attack")
    total = natural + sum(v for _, v in throw.parts)
    result = _result(natural, total, weapon.throw_difficulty, throw.crit_min,
                     throw.critfail_max, options)  # fmt: skip
    events.append(ThrowRolled(throw.actor, weapon.name, throw.tile, natural, throw.parts, total,
                              weapon.throw_difficulty, result))  # fmt: skip
    success = result in ("hit", "crit")
    events += [Attempted(throw.actor, v.id, success) for v in throw.victims]
    if not success:
        return events  # WL-G8: a miss does nothing
    damage = 0
    if options.explosive_roll_once:
        damage, _ = roll_damage(weapon.damage, dice)
    crit = 0
    if result == "crit" and options.explosive_crits:
        crit, faces = roll_crit(weapon.crit_dice, dice)
        events.append(CritRolled(faces, crit))
    for v in throw.victims:
        if not options.explosive_roll_once:
            damage, _ = roll_damage(weapon.damage, dice, of=v.id)
        events += blast(v, weapon, damage, crit, options)
    return events


def _result(
    natural: int, total: int, difficulty: int, crit_min: int, critfail_max: int, options: Options
) -> str:
    """WL-27, WL-G8: CRITFAIL fails, CRIT succeeds; else the total must exceed (option:
    meet) the Throw Difficulty."""
    critfail, crit = natural <= critfail_max, natural >= crit_min
    if critfail and crit:  # WL-G4
        critfail = options.crit_overlap == "critfail"
        crit = not critfail
    if critfail:
        return "critfail"
    if crit:
        return "crit"
    success = total > difficulty if options.throw_compare == "exceed" else total >= difficulty
    return "hit" if success else "miss"
