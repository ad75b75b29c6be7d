"""dice-combat's attacks and throws: every check before the dice (``decide_attack``), then
a melee or gun attack (P-DC-1) or a weapon throw (P-DC-2) rolled (``roll_strike``).
Explosives are decided here too and rolled in ``explosives.py`` (P-DC-3)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from fracas.dice.source import Dice
from fracas.errors import Refusal
from fracas.model import Action, ActionUsed, Attempted, Combatant, Encounter, Event, TurnOver
from fracas.model.grid import Tile
from fracas.rulesets.base import Decision, Rules, sheet_as
from fracas.rulesets.dice_combat.damage import Guard, Parts, critical, damage, defend, guard
from fracas.rulesets.dice_combat.damage import roll_d20 as d20
from fracas.rulesets.dice_combat.data import (
    BAND_INDEX,
    CLASSES,
    GROUP_TRAITS,
    THROW,
    band,
)
from fracas.rulesets.dice_combat.events import (
    AmmoFired,
    AttackRolled,
    CriticalFailure,
    StaysInHand,
)
from fracas.rulesets.dice_combat.explosives import Blast, blast
from fracas.rulesets.dice_combat.items import Item, gun_group, weapon_class
from fracas.rulesets.dice_combat.sheet import Options, Sheet

__all__ = ["Strike", "decide_attack", "roll_strike", "tiles"]


@dataclass(frozen=True, slots=True)
class Strike(Decision):
    """A decided melee attack, gun attack or weapon throw: everything but the dice."""

    tile_too: ClassVar[bool] = False
    """Decided only where the hand holds no explosive: at a tile the same action is
    refused (``tile_needs_explosive``, DC-31)."""

    actor: str
    target: str
    how: str
    """What the log says the actor does (``AttackRolled.how``)."""
    edge: str | None
    parts: Parts
    bonus: int
    crit: str
    """The attacker's critical profile (DC-36)."""
    guard: Guard
    defend_edge: str | None
    ties_hit: bool
    base: int
    """The damage on a hit before the crit and fumble d4s (scrap included)."""
    ammo: str | None = None
    """The weapon class whose ammunition die is rolled (DC-9); None: no ammunition."""
    loaded: int = 0
    thrown: StaysInHand | None = None
    """A weapon throw: the reminder that the weapon stays in hand (DC-19)."""

    def roll(self, rules: Rules[Options], state: Encounter, dice: Dice) -> list[Event]:
        return roll_strike(self, rules.options, dice)


def decide_attack(
    state: Encounter,
    actor: Combatant,
    action: Action,
    options: Options,
    metric: Callable[[Tile, Tile], int],
    throw: bool = False,
) -> Strike | Blast:
    """DC-6 to DC-34: an ``attack`` (or with ``throw``, a ``throw``) checked, in the order
    of 2.3's refusals (``metric``: the ruleset's distance in tiles)."""
    sheet = sheet_as(actor, Sheet)
    hand = sheet.hand
    cls = weapon_class(hand, options.machine_pistol)
    explosive = cls.kind == "explosive"
    target = state.get(action.target) if action.target is not None else None
    # An explosive may be centred on the thrower's own tile, by attack or throw (DC-31).
    if target is not None and target.id == actor.id and not explosive:
        verb = "throw at" if throw else "attack"
        raise Refusal("self_target", f"{actor.name} cannot {verb} itself: choose another combatant")
    if action.at is not None and not explosive:
        raise Refusal(
            "tile_needs_explosive",
            f"a tile target {list(action.at)!r} needs an explosive in hand; "
            f"{actor.id!r} holds {hand.name if hand else 'nothing'!r}",
        )
    if throw and not explosive:
        if hand is None or hand.type != "melee" or not hand.short:  # DC-15
            what = repr(hand.name) if hand is not None else "nothing"
            raise Refusal(
                "not_throwable",
                f"{actor.id!r} holds {what}: only short blades, short blunt weapons and "
                "explosives can be thrown",
            )
        if "strong_arm" not in sheet.traits:
            raise Refusal(
                "needs_strong_arm",
                f"only characters with strong_arm may throw the {hand.name!r} (DC-15)",
            )
    if explosive and state.round == 1:  # DC-28
        raise Refusal(
            "explosives_round_one",
            f"explosives cannot be used in the first round of combat (round {state.round})",
        )
    centre = action.at if action.at is not None else (target.at if target else None)
    if actor.at is None or centre is None:
        who = actor.id if actor.at is None else (target.id if target else "the target")
        raise Refusal("no_position", f"{who!r} has no position (`at`) on the map")
    distance = metric(actor.at, centre)
    edge = action.params.get("edge")
    if explosive:
        _check_range(distance, cls.max_range, "explosives")
        assert hand is not None
        return blast(state, actor.id, sheet, hand, cls, centre, edge, options)
    assert target is not None  # files refuse an attack with neither target nor tile
    if throw:
        assert hand is not None
        _check_range(distance, THROW.strong_arm_range[options.revision], "a throw")  # DC-17
        return _throw(actor.id, sheet, hand, target, distance, edge, options)
    if cls.kind == "melee":
        if distance != 1:  # DC-6
            raise Refusal(
                "out_of_reach",
                f"{target.id!r} is {distance} tiles away; melee reaches 1 tile, diagonals included",
            )
    else:
        _check_range(distance, cls.max_range, f"a {cls.label}")
        assert hand is not None
        if not hand.loaded:  # DC-8
            raise Refusal("empty_gun", f"{hand.name!r} of {actor.id!r} is empty: reload")
    parts, bonus, how = _attack_modifiers(sheet, cls.name, distance, target.name, options)
    gun = cls.kind == "gun"
    base = cls.damage
    if gun and hand is not None and hand.scrap:  # DC-11
        base = max(options.scrap_floor, base - 1)
    ranged = gun and options.gun_defend == "ranged"  # DC-5, DC-7
    return Strike(
        actor.id,
        target.id,
        how,
        edge,
        parts,
        bonus,
        sheet.crit,
        guard(target.id, sheet_as(target, Sheet), ranged, options),
        action.params.get("defend_edge"),
        options.ties_hit,
        base,
        cls.name if gun and cls.ammo is not None and hand is not None else None,
        (hand.loaded or 0) if hand is not None else 0,
    )


