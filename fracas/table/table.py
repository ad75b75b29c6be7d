"""One encounter at a table: the one door every face goes through.

Every change is a command submitted with the identity that asks and the seq its face
saw (:meth:`Table.submit`): the table alone checks the seq, the identity and the
table's policy (:mod:`fracas.table.identity`), runs the rules, appends the record in
one durable transaction with the log's length as the expected sequence number, tells
every listener through its feed (changes that write no record too: a die asked for,
the dice mode, a request), and only then answers. What a face shows comes from a
frozen :meth:`Table.snapshot`, projected for its identity (:class:`~fracas.table.View`);
the odds of an action come from :meth:`Table.odds_question`, a frozen job the prompt,
the command line and the web server all run the same way.

When an append fails (another process moved the encounter on, the disk is gone) the
table reloads itself from the store, so what it holds is again exactly what is
stored, and the error goes up (:class:`~fracas.store.MovedOn` carries what the other
writer did). Writes to one table are serialised by a lock in this process and across
processes by the store's expected-seq check.
"""

from __future__ import annotations

import dataclasses
import random
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fracas.actions import check_now
from fracas.choice_odds import DEFAULT_CHOICE_SECONDS, Choice, choice_odds
from fracas.choices import Option, options_now
from fracas.dice.source import Dice
from fracas.engine import Engine, Record
from fracas.errors import FracasError, Refusal
from fracas.files import EncounterFile, export, parse_text
from fracas.frozen import thaw
from fracas.model import Action, Encounter
from fracas.odds import Odds
from fracas.rulesets.base import Ruleset, forget_decisions
from fracas.store import JSON, EncounterStore, MovedOn, StoreError
from fracas.store.records import check_replayed, record_from_json, record_json
from fracas.table.commands import (
    Act,
    Answer,
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
from fracas.table.feed import Change, Feed
from fracas.table.identity import Forbidden, Identity
from fracas.table.mapimage import KEY as MAP_KEY
from fracas.table.mapimage import image_type, image_version
from fracas.table.moving import MoveCost, move_cost, own_move
from fracas.table.outcome import Outcome as FightOutcome
from fracas.table.outcome import outcome
from fracas.table.physical import Pending, StopDice, needed
from fracas.table.projection import mentions
from fracas.table.questions import (
    AdviceQuestion,
    OddsQuestion,
    WinQuestion,
    advice_question,
    win_question,
)

__all__ = ["GAME_MASTER", "Snapshot", "StoreLost", "Table", "live_seed", "resume"]

GAME_MASTER = Identity.gm()


class StoreLost(StoreError):
    """An append failed and the encounter cannot be read back: the table must close."""


@dataclass(frozen=True)
class Snapshot:
    """A table at one moment, frozen: what every face shows is projected from one of
    these (:class:`~fracas.table.View`), never read from the table as it changes."""

    name: str
    file: EncounterFile
    seq: int
    state: Encounter
    log: tuple[Record, ...]
    before: tuple[Encounter, ...]
    """The state before each record of ``log``."""
    pending: Pending | None
    physical: bool
    requests: tuple[Request, ...]
    undoable: Record | None
    """The action record an undo would take back now."""
    redoable: Record | None
    """The action record a redo would put back now."""
    options_of: Callable[[Encounter, str | None, frozenset[str]], list[Option]] = field(
        compare=False, repr=False
    )
    map_image: str | None = None
    """The version of the map image the game master put under the grid (None: none)."""

    @property
    def ruleset(self) -> Ruleset:
        return self.file.ruleset

    def options(
        self, actor: str | None = None, unseen: frozenset[str] = frozenset()
    ) -> list[Option]:
        """What ``actor`` (default: whose turn it is) may do by the rules in this state,
        tried on every combatant but the ``unseen``."""
        return self.options_of(self.state, actor, unseen)


_Asker = tuple[str | None, frozenset[str]]
"""Whose "may do now" (the actor) and what they do not see."""


class _TableLock:
    """A table's lock (reentrant): its outermost holder's release first makes the
    table's snapshot, so a reader who finds it taken (a change being stored, the store
    committing) reads at once the table as it was at the last release."""

    def __init__(self, settle: Callable[[], None]) -> None:
        self._lock = threading.RLock()
        self._settle = settle
        self.depth = 0
        """How many times the holder holds it."""

    def acquire(self, blocking: bool = True) -> bool:
        if not self._lock.acquire(blocking):
            return False
        self.depth += 1
        return True

    def release(self) -> None:
        try:
            if self.depth == 1:
                self._settle()
        finally:
            self.depth -= 1
            self._lock.release()

    def __enter__(self) -> _TableLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


class Table:
    """A stored encounter being played: its engine holds exactly the stored log."""

    def __init__(
        self, store: EncounterStore, name: str, text: str, ef: EncounterFile, engine: Engine
    ) -> None:
        self.store = store
        self.name = name
        self.text = text
        """The encounter file's text, as stored."""
        self.file = ef
        self.feed = Feed()
        self._engine = engine
        self._before: list[Encounter] = []
        self._physical = False
        self._pending: Pending | None = None
        self._requests: dict[int, Request] = {}
        self._next_request = 1
        self._lock = _TableLock(self._settle)
        self._options: tuple[Encounter | None, dict[_Asker, list[Option]]] = (None, {})
        """The state "may do now" was last kept for, and what it was per (actor, unseen):
        swapped whole, so read without the lock."""
        self._stale = False
        """An append's outcome is unknown (the store went away): read it back first."""
        self._map_image: str | None = None
        self._map_known = False
        """The map image's version was read from the store (or put through here)."""
        self._log_tuple: tuple[Record, ...] = ()
        self._before_tuple: tuple[Encounter, ...] = ()
        self._last = self._now()
        """The snapshot made at the lock's last release (or the start)."""

    # --- what is there ------------------------------------------------------------

    @property
    def ruleset(self) -> Ruleset:
        return self.file.ruleset

    @property
    def state(self) -> Encounter:
        return self._engine.state

    @property
    def seq(self) -> int:
        """The sequence number the next record takes."""
        return len(self._engine.log)

    @property
    def log(self) -> Sequence[Record]:
        return self._engine.log

    @property
    def before(self) -> Sequence[Encounter]:
        """The state before each record of the log (for the log's words)."""
        return self._before

    @property
    def seed(self) -> int:
        """The seed of the dice rolled from now on."""
        return self._engine.seed

    @property
    def pending(self) -> Pending | None:
        """The action waiting for its next physical die (nothing of it is stored until
        its last die is given)."""
        return self._pending

    @property
    def physical(self) -> bool:
        """Dice are physical: an action asks for each of its dice."""
        return self._physical

    @property
    def requests(self) -> tuple[Request, ...]:
        """Players' requests waiting for the game master's answer, oldest first."""
        return tuple(self._requests.values())

    def outcome(self) -> FightOutcome | None:
        """Who won, once one side alone stands (None: the fight goes on)."""
        return outcome(self.ruleset, self.state)

    def snapshot(self) -> Snapshot:
        """The table now, frozen (a face projects it at leisure). Never waits for a
        writer: while another thread holds the table (a change being stored), the
        table as it was when last released, a moment that was (on the event loop, a
        wait for a store's commit stopped every page of the server)."""
        lock = self._lock
        if not lock.acquire(blocking=False):
            return self._last
        try:
            if lock.depth > 1:  # this thread is changing the table: as it is now
                return self._now()
        finally:
            lock.release()  # the outermost release made the snapshot
        return self._last

    def _settle(self) -> None:
        """At the outermost release of the lock, still holding it."""
        self._last = self._now()

    def _now(self) -> Snapshot:
        log, before = self._engine.log, self._before
        if len(self._log_tuple) != len(log):
            self._log_tuple = tuple(log)
        if len(self._before_tuple) != len(before):
            self._before_tuple = tuple(before)
        return Snapshot(
            self.name,
            self.file,
            len(log),
            self._engine.state,
            self._log_tuple,
            self._before_tuple,
            self._pending,
            self._physical,
            tuple(self._requests.values()),
            self._engine.undoable,
            self._engine.redoable,
            self._options_of,
            self._map_version(),
        )

    def _map_version(self) -> str | None:
        """The map image's version, read from the store once (a table not yet stored, or
        a store away for now: none yet)."""
        if not self._map_known and self.name:
            try:
                self._map_image = image_version(self.store.extra(self.name, MAP_KEY))
            except FracasError:
                return self._map_image
            self._map_known = True
        return self._map_image

    def put_map_image(self, data: bytes | None, by: Identity = GAME_MASTER) -> str | None:
        """Put ``data`` under the grid as the map image (None: remove it), kept with the
        encounter in the store; every page is told (the state's ``map_image`` is its new
        version, returned).

        Raises:
            Forbidden: ``by`` is not the game master.
            MapImageError: ``too_big``; ``bad_image`` (not a PNG, JPEG or WebP image).
        """
        by.check_gm("upload the map image" if data is not None else "remove the map image")
        if data is not None:
            image_type(data)
        with self._lock:
            self.store.put_extra(self.name, MAP_KEY, data)
            self._map_image, self._map_known = image_version(data), True
            seq = self.seq
        self.feed.publish(self.name, (), seq)
        return self._map_image

    def records_since(self, seq: int) -> list[Record]:
        """The records from ``seq`` on, as this table holds them."""
        with self._lock:
            return self._engine.log[max(0, seq) :]

    def subscribe(self, listener: Callable[[Change], None]) -> Callable[[], None]:
        """Hear of every change from now on (see :class:`Feed`)."""
        return self.feed.subscribe(listener)

    def options(self, actor: str | None = None) -> list[Option]:
        """What ``actor`` (default: whose turn it is) may do now by the rules."""
        return self._options_of(self.state, actor, frozenset())

    def _options_of(
        self, state: Encounter, actor: str | None, unseen: frozenset[str]
    ) -> list[Option]:
        """Kept per (actor, unseen) for the state now alone: every page of the table asks
        after each change, and what a server's table keeps lives in the garbage
        collector's oldest generation. When the state moves on, what was kept goes, and
        with it the rules' kept decisions (they were about the states before, and held
        them); a snapshot of a state past is answered, not kept."""
        kept_state, kept = self._options
        if state is not kept_state:
            if state is not self._engine.state:
                return options_now(self.ruleset, state, actor, unseen)
            kept = {}
            self._options = (state, kept)
            forget_decisions(self.ruleset)
        found = kept.get((actor, unseen))
        if found is None:
            found = kept[actor, unseen] = options_now(self.ruleset, state, actor, unseen)
        return list(found)

    # --- questions: odds and the win bar, as frozen jobs ------------------------------

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
        :func:`~fracas.odds.action_odds` takes to bound the work.

        Raises:
            Forbidden: ``by`` may not take this action at all.
            FracasError: ``moved_on`` (``seen_seq`` is not the table's seq); the
                action's validation error.
        """
        with self._lock:
            self._fresh()
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
        with self._lock:
            self._fresh()
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
        return self.odds_question(action, GAME_MASTER, **limits).answer()

    def choice_odds(self, seconds: float = DEFAULT_CHOICE_SECONDS) -> list[Choice]:
        """The game master's odds of every choice of whoever's turn it is now (each
        action on each target or tile), fastest first, within ``seconds`` in all."""
        with self._lock:
            self._fresh()
            state, seed = self.state, self.seed
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
            self._fresh()
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
        with self._lock:
            self._fresh()
            self._check_seen(seen_seq)
            if isinstance(command, Act):
                return self._act(command, by)
            if isinstance(command, SetPolicy):
                by.check_gm("change the table's policy")
                changes = {"actor": self.state.turn.actor, "do": "policy", **command.changes}
                return self._act(Act(changes), by)
            if isinstance(command, Undo | Redo):
                return self._take_back(by, redo=isinstance(command, Redo))
            if isinstance(command, Give):
                return self._give(command.face, by)
            if isinstance(command, Cancel):
                self._cancel(by)
            elif isinstance(command, SetDice):
                by.check_gm("choose how dice are rolled")
                self._physical = command.physical
                if not command.physical:
                    self._pending = None
            else:
                return self._answer(command, by)
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
        if seen_seq is not None and seen_seq != self.seq:
            raise FracasError(
                "moved_on",
                f"the table moved on (record {self.seq}, your page saw {seen_seq}); "
                "nothing was written; here is what happened",
            )

    def _read(self, given: Action | Mapping[str, Any], by: Identity, state: Encounter) -> Action:
        """``given`` checked once, in ``state``: a player knows no hidden combatant."""
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
        action = check_now(self.ruleset, known, given, self.file.bounds)
        if not by.is_gm and action.do == "move":
            # a player's move is its actor's own movement as the rules take it (the
            # table's walk; wasteland: `ap` = the distance, paid MAP then AP, WL-2)
            own = own_move(self.ruleset, state, action)
            if own is action and self.ruleset.contract.move_spec is None:
                own = dataclasses.replace(action, params={**action.params, "walk": True})
            if own is not action:
                action = check_now(self.ruleset, known, own, self.file.bounds)
        return action

    def _act(self, command: Act, by: Identity) -> Outcome:
        self._no_pending()
        state = self.state
        action = self._read(command.action, by, state)
        by.check_act(self.ruleset, state, action)
        calls = by.calls_to_ask(self.ruleset, state.policy, action)
        if calls:
            needed(self.ruleset, state, action)  # the rules' refusal now, not at the answer
            request = Request(self._next_request, action, by.name, by.owns, calls, self.seq)
            self._next_request += 1
            self._requests[request.id] = request
            self.feed.publish(self.name, (), self.seq)
            return Outcome(self.seq, request=request)
        if self._physical:
            return self._next_die(action, by)
        dice = command.dice if by.is_gm else None
        record = self._run(lambda engine: engine.act(action, dice, by=by.by, checked=True))
        return Outcome(self.seq, record)

    def _answer(self, answer: Answer, by: Identity) -> Outcome:
        by.check_gm("answer a player's request")
        request = self._requests.pop(answer.request, None)
        if request is None:
            waiting = ", ".join(f"#{r}" for r in self._requests) or "none"
            raise FracasError(
                "no_request",
                f"no request #{answer.request} waits for an answer; waiting: {waiting}",
            )
        self.feed.publish(self.name, (), self.seq)
        if not answer.accept:
            return Outcome(self.seq)
        player = Identity.player(request.by, *request.owns)
        player.check_act(self.ruleset, self.state, request.action)  # still its turn?
        if self._physical:
            return self._next_die(request.action, player)
        record = self._run(lambda engine: engine.act(request.action, by=player.by, checked=True))
        return Outcome(self.seq, record)

    def _take_back(self, by: Identity, *, redo: bool) -> Outcome:
        self._no_pending()
        engine = self._engine
        latest = engine.redoable if redo else engine.undoable
        by.check_undo(self.state.policy, latest, redo=redo)
        if redo:
            record = self._run(lambda e: e.redo(by=by.by))
        else:
            record = self._run(lambda e: e.undo(by=by.by))
        return Outcome(self.seq, record)

    # --- physical dice ------------------------------------------------------------

    def _give(self, face: int, by: Identity) -> Outcome:
        pending = self._pending
        if pending is None:
            raise FracasError("no_die_asked", "no die is asked for now")
        action = pending.check_give(by, face)
        if pending.seq != self.seq:  # another process wrote since
            self._pending = None
            self.feed.publish(self.name, (), self.seq)
            raise FracasError(
                "moved_on", "the table moved on while the dice were asked: roll again"
            )
        return self._next_die(action, pending.by)

    def _cancel(self, by: Identity) -> None:
        pending = self._pending
        if pending is None:
            raise FracasError("no_die_asked", "no action waits for dice now")
        if not pending.may_cancel(by):
            started = "" if pending.by.is_gm else f" or {pending.by.name}, who took it,"
            raise Forbidden(
                "forbidden",
                f"only the game master{started} may cancel this action; {by.name!r} may not",
            )
        self._pending = None

    def _next_die(self, action: Action, by: Identity) -> Outcome:
        try:
            need = needed(self.ruleset, self.state, action)
        except FracasError:
            if self._pending is not None:
                self._pending = None
                self.feed.publish(self.name, (), self.seq)
            raise
        if need is not None:
            self._pending = Pending(action, by, need, self.seq)
            self.feed.publish(self.name, (), self.seq)
            return Outcome(self.seq, asked=need)
        self._pending = None
        record = self._run(lambda engine: engine.act(action, StopDice(), by=by.by, checked=True))
        return Outcome(self.seq, record)

    def _no_pending(self) -> None:
        if self._pending is not None:
            raise FracasError(
                "dice_pending",
                f"an action waits for its dice (the {self._pending.needed.said}): give it "
                "or cancel first",
            )

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
        return not self.store.listening or self._stale

    def catch_up(self) -> list[Record]:
        """:meth:`refresh`, looking at the store whatever its watch says."""
        with self._lock:
            seq = self.seq
            if self._stale:
                self._recover()
            else:
                since = self.store.records_since(self.name, seq)
                if not since:
                    return []
                self._apply(since)
            new = self._engine.log[seq:]
        self._tell(new)
        return new

    def _apply(self, bodies: Sequence[JSON]) -> None:
        """Replay stored records that follow this table's log (each checked as a resume
        checks it); on any doubt, reload the whole encounter instead."""
        twin, before = self._engine.fork(), list(self._before)
        try:
            for body in bodies:
                record = record_from_json(self.file, body)
                if record.seq != len(twin.log):
                    raise StoreError("bad_record", f"record #{record.seq} at {len(twin.log)}")
                before.append(twin.state)
                check_replayed(body, twin.replay(record, self.file.order), self.name)
        except FracasError:
            self._recover()
            return
        self._engine, self._before = twin, before

    def _tell(self, records: Sequence[Record]) -> None:
        """Publish records appended (none: nothing to tell)."""
        if records:
            self.feed.publish(self.name, records, self.seq)

    def since(self, error: MovedOn) -> list[Record]:
        """The records another writer appended, as this table now holds them."""
        return self._engine.log[error.expected :]

    def _run(self, make: Callable[[Engine], Record]) -> Record:
        """Make the record on a fork of the engine, store it, and only then keep the fork:
        a change the store refuses or loses leaves the table as it was."""
        with self._lock:
            self._fresh()
            before = self.state
            twin = self._engine.fork()
            try:
                record = make(twin)
            except FracasError:
                self._check_fresh()  # refused on a stale state? then say that instead
                raise
            try:
                self.store.append(self.name, record.seq, [record_json(record)])
            except MovedOn as exc:
                self._recover()
                self._tell(self.since(exc))
                raise
            except BaseException:  # refused, failed or interrupted: the store says
                self._stale = True
                seq = self.seq
                self._recover()  # the store away: the table stays as it was, stale
                self._tell(self._engine.log[seq:])
                raise
            self._engine = twin
            self._before.append(before)
        self.feed.publish(self.name, [record], self.seq)
        return record

    def _fresh(self) -> None:
        """After an append whose outcome is unknown: become what the store holds first."""
        if self._stale:
            seq = self.seq
            self._recover()
            self._tell(self._engine.log[seq:])

    def _check_fresh(self) -> None:
        seq = self.seq
        since = self.store.records_since(self.name, seq)
        if since:
            self._recover()
            self._tell(self._engine.log[seq:])
            raise MovedOn(self.name, seq, since)

    def _recover(self) -> None:
        """Become exactly what the store holds. A store away for now
        (``store_unavailable``) leaves the table as it is and says so; any other
        failure to read it back is :class:`StoreLost`."""
        try:
            fresh = resume(self.store, self.name)
        except StoreError as exc:
            if exc.code == "store_unavailable":
                raise
            raise StoreLost(
                "store_failed", f"{self.name!r} cannot be read back from the store: {exc}"
            ) from None
        except FracasError as exc:
            raise StoreLost(
                "store_failed", f"{self.name!r} cannot be read back from the store: {exc}"
            ) from None
        self._engine, self._before, self.file = fresh._engine, fresh._before, fresh.file
        self._stale = False

    def reload(self) -> None:
        """Become again exactly what the store holds."""
        with self._lock:
            self._recover()

    # --- saving -------------------------------------------------------------------

    def export(self, by: Identity = GAME_MASTER) -> dict[str, Any]:
        """The encounter as a file whose actions carry the dice as rolled (``fracas run``
        reproduces the same end state): the game master's alone."""
        by.check_gm("download the encounter")
        with self._lock:
            start = self._engine.log[0]
            out: dict[str, Any] = thaw(
                export(
                    self.file,
                    [start, *self._engine.effective],
                    self.state.order,
                    self.state.presets,
                )
            )
            return out


def live_seed(seed: int, records: int) -> int:
    """The seed of a table resumed after ``records`` records of an encounter seeded
    ``seed``: reproducible, and not the start's dice again."""
    if records == 0:
        return seed
    return random.Random(f"fracas:{seed}:{records}").randrange(2**32)


def resume(store: EncounterStore, name: str) -> Table:
    """The table of stored encounter ``name``, its log replayed from the store.

    Raises:
        StoreError: ``unknown_encounter``; ``log_drift`` or ``bad_record``.
    """
    stored = store.load(name)
    setup = stored.start
    try:
        ef = parse_text(setup.setup, setup.source)
    except FracasError as exc:
        raise StoreError(
            "log_drift", f"{name!r}: its stored setup no longer reads: {exc}"
        ) from None
    engine = Engine(ef.ruleset, ef.start, live_seed(setup.seed, len(stored.records)), ef.bounds)
    table = Table(store, name, setup.setup, ef, engine)
    before = table._before
    for body in stored.records:
        record = record_from_json(ef, body)
        if record.seq != len(engine.log):
            raise StoreError(
                "bad_record", f"{name!r}: record #{record.seq} at place {len(engine.log)}"
            )
        before.append(engine.state)
        try:
            replayed = engine.replay(record, ef.order)
        except FracasError as exc:
            raise StoreError(
                "log_drift",
                f"{name!r} record #{record.seq} no longer replays: {exc} "
                f"(fracas or the ruleset changed since it was played)",
            ) from None
        check_replayed(body, replayed, name)
    return table
