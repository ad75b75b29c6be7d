"""dice-combat's explosives (P-DC-3): one attack roll, every combatant in the blast
defends on its own, a Molotov sets its victims burning (DC-24 to DC-34, P-DC-4)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from fracas.dice.pools import Apart, Faces, Joint, Part, roll_joint
from fracas.dice.source import Dice
from fracas.model import (
    ActionUsed,
    Attempted,
    Combatant,
    Encounter,
    Event,
    StatusSet,
    TurnOver,
)
from fracas.model.grid import DIRECTIONS, Tile, in_square, step
from fracas.rulesets.base import Decision, Rules, sheet_as
from fracas.rulesets.dice_combat.damage import (
    D20,
    EDGE,
    KEEP,
    Defends,
    Guard,
    critical,
    damage,
    defend,
    defended,
    guard,
)
from fracas.rulesets.dice_combat.data import BURN_LUCK, CRIT_PROFILES, SCATTER_DIE, WeaponClass
from fracas.rulesets.dice_combat.events import (
    AttackRolled,
    BlastEmpty,
    CriticalFailure,
    HandEmptied,
    Scattered,
    ScrapFloored,
)
from fracas.rulesets.dice_combat.items import Item
from fracas.rulesets.dice_combat.sheet import Options, Sheet

__all__ = ["Blast", "Victim", "blast", "roll_blast"]


@dataclass(frozen=True, slots=True)
class Victim:
    """One combatant in a blast, as far as no die decides: its Defend (DC-32) and, for a
    fire weapon, the burning it gets when hit (DC-24)."""

    id: str
    guard: Guard
    ignite: StatusSet | None


@dataclass(frozen=True, slots=True)
class Blast(Decision):
    """A decided explosive throw: everything but the dice. The victims at the centre
    aimed at are found here; a scattered throw (DC-34) finds its own when rolling."""

    actor: str
    how: str
    centre: Tile
    edge: str | None
    bonus: int
    crit: str
    """The thrower's critical profile (DC-36)."""
    radius: int
    base: int
    """Damage to each victim hit, scrap included (DC-24, DC-26)."""
    burns: int
    """Further burning ticks a victim hit gets (0: not a fire weapon) (DC-24)."""
    drop_tick: bool
    """A scrap Molotov under ``scrap_molotov: drop_tick``: one tick less (DC-A6)."""
    floored: ScrapFloored | None
    """The scrap floor kept the damage (DC-A6), for the log."""
    victims: tuple[Victim, ...] = ()
    """Who is in the blast at ``centre`` (DC-31, in encounter order)."""
    scattered: tuple[tuple[Tile, tuple[Victim, ...]], ...] = ()
    """Who is in it at each tile a critical failure may scatter it to (DC-34: 1d3 tiles
    in one of 8 directions), so that no die's path looks for them again."""

    def roll(self, rules: Rules[Options], state: Encounter, dice: Dice) -> list[Event]:
        return roll_blast(state, self, rules.options, dice)


def blast(
    state: Encounter,
    actor: str,
    sheet: Sheet,
    hand: Item,
    cls: WeaponClass,
    centre: Tile,
    edge: str | None,
    options: Options,
) -> Blast:
    """The explosive in hand thrown at ``centre`` (the checks are done)."""
    base = cls.damage
    floored = None
    drop_tick = hand.scrap and bool(cls.burns) and options.scrap_molotov == "drop_tick"
    if hand.scrap and not drop_tick:
        base = max(options.scrap_floor, cls.damage - 1)  # DC-26
        if base == cls.damage:
            floored = ScrapFloored(hand.name, options.scrap_floor, base)
    plan = Blast(
        actor,
        f"throws the {hand.name} at [{centre[0]}, {centre[1]}]",
        centre,
        edge,
        sheet.attack_bonus,
        sheet.crit,
        cls.radius,
        base,
        cls.burns,
        drop_tick,
        floored,
    )
    _, farthest = SCATTER_DIE.bounds()
    assert farthest is not None
    wide = {  # DC-34: every tile the throw may scatter to
        step(centre, direction, distance)
        for distance in range(1, farthest + 1)
        for _, direction in DIRECTIONS
    }
    everyone = _everyone(state, plan, options)
    return dataclasses.replace(
        plan,
        victims=_in_blast(everyone, centre, plan.radius),
        scattered=tuple((t, _in_blast(everyone, t, plan.radius)) for t in sorted(wide)),
    )


@dataclass(frozen=True, slots=True)
class Landed(Apart):
    """What the attack d20 and the victims' Defend d20s of a throw decide (DC-34, DC-39,
    DC-43), the class of the joint draw: on a critical failure the total alone (the
    throw scatters, its victims defend after); else per victim whether it is hit and
    whether it fumbled (DC-33: an explosive's critical success is plain). Each victim's
    Defend is read apart from the others' once the attack is known
    (:class:`~fracas.dice.pools.Apart`)."""

    bonus: int
    profile: str
    edge: str | None
    defends: tuple[tuple[int, frozenset[int]], ...]
    """Per victim at the centre: its Defend bonus and fumbles."""

    def natural(self, faces: Faces) -> int:
        return KEEP[self.edge](faces) if self.edge is not None else faces[0][0]

    def apart(self, first: Faces) -> tuple[Any, tuple[Defends | None, ...]]:
        natural = self.natural(first)
        total = natural + self.bonus
        if critical(self.profile, natural) == "failure":
            return ("scatters", total), (None,) * len(self.defends)
        return None, tuple(
            Defends(total, bonus, failure, True, None) for bonus, failure in self.defends
        )


