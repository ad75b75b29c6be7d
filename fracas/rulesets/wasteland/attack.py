"""Phase 1 of an attack (wasteland.md P-WL-1, 2.5): the refusals, in the contract's
order, and everything decided before the first die: cost, modifiers, Evasion, the
creatures on the line of fire.

:func:`decide_attack` (and :func:`plan_attack` for the off-turn attacks) raises
:class:`~fracas.errors.Refusal` or returns the decision; no die is rolled here
(``fire.roll_attack`` rolls it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from fracas.dice.source import Dice
from fracas.errors import Refusal
from fracas.model import Action, Combatant, Encounter, Event
from fracas.model.frozen import FrozenDict, HashKept, canonical, kept_hash
from fracas.model.grid import Tile, chebyshev
from fracas.rulesets.base import Decision, Rules, sheet_as
from fracas.rulesets.wasteland.damage import Victim, victim
from fracas.rulesets.wasteland.data import (
    BURST_EXTRA_AP,
    CALLED_EXTRA_AP,
    GLANCING_MARGIN,
    LIMBS,
    LimbName,
)
from fracas.rulesets.wasteland.fire import roll_attack
from fracas.rulesets.wasteland.sheet import Options, Sheet
from fracas.rulesets.wasteland.stats import (
    DYING,
    PEEKING,
    burst_penalty,
    burst_shots,
    called_penalty,
    evasion,
    has,
    max_ap,
    weapon_named,
)
from fracas.rulesets.wasteland.weapons import Weapon

__all__ = [
    "Attack",
    "Gate",
    "Plan",
    "check_actor",
    "decide_attack",
    "find_weapon",
    "pay",
    "plan_attack",
    "stray_line",
]


@dataclass(frozen=True, slots=True)
class Plan(HashKept):
    """An attack as decided in Phase 1 (WL-5, WL-6, WL-11, WL-12, WL-17, WL-24). Its
    hash kept: the exact odds of a burst hash it in every step's key, thousands of
    times an action."""

    __hash__ = kept_hash

    actor: str
    target: str
    weapon: Weapon
    index: int | None
    """The weapon's place on the sheet; None for the implicit unarmed."""
    cost: int
    spend: int
    """AP paid now; ``cost - spend`` is the overflow debt (WL-34)."""
    called: LimbName | None
    shots: int | None
    """Shots of a burst; None for single fire."""
    parts: tuple[tuple[str, int], ...]
    bonus: int
    evasion: int
    glancing: int
    """The Glancing Threshold: a total above it is Solid (WL-12)."""
    crit_min: int
    critfail_max: int
    sneak: int | None
    """The Sneak bonus of a Sneak Attack (WL-17); None otherwise."""
    flanking: bool
    melee_bonus: int
    """Bonus Melee Damage of a melee or unarmed attack (WL-18)."""
    strays: tuple[str, ...]
    """Creatures behind the target on the line of fire, nearest first (WL-24)."""
    shielded: frozenset[str]
    """Allies of an attacker with Trigger Discipline: stray shots never hit them (WL-24)."""
    creature_cover: tuple[tuple[int, str], ...]
    """(shot, creature) pairs: shot N, if it hits, hits that creature instead (WL-24)."""
    free: str | None
    """An off-turn attack that costs no AP (``overwatch shot``, ``opportunity attack``,
    ``riposte``); None: an own-turn attack."""
    victim: Victim
    """The target as the attack finds it."""
    others: FrozenDict[str, Victim]
    """The creatures on the line of fire and behind creature cover, as it finds them."""


@dataclass(frozen=True, slots=True)
class Attack(Decision):
    """A decided attack: its plan, and the events that come before its dice (an off-turn
    attack's reaction used, an Overwatch shot spent)."""

    plan: Plan
    first: tuple[Event, ...] = ()

    def roll(self, rules: Rules[Options], state: Encounter, dice: Dice) -> list[Event]:
        """P-WL-1, P-WL-2's dice (:func:`~.fire.roll_attack`)."""
        return roll_attack(self, dice, rules.options)


