"""What a face shows of a tier-duel combatant: its weapon and Tier, its armor bonus, its
temporary damage and the actions it has left this round."""

from __future__ import annotations

from typing import Any

from fracas.model import Combatant, Encounter
from fracas.rulesets.base import Presenter, Shown, item_json, sheet_as
from fracas.rulesets.tier_duel.items import Item, reach_of, wielded
from fracas.rulesets.tier_duel.sheet import Options, Sheet
from fracas.rulesets.tier_duel.tables import CONTESTED, NONCONTESTED

__all__ = ["TierDuelPresenter"]


class TierDuelPresenter(Presenter):
    """tier-duel's fields: Tier, Armor, Temp, Actions."""

    def gear(self, state: Encounter, c: Combatant) -> str:
        """The weapon or spell in hand with its Tier, a crossbow's or firearm's load
        (``crossbow_2h T2 empty``); bare hands: empty."""
        hand = sheet_as(c, Sheet).hand
        if hand is None:
            return ""
        text = hand.name if hand.type == "spell" else f"{hand.name} T{hand.tier}"
        if hand.type.startswith("crossbow") or hand.type == "firearm":
            text += " loaded" if hand.loaded else " empty"
        return text

    def fields(self, state: Encounter, c: Combatant, full: bool = False) -> tuple[Shown, ...]:
        o: Options = self.ruleset.options
        sheet = sheet_as(c, Sheet)
        w = wielded(c, o.reach_1h, o.reach_2h)
        used = state.turn.used if state.turn.actor == c.id else {}
        contested = o.contested_actions - used.get(CONTESTED, 0)
        noncontested = o.noncontested_actions - used.get(NONCONTESTED, 0)
        return (
            Shown("Tier", str(w.tier), f"{w.name}: weapon bonus (TD-4); reach {w.reach}"),
            Shown(
                "Armor",
                str(sheet.armor_tier + sheet.shield_tier),
                f"armor Tier {sheet.armor_tier} + shield Tier {sheet.shield_tier} (TD-4)",
            ),
            Shown("Temp", str(sheet.temporary_damage), "temporary damage taken (TD-5)"),
            Shown(
                "Actions",
                f"{contested}+{noncontested}",
                f"{contested} contested, {noncontested} non-contested left this round (TD-G6)",
            ),
        )

    def sheet_json(self, state: Encounter, c: Combatant) -> dict[str, Any]:
        """2.6: the sheet, every item with its reach resolved by the options (TD-G5), and
        ``actions_left``: what ``c`` may still do if it acts next (its own turn's, or a
        fresh round's when another combatant's turn is on)."""
        o: Options = self.ruleset.options
        out = super().sheet_json(state, c)
        sheet = sheet_as(c, Sheet)
        if sheet.hand is not None:
            out["hand"] = self._item_json(sheet.hand)
        out["inventory"] = [self._item_json(i) for i in sheet.inventory]
        used = state.turn.used if state.turn.actor == c.id else {}
        left = {
            CONTESTED: o.contested_actions - used.get(CONTESTED, 0),
            NONCONTESTED: o.noncontested_actions - used.get(NONCONTESTED, 0),
        }
        return {**out, "actions_left": left}

    def _item_json(self, item: Item) -> dict[str, Any]:
        o: Options = self.ruleset.options
        out = item_json(item)
        out["reach"] = reach_of(item, o.reach_1h, o.reach_2h)
        return out
