"""What a face shows of a dice-combat combatant: the weapon class in hand, its ammunition
and scrap mark, cover and luck."""

from __future__ import annotations

from fracas.model import Combatant, Encounter
from fracas.rulesets.base import Presenter, Shown, sheet_as
from fracas.rulesets.dice_combat.items import Item, weapon_class
from fracas.rulesets.dice_combat.sheet import Options, Sheet
from fracas.rulesets.dice_combat.tables import COVER_BONUS

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

    def fields(self, state: Encounter, c: Combatant) -> tuple[Shown, ...]:
        sheet = sheet_as(c, Sheet)
        hand = sheet.hand
        options: Options = self.ruleset.options
        cls = weapon_class(hand, options.machine_pistol)
        shown = [Shown("Class", cls.label, f"{cls.damage} damage (DC-3, 1.5)")]
        if hand is not None and hand.type == "gun":
            shown.append(
                Shown("Ammo", f"{hand.loaded}/{hand.capacity}", "rounds loaded (DC-8, DC-9)")
            )
        if hand is not None and hand.scrap:
            shown.append(Shown("Scrap", "-1", _scrap(hand)))
        if sheet.cover:
            shown.append(Shown("Cover", f"+{COVER_BONUS}", "on Defend (ranged) (DC-32)"))
        if sheet.luck != "none":
            turns = "1 turn less" if sheet.luck == "lucky" else "1 turn more"
            shown.append(Shown("Luck", sheet.luck, f"burning lasts {turns} (DC-25)"))
        return tuple(shown)


def _scrap(item: Item) -> str:
    return f"scrap {item.name}: 1 less damage, never below the floor (DC-11, DC-26)"
