"""The acting combatant's choices and their one ranking (docs/lab.md, "Tactics").

A :class:`Plan` is one choice: the actions the combatant takes in order (a walk, then
an attack; a free reload, then a shot; an attack alone; a reload that readies the next
turn; a walk toward an enemy; a Defend; the end of its turn), with the key it ranks by.
:func:`rank` lists them best first; the tactics take the first step of the first
(:class:`~fracas.lab.policy.Policy`), and the advisor shows them all
(:mod:`fracas.lab.advisor`): one scoring function for both.

The ranking, highest tier first (within one, the key's next figures):

- **attack** (4): an attack this turn, from here, after a walk to a tile where the
  odds change (each range band's edge toward each enemy, from the ruleset's
  :meth:`~fracas.rulesets.base.Presenter.ranges`, and the tiles next to it), or after an
  untargeted action that leaves the turn going (a free reload, a free swap); by the
  exact chance to take enemies down (allies count against), then the expected HP they
  lose, then fewer steps, fewer tiles walked, the weaker target;
- **prepare** (3): an untargeted action (reload, equip, ...) after which the actor's
  next turn, as things stand, has a better attack than without it;
- **approach** (2): where nothing is in reach at its next turn from here, a walk toward
  an enemy (its focus, else the nearest), to just within its farthest reach (a ranged
  weapon keeps its distance), as far as the rules let it this turn;
- **guard** (1): an untargeted action after which the enemies' best attacks on it, as
  things stand, are expected to take less HP (wasteland's Defend);
- **end** (0): the end of its turn. A choice that helps nothing (an attack that cannot
  hurt an enemy, an item that changes nothing) ranks below it.

Every state a plan passes through is worked out by the engine's own planning
(:meth:`~fracas.lab.transitions.Transitions.next_states`), so a walk the rules refuse
(too far, not enough AP) is no choice.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from fracas.engine.may_do import param_choices
from fracas.engine.play import begin_turn
from fracas.errors import FracasError
from fracas.io.files import Tactic
from fracas.model import Action, Encounter, Turn, fold
from fracas.model.frozen import evolve
from fracas.model.grid import Tile
from fracas.model.state import kept_action
from fracas.rulesets.base import ActionSpec, distance, is_down, walk
from fracas.rulesets.memo import decision_of

if TYPE_CHECKING:
    from fracas.lab.policy import Policy

__all__ = [
    "APPROACH",
    "ATTACK",
    "END",
    "GUARD",
    "NONE",
    "PREPARE",
    "Plan",
    "enemies_of",
    "next_turn",
    "rank",
]

ATTACK, PREPARE, APPROACH, GUARD, END, NONE = 4, 3, 2, 1, 0, -1
"""The tiers of :func:`rank`'s key, best first."""
KINDS = {ATTACK: "attack", PREPARE: "prepare", APPROACH: "approach", GUARD: "guard", END: "end"}

_ZERO = Fraction(0)
Score = tuple[Fraction, Fraction, Fraction, Fraction]
""":meth:`~fracas.lab.policy.Policy.score`'s: (net downs, net HP, enemy HP, allies' HP)."""
NOTHING: Score = (_ZERO, _ZERO, _ZERO, _ZERO)
Key = tuple[int, Fraction, Fraction, int, int, Fraction, int]
"""(tier, first figure, second figure, -steps, -tiles walked, -target HP, -order)."""


@dataclass(frozen=True)
class Plan:
    """One choice of the acting combatant."""

    steps: tuple[Action, ...]
    """What it does, in order; the tactics take the first."""
    key: Key
    """What it ranks by (:func:`rank`), higher first."""
    why: str
    """One line on why, in words."""
    score: Score = NOTHING
    """The attack's (expected enemies down minus allies, expected enemy HP lost minus
    allies'); a preparation's: its next turn's best attack's; else zero."""
    attack: Action | None = None
    """The attack it ends with."""
    before: Encounter | None = None
    """The state its attack is taken in (after the steps before it)."""
    walked: int = 0
    """Tiles walked."""

    @property
    def first(self) -> Action:
        return self.steps[0]

    @property
    def tier(self) -> int:
        return self.key[0]

    @property
    def kind(self) -> str:
        return KINDS.get(self.tier, "none")


