"""The encounter state: combatants, the turn, the house rules, the encounter, and an
action as the file or the prompt gives it.

State is immutable: an event's :meth:`~fracas.model.events.Event.apply` returns a new
:class:`Encounter`. A ruleset's per-combatant data lives in ``Combatant.sheet`` (the
ruleset's own frozen dataclass); this module never looks inside it. Import these from
:mod:`fracas.model`, which gathers the state and the core events.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fracas.model.frozen import EMPTY, SCALARS, FrozenDict, HashKept, evolve, freeze, kept_hash
from fracas.model.grid import Tile

__all__ = [
    "GAME_MASTER_NAME",
    "HP_SHOWN",
    "NO_ACTOR",
    "PRESETS",
    "Action",
    "Combatant",
    "Encounter",
    "HouseRules",
    "Policy",
    "Statuses",
    "Turn",
    "kept_action",
]

NO_ACTOR = ""
"""The actor of a table action no combatant takes: the game master's free roll (an
action entry without ``actor``). Never a combatant's id (ids match ``[a-z0-9_-]+``)."""
GAME_MASTER_NAME = "the game master"
"""Who :data:`NO_ACTOR` is, in the log's words (:meth:`Encounter.name`)."""

Statuses = Mapping[str, Mapping[str, Any]]
"""Status name -> its details (JSON scalars: ``{"turns": 2}``, ``{"from": "ana"}``)."""


def _built(value: object) -> bool:
    return type(value) is FrozenDict or hasattr(type(value), "__dataclass_fields__")


def _frozen(obj: object, name: str) -> None:
    """Make field ``name`` of a frozen dataclass a :class:`FrozenDict` all the way down
    (a caller may give a plain dict; the state must stay hashable)."""
    value = getattr(obj, name)
    if type(value) is not FrozenDict:
        object.__setattr__(obj, name, freeze(value))


@dataclass(frozen=True, slots=True)
class Combatant(HashKept):
    """One combatant: the fields every ruleset shares, and the ruleset's own sheet."""

    id: str
    name: str
    side: str
    at: Tile | None
    hp: int
    max_hp: int
    sheet: Any
    """The ruleset's frozen sheet dataclass (its fields, flat, as its file names them)."""
    statuses: Statuses = EMPTY
    marks: frozenset[str] = frozenset()
    """Lasting markers a ruleset keeps on a combatant that are not sheet fields."""

    def __post_init__(self) -> None:
        if type(self.statuses) is not FrozenDict:  # _frozen(self, "statuses"), inline
            object.__setattr__(self, "statuses", freeze(self.statuses))

    def __hash__(self) -> int:
        try:
            return self._hash
        except AttributeError:
            h = hash(
                (
                    self.id,
                    self.name,
                    self.side,
                    self.at,
                    self.hp,
                    self.max_hp,
                    self.sheet,
                    self.statuses,
                    self.marks,
                )
            )
            object.__setattr__(self, "_hash", h)
            return h

    def with_status(self, status: str, details: Mapping[str, Any]) -> Combatant:
        """This combatant with ``status`` set to ``details`` (others kept)."""
        statuses = dict(self.statuses)  # frozen through already (``__post_init__``)
        statuses[status] = freeze(details)
        return evolve(self, statuses=FrozenDict(statuses))

    def without_status(self, status: str) -> Combatant:
        """This combatant without ``status`` (others kept)."""
        if status not in self.statuses:
            return self
        statuses = FrozenDict({k: v for k, v in self.statuses.items() if k != status})
        return evolve(self, statuses=statuses)


@dataclass(frozen=True, slots=True)
class Turn(HashKept):
    """Whose turn it is and what that combatant may still do in it."""

    actor: str
    actions_used: int = 0
    over: bool = False
    """A rule ended the turn ("your turn ends"); it stays until end_turn or another acts."""
    flags: frozenset[str] = frozenset()
    used: Mapping[str, int] = EMPTY
    """Actions used this turn by kind (``ActionUsed.kind``), for rulesets whose turns
    hold several kinds of action; ``actions_used`` counts them all."""
    walked: int = 0
    """Tiles the actor walked this turn (``move`` with ``walk``; ``HouseRules.move``)."""

    def __post_init__(self) -> None:
        _frozen(self, "used")

    def __hash__(self) -> int:
        try:
            return self._hash
        except AttributeError:
            h = hash((self.actor, self.actions_used, self.over, self.flags, self.used, self.walked))
            object.__setattr__(self, "_hash", h)
            return h


