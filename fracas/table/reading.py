"""An action as a face gives it, read once at the table's door: checked for who asks
(a player knows no hidden combatant, nor the game master's actions or dice) and by the
file's validator, a player's move made its actor's own move as the rules take it."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from fracas.engine.catalogue import ACTORLESS, spec_of, walks
from fracas.engine.checking import ACTION_KEYS, check_now
from fracas.errors import FracasError, Refusal
from fracas.io.files import EncounterFile
from fracas.model import NO_ACTOR, Action, Encounter
from fracas.table.identity import Identity
from fracas.table.moving import own_move
from fracas.table.projection import mentions

__all__ = ["check_seen", "read", "read_policy"]


def check_seen(seq: int, seen_seq: int | None) -> None:
    """Refuse a change asked from a page that saw the table at ``seen_seq`` (None:
    whatever it holds) now that it is at ``seq``.

    Raises:
        FracasError: ``moved_on``.
    """
    if seen_seq is not None and seen_seq != seq:
        raise FracasError(
            "moved_on",
            f"the table moved on (record {seq}, your page saw {seen_seq}); "
            "nothing was written; here is what happened",
        )


def read(
    file: EncounterFile, given: Action | Mapping[str, Any], by: Identity, state: Encounter
) -> Action:
    """``given`` checked once, in ``state``: a player knows no hidden combatant; the game
    master's free roll is its own (:data:`~fracas.model.NO_ACTOR`), whoever it names."""
    ruleset = file.ruleset
    known = state.combatants
    if not by.is_gm:
        known = {cid: c for cid, c in known.items() if cid not in state.hidden}
        by.check_do(given.get("do") if isinstance(given, Mapping) else given.do)
        by.check_dice(given.get("dice") if isinstance(given, Mapping) else given.dice)
    if not by.is_gm and mentions(given, state.hidden):  # not quoted back: not named
        raise Refusal(
            "unknown_combatant",
            f"the action names a combatant not in the fight; combatants: {', '.join(known)}",
        )
    action = check_now(ruleset, known, given, file.bounds)
    if by.is_gm and action.do in ACTORLESS and action.actor != NO_ACTOR:
        # the game master's free roll is its own, never a combatant's (issue 35)
        action = dataclasses.replace(action, actor=NO_ACTOR)
    if not by.is_gm and action.do == "move":
        # a player's move is its actor's own movement as the rules take it (the
        # table's walk; wasteland: `ap` = the distance, paid MAP then AP, WL-2), made
        # from the checked move by the ruleset's own walk: trusted, not checked again
        action = own_move(ruleset, state, action)
        if not walks(action) and ruleset.contract.move_spec is None:
            action = dataclasses.replace(action, params={**action.params, "walk": True})
    return action


def read_policy(
    file: EncounterFile, changes: Mapping[str, Any], by: Identity, state: Encounter
) -> Action:
    """The game master's change of the policy, checked once as the ``policy`` table
    action it is stored as (the record names whose turn it was, as every table action's
    does). A policy change is never another action: an action's own keys are refused.

    Raises:
        Forbidden: ``forbidden`` for anyone but the game master.
        Refusal: ``unknown_field``, naming the policy's fields.
    """
    by.check_gm("change the table's policy")
    spec = spec_of(file.ruleset, "policy")
    fields = ", ".join(spec.params) if spec is not None else "none"
    for key in changes:
        if key in ACTION_KEYS:
            raise Refusal(
                "unknown_field", f"{key!r} is not a field of the table's policy; valid: {fields}"
            )
    entry = {**changes, "actor": state.turn.actor, "do": "policy"}
    return check_now(file.ruleset, state.combatants, entry, file.bounds)
