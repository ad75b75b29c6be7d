"""What a decided wasteland action spends before any die (issue 35: shown before it is
confirmed), read from the decision itself: the AP it pays now and owes (WL-5, WL-29,
WL-30, WL-34), the Overwatch shot (WL-30), the Reaction or Free Reaction it uses
(WL-31). The same decision's events spend them: nothing is computed twice.
"""

from __future__ import annotations

from fracas.model import Combatant, Encounter, Event, StatusSet
from fracas.rulesets.base import Cost, sheet_as
from fracas.rulesets.wasteland.attack import Attack
from fracas.rulesets.wasteland.data import ZONE_OF_THREAT_OPPORTUNITIES
from fracas.rulesets.wasteland.events import APSpent
from fracas.rulesets.wasteland.explosives import Throw
from fracas.rulesets.wasteland.reactions import InjuryTest, Settled
from fracas.rulesets.wasteland.sheet import Sheet
from fracas.rulesets.wasteland.stats import OVERWATCH, has
from fracas.rulesets.wasteland.turn_events import ReactionUsed, used

__all__ = ["AP", "costs"]

AP = "AP"
USES = {"opportunity": "opportunity attack", "riposte": "riposte", "reaction": "Reaction"}
"""WL-31: each kind of reaction a :class:`ReactionUsed` counts, as people name one."""


def _ap(actor: Combatant, cost: int, spend: int) -> Cost:
    """WL-5, WL-34: ``cost`` AP, ``spend`` of them paid now, the rest owed."""
    ap = sheet_as(actor, Sheet).ap or 0
    return Cost(actor.id, AP, cost, ap, ap - spend, owed=cost - spend)


def _limit(actor: Combatant, kind: str) -> int:
    """WL-31: the reactions of ``kind`` a round allows (Zone of Threat: 2 opportunities)."""
    if kind == "opportunity" and has(sheet_as(actor, Sheet), "zone_of_threat"):
        return ZONE_OF_THREAT_OPPORTUNITIES
    return 1


def _used(state: Encounter, event: ReactionUsed) -> Cost:
    actor = state.get(event.actor)
    left = _limit(actor, event.kind) - used(actor, event.kind)
    return Cost(actor.id, USES.get(event.kind, event.kind), 1, left, left - 1, uses=True)


def _spent(state: Encounter, events: tuple[Event, ...]) -> tuple[Cost, ...]:
    """The costs the decided events spend: AP (with any debt), a reaction, an Overwatch
    shot (the allowance set one lower, WL-30)."""
    out: list[Cost] = []
    for e in events:
        if isinstance(e, APSpent):
            out.append(_ap(state.get(e.actor), e.ap + e.debt, e.ap))
        elif isinstance(e, ReactionUsed):
            out.append(_used(state, e))
        elif isinstance(e, StatusSet) and e.status == OVERWATCH:
            watch = state.get(e.target).statuses.get(OVERWATCH)
            if watch is not None:  # a shot of the allowance (entering Overwatch: none yet)
                shots = int(watch["shots"])
                out.append(Cost(e.target, "Overwatch shot", 1, shots, shots - 1, uses=True))
    return tuple(out)


def costs(state: Encounter, family: Attack | Throw | Settled | InjuryTest) -> tuple[Cost, ...]:
    """What ``family`` (decided in ``state``) spends before its dice."""
    if isinstance(family, Attack):
        plan = family.plan
        if plan.free is None:  # WL-5: weapon AP, +1 called, +1 burst; WL-34: debt
            return (_ap(state.get(plan.actor), plan.cost, plan.spend),)
        return _spent(state, family.first)
    if isinstance(family, Throw):
        return (_ap(state.get(family.actor), family.spend + family.debt, family.spend),)
    if isinstance(family, Settled):
        return _spent(state, family.events)
    return ()
