"""Phases 2 to 4 of an attack (wasteland.md P-WL-1, P-WL-2): the roll, hits, damage,
weapon effects, stray shots and creature cover.

Single fire is one shot rolled as ``attack``; a burst's shots are ``attack:1..n``. Roll
order: the shots; each hit on the target (``location``, ``damage``); the CRIT dice
(``crit``); then stray and creature-cover hits in shot order.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fracas.dice.pools import Faces, Pool, roll_pool
from fracas.dice.source import Dice
from fracas.model import Attempted, Encounter, Event
from fracas.rulesets.base import Decision, Rules
from fracas.rulesets.steps import Then
from fracas.rulesets.wasteland.damage import Hit, Victim, harm, pre_dr, roll_hit
from fracas.rulesets.wasteland.data import CONDITION_LOSS, D20, GLANCING_MARGIN
from fracas.rulesets.wasteland.events import (
    APSpent,
    AttackDeclared,
    ConditionLost,
    CritRolled,
    LimbHit,
    ShotRolled,
    SneakSpent,
    StrayChecked,
)
from fracas.rulesets.wasteland.sheet import Options
from fracas.rulesets.wasteland.turn_events import MissedInMelee
from fracas.rulesets.wasteland.weapons import roll_crit

if TYPE_CHECKING:  # a decided attack rolls with this module (attack.Attack.roll)
    from fracas.rulesets.wasteland.attack import Attack, Plan

__all__ = ["FireOn", "Harmed", "Shot", "fire", "fire_on", "roll_attack"]

Parts = tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class Shot:
    """One shot's roll (WL-7, WL-9, WL-10, WL-15, WL-16)."""

    n: int | None
    total: int
    result: str
    """``crit``, ``critfail``, ``hit``, ``miss`` or ``auto``."""

    @property
    def hit(self) -> bool:
        return self.result in ("crit", "hit", "auto")


def roll_attack(attack: Attack, dice: Dice, options: Options) -> list[Event]:
    """A decided attack rolled: the events before its dice, then :func:`fire`."""
    return [*attack.first, *fire(attack.plan, dice, options)]


def fire(plan: Plan, dice: Dice, options: Options) -> list[Event]:
    """An attack after its refusals: AP, the roll(s) and whether they landed; the hits,
    damage and aftereffects follow as steps (:func:`fire_on`, ``fracas.rulesets.steps``)."""
    events: list[Event] = []
    if plan.cost:
        events.append(APSpent(plan.actor, plan.spend, plan.cost - plan.spend))
    events.append(
        AttackDeclared(plan.actor, plan.target, plan.weapon.name, plan.cost, plan.shots,
                       plan.called, plan.sneak is not None, plan.free)
    )  # fmt: skip
    shots, rolled = _roll_shots(plan, dice, options)
    events += rolled
    first = shots[0]
    if first.result == "critfail" and plan.index is not None:  # WL-10, WL-16
        events.append(ConditionLost(plan.actor, plan.index, CONDITION_LOSS))
    covered: dict[int | None, str] = dict(plan.creature_cover)
    on_target = [s for s in shots if s.hit and s.n not in covered]
    events.append(Attempted(plan.actor, plan.target, bool(on_target)))
    # The rest is a step: shots that decide the same (their d20s drawn as classes) merge.
    events.append(Then(FireOn(plan, tuple(shots), ())))
    return events


