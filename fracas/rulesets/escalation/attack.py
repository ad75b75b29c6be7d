"""P-ES-1, an attack: :func:`decide_attack` checks it (the refusals of 2.3) and works out
everything the trigger dice do not decide, per target (failure, damage with and without
the crit, assassination, the condition); :func:`roll_attack` rolls one trigger per target
and picks. The arithmetic (failure, the trigger's verdict, damage) is in ``damage.py``."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from fracas.dice.pools import Faces, Pool, roll_pool
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
    StatusSet,
    Turn,
)
from fracas.model.frozen import HashKept, kept_hash
from fracas.model.grid import Tile
from fracas.rulesets.base import Decision, Rules, sheet_as
from fracas.rulesets.escalation.damage import damage, failure_parts, judge
from fracas.rulesets.escalation.events import (
    AssassinationImmune,
    AttackDeclared,
    ConditionGained,
    ConditionHeld,
    CriticalTrigger,
    EnergySpent,
    NoCondition,
    TriggerRolled,
    WeaponCannot,
)
from fracas.rulesets.escalation.options import Options
from fracas.rulesets.escalation.sheet import Sheet
from fracas.rulesets.escalation.weapons import Weapon
from fracas.rulesets.steps import Then

__all__ = [
    "AttackPlan",
    "NextTarget",
    "TargetPlan",
    "counted_attacks",
    "decide_attack",
    "roll_attack",
]

_ATTACK = "attack:"
"""Kind of an action-attack that counts for double-attacking (``attack:<archetype>``)."""


def counted_attacks(turn: Turn, archetype: str | None = None) -> int:
    """Action-attacks of this turn that count for double-attacking; of one archetype when
    ``archetype`` is given (ES-2, ES-A1)."""
    if archetype is not None:
        return turn.used.get(_ATTACK + archetype, 0)
    return sum(n for kind, n in turn.used.items() if kind.startswith(_ATTACK))


@dataclass(frozen=True, slots=True)
class TargetPlan:
    """One target of a decided attack: its failure and what a success does, by verdict."""

    target: str
    parts: tuple[tuple[str, int], ...]
    """The failure sources that apply (ES-9, ES-15 to ES-17)."""
    failure: int
    hit: tuple[Event, ...]
    """A success without the crit: damage, skullduggery (ES-7, ES-19 to ES-21)."""
    crit: tuple[Event, ...]
    """The same with the crit's bonus (ES-11)."""
    condition: tuple[Event, ...]
    """What a trigger that earns a condition adds (ES-12, ES-13)."""
    verdicts: _Verdicts
    """What the exact odds class its trigger die by (success, crit)."""


@dataclass(frozen=True, slots=True)
class AttackPlan(HashKept, Decision):
    """A decided attack: the decision of :func:`decide_attack`."""

    __hash__ = kept_hash  # the exact odds key every step after the first by its plan

    actor: str
    archetype: str
    declared: AttackDeclared
    targets: tuple[TargetPlan, ...]
    top: int
    """The trigger die's top face (option ``trigger_die``)."""
    condition_at: int
    free: bool
    double: bool
    """A second counted action-attack this round (ES-2): it costs 1 Energy."""
    failed_counts: bool
    """A failed attack counts for double-attacking (ES-A4)."""

    def roll(self, rules: Rules[Options], state: Encounter, dice: Dice) -> list[Event]:
        """P-ES-1's trigger dice (:func:`roll_attack`)."""
        return roll_attack(self, dice)