def enemies_of(policy: Policy, state: Encounter, actor: str) -> list[str]:
    """The combatants on another side than ``actor``'s still standing, in file order."""
    side = state.get(actor).side
    rs = policy.ruleset
    return [c.id for c in state.combatants.values() if c.side != side and not is_down(rs, c)]


def rank(policy: Policy, state: Encounter, *, every: bool = False) -> list[Plan]:
    """The acting combatant's choices, best first. ``every``: all of them (the
    advisor); else the work stops at the first tier that has a choice, and only the
    best is returned (the tactics: the same first choice, as a tier beats every lower
    one)."""
    actor = state.turn.actor
    me = state.get(actor)
    end = Plan((Action(actor, "end_turn"),), _key(END), "nothing better to do: end the turn")
    rs = policy.ruleset
    if is_down(rs, me):
        return [replace(end, why=f"{me.name} is down: the turn ends")]
    enemies = enemies_of(policy, state, actor)
    if not enemies:
        return [replace(end, why="no enemy stands")]
    tactic = policy.tactic(actor)
    order = itertools.count()
    out: list[Plan] = []
    known: list[bool] = []

    def threatened() -> bool:
        """Whether the enemies' attacks, as things stand, would hurt the actor anyway."""
        if not known:
            known.append(threat(policy, state, actor, enemies) > 0)
        return known[0]

    def done(tier: int) -> list[Plan] | None:
        if every:
            return None
        best = max(out, key=lambda p: p.key, default=None)
        return [best] if best is not None and best.tier >= tier else None

    # attacks this turn: from here, after a walk, after a free untargeted action
    for a in attacks(policy, state, enemies, tactic, tiles=True):
        out.append(_attack(policy, state, (a,), a, next(order), threatened))
    walks = _walks(policy, state, enemies, tactic) if tactic.approach else []
    for own, after, tiles in walks:
        for a in attacks(policy, after, enemies, tactic):
            out.append(_attack(policy, after, (own, a), a, next(order), threatened, tiles))
    extras = _untargeted(policy, state, tactic)
    for u, after in extras:
        if after.turn.actor == actor and not after.turn.over:
            for a in attacks(policy, after, enemies, tactic):
                out.append(_attack(policy, after, (u, a), a, next(order), threatened))
    found = done(ATTACK)
    if found is not None:
        return found

    # preparations: a better attack at its next turn
    lazy: list[tuple[Score, Action | None]] = []

    def now() -> tuple[Score, Action | None]:
        if not lazy:
            lazy.append(next_turn(policy, state, actor, enemies, tactic))
        return lazy[0]

    used: set[Action] = set()
    for u, after in extras:
        then = next_turn(policy, after, actor, enemies, tactic)
        if then[1] is not None and then[0][:2] > now()[0][:2]:
            used.add(u)
            why = (
                f"{_words(u)}: {_odds_words(then)} at its next turn ({_odds_words(now())} without)"
            )
            key = _key(PREPARE, *then[0][:2], 1, 0, _ZERO, next(order))
            out.append(Plan((u,), key, why, then[0]))
    found = done(PREPARE)
    if found is not None:
        return found

    # approach: nothing in reach at its next turn from here
    if (
        tactic.approach
        and _out_of_reach(policy, state, enemies)
        and not _in_reach(policy, state, actor, enemies, tactic)
    ):
        out += _approaches(policy, state, enemies, tactic, order)
    found = done(APPROACH)
    if found is not None:
        return found

    # guard: the enemies' best attacks on it take less
    guards = [(u, after) for u, after in extras if u not in used]
    if guards:
        before = threat(policy, state, actor, enemies)
        for u, after in guards:
            less = before - threat(policy, after, actor, enemies)
            if less > 0:
                why = f"{_words(u)}: the enemies' best attacks take {float(less):.2f} HP less"
                out.append(Plan((u,), _key(GUARD, less, _ZERO, 1, 0, _ZERO, next(order)), why))
            elif every:
                why = f"{_words(u)}: helps nothing now"
                out.append(Plan((u,), _key(NONE, _ZERO, _ZERO, 1, 0, _ZERO, next(order)), why))
    out.append(end)
    out.sort(key=lambda p: p.key, reverse=True)
    return out if every else out[:1]


