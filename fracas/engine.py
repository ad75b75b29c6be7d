"""The engine: turns actions into events, keeps turns, and logs every step.

An action's events are computed in full before any is kept: the turn
advance it causes, the ruleset's resolution, the dice check. A refused action
(a :class:`~fracas.errors.FracasError`) leaves the state and the log as they
were: no die, no ammo, no item, no action is consumed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fracas.dice.source import Dice, RandomDice, Roll, TableDice
from fracas.errors import DiceError, FileError, FracasError, Refusal
from fracas.frozen import freeze
from fracas.model import (
    Action,
    Encounter,
    Event,
    FieldsSet,
    Moved,
    TurnEnded,
    TurnStarted,
    fold,
)
from fracas.rulesets.base import ActionSpec, Ruleset, plain
from fracas.validation import validate

__all__ = [
    "CORE_ACTIONS",
    "CORE_FIELDS",
    "SET_ONLY_FIELDS",
    "Engine",
    "Record",
    "advance_to",
    "core_actions",
    "dice_from_rolls",
    "plan",
]

CORE_ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("end_turn", "end the actor's turn; the next in order begins", (), "none"),
    ActionSpec(
        "move",
        "put the actor's token on tile `to: [x, y]` (a game master's move, logged, not checked)",
        ("to",),
        "none",
    ),
    ActionSpec(
        "set",
        "a game master's edit of any sheet field (`hp: 5`, `cover: true`) or of `statuses`",
        (),
        "none",
    ),
)
CORE_FIELDS = ("name", "side", "at", "hp", "max_hp")
"""Fields every combatant has, outside the ruleset's sheet."""
SET_ONLY_FIELDS = ("statuses",)
"""Core fields ``set`` edits that a file does not give: ``statuses: {...}`` replaces the
combatant's statuses (``statuses: {}`` ends them all)."""


_STATUSES = dict[str, dict[str, int | str]]
"""What ``set statuses:`` takes: status name -> details (ints or ids)."""


@dataclass(frozen=True, slots=True)
class Record:
    """One entry of the log, never changed once appended.

    ``kind`` is ``start`` (the encounter begins: initiative, the first turn),
    ``action`` (an action, its dice as rolled, its events), ``undo`` or
    ``redo`` (``target`` names the action record undone or redone; undo and
    redo append, they never delete).
    """

    seq: int
    action: Action | None
    rolls: tuple[Roll, ...]
    events: tuple[Event, ...]
    kind: str = "action"
    target: int | None = None
    by: str | None = None
    """Who took it at a table (an identity's name); None: the game master or a file."""


def end_turn(ruleset: Ruleset, state: Encounter, dice: Dice, *, passed: bool) -> list[Event]:
    """End the current turn and begin the next (a new round after the last in order)."""
    actor = state.turn.actor
    events = ruleset.turn_end(state, actor, dice)
    events.append(TurnEnded(actor, passed))
    index = state.order.index(actor) + 1
    round_ = state.round
    if index == len(state.order):
        index, round_ = 0, round_ + 1
    after = fold(state, events)  # the turn's end may change the order (a round rule)
    return events + begin_turn(ruleset, after, after.order[index], round_, dice)


def begin_turn(
    ruleset: Ruleset, state: Encounter, actor: str, round_: int, dice: Dice
) -> list[Event]:
    """A turn's start: TurnStarted, then the ruleset's start-of-turn effects."""
    started = TurnStarted(actor, round_)
    return [started, *ruleset.turn_start(started.apply(state), actor, dice)]


def advance_to(ruleset: Ruleset, state: Encounter, actor: str, dice: Dice) -> list[Event]:
    """End the turns before ``actor``'s, in order, their effects firing (README)."""
    events: list[Event] = []
    while state.turn.actor != actor:
        step = end_turn(ruleset, state, dice, passed=True)
        state = fold(state, step)
        events += step
    return events


def core_actions(ruleset: Ruleset | type[Ruleset]) -> tuple[ActionSpec, ...]:
    """The core actions as ``ruleset`` takes them: ``move`` with the parameters its
    :attr:`~fracas.rulesets.base.Ruleset.move_spec` adds."""
    extra = ruleset.move_spec
    if extra is None:
        return CORE_ACTIONS
    return tuple(
        dataclasses.replace(
            spec,
            summary=f"{spec.summary}; {extra.summary}",
            params=(*spec.params, *extra.params),
            choices=dict(extra.choices),
            types=dict(extra.types),
        )
        if spec.name == "move"
        else spec
        for spec in CORE_ACTIONS
    )


def spec_of(ruleset: Ruleset, name: str) -> ActionSpec | None:
    """The core or ruleset action called ``name``."""
    for spec in core_actions(ruleset):
        if spec.name == name:
            return spec
    return ruleset.action_spec(name)


