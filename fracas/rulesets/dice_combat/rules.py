"""dice-combat: opposed d20 attack vs Defend, fixed weapon damage, 12 HP.

Our reading: ``../shared/rules/dice-combat.md`` (rules DC-1 to DC-44, the
procedures P-DC-1 to P-DC-5 and the contract of Part 2); the text: seed
``000_342b9ddb13dd48fb.txt``. Revision B by default, A by option.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

from fracas.dice.source import Dice
from fracas.errors import Refusal
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
    StatusCleared,
    StatusSet,
    TurnFlagged,
    TurnOver,
)
from fracas.rulesets.base import ActionSpec, DieSpec, Ruleset
from fracas.rulesets.dice_combat.events import (
    AmmoFired,
    AttackRolled,
    DefenceRolled,
    Equipped,
    HandEmptied,
    Reloaded,
    Scattered,
)
from fracas.rulesets.dice_combat.items import SHORTHANDS, Item, gun_group, weapon_class
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

__all__ = ["DiceCombat"]

_EDGES = ("advantage", "disadvantage")  # DC-G2
CHANGED_WEAPON = "changed_weapon"
BEGAN_UNARMED = "began_unarmed"


def _sheet(c: Combatant) -> Sheet:
    sheet: Sheet = c.sheet
    return sheet


@dataclass(frozen=True, slots=True)
class _Defence:
    event: DefenceRolled
    hit: bool


class DiceCombat(Ruleset):
    """The reference ruleset."""

    name: ClassVar[str] = "dice-combat"
    title: ClassVar[str] = "Dice Combat - Weapons & Damage"
    seed_file: ClassVar[str] = "000_342b9ddb13dd48fb.txt"
    summary: ClassVar[str] = (
        "opposed d20 attack vs Defend, fixed weapon damage, 12 HP, tile ranges, ammo, "
        "explosives, burning"
    )
    options_type = Options
    sheet_type = Sheet
    item_type = Item
    item_shorthands: ClassVar[tuple[str, ...]] = tuple(SHORTHANDS)
    default_max_hp: ClassVar[int] = 12  # DC-1
    actions: ClassVar[tuple[ActionSpec, ...]] = (
        ActionSpec(
            "attack",
            "attack the target with the item in hand (an explosive: a target or a tile `at`)",
            ("edge", "defend_edge"),
            "combatant_or_tile",
            choices={"edge": _EDGES, "defend_edge": _EDGES},
        ),
        ActionSpec(
            "throw",
            "throw the item in hand: a short weapon (Strong Arm) at a target, "
            "or an explosive at a target or tile",
            ("edge",),
            "combatant_or_tile",
            choices={"edge": _EDGES},
        ),
        ActionSpec(
            "reload", "fill the gun in hand (a crossbow: the action; others: free)", (), "none"
        ),
        ActionSpec(
            "equip",
            "take `item` from the inventory into the hand",
            ("item",),
            "none",
            required=("item",),
        ),
    )
    dice: ClassVar[tuple[DieSpec, ...]] = (
        DieSpec("attack", 20, "every attack and throw; 2 with `edge`"),
        DieSpec(
            "ammo", 3, "pistol, SMG and rifle attacks, right after `attack`", odds_relevant=False
        ),  # DC-9: damage does not depend on rounds fired
        DieSpec(
            "defend",
            20,
            "the target of a melee, gun or weapon throw; each explosion "
            "victim as `defend:id`; 2 with `defend_edge`",
            per_combatant=True,
        ),
        DieSpec("crit", 4, "a hit whose attack natural is a critical success"),
        DieSpec(
            "fumble", 4, "a hit whose defence natural is a critical failure", per_combatant=True
        ),
        DieSpec("scatter", 3, "explosive critical failure: tiles"),
        DieSpec("direction", 8, "after scatter: 1 N, 2 NE, 3 E, 4 SE, 5 S, 6 SW, 7 W, 8 NW"),
    )
    options: Options

    # --- hooks ------------------------------------------------------------

    def prepare(self, combatant: Combatant) -> Combatant:
        hand = _sheet(combatant).hand
        if hand is None or hand.type == "other":  # DC-22: began combat unarmed
            return _marked(combatant, BEGAN_UNARMED)
        return combatant

    def turn_start(self, state: Encounter, actor: str, dice: Dice) -> list[Event]:
        """P-DC-4: burning ticks at the start of the victim's turn (DC-25)."""
        c = state.get(actor)
        burning = c.statuses.get("burning")
        if burning is None:
            return []
        if c.hp == 0 and not self.options.ko_burns:  # DC-G13 option
            return [StatusCleared(actor, "burning")]
        events: list[Event] = [Damaged(actor, burning["damage"], "burning")]
        turns = burning["turns"] - 1
        if turns > 0:
            events.append(
                StatusSet(actor, "burning", {"turns": turns, "damage": burning["damage"]})
            )
        else:
            events.append(StatusCleared(actor, "burning"))
        return events

    def sheet_json(self, c: Combatant) -> dict[str, Any]:
        out = super().sheet_json(c)
        sheet = _sheet(c)
        out["hand"] = self.item_json(sheet.hand) if sheet.hand is not None else None
        out["inventory"] = [self.item_json(i) for i in sheet.inventory]
        return out

    def item_json(self, item: Item) -> dict[str, Any]:
        """2.6: every item field plus the derived class and group."""
        out: dict[str, Any] = {f: getattr(item, f) for f in item.__dataclass_fields__}
        out["class"] = weapon_class(item, self.options.machine_pistol).name
        out["group"] = gun_group(item, self.options.revision, self.options.machine_pistol)
        return out

    # --- resolution -------------------------------------------------------

    def resolve(self, state: Encounter, action: Action, dice: Dice) -> list[Event]:
        actor = state.get(action.actor)
        self._check_can_act(state, actor)
        if action.do == "equip":
            return self._equip(state, actor, str(action.params["item"]))
        if action.do == "reload":
            return self._reload(state, actor)
        return self._attack_or_throw(state, actor, action, dice)

    def _check_can_act(self, state: Encounter, actor: Combatant) -> None:
        if actor.hp == 0:  # DC-G10
            raise Refusal("knocked_out", f"{actor.id!r} is knocked out (0 HP) and cannot act")
        if state.turn.over:  # DC-32, DC-38
            raise Refusal(
                "turn_over",
                f"{actor.id!r}'s turn has ended (a critical failure or an explosive); "
                "end_turn, move or set are still allowed",
            )

    def _check_weapon_unchanged(self, state: Encounter, actor: Combatant) -> None:
        if CHANGED_WEAPON in state.turn.flags:  # DC-21
            raise Refusal(
                "changed_weapon",
                f"{actor.id!r} changed weapons this turn and can take no other action (DC-21)",
            )

    def _check_action_left(self, state: Encounter, actor: Combatant) -> None:
        if state.turn.actions_used >= self.options.actions_per_turn:  # DC-23
            raise Refusal(
                "no_action_left",
                f"{actor.id!r} has used its {self.options.actions_per_turn} action(s) this "
                "turn; end_turn to go on",
            )

    # equip and reload ---------------------------------------------------

    def _equip(self, state: Encounter, actor: Combatant, name: str) -> list[Event]:
        self._check_weapon_unchanged(state, actor)
        sheet = _sheet(actor)
        index = next((i for i, it in enumerate(sheet.inventory) if it.name == name), None)
        if index is None:
            names = ", ".join(repr(i.name) for i in sheet.inventory) or "nothing"
            raise Refusal(
                "not_in_inventory", f"{actor.id!r} carries no {name!r}; the inventory holds {names}"
            )
        new, old = sheet.inventory[index], sheet.hand
        if BEGAN_UNARMED in actor.marks:
            paid, why = False, "free: began combat unarmed (DC-22)"
        elif old is None:
            paid, why = True, "the action: Change Weapon into empty hands (DC-29)"
        elif old.is_ranged_kind != new.is_ranged_kind:
            paid, why = True, "the action: melee <-> ranged switch (DC-21)"
        elif not self.options.free_same_kind_swap:
            paid, why = True, "the action (free_same_kind_swap is off)"
        else:
            paid, why = False, "free: same kind of weapon"
        if not paid:
            return [Equipped(actor.id, index, why)]
        self._check_action_left(state, actor)
        return [
            Equipped(actor.id, index, why + "; no other action this turn"),
            ActionUsed(actor.id),
            TurnFlagged(actor.id, CHANGED_WEAPON),
        ]

    def _reload(self, state: Encounter, actor: Combatant) -> list[Event]:
        self._check_weapon_unchanged(state, actor)
        hand = _sheet(actor).hand
        crossbow = hand is not None and hand.type == "gun" and self._class(hand).name == "crossbow"
        if crossbow:  # DC-10: reloading a crossbow counts as an action
            self._check_action_left(state, actor)
        if hand is None or hand.type != "gun":
            what = repr(hand.name) if hand is not None else "nothing"
            raise Refusal("not_a_gun", f"{actor.id!r} holds {what}: only a gun can be reloaded")
        if hand.loaded == hand.capacity:
            raise Refusal(
                "already_full", f"{actor.id!r}'s {hand.name!r} is full ({hand.capacity} loaded)"
            )
        return [Reloaded(actor.id), ActionUsed(actor.id)] if crossbow else [Reloaded(actor.id)]

    # attacks ------------------------------------------------------------

    def _class(self, item: Item | None) -> WeaponClass:
        return weapon_class(item, self.options.machine_pistol)

    def _attack_or_throw(
        self, state: Encounter, actor: Combatant, action: Action, dice: Dice
    ) -> list[Event]:
        self._check_weapon_unchanged(state, actor)
        self._check_action_left(state, actor)
        hand = _sheet(actor).hand
        cls = self._class(hand)
        explosive = cls.kind == "explosive"
        throw = action.do == "throw"
        target = state.get(action.target) if action.target is not None else None
        # An explosive may be centred on the thrower's own tile, by attack or throw (DC-31).
        if target is not None and target.id == actor.id and not explosive:
            raise Refusal("self_target", f"{actor.id!r} cannot {action.do} itself")
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
            if "strong_arm" not in _sheet(actor).traits:
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
        distance = self.distance(actor.at, centre)
        if explosive:
            self._check_range(distance, cls.max_range, "explosives")
            return self._explosive(state, actor, cls, centre, action, dice)
        assert target is not None  # files refuse an attack with neither target nor tile
        if throw:
            reach = THROW.max_range
            if "strong_arm" in _sheet(actor).traits:
                reach = THROW.strong_arm_range[self.options.revision]  # DC-17
            self._check_range(distance, reach, "a throw")
            return self._weapon_throw(actor, target, hand, distance, action, dice)
        if cls.kind == "melee":
            if distance != 1:  # DC-6
                raise Refusal(
                    "out_of_reach",
                    f"{target.id!r} is {distance} tiles away; melee reaches 1 tile, diagonals "
                    "included",
                )
        else:
            self._check_range(distance, cls.max_range, f"a {cls.label}")
            assert hand is not None
            if not hand.loaded:  # DC-8
                raise Refusal("empty_gun", f"{actor.id!r}'s {hand.name!r} is empty: reload")
        return self._melee_or_gun(actor, target, hand, cls, distance, action, dice)

    @staticmethod
    def _check_range(distance: int, reach: int, what: str) -> None:
        if distance > reach:  # DC-7, DC-17, DC-27
            raise Refusal(
                "out_of_range", f"the target is {distance} tiles away; {what} reaches {reach}"
            )

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
        profile = CRIT_PROFILES[_sheet(c).crit]  # DC-36
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
        sheet = _sheet(target)
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
            _sheet(actor), cls.name, distance, target.name, self.options
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
        sheet = _sheet(actor)
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
        hand = _sheet(actor).hand
        assert hand is not None
        naturals, natural = self._roll_d20(dice, "attack", action.params.get("edge"))
        bonus = _sheet(actor).attack_bonus
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
        turns = burns + BURN_LUCK[_sheet(victim).luck]
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


def _marked(c: Combatant, mark: str) -> Combatant:
    return dataclasses.replace(c, marks=c.marks | {mark})


def _tiles(n: int) -> str:
    return f"{n} tile" if n == 1 else f"{n} tiles"
