"""escalation: damage = Escalation + combat rating - defense; a trigger die per target.

Our reading: ``../shared/rules/escalation.md`` (rules ES-0 to ES-21, gaps ES-G1 to
ES-G8, ambiguities ES-A1 to ES-A6, procedures P-ES-1 and P-ES-2 and the contract of
Part 2); the text: seed ``003_891464a053191b77.txt`` (universal weapon rules).

Sides take turns: the players' side, then the enemies'; Escalation starts at 1 and
rises at the end of each enemy side-turn (P-ES-2). Each combatant has two actions a
round (its turn); the second weapon attack made with an action costs 1 Energy (ES-2).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Annotated

from pydantic import Field

from fracas.dice.source import Dice
from fracas.errors import Refusal
from fracas.model import Action, ActionUsed, Combatant, Encounter, Event, ValueSet
from fracas.rulesets.base import (
    About,
    ActionSpec,
    Contract,
    Decision,
    Detail,
    DieSpec,
    Lasting,
    Rules,
    StatusSpec,
    TypedRuleset,
    ValueSpec,
    distance,
    is_down,
    sheet_as,
)
from fracas.rulesets.escalation.attack import AttackPlan, counted_attacks, decide_attack
from fracas.rulesets.escalation.data import (
    ACTIONS_PER_ROUND,
    ESCALATION,
    LEVELS_OF_COVER,
    STANDARD_CONDITIONS,
)
from fracas.rulesets.escalation.events import Acted
from fracas.rulesets.escalation.options import Options
from fracas.rulesets.escalation.presenter import EscalationPresenter
from fracas.rulesets.escalation.sheet import Sheet
from fracas.rulesets.escalation.weapons import SHORTHANDS, Weapon

__all__ = ["ESCALATION", "Escalation", "counted_attacks", "escalation", "is_player"]


@dataclass(frozen=True, slots=True)
class Acting(Decision):
    """A decided ``act``: one of the two actions spent on anything else (ES-1)."""

    actor: str
    note: str | None

    def roll(self, rules: Rules[Options], state: Encounter, dice: Dice) -> list[Event]:
        return [ActionUsed(self.actor, "act"), Acted(self.actor, self.note)]


def escalation(rules: Rules[Options], state: Encounter) -> int:
    """The current Escalation (ES-5)."""
    return state.values.get(ESCALATION, rules.options.escalation_start)


def is_player(rules: Rules[Options], c: Combatant) -> bool:
    return c.side == rules.options.player_side


def _ready(
    rules: Rules[Options], state: Encounter, action: Action, free: bool = False
) -> Combatant:
    """2.3: the refusals of every action, in the table's order (down and no action left
    first; ``free``: an attack that takes no action)."""
    actor = state.get(action.actor)
    if is_down(rules, actor):  # ES-G3
        why = "is dead" if "dead" in actor.statuses else "has 0 HP"
        raise Refusal("down", f"{actor.id!r} {why} and cannot act")
    if not free and state.turn.actions_used >= ACTIONS_PER_ROUND:  # ES-1
        raise Refusal(
            "no_action_left",
            f"{actor.id!r} has used both its actions this round; end_turn to go on, "
            "or attack with `free: true` (a free action)",
        )
    return actor


def _attack(rules: Rules[Options], state: Encounter, action: Action) -> AttackPlan:
    """The attack's plan (:func:`~.attack.decide_attack`)."""
    _ready(rules, state, action, free=bool(action.params.get("free", False)))
    return decide_attack(
        state, action, rules.options, escalation(rules, state), partial(distance, rules)
    )


def _act(rules: Rules[Options], state: Encounter, action: Action) -> Acting:
    actor = _ready(rules, state, action)
    return Acting(actor.id, action.params.get("note"))


