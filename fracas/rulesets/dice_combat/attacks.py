"""dice-combat's attacks: melee and gun attacks (P-DC-1), weapon throws (P-DC-2) and
explosives (P-DC-3), with the rolls they share (DC-35 to DC-44)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from fracas.dice.source import Dice
from fracas.grid import DIRECTIONS, Tile, in_square, step
from fracas.model import (
    Action,
    ActionUsed,
    Attempted,
    Combatant,
    Damaged,
    Encounter,
    Event,
    Note,
    StatusSet,
    TurnOver,
)
from fracas.rulesets.dice_combat.events import (
    AmmoFired,
    AttackRolled,
    DefenceRolled,
    HandEmptied,
    Scattered,
)
from fracas.rulesets.dice_combat.items import Item, gun_group
from fracas.rulesets.dice_combat.sheet import Options, Sheet
from fracas.rulesets.dice_combat.tables import (
    BAND_INDEX,
    BURN_LUCK,
    CLASSES,
    COVER_BONUS,
    CRIT_DIE,
    CRIT_PROFILES,
    GROUP_TRAITS,
    SCATTER_DIE,
    THROW,
    WeaponClass,
    band,
)

__all__ = ["Attacks", "sheet_of"]

_EDGES = ("advantage", "disadvantage")  # DC-G2
CHANGED_WEAPON = "changed_weapon"
BEGAN_UNARMED = "began_unarmed"


def sheet_of(c: Combatant) -> Sheet:
    """A combatant's dice-combat sheet."""
    sheet: Sheet = c.sheet
    return sheet


@dataclass(frozen=True, slots=True)
class _Defence:
    event: DefenceRolled
    hit: bool


