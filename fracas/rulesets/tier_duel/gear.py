"""tier-duel's actions that roll no die: ``equip``, ``reload`` (TD-15, TD-G4) and ``cast``
(TD-19). Each decides to its events (:class:`~fracas.rulesets.tier_duel.contest.Ready`)."""

from __future__ import annotations

from fracas.errors import Refusal
from fracas.model import ActionUsed, Attempted, Combatant, Event, StatusSet
from fracas.rulesets.base import sheet_as
from fracas.rulesets.tier_duel.contest import Ready
from fracas.rulesets.tier_duel.damage import armor_bonus, formula, wound
from fracas.rulesets.tier_duel.data import NONCONTESTED
from fracas.rulesets.tier_duel.events import Equipped, Loaded, SpellCast
from fracas.rulesets.tier_duel.items import Item, Wielded
from fracas.rulesets.tier_duel.sheet import Options, Sheet

__all__ = ["RELOADABLE", "carried", "decide_cast", "decide_equip", "decide_reload"]

RELOADABLE = ("crossbow", "firearm")


def carried(actor: Combatant, name: str) -> int:
    """The inventory index of the item called ``name``."""
    inventory = sheet_as(actor, Sheet).inventory
    index = next((i for i, it in enumerate(inventory) if it.name == name), None)
    if index is None:
        names = ", ".join(repr(i.name) for i in inventory) or "nothing"
        raise Refusal(
            "not_in_inventory", f"{actor.id!r} carries no {name!r}; the inventory holds {names}"
        )
    return index


def decide_equip(actor: Combatant, name: str) -> Ready:
    """Equipping is free (2.3)."""
    return Ready((Equipped(actor.id, carried(actor, name)),))


def decide_reload(actor: Combatant, w: Wielded) -> Ready:
    """TD-15, TD-G4: reloading is a non-contested action."""
    if w.event not in RELOADABLE:
        raise Refusal(
            "not_reloadable",
            f"{actor.id!r} holds {w.name!r}: only a crossbow or firearm is reloaded",
        )
    assert w.item is not None
    if w.item.loaded:
        raise Refusal("already_loaded", f"{w.name!r} of {actor.id!r} is already loaded")
    return Ready((ActionUsed(actor.id, NONCONTESTED), Loaded(actor.id, True)))


def _spell(actor: Combatant, name: str) -> Item:
    """The spell `cast` names: in hand, else in the inventory."""
    sheet = sheet_as(actor, Sheet)
    item = sheet.hand if sheet.hand is not None and sheet.hand.name == name else None
    if item is None:
        item = sheet.inventory[carried(actor, name)]
    if item.type != "spell":
        raise Refusal("not_a_spell", f"{name!r} is a {item.type}, not a spell")
    return item


def decide_cast(options: Options, actor: Combatant, target: Combatant, name: str) -> Ready:
    """TD-19: no dice; the damage and/or the effect apply at once."""
    spell = _spell(actor, name)
    events: list[Event] = [
        ActionUsed(actor.id, NONCONTESTED),
        SpellCast(actor.id, target.id, spell.name),
        Attempted(actor.id, target.id, True),
    ]
    if spell.damage:
        if options.spell_ignores_armor:
            armor = None
            why = ", armor does not apply (TD-19)"
        else:
            armor, why = ("armor", armor_bonus(target)), " (TD-19)"
        amount, text = formula(
            options, (("damage", 1),), {"damage": spell.damage}, armor, floor=armor is not None
        )
        events += wound(options, target.id, amount, f"{spell.name}: {text}{why}")
    if spell.effect is not None:
        events.append(StatusSet(target.id, spell.effect, {"from": actor.id}))
    return Ready(tuple(events))