def decide_attack(state: Encounter, action: Action, options: Options) -> Attack:
    """2.5 ``attack``, P-WL-1, P-WL-2: an own-turn attack decided."""
    return Attack(plan_attack(state, action, options))


def check_actor(state: Encounter, actor: Combatant, *, own_turn: bool) -> None:
    """2.5 refusals for every ruleset action: ``down``, ``surprised``, ``turn_over``."""
    if actor.hp == 0 or DYING in actor.statuses:  # WL-19
        raise Refusal("down", f"{actor.id!r} is dying (0 HP) and cannot act")
    if "surprised" in actor.statuses:  # WL-33, WL-G16
        raise Refusal("surprised", f"{actor.id!r} is surprised: no actions until this round ends")
    if own_turn and state.turn.over and state.turn.actor == actor.id:  # WL-4
        raise Refusal(
            "turn_over",
            f"{actor.id!r} took a final action and its turn is over; end_turn, move or set "
            "are still allowed",
        )


def pay(actor: Combatant, cost: int, weapon: Weapon | None, options: Options) -> tuple[int, int]:
    """WL-5, WL-34: (AP paid now, debt) of ``cost``; ``not_enough_ap`` when short and the
    weapon is not overflowable, or the debt would exceed max AP."""
    sheet = sheet_as(actor, Sheet)
    ap = sheet.ap or 0
    if ap >= cost:
        return cost, 0
    short = cost - ap
    limit = max_ap(sheet, options)
    if weapon is not None and weapon.overflowable and sheet.ap_debt + short <= limit:
        return ap, short
    raise Refusal(
        "not_enough_ap",
        f"{actor.id!r} has {ap} AP; this costs {cost}: end_turn to go on",
    )


def find_weapon(actor: Combatant, name: str | None) -> tuple[int | None, Weapon]:
    """The weapon an action names (default: the first, else unarmed); ``unknown_weapon``."""
    sheet = sheet_as(actor, Sheet)
    found = weapon_named(sheet, name)
    if found is None:
        names = [w.name for w in sheet.weapons] + ["unarmed"]
        raise Refusal(
            "unknown_weapon", f"{actor.id!r} has no weapon {name!r}; valid: {', '.join(names)}"
        )
    index, weapon = found
    return index, canonical(weapon)  # equal weapons one object: harm's memos


Gate = Callable[[Combatant, Weapon], None]
"""A reaction's own refusals, checked once the weapon is known (2.5)."""