class Attacks:
    """The attack half of :class:`~fracas.rulesets.dice_combat.rules.DiceCombat`."""

    options: Options

    def _roll_d20(
        self, dice: Dice, label: str, edge: Any, of: str | None = None
    ) -> tuple[tuple[int, ...], int]:
        """DC-G2, DC-35: one d20, or two with an edge; the kept die is the natural."""
        if edge is None:
            natural = dice.roll(20, label, of=of)
            return (natural,), natural
        first, second = dice.roll(20, label, of=of), dice.roll(20, label, of=of)
        kept = max(first, second) if edge == "advantage" else min(first, second)
        return (first, second), kept

    def _critical(self, c: Combatant, natural: int) -> str | None:
        profile = CRIT_PROFILES[sheet_of(c).crit]  # DC-36
        if natural in profile.success:
            return "success"
        if natural in profile.failure:
            return "failure"
        return None

    def _defend(
        self,
        target: Combatant,
        dice: Dice,
        against: int,
        ranged: bool,
        *,
        explosive: bool,
        edge: Any = None,
        ties_hit: bool = True,
    ) -> _Defence:
        sheet = sheet_of(target)
        naturals, natural = self._roll_d20(dice, "defend", edge, of=target.id)
        parts, bonus = _defence_modifiers(sheet, ranged, explosive, self.options)
        total = natural + bonus
        fumbled = natural in CRIT_PROFILES[sheet.crit].failure  # DC-39
        hit = fumbled or against > total or (ties_hit and against == total)  # DC-43
        event = DefenceRolled(
            target.id,
            "ranged" if ranged else "close",
            naturals,
            natural,
            parts,
            total,
            fumbled,
            hit,
        )
        return _Defence(event, hit)

    def _melee_or_gun(
        self,
        actor: Combatant,
        target: Combatant,
        hand: Item | None,
        cls: WeaponClass,
        distance: int,
        action: Action,
        dice: Dice,
    ) -> list[Event]:
        """P-DC-1: a melee or gun attack."""
        naturals, natural = self._roll_d20(dice, "attack", action.params.get("edge"))
        parts, bonus, how = _attack_modifiers(
            sheet_of(actor), cls.name, distance, target.name, self.options
        )
        total = natural + bonus
        critical = self._critical(actor, natural)
        gun = cls.kind == "gun"
        events: list[Event] = [
            ActionUsed(actor.id),
            AttackRolled(actor.id, how, naturals, natural, parts, total, critical),
        ]
        ammo: AmmoFired | None = None
        if gun and cls.ammo is not None and hand is not None:
            rolled = cls.ammo.roll(dice, "ammo")  # DC-9: rolled right after the attack
            ammo = AmmoFired(actor.id, rolled, min(rolled, hand.loaded or 0))
        if critical == "failure":  # DC-38
            if ammo is not None and self.options.ammo_on_miss:
                events.append(ammo)
            events += [
                Note("  CRITICAL FAILURE: an automatic miss; the turn ends"),
                Attempted(actor.id, target.id, False),
                TurnOver(actor.id),
            ]
            return events
        ranged = gun and self.options.gun_defend == "ranged"  # DC-5, DC-7
        defence = self._defend(
            target,
            dice,
            total,
            ranged,
            explosive=False,
            edge=action.params.get("defend_edge"),
            ties_hit=self.options.ties_hit,
        )
        if ammo is not None and (self.options.ammo_on_miss or defence.hit):
            events.append(ammo)
        events += [defence.event, Attempted(actor.id, target.id, defence.hit)]
        if defence.hit:
            base = cls.damage
            if gun and hand is not None and hand.scrap:  # DC-11
                base = max(self.options.scrap_floor, base - 1)
            events.append(
                self._damage(target, base, critical == "success", defence.event.fumbled, dice)
            )
        return events

    def _damage(
        self, target: Combatant, base: int, crit: bool, fumbled: bool, dice: Dice
    ) -> Damaged:
        """DC-44: base + crit d4 (DC-37) + fumble d4 (DC-39); they stack (DC-40)."""
        amount, why = base, [f"{base} base"]
        if crit:
            extra = CRIT_DIE.roll(dice, "crit")
            amount += extra
            why.append(f"{extra} critical")
        if fumbled:
            extra = CRIT_DIE.roll(dice, "fumble", of=target.id)
            amount += extra
            why.append(f"{extra} fumble")
        return Damaged(target.id, amount, " + ".join(why))

    def _weapon_throw(
        self,
        actor: Combatant,
        target: Combatant,
        hand: Item | None,
        distance: int,
        action: Action,
        dice: Dice,
    ) -> list[Event]:
        """P-DC-2: a Strong Arm throw of a short weapon; the weapon stays in hand (DC-19)."""
        assert hand is not None
        sheet = sheet_of(actor)
        naturals, natural = self._roll_d20(dice, "attack", action.params.get("edge"))
        # DC-18, DC-20, DC-G14: no range modifier, no trait, no Strong Arm penalty on throws.
        parts = (("bonus", sheet.attack_bonus),) if sheet.attack_bonus else ()
        total = natural + sheet.attack_bonus
        critical = self._critical(actor, natural)
        events: list[Event] = [
            ActionUsed(actor.id),
            AttackRolled(
                actor.id,
                f"throws the {hand.name} at {target.name} ({_tiles(distance)})",
                naturals,
                natural,
                parts,
                total,
                critical,
            ),
        ]
        where = "" if target.at is None else f" on [{target.at[0]}, {target.at[1]}]"
        drop = Note(f"  the {hand.name} stays in hand: drop it OOC{where} (DC-19)")
        if critical == "failure":
            return [
                *events,
                Note("  CRITICAL FAILURE: an automatic miss; the turn ends"),
                Attempted(actor.id, target.id, False),
                drop,  # DC-19: a fumbled throw still throws the weapon
                TurnOver(actor.id),
            ]
        defence = self._defend(target, dice, total, True, explosive=False)  # DC-16: ties hit
        events += [defence.event, Attempted(actor.id, target.id, defence.hit)]
        if defence.hit:
            base = THROW.damage + THROW.strong_arm_damage  # DC-16: 2, +1 Strong Arm
            if hand.scrap:
                base = max(self.options.scrap_floor, base - 1)
            events.append(
                self._damage(target, base, critical == "success", defence.event.fumbled, dice)
            )
        events.append(drop)
        return events

    def _explosive(
        self,
        state: Encounter,
        actor: Combatant,
        cls: WeaponClass,
        centre: Tile,
        action: Action,
        dice: Dice,
    ) -> list[Event]:
        """P-DC-3: one attack roll, every combatant in the blast defends on its own."""
        hand = sheet_of(actor).hand
        assert hand is not None
        naturals, natural = self._roll_d20(dice, "attack", action.params.get("edge"))
        bonus = sheet_of(actor).attack_bonus
        total = natural + bonus
        critical = self._critical(actor, natural)
        events: list[Event] = [
            ActionUsed(actor.id),
            AttackRolled(
                actor.id,
                f"throws the {hand.name} at [{centre[0]}, {centre[1]}]",
                naturals,
                natural,
                (("bonus", bonus),) if bonus else (),
                total,
                # DC-33: explosives never deal critical-success damage
                None if critical == "success" else critical,
            ),
            HandEmptied(actor.id),  # DC-29
        ]
        if critical == "failure":  # DC-34: the throw goes wide
            distance = SCATTER_DIE.roll(dice, "scatter")
            name, direction = DIRECTIONS[dice.roll(8, "direction") - 1]
            centre = step(centre, direction, distance)
            events += [Note("  CRITICAL FAILURE"), Scattered(distance, name, centre)]
        victims = [
            c
            for c in state.combatants.values()  # DC-31, in encounter order
            if c.at is not None and in_square(c.at, centre, cls.radius)
        ]
        defences = [self._defend(v, dice, total, True, explosive=True) for v in victims]
        base = cls.damage
        floored = False
        if hand.scrap and not (cls.burns and self.options.scrap_molotov == "drop_tick"):
            base = max(self.options.scrap_floor, cls.damage - 1)  # DC-26
            floored = base == cls.damage
        if floored:
            events.append(
                Note(
                    f"  scrap {hand.name}: 1 less, never below "
                    f"{self.options.scrap_floor}: still {base} (DC-A6)"
                )
            )
        if not victims:
            events.append(Note("  nobody is in the blast"))
        for victim, defence in zip(victims, defences, strict=True):
            events += [defence.event, Attempted(actor.id, victim.id, defence.hit)]
        for victim, defence in zip(victims, defences, strict=True):
            if not defence.hit:
                continue
            events.append(self._damage(victim, base, False, defence.event.fumbled, dice))
            if cls.burns:
                events += self._ignite(victim, cls.burns, base, hand.scrap)
        events.append(TurnOver(actor.id))  # DC-32
        return events

    def _ignite(self, victim: Combatant, burns: int, tick: int, scrap: bool) -> list[Event]:
        """DC-24, DC-25, P-DC-4: set the victim burning for its next turns."""
        turns = burns + BURN_LUCK[sheet_of(victim).luck]
        if scrap and self.options.scrap_molotov == "drop_tick":
            turns -= 1
        current = victim.statuses.get("burning", {}).get("turns", 0)
        turns = max(current, turns) if self.options.burn_reignite == "max" else current + turns
        if turns <= 0:
            return []
        return [StatusSet(victim.id, "burning", {"turns": turns, "damage": tick})]


