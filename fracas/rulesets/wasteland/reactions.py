"""Final actions, reactions and the other non-attack actions (wasteland.md 2.5):
Defend and Overwatch (WL-4, WL-29, WL-30), Overwatch attacks, Opportunity Attacks,
Riposte and the Reactions (WL-31, WL-36), Peek (WL-32), the injury test (WL-21).

Each function raises its refusals (2.5, first that applies) before any die, then
returns the action's events; the attacks among them resolve through ``fire``.
"""

from __future__ import annotations

from collections.abc import Callable

from fracas.dice.source import Dice
from fracas.errors import Refusal
from fracas.model import Action, Combatant, Encounter, Event, Note, TurnOver
from fracas.rulesets.wasteland.attack import Plan, check_actor, find_weapon, plan_attack
from fracas.rulesets.wasteland.events import (
    MISSED_BY,
    APSpent,
    InjuryTested,
    Marked,
    ReactionUsed,
    used,
)
from fracas.rulesets.wasteland.sheet import Options
from fracas.rulesets.wasteland.stats import (
    DEFENDING,
    PEEKING,
    burst_shots,
    has,
    limb_view,
    sheet_of,
)
from fracas.rulesets.wasteland.tables import (
    BURST_EXTRA_AP,
    D20,
    DEFEND_MAX_AP,
    DODGER_BONUS,
    LIMBS,
    REACTIONS,
    ZONE_OF_THREAT_OPPORTUNITIES,
)
from fracas.rulesets.wasteland.weapons import Weapon

__all__ = [
    "OVERWATCH",
    "defend",
    "injury_test",
    "opportunity_attack",
    "overwatch",
    "overwatch_attack",
    "peek",
    "reaction",
    "riposte",
]

OVERWATCH = "overwatch"
Fire = Callable[[Plan], list[Event]]


def defend(state: Encounter, action: Action) -> list[Event]:
    """WL-29: spend all remaining AP, up to 3: +1 Evasion each (+2 with Dodger) until the
    start of the next turn; a Final Action (WL-4)."""
    actor = state.get(action.actor)
    check_actor(state, actor, own_turn=True)
    ap = sheet_of(actor).ap or 0
    if ap == 0:
        raise Refusal("no_ap", f"{actor.id!r} has no AP left to Defend with")
    spent = min(ap, DEFEND_MAX_AP)
    bonus = spent + (DODGER_BONUS if has(sheet_of(actor), "dodger") else 0)
    return [
        Note(f"{actor.name} defends: +{bonus} Evasion until its next turn"),
        APSpent(actor.id, spent),
        Marked(actor.id, DEFENDING, (("bonus", bonus),)),
        TurnOver(actor.id),
    ]


def overwatch(state: Encounter, action: Action, options: Options) -> list[Event]:
    """WL-30: choose Single or Burst Fire; allowance floor(AP / mode AP) + 1; all AP
    spent; no reactions until the next turn; a Final Action (WL-4)."""
    actor = state.get(action.actor)
    check_actor(state, actor, own_turn=True)
    _, weapon = find_weapon(actor, action.params.get("weapon"))
    mode = action.params.get("mode", "single")
    if weapon.kind == "explosive":
        raise Refusal("use_throw", f"the {weapon.name} is an explosive: it cannot overwatch")
    if mode == "burst" and burst_shots(weapon, options) is None:  # WL-15
        raise Refusal("no_burst", f"the {weapon.name} fires no bursts")
    ap = sheet_of(actor).ap or 0
    mode_ap = weapon.ap + (BURST_EXTRA_AP if mode == "burst" else 0)
    shots = ap // max(1, mode_ap) + 1  # PROPOSED: rounded down
    details = (("weapon", weapon.name), ("mode", str(mode)), ("shots", shots))
    events: list[Event] = [Note(f"{actor.name} enters Overwatch ({mode}, {shots} shot(s))")]
    if ap:
        events.append(APSpent(actor.id, ap))
    return [*events, Marked(actor.id, OVERWATCH, details), TurnOver(actor.id)]


def overwatch_attack(state: Encounter, action: Action, options: Options, fire: Fire) -> list[Event]:
    """WL-30, WL-G15: one shot of the allowance, no AP, in the chosen mode; the zone and
    the trigger are the game master's call."""
    actor = state.get(action.actor)
    check_actor(state, actor, own_turn=False)
    watch = actor.statuses.get(OVERWATCH)
    if watch is None:
        raise Refusal("not_in_overwatch", f"{actor.id!r} is not in Overwatch")
    shots = int(watch.get("shots", 0))
    if shots <= 0:
        raise Refusal("no_overwatch_shots", f"{actor.id!r} has fired its Overwatch allowance")
    plan = plan_attack(state, action, options, free="overwatch shot",
                       weapon=str(watch["weapon"]), burst=watch.get("mode") == "burst")  # fmt: skip
    left = (("weapon", str(watch["weapon"])), ("mode", str(watch["mode"])), ("shots", shots - 1))
    return [Marked(actor.id, OVERWATCH, left), *fire(plan)]


