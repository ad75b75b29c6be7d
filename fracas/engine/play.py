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

from fracas.dice.source import Dice, GivenDice, RandomDice, Roll
from fracas.engine.catalogue import GM_ACTION_NAMES, advances_turn, walks
from fracas.engine.checking import Bounds, check_now
from fracas.engine.combatants import check_free
from fracas.engine.table_actions import (
    initiative_each_round,
    marks_at_end,
    marks_at_start,
    plan_gm,
    reveals_at_start,
)
from fracas.errors import FracasError, Refusal
from fracas.model import (
    Action,
    Encounter,
    Event,
    Moved,
    Note,
    TurnEnded,
    TurnSkipped,
    TurnStarted,
    Walked,
    fold,
)
from fracas.rulesets.base import Ruleset, decided, distance, is_down
from fracas.rulesets.steps import roll_all

__all__ = ["Engine", "Record", "advance_to", "dice_from_rolls", "plan"]


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


def end_turn(
    ruleset: Ruleset,
    state: Encounter,
    dice: Dice,
    *,
    passed: bool,
    stop: str | None = None,
    following: tuple[str, ...] | None = None,
) -> list[Event]:
    """End the current turn and begin the next (a new round after the last in order).

    A turn ended by its actor (not ``passed`` on to another who acts) goes to the next
    combatant that is not down, where the table skips down combatants' turns
    (``HouseRules.skip_down``); ``stop`` is never skipped (default: this actor).
    ``following``: the order whose next combatant begins (a delay's old order).
    """
    actor = state.turn.actor
    events = [*ruleset.turn_end(state, actor, dice), *marks_at_end(ruleset, state, actor)]
    events.append(TurnEnded(actor, passed))
    old = following if following is not None else state.order
    index = old.index(actor) + 1
    round_ = state.round
    after = fold(state, events)  # the turn's end may change the order (a round rule)
    if index == len(old):
        index, round_ = 0, round_ + 1
    elif following is not None:
        index = after.order.index(old[index])
    stop = actor if stop is None else stop
    return events + next_turn(ruleset, after, index, round_, dice, skip=not passed, stop=stop)


def next_turn(
    ruleset: Ruleset,
    state: Encounter,
    index: int,
    round_: int,
    dice: Dice,
    *,
    skip: bool,
    stop: str,
) -> list[Event]:
    """Begin the turn of ``state.order[index]``; where ``skip`` and the table skips down
    combatants, a down one's turn begins and ends at once (its effects firing: a round
    rule, a start-of-turn effect) and the next is tried, up to ``stop``. A new round
    (``round_`` past the state's) where the table rolls initiative each round begins
    with that roll, and its first turn is the new order's (``index`` is then 0)."""
    rolled = initiative_each_round(ruleset, state, dice) if round_ > state.round else []
    if rolled:
        state = fold(state, rolled)
    events = begin_turn(ruleset, state, state.order[index], round_, dice)
    if not skip or not state.table.skip_down:
        return rolled + events
    now = fold(state, events)
    who = now.turn.actor
    if who == stop or not is_down(ruleset, now.get(who)):
        return rolled + events
    skipped = TurnSkipped(who)
    rest = end_turn(ruleset, skipped.apply(now), dice, passed=False, stop=stop)
    return [*rolled, *events, skipped, *rest]


def begin_turn(
    ruleset: Ruleset, state: Encounter, actor: str, round_: int, dice: Dice
) -> list[Event]:
    """A turn's start: TurnStarted, the actor's reveal where the game master marked it
    hidden until then (:func:`~fracas.engine.table_actions.reveals_at_start`), the
    actor's free-form marks counting down (:func:`marks_tick`), then the ruleset's
    start-of-turn effects."""
    started = TurnStarted(actor, round_)
    now = started.apply(state)
    marks = [*reveals_at_start(now, actor), *marks_tick(ruleset, now, actor)]
    if marks:
        now = fold(now, marks)
    return [started, *marks, *ruleset.turn_start(now, actor, dice)]


def marks_tick(ruleset: Ruleset, state: Encounter, actor: str) -> list[Event]:
    """The game master's free-form marks (statuses the ruleset does not read) at the start
    of ``actor``'s turn: its own with a whole number of ``turns`` count one down and are
    gone when none is left; anyone's that lasts until the start of ``actor``'s next turn
    ends (:func:`~fracas.engine.table_actions.marks_at_start`; those that last until the
    end of a turn end in :func:`end_turn`). The ruleset's own statuses tick by its rules."""
    return marks_at_start(ruleset, state, actor)


def advance_to(ruleset: Ruleset, state: Encounter, actor: str, dice: Dice) -> list[Event]:
    """End the turns before ``actor``'s, in order, their effects firing (README).

    Raises:
        Refusal: ``not_in_order`` for an actor whose turn never comes (one no longer in
            the order): the turns would go round for ever.
    """
    if actor not in state.order:
        raise Refusal(
            "not_in_order",
            f"{actor!r} is not in the turn order ({', '.join(state.order)}): its turn never comes",
        )
    events: list[Event] = []
    while state.turn.actor != actor:
        step = end_turn(ruleset, state, dice, passed=True)
        state = fold(state, step)
        events += step
    return events


