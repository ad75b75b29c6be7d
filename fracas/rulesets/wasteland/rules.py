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
from typing import Any, ClassVar

from fracas.dice.source import Dice
from fracas.errors import FracasError, Refusal
from fracas.grid import Tile
from fracas.model import Action, Attempted, Combatant, Encounter, Event, StatusCleared
from fracas.rulesets.base import ActionSpec, DieSpec, StatusSpec, TypedRuleset
from fracas.rulesets.wasteland.actions import ACTIONS
from fracas.rulesets.wasteland.attack import Attack, Plan, decide_attack
from fracas.rulesets.wasteland.data import (
    D20,
    DAMAGE_TYPES,
    LIMBS,
    ODDS_MAX_ROLLS,
    ZONE_OF_THREAT_OPPORTUNITIES,
)
from fracas.rulesets.wasteland.explosives import Throw, decide_throw, roll_throw
from fracas.rulesets.wasteland.fire import FireOn, fire_on, roll_attack
from fracas.rulesets.wasteland.movement import MOVE_SPEC, move_cost, own_move
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
    roll_injury_test,
)
from fracas.rulesets.wasteland.sheet import Options, Sheet
from fracas.rulesets.wasteland.stats import (
    DEFENDING,
    DYING,
    OVERWATCH,
    OVERWATCH_MODES,
    PEEKING,
    STATUSES,
    SURPRISED,
    evasion,
    has,
    limb_view,
    limbs_json,
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
    used,
)
from fracas.rulesets.wasteland.weapons import SHORTHANDS, Weapon
from fracas.steps import Then

__all__ = ["Wasteland"]

MAX_DIE = 1000
"""The largest die a weapon may roll (the dice notation's limit)."""


