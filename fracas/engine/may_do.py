"""What an actor may do now: every action, allowed (on what, with which values) or
refused and why. Pure; asks the rules' deciding step alone (no dice).

An action is tried against the current state: each target, each tile a combatant
stands on (for actions that take one) and the values of its required parameters.
The ruleset's decide (:func:`~fracas.rulesets.base.decide`) refuses an illegal action
before any die; an action it decides is allowed.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fracas.errors import FracasError, Refusal
from fracas.model import Action, Encounter
from fracas.rulesets.base import ActionSpec, Cost, Ruleset, decide, is_down

__all__ = [
    "RELATIONS",
    "Option",
    "options_now",
    "param_choices",
    "param_flags",
    "param_numbers",
    "relation",
    "target_order",
]

RELATIONS = ("enemy", "ally", "self")
"""What a target is to the actor, in the order targets are offered."""


@dataclass(frozen=True, slots=True)
class Option:
    """One ruleset action of one actor, now."""

    spec: ActionSpec
    actor: str
    targets: tuple[str, ...] = ()
    """Combatants it may target now."""
    tile: bool = False
    """It may target a tile now (tried at the combatants' tiles)."""
    choices: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """The values of each parameter that has a closed set of them (weapons, items, limbs)."""
    refusal: FracasError | None = None
    """Why it is not allowed now (the first refusal met); None when it is."""
    costs: tuple[Cost, ...] = ()
    """What the first action allowed (its required values, no other parameter) spends
    before any die, as the rules decide it (issue 35: shown before it is confirmed)."""

    @property
    def allowed(self) -> bool:
        return self.refusal is None


def param_choices(
    ruleset: Ruleset, state: Encounter, actor: str, spec: ActionSpec
) -> dict[str, tuple[str, ...]]:
    """The values each parameter of ``spec`` may take for ``actor`` now: the spec's
    ``choices``, a ``Literal`` type's values, and what the ruleset lists from the sheet
    (:meth:`~fracas.rulesets.base.Ruleset.param_choices`: weapons, items)."""
    out: dict[str, tuple[str, ...]] = {}
    for p in spec.params:
        if p in spec.choices:
            out[p] = tuple(spec.choices[p])
        elif p in spec.types and typing.get_origin(spec.types[p]) is typing.Literal:
            out[p] = tuple(str(v) for v in typing.get_args(spec.types[p]))
    out.update(ruleset.param_choices(state, actor, spec))
    return out


def param_flags(spec: ActionSpec) -> tuple[str, ...]:
    """The parameters of ``spec`` that are a yes or no (typed ``bool``, strict or not):
    a page offers each as a switch."""
    return _typed(spec, bool)


def param_numbers(spec: ActionSpec) -> tuple[str, ...]:
    """The parameters of ``spec`` that are a whole number (a modifier, a distance): a
    page offers each as a number to type in, left out while empty."""
    return _typed(spec, int)


def _typed(spec: ActionSpec, kind: type) -> tuple[str, ...]:
    out: list[str] = []
    for p in spec.params:
        given = spec.types.get(p)
        if typing.get_origin(given) is typing.Annotated:
            given = typing.get_args(given)[0]
        if given is kind:
            out.append(p)
    return tuple(out)


def _tries(
    spec: ActionSpec,
    actor: str,
    state: Encounter,
    params: Mapping[str, Any],
    unseen: frozenset[str] = frozenset(),
) -> list[Action]:
    if spec.targets == "none":
        return [Action(actor, spec.name, params=params)]
    seen = [c for cid, c in state.combatants.items() if cid not in unseen]
    tries = [Action(actor, spec.name, c.id, params=params) for c in seen]
    if spec.targets == "combatant_or_tile":
        tiles = {c.at for c in seen if c.at is not None}
        tries += [Action(actor, spec.name, at=t, params=params) for t in sorted(tiles)]
    return tries


def _refusal(
    ruleset: Ruleset, state: Encounter, action: Action, costs: list[Cost] | None = None
) -> FracasError | None:
    """Why the rules refuse ``action`` now (None: they allow it); where they allow it
    and ``costs`` is given, what it spends before any die goes into it (issue 35)."""
    try:
        # decide, not decided: the decisions are not kept. Every action on every target
        # and tile is tried, and kept they outlived the state by seconds (a Molotov's
        # plan holds every victim): the garbage collector met them all in its oldest
        # generation, and they made it walk that generation every few seconds.
        decision = decide(ruleset, state, action)
    except FracasError as exc:
        # Kept in an Option for its code and message alone: without its traceback and
        # what it was raised while handling, whose frames held every state and object
        # the rules made on the way (a server's table keeps its options, and a full
        # garbage collection walked all of them).
        exc.__traceback__ = exc.__context__ = exc.__cause__ = None
        return exc
    if costs is not None:
        costs.extend(decision.costs(ruleset, state))
    return None


def options_now(
    ruleset: Ruleset,
    state: Encounter,
    actor: str | None = None,
    unseen: frozenset[str] = frozenset(),
) -> list[Option]:
    """Every ruleset action of ``actor`` (default: whose turn it is): allowed, on which
    targets and tiles, with which parameter values; or the first refusal met. Targets
    and tiles are tried on every combatant but the ``unseen`` (someone who may not see
    them is told nothing of them, not even in a refusal).

    For another combatant than the current one, only its off-turn actions (reactions)
    are tried; the rest are refused with ``not_your_turn`` (taking one would first end
    the turns before it, which needs dice).
    """
    who = state.turn.actor if actor is None else actor
    out: list[Option] = []
    for spec in ruleset.contract.actions:
        choices = param_choices(ruleset, state, who, spec)
        if who != state.turn.actor and not spec.off_turn:
            now = state.turn.actor
            whose = "someone" if now in unseen else state.name(now)
            why = Refusal(
                "not_your_turn",
                f"it is {whose}'s turn; {spec.name} is taken in {state.name(who)}'s own turn",
            )
            out.append(Option(spec, who, choices=choices, refusal=why))
            continue
        missing = [p for p in spec.required if not choices.get(p)]
        if missing:
            why = Refusal(
                "nothing_to_choose", f"{spec.name} needs {missing[0]!r}, and there is none now"
            )
            out.append(Option(spec, who, choices=choices, refusal=why))
            continue
        first: FracasError | None = None
        targets: list[str] = []
        tile = allowed = False
        costs: tuple[Cost, ...] = ()
        good: dict[str, set[str]] = {p: set() for p in spec.required}
        for params in _required_values(spec, choices):
            for action in _tries(spec, who, state, params, unseen):
                spent: list[Cost] | None = None if allowed else []  # the first allowed's
                refusal = _refusal(ruleset, state, action, spent)
                if refusal is not None:  # the first met, but a self-target one gives way
                    if first is None or first.code == "self_target":
                        first = refusal
                    continue
                if spent is not None:  # the first allowed: what it spends (issue 35)
                    costs = tuple(spent)
                allowed = True
                for p, v in params.items():
                    good[p].add(v)
                if action.target is not None and action.target not in targets:
                    targets.append(action.target)
                tile = tile or action.at is not None
        if not allowed:
            out.append(Option(spec, who, choices=choices, refusal=first))
            continue
        narrowed = {  # a required parameter: the values the rules allowed now
            p: tuple(v for v in values if v in good[p]) if p in good else values
            for p, values in choices.items()
        }
        ordered = target_order(ruleset, state, who, targets)
        out.append(Option(spec, who, ordered, tile, narrowed, costs=costs))
    return out


def relation(state: Encounter, actor: str, target: str) -> str:
    """What ``target`` is to ``actor``: ``self``, an ``ally`` (its side) or an ``enemy``."""
    if target == actor:
        return "self"
    same = state.combatants[target].side == state.combatants[actor].side
    return "ally" if same else "enemy"


def target_order(
    ruleset: Ruleset, state: Encounter, actor: str, targets: Sequence[str]
) -> tuple[str, ...]:
    """``targets`` as an action offers them (issue 35): the actor's enemies first, then
    its allies, then itself, and last whoever is down (where the rules let it be targeted
    at all), each group in the order given. A list of several targets begins with the
    enemies standing: a pick from its top never hits a friend nor wastes a blow."""

    def key(cid: str) -> tuple[bool, int]:
        down = is_down(ruleset, state.combatants[cid])
        return down, RELATIONS.index(relation(state, actor, cid))

    return tuple(sorted(targets, key=key))


def _required_values(
    spec: ActionSpec, choices: Mapping[str, Sequence[str]]
) -> list[dict[str, str]]:
    """Each combination of values of the required parameters (most actions: one, empty)."""
    combos: list[dict[str, str]] = [{}]
    for p in spec.required:
        combos = [{**c, p: v} for c in combos for v in choices[p]]
    return combos