def plan_attack(
    state: Encounter,
    action: Action,
    options: Options,
    *,
    free: str | None = None,
    weapon: str | None = None,
    burst: bool | None = None,
    gate: Gate | None = None,
) -> Plan:
    """2.5 ``attack``: every refusal in the table's order, then the plan.

    ``free`` names an off-turn attack that costs no AP (``opportunity attack``,
    ``riposte``, ``overwatch shot``); ``weapon`` and ``burst`` then override the
    action's; ``gate`` raises the reaction's own refusals once the weapon is known.
    """
    params = action.params
    actor = state.get(action.actor)
    check_actor(state, actor, own_turn=free is None)
    sheet = sheet_as(actor, Sheet)
    index, arm = find_weapon(actor, weapon if weapon is not None else params.get("weapon"))
    if gate is not None:
        gate(actor, arm)
    # The parameters arrive validated (ActionSpec.types): flags are bools, mods ints.
    burst = bool(params.get("burst", False)) if burst is None else burst
    flanking = bool(params.get("flanking", False))
    sneak, clear_shot = bool(params.get("sneak", False)), bool(params.get("clear_shot", False))
    called = params.get("called")
    cost = arm.ap + (CALLED_EXTRA_AP if called is not None else 0)
    cost += BURST_EXTRA_AP if burst else 0  # WL-5
    spend = 0
    if free is None:
        spend, _ = pay(actor, cost, arm, options)
    else:
        cost = 0
    assert action.target is not None  # the file reader requires a target
    target = state.get(action.target)
    if target.id == actor.id:
        raise Refusal("self_target", f"{actor.name} cannot attack itself: choose another combatant")
    if actor.at is None or target.at is None:
        who = actor.id if actor.at is None else target.id
        raise Refusal("no_position", f"{who!r} has no position (`at`) on the map")
    if arm.kind == "explosive":  # WL-27
        raise Refusal("use_throw", f"the {arm.name} is an explosive: `throw` it at a tile")
    shots = burst_shots(arm, options) if burst else None
    if burst and shots is None:  # WL-15, WL-25
        raise Refusal("no_burst", f"the {arm.name} fires no bursts")
    if called is not None and called not in LIMBS:  # WL-11
        raise Refusal("bad_limb", f"called {called!r} is not a limb; valid: {', '.join(LIMBS)}")
    target_sheet = sheet_as(target, Sheet)
    if sneak and sheet.hidden == "none":  # WL-17
        raise Refusal("not_hidden", f"{actor.id!r} is not hidden: no Sneak Attack")
    if sneak and not target_sheet.unaware:
        raise Refusal("target_aware", f"{target.id!r} is aware of {actor.id!r}: no Sneak Attack")
    distance = chebyshev(actor.at, target.at)
    _check_reach(actor, target, arm, distance, options)
    full = sheet.cover is not None and sheet.cover.type == "full"
    if full and PEEKING not in actor.statuses and not clear_shot:  # WL-32
        raise Refusal(
            "must_peek",
            f"{actor.id!r} is in full cover: `peek` first, or say `clear_shot: true`",
        )
    return _plan(
        state,
        actor,
        target,
        arm,
        index,
        cost,
        spend,
        called,
        shots,
        sneak,
        params,
        options,
        flanking,
        free,
    )


def _check_reach(
    actor: Combatant, target: Combatant, weapon: Weapon, distance: int, options: Options
) -> None:
    """WL-26, WL-35: melee reaches one tile (one-handed and unarmed: cardinal only);
    other weapons their range band."""
    assert actor.at is not None and target.at is not None
    if weapon.melee:
        if distance != 1:
            raise Refusal(
                "out_of_reach",
                f"{target.id!r} is {distance} tiles away; the {weapon.name} reaches 1 tile",
            )
        diagonal = actor.at[0] != target.at[0] and actor.at[1] != target.at[1]
        if diagonal and (weapon.kind == "unarmed" or weapon.hands == 1):
            raise Refusal(
                "not_cardinal",
                f"{target.id!r} is diagonal; one-handed and unarmed attacks reach the 4 "
                "cardinal directions only (WL-26)",
            )
        return
    assert weapon.range is not None
    reach = options.range_tiles[weapon.range]
    if distance > reach:
        raise Refusal(
            "out_of_range",
            f"{target.id!r} is {distance} tiles away; the {weapon.name} reaches {reach} "
            f"({weapon.range})",
        )