@dataclass(frozen=True, slots=True)
class HouseRules(HashKept):
    """The house rules: how the encounter runs, whatever the ruleset (the file's ``table:`` and
    ``map:``): part of the state, so every path (play, replay, odds) sees the same."""

    skip_down: bool = True
    """A turn that comes up for a down combatant (``fracas.rulesets.base.is_down``) is skipped: it
    begins and ends at once, its effects firing, and the next begins."""
    map_size: tuple[int, int] | None = None
    """The map's width and height, where the file gives them (tiles are checked)."""
    move: int = 6
    """Tiles a combatant walks in its turn where the ruleset leaves movement to the house rules
    (a ``move`` with ``walk``: a player's own, the lab's tactics); 0: nobody walks."""
    reroll_initiative: bool = False
    """Initiative is rolled again at each new round, by the ruleset's own rule, and the
    round's order follows it (the game master's ``initiative`` with ``each_round``;
    offered only where the ruleset rolls initiative: ``fracas.engine.play.next_turn``)."""

    def __hash__(self) -> int:
        try:
            return self._hash
        except AttributeError:
            h = hash((self.skip_down, self.map_size, self.move, self.reroll_initiative))
            object.__setattr__(self, "_hash", h)
            return h


HP_SHOWN = ("exact", "label", "hidden")
"""The ways a table may show an enemy's HP to players (:attr:`Policy.enemy_hp`)."""

PRESETS = ("default", "naive", "random")
"""The balance lab's tactics presets of a combatant (:attr:`Encounter.presets`; a file's
``tactics: {bo: {preset: naive}}``; docs/lab.md, "Tactics")."""


@dataclass(frozen=True, slots=True)
class Policy:
    """Who may do what at the table beyond what the rules say, and what players see:
    part of the encounter (its file's ``policy:``; the game master's ``policy`` action
    changes it, logged and undone like any action). Only the table service reads it;
    the rules never do."""

    player_undo: bool = False
    """A player may undo its own latest action when that action rolled no die (a
    mis-click); an undo never becomes a re-roll. Off: only the game master undoes."""
    player_calls: frozenset[str] = frozenset()
    """The game master's judgement calls (``ActionSpec.calls``: advantage, modifiers,
    cover, ...) that players may make themselves; any other one a player gives makes
    its action a request the game master accepts or refuses."""
    enemy_hp: str = "label"
    """What a player (or a viewer) sees of the HP of a combatant on no side of its own:
    ``exact``, a ``label`` (healthy, hurt, bloodied, down) or ``hidden``."""
    winbar: bool = False
    """The win bar is shown to players (only where they see enemy HP exactly)."""
    player_move: bool = True
    """A player moves its own combatant's token in its turn, where the rules let it."""
    advisor: bool = False
    """Players may ask the advisor for their best move."""

    def __post_init__(self) -> None:
        if type(self.player_calls) is not frozenset:
            object.__setattr__(self, "player_calls", frozenset(self.player_calls))