@dataclass(frozen=True, slots=True)
class FireOn(Decision):
    """The rest of an attack after its shots: the hits on the target so far (one step per
    hit, each its own limb and damage), then CRIT dice, harm and aftereffects."""

    plan: Plan
    shots: tuple[Shot, ...]
    hits: tuple[Hit, ...]
    tail: tuple[Event, ...] = ()
    """Events that end the action after everything else (WL-33: the opening's)."""

    def odds_key(self) -> Hashable:
        """What the odds of the rest of the attack depend on (``fracas.rulesets.steps``): the hits
        so far only through what harm adds up (WL-14, WL-15: their damage after DT is
        summed, DR once) and what decides the CRIT and Sneak added to the first hit
        (WL-9, WL-17: whether it is shot 1's, stopped by cover, mitigated by DT); which
        limbs they hit and whether they glanced change only CT and injuries (WL-20 to
        WL-22), never HP nor who is dying. A shot's total counts only where creatures
        behind the target or creature cover may read it (WL-24)."""
        if not self.hits:
            return (self.plan, _shots_key(self.plan, self.shots), 0, self.tail)
        alike = self._alike()
        return (*alike[:4], sum(h.post for h in self.hits), *alike[4:])

    def _alike(self) -> tuple[Hashable, ...]:
        """:meth:`odds_key` but the sum of the hits so far (some hits rolled)."""
        plan, hits = self.plan, self.hits
        lead, rest = hits[0], hits[1:]
        return (
            plan,
            _shots_key(plan, self.shots),
            len(hits),
            (lead.shot == self.shots[0].n, lead.stopped, lead.mitigated),
            sum(h.stopped for h in rest) if plan.melee_bonus else 0,  # per hit after DT
            self.tail,
        )

    def odds_shared(self) -> Hashable | None:
        """A burst's last hit on the target alone (its rest :class:`Harmed`): its dice
        (limb, damage, the CRIT die drawn with it) read the hits before it only through
        what :meth:`odds_key` says of the first and of their count, never their sum, so
        steps that differ only in that sum share them (``fracas.rulesets.steps``)."""
        hits = self.hits
        if not _harm_a_step(self.plan, len(hits) + 1):
            return None
        if sum(s.hit for s in self.shots) != len(hits) + 1:
            return None  # not the last hit
        return ("last hit", *self._alike())

    def odds_rebind(self, source: FireOn) -> Callable[[tuple[Event, ...]], tuple[Event, ...]]:
        """What makes a result of ``source`` (the same :meth:`odds_shared`: the same draw)
        this step's: its harm with these hits before the last (the same first hit and
        count: the same CRIT, Sneak and per-hit bonuses), their sum before DR moved by the
        difference of the two sums (WL-14: summed, DR once), worked out once for all of
        ``source``'s results."""
        moved = sum(h.post for h in self.hits) - sum(h.post for h in source.hits)
        plan, shots, before, tail = self.plan, self.shots, self.hits, self.tail

        def rebound(events: tuple[Event, ...]) -> tuple[Event, ...]:
            last = events[-1] if events else None
            if not isinstance(last, Then) or not isinstance(last.step, Harmed):
                return events
            rest = last.step
            hits = (*before, rest.hits[-1])
            harmed = Harmed(plan, shots, hits, rest.extras, rest.total + moved, tail)
            return (*events[:-1], Then(harmed))

        return rebound

    def roll(self, rules: Rules[Options], state: Encounter, dice: Dice) -> list[Event]:
        return fire_on(self, dice, rules.options)


def _harm_a_step(plan: Plan, hits: int) -> bool:
    """Whether what ``hits`` hits on the target leave is a step of its own
    (:class:`Harmed`): a burst's, and only where its shots hit nobody else (with other
    creatures in the way, their dice would be followed once per sum of the hits)."""
    return hits > 1 and not (plan.strays or plan.creature_cover)


def _shots_key(plan: Plan, shots: tuple[Shot, ...]) -> Hashable:
    """What the odds of the rest of an attack read of its shots: each one's number and
    result, and its total only where creatures behind the target or creature cover may
    read it (WL-24). The last one asked is kept by identity: the steps of a burst's
    exact odds, rebuilt for each way its hits came out, hold the same shots."""
    global _last_shots
    last = _last_shots
    if last[1] is shots and last[0] is plan:
        return last[2]
    totals = bool(plan.strays or plan.creature_cover)
    key = tuple([(s.n, s.result, s.total if totals else None) for s in shots])
    _last_shots = (plan, shots, key)
    return key


_last_shots: tuple[Any, Any, Hashable] = (None, None, None)
"""(plan, shots, their key) of the last :func:`_shots_key`: one tuple, set at once."""