def plan(ruleset: Ruleset, state: Encounter, action: Action, dice: Dice) -> list[Event]:
    """Every event of one action, computed from ``state`` without changing it."""
    # ``action`` was checked once, where it came in (:func:`fracas.engine.checking.check_now` in
    # this state: the table's door, a file's reader, :meth:`Engine.act`), or written by
    # fracas itself (the log replayed, the lab's tactics): not checked again here
    if action.do in GM_ACTION_NAMES:  # a game master's action: takes no turn
        return _table_action(ruleset, state, action, dice)
    if action.do == "end_turn" and _skipped(ruleset, state, action.actor):
        name = state.name(action.actor)
        return [Note(f"{name} is down: its turn is skipped (none to end)")]
    events: list[Event] = []
    if advances_turn(ruleset, action) and state.turn.actor != action.actor:
        events = advance_to(ruleset, state, action.actor, dice)
        state = fold(state, events)
    if action.do == "move":  # a game master's move unless the ruleset makes it the actor's
        check_free(ruleset, state, state.get(action.actor), action.params["to"])
        if walks(action):
            events.append(walked(ruleset, state, action))
        return [*events, *ruleset.move(state, action), Moved(action.actor, action.params["to"])]
    if action.do == "end_turn":
        return events + end_turn(ruleset, state, dice, passed=False)
    return events + roll_all(ruleset, state, decided(ruleset, state, action), dice)


def walked(ruleset: Ruleset, state: Encounter, action: Action) -> Walked:
    """The tiles of a walk (``move`` with ``walk``), in the actor's turn: by the
    ruleset's metric, up to what the table's ``move`` leaves of this turn.

    Raises:
        Refusal: ``no_tile`` (the actor stands nowhere), ``too_far``.
    """
    actor = state.get(action.actor)
    to = action.params["to"]
    if actor.at is None:
        raise Refusal("no_tile", f"{actor.name} stands on no tile: the game master places it")
    tiles = distance(ruleset, actor.at, to)
    left = state.table.move - state.turn.walked
    if tiles > left:
        raise Refusal(
            "too_far",
            f"[{to[0]}, {to[1]}] is {tiles} tiles from {actor.name}; it walks "
            f"{state.table.move} a turn and has {left} left",
        )
    return Walked(actor.id, tiles)


def _skipped(ruleset: Ruleset, state: Encounter, actor: str) -> bool:
    """Whether the table skips ``actor``'s turns and it is not its turn: ending its turn
    then ends nothing (it does not pass every turn up to its own)."""
    down = is_down(ruleset, state.get(actor))
    return state.table.skip_down and actor != state.turn.actor and down


def _table_action(ruleset: Ruleset, state: Encounter, action: Action, dice: Dice) -> list[Event]:
    """A game master's action; removing or delaying the combatant whose turn it is
    passes the turn on (a removed one's turn simply stops; a delayed one's ends)."""
    events = plan_gm(ruleset, state, action, dice)
    actor = state.turn.actor
    if action.actor != actor or action.do not in ("remove", "delay"):
        return events
    after = fold(state, events)
    if action.do == "delay":  # the next in the old order begins
        return events + end_turn(ruleset, after, dice, passed=False, following=state.order)
    i = state.order.index(actor)
    index, round_ = (i, state.round) if i < len(after.order) else (0, state.round + 1)
    last = state.order[i - 1]  # the one before it: never skipped (the cycle's end)
    return events + next_turn(ruleset, after, index, round_, dice, skip=True, stop=last)


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
        bounds: Bounds | None = None,
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

    def fork(self) -> Engine:
        """A copy to try a change on: its log, state and dice go their own way from here
        (a table keeps the original until the change is stored)."""
        twin = Engine(self.ruleset, self.state, self.seed, self.bounds)
        twin.random.setstate(self.random.getstate())
        twin.log = list(self.log)
        twin._done = list(self._done)
        twin._undone = list(self._undone)
        twin._before = dict(self._before)
        return twin

    def begin(
        self, given: Mapping[str, Sequence[int]] | None = None, order: Sequence[str] | None = None
    ) -> Record:
        """Roll initiative unless ``order`` is given, and begin the first turn."""
        dice = GivenDice(given or {}, self.random)
        state = self.state
        opening: list[Event] = []
        if order:
            turn_order = tuple(order)
        else:
            turn_order, opening = self.ruleset.initiative(state, dice)
        state = dataclasses.replace(state, order=turn_order)
        events = opening + begin_turn(
            self.ruleset, fold(state, opening), turn_order[0], state.round, dice
        )
        dice.check_used()
        self.state = state
        return self._commit(None, dice, events, "start")

    def check(self, action: Action) -> Action:
        """``action`` checked in the current state as a file's actions are
        (``fracas.engine.checking.check_action``): the validated action, or a :class:`Refusal`
        (a :class:`DiceError` for its dice) whose message names the field."""
        return check_now(self.ruleset, self.state, action, self.bounds)

    def act(
        self,
        action: Action,
        dice: Dice | None = None,
        *,
        by: str | None = None,
        checked: bool = False,
    ) -> Record:
        """Play one action; on a refusal nothing is kept (not even a random die) and the
        error is raised.

        Args:
            action: the action, with the dice it fixes; checked first as a file's actions
                are (``fracas.engine.checking.check_action``), a field's path in the message,
                unless ``checked`` says it was (the file reader and the table service
                check each action once, in the state it is taken in).
            dice: where the other dice come from (default: the seeded generator); a
                terminal passes one that asks the player for each die.
        """
        if not checked:
            action = self.check(action)
        given = GivenDice(action.dice, dice if dice is not None else self.random)
        saved = self.random.getstate()
        try:
            events = plan(self.ruleset, self.state, action, given)
            given.check_used()
        except FracasError:
            self.random.setstate(saved)
            raise
        return self._commit(action, given, events, "action", by)

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
            given = GivenDice(action.dice, None)
            events = plan(self.ruleset, self.state, action, given)
            given.check_used()
            return self._commit(record.action, given, events, "action", record.by)
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
        dice: GivenDice,
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
