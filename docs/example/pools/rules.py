"""pools: opposed d6 pools, 5+ succeeds, net successes are damage (``rule_text.yaml``)."""

from dataclasses import dataclass

from fracas.dice.pools import Faces, Pool, roll_pool
from fracas.dice.source import Dice
from fracas.errors import Refusal
from fracas.model import Action, ActionUsed, Attempted, Damaged, Encounter, Event
from fracas.model.events import StatusCleared, StatusSet
from fracas.rulesets.base import (
    About,
    ActionSpec,
    Contract,
    Decision,
    DieSpec,
    Rules,
    StatusSpec,
    TypedRuleset,
    is_down,
    sheet_as,
)
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
class Attack(Decision):
    """A decided attack: who attacks whom, and how many dice each side rolls."""

    actor: str
    target: str
    attack: int
    defence: int

    def roll(self, rules: Rules[Options], state: Encounter, dice: Dice) -> list[Event]:
        """PO-2 to PO-4: both pools, the net successes as damage, the stagger."""
        key = Successes(rules.options.success_on)
        attack = roll_pool(dice, Pool((D6,) * self.attack), "attack", key=key)
        defence = roll_pool(dice, Pool((D6,) * self.defence), "defence", key=key)
        hits, blocks = key(attack), key(defence)
        events: list[Event] = [
            ActionUsed(self.actor),
            PoolsRolled(self.actor, self.target, attack, defence, hits, blocks),
            Attempted(self.actor, self.target, landed=hits > blocks),
        ]
        if STAGGERED in state.get(self.actor).statuses:  # PO-4: it rolled one die fewer
            events.append(StatusCleared(self.actor, STAGGERED))
        if hits > blocks:
            events.append(Damaged(self.target, hits - blocks, "net successes"))  # PO-3
        if hits - blocks >= STAGGER_AT:
            events.append(StatusSet(self.target, STAGGERED, {}))  # PO-4
        return events


def decide_attack(rules: Rules[Options], state: Encounter, action: Action) -> Attack:
    """PO-2, PO-5: every refusal, then the two pools' sizes (PO-4: one die fewer)."""
    actor, target = state.get(action.actor), state.get(action.target or "")
    if is_down(rules, actor):
        raise Refusal("down", f"{actor.id!r} is down and cannot attack (PO-5)")
    if state.turn.actions_used:
        raise Refusal("attacked", f"{actor.id!r} has attacked this turn; end_turn (PO-5)")
    if target.id == actor.id or is_down(rules, target):
        raise Refusal("bad_target", f"{target.id!r} is down or the attacker; pick another (PO-5)")
    pool = sheet_as(actor, Sheet).attack - (STAGGERED in actor.statuses)
    return Attack(actor.id, target.id, max(1, pool), sheet_as(target, Sheet).defence)


class Pools(TypedRuleset[Sheet, Options, Attack]):
    """Opposed d6 pools: successes on 5+, net successes are damage."""

    about = About(
        name="pools",
        title="Opposed d6 pools (the docs' example)",
        rule_text="docs/writing-a-ruleset.md",
        summary="attack pool vs defence pool of d6, 5+ succeeds, net is damage",
    )
    contract = Contract(
        sheet=Sheet,
        options=Options,
        actions=(ActionSpec("attack", "your pool against the target's", decide=decide_attack),),
        dice=(
            DieSpec("attack", D6, "every attack: one d6 per die of the attacker's pool"),
            DieSpec("defence", D6, "every attack: one d6 per die of the target's pool"),
        ),
        default_max_hp=DEFAULT_MAX_HP,
        statuses=(StatusSpec(STAGGERED, "its next attack rolls one die fewer (PO-4)"),),
    )