@dataclass(frozen=True, slots=True)
class Harmed(Decision):
    """The rest of a burst's attack once its last hit on the target is rolled (a step):
    what the target takes of all its hits (``harm``), then stray and creature-cover hits
    (WL-24). The ways the burst's hits came out meet here by what harm sums of them."""

    plan: Plan
    shots: tuple[Shot, ...]
    hits: tuple[Hit, ...]
    extras: tuple[tuple[int, Parts], ...]
    """Per hit index, what is added after DT (:func:`_extras`)."""
    total: int
    """The hits' damage DR is taken of, summed (``pre_dr``)."""
    tail: tuple[Event, ...] = ()

    def odds_key(self) -> Hashable:
        """What the odds of the rest depend on (``fracas.rulesets.steps``): the hits only
        through their sum before DR (WL-14, WL-15: DR once, on the sum; WL-19: who is
        dying reads the damage after it; WL-23: the effects whether it is above 0); which
        limbs they hit, how hard and whether they glanced change only CT and injuries
        (WL-20 to WL-22), never HP nor who is dying. The shots as :class:`FireOn` reads
        them (WL-24)."""
        return (self.plan, _shots_key(self.plan, self.shots), self.total, self.tail)

    def roll(self, rules: Rules[Options], state: Encounter, dice: Dice) -> list[Event]:
        hits, extras = list(self.hits), dict(self.extras)
        return _rest(self.plan, self.shots, hits, extras, dice, rules.options, [], self.tail)


def fire_on(step: FireOn, dice: Dice, options: Options) -> list[Event]:
    """One more hit on the target (a step), or, all hits rolled, the rest of the attack
    (after a burst's last hit, a step too: :class:`Harmed`)."""
    plan, shots = step.plan, list(step.shots)
    first = shots[0]
    covered: dict[int | None, str] = dict(plan.creature_cover)
    on_target = [s for s in shots if s.hit and s.n not in covered]
    hits = list(step.hits)
    events: list[Event] = []
    drawn: tuple[int, ...] | None = None
    crit = first.result == "crit"
    if len(hits) < len(on_target):
        shot = on_target[len(hits)]
        if len(hits) + 1 < len(on_target):  # a burst: each hit but the last a step
            hit, line, _ = _hit(plan, plan.victim, dice, shot, first, options, sneak=not hits)
            return [line, Then(FireOn(plan, step.shots, (*step.hits, hit), step.tail))]
        # The last hit: the rest follows at once, its damage drawn with the CRIT dice.
        mode = _crit_mode(plan, hits, shot, first, crit, options)
        hit, line, drawn = _hit(plan, plan.victim, dice, shot, first, options,
                                sneak=not hits, crit=mode)  # fmt: skip
        hits.append(hit)
        events.append(line)
    extras: dict[int, Parts] = {}
    if hits:
        extras = _extras(plan, hits, crit, first, dice, options, events, drawn)
    if _harm_a_step(plan, len(hits)):  # met by the hits' sum before DR
        total = sum(pre_dr(hits, extras, options))
        rest = Harmed(plan, step.shots, tuple(hits), tuple(sorted(extras.items())), total,
                      step.tail)  # fmt: skip
        return [*events, Then(rest)]
    return _rest(plan, step.shots, hits, extras, dice, options, events, step.tail)


def _rest(
    plan: Plan,
    shots: tuple[Shot, ...],
    hits: list[Hit],
    extras: dict[int, Parts],
    dice: Dice,
    options: Options,
    events: list[Event],
    tail: tuple[Event, ...],
) -> list[Event]:
    """The end of an attack once every hit on the target is rolled: what the target
    takes of them, a melee miss, a Sneak Attack's reveal, then stray and creature-cover
    hits (WL-24); ``events`` before them, ``tail`` after."""
    covered: dict[int | None, str] = dict(plan.creature_cover)
    if hits:
        events += harm(plan.victim, plan.weapon, hits, extras, options, effects=True)
    if plan.weapon.melee and not any(s.hit and s.n not in covered for s in shots):
        events.append(MissedInMelee(plan.target, plan.actor))  # WL-36: a Riposte may answer
    if plan.sneak is not None and options.sneak_reveals:
        events.append(SneakSpent(plan.actor, plan.target))
    if plan.shots is not None:
        events += _aftershots(plan, list(shots), covered, dice, options)
    return [*events, *tail]


