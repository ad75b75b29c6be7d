"""escalation: damage = Escalation + combat rating - defense; a trigger die per target.

Our reading: ``../shared/rules/escalation.md`` (rules ES-0 to ES-21, gaps ES-G1 to
ES-G8, ambiguities ES-A1 to ES-A6, procedures P-ES-1 and P-ES-2 and the contract of
Part 2); the text: seed ``003_891464a053191b77.txt`` (universal weapon rules).

Sides take turns: the players' side, then the enemies'; Escalation starts at 1 and
rises at the end of each enemy side-turn (P-ES-2). Each combatant has two actions a
round (its turn); the second weapon attack made with an action costs 1 Energy (ES-2).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar

from pydantic import Field

from fracas.dice.source import Dice
from fracas.errors import Refusal
from fracas.model import Action, ActionUsed, Combatant, Encounter, Event, Turn, ValueSet
from fracas.rulesets.base import ActionSpec, Detail, DieSpec, StatusSpec, TypedRuleset
from fracas.rulesets.escalation.attack import (
    AttackPlan,
    NextTarget,
    counted_attacks,
    decide_attack,
    roll_attack,
)
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

__all__ = ["ESCALATION", "Escalation", "counted_attacks"]


@dataclass(frozen=True, slots=True)
class Acting:
    """A decided ``act``: one of the two actions spent on anything else (ES-1)."""

    actor: str
    note: str | None


class Escalation(TypedRuleset[Sheet, Options]):
    """Universal weapon rules: Melee, Remote and Whelm archetypes, the trigger die."""

    name: ClassVar[str] = "escalation"
    title: ClassVar[str] = "Escalation - universal weapon rules"
    seed_file: ClassVar[str] = "003_891464a053191b77.txt"
    summary: ClassVar[str] = (
        "damage = Escalation + combat rating - defense; a d12 trigger die per target for "
        "failure, crits and conditions; sides take turns, Escalation rises each round"
    )
    item_type = Weapon
    item_shorthands: ClassVar[tuple[str, ...]] = SHORTHANDS
    default_max_hp: ClassVar[int] = 20  # ES-G3 (PROPOSED; option max_hp)
    encounter_values: ClassVar[tuple[str, ...]] = (ESCALATION,)
    actions: ClassVar[tuple[ActionSpec, ...]] = (
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
        ),
        ActionSpec(
            "act",
            "spend one of the two actions on anything but a weapon attack (logged)",
            ("note",),
            "none",
            types={"note": str},
        ),
    )
    dice: ClassVar[tuple[DieSpec, ...]] = (
        DieSpec(
            "trigger",
            12,
            "every attack, one per target: `trigger`, or `trigger:id` for each target of a "
            "multi-target attack in the order of `targets` (option trigger_die)",
            per_combatant=True,
        ),
    )
    statuses: ClassVar[tuple[StatusSpec, ...]] = (
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
    )
    refusal_rules: ClassVar[Mapping[str, str]] = {  # the refusals' table, escalation.md 2.3
        "down": "ES-G3",
        "no_action_left": "ES-1",
        "no_energy": "ES-2",
        "too_many_targets": "ES-G6",
        "out_of_range": "ES-3",
        "total_cover": "ES-17",
        "underwater": "ES-18",
        "bad_condition": "ES-12",
    }
    presenter_type = EscalationPresenter  # 2.6: Energy, conditions, actions; Escalation

    # --- hooks ------------------------------------------------------------

    def dice_specs(self) -> tuple[DieSpec, ...]:
        """ES-G2: the trigger die has the option's number of faces."""
        (trigger,) = self.dice
        return (DieSpec(trigger.label, self.options.trigger_die, trigger.when, True),)

    def initial_values(self) -> dict[str, int]:
        """ES-5: "At the beginning of every conflict, Escalation is 1" (option)."""
        return {ESCALATION: self.options.escalation_start}

    def initiative(self, state: Encounter, dice: Dice) -> tuple[str, ...]:
        """P-ES-2: the players' side in file order, then the rest in file order."""
        players = [cid for cid, c in state.combatants.items() if self._is_player(c)]
        return (*players, *(cid for cid in state.combatants if cid not in players))

    def turn_end(self, state: Encounter, actor: str, dice: Dice) -> list[Event]:
        """ES-5, ES-G7: +1 at the end of an enemy's turn, when the players go next
        (``side_turn``) or after every enemy combatant (``enemy_turn``)."""
        if self._is_player(state.get(actor)):
            return []
        if self.options.escalation_step == "side_turn":
            following = state.order[(state.order.index(actor) + 1) % len(state.order)]
            if not self._is_player(state.get(following)):
                return []
        return [ValueSet(ESCALATION, self.escalation(state) + 1)]

    def is_down(self, c: Combatant) -> bool:
        return c.hp == 0 or "dead" in c.statuses  # ES-G3, ES-20

    def param_choices(
        self, state: Encounter, actor: str, spec: ActionSpec
    ) -> dict[str, tuple[str, ...]]:
        """Besides the weapons: ES-12's ``condition``, the wielder's choice among its
        weapons' three each (the weapon used must have it: ``bad_condition``)."""
        out = super().param_choices(state, actor, spec)
        if "condition" in spec.params:
            weapons = self.sheet(state.get(actor)).weapons
            out["condition"] = tuple(dict.fromkeys(c for w in weapons for c in w.conditions))
        return out

    def combatant_json(self, state: Encounter, c: Combatant) -> dict[str, Any]:
        """2.6: the sheet, plus what the combatant can do if it acts now: the combatant
        whose turn it is has what its turn left; any other starts a turn when it acts,
        where both reset (2 actions, 0 attacks)."""
        out = self.sheet_json(c)
        turn = state.turn if state.turn.actor == c.id else Turn(c.id)
        out["actions_left"] = 0 if self.is_down(c) else ACTIONS_PER_ROUND - turn.actions_used
        out["attacks_this_round"] = counted_attacks(turn)
        return out

    def escalation(self, state: Encounter) -> int:
        """The current Escalation (ES-5)."""
        return state.values.get(ESCALATION, self.options.escalation_start)

    def _is_player(self, c: Combatant) -> bool:
        return c.side == self.options.player_side

    # --- an action: decide, then roll -------------------------------------

    def decide(self, state: Encounter, action: Action) -> Hashable:
        """2.3: the refusals in the table's order (down and no action left first), then
        the attack's plan (:func:`~.attack.decide_attack`) or the other action."""
        actor = state.get(action.actor)
        free = action.do == "attack" and action.params.get("free", False)
        if self.is_down(actor):  # ES-G3
            why = "is dead" if "dead" in actor.statuses else "has 0 HP"
            raise Refusal("down", f"{actor.id!r} {why} and cannot act")
        if not free and state.turn.actions_used >= ACTIONS_PER_ROUND:  # ES-1
            raise Refusal(
                "no_action_left",
                f"{actor.id!r} has used both its actions this round; end_turn to go on, "
                "or attack with `free: true` (a free action)",
            )
        if action.do == "act":
            return Acting(actor.id, action.params.get("note"))
        return decide_attack(state, action, self.options, self.escalation(state), self.distance)

    def roll(self, state: Encounter, decision: Any, dice: Dice) -> list[Event]:
        """P-ES-1's trigger dice (:func:`~.attack.roll_attack`); ``act`` rolls none."""
        if isinstance(decision, Acting):
            return [ActionUsed(decision.actor, "act"), Acted(decision.actor, decision.note)]
        if isinstance(decision, NextTarget):
            return roll_attack(decision.plan, dice, decision.index, decision.landed)
        assert isinstance(decision, AttackPlan)
        return roll_attack(decision, dice)