@dataclass(frozen=True, slots=True)
class Holds:
    """A victim's Defend is drawn with the attack unless the throw scatters (DC-34)."""

    landed: Landed

    def __call__(self, faces: tuple[Faces, ...]) -> bool:
        return critical(self.landed.profile, self.landed.natural(faces[0])) != "failure"


@lru_cache(maxsize=256)
def _throw(
    bonus: int, profile: str, edge: str | None, guards: tuple[Guard, ...]
) -> tuple[Joint, Landed]:
    """The joint draw of a throw at its centre and its class (decided once per plan)."""
    landed = Landed(
        bonus, profile, edge, tuple((g.bonus, CRIT_PROFILES[g.crit].failure) for g in guards)
    )
    holds = Holds(landed)
    parts = [Part(EDGE if edge is not None else D20, "attack")]
    parts += [Part(D20, "defend", of=g.target, when=holds) for g in guards]
    return Joint(tuple(parts)), landed


def roll_blast(state: Encounter, plan: Blast, options: Options, dice: Dice) -> list[Event]:
    """P-DC-3: attack d20 → [scatter d3 → direction d8] → each victim's Defend d20 → fumble
    d4s. The attack and the Defends at the centre are drawn as one (:class:`Landed`)."""
    guards = tuple(v.guard for v in plan.victims)
    joint, key = _throw(plan.bonus, plan.crit, plan.edge, guards)
    drawn = roll_joint(dice, joint, key=key)
    naturals = tuple(f for (f,) in drawn[0])
    natural = key.natural(drawn[0])
    total = natural + plan.bonus
    crit = critical(plan.crit, natural)
    parts = (("bonus", plan.bonus),) if plan.bonus else ()
    events: list[Event] = [
        ActionUsed(plan.actor),
        # DC-33: explosives never deal critical-success damage
        AttackRolled(
            plan.actor,
            plan.how,
            naturals,
            natural,
            parts,
            total,
            None if crit == "success" else crit,
        ),
        HandEmptied(plan.actor),  # DC-29
    ]
    centre = plan.centre
    if crit == "failure":  # DC-34: the throw goes wide
        distance = SCATTER_DIE.roll(dice, "scatter")
        name, direction = DIRECTIONS[dice.roll(8, "direction") - 1]
        centre = step(centre, direction, distance)
        events += [CriticalFailure(plan.actor, explosive=True), Scattered(distance, name, centre)]
    found = plan.victims if centre == plan.centre else dict(plan.scattered)[centre]
    if crit == "failure":
        defences = [defend(v.guard, dice, total) for v in found]
    else:
        defences = [
            defended(v.guard, rolled, Defends(total, v.guard.bonus,
                                              CRIT_PROFILES[v.guard.crit].failure, True, None))
            for v, rolled in zip(found, drawn[1:], strict=True)
        ]  # fmt: skip
    if plan.floored is not None:
        events.append(plan.floored)
    if not found:
        events.append(BlastEmpty(centre))
    for victim, defence in zip(found, defences, strict=True):
        events += [defence, Attempted(plan.actor, victim.id, defence.hit)]
    for victim, defence in zip(found, defences, strict=True):
        if not defence.hit:
            continue
        events.append(damage(victim.id, plan.base, False, defence.fumbled, dice))
        if victim.ignite is not None:
            events.append(victim.ignite)
    events.append(TurnOver(plan.actor))  # DC-32
    return events


def _everyone(state: Encounter, plan: Blast, options: Options) -> list[tuple[Tile, Victim]]:
    """Every combatant on the map, in encounter order, as the blast would find it: its
    tile, its Defend and the burning it gets when hit (the same at every tile the
    blast may land on: worked out once for the centre and each scatter tile)."""
    return [
        (
            c.at,
            Victim(
                c.id,
                guard(c.id, sheet_as(c, Sheet), True, options, explosive=True),
                ignite(c, plan.burns - plan.drop_tick, plan.base, options) if plan.burns else None,
            ),
        )
        for c in state.combatants.values()
        if c.at is not None
    ]


def _in_blast(everyone: list[tuple[Tile, Victim]], centre: Tile, radius: int) -> tuple[Victim, ...]:
    """DC-31: those of ``everyone`` in the blast square around ``centre``, in encounter
    order, with their Defend and the burning they get when hit."""
    return tuple(v for at, v in everyone if in_square(at, centre, radius))


def ignite(victim: Combatant, burns: int, tick: int, options: Options) -> StatusSet | None:
    """DC-24, DC-25, P-DC-4: set the victim burning for its next turns (its luck shortens
    or lengthens it; re-ignition keeps the longer, or adds, by ``burn_reignite``)."""
    turns = burns + BURN_LUCK[sheet_as(victim, Sheet).luck]
    current = victim.statuses.get("burning", {}).get("turns", 0)
    turns = max(current, turns) if options.burn_reignite == "max" else current + turns
    if turns <= 0:
        return None
    return StatusSet(victim.id, "burning", {"turns": turns, "damage": tick})