def _crit_mode(
    plan: Plan, hits: list[Hit], shot: Shot, first: Shot, crit: bool, options: Options
) -> str | None:
    """Whether the CRIT dice (WL-9, WL-15, WL-A4, 2.4: on shot 1's hit, not through
    cover that stopped it, not after full DT unless ``crit_after_full_dt``) follow the
    last hit's damage: ``gate`` (it leads: by its own damage), ``always`` (by the first
    hit's), or None."""
    if not crit:
        return None
    if not hits:
        return "gate" if shot.n == first.n else None
    lead = hits[0]
    lost = lead.stopped and options.cover_stops_crit
    dt_ok = options.crit_after_full_dt or not lead.mitigated
    return "always" if lead.shot == first.n and not lost and dt_ok else None


def _roll_shots(plan: Plan, dice: Dice, options: Options) -> tuple[list[Shot], list[Event]]:
    """WL-7, WL-9, WL-10, WL-15, WL-16: shot 1 (or the single shot) alone may CRIT or
    CRITFAIL; after a first-shot CRIT every shot hits and rolls no die."""
    count = plan.shots or 1
    shots: list[Shot] = []
    events: list[Event] = []
    for i in range(1, count + 1):
        n = i if plan.shots is not None else None
        if shots and shots[0].result == "crit":
            shots.append(Shot(n, shots[0].total, "auto"))
            events.append(
                ShotRolled(
                    plan.actor, plan.target, n, None, (), shots[0].total, plan.evasion, "auto"
                )
            )
            continue
        if shots and shots[0].result == "critfail" and options.critfail_aborts_burst:
            break  # WL-A5 option: the whole burst fails
        decides = Decides(
            plan.bonus, plan.evasion, plan.glancing, i == 1, plan.critfail_max, plan.crit_min,
            options.crit_overlap == "critfail", _thresholds(plan),
        )  # fmt: skip
        ((natural,),) = roll_pool(dice, D20_POOL, "attack", n=n, key=decides)
        total = natural + plan.bonus
        result, _, _ = decides(((natural,),))
        shots.append(Shot(n, total, result))
        events.append(
            ShotRolled(plan.actor, plan.target, n, natural, plan.parts, total, plan.evasion, result)
        )
    return shots, events


D20_POOL = Pool((D20,))


@dataclass(frozen=True, slots=True)
class Decides:
    """What a shot's d20 decides (WL-7, WL-9, WL-10, WL-G4, WL-12): its result and
    whether its total clears the Glancing Threshold; the class of its face."""

    bonus: int
    evasion: int
    glancing: int
    first: bool
    critfail_max: int
    crit_min: int
    overlap_critfail: bool
    others: tuple[int, ...] = ()
    """Totals the shot's total is compared with for other creatures (WL-24: strays and
    creature cover, their Evasion and Glancing Threshold)."""

    def __call__(self, faces: Faces) -> tuple[str, bool, tuple[bool, ...]]:
        natural = faces[0][0]
        total = natural + self.bonus
        result = "hit" if total > self.evasion else "miss"  # WL-7: must exceed
        if self.first:  # shot 1 (or the single shot) alone may CRIT or CRITFAIL
            critfail = natural <= self.critfail_max
            crit = natural >= self.crit_min
            if critfail and crit:  # WL-G4
                critfail = self.overlap_critfail
                crit = not critfail
            result = "critfail" if critfail else "crit" if crit else result
        return result, total > self.glancing, tuple(total > t for t in self.others)


def _thresholds(plan: Plan) -> tuple[int, ...]:
    """WL-24: every total a shot is compared with for the other creatures it may hit."""
    out: set[int] = set()
    for victim in plan.others.values():
        out |= {victim.evasion, victim.evasion + GLANCING_MARGIN}
    return tuple(sorted(out))


def _solid(plan: Plan, shot: Shot, first: Shot, options: Options) -> bool:
    """WL-12, WL-15: Solid iff the total exceeds the Glancing Threshold (per shot, or by
    shot 1's total; after a first-shot CRIT by shot 1's total, or always solid)."""
    total = shot.total
    if shot.result == "auto":
        if options.burst_crit_glancing == "solid":
            return True
        total = first.total
    elif plan.shots is not None and options.burst_glancing == "first_shot":
        total = first.total
    return total > plan.glancing


