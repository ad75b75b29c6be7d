"""The catalogue of actions every ruleset shares, and who may take each: the core
actions (``end_turn``, ``move``, ``set``) and the game master's table actions with
their specs, the core dice labels, where a ruleset's own action specs are found, the
rule for when an action first ends the turns before its actor's, and the one list
that says who may take every action of every ruleset (:func:`who_takes`).

Below the validator (:mod:`fracas.engine.checking`) and the engine, which both read it; it
imports no engine. Faces read it too (the prompt's completion, ``fracas rules``).
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Annotated, Any, Literal

from pydantic import Field

from fracas.dice import notation
from fracas.engine.combatants import CORE_FIELDS
from fracas.model import HP_SHOWN, PRESETS, Action
from fracas.rulesets import base
from fracas.rulesets.base import ActionSpec, DieSpec, Ruleset, move_is_own

__all__ = [
    "ACTORLESS",
    "AMOUNT_MAX",
    "CORE_ACTIONS",
    "CORE_DICE",
    "CORE_FIELDS",
    "CORE_WHO",
    "GM_ACTIONS",
    "GM_ACTION_NAMES",
    "NOTE_MAX",
    "POLICY_FIELDS",
    "PRIVATE_ACTIONS",
    "ROLL_LABEL",
    "SET_ONLY_FIELDS",
    "Who",
    "advances_turn",
    "calls_in",
    "core_actions",
    "dice_specs",
    "die_spec",
    "is_private",
    "spec_of",
    "walks",
    "who_takes",
]

AMOUNT_MAX = 1_000_000
"""The largest HP amount a heal or a damage takes (a typo of many digits is refused)."""

SET_ONLY_FIELDS = ("statuses",)
"""Core fields ``set`` edits that a file does not give: ``statuses: {...}`` replaces the
combatant's statuses (``statuses: {}`` ends them all)."""

_STATUSES = dict[str, dict[str, int | str]]
"""What ``set statuses:`` takes: status name -> details (ints or ids)."""
_AMOUNT = Annotated[int, Field(ge=1, le=AMOUNT_MAX)]

GM_ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec(
        "heal",
        "a game master's heal of the actor: `amount` HP back, up to max_hp, as `set hp` "
        "does it (a ruleset's derived fields follow)",
        ("amount",),
        "none",
        required=("amount",),
        types={"amount": _AMOUNT},
    ),
    ActionSpec(
        "damage",
        "a game master's damage to the actor: `amount` HP off, down to 0, as `set hp` does it",
        ("amount",),
        "none",
        required=("amount",),
        types={"amount": _AMOUNT},
    ),
    ActionSpec(
        "status",
        "a game master's status edit of the actor, the others kept: `add: NAME` or "
        "`add: {NAME: {details}}` (checked against the ruleset's statuses, defaults filled), "
        "`remove: NAME` or a list",
        ("add", "remove"),
        "none",
        types={"add": str | _STATUSES, "remove": str | list[str]},
    ),
    ActionSpec(
        "add",
        "a game master's new combatant: `combatant: {id, name, side, at, hp, ...sheet "
        "fields}` (checked as a file's), or `copy: ID` with `combatant: {id, name, at}` "
        "(the copy's sheet and side, full HP, no statuses), placed in the order `after: "
        "ID` (default: last); `hidden: true` hides it from the players as it comes",
        ("combatant", "after", "hidden", "copy"),
        "none",
        required=("combatant",),
        types={"combatant": dict[str, Any], "after": str, "hidden": bool, "copy": str},
    ),
    ActionSpec(
        "remove",
        "a game master's removal of the actor from the fight (on its turn, the next begins)",
        (),
        "none",
    ),
    ActionSpec(
        "initiative",
        "a game master's new turn order: `order: [ids]`, every combatant once, or `roll: "
        "true`: initiative rolled again by the ruleset's own rule, where it keeps a rolled "
        "initiative (the turn in progress goes on; the next follows the new order); or "
        "`each_round: true|false`: initiative rolled again so at the start of each round "
        "(or no longer), where the ruleset rolls it",
        ("order", "roll", "each_round"),
        "none",
        types={"order": list[str], "roll": bool, "each_round": bool},
        combatant_params=("order",),
    ),
    ActionSpec(
        "delay",
        "a game master's delay: the actor moves in the order to just `after: ID` (on its "
        "turn, its turn ends and the next in the old order begins)",
        ("after",),
        "none",
        required=("after",),
        types={"after": str},
    ),
    ActionSpec(
        "roll",
        "a free roll for the table: `notation: 4d6kh3` in d20's notation (NdS, d%, + - * / "
        "// %, ( ), sets (1d4, 1d6)kh1, keep/drop k p kh kl ph pl with < >, reroll rr ro ra, "
        "mi ma, explode e, notes [fire]; NdS! as before), logged; its dice are labelled "
        "`roll`; `secret: true`: only the game master reads it; without an `actor`, the game "
        "master's own roll",
        ("notation", "secret"),
        "none",
        required=("notation",),
        types={"notation": str, "secret": bool},
    ),
    ActionSpec(
        "hide",
        "a game master's hiding of the actor from the players: their pages get nothing of "
        "it (not its token, its turn, its log lines, its odds) until `show`",
        (),
        "none",
    ),
    ActionSpec(
        "show",
        "a game master's showing of a hidden actor to the players again",
        (),
        "none",
    ),
    ActionSpec(
        "reveal",
        "a game master's mark on a hidden actor: `on: true` shows it to the players when "
        "its turn next begins (`on: false` takes the mark off); never sent to a player",
        ("on",),
        "none",
        required=("on",),
        types={"on": bool},
    ),
    ActionSpec(
        "finish",
        "a game master's ending of the fight: every page says it is over and no rules "
        "action is taken until `reopen` (logged, undone like any change)",
        (),
        "none",
    ),
    ActionSpec(
        "reopen",
        "a game master's reopening of a fight it finished: play goes on where it stopped",
        (),
        "none",
    ),
    ActionSpec(
        "note",
        "a game master's note on the actor: `text: ...` (empty: cleared); never sent to a player",
        ("text",),
        "none",
        required=("text",),
        types={"text": str},
    ),
    ActionSpec(
        "tactics",
        "a game master's tactics preset of the actor, which the win bar and the advisor "
        "play it by: `preset: default|naive|random` (as a file's `tactics: {ID: {preset: "
        "...}}`); never read by the rules, never sent to a player",
        ("preset",),
        "none",
        required=("preset",),
        choices={"preset": PRESETS},
        types={"preset": Literal["default", "naive", "random"]},
    ),
    ActionSpec(
        "policy",
        "a game master's change of the table's policy: `player_undo`, `player_calls: "
        "[names]`, `enemy_hp: exact|label|hidden`, `winbar`, `player_move`, `advisor` "
        "(the rest kept); never read by the rules",
        ("player_undo", "player_calls", "enemy_hp", "winbar", "player_move", "advisor"),
        "none",
        choices={"enemy_hp": HP_SHOWN},
        types={
            "player_undo": bool,
            "player_calls": list[str],
            "enemy_hp": Literal["exact", "label", "hidden"],
            "winbar": bool,
            "player_move": bool,
            "advisor": bool,
        },
    ),
)

