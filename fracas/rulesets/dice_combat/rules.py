"""dice-combat: opposed d20 attack vs Defend, fixed weapon damage, 12 HP.

Our reading: ``../shared/rules/dice-combat.md`` (rules DC-1 to DC-44, the
procedures P-DC-1 to P-DC-5 and the contract of Part 2); the text: seed
``000_342b9ddb13dd48fb.txt``. Revision B by default, A by option.
"""

from __future__ import annotations

import dataclasses
from functools import partial

from fracas.dice.source import Dice
from fracas.errors import Refusal
from fracas.model import (
    Action,
    Combatant,
    Damaged,
    Encounter,
    Event,
    StatusCleared,
    StatusSet,
)
from fracas.rulesets.base import (
    About,
    ActionSpec,
    Contract,
    Detail,
    DieSpec,
    Lasting,
    Rules,
    StatusSpec,
    TypedRuleset,
    distance,
    sheet_as,
)
from fracas.rulesets.dice_combat.attack import Strike, decide_attack
from fracas.rulesets.dice_combat.data import (
    BEGAN_UNARMED,
    BURN_DAMAGE,
    BURN_TURNS,
    EDGES,
)
from fracas.rulesets.dice_combat.explosives import Blast
from fracas.rulesets.dice_combat.gear import (
    Ready,
    check_action_left,
    check_weapon_unchanged,
    decide_equip,
    decide_reload,
)
from fracas.rulesets.dice_combat.items import SHORTHANDS, Item
from fracas.rulesets.dice_combat.lab import full_magazines
from fracas.rulesets.dice_combat.presenter import DiceCombatPresenter
from fracas.rulesets.dice_combat.sheet import Options, Sheet

__all__ = ["DiceCombat"]


def _ready(rules: Rules[Options], state: Encounter, action: Action) -> Combatant:
    """The refusals of every action, first (2.3): the actor knocked out, its turn over."""
    actor = state.get(action.actor)
    if actor.hp == 0:  # DC-G10
        raise Refusal("knocked_out", f"{actor.id!r} is knocked out (0 HP) and cannot act")
    if state.turn.over:  # DC-32, DC-38
        raise Refusal(
            "turn_over",
            f"the turn of {actor.id!r} has ended (a critical failure or an explosive); "
            "end_turn, move or set are still allowed",
        )
    return actor


def _strike(rules: Rules[Options], state: Encounter, action: Action, throw: bool) -> Strike | Blast:
    """An ``attack`` or a ``throw`` (P-DC-1 to P-DC-3)."""
    actor = _ready(rules, state, action)
    check_weapon_unchanged(state, actor)
    check_action_left(state, actor, rules.options)
    return decide_attack(state, actor, action, rules.options, partial(distance, rules), throw)


def _attack(rules: Rules[Options], state: Encounter, action: Action) -> Strike | Blast:
    return _strike(rules, state, action, throw=False)


def _throw(rules: Rules[Options], state: Encounter, action: Action) -> Strike | Blast:
    return _strike(rules, state, action, throw=True)  # DC-15, DC-31


def _reload(rules: Rules[Options], state: Encounter, action: Action) -> Ready:
    return decide_reload(state, _ready(rules, state, action), rules.options)


def _equip(rules: Rules[Options], state: Encounter, action: Action) -> Ready:
    actor = _ready(rules, state, action)
    return decide_equip(state, actor, str(action.params["item"]), rules.options)


