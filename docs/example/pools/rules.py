"""pools: opposed d6 pools, 5+ succeeds, net successes are damage (``rule_text.yaml``)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, ClassVar

from fracas.dice.pools import Faces, Pool, roll_pool
from fracas.dice.source import Dice
from fracas.errors import Refusal
from fracas.events import StatusCleared, StatusSet
from fracas.model import Action, ActionUsed, Attempted, Damaged, Encounter, Event
from fracas.rulesets.base import ActionSpec, DieSpec, StatusSpec, TypedRuleset, sheet_as
from pools.data import D6, DEFAULT_MAX_HP, STAGGER_AT, STAGGERED
from pools.sheet import Options, Sheet


@dataclass(frozen=True, slots=True)
class PoolsRolled(Event):
    """PO-2: both pools as rolled, and their successes (the log line)."""

    actor: str
    target: str
    attack: Faces
    defence: Faces
    hits: int
    blocks: int

    def describe(self, state: Encounter) -> str | None:
        a, d = (" ".join(str(f) for (f,) in pool) or "-" for pool in (self.attack, self.defence))
        net = f"{self.hits - self.blocks} net" if self.hits > self.blocks else "no hit"
        return (
            f"{state.name(self.actor)}'s {a} against {state.name(self.target)}'s {d}: "
            f"successes {self.hits} to {self.blocks}, {net}"
        )


@dataclass(frozen=True, slots=True)
class Successes:
    """A pool's key: how many dice show ``at`` or more, all the rules read of it."""

    at: int

    def __call__(self, faces: Faces) -> int:
        return sum(1 for (face,) in faces if face >= self.at)


@dataclass(frozen=True, slots=True)
class Attack:
    """A decided attack: who attacks whom, and how many dice each side rolls."""

    actor: str
    target: str
    attack: int
    defence: int


class Pools(TypedRuleset[Sheet, Options]):
    """Opposed d6 pools: successes on 5+, net successes are damage."""

    name: ClassVar[str] = "pools"
    title: ClassVar[str] = "Opposed d6 pools (the docs' example)"
    seed_file: ClassVar[str] = ""
    summary: ClassVar[str] = "attack pool vs defence pool of d6, 5+ succeeds, net is damage"
    default_max_hp: ClassVar[int] = DEFAULT_MAX_HP
    actions: ClassVar[tuple[ActionSpec, ...]] = (
        ActionSpec("attack", "your pool against the target's"),
    )
    dice: ClassVar[tuple[DieSpec, ...]] = (
        DieSpec("attack", D6, "every attack: one d6 per die of the attacker's pool"),
        DieSpec("defence", D6, "every attack: one d6 per die of the target's pool"),
    )
    statuses: ClassVar[tuple[StatusSpec, ...]] = (
        StatusSpec(STAGGERED, "its next attack rolls one die fewer (PO-4)"),
    )

    def decide(self, state: Encounter, action: Action) -> Hashable:
        """PO-2, PO-5: every refusal, then the two pools' sizes (PO-4: one die fewer)."""
        actor, target = state.get(action.actor), state.get(action.target or "")
        if self.is_down(actor):
            raise Refusal("down", f"{actor.id!r} is down and cannot attack (PO-5)")
        if state.turn.actions_used:
            raise Refusal("attacked", f"{actor.id!r} has attacked this turn; end_turn (PO-5)")
        if target.id == actor.id or self.is_down(target):
            raise Refusal("bad_target", f"{target.id!r} is down or the attacker: pick another")
        pool = sheet_as(actor, Sheet).attack - (STAGGERED in actor.statuses)
        return Attack(actor.id, target.id, max(1, pool), sheet_as(target, Sheet).defence)

    def roll(self, state: Encounter, decision: Any, dice: Dice) -> list[Event]:
        """PO-2 to PO-4: both pools, the net successes as damage, the stagger."""
        a: Attack = decision
        key = Successes(self.options.success_on)
        attack = roll_pool(dice, Pool((D6,) * a.attack), "attack", key=key)
        defence = roll_pool(dice, Pool((D6,) * a.defence), "defence", key=key)
        hits, blocks = key(attack), key(defence)
        events: list[Event] = [
            ActionUsed(a.actor),
            PoolsRolled(a.actor, a.target, attack, defence, hits, blocks),
            Attempted(a.actor, a.target, landed=hits > blocks),
        ]
        if STAGGERED in state.get(a.actor).statuses:  # PO-4: it rolled one die fewer
            events.append(StatusCleared(a.actor, STAGGERED))
        if hits > blocks:
            events.append(Damaged(a.target, hits - blocks, "net successes"))  # PO-3
        if hits - blocks >= STAGGER_AT:
            events.append(StatusSet(a.target, STAGGERED, {}))  # PO-4
        return events