def _plain(value: Any) -> Any:
    """Sheet values as plain data: dataclasses and mappings to dicts, tuples to lists."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


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
class Decision:
    """A decided wasteland action: its family's decision, and whether it is the
    encounter's first own-turn action (WL-33: it ends the opening; a Sneak Attack then
    may open a surprise round)."""

    family: Family
    opening: bool = False
    surprise: bool = False


class Wasteland(TypedRuleset[Sheet, Options]):
    """AP, limbs and Cripple Thresholds, DT and DR, burst fire (seed 002)."""

    name: ClassVar[str] = "wasteland"
    title: ClassVar[str] = "Combat Mechanics (a Fallout-style wasteland game)"
    seed_file: ClassVar[str] = "002_92315dd1f9cf7eef.txt"
    summary: ClassVar[str] = (
        "AP turns, d20 must exceed Evasion, limbs with DT and Cripple Thresholds, DR, "
        "crits, burst fire, cover, overwatch"
    )
    item_type = Weapon
    item_shorthands: ClassVar[tuple[str, ...]] = tuple(SHORTHANDS)
    default_max_hp: ClassVar[int] = 20  # WL-G5
    odds_max_rolls: ClassVar[int] = ODDS_MAX_ROLLS  # WL-9: CRIT dice explode
    actions: ClassVar[tuple[ActionSpec, ...]] = ACTIONS
    move_spec: ClassVar[ActionSpec | None] = MOVE_SPEC  # WL-2: `ap: n`, MAP then AP
    dice: ClassVar[tuple[DieSpec, ...]] = (
        DieSpec("attack", D20, "single fire; `attack:N` for burst shot N (shots 2..n only "
                "when shot 1 is no CRIT)"),
        DieSpec("location", D20, "a hit that is not a called shot (`location:N` in a burst, "
                "on the target, a stray or a creature-cover victim)"),
        DieSpec("damage", MAX_DIE, "a hit: the weapon's damage dice, in order (`damage:N` "
                "in a burst)"),
        DieSpec("crit", MAX_DIE, "a CRIT: the CRIT dice, each explosion right after its "
                "die; a burst rolls one die"),
        DieSpec("test", D20, "injury_test: END + Survival against the injury's DC"),
    )  # fmt: skip
    statuses: ClassVar[tuple[StatusSpec, ...]] = STATUSES
    refusal_rules: ClassVar[Mapping[str, str]] = {  # the refusals' table, wasteland.md 2.5
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
    }
    presenter_type = WastelandPresenter

    @classmethod
    def check_status(cls, name: str, details: Mapping[str, Any]) -> dict[str, int | str]:
        """The declared details (:data:`STATUSES`), then their ranges: a Defend bonus and
        Overwatch shots are never negative, an Overwatch mode is single or burst."""
        out = super().check_status(name, details)
        if name == OVERWATCH and out["mode"] not in OVERWATCH_MODES:
            raise Refusal(
                "bad_value",
                f"status overwatch mode: {out['mode']!r}: give one of {', '.join(OVERWATCH_MODES)}",
            )
        count = {DEFENDING: "bonus", OVERWATCH: "shots"}.get(name)
        if count is not None and int(out[count]) < 0:
            raise Refusal(
                "bad_value", f"status {name} {count}: {out[count]!r} is negative; give 0 or more"
            )
        return out

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

    def move_is_own(self, action: Action) -> bool:
        """WL-2: a move with a cost (``ap: n``) is the actor's Movement Action."""
        return own_move(action)

    def walk(self, state: Encounter, actor: str, to: Tile) -> Action | None:
        """WL-2: an own Movement Action, costing 1 point a tile by the metric (PROPOSED:
        the text gives no cost per tile, wasteland.md 2.5), paid MAP first, then AP."""
        here = state.get(actor).at
        if here is None:
            return None
        return Action(actor, "move", params={"to": to, "ap": self.distance(here, to)})

    def move(self, state: Encounter, action: Action) -> list[Event]:
        """WL-2: an own move pays MAP first, then AP; a game master's move costs nothing."""
        events = move_cost(state, action)
        if events and state.values.get(OPENING):
            events.append(OpeningPassed())
        return events

    def settle(self, c: Combatant, given: frozenset[str]) -> Combatant:
        """2.1: ``ap`` and ``map`` default to max AP and max_map; a limb's CT is at most
        its maximum."""
        sheet = self.sheet(c)
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
        return dataclasses.replace(c, sheet=sheet)

    def prepare(self, combatant: Combatant) -> Combatant:
        """WL-19, WL-33: a combatant at 0 HP is dying; a surprised one carries the status."""
        if combatant.hp == 0:
            combatant = combatant.with_status(DYING, {})
        if self.sheet(combatant).surprised and self.options.surprised_skips:
            combatant = combatant.with_status(SURPRISED, {})
        return combatant

    def initiative(self, state: Encounter, dice: Dice) -> tuple[str, ...]:
        return self.roll_initiative(state, dice)[0]

    def roll_initiative(self, state: Encounter, dice: Dice) -> tuple[tuple[str, ...], list[Event]]:
        """WL-1: highest Sequence first; ties: players before NPCs, then the file's order
        (option ``sequence_ties: file_order``: the file's order alone). No dice."""
        ids = list(state.combatants)
        seq = {cid: sequence(self.sheet(state.get(cid))) for cid in ids}
        players_first = self.options.sequence_ties == "players_first"

        def key(cid: str) -> tuple[int, bool, int]:
            npc = self.sheet(state.get(cid)).npc and players_first
            return -seq[cid], npc, ids.index(cid)

        order = tuple(sorted(ids, key=key))
        return order, [SequenceOrdered(order, tuple(seq[cid] for cid in order))]

    def turn_start(self, state: Encounter, actor: str, dice: Dice) -> list[Event]:
        """WL-3, WL-34, WL-29, WL-30: AP (less any debt) and MAP replenish; Defend and
        Overwatch last until now."""
        c = state.get(actor)
        sheet = self.sheet(c)
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

    def is_down(self, c: Combatant) -> bool:
        """WL-19: dying (0 HP, after the save abilities)."""
        return c.hp == 0 or DYING in c.statuses

    def sheet_json_raw(self, c: Combatant) -> dict[str, Any]:
        return {f.name: _plain(getattr(c.sheet, f.name)) for f in dataclasses.fields(c.sheet)}

    def sheet_json(self, c: Combatant) -> dict[str, Any]:
        """2.8: the sheet, derived evasion, sequence, max_ap, every limb, every weapon."""
        out = self.sheet_json_raw(c)
        sheet = self.sheet(c)
        for key in ("dt", "dr"):  # 2.1: every damage type, 0 where the sheet names none
            out[key] = {t: out[key].get(t, 0) for t in DAMAGE_TYPES}
        out["evasion"] = evasion(c)
        out["sequence"] = sequence(sheet)
        out["max_ap"] = max_ap(sheet, self.options)
        out["limbs"] = limbs_json(sheet, self.options)
        watching = OVERWATCH in c.statuses  # WL-30: no reactions while in Overwatch
        opportunities = ZONE_OF_THREAT_OPPORTUNITIES if has(sheet, "zone_of_threat") else 1
        limits = {"reaction": 1, "opportunity": opportunities, "riposte": 1}  # WL-31
        out["reactions_left"] = {
            kind: 0 if watching else max(0, n - used(c, kind)) for kind, n in limits.items()
        }
        return out

    # --- an action: decide, then roll -------------------------------------

    def decide(self, state: Encounter, action: Action) -> Decision:
        """2.5: each action's refusals, in the table's order, and all it needs before any
        die; WL-33: whether it ends the opening (and may open a surprise round)."""
        family = self._decide(state, action)
        spec = self.action_spec(action.do)
        if spec is None or spec.off_turn or not state.values.get(OPENING):
            return Decision(family)
        sneak = (
            action.do == "attack" and isinstance(family, Attack) and family.plan.sneak is not None
        )
        return Decision(family, opening=True, surprise=sneak)  # WL-33

    def _decide(self, state: Encounter, action: Action) -> Family:
        o, do = self.options, action.do
        if do == "attack":  # P-WL-1, P-WL-2
            return decide_attack(state, action, o)
        if do == "throw":
            return decide_throw(state, action, o)
        if do == "defend":
            return decide_defend(state, action)
        if do == "overwatch":
            return decide_overwatch(state, action, o)
        if do == "overwatch_attack":
            return decide_overwatch_attack(state, action, o)
        if do == "opportunity_attack":
            return decide_opportunity_attack(state, action, o)
        if do == "riposte":
            return decide_riposte(state, action, o)
        if do == "reaction":
            return decide_reaction(state, action)
        if do == "peek":
            return decide_peek(state, action)
        assert do == "injury_test", do
        return decide_injury_test(state, action, o)

    def roll(self, state: Encounter, decision: Any, dice: Dice) -> list[Event]:
        """The decided action's dice and events; WL-33: a Sneak Attack that lands as the
        encounter's first own-turn action opens a surprise round."""
        if isinstance(decision, FireOn):  # the hits and the rest of an attack (a step)
            return fire_on(decision, dice, self.options)
        assert isinstance(decision, Decision)
        family = decision.family
        events: list[Event]
        if isinstance(family, Attack):
            events = roll_attack(family, dice, self.options)
            if decision.opening:  # WL-33: known once the shots landed or not; said last
                then = events.pop()
                assert isinstance(then, Then) and isinstance(then.step, FireOn)
                tail = self._surprise(state, family.plan, events) if decision.surprise else []
                tail.append(OpeningPassed())
                return [*events, Then(dataclasses.replace(then.step, tail=tuple(tail)))]
        elif isinstance(family, Throw):
            events = roll_throw(family, dice, self.options)
        elif isinstance(family, InjuryTest):
            events = roll_injury_test(family, dice)
        else:
            events = list(family.events)
        if not decision.opening:
            return events
        if decision.surprise:
            assert isinstance(family, Attack)
            events += self._surprise(state, family.plan, events)
        return [*events, OpeningPassed()]

    def _surprise(self, state: Encounter, plan: Plan, events: list[Event]) -> list[Event]:
        """WL-33: the opening Sneak Attack landed on its target (any shot hit it): the
        attacker, then its side, then the rest go this round (each in the regular order);
        the target's side is Surprised until the round ends."""
        landed = any(
            isinstance(e, Attempted) and e.target == plan.target and e.landed for e in events
        )
        attacker, target = state.get(plan.actor), state.get(plan.target)
        if not landed or attacker.side == target.side:
            return []
        side = [cid for cid in state.order if state.get(cid).side == attacker.side]
        first = [attacker.id, *(cid for cid in side if cid != attacker.id)]
        order = (*first, *(cid for cid in state.order if cid not in first))
        victims = tuple(cid for cid in state.order if state.get(cid).side == target.side)
        status = self.options.surprised_skips
        return [SurpriseRound(attacker.id, victims, order, state.order, status)]