ACTORLESS = frozenset({"roll"})
"""The actions an entry may give without ``actor`` (:data:`~fracas.model.NO_ACTOR`): a
free roll that is the game master's own, no combatant's."""

PRIVATE_ACTIONS = frozenset({"note", "tactics", "reveal"})
"""Table actions whose records only the game master reads (a player's log has no line of
them, nor of their undo and redo): a note, a tactics preset, a mark to reveal a hidden
combatant on its turn."""


def is_private(action: Action) -> bool:
    """Whether only the game master reads ``action``'s record: a private action (a
    note, a tactics preset), or a secret roll (``roll`` with ``secret: true``)."""
    return action.do in PRIVATE_ACTIONS or (
        action.do == "roll" and action.params.get("secret") is True
    )


NOTE_MAX = 2000
"""The longest note, in characters."""

ROLL_LABEL = "roll"
CORE_DICE: tuple[DieSpec, ...] = (
    DieSpec(
        ROLL_LABEL,
        notation.MAX_SIDES,
        "every die of a `roll` action's notation, in order (each checked against its own size)",
        odds_relevant=False,
    ),
)
"""Dice labels every ruleset rolls (its core actions'); their faces are checked against the
die actually rolled."""


_MOVE = "put the actor's token on tile `to: [x, y]` (a game master's move, logged, not checked)"
_WALK = (
    "; `walk: true` makes it the actor's own walk in its turn, up to the table's tiles a "
    "turn (`table: {move: N}`, 6 by default)"
)

POLICY_FIELDS = ("player_undo", "player_calls", "enemy_hp", "winbar", "player_move", "advisor")
"""The fields of :class:`~fracas.model.Policy`, as the ``policy`` action and a file's
``policy:`` give them."""

CORE_ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("end_turn", "end the actor's turn; the next in order begins", (), "none"),
    ActionSpec(
        "move",
        f"{_MOVE}{_WALK}",
        ("to", "walk"),
        "none",
        types={"walk": bool},
    ),
    ActionSpec(
        "set",
        "a game master's edit of any sheet field (`hp: 5`, `cover: true`) or of `statuses`",
        (),
        "none",
    ),
    *GM_ACTIONS,
)
"""The actions of every ruleset. All but ``end_turn`` (and a ruleset's own ``move``) are
the game master's: they take no turn (``fracas.engine.table_actions``)."""
GM_ACTION_NAMES = frozenset(["set", *(spec.name for spec in GM_ACTIONS)])
"""The game master's actions: planned without a turn advance, no ruleset decision."""


