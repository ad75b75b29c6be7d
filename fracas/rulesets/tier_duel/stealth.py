"""tier-duel's stealth attack (P-TD-5, TD-20 to TD-24): a presence + stealth contest; a
win is a strike the target cannot defend, and it reveals the attacker."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from fracas.dice.source import Dice
from fracas.model import ActionUsed, Attempted, Combatant, Encounter, Event
from fracas.rulesets.base import Decision, Rules, sheet_as
from fracas.rulesets.steps import Then
from fracas.rulesets.tier_duel.contest import Contest, rolled, side, wield
from fracas.rulesets.tier_duel.damage import hit, skill_of
from fracas.rulesets.tier_duel.data import CONTESTED, STEALTH_DAMAGE, Terms
from fracas.rulesets.tier_duel.events import NoReach, Revealed, StealthOutcome
from fracas.rulesets.tier_duel.items import Wielded
from fracas.rulesets.tier_duel.sheet import Options, Sheet

__all__ = ["decide_stealth", "roll_stealth"]


def _contest_parts(c: Combatant) -> list[tuple[str, int]]:
    return [("presence", sheet_as(c, Sheet).presence), ("stealth", skill_of(c, "stealth"))]


def _strike(actor: Combatant, a: Wielded) -> tuple[Terms, dict[str, int], dict[str, str]]:
    """TD-23, TD-A6: the strike's formula by the weapon's event, the values it adds to the
    strike die, and the skill's name for the log."""
    sheet = sheet_as(actor, Sheet)
    terms = STEALTH_DAMAGE["melee" if a.event == "melee" else a.type]
    values = {
        "reflex": sheet.reflex,
        "skill": skill_of(actor, a.skill),
        "body": sheet.body,
        "tier": a.tier,
    }
    return terms, values, {"skill": a.skill or "skill"}


@dataclass(frozen=True, slots=True)
class Stealth(Contest):
    """A decided stealth contest (TD-20 to TD-24): both stealth dice, then the strike."""

    def roll(self, rules: Rules[Options], state: Encounter, dice: Dice) -> list[Event]:
        return roll_stealth(rules.options, self, dice)


def decide_stealth(options: Options, actor: Combatant, target: Combatant, distance: int) -> Stealth:
    """Both stealth dice and the strike, before any is rolled (the checks are done)."""
    a = wield(options, actor)
    first = side(
        actor.id, "stealth", f"sneaks up on {target.name} from behind", _contest_parts(actor)
    )
    second = side(target.id, "notice", "watches out", _contest_parts(target))
    terms, values, names = _strike(actor, a)
    parts = [(names.get(n, n), f * values[n]) for n, f in terms if n != "strike"]
    strike = side(actor.id, "strike", f"strikes with the {a.name}", parts)
    return Stealth(
        "stealth",
        rolled(actor),
        rolled(target),
        distance,
        a,
        wield(options, target),
        first,
        second,
        strike,
    )


def roll_stealth(options: Options, c: Contest, dice: Dice) -> list[Event]:
    """TD-20 to TD-24: the initiator's die, the opponent's, then the strike on a win."""
    actor, target, a = c.actor, c.target, c.a
    first, second = c.first.roll(dice), c.second.roll(dice)
    tied = first.total == second.total
    won = first.total > second.total or (tied and options.stealth_tie == "win")
    reaches = a.event != "melee" or c.distance <= a.reach
    events: list[Event] = [
        ActionUsed(actor.id, CONTESTED),
        first,
        second,
        Attempted(actor.id, target.id, won and reaches),
        StealthOutcome(actor.id, target.id, won, tied),
    ]
    if not won:
        return events
    if not reaches:
        return [*events, NoReach(actor.id, a.name, target.id, a.reach, c.distance)]
    # The strike is a step of its own (fracas.rulesets.steps): every pair of contest dice
    # that won leaves the same state, so exact odds roll the strike once for all of them.
    return [*events, Then(StealthStrike(c))]


@dataclass(frozen=True, slots=True)
class StealthStrike(Decision):
    """TD-23, TD-24: the strike of a stealth contest won, rolled after the contest (a step:
    ``fracas.rulesets.steps``)."""

    contest: Contest

    def roll(self, rules: Rules[Options], state: Encounter, dice: Dice) -> list[Event]:
        c = self.contest
        assert c.strike is not None
        return list(_struck(rules.options, c, dice.roll(20, c.strike.label)))


@lru_cache(maxsize=1024)
def _struck(options: Options, c: Contest, natural: int) -> tuple[Event, ...]:
    """TD-23, TD-24: the strike that showed ``natural``, its damage and the reveal (a pure
    function of values, met on many dice paths of the exact odds)."""
    actor, target = c.actor, c.target
    assert c.strike is not None
    terms, values, names = _strike(actor, c.a)
    values["strike"] = natural
    return (
        c.strike.rolled(natural),
        *hit(options, target, terms, values, "; TD-23", names),
        Revealed(actor.id, actor.at),
    )