def _key(
    tier: int,
    a: Fraction = _ZERO,
    b: Fraction = _ZERO,
    steps: int = 1,
    walked: int = 0,
    target_hp: Fraction = _ZERO,
    order: int = 0,
) -> Key:
    return (tier, a, b, -steps, -walked, -target_hp, -order)


# --- attacks ----------------------------------------------------------------------------


def _attack(
    policy: Policy,
    before: Encounter,
    steps: tuple[Action, ...],
    attack: Action,
    order: int,
    threatened: Callable[[], bool],
    walked: int = 0,
) -> Plan:
    score = policy.score(before, attack)
    target = attack.target
    hp = Fraction(before.get(target).hp) if target is not None else _ZERO
    if score[:2] > (_ZERO, _ZERO):
        tier, why = ATTACK, _odds_words(score)
    elif score[2] > 0 and score[3] == 0 and threatened():
        # A contest it may lose (tier-duel's margin hurts whoever loses): worth it where
        # the enemies hurt it anyway, and nobody else of its side is put at risk.
        tier = ATTACK
        why = f"{_odds_words(score)}; it risks more than it deals, but waiting risks as much"
    else:
        tier, why = NONE, "cannot hurt an enemy (or hurts its own side as much)"
    key = _key(tier, *score[:2], len(steps), walked, hp, order)
    lead = ", then ".join(_words(s, before) for s in steps[:-1])
    if lead:
        why = f"{lead}, then: {why}"
    return Plan(steps, key, why, score, attack, before, walked)


def attacks(
    policy: Policy,
    state: Encounter,
    enemies: list[str],
    tactic: Tactic,
    *,
    tiles: bool = False,
) -> list[Action]:
    """Every action the rules allow now at an enemy (several enemies at once where the
    action takes ``targets``; with ``tiles``, an action that may take a tile at each tile
    next to an enemy), narrowed by the tactic's focus, action and weapon. Allowed: the
    ruleset's deciding step takes it (as ``options_now`` asks)."""
    rs = policy.ruleset
    actor = state.turn.actor
    out: list[Action] = []
    for spec in rs.contract.actions:
        if spec.targets == "none" or spec.off_turn:
            continue
        for plain in combos(spec, param_choices(rs, state, actor, spec), tactic):
            ok = _allowed_at(
                policy, state, [kept_action(actor, spec.name, t, None, plain) for t in enemies]
            )
            out += ok
            if spec.targets == "combatants" and len(ok) > 1:
                many = tuple(a.target for a in ok)
                group = kept_action(actor, spec.name, None, None, {**plain, "targets": many})
                if policy.decides(state, group):
                    out.append(group)
            if tiles and spec.targets == "combatant_or_tile" and _tile_too(policy, state, ok):
                at = [
                    kept_action(actor, spec.name, None, t, plain) for t in _next_to(state, enemies)
                ]
                out += _allowed_at(policy, state, at)
    return narrow(policy, state, out, tactic)


def _allowed_at(policy: Policy, state: Encounter, tries: list[Action]) -> list[Action]:
    """Those of ``tries`` (one action at each of several targets or tiles) the rules allow now; a
    refusal that read neither the target nor the tile refuses every other try too
    (``any_target``, :func:`~fracas.rulesets.memo.decision_of`: an action used up, the
    turn over), so the rest are not asked (issue 34, item 3)."""
    rs = policy.ruleset
    out: list[Action] = []
    for a in tries:
        got = decision_of(rs, state, a)
        if not isinstance(got, FracasError):
            out.append(a)
        elif getattr(got, "any_target", False):
            break
    return out


def _tile_too(policy: Policy, state: Encounter, ok: list[Action]) -> bool:
    """Whether the action taken at these combatants may be taken at a tile too: some of
    their decisions says so (:attr:`~fracas.rulesets.base.Decision.tile_too`; a look-up:
    each was just decided)."""
    rs = policy.ruleset
    return any(getattr(decision_of(rs, state, a), "tile_too", True) for a in ok)


