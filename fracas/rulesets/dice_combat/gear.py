"""dice-combat's gear actions: ``equip`` (DC-21, DC-22, DC-29) and ``reload`` (DC-10).
Neither rolls a die: the decision holds its events."""

from __future__ import annotations

from dataclasses import dataclass

from fracas.dice.source import Dice
from fracas.errors import Refusal
from fracas.model import ActionUsed, Combatant, Encounter, Event, TurnFlagged
from fracas.rulesets.base import Decision, Rules, sheet_as
from fracas.rulesets.dice_combat.events import Equipped, Reloaded
from fracas.rulesets.dice_combat.items import weapon_class
from fracas.rulesets.dice_combat.sheet import Options, Sheet
from fracas.rulesets.dice_combat.tables import BEGAN_UNARMED, CHANGED_WEAPON

__all__ = ["Ready", "check_action_left", "check_weapon_unchanged", "decide_equip", "decide_reload"]


@dataclass(frozen=True, slots=True)
class Ready(Decision):
    """A decided action that rolls no die: its events."""

    events: tuple[Event, ...]

    def roll(self, rules: Rules[Options], state: Encounter, dice: Dice) -> list[Event]:
        return list(self.events)


def check_weapon_unchanged(state: Encounter, actor: Combatant) -> None:
    if CHANGED_WEAPON in state.turn.flags:  # DC-21
        raise Refusal(
            "changed_weapon",
            f"{actor.id!r} changed weapons this turn and can take no other action (DC-21)",
        )


def check_action_left(state: Encounter, actor: Combatant, options: Options) -> None:
    if state.turn.actions_used >= options.actions_per_turn:  # DC-23
        raise Refusal(
            "no_action_left",
            f"{actor.id!r} has used its {options.actions_per_turn} action(s) this "
            "turn; end_turn to go on",
        )


def decide_equip(state: Encounter, actor: Combatant, name: str, options: Options) -> Ready:
    """DC-21, DC-22, DC-29: what taking ``name`` into the hand costs."""
    check_weapon_unchanged(state, actor)
    sheet = sheet_as(actor, Sheet)
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
    elif not options.free_same_kind_swap:
        paid, why = True, "the action (free_same_kind_swap is off)"
    else:
        paid, why = False, "free: same kind of weapon"
    if not paid:
        return Ready((Equipped(actor.id, index, why),))
    check_action_left(state, actor, options)
    return Ready(
        (
            Equipped(actor.id, index, why + "; no other action this turn"),
            ActionUsed(actor.id),
            TurnFlagged(actor.id, CHANGED_WEAPON),
        )
    )


def decide_reload(state: Encounter, actor: Combatant, options: Options) -> Ready:
    """DC-10: a gun in hand filled to capacity; a crossbow's reload is the action."""
    check_weapon_unchanged(state, actor)
    hand = sheet_as(actor, Sheet).hand
    crossbow = (
        hand is not None
        and hand.type == "gun"
        and weapon_class(hand, options.machine_pistol).name == "crossbow"
    )
    if crossbow:  # DC-10: reloading a crossbow counts as an action
        check_action_left(state, actor, options)
    if hand is None or hand.type != "gun":
        what = repr(hand.name) if hand is not None else "nothing"
        raise Refusal("not_a_gun", f"{actor.id!r} holds {what}: only a gun can be reloaded")
    if hand.loaded == hand.capacity:
        raise Refusal(
            "already_full", f"{hand.name!r} of {actor.id!r} is full ({hand.capacity} loaded)"
        )
    return Ready((Reloaded(actor.id), ActionUsed(actor.id)) if crossbow else (Reloaded(actor.id),))