@dataclass(frozen=True, slots=True)
class Encounter(HashKept):
    """The whole state of one encounter at one point of its log.

    A value: equal states compare and hash equal whatever route made them (every
    mapping in it is a :class:`~fracas.model.frozen.FrozenDict`, every sequence a tuple), so
    a state is its own canonical key (exact odds merge paths by it; the lab keys a
    Markov chain by it).
    """

    ruleset: str
    combatants: Mapping[str, Combatant]
    order: tuple[str, ...]
    round: int
    turn: Turn
    values: Mapping[str, int] = EMPTY
    """Encounter-wide ruleset values, reported beside ``round``."""
    table: HouseRules = HouseRules()
    """The house rules (skipping down combatants' turns, the map's size)."""
    hidden: frozenset[str] = frozenset()
    """Combatants the game master hides from the players (``hide`` / ``show``): table
    state, never read by the rules; the players' projection leaves them out."""
    notes: Mapping[str, str] = EMPTY
    """The game master's note on a combatant (``note``): never sent to a player."""
    policy: Policy = Policy()
    """Who may do what at the table (table state, never read by the rules)."""
    ended: bool = False
    """The game master ended the fight (``finish``; ``reopen`` opens it again): table
    state, never read by the rules; no rules action is taken while it holds."""
    presets: Mapping[str, str] = EMPTY
    """The tactics preset (:data:`PRESETS`) a combatant plays by in the balance lab,
    where one was given: the file's ``tactics:`` presets other than ``default`` at the
    start, then the game master's ``tactics`` action (which writes ``default`` too).
    Table state, never read by the rules; the win bar and the advisor play the fight
    out by it (a combatant not named: its file tactic's preset)."""
    reveal_on_turn: frozenset[str] = frozenset()
    """Hidden combatants the game master marked to be shown to the players when their
    turn next begins (``reveal``): table state, never read by the rules, never sent to a
    player; a combatant leaves it when shown (``fracas.engine.play.begin_turn``)."""

    def __post_init__(self) -> None:
        if not isinstance(self.combatants, FrozenDict):
            object.__setattr__(self, "combatants", FrozenDict(self.combatants))
        # _frozen(self, "values"), _frozen(self, "notes"), inline: every fold runs this
        if type(self.values) is not FrozenDict:
            object.__setattr__(self, "values", freeze(self.values))
        if type(self.notes) is not FrozenDict:
            object.__setattr__(self, "notes", freeze(self.notes))
        if type(self.presets) is not FrozenDict:
            object.__setattr__(self, "presets", freeze(self.presets))
        if type(self.hidden) is not frozenset:
            object.__setattr__(self, "hidden", frozenset(self.hidden))
        if type(self.reveal_on_turn) is not frozenset:
            object.__setattr__(self, "reveal_on_turn", frozenset(self.reveal_on_turn))
        if type(self.order) is not tuple:
            object.__setattr__(self, "order", tuple(self.order))

    def __hash__(self) -> int:
        try:
            return self._hash
        except AttributeError:
            h = hash(
                (
                    self.ruleset,
                    self.combatants,
                    self.order,
                    self.round,
                    self.turn,
                    self.values,
                    self.table,
                    self.hidden,
                    self.notes,
                    self.policy,
                    self.presets,
                    self.reveal_on_turn,
                )
            )
            object.__setattr__(self, "_hash", h)
            return h

    def get(self, cid: str) -> Combatant:
        return self.combatants[cid]

    def name(self, cid: str) -> str:
        """Combatant ``cid``'s name; :data:`GAME_MASTER_NAME` for :data:`NO_ACTOR` (the game
        master's own roll)."""
        if cid == NO_ACTOR:
            return GAME_MASTER_NAME
        return self.combatants[cid].name

    def with_combatant(self, c: Combatant) -> Encounter:
        combatants = self.combatants
        assert isinstance(combatants, FrozenDict)  # __post_init__ made it one
        return evolve(self, combatants=combatants.set(c.id, c))

    def with_sheet(self, who: Combatant | str, **changes: Any) -> Encounter:
        """The state with some of a combatant's sheet fields changed (the usual effect of a
        ruleset's event)."""
        c = self.combatants[who] if isinstance(who, str) else who
        # A FrozenDict or a dataclass given is taken as frozen through: built from the
        # state's own (frozen) parts by an event; anything else is frozen here.
        for k, v in changes.items():
            if type(v) not in SCALARS and not _built(v):
                changes[k] = freeze(v)
        return self.with_combatant(evolve(c, sheet=evolve(c.sheet, **changes)))

    def with_turn(self, **changes: Any) -> Encounter:
        return evolve(self, turn=evolve(self.turn, **changes))

    def with_value(self, name: str, value: int) -> Encounter:
        """The state with encounter-wide value ``name`` set to ``value``."""
        return evolve(self, values={**self.values, name: value})


@dataclass(frozen=True, slots=True)
class Action(HashKept):
    """One action as the file (or the prompt) gives it. Its hash is kept once asked
    for (the tactics' memos hash the same candidate actions again and again)."""

    actor: str
    """A combatant's id; :data:`NO_ACTOR` for the game master's own free roll."""
    do: str
    target: str | None = None
    at: Tile | None = None
    params: Mapping[str, Any] = EMPTY
    dice: Mapping[str, tuple[int, ...]] = EMPTY

    def __post_init__(self) -> None:
        _frozen(self, "params")
        _frozen(self, "dice")

    __hash__ = kept_hash


KEPT_ACTIONS = 100_000
"""Actions :func:`kept_action` keeps at most (then it starts again)."""
_kept_actions: dict[tuple[Any, ...], Action] = {}


def kept_action(
    actor: str,
    do: str,
    target: str | None = None,
    at: Tile | None = None,
    params: Mapping[str, Any] = EMPTY,
) -> Action:
    """The action with these fields, one object per distinct value while kept, so that
    its hash (kept on it) is worked out once: the lab tries the same candidate actions
    and walks in state after state, and every try hashes it. A parameter's type is in
    the key with its value (``True`` is not ``1``); an unhashable one (a tile given as a
    list) makes a new object each time."""
    try:
        items = tuple([(k, type(v), v) for k, v in params.items()]) if params else ()
        key = (actor, do, target, at, items)
        found = _kept_actions.get(key)
    except TypeError:
        return Action(actor, do, target, at, params=params)
    if found is None:
        if len(_kept_actions) >= KEPT_ACTIONS:
            _kept_actions.clear()
        found = _kept_actions[key] = Action(actor, do, target, at, params=params)
    return found