def _next_to(state: Encounter, ids: list[str]) -> list[Tile]:
    """The free tiles next to the combatants ``ids`` (a blast centred there catches
    others than the one it is aimed at), in order."""
    taken = {c.at for c in state.combatants.values() if c.at is not None}
    out: list[Tile] = []
    for cid in ids:
        at = state.get(cid).at
        if at is None:
            continue
        for dx, dy in _AROUND:
            t = (at[0] + dx, at[1] + dy)
            if t not in taken and t not in out and _on_map(state, t):
                out.append(t)
    return out


_AROUND = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def combos(
    spec: ActionSpec, choices: Mapping[str, tuple[str, ...]], tactic: Tactic
) -> list[dict[str, Any]]:
    """The parameter values to try: each value of every required parameter (none: no
    try), and the tactic's weapon where an optional parameter offers it."""
    out: list[dict[str, Any]] = [{}]
    for p in spec.required:
        out = [{**c, p: v} for c in out for v in choices.get(p, ())]
    for p, values in choices.items():
        if p not in spec.required and tactic.weapon is not None and tactic.weapon in values:
            out = [{**c, p: tactic.weapon} for c in out]
    return out


def narrow(policy: Policy, state: Encounter, found: list[Action], tactic: Tactic) -> list[Action]:
    """The attacks the tactic prefers, where there are any (else all of them)."""
    if tactic.action is not None:
        found = [a for a in found if a.do == tactic.action] or found
    if tactic.weapon is not None:
        found = [a for a in found if tactic.weapon in a.params.values()] or found
    focus = tactic.focus
    targets = [a.target for a in found if a.target is not None]
    if not targets or focus is None:
        return found
    rs = policy.ruleset
    if focus == "weakest":
        focus = min(targets, key=lambda t: (state.get(t).hp, t))
    elif focus == "nearest":
        here = state.get(state.turn.actor).at
        if here is None:
            return found
        focus = min(targets, key=lambda t: (distance(rs, here, state.get(t).at or here), t))
    elif focus == "dangerous":
        me = state.turn.actor
        focus = max(sorted(set(targets)), key=lambda t: danger(policy, state, t, me))
    return [a for a in found if a.target == focus] or found


# --- walking ----------------------------------------------------------------------------


def _on_map(state: Encounter, t: Tile) -> bool:
    size = state.table.map_size
    return size is None or (0 <= t[0] < size[0] and 0 <= t[1] < size[1])


def _toward(here: Tile, goal: Tile, steps: int) -> Tile:
    """The tile ``steps`` steps from ``here`` toward ``goal``: diagonally until in line,
    then straight (each step one tile nearer by either metric's diagonal-first path)."""
    x, y = here
    for _ in range(steps):
        x += (goal[0] > x) - (goal[0] < x)
        y += (goal[1] > y) - (goal[1] < y)
    return x, y


def reaches(policy: Policy, state: Encounter, actor: str) -> list[int]:
    """The distances at which the actor's odds may change: its ranges' edges (the
    ruleset's :meth:`~fracas.rulesets.base.Presenter.ranges`) and 1 (next to)."""
    me = state.get(actor)
    return sorted(
        {1, *(r.tiles for r in policy.presenter.ranges(state, me) if r.tiles >= 1 and not r.ring)}
    )


def _walk(policy: Policy, state: Encounter, to: Tile) -> tuple[Action, Encounter] | None:
    """The actor's own move to ``to`` and the state after it, where the rules take it."""
    actor = state.turn.actor
    own = walk(policy.ruleset, state, actor, to)
    if own is None:
        return None
    after = policy.certain(state, own)
    return None if after is None else (own, after)