Parts = tuple[tuple[str, int], ...]


@lru_cache(maxsize=4096)
def _attack_modifiers(
    sheet: Sheet, cls_name: str, distance: int, target: str, options: Options
) -> tuple[Parts, int, str]:
    """DC-43: the modifiers of a melee or gun attack roll, their sum, and the log's wording.

    A pure function of its (frozen) inputs, cached: exact odds replay an attack
    hundreds of times with the same attacker, weapon and distance.
    """
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
    where = f"{rng}, {_tiles(distance)}" if gun else "melee"
    how = f"attacks {target} with the {name} ({where})"
    return tuple(parts), sum(v for _, v in parts), how


@lru_cache(maxsize=4096)
def _defence_modifiers(
    sheet: Sheet, ranged: bool, explosive: bool, options: Options
) -> tuple[Parts, int]:
    """DC-43: a Defend roll's modifiers (bonus, cover) and their sum."""
    parts: list[tuple[str, int]] = []
    bonus = sheet.defend_ranged_bonus if ranged else sheet.defend_close_bonus
    if bonus:
        parts.append(("bonus", bonus))
    if ranged and sheet.cover and (explosive or options.cover_all_ranged):
        parts.append(("cover", COVER_BONUS))  # DC-32, DC-G8
    return tuple(parts), sum(v for _, v in parts)


def _tiles(n: int) -> str:
    return f"{n} tile" if n == 1 else f"{n} tiles"
