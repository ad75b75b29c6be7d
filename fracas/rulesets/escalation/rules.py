"""escalation: damage = Escalation + combat rating - defense; a trigger die per target.

Our reading: ``../shared/rules/escalation.md`` (rules ES-0 to ES-21, gaps ES-G1 to
ES-G8, ambiguities ES-A1 to ES-A6, procedures P-ES-1 and P-ES-2 and the contract of
Part 2); the text: seed ``003_891464a053191b77.txt`` (universal weapon rules).

Sides take turns: the players' side, then the enemies'; Escalation starts at 1 and
rises at the end of each enemy side-turn (P-ES-2). Each combatant has two actions a
round (its turn); the second weapon attack made with an action costs 1 Energy (ES-2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, ClassVar

from pydantic import Field

from fracas.dice.source import Dice
from fracas.errors import Refusal
from fracas.model import (
    Action,
    ActionUsed,
    Attempted,
    Combatant,
    Damaged,
    Encounter,
    Event,
    Note,
    StatusSet,
    Turn,
    ValueSet,
)
from fracas.rulesets.base import ActionSpec, DieSpec, Ruleset
from fracas.rulesets.escalation.attack import Verdict, damage, failure_parts, judge
from fracas.rulesets.escalation.events import (
    AttackDeclared,
    ConditionGained,
    EnergySpent,
    TriggerRolled,
)
from fracas.rulesets.escalation.options import Options
from fracas.rulesets.escalation.sheet import Sheet
from fracas.rulesets.escalation.tables import ACTIONS_PER_ROUND, LEVELS_OF_COVER
from fracas.rulesets.escalation.weapons import SHORTHANDS, Weapon

__all__ = ["ESCALATION", "Escalation"]

ESCALATION = "escalation"
"""The encounter-wide value (reported beside ``round``)."""

_ATTACK = "attack:"
"""Kind of an action-attack that counts for double-attacking (``attack:<archetype>``)."""


def _sheet(c: Combatant) -> Sheet:
    sheet: Sheet = c.sheet
    return sheet


def counted_attacks(turn: Turn, archetype: str | None = None) -> int:
    """Action-attacks of this turn that count for double-attacking; of one archetype when
    ``archetype`` is given (ES-2, ES-A1)."""
    if archetype is not None:
        return turn.used.get(_ATTACK + archetype, 0)
    return sum(n for kind, n in turn.used.items() if kind.startswith(_ATTACK))


class Escalation(Ruleset):
    """Universal weapon rules: Melee, Remote and Whelm archetypes, the trigger die."""

    name: ClassVar[str] = "escalation"
    title: ClassVar[str] = "Escalation - universal weapon rules"
    seed_file: ClassVar[str] = "003_891464a053191b77.txt"
    summary: ClassVar[str] = (
        "damage = Escalation + combat rating - defense; a d12 trigger die per target for "
        "failure, crits and conditions; sides take turns, Escalation rises each round"
    )
    options_type = Options
    sheet_type = Sheet
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
    options: Options

    # --- hooks ------------------------------------------------------------

    def dice_specs(self) -> tuple[DieSpec, ...]:
        """ES-G2: the trigger die has the option's number of faces."""
        (trigger,) = self.dice
        return (DieSpec(trigger.label, self.options.trigger_die, trigger.when, True),)

    def initial_values(self) -> dict[str, int]:
        """ES-5: "At the beginning of every conflict, Escalation is 1" (option)."""
        return {ESCALATION: self.options.escalation_start}

    def max_hp_default(self) -> int:
        return self.options.max_hp  # ES-G3

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

    # --- resolution -------------------------------------------------------

    def resolve(self, state: Encounter, action: Action, dice: Dice) -> list[Event]:
        actor = state.get(action.actor)
        free = bool(action.params.get("free", False)) and action.do == "attack"
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
            note = action.params.get("note")
            text = f"{actor.name} acts" + (f": {note}" if note else "")
            return [ActionUsed(actor.id, "act"), Note(text)]
        return self._attack(state, actor, action, free, dice)

    def _weapon(self, actor: Combatant, name: Any) -> Weapon:
        weapons = _sheet(actor).weapons
        for weapon in weapons:
            if name is None or weapon.name == name:
                return weapon
        names = ", ".join(repr(w.name) for w in weapons) or "none"
        what = f"no weapon {name!r}" if name is not None else "no weapon"
        raise Refusal("unknown_weapon", f"{actor.id!r} has {what}; its weapons: {names}")

    def _targets(self, state: Encounter, action: Action) -> list[Combatant]:
        ids: Sequence[str] = action.params.get("targets") or (
            [action.target] if action.target is not None else []
        )
        if not ids:
            raise Refusal("missing_field", "an attack needs a `target` or `targets: [ids]`")
        return [state.get(cid) for cid in ids]

    def _attack(
        self, state: Encounter, actor: Combatant, action: Action, free: bool, dice: Dice
    ) -> list[Event]:
        """P-ES-1: the checks in the order of the refusal table, then a trigger per target."""
        params = action.params
        weapon = self._weapon(actor, params.get("weapon"))
        arch = weapon.archetype
        any_arch = self.options.double_attack_any_archetype
        # ES-2, ES-A1: a second counted action-attack this round is a double attack.
        double = not free and counted_attacks(state.turn, None if any_arch else arch) > 0
        if double and self.options.double_attack_needs_energy and _sheet(actor).energy == 0:
            raise Refusal("no_energy", f"{actor.id!r} has 0 Energy: a double attack costs 1 (ES-2)")
        targets = self._targets(state, action)
        self._check_targets(actor, targets, weapon)
        concealment = params.get("concealment")
        cover = params.get("cover")
        for t in targets:
            if (cover or _sheet(t).cover) == "total":  # ES-17
                raise Refusal(
                    "total_cover", f"{t.id!r} is totally obstructed: it cannot be attacked"
                )
        for c in (actor, *targets):
            if _sheet(c).underwater:  # ES-18
                raise Refusal(
                    "underwater",
                    f"{c.id!r} is underwater: no weapon attacks while underwater or against "
                    "targets that are underwater",
                )
        choice = self._condition_choice(params.get("condition"), targets, weapon)

        escalation = self.escalation(state)
        events: list[Event] = [
            AttackDeclared(
                actor.id, weapon.name, arch, tuple(t.id for t in targets), escalation, free
            )
        ]
        top = self.options.trigger_die
        multi = len(targets) > 1
        landed_any = False
        for target in targets:
            parts = failure_parts(
                self.options,
                _sheet(actor),
                _sheet(target),
                weapon,
                concealment or _sheet(target).concealment,
                cover or _sheet(target).cover,
                int(params.get("failure_mod", 0)),
            )
            failure = sum(n for _, n in parts)
            trigger = dice.roll(top, "trigger", of=target.id if multi else None)  # ES-8
            verdict = judge(trigger, failure, top, weapon.condition_at)
            events += [
                TriggerRolled(
                    target.id,
                    trigger,
                    top,
                    failure,
                    parts,
                    verdict.success,
                    verdict.crit,
                    verdict.lucks_price,
                    verdict.condition,
                ),
                Attempted(actor.id, target.id, verdict.success),
            ]
            if not verdict.success:  # ES-9: no effect at all
                continue
            landed_any = True
            events += self._hit(actor, target, weapon, escalation, verdict, params, choice)
        if free:  # ES-2: free attacks do not count for double-attacking
            return events
        counts = landed_any or self.options.failed_attack_counts  # ES-A4
        used = ActionUsed(actor.id, _ATTACK + arch if counts else "attack")
        if counts and double:
            events.append(EnergySpent(actor.id))  # ES-2, P-ES-1: tracked last
        return [used, *events]

    def _check_targets(self, actor: Combatant, targets: list[Combatant], weapon: Weapon) -> None:
        ids = [t.id for t in targets]
        if actor.id in ids:
            raise Refusal("self_target", f"{actor.id!r} cannot attack itself")
        for i, cid in enumerate(ids):
            if cid in ids[:i]:
                raise Refusal("duplicate_target", f"{cid!r} is listed twice among the targets")
        if len(ids) > weapon.max_targets:  # ES-3, ES-G6
            raise Refusal(
                "too_many_targets",
                f"the {weapon.name!r} attacks at most {weapon.max_targets} target(s), "
                f"not {len(ids)}",
            )
        for t in targets:  # ES-3: only where both stand on the map
            if actor.at is not None and t.at is not None:
                distance = self.distance(actor.at, t.at)
                if distance > weapon.range:
                    raise Refusal(
                        "out_of_range",
                        f"{t.id!r} is {distance} tiles away; the {weapon.name!r} reaches "
                        f"{weapon.range}",
                    )

    @staticmethod
    def _condition_choice(
        given: Any, targets: list[Combatant], weapon: Weapon
    ) -> Mapping[str, str]:
        """ES-12: the wielder's choice of condition, per target id; each one of the
        weapon's three (``bad_condition`` otherwise)."""
        if given is None:
            return {}
        ids = [t.id for t in targets]
        choice = dict(given) if isinstance(given, Mapping) else dict.fromkeys(ids, given)
        for cid, name in choice.items():
            if cid not in ids:
                raise Refusal("bad_condition", f"`condition` names {cid!r}, not a target")
            if name not in weapon.conditions:
                raise Refusal(
                    "bad_condition",
                    f"{name!r} is not a condition of the {weapon.name!r}; its three: "
                    f"{', '.join(weapon.conditions)}",
                )
        return choice

    def _hit(
        self,
        actor: Combatant,
        target: Combatant,
        weapon: Weapon,
        escalation: int,
        verdict: Verdict,
        params: Mapping[str, Any],
        choice: Mapping[str, str],
    ) -> list[Event]:
        """A successful attack on one target: damage (ES-7), assassination (ES-20), the
        condition (ES-12, ES-13), in the order of P-ES-1."""
        events: list[Event] = []
        unseen = bool(params.get("unseen", False))
        if unseen and not weapon.backstab:  # ES-21
            events.append(Note(f"  no backstab: the {weapon.name} cannot backstab (ES-21)"))
        amount, why = damage(
            self.options,
            escalation,
            _sheet(actor),
            _sheet(target),
            weapon,
            crit=verdict.crit,
            backstab=unseen and weapon.backstab,  # ES-19, ES-21
        )
        if bool(params.get("unexpected", False)):
            level, own = _sheet(target).level, _sheet(actor).level
            if not weapon.assassinate:  # ES-21
                events.append(Note(f"  no assassination: the {weapon.name} cannot (ES-21)"))
            elif level > own:  # ES-20: immune, resolved normally
                events.append(
                    Note(f"  {target.name} is immune to assassination (level {level} > {own})")
                )
            else:  # ES-20: it instantly dies
                events += [
                    Damaged(target.id, max(amount, target.hp), f"assassinated; {why}"),
                    StatusSet(target.id, "dead", {"by": actor.id}),
                ]
                return events + self._condition(target, weapon, verdict.condition, choice)
        events.append(Damaged(target.id, amount, why))
        return events + self._condition(target, weapon, verdict.condition, choice)

    def _condition(
        self, target: Combatant, weapon: Weapon, earned: bool, choice: Mapping[str, str]
    ) -> list[Event]:
        if not earned:
            return []  # 2.3: a `condition` given when the trigger earns none is ignored
        held = _sheet(target).conditions
        name = choice.get(target.id)
        if name is None and self.options.auto_condition == "first_missing":
            name = next((c for c in weapon.conditions if c not in held), None)
        if name is None:
            why = "none chosen" if self.options.auto_condition == "none" else "it has all three"
            return [Note(f"  no condition for {target.name}: {why}")]
        if name in held:  # ES-13
            return [Note(f"  {target.name} is already {name}: nothing more (ES-13)")]
        return [ConditionGained(target.id, name)]
