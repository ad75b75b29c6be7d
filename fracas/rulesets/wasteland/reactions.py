"""Final actions, reactions and the other non-attack actions (wasteland.md 2.5):
Defend and Overwatch (WL-4, WL-29, WL-30), Overwatch attacks, Opportunity Attacks,
Riposte and the Reactions (WL-31, WL-36), Peek (WL-32), the injury test (WL-21).

Each ``decide_*`` raises its refusals (2.5, first that applies) and returns the
decision: a :class:`Settled` (the events of an action that rolls no die), an
:class:`~fracas.rulesets.wasteland.attack.Attack` or an :class:`InjuryTest`, which
:func:`roll_injury_test` rolls.
"""

from __future__ import annotations

from dataclasses import dataclass

from fracas.dice.source import Dice
from fracas.errors import Refusal
from fracas.model import Action, Combatant, Encounter, Event, StatusSet, TurnOver
from fracas.rulesets.base import Decision, Rules, sheet_as
from fracas.rulesets.wasteland.attack import Attack, check_actor, find_weapon, plan_attack
from fracas.rulesets.wasteland.events import APSpent, InjuryTested
from fracas.rulesets.wasteland.sheet import Options, Sheet
from fracas.rulesets.wasteland.stats import (
    DEFENDING,
    OVERWATCH,
    PEEKING,
    burst_shots,
    has,
    limb_view,
)
from fracas.rulesets.wasteland.tables import (
    BURST_EXTRA_AP,
    D20,
    DEFEND_MAX_AP,
    DODGER_BONUS,
    LIMBS,
    REACTIONS,
    ZONE_OF_THREAT_OPPORTUNITIES,
    LimbName,
)
from fracas.rulesets.wasteland.turn_events import (
    MISSED_BY,
    Defended,
    OverwatchEntered,
    Peeked,
    Reacted,
    ReactionUsed,
    used,
)
from fracas.rulesets.wasteland.weapons import Weapon

__all__ = [
    "InjuryTest",
    "Settled",
    "decide_defend",
    "decide_injury_test",
    "decide_opportunity_attack",
    "decide_overwatch",
    "decide_overwatch_attack",
    "decide_peek",
    "decide_reaction",
    "decide_riposte",
    "roll_injury_test",
]


@dataclass(frozen=True, slots=True)
class Settled(Decision):
    """The decision of an action that rolls no die: its events, all known."""

    events: tuple[Event, ...]

    def roll(self, rules: Rules[Options], state: Encounter, dice: Dice) -> list[Event]:
        return list(self.events)


@dataclass(frozen=True, slots=True)
class InjuryTest(Decision):
    """WL-21: a decided injury test: who, which limb, the modifiers and the DC."""

    actor: str
    limb: LimbName
    parts: tuple[tuple[str, int], ...]
    dc: int
    meet: bool
    """The total must meet the DC (option ``test_compare: meet``); else exceed it."""

    def roll(self, rules: Rules[Options], state: Encounter, dice: Dice) -> list[Event]:
        return roll_injury_test(self, dice)


def decide_defend(state: Encounter, action: Action) -> Settled:
    """WL-29: spend all remaining AP, up to 3: +1 Evasion each (+2 with Dodger) until the
    start of the next turn; a Final Action (WL-4)."""
    actor = state.get(action.actor)
    check_actor(state, actor, own_turn=True)
    ap = sheet_as(actor, Sheet).ap or 0
    if ap == 0:
        raise Refusal("no_ap", f"{actor.id!r} has no AP left to Defend with")
    spent = min(ap, DEFEND_MAX_AP)
    bonus = spent + (DODGER_BONUS if has(sheet_as(actor, Sheet), "dodger") else 0)
    return Settled(
        (
            Defended(actor.id, bonus),
            APSpent(actor.id, spent),
            StatusSet(actor.id, DEFENDING, {"bonus": bonus}),
            TurnOver(actor.id),
        )
    )


def decide_overwatch(state: Encounter, action: Action, options: Options) -> Settled:
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
    ap = sheet_as(actor, Sheet).ap or 0
    mode_ap = weapon.ap + (BURST_EXTRA_AP if mode == "burst" else 0)
    shots = ap // max(1, mode_ap) + 1  # PROPOSED: rounded down
    details: dict[str, int | str] = {"weapon": weapon.name, "mode": str(mode), "shots": shots}
    events: list[Event] = [OverwatchEntered(actor.id, str(mode), shots)]
    if ap:
        events.append(APSpent(actor.id, ap))
    return Settled((*events, StatusSet(actor.id, OVERWATCH, details), TurnOver(actor.id)))


def decide_overwatch_attack(state: Encounter, action: Action, options: Options) -> Attack:
    """WL-30, WL-G15: one shot of the allowance, no AP, in the chosen mode; the zone and
    the trigger are the game master's call."""
    actor = state.get(action.actor)
    check_actor(state, actor, own_turn=False)
    watch = actor.statuses.get(OVERWATCH)
    if watch is None:
        raise Refusal("not_in_overwatch", f"{actor.id!r} is not in Overwatch")
    shots = int(watch["shots"])  # the details as declared (stats.STATUSES), defaults filled
    if shots <= 0:
        raise Refusal("no_overwatch_shots", f"{actor.id!r} has fired its Overwatch allowance")
    weapon = str(watch["weapon"]) or None  # empty: the first weapon, else unarmed
    plan = plan_attack(state, action, options, free="overwatch shot", weapon=weapon,
                       burst=watch["mode"] == "burst")  # fmt: skip
    left = StatusSet(actor.id, OVERWATCH, {"weapon": str(watch["weapon"]),
                     "mode": str(watch["mode"]), "shots": shots - 1})  # fmt: skip
    return Attack(plan, (left,))


