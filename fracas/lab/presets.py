"""The tactics' presets besides the default (``tactics: {bo: {preset: naive}}``):

- ``naive``: the first enemy (in the file's order) it can attack now, with the first
  action and values the rules allow; it never walks, reloads or switches;
- ``random``: one of the default's choices' first steps (each attack now, each walk the
  default weighs, each untargeted action the rules allow, the end of its turn), picked
  by a digest of the state and the tactic's ``seed``: random-looking, yet a function of
  the state, as the exact chain needs (the same state, in any process, the same pick).

Both are for comparison (`fracas lab compare`, the mirror tests): how much the
default's choices are worth.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from fracas.engine.may_do import param_choices
from fracas.lab.plans import _approaches, _untargeted, _walks, attacks, combos, enemies_of
from fracas.model import Action, Encounter
from fracas.rulesets.base import is_down

if TYPE_CHECKING:
    from fracas.lab.policy import Policy

__all__ = ["at_random", "digest", "naive"]


def naive(policy: Policy, state: Encounter) -> Action:
    """The first attack the rules allow now on the first enemy that can be attacked;
    else the end of the turn."""
    rs = policy.ruleset
    actor = state.turn.actor
    end = Action(actor, "end_turn")
    if is_down(rs, state.get(actor)):
        return end
    tactic = policy.tactic(actor)
    for target in enemies_of(policy, state, actor):
        for spec in rs.contract.actions:
            if spec.targets == "none" or spec.off_turn:
                continue
            for params in combos(spec, param_choices(rs, state, actor, spec), tactic):
                a = Action(actor, spec.name, target, params=params)
                if policy.decides(state, a):
                    return a
    return end


def choices(policy: Policy, state: Encounter) -> list[Action]:
    """The first steps of the default's choices (unscored), in a fixed order."""
    actor = state.turn.actor
    end = Action(actor, "end_turn")
    if is_down(policy.ruleset, state.get(actor)):
        return [end]
    enemies = enemies_of(policy, state, actor)
    if not enemies:
        return [end]
    tactic = policy.tactic(actor)
    out = list(attacks(policy, state, enemies, tactic, tiles=True))
    if tactic.approach:
        out += [walk for walk, _, _ in _walks(policy, state, enemies, tactic)]
        out += [p.first for p in _approaches(policy, state, enemies, tactic, itertools.count())]
    out += [u for u, _ in _untargeted(policy, state, tactic)]
    out.append(end)
    return list(dict.fromkeys(out))


def at_random(policy: Policy, state: Encounter, seed: int) -> Action:
    """One of :func:`choices`, picked by the digest of (``seed``, the state)."""
    options = choices(policy, state)
    pick = int.from_bytes(digest((seed, state))[:8], "big")
    return options[pick % len(options)]


def digest(value: Any) -> bytes:
    """A digest of a state (or any value made of dataclasses, mappings, sequences, sets
    and scalars) that is the same in every process: sets are taken sorted (Python's
    own hash of a string changes from one process to the next)."""
    h = hashlib.blake2b(digest_size=16)
    _feed(h, value)
    return h.digest()


def _feed(h: Any, value: Any) -> None:
    if isinstance(value, str | int | float | bool | Fraction) or value is None:
        h.update(f"{type(value).__name__}:{value!r};".encode())
    elif isinstance(value, Mapping):
        h.update(b"{")
        for k, v in value.items():
            _feed(h, k)
            _feed(h, v)
        h.update(b"}")
    elif isinstance(value, frozenset | set):
        h.update(b"<")
        for part in sorted(digest(v) for v in value):
            h.update(part)
        h.update(b">")
    elif isinstance(value, tuple | list):
        h.update(b"(")
        for v in value:
            _feed(h, v)
        h.update(b")")
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        h.update(type(value).__name__.encode() + b"[")
        for f in dataclasses.fields(value):
            _feed(h, getattr(value, f.name))
        h.update(b"]")
    else:
        h.update(f"{type(value).__name__}:{value!r};".encode())