def plan(ruleset: Ruleset, state: Encounter, action: Action, dice: Dice) -> list[Event]:
    """Every event of one action, computed from ``state`` without changing it."""
    if action.do == "set":  # a game master's edit: takes no turn
        return [set_fields(ruleset, state, action.actor, action.params)]
    events: list[Event] = []
    if action.do == "move":  # a game master's move unless the ruleset makes it the actor's
        if ruleset.move_is_own(action) and state.turn.actor != action.actor:
            events = advance_to(ruleset, state, action.actor, dice)
            state = fold(state, events)
        return [*events, *ruleset.move(state, action), Moved(action.actor, action.params["to"])]
    spec = spec_of(ruleset, action.do)
    if spec is not None and not spec.off_turn and state.turn.actor != action.actor:
        events = advance_to(ruleset, state, action.actor, dice)
        state = fold(state, events)
    if action.do == "end_turn":
        return events + end_turn(ruleset, state, dice, passed=False)
    return events + ruleset.roll(state, ruleset.decided(state, action), dice)


def set_fields(
    ruleset: Ruleset, state: Encounter, actor: str, fields: Mapping[str, Any]
) -> FieldsSet:
    """Validate a ``set`` action's fields against the sheet; refuse what does not fit."""
    c = state.get(actor)
    core = {k: v for k, v in fields.items() if k in CORE_FIELDS or k in SET_ONLY_FIELDS}
    sheet_raw = {k: v for k, v in fields.items() if k not in core}

    def where(path: Sequence[str | int]) -> str:
        return ".".join(str(p) for p in path)

    try:
        merged = {**{k: plain(v) for k, v in ruleset.sheet_json_raw(c).items()}, **sheet_raw}
        sheet = freeze(
            validate(
                ruleset.sheet_type,
                merged,
                where,
                valid_fields=ruleset.sheet_fields(),
                context=ruleset.options,
            )
        )
        if "statuses" in core:
            statuses = validate(_STATUSES, core["statuses"], where, ("statuses",))
    except FileError as exc:
        raise Refusal(exc.code, f"set {exc.where}: {exc.message}") from None
    if "statuses" in core:  # the details the rules read, checked (a status's own schema)
        try:
            core["statuses"] = {k: ruleset.check_status(k, v) for k, v in statuses.items()}
        except Refusal as exc:
            raise Refusal(exc.code, f"set statuses: {exc.message}") from None
    if "at" in core and core["at"] is not None:
        core["at"] = tuple(core["at"])
    max_hp = core.get("max_hp", c.max_hp)
    hp = core.get("hp", min(c.hp, max_hp))
    if not isinstance(max_hp, int) or max_hp < 1:
        raise Refusal("bad_value", f"set max_hp: {max_hp!r} is not an int >= 1")
    if not isinstance(hp, int) or not 0 <= hp <= max_hp:
        raise Refusal("bad_value", f"set hp: {hp!r} is not in 0..{max_hp}")
    if hp != c.hp:
        core["hp"] = hp
    changed = {k: getattr(sheet, k) for k in sheet_raw}
    # The ruleset derives what follows from the given fields (an HP from damage taken).
    given = dataclasses.replace(c, sheet=sheet, **core)
    try:
        settled = ruleset.settle(given, frozenset(fields))
    except FracasError as exc:
        raise Refusal(exc.code, f"set: {exc.message}") from None
    for k in CORE_FIELDS:
        if getattr(settled, k) != getattr(given, k):
            core[k] = getattr(settled, k)
    for f in dataclasses.fields(settled.sheet):
        if getattr(settled.sheet, f.name) != getattr(sheet, f.name):
            changed[f.name] = getattr(settled.sheet, f.name)
    edit = FieldsSet(actor, core, changed)
    # The ruleset's turn order after the edit (an initiative set), where it changes.
    order = ruleset.order_after_set(edit.apply(state), actor, frozenset(fields))
    if order is None or order == state.order:
        return edit
    return dataclasses.replace(edit, order=tuple(order))