def _no_overwatch(actor: Combatant) -> None:
    if OVERWATCH in actor.statuses:  # WL-30: Overwatch consumes every reaction
        raise Refusal(
            "in_overwatch", f"{actor.id!r} is in Overwatch: no Reactions or Free Reactions"
        )


def _melee_gate(actor: Combatant, weapon: Weapon, milestone: str, kind: str, limit: int) -> None:
    """WL-31, WL-36: a melee or unarmed weapon, the milestone, a reaction left."""
    if not weapon.melee:
        raise Refusal("needs_melee_weapon", f"the {weapon.name} is not a melee or unarmed weapon")
    if not has(sheet_as(actor, Sheet), milestone):
        skill, n = milestone.split("_")
        raise Refusal(
            f"needs_{milestone}", f"{actor.id!r} lacks the {skill.title()} +{n} milestone"
        )
    if used(actor, kind) >= limit:
        raise Refusal(
            f"no_{kind}_left",
            f"{actor.id!r} has used its {limit} {kind.replace('_', ' ')}(s) this round",
        )


def decide_opportunity_attack(state: Encounter, action: Action, options: Options) -> Attack:
    """WL-31, WL-36: a Free Reaction, Melee +3, 1 per round (2 with Zone of Threat); a
    standard melee attack; its trigger is the game master's call."""
    actor = state.get(action.actor)
    check_actor(state, actor, own_turn=False)
    _no_overwatch(actor)
    limit = ZONE_OF_THREAT_OPPORTUNITIES if has(sheet_as(actor, Sheet), "zone_of_threat") else 1

    def gate(c: Combatant, weapon: Weapon) -> None:
        _melee_gate(c, weapon, "melee_3", "opportunity", limit)

    plan = plan_attack(state, action, options, free="opportunity attack", burst=False, gate=gate)
    return Attack(plan, (ReactionUsed(actor.id, "opportunity"),))


def decide_riposte(state: Encounter, action: Action, options: Options) -> Attack:
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
                f"the turn of {c.id!r} began",
            )

    plan = plan_attack(state, action, options, free="riposte", burst=False, gate=gate)
    return Attack(plan, (ReactionUsed(actor.id, "riposte"),))


def decide_reaction(state: Encounter, action: Action) -> Settled:
    """WL-31: a Reaction (1 per round), logged; the game master applies it."""
    actor = state.get(action.actor)
    check_actor(state, actor, own_turn=False)
    _no_overwatch(actor)
    name = str(action.params["name"])  # required, one of REACTIONS (the action's choices)
    needs = REACTIONS[name]
    if not has(sheet_as(actor, Sheet), needs):
        raise Refusal(
            "not_available", f"{actor.id!r} cannot {name.replace('_', ' ')} (needs {needs})"
        )
    if used(actor, "reaction") >= 1:
        raise Refusal("no_reaction_left", f"{actor.id!r} has used its Reaction this round")
    return Settled((ReactionUsed(actor.id, "reaction"), Reacted(actor.id, name)))


def decide_peek(state: Encounter, action: Action) -> Settled:
    """WL-32: free; full cover counts as half cover until the end of the turn."""
    actor = state.get(action.actor)
    check_actor(state, actor, own_turn=True)
    cover = sheet_as(actor, Sheet).cover
    if cover is None or cover.type != "full":
        raise Refusal("not_in_full_cover", f"{actor.id!r} is not in full cover: no need to peek")
    return Settled((Peeked(actor.id), StatusSet(actor.id, PEEKING, {})))


def decide_injury_test(state: Encounter, action: Action, options: Options) -> InjuryTest:
    """WL-21: END + Survival test against 10 + damage above threshold; success turns a
    major injury minor (PROPOSED: meet the DC; retries allowed)."""
    actor = state.get(action.actor)
    check_actor(state, actor, own_turn=False)
    name = action.params.get("limb")
    if name not in LIMBS:
        raise Refusal("bad_limb", f"limb {name!r} is not a limb; valid: {', '.join(LIMBS)}")
    limb = limb_view(sheet_as(actor, Sheet), name, options)
    if limb.injury != "major" or limb.injury_dc is None:
        raise Refusal("no_major_injury", f"the {name} of {actor.id!r} has no major injury")
    sheet = sheet_as(actor, Sheet)
    parts = (("end", sheet.end_mod), ("survival", sheet.skills.get("survival", 0)))
    return InjuryTest(actor.id, name, parts, limb.injury_dc, options.test_compare == "meet")


def roll_injury_test(test: InjuryTest, dice: Dice) -> list[Event]:
    """WL-21: the d20 + END + Survival against the DC."""
    natural = dice.roll(D20, "test")
    total = natural + sum(v for _, v in test.parts)
    success = total >= test.dc if test.meet else total > test.dc
    return [InjuryTested(test.actor, test.limb, natural, test.parts, total, test.dc, success)]