def _plan(
    state: Encounter,
    actor: Combatant,
    target: Combatant,
    weapon: Weapon,
    index: int | None,
    cost: int,
    spend: int,
    called: Any,
    shots: int | None,
    sneak: bool,
    params: Mapping[str, Any],
    options: Options,
    flanking: bool,
    free: str | None,
) -> Plan:
    """WL-6, WL-12: the roll's modifiers, Evasion, the Glancing Threshold, the line."""
    sheet = sheet_as(actor, Sheet)
    parts: list[tuple[str, int]] = [
        (weapon.special_name, getattr(sheet, f"{weapon.special_name}_mod")),
        (weapon.skill_name, sheet.skills.get(weapon.skill_name, 0)),
        ("accuracy", weapon.accuracy),
        ("modifier", int(params.get("accuracy_mod", 0))),
    ]
    limb: LimbName | None = called
    penalty = called_penalty(limb, options) if limb is not None else 0
    if limb is not None:
        parts.append((f"called {limb.replace('_', ' ')}", -penalty))
    if shots is not None:
        parts.append(("burst", -burst_penalty(weapon, options)))
    target_evasion = evasion(target) + int(params.get("evasion_mod", 0))
    margin = penalty if limb is not None else GLANCING_MARGIN  # WL-12, WL-A8
    strays: tuple[str, ...] = ()
    covers: tuple[tuple[int, str], ...] = ()
    if shots is not None:
        strays = _strays(state, actor, target, weapon, params, options)
        covers = _creature_cover(params, shots)
        if any(cid in (actor.id, target.id) for _, cid in covers):
            raise Refusal(
                "bad_value", "creature_cover names creatures between the attacker and the target"
            )
    shielded = frozenset(
        c.id
        for c in state.combatants.values()
        if c.side == actor.side and c.id != actor.id and has(sheet, "trigger_discipline")
    )
    return Plan(
        actor.id,
        target.id,
        weapon,
        index,
        cost,
        spend,
        limb,
        shots,
        tuple(parts),
        sum(v for _, v in parts),
        target_evasion,
        target_evasion + margin,
        sheet.crit_min,
        sheet.critfail_max,
        sheet.skills.get("sneak", 0) if sneak else None,
        flanking,
        sheet.melee_damage if weapon.melee else 0,
        strays,
        shielded,
        covers,
        free,
        victim(target, weapon, options),
        FrozenDict(
            {
                cid: victim(state.get(cid), weapon, options)
                for cid in (*strays, *(c for _, c in covers))
            }
        ),
    )


def stray_line(a: Tile, t: Tile, c: Tile) -> int | None:
    """WL-24: ``c``'s place on the line of fire from ``a`` through ``t``, half a tile
    wide: ``dot`` (larger is further) when ``c`` is behind ``t``, else None."""
    atx, aty = t[0] - a[0], t[1] - a[1]
    acx, acy = c[0] - a[0], c[1] - a[1]
    length2 = atx * atx + aty * aty
    cross = atx * acy - aty * acx
    dot = atx * acx + aty * acy
    if 4 * cross * cross <= length2 and dot > length2:
        return dot
    return None


def _strays(
    state: Encounter,
    actor: Combatant,
    target: Combatant,
    weapon: Weapon,
    params: Mapping[str, Any],
    options: Options,
) -> tuple[str, ...]:
    """WL-24: the creatures behind the target within the weapon's range, nearest first
    (``behind:`` overrides)."""
    given = params.get("behind")  # validated: a list of combatant ids
    if given is not None:
        ids = [c for c in given if c not in (actor.id, target.id)]
    else:
        assert actor.at is not None and target.at is not None and weapon.range is not None
        reach = options.range_tiles[weapon.range]
        found: list[tuple[int, int, str]] = []
        for i, c in enumerate(state.combatants.values()):
            if c.id in (actor.id, target.id) or c.at is None:
                continue
            dot = stray_line(actor.at, target.at, c.at)
            if dot is not None and chebyshev(actor.at, c.at) <= reach:
                found.append((dot, i, c.id))
        ids = [cid for _, _, cid in sorted(found)]
    return tuple(ids)


def _creature_cover(params: Mapping[str, Any], shots: int) -> tuple[tuple[int, str], ...]:
    """WL-24, WL-G7: ``creature_cover: {id: [N]}``: the shots that hit that creature."""
    given = params.get("creature_cover")  # validated: {id: [shot numbers >= 1]}
    if given is None:
        return ()
    pairs: list[tuple[int, str]] = []
    for cid, numbers in given.items():
        for n in numbers:
            if n > shots:
                raise Refusal("bad_value", f"creature_cover {cid}: shot {n!r} is not in 1..{shots}")
            pairs.append((n, str(cid)))
    return tuple(sorted(pairs))