class Engine:
    """One encounter being played: the ruleset, the state, the log and the dice.

    The state is always the fold of the log's effective records: every action
    not undone, in order. Undo and redo are records too (boardgame.io's model):
    undo takes back the latest effective action, redo puts back the latest
    undone one, and a new action drops what could still be redone.
    """

    def __init__(
        self,
        ruleset: Ruleset,
        start: Encounter,
        seed: int | None = None,
        bounds: tuple[int, int] | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.bounds = bounds
        """The map's (width, height) where it has one: an action's tiles must be on it."""
        self.random = RandomDice(seed)
        self.seed = self.random.seed
        self.state = start
        self.log: list[Record] = []
        self._done: list[int] = []  # effective action records, in order
        self._undone: list[int] = []  # undone records that redo can put back, latest last
        self._before: dict[int, Encounter] = {}  # the state before each action record

    def reseed(self, seed: int) -> None:
        """Roll every later die from ``seed`` (a live encounter started from a file)."""
        self.random = RandomDice(seed)
        self.seed = self.random.seed

    def begin(
        self, given: Mapping[str, Sequence[int]] | None = None, order: Sequence[str] | None = None
    ) -> Record:
        """Roll initiative unless ``order`` is given, and begin the first turn."""
        dice = TableDice(given or {}, self.random)
        state = self.state
        opening: list[Event] = []
        if order:
            turn_order = tuple(order)
        else:
            turn_order, opening = self.ruleset.roll_initiative(state, dice)
        state = dataclasses.replace(state, order=turn_order)
        events = opening + begin_turn(
            self.ruleset, fold(state, opening), turn_order[0], state.round, dice
        )
        dice.check_used()
        self.state = state
        return self._commit(None, dice, events, "start")

    def act(self, action: Action, dice: Dice | None = None, *, by: str | None = None) -> Record:
        """Play one action; on a refusal nothing is kept (not even a random die) and the
        error is raised.

        Args:
            action: the action, with the dice it fixes; checked first as a file's actions
                are (``fracas.actions.check_action``), a field's path in the message.
            dice: where the other dice come from (default: the seeded generator); a
                terminal passes one that asks the player for each die.
        """
        from fracas.actions import check_action  # the validator sits above the engine

        try:
            action = check_action(self.ruleset, self.state, action, bounds=self.bounds)
        except FileError as exc:
            where = f"{exc.where}: " if exc.where else ""
            kind = DiceError if exc.where.startswith("dice.") else Refusal
            raise kind(exc.code, f"{where}{exc.message}") from None
        table = TableDice(action.dice, dice if dice is not None else self.random)
        saved = self.random.getstate()
        try:
            events = plan(self.ruleset, self.state, action, table)
            table.check_used()
        except FracasError:
            self.random.setstate(saved)
            raise
        return self._commit(action, table, events, "action", by)

    def undo(self, *, by: str | None = None) -> Record:
        """Take back the latest effective action (appends an ``undo`` record)."""
        if not self._done:
            raise FracasError("nothing_to_undo", "there is no action to undo")
        target = self._done[-1]
        return self._append(Record(len(self.log), None, (), (), "undo", target, by))

    def redo(self, *, by: str | None = None) -> Record:
        """Put back the latest undone action, with the same dice (appends a ``redo`` record)."""
        if not self._undone:
            raise FracasError("nothing_to_redo", "there is no undone action to redo")
        target = self._undone[-1]
        return self._append(Record(len(self.log), None, (), (), "redo", target, by))

    @property
    def undoable(self) -> Record | None:
        """The action record undo would take back (None: nothing to undo)."""
        return self.log[self._done[-1]] if self._done else None

    @property
    def redoable(self) -> Record | None:
        """The action record redo would put back (None: nothing to redo)."""
        return self.log[self._undone[-1]] if self._undone else None

    def replay(self, record: Record, order: Sequence[str] | None = None) -> Record:
        """Append a stored record again (resuming an encounter): actions are resolved
        anew with their recorded dice, so the result must be what was stored.

        ``order`` is the file's turn order, for the ``start`` record.
        """
        if record.kind == "start":
            return self.begin(dice_from_rolls(record.rolls), order)
        if record.kind == "action":
            assert record.action is not None
            action = dataclasses.replace(record.action, dice=dice_from_rolls(record.rolls))
            table = TableDice(action.dice, None)
            events = plan(self.ruleset, self.state, action, table)
            table.check_used()
            return self._commit(record.action, table, events, "action", record.by)
        expected = self.undoable if record.kind == "undo" else self.redoable
        if expected is None or record.target != expected.seq:  # stored data: never assert
            what = "the latest action" if record.kind == "undo" else "the latest undone action"
            raise FracasError(
                "bad_record",
                f"{record.kind} record #{record.seq} names record #{record.target}, but "
                f"{what} is {'none' if expected is None else f'#{expected.seq}'}",
            )
        return self._append(
            Record(len(self.log), None, (), (), record.kind, record.target, record.by)
        )

    @property
    def effective(self) -> list[Record]:
        """The action records whose events make the state, in order."""
        return [self.log[i] for i in self._done]

    def _commit(
        self,
        action: Action | None,
        dice: TableDice,
        events: list[Event],
        kind: str,
        by: str | None = None,
    ) -> Record:
        record = Record(len(self.log), action, tuple(dice.rolls), tuple(events), kind, None, by)
        return self._append(record)

    def _append(self, record: Record) -> Record:
        if record.kind == "action":
            self._before[record.seq] = self.state
            self.state = fold(self.state, record.events)
            self._done.append(record.seq)
            self._undone.clear()
        elif record.kind == "undo":
            assert record.target == self._done[-1], "undo takes back the latest action"
            self._undone.append(self._done.pop())
            self.state = self._before[record.target]
        elif record.kind == "redo":
            assert record.target == self._undone[-1], "redo puts back the latest undone"
            self._done.append(self._undone.pop())
            self.state = fold(self.state, self.log[record.target].events)
        else:
            self.state = fold(self.state, record.events)
        self.log.append(record)
        return record


def dice_from_rolls(rolls: Sequence[Roll]) -> dict[str, tuple[int, ...]]:
    """Dice as rolled, by full label, in order: given back, they replay an action exactly."""
    out: dict[str, list[int]] = {}
    for roll in rolls:
        out.setdefault(roll.label, []).append(roll.value)
    return {label: tuple(values) for label, values in out.items()}