def _walks(
    policy: Policy, state: Encounter, enemies: list[str], tactic: Tactic
) -> list[tuple[Action, Encounter, int]]:
    """The walks to tiles where the odds of an attack may change: toward each enemy to
    each edge of the actor's ranges nearer than it is (with no ranges shown, every tile
    on the way), and the nearest tile in line with it (a reach of the 4 directions)."""
    rs = policy.ruleset
    me = state.get(state.turn.actor)
    here = me.at
    if here is None:
        return []
    taken = {c.at for c in state.combatants.values() if c.at is not None}
    edges = reaches(policy, state, me.id)
    shown = len(edges) > 1
    tiles: list[Tile] = []
    for e in enemies:
        at = state.get(e).at
        if at is None:
            continue
        d = distance(rs, here, at)
        near = [r for r in edges if r < d] if shown else list(range(1, d))
        tiles += [_toward(here, at, d - r) for r in near]
        if d > 1:
            tiles += sorted(
                ((at[0] + dx, at[1] + dy) for dx, dy in _AROUND[:4]),
                key=lambda t: (distance(rs, here, t), t),
            )[:1]
    out: list[tuple[Action, Encounter, int]] = []
    seen: set[Tile] = set()
    for t in tiles:
        if t in seen or t in taken or not _on_map(state, t):
            continue
        seen.add(t)
        found = _walk(policy, state, t)
        if found is not None:
            out.append((*found, distance(rs, here, t)))
    return out


def _out_of_reach(policy: Policy, state: Encounter, enemies: list[str]) -> bool:
    """Whether some enemy stands farther than the actor's farthest reach: else
    :func:`_approaches` has no walk to offer, and whether an attack is in reach at its
    next turn (:func:`_in_reach`, a turn's start and every attack decided) need not be
    asked."""
    rs = policy.ruleset
    me = state.get(state.turn.actor)
    here = me.at
    if here is None:
        return False
    far = max(reaches(policy, state, me.id))
    for e in enemies:
        at = state.get(e).at
        if at is not None and distance(rs, here, at) > far:
            return True
    return False


def _approaches(
    policy: Policy,
    state: Encounter,
    enemies: list[str],
    tactic: Tactic,
    order: Iterator[int],
) -> list[Plan]:
    """A walk toward each enemy to just within the actor's farthest reach (or next to
    it), as far along as the rules let it now; its focus (else the nearest) first."""
    rs = policy.ruleset
    me = state.get(state.turn.actor)
    here = me.at
    if here is None:
        return []
    placed = [e for e in enemies if state.get(e).at is not None]
    if not placed:
        return []
    goal = tactic.focus if tactic.focus in placed else None
    if goal is None:
        goal = min(placed, key=lambda e: (distance(rs, here, state.get(e).at), state.get(e).hp, e))  # type: ignore[arg-type]
    far = max(reaches(policy, state, me.id))
    taken = {c.at for c in state.combatants.values() if c.at is not None}
    out: list[Plan] = []
    for e in placed:
        at = state.get(e).at
        assert at is not None
        d = distance(rs, here, at)
        want = d - min(far, d - 1) if far < d else 0
        for steps in range(want, 0, -1):
            t = _toward(here, at, steps)
            if t in taken or not _on_map(state, t):
                continue
            found = _walk(policy, state, t)
            if found is None:
                continue
            walk, _ = found
            left = distance(rs, t, at)
            why = f"closes in on {state.name(e)}: {left} tiles away after it, {d} now"
            key = _key(APPROACH, Fraction(e == goal), Fraction(-left), 1, steps, _ZERO, next(order))
            out.append(Plan((walk,), key, why, walked=steps))
            break
    return out


# --- untargeted actions, the next turn, threats -----------------------------------------


def _untargeted(policy: Policy, state: Encounter, tactic: Tactic) -> list[tuple[Action, Encounter]]:
    """Every untargeted action the rules allow the actor now (reload, equip each item,
    Defend, ...) whose outcome is certain and changes the state, with that outcome."""
    rs = policy.ruleset
    actor = state.turn.actor
    out: list[tuple[Action, Encounter]] = []
    tries = [
        kept_action(actor, spec.name, None, None, params)
        for spec in rs.contract.actions
        if spec.targets == "none" and not spec.off_turn
        for params in combos(spec, param_choices(rs, state, actor, spec), tactic)
    ]
    if tactic.weapon is not None:
        tries.sort(key=lambda a: tactic.weapon not in a.params.values())
    for u in tries:
        if not policy.decides(state, u):
            continue
        after = policy.certain(state, u)
        if after is not None and after != state:
            out.append((u, after))
    return out


