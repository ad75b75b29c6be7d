"""tier-duel's events of combat, once the action is legal: the melee event (P-TD-1), the
projectile event (P-TD-2), crossbow (P-TD-3) and firearm (P-TD-4) shots.

``decide_contest`` finds everything that needs no die: both sides' rolls as
:class:`Side` (who, what is added), and the whole of an automatic hit (TD-11, TD-16),
which rolls nothing. ``roll_contest`` rolls the initiator's die, then the opponent's
(1.4), and the damage comes from the formulas of ``data.py``. Each side that can be
damaged by the event gets an ``Attempted`` (the odds' ``hit``: it lost to a side that
can damage it).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from fracas.dice.pools import Faces, Joint, Part, Pool, roll_joint
from fracas.dice.source import Dice
from fracas.model import ActionUsed, Attempted, Combatant, Encounter, Event
from fracas.model.frozen import evolve
from fracas.rulesets.base import Decision, Rules, sheet_as
from fracas.rulesets.tier_duel.damage import crossbow_hit, firearm_hit, hit, skill_of
from fracas.rulesets.tier_duel.data import (
    CONTESTED,
    COUNTER_DAMAGE,
    MELEE_DAMAGE,
    NON_WEAPON_SKILLS,
    NONCONTESTED,
    PROJECTILE_DAMAGE,
)
from fracas.rulesets.tier_duel.events import (
    AutomaticHit,
    ContestedShot,
    Countered,
    Loaded,
    NoReach,
    Rolled,
    Unanswered,
    Verdict,
    tiles,
)
from fracas.rulesets.tier_duel.items import Wielded, wielded
from fracas.rulesets.tier_duel.sheet import Options, Sheet

__all__ = ["Contest", "Ready", "Side", "decide_contest", "roll_contest", "wield"]

INITIATOR = "initiator"
DEFENDER = "defender"

Parts = tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class Ready(Decision):
    """A decided action that rolls no die: its events."""

    events: tuple[Event, ...]

    def roll(self, rules: Rules[Options], state: Encounter, dice: Dice) -> list[Event]:
        return list(self.events)


@dataclass(frozen=True, slots=True)
class Side:
    """One d20 of a contest or a stealth strike, before it is rolled: who rolls it under
    which label, what the log says they do, and what is added (shown: the non-zero)."""

    who: str
    label: str
    how: str
    parts: Parts
    bonus: int

    def roll(self, dice: Dice) -> Rolled:
        return self.rolled(dice.roll(20, self.label))

    def rolled(self, natural: int) -> Rolled:
        return Rolled(self.who, self.label, self.how, natural, self.parts, natural + self.bonus)


def side(who: str, label: str, how: str, parts: list[tuple[str, int]]) -> Side:
    shown = tuple((n, v) for n, v in parts if v)
    return Side(who, label, how, shown, sum(v for _, v in parts))


@dataclass(frozen=True, slots=True)
class Contest(Decision):
    """A decided contest: the two combatants as they stand, their weapons, both rolls."""

    event: str
    """``melee``, ``projectile``, ``crossbow``, ``firearm`` or ``stealth``."""
    actor: Combatant
    target: Combatant
    distance: int
    a: Wielded
    d: Wielded
    first: Side
    second: Side
    strike: Side | None = None
    """A stealth attack's strike, rolled when the initiator wins (TD-23)."""

    def roll(self, rules: Rules[Options], state: Encounter, dice: Dice) -> list[Event]:
        """P-TD-1 to P-TD-4 (a stealth contest is a :class:`~.stealth.Stealth`)."""
        return roll_contest(rules.options, self, dice)


def wield(options: Options, c: Combatant) -> Wielded:
    return wielded(c, options.reach_1h, options.reach_2h)


def _combat_side(label: str, c: Combatant, how: str, w: Wielded) -> Side:
    """TD-1: 1d20 + reflex + the skill of the weapon used."""
    parts = [
        ("reflex", sheet_as(c, Sheet).reflex),
        (w.skill or "no skill", skill_of(c, w.skill)),
    ]
    return side(c.id, label, how, parts)