def decide_attack(
    state: Encounter,
    action: Action,
    o: Options,
    escalation: int,
    distance: Callable[[Tile, Tile], int],
) -> AttackPlan:
    """P-ES-1 before the dice: the checks in the order of the refusal table (2.3), then
    each target's failure and the events of each verdict."""
    params = action.params
    actor = state.get(action.actor)
    free = bool(params.get("free", False))
    weapon = _weapon(actor, params.get("weapon"))
    arch = weapon.archetype
    any_arch = o.double_attack_any_archetype
    # ES-2, ES-A1: a second counted action-attack this round is a double attack.
    double = not free and counted_attacks(state.turn, None if any_arch else arch) > 0
    if double and o.double_attack_needs_energy and sheet_as(actor, Sheet).energy == 0:
        raise Refusal("no_energy", f"{actor.id!r} has 0 Energy: a double attack costs 1 (ES-2)")
    targets = _targets(state, action)
    _check_targets(actor, targets, weapon, distance)
    concealment = params.get("concealment")
    cover = params.get("cover")
    for t in targets:
        if (cover or sheet_as(t, Sheet).cover) == "total":  # ES-17
            raise Refusal("total_cover", f"{t.id!r} is totally obstructed: it cannot be attacked")
    for c in (actor, *targets):
        if sheet_as(c, Sheet).underwater:  # ES-18
            raise Refusal(
                "underwater",
                f"{c.id!r} is underwater: no weapon attacks while underwater or against "
                "targets that are underwater",
            )
    choice = _condition_choice(params.get("condition"), targets, weapon)
    plans = []
    for target in targets:
        them = sheet_as(target, Sheet)
        parts = failure_parts(
            o,
            sheet_as(actor, Sheet),
            them,
            weapon,
            concealment or them.concealment,
            cover or them.cover,
            params.get("failure_mod", 0),
        )
        failure = sum(n for _, n in parts)
        plans.append(
            TargetPlan(
                target.id,
                parts,
                failure,
                _hit(o, actor, target, weapon, escalation, params, crit=False),
                _hit(o, actor, target, weapon, escalation, params, crit=True),
                _condition(o, target, weapon, choice),
                _Verdicts(failure, o.trigger_die, weapon.condition_at),
            )
        )
    declared = AttackDeclared(
        actor.id, weapon.name, arch, tuple(t.id for t in targets), escalation, free
    )
    return AttackPlan(
        actor.id,
        arch,
        declared,
        tuple(plans),
        o.trigger_die,
        weapon.condition_at,
        free,
        double,
        o.failed_attack_counts,
    )


def roll_attack(plan: AttackPlan, dice: Dice, start: int = 0, landed: bool = False) -> list[Event]:
    """P-ES-1's dice: a trigger per target (ES-8), its verdict, and what it does; then the
    double attack is tracked (ES-2). From target ``start`` on (an earlier one ``landed``
    or not); the targets after the first are steps (:class:`NextTarget`)."""
    events: list[Event] = [plan.declared] if start == 0 else []
    targets = plan.targets
    multi = len(targets) > 1
    for i in range(start, len(targets)):
        t = targets[i]
        # ES-8: the trigger die, drawn by the exact odds as one branch per verdict
        of = t.target if multi else None
        faces = roll_pool(dice, _die(plan.top), "trigger", key=t.verdicts, of=of)
        trigger = faces[0][0]
        verdict = judge(trigger, t.failure, plan.top, plan.condition_at)
        kind = CriticalTrigger if verdict.crit else TriggerRolled
        events += [
            kind(
                t.target,
                trigger,
                plan.top,
                t.failure,
                t.parts,
                verdict.success,
                verdict.crit,
                verdict.lucks_price,
                verdict.condition,
            ),
            Attempted(plan.actor, t.target, verdict.success),
        ]
        if verdict.success:
            landed = True
            events += t.crit if verdict.crit else t.hit
            if verdict.condition:  # 2.3: a `condition` given when none is earned is ignored
                events += t.condition
        # ES-9: a failed trigger has no effect at all
        if i + 1 < len(targets):
            return [*events, Then(NextTarget(plan, i + 1, landed))]
    if plan.free:  # ES-2: free attacks do not count for double-attacking
        return events
    counts = landed or plan.failed_counts  # ES-A4
    events.append(ActionUsed(plan.actor, _ATTACK + plan.archetype if counts else "attack"))
    if counts and plan.double:
        events.append(EnergySpent(plan.actor))  # ES-2, P-ES-1: tracked last
    return events


@dataclass(frozen=True, slots=True)
class NextTarget(Decision):
    """The rest of an attack on several targets (P-ES-1): the trigger of target
    ``index`` and those after it; ``landed``: an earlier trigger succeeded (ES-A4)."""

    plan: AttackPlan
    index: int
    landed: bool

    def odds_key(self) -> Hashable:
        """What the odds of the rest depend on (``fracas.rulesets.steps``): not ``landed``, which
        only says whether the attack counts for double-attacking (ES-A4, ES-2): an
        action used and maybe Energy, never a summary nor who is down."""
        return (self.plan, self.index)

    def odds_scope(self) -> frozenset[str]:
        """Whom the rest is about (``fracas.rulesets.steps``): the targets still to roll, each
        with its own trigger die (ES-8) and verdict, and the attacker, whose action and
        Energy are tracked last (ES-2)."""
        return frozenset((self.plan.actor, *(t.target for t in self.plan.targets[self.index :])))

    def roll(self, rules: Rules[Options], state: Encounter, dice: Dice) -> list[Event]:
        return roll_attack(self.plan, dice, self.index, self.landed)


@lru_cache(maxsize=64)
def _die(top: int) -> Pool:
    """ES-8, ES-G2: the trigger die (a d12 unless option ``trigger_die`` says otherwise)."""
    return Pool((top,))