def _no_overwatch(actor: Combatant) -> None:
    if OVERWATCH in actor.statuses:  # WL-30: Overwatch consumes every reaction
        raise Refusal(
            "in_overwatch", f"{actor.id!r} is in Overwatch: no Reactions or Free Reactions"
        )


def _melee_gate(actor: Combatant, weapon: Weapon, milestone: str, kind: str, limit: int) -> None:
    """WL-31, WL-36: a melee or unarmed weapon, the milestone, a reaction left."""
    if not weapon.melee:
        raise Refusal("needs_melee_weapon", f"the {weapon.name} is not a melee or unarmed weapon")
    if not has(sheet_of(actor), milestone):
        skill, n = milestone.split("_")
        raise Refusal(
            f"needs_{milestone}", f"{actor.id!r} lacks the {skill.title()} +{n} milestone"
        )
    if used(actor, kind) >= limit:
        raise Refusal(
            f"no_{kind}_left",
            f"{actor.id!r} has used its {limit} {kind.replace('_', ' ')}(s) this round",
        )


def opportunity_attack(
    state: Encounter, action: Action, options: Options, fire: Fire
) -> list[Event]:
    """WL-31, WL-36: a Free Reaction, Melee +3, 1 per round (2 with Zone of Threat); a
    standard melee attack; its trigger is the game master's call."""
    actor = state.get(action.actor)
    check_actor(state, actor, own_turn=False)
    _no_overwatch(actor)
    limit = ZONE_OF_THREAT_OPPORTUNITIES if has(sheet_of(actor), "zone_of_threat") else 1

    def gate(c: Combatant, weapon: Weapon) -> None:
        _melee_gate(c, weapon, "melee_3", "opportunity", limit)

    plan = plan_attack(state, action, options, free="opportunity attack", burst=False, gate=gate)
    return [ReactionUsed(actor.id, "opportunity"), *fire(plan)]


def riposte(state: Encounter, action: Action, options: Options, fire: Fire) -> list[Event]:
    """WL-31, WL-36: a Free Reaction, Melee +7, 1 per round, only against a combatant
    whose melee attack missed the reactor since the reactor's turn began."""
    actor = state.get(action.actor)
    check_actor(state, actor, own_turn=False)
    _no_overwatch(actor)

    def gate(c: Combatant, weapon: Weapon) -> None:
        _melee_gate(c, weapon, "melee_7", "riposte", 1)
        if f"{MISSED_BY}{action.target}" not in c.marks:
            raise Refusal(
                "no_riposte_trigger",
                f"{action.target!r} has not missed {c.id!r} with a melee attack since "
                f"{c.id!r}'s turn began",
            )

    plan = plan_attack(state, action, options, free="riposte", burst=False, gate=gate)
    return [ReactionUsed(actor.id, "riposte"), *fire(plan)]


def reaction(state: Encounter, action: Action) -> list[Event]:
    """WL-31: a Reaction (1 per round), logged; the game master applies it."""
    actor = state.get(action.actor)
    check_actor(state, actor, own_turn=False)
    _no_overwatch(actor)
    name = str(action.params.get("name"))
    needs = REACTIONS.get(name)
    if needs is None or not has(sheet_of(actor), needs):
        raise Refusal(
            "not_available", f"{actor.id!r} cannot {name.replace('_', ' ')} (needs {needs})"
        )
    if used(actor, "reaction") >= 1:
        raise Refusal("no_reaction_left", f"{actor.id!r} has used its Reaction this round")
    return [
        ReactionUsed(actor.id, "reaction"),
        Note(f"{actor.name} reacts: {name.replace('_', ' ')} (the GM applies it)"),
    ]


def peek(state: Encounter, action: Action) -> list[Event]:
    """WL-32: free; full cover counts as half cover until the end of the turn."""
    actor = state.get(action.actor)
    check_actor(state, actor, own_turn=True)
    cover = sheet_of(actor).cover
    if cover is None or cover.type != "full":
        raise Refusal("not_in_full_cover", f"{actor.id!r} is not in full cover: no need to peek")
    return [Note(f"{actor.name} peeks from full cover (half cover this turn)"),
            Marked(actor.id, PEEKING)]  # fmt: skip


def injury_test(state: Encounter, action: Action, dice: Dice, options: Options) -> list[Event]:
    """WL-21: END + Survival test against 10 + damage above threshold; success turns a
    major injury minor (PROPOSED: meet the DC; retries allowed)."""
    actor = state.get(action.actor)
    check_actor(state, actor, own_turn=False)
    name = action.params.get("limb")
    if name not in LIMBS:
        raise Refusal("bad_limb", f"limb {name!r} is not a limb; valid: {', '.join(LIMBS)}")
    limb = limb_view(sheet_of(actor), name, options)
    if limb.injury != "major" or limb.injury_dc is None:
        raise Refusal("no_major_injury", f"{actor.id!r}'s {name} has no major injury")
    sheet = sheet_of(actor)
    parts = (("end", sheet.end_mod), ("survival", sheet.skills.get("survival", 0)))
    natural = dice.roll(D20, "test")
    total = natural + sum(v for _, v in parts)
    dc = limb.injury_dc
    success = total >= dc if options.test_compare == "meet" else total > dc
    return [InjuryTested(actor.id, name, natural, parts, total, dc, success)]
