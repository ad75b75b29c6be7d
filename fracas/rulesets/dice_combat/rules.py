"""dice-combat: opposed d20 attack vs Defend, fixed weapon damage, 12 HP.

Our reading: ``../shared/rules/dice-combat.md`` (rules DC-1 to DC-44, the
procedures P-DC-1 to P-DC-5 and the contract of Part 2); the text: seed
``000_342b9ddb13dd48fb.txt``. Revision B by default, A by option.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from fracas.dice.source import Dice
from fracas.errors import Refusal
from fracas.model import (
    Action,
    ActionUsed,
    Combatant,
    Damaged,
    Encounter,
    Event,
    StatusCleared,
    StatusSet,
    TurnFlagged,
)
from fracas.rulesets.base import ActionSpec, DieSpec, Ruleset
from fracas.rulesets.dice_combat.attacks import Attacks, sheet_of
from fracas.rulesets.dice_combat.events import (
    Equipped,
    Reloaded,
)
from fracas.rulesets.dice_combat.items import SHORTHANDS, Item, gun_group, weapon_class
from fracas.rulesets.dice_combat.sheet import Options, Sheet
from fracas.rulesets.dice_combat.tables import (
    THROW,
    WeaponClass,
)

__all__ = ["DiceCombat"]

_EDGES = ("advantage", "disadvantage")  # DC-G2
CHANGED_WEAPON = "changed_weapon"
BEGAN_UNARMED = "began_unarmed"


class DiceCombat(Attacks, Ruleset):
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
        hand = sheet_of(combatant).hand
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
        sheet = sheet_of(c)
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
        sheet = sheet_of(actor)
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
        hand = sheet_of(actor).hand
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
        hand = sheet_of(actor).hand
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
            if "strong_arm" not in sheet_of(actor).traits:
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
            if "strong_arm" in sheet_of(actor).traits:
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


def _marked(c: Combatant, mark: str) -> Combatant:
    return dataclasses.replace(c, marks=c.marks | {mark})
