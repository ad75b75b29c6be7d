"""What the balance lab may key a dice-combat state by (``fracas.lab.keys``)."""

from __future__ import annotations

from fracas.model import Encounter
from fracas.model.frozen import evolve
from fracas.rulesets.base import Ruleset, sheet_as
from fracas.rulesets.dice_combat.items import weapon_class
from fracas.rulesets.dice_combat.sheet import Sheet

__all__ = ["full_magazines"]


def full_magazines(rules: Ruleset, state: Encounter) -> Encounter:
    """DC-8, DC-9, DC-10, DC-G6: a gun in hand other than a crossbow reloads for free
    (no action), from a stock without end, and its rounds gate only whether it can
    fire: under the lab's tactics (reload when the gun is empty, then fire) a
    half-empty magazine fights exactly as a full one. The chain keys it as full."""
    out = state
    for c in state.combatants.values():
        hand = sheet_as(c, Sheet).hand
        if (
            hand is not None
            and hand.type == "gun"
            and hand.capacity is not None
            and hand.loaded != hand.capacity
            and weapon_class(hand, rules.options.machine_pistol).name != "crossbow"
        ):
            out = out.with_sheet(c.id, hand=evolve(hand, loaded=hand.capacity))
    return out
