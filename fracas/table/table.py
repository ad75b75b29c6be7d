"""One encounter at a table: the one door every face goes through.

Every change is a command submitted with the identity that asks and the seq its face
saw (:meth:`Table.submit`): the table alone reads it (:mod:`fracas.table.reading`),
checks the identity and the table's policy (:mod:`fracas.table.identity`), runs the
rules, and has its writer (:mod:`fracas.table.writer`: the lock, the store, recovery)
append the record in one durable transaction and tell every listener through its feed
(changes that write no record too: a die asked for, the dice mode, a request:
:mod:`fracas.table.waits`) before it answers. What a face shows comes from a frozen
:meth:`Table.snapshot`, a value (:mod:`fracas.table.snapshot`, made by
:mod:`fracas.table.moments`) projected for its identity (:class:`~fracas.table.View`);
the odds of an action come from :meth:`Table.odds_question`, a frozen job the prompt,
the command line and the web server all run the same way. The map image and the
export are :mod:`fracas.table.extras`.

The parts, each a module a reader can hold::

    Table (this door) ── reading      the action read once
                      ├─ writer       lock, store append, recovery, the rules' memo
                      ├─ waits        dice mode, physical dice, requests
                      ├─ extras       map image version, export
                      └─ moments      snapshots (values: snapshot)
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from fracas.dice.source import Dice
from fracas.engine.may_do import Option
from fracas.engine.play import Engine, Record
from fracas.errors import FracasError
from fracas.io.files import EncounterFile
from fracas.io.store import EncounterStore, MovedOn
from fracas.model import Action, Encounter
from fracas.odds.action import Odds
from fracas.odds.choices import DEFAULT_CHOICE_SECONDS, Choice, choice_odds
from fracas.rulesets.base import Decisions, Ruleset, keeping_decisions
from fracas.table.commands import (
    Act,
    Cancel,
    Command,
    Give,
    Outcome,
    Redo,
    Request,
    SetDice,
    SetPolicy,
    Undo,
)
from fracas.table.extras import MapImage, exported
from fracas.table.feed import Change, Feed
from fracas.table.identity import Identity
from fracas.table.moments import Moments
from fracas.table.moving import MoveCost, move_cost
from fracas.table.outcome import Outcome as FightOutcome
from fracas.table.outcome import outcome
from fracas.table.physical import Pending
from fracas.table.questions import (
    AdviceQuestion,
    OddsQuestion,
    WinQuestion,
    advice_question,
    win_question,
)
from fracas.table.reading import check_seen, read, read_policy
from fracas.table.snapshot import Snapshot
from fracas.table.waits import Waits
from fracas.table.writer import StoreLost, Writer, live_seed, load

__all__ = ["GAME_MASTER", "Snapshot", "StoreLost", "Table", "live_seed", "resume"]

GAME_MASTER = Identity.gm()


class Table:
    """A stored encounter being played: its writer's engine holds exactly the stored
    log."""

    def __init__(
        self, store: EncounterStore, name: str, text: str, ef: EncounterFile, engine: Engine
    ) -> None:
        self.store = store
        self.text = text
        """The encounter file's text, as stored."""
        self.feed = Feed()
        self._writer = Writer(store, name, ef, engine, self.feed, self._settle)
        self._lock = self._writer.lock
        self._waits = Waits(self._writer)
        self._map = MapImage(self._writer)
        self._moments = Moments(self._writer, self._waits, self._map)

    def _settle(self) -> None:
        """At the outermost release of the lock, still holding it: the snapshot."""
        self._moments.settle()

    # --- what is there ------------------------------------------------------------

    @property
    def name(self) -> str:
        return self._writer.name

    @name.setter
    def name(self, name: str) -> None:
        self._writer.name = name

    @property
    def file(self) -> EncounterFile:
        return self._writer.file

    @property
    def ruleset(self) -> Ruleset:
        return self._writer.file.ruleset

    @property
    def state(self) -> Encounter:
        return self._writer.engine.state

    @property
    def seq(self) -> int:
        """The sequence number the next record takes."""
        return self._writer.seq

    @property
    def log(self) -> Sequence[Record]:
        return self._writer.engine.log

    @property
    def before(self) -> Sequence[Encounter]:
        """The state before each record of the log (for the log's words)."""
        return self._writer.before

    @property
    def _before(self) -> list[Encounter]:
        """The writer's list of them (a new table's, extended by its service)."""
        return self._writer.before

    @property
    def seed(self) -> int:
        """The seed of the dice rolled from now on."""
        return self._writer.engine.seed

    @property
    def pending(self) -> Pending | None:
        """The action waiting for its next physical die (nothing of it is stored until
        its last die is given)."""
        return self._waits.pending

    @property
    def physical(self) -> bool:
        """Dice are physical: an action asks for each of its dice."""
        return self._waits.physical

    @property
    def requests(self) -> tuple[Request, ...]:
        """Players' requests waiting for the game master's answer, oldest first."""
        return self._waits.requests

    @property
    def decisions(self) -> Decisions:
        """The rules' decisions this table keeps (of its state now: they go when it
        moves on; no other table's)."""
        return self._writer.decisions

    def outcome(self) -> FightOutcome | None:
        """Who won, once one side alone stands (None: the fight goes on)."""
        return outcome(self.ruleset, self.state)

    def snapshot(self) -> Snapshot:
        """The table now, frozen (a face projects it at leisure). Never waits for a
        writer: while another thread holds the table (a change being stored), the
        table as it was when last released (:class:`~fracas.table.moments.Moments`)."""
        return self._moments.take()

    def put_map_image(self, data: bytes | None, by: Identity = GAME_MASTER) -> str | None:
        """Put ``data`` under the grid as the map image (None: remove it), kept with the
        encounter in the store; every page is told (the state's ``map_image`` is its new
        version, returned).

        Raises:
            Forbidden: ``by`` is not the game master.
            MapImageError: ``too_big``; ``bad_image`` (not a PNG, JPEG or WebP image).
        """
        by.check_gm("upload the map image" if data is not None else "remove the map image")
        with self._lock:
            version = self._map.put(data)
            seq = self.seq
        self.feed.publish(self.name, (), seq)
        return version

    def records_since(self, seq: int) -> list[Record]:
        """The records from ``seq`` on, as this table holds them."""
        with self._lock:
            return self._writer.engine.log[max(0, seq) :]

    def subscribe(self, listener: Callable[[Change], None]) -> Callable[[], None]:
        """Hear of every change from now on (see :class:`Feed`)."""
        return self.feed.subscribe(listener)

    def options(self, actor: str | None = None) -> list[Option]:
        """What ``actor`` (default: whose turn it is) may do now by the rules."""
        state = self.state
        return self._moments.kept_for(state).options(self.ruleset, state, actor, frozenset())

    # --- questions: odds and the win bar, as frozen jobs ------------------------------

    def _rules(self) -> contextlib.AbstractContextManager[Decisions]:
        """Where the rules run for this table keep their decisions: its own memo."""
        return keeping_decisions(self._writer.decisions)

    def odds_question(
        self,
        action: Action | Mapping[str, Any],
        by: Identity = GAME_MASTER,
        seen_seq: int | None = None,
        **limits: Any,
    ) -> OddsQuestion:
        """The odds of ``action`` taken now, as a frozen job to run anywhere (here, or in
        a worker process): checked as :meth:`submit` checks it, but in any turn and
        with any parameters (odds change nothing). ``limits``: what
        :func:`~fracas.odds.action.action_odds` takes to bound the work.

        Raises:
            Forbidden: ``by`` may not take this action at all.
            FracasError: ``moved_on`` (``seen_seq`` is not the table's seq); the
                action's validation error.
        """
        with self._lock, self._rules():
            self._writer.fresh()
            self._check_seen(seen_seq)
            state = self.state
            checked = self._read(action, by, state)
            by.check_act(self.ruleset, state, checked, asking=True)
            return OddsQuestion.of(self.ruleset, state, checked, self.seed, by, limits)

    def move_cost(
        self,
        action: Action | Mapping[str, Any],
        by: Identity = GAME_MASTER,
        seen_seq: int | None = None,
    ) -> MoveCost:
        """What the ``move`` ``action`` (``{actor, do: move, to}``) would cost now, as a
        token is dragged, before the drop: the actor's own move as its rules take it
        (:mod:`fracas.table.moving`), planned and never stored; for the game master,
        whose drop is a move by decree, what the acting combatant's own move would pay.

        Raises:
            Forbidden: ``by`` may not move that token.
            FracasError: ``moved_on``; ``bad_value`` (not a move to a tile); the move's
                validation error; a player's ``not_your_turn``.
        """
        with self._lock, self._rules():
            self._writer.fresh()
            self._check_seen(seen_seq)
            state = self.state
            checked = self._read(action, by, state)
            if checked.do != "move" or checked.params.get("to") is None:
                raise FracasError(
                    "bad_value",
                    f"a move's cost is asked of a move to a tile, not {checked.do!r} "
                    f"with {sorted(checked.params)}",
                )
            if not by.is_gm:
                by.check_act(self.ruleset, state, checked)
            return move_cost(self.ruleset, state, checked, free=by.is_gm)

    def odds(self, action: Action | Mapping[str, Any], **limits: Any) -> Odds:
        """The game master's odds of ``action`` now, worked out here (the question of
        :meth:`odds_question`, answered at once)."""
        question = self.odds_question(action, GAME_MASTER, **limits)
        with self._rules():
            return question.answer()

    def choice_odds(self, seconds: float = DEFAULT_CHOICE_SECONDS) -> list[Choice]:
        """The game master's odds of every choice of whoever's turn it is now (each
        action on each target or tile), fastest first, within ``seconds`` in all."""
        with self._lock:
            self._writer.fresh()
            state, seed = self.state, self.seed
        with self._rules():
            return list(choice_odds(self.ruleset, state, seed=seed, seconds=seconds))

    def win_question(self, by: Identity, limits: Mapping[str, Any]) -> WinQuestion | None:
        """The win bar of the table now for ``by``, as a frozen job; None when the
        policy shows ``by`` no bar (a player, where the game master does not show it or
        the table hides enemy HP)."""
        with self._lock:
            state, seq = self.state, self.seq
        return win_question(self.name, self.text, self.file, state, seq, by, limits)

    def advice_question(
        self, by: Identity = GAME_MASTER, seen_seq: int | None = None
    ) -> AdviceQuestion:
        """The advisor's choices for whoever's turn it is now, for ``by``, as a frozen
        job (run it in the win bar's worker: it reuses the chains the bar solved).

        Raises:
            Forbidden: ``by`` may not ask the advisor now (the policy, the turn).
            FracasError: ``moved_on`` (``seen_seq`` is not the table's seq).
        """
        with self._lock:
            self._writer.fresh()
            self._check_seen(seen_seq)
            state, seq = self.state, self.seq
        return advice_question(self.name, self.text, self.file, state, seq, by, self.seed)

    # --- the door -----------------------------------------------------------------

    def submit(
        self, command: Command, by: Identity = GAME_MASTER, seen_seq: int | None = None
    ) -> Outcome:
        """Do ``command`` as ``by``, who saw the table at ``seen_seq`` (None: whatever
        it holds now). Returns what it did once it is durable.

        Raises:
            FracasError: ``moved_on`` (the table is past ``seen_seq``: nothing written);
                ``forbidden`` and ``not_your_turn`` (the policy); the rules' refusal
                (nothing changed, nothing written).
            MovedOn: another process wrote first; this table now holds what it wrote.
        """
        with self._lock, self._rules():
            self._writer.fresh()
            self._check_seen(seen_seq)
            if isinstance(command, Act):
                return self._act(command, by)
            if isinstance(command, SetPolicy):
                return self._set_policy(command, by)
            if isinstance(command, Undo | Redo):
                return self._take_back(by, redo=isinstance(command, Redo))
            if isinstance(command, Give):
                return self._waits.give(command.face, by)
            if isinstance(command, Cancel):
                self._waits.cancel(by)
            elif isinstance(command, SetDice):
                by.check_gm("choose how dice are rolled")
                self._waits.set_physical(command.physical)
            else:
                return self._waits.answer(command, by)
            seq = self.seq
        self.feed.publish(self.name, (), seq)
        return Outcome(seq)

    # --- compatibility: each a command through the door --------------------------------

    def act(
        self,
        action: Action | Mapping[str, Any],
        by: Identity = GAME_MASTER,
        dice: Dice | None = None,
    ) -> Record:
        """Take ``action`` as ``by`` and store it (:meth:`submit` of an :class:`Act`)."""
        outcome = self.submit(Act(action, dice), by)
        if outcome.record is None:
            raise FracasError(
                "not_stored", "the action waits (a physical die or the game master's answer)"
            )
        return outcome.record

    def undo(self, by: Identity = GAME_MASTER) -> Record:
        record = self.submit(Undo(), by).record
        assert record is not None
        return record

    def redo(self, by: Identity = GAME_MASTER) -> Record:
        record = self.submit(Redo(), by).record
        assert record is not None
        return record

    # --- the commands -------------------------------------------------------------

    def _check_seen(self, seen_seq: int | None) -> None:
        check_seen(self.seq, seen_seq)

    def _read(self, given: Action | Mapping[str, Any], by: Identity, state: Encounter) -> Action:
        """``given`` checked once, in ``state`` (:func:`~fracas.table.reading.read`)."""
        return read(self.file, given, by, state)

    def _act(self, command: Act, by: Identity) -> Outcome:
        waits = self._waits
        waits.no_pending()
        state = self.state
        action = self._read(command.action, by, state)
        by.check_act(self.ruleset, state, action)
        calls = by.calls_to_ask(self.ruleset, state.policy, action)
        if calls:
            return waits.request(action, by, calls)
        if waits.physical:
            return waits.next_die(action, by)
        dice = command.dice if by.is_gm else None
        record = self._writer.run(lambda engine: engine.act(action, dice, by=by.by, checked=True))
        return Outcome(self.seq, record)

    def _set_policy(self, command: SetPolicy, by: Identity) -> Outcome:
        """The game master's change of the policy: its fields checked once as the
        ``policy`` table action's (stored as one, logged and undone like any; the record
        names whose turn it was, as every record of a table action does)."""
        by.check_gm("change the table's policy")
        self._waits.no_pending()
        action = read_policy(self.file, command.changes, by, self.state)
        record = self._writer.run(lambda engine: engine.act(action, by=by.by, checked=True))
        return Outcome(self.seq, record)

    def _take_back(self, by: Identity, *, redo: bool) -> Outcome:
        self._waits.no_pending()
        engine = self._writer.engine
        latest = engine.redoable if redo else engine.undoable
        by.check_undo(self.state.policy, latest, redo=redo)
        if redo:
            record = self._writer.run(lambda e: e.redo(by=by.by))
        else:
            record = self._writer.run(lambda e: e.undo(by=by.by))
        return Outcome(self.seq, record)

    # --- other processes ----------------------------------------------------------

    def refresh(self) -> list[Record]:
        """Catch up with what other processes appended; returns (and publishes) the new
        records. While the store's watch is live (``store.listening``: PostgreSQL) there
        is nothing to look for: every commit is heard as it happens (:meth:`catch_up`)."""
        if not self.looks:
            return []
        return self.catch_up()

    @property
    def looks(self) -> bool:
        """Whether :meth:`refresh` looks at the store: not while its watch is live (and
        the table's last append is known)."""
        return self._writer.looks

    def catch_up(self) -> list[Record]:
        """:meth:`refresh`, looking at the store whatever its watch says."""
        return self._writer.catch_up()

    def since(self, error: MovedOn) -> list[Record]:
        """The records another writer appended, as this table now holds them."""
        return self._writer.since(error)

    def reload(self) -> None:
        """Become again exactly what the store holds."""
        with self._lock:
            self._writer.recover()

    # --- saving -------------------------------------------------------------------

    def export(self, by: Identity = GAME_MASTER) -> dict[str, Any]:
        """The encounter as a file whose actions carry the dice as rolled (``fracas run``
        reproduces the same end state): the game master's alone."""
        by.check_gm("download the encounter")
        with self._lock:
            return exported(self._writer)


def resume(store: EncounterStore, name: str) -> Table:
    """The table of stored encounter ``name``, its log replayed from the store.

    Raises:
        StoreError: ``unknown_encounter``; ``log_drift`` or ``bad_record``.
    """
    loaded = load(store, name)
    table = Table(store, name, loaded.text, loaded.file, loaded.engine)
    table._before.extend(loaded.before)
    return table
