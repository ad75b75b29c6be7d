"""What a face shows of a dice-combat combatant: the weapon class in hand, its ammunition
and scrap mark, cover and luck, and the ranges of the hand item as rings (DC-A5)."""

from __future__ import annotations

from typing import Any

from fracas.model import Combatant, Encounter
from fracas.rulesets.base import Presenter, Reach, Shown, item_json, sheet_as
from fracas.rulesets.dice_combat.items import Item, gun_group, weapon_class
from fracas.rulesets.dice_combat.sheet import Options, Sheet
from fracas.rulesets.dice_combat.tables import BANDS, COVER_BONUS, THROW

__all__ = ["DiceCombatPresenter"]


class DiceCombatPresenter(Presenter):
    """dice-combat's fields: Class, Ammo (guns), Scrap, Cover, Luck."""

    def gear(self, state: Encounter, c: Combatant) -> str:
        """The hand item, ``scrap`` where it is, with a gun's rounds (``pistol 6/8``)."""
        hand = sheet_as(c, Sheet).hand
        if hand is None:
            return ""
        text = f"scrap {hand.name}" if hand.scrap else hand.name
        if hand.type == "gun":
            text += f" {hand.loaded}/{hand.capacity}"
        return text

    def fields(self, state: Encounter, c: Combatant, full: bool = False) -> tuple[Shown, ...]:
        sheet = sheet_as(c, Sheet)
        hand = sheet.hand
        options: Options = self.ruleset.options
        cls = weapon_class(hand, options.machine_pistol)
        shown = [Shown("Class", cls.label, f"{cls.damage} damage (DC-3, 1.5)")]
        if hand is not None and hand.type == "gun":
            shown.append(
                Shown("Ammo", f"{hand.loaded}/{hand.capacity}", "rounds loaded (DC-8, DC-9)")
            )
        note = self._scrap_note(sheet, hand)
        if note:
            shown.append(Shown("Scrap", "-1", note))
        if sheet.cover:
            shown.append(Shown("Cover", f"+{COVER_BONUS}", "on Defend (ranged) (DC-32)"))
        if sheet.luck != "none":
            turns = "1 turn less" if sheet.luck == "lucky" else "1 turn more"
            shown.append(Shown("Luck", sheet.luck, f"burning lasts {turns} (DC-25)"))
        return tuple(shown)

    def _rings(self, c: Combatant) -> tuple[Reach, ...]:
        """DC-A5: "your throw range, 15 tiles and 20 tiles as rings": the throw range of
        DC-17 (10 tiles; 15 with Strong Arm [A: 13]), then 15 and 20."""
        sheet = sheet_as(c, Sheet)
        options: Options = self.ruleset.options
        strong = "strong_arm" in sheet.traits
        throw = THROW.strong_arm_range[options.revision] if strong else THROW.max_range
        return (
            Reach("throw", throw, ring=True),
            Reach("15 tiles", 15, ring=True),
            Reach("20 tiles", 20, ring=True),
        )

    def item_words(self, state: Encounter, c: Combatant, item: Item) -> tuple[str, str]:
        """``knife (scrap)`` where ``item`` is scrap (an inventory item ``equip`` would
        take, or the hand's), with the scrap line where DC-11/DC-26 take 1 off: a scrap
        gun or explosive, or a scrap short weapon its Strong Arm may throw (DC-15, DC-16:
        when thrown); never a scrap weapon only swung (DC-11: melee is unaffected)."""
        if not item.scrap:
            return item.name, ""
        return f"{item.name} (scrap)", self._scrap_note(sheet_as(c, Sheet), item)

    def sheet_json(self, state: Encounter, c: Combatant) -> dict[str, Any]:
        """2.6: every item field plus the derived class and group."""
        out = super().sheet_json(state, c)
        sheet = sheet_as(c, Sheet)
        if sheet.hand is not None:
            out["hand"] = self._item_json(sheet.hand)
        out["inventory"] = [self._item_json(i) for i in sheet.inventory]
        return out

    def _item_json(self, item: Item) -> dict[str, Any]:
        options: Options = self.ruleset.options
        out = item_json(item)
        out["class"] = weapon_class(item, options.machine_pistol).name
        out["group"] = gun_group(item, options.revision, options.machine_pistol)
        return out

    def _scrap_note(self, sheet: Sheet, item: Item | None) -> str:
        if item is None or not item.scrap:
            return ""
        kind = weapon_class(item, self.ruleset.options.machine_pistol).kind
        if kind in ("gun", "explosive"):
            return _scrap(item)
        if item.short and "strong_arm" in sheet.traits:
            return _scrap(item, " when thrown")
        return ""

    def ranges(self, state: Encounter, c: Combatant) -> tuple[Reach, ...]:
        """DC-A5's Gun range rings for the hand item: a melee weapon's reach (DC-6) and,
        short and with Strong Arm, its throw range (DC-15, DC-17: 15 [A: 13]); a gun's
        band edges, close 5 and medium 12 (DC-12), and its maximum range, the end of long
        (DC-7: 15 or 20); an explosive's throw range, 10 (DC-27)."""
        sheet = sheet_as(c, Sheet)
        hand = sheet.hand
        options: Options = self.ruleset.options
        cls = weapon_class(hand, options.machine_pistol)
        rings = self._rings(c)
        if cls.kind == "gun":
            bands = tuple(Reach(f"{cls.label} {name}", limit) for limit, name in BANDS)
            return (*bands, Reach(f"{cls.label} long", cls.max_range), *rings)
        if cls.kind == "explosive":
            return (Reach(f"{cls.label} throw", cls.max_range), *rings)
        reach = Reach(f"{cls.label} reach", cls.max_range)
        if hand is not None and hand.short and "strong_arm" in sheet.traits:
            return reach, Reach("throw", THROW.strong_arm_range[options.revision]), *rings
        return (reach, *rings)


def _scrap(item: Item, when: str = "") -> str:
    return f"scrap {item.name}: 1 less damage{when}, never below the floor (DC-11, DC-26)"
