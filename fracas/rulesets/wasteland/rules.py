"""wasteland: AP turns in Sequence order, d20 + modifiers that must exceed Evasion, six
limbs with DT and Cripple Thresholds, DR, CRIT dice, burst fire with stray shots, cover.

Our reading: ``../shared/rules/wasteland.md`` (rules WL-1 to WL-36, gaps WL-G1 to
WL-G16, ambiguities WL-A1 to WL-A11, procedures P-WL-1 to P-WL-3 and the contract of
Part 2); the text: seed ``002_92315dd1f9cf7eef.txt``, "Combat Mechanics".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

from fracas.dice.source import Dice
from fracas.errors import FracasError
from fracas.model import Action, Attempted, Combatant, Encounter, Event, StatusCleared
from fracas.rulesets.base import (
    About,
    ActionSpec,
    Contract,
    Cost,
    Decide,
    Decision,
    DieSpec,
    Lasting,
    Rules,
    TypedRuleset,
    sheet_as,
)
from fracas.rulesets.steps import Then
from fracas.rulesets.wasteland.actions import ACTIONS
from fracas.rulesets.wasteland.attack import Attack, Plan, decide_attack
from fracas.rulesets.wasteland.costs import costs as family_costs
from fracas.rulesets.wasteland.data import (
    D20,
    LIMBS,
    ODDS_MAX_ROLLS,
)
from fracas.rulesets.wasteland.explosives import Throw, decide_throw
from fracas.rulesets.wasteland.fire import FireOn
from fracas.rulesets.wasteland.movement import COST, MOVE_SPEC, move_cost
from fracas.rulesets.wasteland.presenter import WastelandPresenter
from fracas.rulesets.wasteland.reactions import (
    InjuryTest,
    Settled,
    decide_defend,
    decide_injury_test,
    decide_opportunity_attack,
    decide_overwatch,
    decide_overwatch_attack,
    decide_peek,
    decide_reaction,
    decide_riposte,
)
from fracas.rulesets.wasteland.sheet import Options, Sheet
from fracas.rulesets.wasteland.stats import (
    DEFENDING,
    DYING,
    OVERWATCH,
    PEEKING,
    STATUSES,
    SURPRISED,
    limb_view,
    max_ap,
    sequence,
)
from fracas.rulesets.wasteland.turn_events import (
    OPENING,
    REGULAR,
    OpeningPassed,
    PeekEnded,
    RoundEnded,
    SequenceOrdered,
    SurpriseRound,
    TurnRefreshed,
)
from fracas.rulesets.wasteland.weapons import SHORTHANDS, Weapon

__all__ = ["Opening", "Wasteland"]

MAX_DIE = 1000
"""The largest die a weapon may roll (the dice notation's limit)."""


def _regular_order(state: Encounter) -> tuple[str, ...]:
    """WL-33: the regular order kept during a surprise round; empty outside one."""
    places: dict[int, str] = {}
    for cid, c in state.combatants.items():
        for mark in c.marks:
            if mark.startswith(REGULAR):
                places[int(mark[len(REGULAR) :])] = cid
    return tuple(places[i] for i in sorted(places))


Family = Attack | Throw | Settled | InjuryTest
"""What an action module decides: an attack, a throw, an action with no die, a test."""


@dataclass(frozen=True, slots=True)
class Opening(Decision):
    """A decided wasteland action: its family's decision, and whether it is the
    encounter's first own-turn action (WL-33: it ends the opening; a Sneak Attack's
    ``sneak`` plan then may open a surprise round)."""

    family: Family
    opening: bool = False
    sneak: Plan | None = None

    def roll(self, rules: Rules[Options], state: Encounter, dice: Dice) -> list[Event]:
        """The family's dice and events; WL-33: a Sneak Attack that lands as the
        encounter's first own-turn action opens a surprise round."""
        events = self.family.roll(rules, state, dice)
        if not self.opening:
            return events
        then = events[-1] if events else None
        if isinstance(then, Then):
            events.pop()
        tail = [] if self.sneak is None else _surprise(rules, state, self.sneak, events)
        tail.append(OpeningPassed())
        if not isinstance(then, Then):
            return [*events, *tail]
        # WL-33: known once the shots landed or not; said last
        assert isinstance(then.step, FireOn)
        return [*events, Then(dataclasses.replace(then.step, tail=tuple(tail)))]

    def costs(self, rules: Rules[Options], state: Encounter) -> tuple[Cost, ...]:
        """Issue 35: what it spends before any die (WL-5, WL-29, WL-30, WL-31, WL-34),
        read from its family's decision (:mod:`~fracas.rulesets.wasteland.costs`)."""
        return family_costs(state, self.family)


def _opening(
    rules: Rules[Options],
    state: Encounter,
    action: Action,
    family: Family,
    sneak: Plan | None = None,
) -> Opening:
    """2.5: each action's refusals, in the table's order, and all it needs before any
    die (``family``); WL-33: whether it ends the opening (and may open a surprise round)."""
    spec = rules.contract.action(action.do)
    if spec is None or spec.off_turn or not state.values.get(OPENING):
        return Opening(family)
    return Opening(family, opening=True, sneak=sneak)  # WL-33


def _attack(rules: Rules[Options], state: Encounter, action: Action) -> Opening:
    """P-WL-1, P-WL-2."""
    family = decide_attack(state, action, rules.options)
    sneak = family.plan if family.plan.sneak is not None else None
    return _opening(rules, state, action, family, sneak)


def _throw(rules: Rules[Options], state: Encounter, action: Action) -> Opening:
    return _opening(rules, state, action, decide_throw(state, action, rules.options))


def _defend(rules: Rules[Options], state: Encounter, action: Action) -> Opening:
    return _opening(rules, state, action, decide_defend(state, action))


def _overwatch(rules: Rules[Options], state: Encounter, action: Action) -> Opening:
    return _opening(rules, state, action, decide_overwatch(state, action, rules.options))


def _overwatch_attack(rules: Rules[Options], state: Encounter, action: Action) -> Opening:
    family = decide_overwatch_attack(state, action, rules.options)
    return _opening(rules, state, action, family)


def _opportunity_attack(rules: Rules[Options], state: Encounter, action: Action) -> Opening:
    family = decide_opportunity_attack(state, action, rules.options)
    return _opening(rules, state, action, family)


def _riposte(rules: Rules[Options], state: Encounter, action: Action) -> Opening:
    return _opening(rules, state, action, decide_riposte(state, action, rules.options))


def _reaction(rules: Rules[Options], state: Encounter, action: Action) -> Opening:
    return _opening(rules, state, action, decide_reaction(state, action))


def _peek(rules: Rules[Options], state: Encounter, action: Action) -> Opening:
    return _opening(rules, state, action, decide_peek(state, action))


def _injury_test(rules: Rules[Options], state: Encounter, action: Action) -> Opening:
    return _opening(rules, state, action, decide_injury_test(state, action, rules.options))


DECIDES: Mapping[str, Decide] = {
    "attack": _attack,
    "throw": _throw,
    "defend": _defend,
    "overwatch": _overwatch,
    "overwatch_attack": _overwatch_attack,
    "opportunity_attack": _opportunity_attack,
    "riposte": _riposte,
    "reaction": _reaction,
    "peek": _peek,
    "injury_test": _injury_test,
}
"""The move table: each action's deciding step (its spec: :data:`~.actions.ACTIONS`)."""


def _surprise(
    rules: Rules[Options], state: Encounter, plan: Plan, events: list[Event]
) -> list[Event]:
    """WL-33: the opening Sneak Attack landed on its target (any shot hit it): the
    attacker, then its side, then the rest go this round (each in the regular order);
    the target's side is Surprised until the round ends."""
    landed = any(isinstance(e, Attempted) and e.target == plan.target and e.landed for e in events)
    attacker, target = state.get(plan.actor), state.get(plan.target)
    if not landed or attacker.side == target.side:
        return []
    side = [cid for cid in state.order if state.get(cid).side == attacker.side]
    first = [attacker.id, *(cid for cid in side if cid != attacker.id)]
    order = (*first, *(cid for cid in state.order if cid not in first))
    victims = tuple(cid for cid in state.order if state.get(cid).side == target.side)
    status = rules.options.surprised_skips
    return [SurpriseRound(attacker.id, victims, order, state.order, status)]


class Wasteland(TypedRuleset[Sheet, Options, Opening]):
    """AP, limbs and Cripple Thresholds, DT and DR, burst fire (seed 002)."""

    about = About(
        name="wasteland",
        title="Combat Mechanics (a Fallout-style wasteland game)",
        rule_text="002_92315dd1f9cf7eef.txt",
        summary="AP turns, d20 must exceed Evasion, limbs with DT and Cripple Thresholds, "
        "DR, crits, burst fire, cover, overwatch",
        # Issue 36: HP, the limbs' Cripple Thresholds and injuries (WL-21, WL-22), the
        # weapons' Condition and explosives thrown (WL-27) and the once-per-Long-Rest
        # abilities used (WL-19) last; a Long Rest gives those abilities back.
        lasting=Lasting(
            sheet=("limbs", "weapons", "rest_uses"),
            rest=(("rest_uses", ()),),
            rules="WL-19, WL-21, WL-22, WL-27",
        ),
    )
    contract = Contract(
        sheet=Sheet,
        options=Options,
        item_type=Weapon,
        item_shorthands=tuple(SHORTHANDS),
        default_max_hp=20,  # WL-G5
        odds_max_rolls=ODDS_MAX_ROLLS,  # WL-9: CRIT dice explode
        actions=tuple(dataclasses.replace(spec, decide=DECIDES[spec.name]) for spec in ACTIONS),
        move_spec=MOVE_SPEC,  # WL-2: `ap: n`, MAP then AP
        own_move=COST,  # WL-2: a move with a cost is the actor's Movement Action
        down_statuses=(DYING,),  # WL-19: dying (0 HP, after the save abilities)
        order_by="sequence",  # WL-1: the turn order goes by Sequence, highest first
        dice=(
            DieSpec(
                "attack",
                D20,
                "single fire; `attack:N` for burst shot N (shots 2..n only when shot 1 is no CRIT)",
            ),
            DieSpec(
                "location",
                D20,
                "a hit that is not a called shot (`location:N` in a burst, "
                "on the target, a stray or a creature-cover victim)",
            ),
            DieSpec(
                "damage",
                MAX_DIE,
                "a hit: the weapon's damage dice, in order (`damage:N` in a burst)",
            ),
            DieSpec(
                "crit",
                MAX_DIE,
                "a CRIT: the CRIT dice, each explosion right after its die; a burst rolls one die",
            ),
            DieSpec("test", D20, "injury_test: END + Survival against the injury's DC"),
        ),
        statuses=STATUSES,
        refusal_rules={  # the refusals' table, wasteland.md 2.5
            "down": "WL-19",
            "surprised": "WL-33",
            "turn_over": "WL-4",
            "in_overwatch": "WL-30",
            "not_enough_ap": "WL-5, WL-34",
            "no_ap": "WL-29",
            "use_throw": "WL-27",
            "not_explosive": "WL-27",
            "no_burst": "WL-15",
            "bad_limb": "WL-11",
            "not_hidden": "WL-17",
            "target_aware": "WL-17",
            "out_of_reach": "WL-26",
            "not_cardinal": "WL-26",
            "out_of_range": "WL-35",
            "must_peek": "WL-32",
            "not_in_overwatch": "WL-30",
            "no_overwatch_shots": "WL-30",
            "needs_melee_weapon": "WL-31",
            "needs_melee_3": "WL-31, WL-36",
            "needs_melee_7": "WL-31, WL-36",
            "not_available": "WL-31, WL-36",
            "no_opportunity_left": "WL-31",
            "no_riposte_left": "WL-31",
            "no_reaction_left": "WL-31",
            "no_riposte_trigger": "WL-36",
            "not_in_full_cover": "WL-32",
            "no_major_injury": "WL-21",
        },
        presenter=WastelandPresenter,
    )

    # --- hooks ------------------------------------------------------------

    def param_choices(
        self, state: Encounter, actor: str, spec: ActionSpec
    ) -> dict[str, tuple[str, ...]]:
        """The weapons on the sheet, and the limbs a shot may be called at (WL-11)."""
        out = super().param_choices(state, actor, spec)
        if "called" in spec.params:
            out["called"] = tuple(LIMBS)
        return out

    def initial_values(self) -> dict[str, int]:
        """WL-33: the encounter opens; its first own-turn action ends the opening (not
        reported: not in ``encounter_values``)."""
        return {OPENING: 1}

    def move(self, state: Encounter, action: Action) -> list[Event]:
        """WL-2: an own move pays MAP first, then AP; a game master's move costs nothing."""
        events = move_cost(state, action)
        if events and state.values.get(OPENING):
            events.append(OpeningPassed())
        return events

    def settle(self, c: Combatant, given: frozenset[str], fresh: bool = False) -> Combatant:
        """2.1: ``ap`` and ``map`` default to max AP and max_map; a limb's CT is at most
        its maximum. WL-19, WL-33: a combatant loaded at 0 HP is dying; a surprised one
        carries the status."""
        sheet = sheet_as(c, Sheet)
        for name in LIMBS:
            limb = limb_view(sheet, name, self.options)
            if limb.ct > limb.ct_max:
                raise FracasError(
                    "bad_value",
                    f"limbs.{name}: ct {limb.ct} is above ct_max {limb.ct_max}: "
                    f"give 0..{limb.ct_max}",
                )
        sheet = dataclasses.replace(
            sheet,
            ap=sheet.ap if sheet.ap is not None else max_ap(sheet, self.options),
            map=sheet.map if sheet.map is not None else sheet.max_map,
        )
        c = dataclasses.replace(c, sheet=sheet)
        if not fresh:
            return c
        if c.hp == 0:
            c = c.with_status(DYING, {})
        if sheet.surprised and self.options.surprised_skips:
            c = c.with_status(SURPRISED, {})
        return c

    def initiative(self, state: Encounter, dice: Dice) -> tuple[tuple[str, ...], list[Event]]:
        """WL-1: highest Sequence first; ties: players before NPCs, then the file's order
        (option ``sequence_ties: file_order``: the file's order alone). No dice."""
        ids = list(state.combatants)
        seq = {cid: sequence(sheet_as(state.get(cid), Sheet)) for cid in ids}
        players_first = self.options.sequence_ties == "players_first"

        def key(cid: str) -> tuple[int, bool, int]:
            npc = sheet_as(state.get(cid), Sheet).npc and players_first
            return -seq[cid], npc, ids.index(cid)

        order = tuple(sorted(ids, key=key))
        return order, [SequenceOrdered(order, tuple(seq[cid] for cid in order))]

    def turn_start(self, state: Encounter, actor: str, dice: Dice) -> list[Event]:
        """WL-3, WL-34, WL-29, WL-30: AP (less any debt) and MAP replenish; Defend and
        Overwatch last until now."""
        c = state.get(actor)
        sheet = sheet_as(c, Sheet)
        events: list[Event] = []
        for status in (DEFENDING, OVERWATCH):
            if status in c.statuses:
                events.append(StatusCleared(actor, status))
        ap = max(0, max_ap(sheet, self.options) - sheet.ap_debt)
        events.append(TurnRefreshed(actor, ap, sheet.max_map, sheet.ap_debt))
        return events

    def turn_end(self, state: Encounter, actor: str, dice: Dice) -> list[Event]:
        """WL-32: peeking lasts for the turn; WL-33: the surprise ends with the round."""
        events: list[Event] = []
        if PEEKING in state.get(actor).statuses:
            events.append(PeekEnded(actor, PEEKING))
        if state.order and actor == state.order[-1]:
            surprised = tuple(cid for cid, c in state.combatants.items() if SURPRISED in c.statuses)
            regular = _regular_order(state)
            if surprised or regular:
                events.append(RoundEnded(surprised, regular))
        return events