class Escalation(TypedRuleset[Sheet, Options, AttackPlan | Acting]):
    """Universal weapon rules: Melee, Remote and Whelm archetypes, the trigger die."""

    about = About(
        name="escalation",
        title="Escalation - universal weapon rules",
        rule_text="003_891464a053191b77.txt",
        summary="damage = Escalation + combat rating - defense; a d12 trigger die per target "
        "for failure, crits and conditions; sides take turns, Escalation rises each round",
        # Issue 36: HP, the Energy spent (ES-2) and conditions (ES-12, ES-13: the text
        # gives them no end) last, and death (ES-20); Escalation is 1 again at the
        # beginning of every conflict (ES-G3: the encounter's own value).
        lasting=Lasting(
            sheet=("energy", "conditions"), statuses=("dead",), rules="ES-2, ES-12, ES-20"
        ),
    )
    contract = Contract(
        sheet=Sheet,
        options=Options,
        item_type=Weapon,
        item_shorthands=SHORTHANDS,
        default_max_hp=20,  # ES-G3 (PROPOSED; option max_hp)
        encounter_values=(
            ValueSpec(
                ESCALATION,
                "Escalation",
                "added to every weapon's damage; +1 as the turn passes from the enemies to "
                "the players (ES-4, ES-5)",
            ),
        ),
        down_statuses=("dead",),  # ES-G3, ES-20
        actions=(
            ActionSpec(
                "attack",
                "attack `target`, or several `targets: [ids]` (Whelm), with `weapon` (default "
                "the first); one of the two actions unless `free`",
                (
                    "targets",
                    "weapon",
                    "free",
                    "unseen",
                    "unexpected",
                    "concealment",
                    "cover",
                    "failure_mod",
                    "condition",
                ),
                "combatants",
                choices={"concealment": LEVELS_OF_COVER, "cover": LEVELS_OF_COVER},
                types={
                    "targets": Annotated[list[str], Field(min_length=1)],
                    "weapon": str,
                    "free": bool,
                    "unseen": bool,
                    "unexpected": bool,
                    "failure_mod": int,
                    "condition": str | dict[str, str],
                },
                combatant_params=("targets", "condition"),
                calls=("free", "unseen", "unexpected", "concealment", "cover", "failure_mod"),
                decide=_attack,
            ),
            ActionSpec(
                "act",
                "spend one of the two actions on anything but a weapon attack (logged)",
                ("note",),
                "none",
                types={"note": str},
                decide=_act,
            ),
        ),
        dice=(
            DieSpec(
                "trigger",
                12,
                "every attack, one per target: `trigger`, or `trigger:id` for each target of a "
                "multi-target attack in the order of `targets` (option trigger_die)",
                per_combatant=True,
                sides_option="trigger_die",  # ES-G2
            ),
        ),
        statuses=(
            StatusSpec(
                "dead",
                "assassinated: out of the fight until a game master's set ends it (ES-20, 2.6)",
                {"by": Detail(str, "", "the assassin's id")},
            ),
            *(  # ES-12, ES-G1: a condition is held on the sheet, a set, until taken off
                StatusSpec(
                    name,
                    "a standard condition: no mechanics of its own (ES-G1); held until the "
                    "game master takes it off (ES-13: a set, given once)",
                    on_sheet="conditions",
                )
                for name in STANDARD_CONDITIONS
            ),
        ),
        refusal_rules={  # the refusals' table, escalation.md 2.3
            "down": "ES-G3",
            "no_action_left": "ES-1",
            "no_energy": "ES-2",
            "too_many_targets": "ES-G6",
            "out_of_range": "ES-3",
            "total_cover": "ES-17",
            "underwater": "ES-18",
            "bad_condition": "ES-12",
        },
        presenter=EscalationPresenter,  # 2.6: Energy, conditions, actions; Escalation
    )

    # --- hooks ------------------------------------------------------------

    def initial_values(self) -> dict[str, int]:
        """ES-5: "At the beginning of every conflict, Escalation is 1" (option)."""
        return {ESCALATION: self.options.escalation_start}

    def initiative(self, state: Encounter, dice: Dice) -> tuple[tuple[str, ...], list[Event]]:
        """P-ES-2: the players' side in file order, then the rest in file order."""
        players = [cid for cid, c in state.combatants.items() if is_player(self, c)]
        return (*players, *(cid for cid in state.combatants if cid not in players)), []

    def turn_end(self, state: Encounter, actor: str, dice: Dice) -> list[Event]:
        """ES-5, ES-G7: +1 at the end of an enemy's turn, when the players go next
        (``side_turn``) or after every enemy combatant (``enemy_turn``)."""
        if is_player(self, state.get(actor)):
            return []
        if self.options.escalation_step == "side_turn":
            following = state.order[(state.order.index(actor) + 1) % len(state.order)]
            if not is_player(self, state.get(following)):
                return []
        return [ValueSet(ESCALATION, escalation(self, state) + 1)]

    def param_choices(
        self, state: Encounter, actor: str, spec: ActionSpec
    ) -> dict[str, tuple[str, ...]]:
        """Besides the weapons: ES-12's ``condition``, the wielder's choice among its
        weapons' three each (the weapon used must have it: ``bad_condition``)."""
        out = super().param_choices(state, actor, spec)
        if "condition" in spec.params:
            weapons = sheet_as(state.get(actor), Sheet).weapons
            out["condition"] = tuple(dict.fromkeys(c for w in weapons for c in w.conditions))
        return out