def _defence_side(options: Options, c: Combatant) -> Side:
    """TD-7, TD-A4, TD-17: the defender against a shot adds any weapon skill."""
    if options.projectile_defender_skill == "held":
        w = wield(options, c)
        return _combat_side("defend", c, f"defends ({w.name} in hand)", w)
    sheet = sheet_as(c, Sheet)
    weapon = {k: v for k, v in sheet.skills.items() if k not in NON_WEAPON_SKILLS}
    best = max(weapon, key=lambda k: weapon[k], default=None)
    value = max(0, weapon[best]) if best is not None else 0  # "may add": never a penalty
    name = f"{best} (best weapon skill)" if value else "no weapon skill"
    return side(c.id, "defend", "defends", [("reflex", sheet.reflex), (name, value)])


def decide_contest(
    options: Options, actor: Combatant, target: Combatant, distance: int
) -> Contest | Ready:
    """The event an ``attack`` with the wielded weapon starts (its checks are done)."""
    a, d = wield(options, actor), wield(options, target)
    what = f"{target.name} with the {a.name} ({tiles(distance)})"
    if a.event == "melee":
        how = f"attacks {target.name} with {a.name} ({tiles(distance)})"
        first = _combat_side("attack", actor, how, a)
        second = _combat_side("defend", target, f"defends with {d.name}", d)
    elif a.event == "projectile":
        verb = "shoots at" if a.type == "bow" else f"throws the {a.name} at"
        how = f"{verb} {target.name} ({a.name}, {tiles(distance)})"
        first, second = _combat_side("attack", actor, how, a), _defence_side(options, target)
    else:
        automatic = _automatic(options, actor, target, distance, a)
        if automatic is not None:
            return automatic
        verb = "shoots" if a.event == "crossbow" else "fires at"
        first = _combat_side("attack", actor, f"{verb} {what}", a)
        second = _defence_side(options, target)
    return Contest(a.event, rolled(actor), rolled(target), distance, a, d, first, second)


def rolled(c: Combatant) -> Combatant:
    """``c`` as a contest keeps it: what its roll reads (its id, tile and sheet), with
    its HP and its temporary damage (TD-5) at 0, which the roll never reads (only the
    fold of its events does). So a contest decided at another HP is the same decision,
    and its exact odds, enumerated once, serve every HP (issue 34)."""
    sheet = sheet_as(c, Sheet)
    return evolve(c, hp=0, max_hp=0, sheet=evolve(sheet, temporary_damage=0))


def _automatic(
    options: Options, actor: Combatant, target: Combatant, distance: int, a: Wielded
) -> Ready | None:
    """TD-11: a crossbow within its skill, TD-16: a firearm inside its guaranteed zone: a
    non-contested hit, no roll; None beyond."""
    firearm = a.event == "firearm"
    limit = _limit(actor, a)
    if distance > limit:
        return None
    events: list[Event] = [
        ActionUsed(actor.id, NONCONTESTED),
        AutomaticHit(actor.id, target.id, a.name, distance, limit, a.skill, firearm),
        Attempted(actor.id, target.id, True),
        *(firearm_hit if firearm else crossbow_hit)(options, target, a),
    ]
    if options.unload_on_fire:  # TD-15 (PROPOSED for firearms too)
        events.append(Loaded(actor.id, False))
    return Ready(tuple(events))


def _limit(actor: Combatant, a: Wielded) -> int:
    """A crossbow's automatic range (its skill, TD-11) or a firearm's guaranteed zone."""
    if a.event == "firearm":
        assert a.item is not None
        return a.item.guaranteed_zone
    return skill_of(actor, a.skill)


def _verdict(first: Rolled, second: Rolled, tie: str) -> tuple[str | None, int]:
    """TD-2, TD-3: the higher total wins by the difference; a tie goes to ``tie``."""
    if first.total == second.total:
        return (None if tie == "none" else tie), 0
    winner = INITIATOR if first.total > second.total else DEFENDER
    return winner, abs(first.total - second.total)