class DiceCombat(TypedRuleset[Sheet, Options, Strike | Blast | Ready]):
    """The reference ruleset."""

    about = About(
        name="dice-combat",
        title="Dice Combat - Weapons & Damage",
        rule_text="000_342b9ddb13dd48fb.txt",
        summary="opposed d20 attack vs Defend, fixed weapon damage, 12 HP, tile ranges, "
        "ammo, explosives, burning",
        ranges_button="Gun range",  # DC-A5: "press Gun range"
        # Issue 36: HP, the ammo spent (DC-7, DC-8: `loaded`) and the items used up
        # (DC-29: an explosive is deleted as it is rolled) last; a fire burns out
        # with its fight (PROPOSED), cover and surrender are the next fight's own.
        lasting=Lasting(sheet=("hand", "inventory"), rules="DC-7, DC-8, DC-29"),
    )
    contract = Contract(
        sheet=Sheet,
        options=Options,
        item_type=Item,
        item_shorthands=tuple(SHORTHANDS),
        default_max_hp=12,  # DC-1
        actions=(
            ActionSpec(
                "attack",
                "attack the target with the item in hand (an explosive: a target or a tile `at`)",
                ("edge", "defend_edge"),
                "combatant_or_tile",
                choices={"edge": EDGES, "defend_edge": EDGES},
                calls=("edge", "defend_edge"),
                decide=_attack,
            ),
            ActionSpec(
                "throw",
                "throw the item in hand: a short weapon (Strong Arm) at a target, "
                "or an explosive at a target or tile",
                ("edge",),
                "combatant_or_tile",
                choices={"edge": EDGES},
                calls=("edge",),
                decide=_throw,
            ),
            ActionSpec(
                "reload",
                "fill the gun in hand (a crossbow: the action; others: free)",
                (),
                "none",
                decide=_reload,
            ),
            ActionSpec(
                "equip",
                "take `item` from the inventory into the hand",
                ("item",),
                "none",
                required=("item",),
                decide=_equip,
            ),
        ),
        dice=(
            DieSpec("attack", 20, "every attack and throw; 2 with `edge`"),
            DieSpec(
                "ammo",
                3,
                "pistol, SMG and rifle attacks, right after `attack`",
                odds_relevant=False,
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
        ),
        statuses=(
            StatusSpec(
                "burning",
                "set by a Molotov hit: damage at the start of each of the victim's turns "
                "(DC-24, DC-25, P-DC-4)",
                {
                    "turns": Detail(int, BURN_TURNS, "ticks still to come (DC-24: 2)"),
                    "damage": Detail(int, BURN_DAMAGE, "damage of each tick (DC-24: 1)"),
                },
            ),
        ),
        refusal_rules={  # the refusals' table, dice-combat.md 2.3
            "knocked_out": "DC-G10",
            "turn_over": "DC-32, DC-38",
            "changed_weapon": "DC-21",
            "no_action_left": "DC-23",
            "not_a_gun": "DC-10",
            "not_throwable": "DC-15",
            "needs_strong_arm": "DC-15",
            "explosives_round_one": "DC-28",
            "out_of_reach": "DC-6",
            "out_of_range": "DC-7, DC-17, DC-27",
            "empty_gun": "DC-8",
        },
        presenter=DiceCombatPresenter,
        chain_key=full_magazines,  # DC-8, DC-10: a gun's magazine keyed full
    )

    # --- hooks ------------------------------------------------------------

    def settle(self, c: Combatant, given: frozenset[str], fresh: bool = False) -> Combatant:
        hand = sheet_as(c, Sheet).hand
        if fresh and (hand is None or hand.type == "other"):  # DC-22: began combat unarmed
            return dataclasses.replace(c, marks=c.marks | {BEGAN_UNARMED})
        return c

    def turn_start(self, state: Encounter, actor: str, dice: Dice) -> list[Event]:
        """P-DC-4: burning ticks at the start of the victim's turn (DC-25)."""
        c = state.get(actor)
        burning = c.statuses.get("burning")
        if burning is None:
            return []
        # A status set by hand holds what ``check_status`` filled in: turns and damage.
        turns, tick = int(burning["turns"]), int(burning["damage"])
        if turns <= 0 or (c.hp == 0 and not self.options.ko_burns):  # DC-G13 option
            return [StatusCleared(actor, "burning")]
        events: list[Event] = [Damaged(actor, tick, "burning")]
        if turns > 1:
            events.append(StatusSet(actor, "burning", {"turns": turns - 1, "damage": tick}))
        else:
            events.append(StatusCleared(actor, "burning"))
        return events