@dataclass(frozen=True, slots=True)
class _Verdicts:
    """A trigger die's class for the exact odds: whether it succeeds and whether it
    crits (ES-9 to ES-11, ES-14), all that the odds read of the face. A condition
    (ES-12) is a ``keeps_down`` event that nothing later in the roll reads, and Luck's
    Price only its line: both may come from the class's representative face
    (``fracas.dice.pools``)."""

    failure: int
    top: int
    condition_at: int

    def __call__(self, faces: Faces) -> Hashable:
        verdict = judge(faces[0][0], self.failure, self.top, self.condition_at)
        return (verdict.success, verdict.crit)


def _weapon(actor: Combatant, name: Any) -> Weapon:
    weapons = sheet_as(actor, Sheet).weapons
    for weapon in weapons:
        if name is None or weapon.name == name:
            return weapon
    names = ", ".join(repr(w.name) for w in weapons) or "none"
    what = f"no weapon {name!r}" if name is not None else "no weapon"
    raise Refusal("unknown_weapon", f"{actor.id!r} has {what}; its weapons: {names}")


def _targets(state: Encounter, action: Action) -> list[Combatant]:
    ids: Sequence[str] = action.params.get("targets") or (
        [action.target] if action.target is not None else []
    )
    if not ids:
        raise Refusal("missing_field", "an attack needs a `target` or `targets: [ids]`")
    return [state.get(cid) for cid in ids]


def _check_targets(
    actor: Combatant,
    targets: list[Combatant],
    weapon: Weapon,
    distance: Callable[[Tile, Tile], int],
) -> None:
    ids = [t.id for t in targets]
    if actor.id in ids:
        raise Refusal("self_target", f"{actor.name} cannot attack itself: choose other combatants")
    for i, cid in enumerate(ids):
        if cid in ids[:i]:
            raise Refusal("duplicate_target", f"{cid!r} is listed twice among the targets")
    if len(ids) > weapon.max_targets:  # ES-3, ES-G6
        raise Refusal(
            "too_many_targets",
            f"the {weapon.name!r} attacks at most {weapon.max_targets} target(s), not {len(ids)}",
        )
    for t in targets:  # ES-3: only where both stand on the map
        if actor.at is not None and t.at is not None:
            tiles = distance(actor.at, t.at)
            if tiles > weapon.range:
                raise Refusal(
                    "out_of_range",
                    f"{t.id!r} is {tiles} tiles away; the {weapon.name!r} reaches {weapon.range}",
                )


def _condition_choice(given: Any, targets: list[Combatant], weapon: Weapon) -> Mapping[str, str]:
    """ES-12: the wielder's choice of condition, per target id; each one of the weapon's
    three (``bad_condition`` otherwise)."""
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
    o: Options,
    actor: Combatant,
    target: Combatant,
    weapon: Weapon,
    escalation: int,
    params: Mapping[str, Any],
    *,
    crit: bool,
) -> tuple[Event, ...]:
    """A successful attack on one target: damage (ES-7) or assassination (ES-20), in the
    order of P-ES-1 (the condition follows)."""
    events: list[Event] = []
    unseen = params.get("unseen", False)
    if unseen and not weapon.backstab:  # ES-21
        events.append(WeaponCannot(weapon.name, "backstab"))
    me, them = sheet_as(actor, Sheet), sheet_as(target, Sheet)
    amount, why = damage(
        o, escalation, me, them, weapon, crit=crit, backstab=unseen and weapon.backstab
    )  # ES-19, ES-21
    if params.get("unexpected", False):
        if not weapon.assassinate:  # ES-21
            events.append(WeaponCannot(weapon.name, "assassinate"))
        elif them.level > me.level:  # ES-20: immune, resolved normally
            events.append(AssassinationImmune(target.id, them.level, me.level))
        else:  # ES-20: it instantly dies
            events += [
                Damaged(target.id, max(amount, target.hp), f"assassinated; {why}"),
                StatusSet(target.id, "dead", {"by": actor.id}),
            ]
            return tuple(events)
    events.append(Damaged(target.id, amount, why))
    return tuple(events)


def _condition(
    o: Options, target: Combatant, weapon: Weapon, choice: Mapping[str, str]
) -> tuple[Event, ...]:
    """ES-12, ES-13: the condition a trigger that earns one gives (the wielder's choice,
    else the first of the weapon's three the target lacks)."""
    held = sheet_as(target, Sheet).conditions
    name = choice.get(target.id)
    if name is None and o.auto_condition == "first_missing":
        name = next((c for c in weapon.conditions if c not in held), None)
    if name is None:
        return (NoCondition(target.id, all_held=o.auto_condition != "none"),)
    if name in held:  # ES-13
        return (ConditionHeld(target.id, name),)
    return (ConditionGained(target.id, name),)