def _throw(
    actor: str,
    sheet: Sheet,
    hand: Item,
    target: Combatant,
    distance: int,
    edge: str | None,
    options: Options,
) -> Strike:
    """P-DC-2: a Strong Arm throw of a short weapon; the weapon stays in hand (DC-19)."""
    # DC-18, DC-20, DC-G14: no range modifier, no trait, no Strong Arm penalty on throws.
    parts = (("bonus", sheet.attack_bonus),) if sheet.attack_bonus else ()
    base = THROW.damage + THROW.strong_arm_damage  # DC-16: 2, +1 Strong Arm
    if hand.scrap:
        base = max(options.scrap_floor, base - 1)
    return Strike(
        actor,
        target.id,
        f"throws the {hand.name} at {target.name} ({tiles(distance)})",
        edge,
        parts,
        sheet.attack_bonus,
        sheet.crit,
        guard(target.id, sheet_as(target, Sheet), True, options),
        None,
        True,  # DC-16: ties hit
        base,
        thrown=StaysInHand(actor, hand.name, target.at),
    )


def roll_strike(plan: Strike, options: Options, dice: Dice) -> list[Event]:
    """P-DC-1, P-DC-2: attack d20 → [ammo d3] → Defend d20 → [crit d4] → [fumble d4]."""
    naturals, natural = d20(dice, "attack", plan.edge)
    total = natural + plan.bonus
    crit = critical(plan.crit, natural)
    events: list[Event] = [
        ActionUsed(plan.actor),
        AttackRolled(plan.actor, plan.how, naturals, natural, plan.parts, total, crit),
    ]
    ammo: AmmoFired | None = None
    if plan.ammo is not None:
        rounds = CLASSES[plan.ammo].ammo
        assert rounds is not None
        rolled = rounds.roll(dice, "ammo")  # DC-9: rolled right after the attack
        ammo = AmmoFired(plan.actor, rolled, min(rolled, plan.loaded))
    if crit == "failure":  # DC-38
        if ammo is not None and options.ammo_on_miss:
            events.append(ammo)
        events += [CriticalFailure(plan.actor), Attempted(plan.actor, plan.target, False)]
        if plan.thrown is not None:
            events.append(plan.thrown)  # DC-19: a fumbled throw still throws the weapon
        events.append(TurnOver(plan.actor))
        return events
    defence = defend(plan.guard, dice, total, plan.defend_edge, ties_hit=plan.ties_hit)
    if ammo is not None and (options.ammo_on_miss or defence.hit):
        events.append(ammo)
    events += [defence, Attempted(plan.actor, plan.target, defence.hit)]
    if defence.hit:
        events.append(damage(plan.target, plan.base, crit == "success", defence.fumbled, dice))
    if plan.thrown is not None:
        events.append(plan.thrown)
    return events


def _check_range(distance: int, reach: int, what: str) -> None:
    if distance > reach:  # DC-7, DC-17, DC-27
        raise Refusal(
            "out_of_range", f"the target is {distance} tiles away; {what} reaches {reach}"
        )


def _attack_modifiers(
    sheet: Sheet, cls_name: str, distance: int, target: str, options: Options
) -> tuple[Parts, int, str]:
    """DC-43: the modifiers of a melee or gun attack roll, their sum, and the log's wording."""
    cls = CLASSES[cls_name]
    hand = sheet.hand
    parts: list[tuple[str, int]] = []
    if sheet.attack_bonus:
        parts.append(("bonus", sheet.attack_bonus))
    gun = cls.kind == "gun"
    rng = band(distance)
    if gun:
        mod = cls.range_mods[options.revision][BAND_INDEX[rng]]  # DC-13
        if mod:
            parts.append((rng, mod))
        group = gun_group(hand, options.revision, options.machine_pistol)
        traits = GROUP_TRAITS.get(group or "", frozenset()).intersection(sheet.traits)  # DC-14
        if traits:
            n = len(traits) if options.gun_trait_stacks else 1
            parts.append(("/".join(sorted(traits)), n * options.gun_trait_bonus))
    if "strong_arm" in sheet.traits and options.strong_arm_penalty:  # DC-20
        parts.append(("strong arm", -options.strong_arm_penalty))
    name = hand.name if hand is not None else "bare hands"
    where = f"{rng}, {tiles(distance)}" if gun else "melee"
    how = f"attacks {target} with the {name} ({where})"
    return tuple(parts), sum(v for _, v in parts), how


def tiles(n: int) -> str:
    return f"{n} tile" if n == 1 else f"{n} tiles"