def _hit(
    plan: Plan,
    target: Victim,
    dice: Dice,
    shot: Shot,
    first: Shot,
    options: Options,
    *,
    sneak: bool,
    crit: str | None = None,
) -> tuple[Hit, LimbHit, tuple[int, ...] | None]:
    """One hit on the primary target; the Sneak bonus (before DT by option) on the first;
    ``crit``: the CRIT dice drawn with its damage (``roll_hit``, :func:`_crit_mode`)."""
    before: list[tuple[str, int]] = []
    if plan.melee_bonus and options.melee_bonus_before_dt:  # WL-18
        before.append(("melee", plan.melee_bonus))
    if sneak and plan.sneak is not None and not options.sneak_bypasses_dt:  # WL-17, WL-A3
        before.append(("sneak", plan.sneak))
    solid = _solid(plan, shot, first, options)
    return roll_hit(
        target, plan.weapon, dice, shot.n, plan.called, solid, tuple(before), plan.flanking,
        options, crit=crit, one=plan.shots is not None,
    )  # fmt: skip


def _extras(
    plan: Plan,
    hits: list[Hit],
    crit: bool,
    first: Shot,
    dice: Dice,
    options: Options,
    events: list[Event],
    drawn: tuple[int, ...] | None = None,
) -> dict[int, Parts]:
    """What is added after DT, per hit: CRIT dice (single: all, exploding; burst: one die
    on shot 1, WL-A2), the Sneak bonus (first hit, WL-17), Bonus Melee Damage after DT by
    option (WL-18). Rolls ``crit`` where it applies (``drawn``: the faces a single shot
    rolled with its damage); appends the CritRolled line."""
    extras: dict[int, list[tuple[str, int]]] = {}
    lead = hits[0]
    lost = lead.stopped and options.cover_stops_crit  # 2.4: cover stops the CRIT too
    dt_ok = options.crit_after_full_dt or not lead.mitigated  # WL-A4
    if crit and lead.shot == first.n and not lost and dt_ok:  # WL-9, WL-15 (6)
        if drawn is not None:
            total, faces = sum(drawn), drawn
        else:
            total, faces = roll_crit(plan.weapon.crit_dice, dice, one=plan.shots is not None)
        events.append(CritRolled(faces, total))
        extras.setdefault(0, []).append(("crit", total))
    if plan.sneak is not None and options.sneak_bypasses_dt:
        extras.setdefault(0, []).append(("sneak", plan.sneak))
    if plan.melee_bonus and not options.melee_bonus_before_dt:
        for i in range(len(hits)):
            extras.setdefault(i, []).append(("melee", plan.melee_bonus))
    return {i: tuple(v) for i, v in extras.items()}


def _aftershots(
    plan: Plan,
    shots: list[Shot],
    covered: dict[int | None, str],
    dice: Dice,
    options: Options,
) -> list[Event]:
    """WL-24: creature-cover hits and stray shots, in shot order; each creature's hits
    are then resolved together (standard Glancing, its own DT and DR, no Sneak)."""
    events: list[Event] = []
    victims: dict[str, list[Hit]] = {}
    for shot in shots:
        victim: Victim | None = None
        if shot.hit and shot.n in covered:
            victim = plan.others[covered[shot.n]]
            events.append(Attempted(plan.actor, victim.id, True))
        elif not shot.hit and (shot.result != "critfail" or options.critfail_strays):
            victim = _stray_victim(plan, shot, events, options)
        if victim is None:
            continue
        solid = shot.total > victim.evasion + GLANCING_MARGIN
        hit, line, _ = roll_hit(victim, plan.weapon, dice, shot.n, None, solid, (), False, options)
        victims.setdefault(victim.id, []).append(hit)
        events.append(line)
    for cid, hits in victims.items():
        events += harm(
            plan.others[cid], plan.weapon, hits, {}, options, effects=options.stray_effects
        )
    return events


def _stray_victim(plan: Plan, shot: Shot, events: list[Event], options: Options) -> Victim | None:
    """WL-24: the first creature behind the target whose Evasion the shot exceeds;
    Trigger Discipline never hits an ally (the shot goes on, or is lost by option)."""
    assert shot.n is not None
    for cid in plan.strays:
        c = plan.others[cid]
        ev = c.evasion
        hits = shot.total > ev
        if cid in plan.shielded:
            if hits and not options.trigger_discipline_continues:
                return None
            continue
        events += [
            StrayChecked(cid, shot.n, shot.total, ev, hits),
            Attempted(plan.actor, cid, hits),
        ]
        if hits:
            return c
    return None