class _Ones:
    """Dice that show 1: a turn's start worked out as things stand (no die it may roll
    decides what the tactics compare)."""

    def roll(self, sides: int, label: str, *, of: str | None = None, n: int | None = None) -> int:
        return 1


def fresh(policy: Policy, state: Encounter, actor: str) -> Encounter:
    """``state`` at the start of ``actor``'s next turn as things stand: its start-of-turn
    effects (AP back, a Defend over), nobody else having acted."""
    rs = policy.ruleset
    base = evolve(state, turn=Turn(actor))  # replace's copy, without __init__
    try:
        return fold(base, begin_turn(rs, base, actor, state.round, _Ones()))
    except FracasError:
        return base


def next_turn(
    policy: Policy, state: Encounter, actor: str, enemies: list[str], tactic: Tactic
) -> tuple[Score, Action | None]:
    """The best attack ``actor`` has at its next turn from where it stands, as things
    stand (:func:`fresh`), and its score; ((0, 0), None) where there is none."""
    start = fresh(policy, state, actor)
    if is_down(policy.ruleset, start.get(actor)):
        return NOTHING, None
    best: tuple[Score, Action | None] = (NOTHING, None)
    for a in attacks(policy, start, enemies, tactic):
        s = policy.score(start, a)
        if s[:2] > best[0][:2]:
            best = (s, a)
    return best


def _in_reach(
    policy: Policy, state: Encounter, actor: str, enemies: list[str], tactic: Tactic
) -> bool:
    """Whether the rules allow ``actor`` some attack at its next turn from where it
    stands, as things stand (:func:`fresh`)."""
    start = fresh(policy, state, actor)
    return not is_down(policy.ruleset, start.get(actor)) and bool(
        attacks(policy, start, enemies, tactic)
    )


def danger(policy: Policy, state: Encounter, enemy: str, me: str) -> Fraction:
    """How much HP ``enemy``'s best attack on ``me``'s side is expected to take at its
    next turn, as things stand."""
    theirs = enemies_of(policy, state, enemy)
    score, _ = next_turn(policy, state, enemy, theirs, policy.tactic(enemy))
    return score[2]


def threat(policy: Policy, state: Encounter, me: str, enemies: list[str]) -> Fraction:
    """The HP the enemies' best attacks on ``me`` are expected to take, each at its next
    turn as things stand (from where it stands)."""
    total = _ZERO
    for e in enemies:
        start = fresh(policy, state, e)
        best = _ZERO
        for a in attacks(policy, start, [me], Tactic()):
            best = max(best, policy.score(start, a)[2])
        total += best
    return total


# --- words ------------------------------------------------------------------------------


def _words(action: Action, state: Encounter | None = None) -> str:
    """An action in a few words (``walk to [3, 4]``, ``equip knife``)."""
    if action.do == "move":
        to = action.params.get("to")
        return f"walk to [{to[0]}, {to[1]}]" if to is not None else "walk"
    if action.do == "end_turn":
        return "end the turn"
    values = [str(v) for k, v in action.params.items() if k != "targets"]
    return " ".join([action.do.replace("_", " "), *values])


def pct(p: float) -> str:
    """A chance as a percentage with one decimal that never rounds a chance to 0% or
    100% it is not: ``<0.1%``, ``>99.9%``."""
    text = f"{p * 100:.1f}%"
    if text == "0.0%" and p > 0:
        return "<0.1%"
    if text == "100.0%" and p < 1:
        return ">99.9%"
    return text


def _odds_words(score: Score | tuple[Score, Action | None]) -> str:
    s: Any = score[0] if isinstance(score[0], tuple) else score
    downs, hp = s[0], s[1]
    if downs > 0:
        return f"{pct(float(downs))} to take an enemy down, {float(hp):.2f} HP expected"
    if hp > 0:
        return f"{float(hp):.2f} HP expected"
    return "no attack"