@dataclass(frozen=True, slots=True)
class _Margin:
    """The class of a contest's two d20s for the exact odds: by how much the first
    total beats the second (TD-2, TD-3: all the rest of the contest reads of them)."""

    bonus: int
    """The first side's bonus minus the second's."""

    def __call__(self, faces: tuple[Faces, ...]) -> Hashable:
        return faces[0][0][0] - faces[1][0][0] + self.bonus


def roll_contest(options: Options, c: Contest, dice: Dice) -> list[Event]:
    """Both dice of a melee, projectile or contested shot, then the winner's damage."""
    # TD-1: both d20s, in order; the exact odds draw them as one branch per margin
    both = Joint((Part(Pool((20,)), c.first.label), Part(Pool((20,)), c.second.label)))
    (a,), (b,) = (
        faces[0] for faces in roll_joint(dice, both, key=_Margin(c.first.bonus - c.second.bonus))
    )
    first, second = c.first.rolled(a), c.second.rolled(b)
    winner, diff = _verdict(first, second, options.tie_result)
    ids = {INITIATOR: c.actor.id, DEFENDER: c.target.id, None: None}
    verdict = Verdict(ids[winner], diff)
    events: list[Event] = [ActionUsed(c.actor.id, CONTESTED), first, second]
    if c.event == "melee":
        return events + _melee(options, c, winner, diff, verdict)
    if c.event == "projectile":
        return events + _projectile(options, c, winner, diff, verdict)
    limit = _limit(c.actor, c.a)
    events += [
        ContestedShot(c.actor.id, limit, c.a.skill, c.event == "firearm"),
        Attempted(c.actor.id, c.target.id, winner == INITIATOR),
        verdict,
    ]
    if winner == INITIATOR:  # TD-G3, TD-17: the weapon's damage, no roll difference
        events += (firearm_hit if c.event == "firearm" else crossbow_hit)(options, c.target, c.a)
    if options.unload_on_fire:  # TD-15
        events.append(Loaded(c.actor.id, False))
    return events


def _melee(
    options: Options, c: Contest, winner: str | None, diff: int, verdict: Verdict
) -> list[Event]:
    """TD-1, TD-2, TD-4, TD-6: the winner deals damage if it reaches."""
    reaches = {INITIATOR: c.distance <= c.a.reach, DEFENDER: c.distance <= c.d.reach}
    events: list[Event] = [
        Attempted(c.actor.id, c.target.id, winner == INITIATOR and reaches[INITIATOR])
    ]
    if reaches[DEFENDER]:  # TD-2: the defender may win and strike back
        events.append(Attempted(c.target.id, c.actor.id, winner == DEFENDER))
    events.append(verdict)
    if winner is None:
        return events
    win, lose, w = (c.actor, c.target, c.a) if winner == INITIATOR else (c.target, c.actor, c.d)
    if not reaches[winner]:
        return [*events, NoReach(win.id, w.name, lose.id, w.reach, c.distance)]
    values = {"diff": diff, "body": sheet_as(win, Sheet).body, "tier": w.tier}
    return events + hit(options, lose, MELEE_DAMAGE, values)


def _projectile(
    options: Options, c: Contest, winner: str | None, diff: int, verdict: Verdict
) -> list[Event]:
    """TD-7, TD-8, TD-9: a shot or throw; a melee defender in reach may strike back."""
    counter = options.projectile_counter and c.d.is_melee_weapon and c.distance <= c.d.reach
    events: list[Event] = [Attempted(c.actor.id, c.target.id, winner == INITIATOR)]
    if counter:
        events.append(Attempted(c.target.id, c.actor.id, winner == DEFENDER))
    events.append(verdict)
    if winner == INITIATOR:
        values = {"diff": diff, "tier": c.a.tier, "body": sheet_as(c.actor, Sheet).body}
        return events + hit(options, c.target, PROJECTILE_DAMAGE[c.a.type], values)
    if winner == DEFENDER and counter:
        events.append(Countered(c.actor.id, c.d.name))
        values = {"diff": diff, "body": sheet_as(c.target, Sheet).body, "tier": c.d.tier}
        return events + hit(options, c.actor, COUNTER_DAMAGE, values)
    if winner == DEFENDER:
        events.append(Unanswered(c.target.id))
    return events