def core_actions(ruleset: Ruleset | type[Ruleset]) -> tuple[ActionSpec, ...]:
    """The core actions as ``ruleset`` takes them: ``move`` with the parameters its
    :attr:`~fracas.rulesets.base.Ruleset.move_spec` adds."""
    extra = ruleset.contract.move_spec
    if extra is None:
        return CORE_ACTIONS
    return tuple(
        dataclasses.replace(
            spec,
            summary=f"{_MOVE}; {extra.summary}",
            params=("to", *extra.params),  # its own movement: no `walk`
            choices=dict(extra.choices),
            types=dict(extra.types),
            calls=extra.calls,
        )
        if spec.name == "move"
        else spec
        for spec in CORE_ACTIONS
    )


def spec_of(ruleset: Ruleset | type[Ruleset], name: str) -> ActionSpec | None:
    """The core or ruleset action called ``name``."""
    found = next((spec for spec in core_actions(ruleset) if spec.name == name), None)
    return found if found is not None else ruleset.contract.action(name)


def dice_specs(ruleset: Ruleset) -> tuple[DieSpec, ...]:
    """Every dice label an action of ``ruleset`` may roll: its own, then the core ones."""
    return (*base.dice_specs(ruleset), *CORE_DICE)


def die_spec(ruleset: Ruleset, label: str) -> DieSpec | None:
    """The dice label ``label`` of ``ruleset`` or of the core actions (``roll``)."""
    return next((spec for spec in dice_specs(ruleset) if spec.label == label), None)


def walks(action: Action) -> bool:
    """Whether ``action`` is a ``move`` its actor walks in its own turn (``walk: true``)."""
    return action.do == "move" and action.params.get("walk") is True


def advances_turn(ruleset: Ruleset, action: Action) -> bool:
    """Whether taking ``action`` first ends the turns before its actor's, in order (the
    encounter file's rule, README): a ruleset action or ``end_turn`` taken in its turn,
    or a ``move`` the ruleset makes the actor's own; never a table action, a game
    master's move or an action taken off-turn (a reaction). The engine's plan and the
    odds both ask here."""
    if action.do in GM_ACTION_NAMES:
        return False
    if action.do == "move":
        return move_is_own(ruleset, action) or walks(action)
    spec = spec_of(ruleset, action.do)
    return spec is not None and not spec.off_turn


# --- who may take what --------------------------------------------------------------


class Who(enum.Enum):
    """Who may take an action at a table (the game master may take every one)."""

    GM = "gm"
    """The game master alone: an edit of the table by decree (the order, HP, statuses,
    who is in the fight, hidden or noted, the tactics presets, the policy) or a move of
    someone's token."""
    TURN = "turn"
    """The actor's player, in the actor's own turn."""
    ANY_TIME = "any_time"
    """The actor's player, in any turn: a ruleset's off-turn action (a reaction), a
    free roll (the table rolls its dice)."""
    MOVE = "move"
    """The actor's player moving its own token in its own turn, where the table's
    policy lets players move (``Policy.player_move``); else the game master's."""


CORE_WHO: dict[str, Who] = {
    "end_turn": Who.TURN,
    "move": Who.MOVE,
    "set": Who.GM,
    "heal": Who.GM,
    "damage": Who.GM,
    "status": Who.GM,
    "add": Who.GM,
    "remove": Who.GM,
    "initiative": Who.GM,
    "delay": Who.GM,
    "roll": Who.ANY_TIME,
    "hide": Who.GM,
    "show": Who.GM,
    "reveal": Who.GM,
    "note": Who.GM,
    "tactics": Who.GM,
    "policy": Who.GM,
    "finish": Who.GM,
    "reopen": Who.GM,
}
"""Who takes each core action (a test checks it names every one)."""


def who_takes(ruleset: Ruleset, action: Action) -> Who:
    """Who may take ``action`` at a table: the one list, for every action of every
    ruleset. A core action by :data:`CORE_WHO` (a ``move`` the ruleset makes the
    actor's own movement is taken in its turn); a ruleset's action in its actor's turn,
    or at any time where its spec is ``off_turn`` (a reaction)."""
    if action.do == "move" and (move_is_own(ruleset, action) or walks(action)):
        return Who.TURN
    core = CORE_WHO.get(action.do)
    if core is not None:
        return core
    spec = ruleset.contract.action(action.do)
    return Who.ANY_TIME if spec is not None and spec.off_turn else Who.TURN


def calls_in(ruleset: Ruleset, action: Action) -> tuple[str, ...]:
    """The game master's judgement calls ``action`` makes (its spec's ``calls`` given
    with a value other than off, zero or none), in the spec's order."""
    spec = spec_of(ruleset, action.do)
    if spec is None:
        return ()
    return tuple(p for p in spec.calls if _asks(action.params.get(p)))


def _asks(value: Any) -> bool:
    """Whether a judgement parameter's value asks anything of the game master: not off,
    zero, empty or ``none``."""
    return bool(value) and value != "none"
