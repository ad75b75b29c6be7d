"""One encounter at a table, and the service that opens tables on a store.

Every change goes the same way: the identity's permission is checked, the engine
computes the record (a refusal raises and changes nothing), the store appends it
in one durable transaction with the log's length as the expected sequence number,
the change feed tells every listener, and only then does the caller show it. When
the append fails (another process moved the encounter on, the disk is gone) the
table reloads itself from the store, so what it holds is again exactly what is
stored, and the error goes up (:class:`~fracas.store.MovedOn` carries what the
other writer did).

Writes to one table are serialised by a lock in this process and across processes
by the store's expected-seq check. Resuming re-reads the setup (the file's text,
as stored) and replays every stored record: actions re-resolve with their recorded
dice, so no seed is needed.
"""

from __future__ import annotations

import dataclasses
import random
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import yaml

from fracas.dice.source import Dice
from fracas.engine import Engine, Record
from fracas.errors import FileError, FracasError
from fracas.files import EncounterFile, export, parse_text, play_file
from fracas.frozen import thaw
from fracas.model import Action, Encounter
from fracas.odds import Odds, action_odds
from fracas.rulesets.base import Ruleset
from fracas.store import JSON, EncounterInfo, EncounterStore, MovedOn, NewEncounter, StoreError
from fracas.store.records import check_replayed, record_from_json, record_json
from fracas.table.choice_odds import Choice, choice_odds
from fracas.table.choices import Option, options_now
from fracas.table.feed import Change, Feed
from fracas.table.identity import Forbidden, Identity, Role, TableRules
from fracas.table.physical import Pending, StopDice, needed

__all__ = ["StoreLost", "Table", "TableService", "fresh_seed", "live_seed"]

GAME_MASTER = Identity.gm()


class StoreLost(StoreError):
    """An append failed and the encounter cannot be read back: the table must close."""


def live_seed(seed: int, records: int) -> int:
    """The seed of a table resumed after ``records`` records of an encounter seeded
    ``seed``: reproducible, and not the start's dice again."""
    if records == 0:
        return seed
    return random.Random(f"fracas:{seed}:{records}").randrange(2**32)


def fresh_seed() -> int:
    """A new seed for a new live encounter (two fights from one file roll differently)."""
    return random.SystemRandom().randrange(2**32)


OPTIONS_KEPT = 64
"""States whose "may do now" a table keeps (dropped all at once past it)."""


class Table:
    """A stored encounter being played: ``engine`` holds exactly the stored log."""

    def __init__(
        self,
        store: EncounterStore,
        name: str,
        text: str,
        ef: EncounterFile,
        engine: Engine,
        rules: TableRules | None = None,
    ) -> None:
        self.store = store
        self.name = name
        self.text = text
        self.file = ef
        self.engine = engine
        self.rules = rules or TableRules()
        self.feed = Feed()
        self.before: list[Encounter] = []
        """The state before each record of ``engine.log`` (for the log's words)."""
        self.physical = False
        """Dice are physical: an action asks for each of its dice (:meth:`roll`)."""
        self.pending: Pending | None = None
        """The action waiting for its next physical die (not stored: nothing of it is
        kept until its last die is given)."""
        self._lock = threading.RLock()
        self._options: dict[tuple[Encounter, str | None], list[Option]] = {}
        self._stale = False
        """An append's outcome is unknown (the store went away): read it back first."""

    # --- what is there ------------------------------------------------------------

    @property
    def ruleset(self) -> Ruleset:
        return self.file.ruleset

    @property
    def state(self) -> Encounter:
        return self.engine.state

    @property
    def seq(self) -> int:
        """The sequence number the next record takes."""
        return len(self.engine.log)

    @property
    def log(self) -> list[Record]:
        return self.engine.log

    def records_since(self, seq: int) -> list[Record]:
        """The records from ``seq`` on, as this table holds them."""
        with self._lock:
            return self.engine.log[max(0, seq) :]

    def subscribe(self, listener: Callable[[Change], None]) -> Callable[[], None]:
        """Hear of every record appended from now on (see :class:`Feed`)."""
        return self.feed.subscribe(listener)

    def options(self, actor: str | None = None) -> list[Option]:
        """What ``actor`` (default: whose turn it is) may do now, and why not the rest;
        kept per (state, actor): every page of the table asks after each change."""
        with self._lock:
            key = (self.state, actor)
            found = self._options.get(key)
            if found is None:
                found = options_now(self.ruleset, self.state, actor)
                if len(self._options) >= OPTIONS_KEPT:
                    self._options.clear()
                self._options[key] = found
            return list(found)

    def odds(self, action: Action, **limits: Any) -> Odds:
        """The exact odds of ``action`` taken now, without taking it (``limits``: what
        :func:`~fracas.odds.action_odds` takes to bound the work). The action is checked
        first as :meth:`act` checks it."""
        with self._lock:
            state, seed = self.state, self.engine.seed
            action = self.engine.check(action)
        return action_odds(self.ruleset, state, action, seed=seed, **limits)

    def choice_odds(self, actor: str | None = None, **limits: Any) -> list[Choice]:
        """The odds of every choice ``actor`` (default: whose turn it is) has now, fastest
        first (:func:`~fracas.table.choice_odds.choice_odds`; ``limits``: ``seconds``,
        ``cancel``)."""
        with self._lock:
            state, seed = self.state, self.engine.seed
        return list(choice_odds(self.ruleset, state, actor, seed=seed, **limits))

    # --- changes ------------------------------------------------------------------

    def act(self, action: Action, by: Identity = GAME_MASTER, dice: Dice | None = None) -> Record:
        """Take ``action`` as ``by`` and store it; returns the record once it is durable.

        Raises:
            Forbidden: ``by`` may not take it.
            FracasError: a refusal (nothing changed, nothing written).
            MovedOn: another process wrote first; this table now holds what it wrote.
        """
        by.check_act(action, self.ruleset.move_is_own(action))
        who = None if by.role is Role.GM else by.name
        with self._lock:
            self._no_pending()
            return self._run(lambda engine: engine.act(action, dice, by=who))

    # --- physical dice ------------------------------------------------------------

    def roll(self, action: Action, by: Identity = GAME_MASTER) -> Record | Pending:
        """Take ``action`` with physical dice: stored at once when it needs no die more
        than it gives, else held as :attr:`pending`, asking for its next die."""
        by.check_act(action, self.ruleset.move_is_own(action))
        with self._lock:
            self._no_pending()
            return self._next_die(self.engine.check(action), by)

    def give(self, face: int, by: Identity = GAME_MASTER) -> Record | Pending:
        """Give the face of the die :attr:`pending` asks for; the action is stored once
        its last die is given.

        Raises:
            FracasError: ``no_die_asked``; ``forbidden`` (not this identity's die);
                ``die_out_of_range`` (asked again); a refusal of the rules (dropped).
        """
        with self._lock:
            pending = self.pending
            if pending is None:
                raise FracasError("no_die_asked", "no die is asked for now")
            action = pending.check_give(by, face)
            if pending.seq != self.seq:  # another process wrote since
                self.pending = None
                raise FracasError(
                    "moved_on", "the table moved on while the dice were asked: roll again"
                )
            return self._next_die(action, pending.by)

    def cancel(self, by: Identity = GAME_MASTER) -> None:
        """Drop the action waiting for its dice (its taker or the game master)."""
        with self._lock:
            pending = self.pending
            if pending is None:
                raise FracasError("no_die_asked", "no action waits for dice now")
            if not pending.may_cancel(by):
                raise Forbidden(
                    "forbidden",
                    f"only the game master or {pending.by.name!r} may cancel this action",
                )
            self.pending = None

    def _next_die(self, action: Action, by: Identity) -> Record | Pending:
        try:
            need = needed(self.ruleset, self.state, action)
        except FracasError:
            self.pending = None
            raise
        if need is not None:
            self.pending = Pending(action, by, need, self.seq)
            return self.pending
        self.pending = None
        who = None if by.role is Role.GM else by.name
        return self._run(lambda engine: engine.act(action, StopDice(), by=who))

    def _no_pending(self) -> None:
        if self.pending is not None:
            raise FracasError(
                "dice_pending",
                f"an action waits for its dice ({self.pending.needed.question}): give it "
                "or cancel first",
            )

    def undo(self, by: Identity = GAME_MASTER) -> Record:
        """Take back the latest effective action; stored like any record."""
        with self._lock:
            self._no_pending()
            self._fresh()
            latest = self.engine.undoable
            by.check_undo(self.rules, latest.by if latest else None)
            who = None if by.role is Role.GM else by.name
            return self._run(lambda engine: engine.undo(by=who))

    def redo(self, by: Identity = GAME_MASTER) -> Record:
        """Put back the latest undone action; stored like any record."""
        with self._lock:
            self._no_pending()
            self._fresh()
            latest = self.engine.redoable
            by.check_undo(self.rules, latest.by if latest else None, redo=True)
            who = None if by.role is Role.GM else by.name
            return self._run(lambda engine: engine.redo(by=who))

    def refresh(self) -> list[Record]:
        """Catch up with what other processes appended; returns (and publishes) the new
        records. New records are replayed onto the table as it is (a whole reload when
        that fails, or when an earlier append's outcome is unknown). While the store's
        watch is live (``store.listening``: PostgreSQL) there is nothing to look for:
        every commit is heard and caught up as it happens (:meth:`catch_up`)."""
        if self.store.listening and not self._stale:
            return []
        return self.catch_up()

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
            new = self.engine.log[seq:]
        self.feed.publish(self.name, new)
        return new

    def _apply(self, bodies: Sequence[JSON]) -> None:
        """Replay stored records that follow this table's log (each checked as a resume
        checks it); on any doubt, reload the whole encounter instead."""
        twin, before = self.engine.fork(), list(self.before)
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
        self.engine, self.before = twin, before

    def since(self, error: MovedOn) -> list[Record]:
        """The records another writer appended, as this table now holds them."""
        return self.engine.log[error.expected :]

    def _run(self, make: Callable[[Engine], Record]) -> Record:
        """Make the record on a fork of the engine, store it, and only then keep the fork:
        a change the store refuses or loses leaves the table as it was."""
        with self._lock:
            self._fresh()
            before = self.state
            twin = self.engine.fork()
            try:
                record = make(twin)
            except FracasError:
                self._check_fresh()  # refused on a stale state? then say that instead
                raise
            try:
                self.store.append(self.name, record.seq, [record_json(record)])
            except MovedOn as exc:
                self._recover()
                self.feed.publish(self.name, self.since(exc))
                raise
            except BaseException:  # refused, failed or interrupted: the store says
                self._stale = True
                seq = self.seq
                self._recover()  # the store away: the table stays as it was, stale
                self.feed.publish(self.name, self.engine.log[seq:])  # it was stored after all
                raise
            self.engine = twin
            self.before.append(before)
        self.feed.publish(self.name, [record])
        return record

    def _fresh(self) -> None:
        """After an append whose outcome is unknown: become what the store holds first."""
        if self._stale:
            seq = self.seq
            self._recover()
            self.feed.publish(self.name, self.engine.log[seq:])

    def _check_fresh(self) -> None:
        seq = self.seq
        since = self.store.records_since(self.name, seq)
        if since:
            self._recover()
            self.feed.publish(self.name, self.engine.log[seq:])
            raise MovedOn(self.name, seq, since)

    def _recover(self) -> None:
        """Become exactly what the store holds. A store away for now
        (``store_unavailable``) leaves the table as it is and says so; any other
        failure to read it back is :class:`StoreLost`."""
        try:
            fresh = _resume(self.store, self.name, self.rules)
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
        self.engine, self.before, self.file = fresh.engine, fresh.before, fresh.file
        self._stale = False

    def reload(self) -> None:
        """Become again exactly what the store holds."""
        with self._lock:
            self._recover()

    # --- saving -------------------------------------------------------------------

    def export(self) -> dict[str, Any]:
        """The encounter as a file whose actions carry the dice as rolled (``fracas run``
        reproduces the same end state)."""
        with self._lock:
            start = self.engine.log[0]
            out: dict[str, Any] = thaw(
                export(self.file, [start, *self.engine.effective], self.state.order)
            )
            return out


def _resume(store: EncounterStore, name: str, rules: TableRules | None = None) -> Table:
    stored = store.load(name)
    setup = stored.start
    try:
        ef = parse_text(setup.setup, setup.source)
    except FracasError as exc:
        raise StoreError(
            "log_drift", f"{name!r}: its stored setup no longer reads: {exc}"
        ) from None
    engine = Engine(ef.ruleset, ef.start, live_seed(setup.seed, len(stored.records)), ef.bounds)
    table = Table(store, name, setup.setup, ef, engine, rules)
    for body in stored.records:
        record = record_from_json(ef, body)
        if record.seq != len(engine.log):
            raise StoreError(
                "bad_record", f"{name!r}: record #{record.seq} at place {len(engine.log)}"
            )
        table.before.append(engine.state)
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


class TableService:
    """The tables of one store: create, open (one :class:`Table` per encounter in this
    process, shared by every face that opens it), list, delete."""

    def __init__(self, store: EncounterStore, rules: TableRules | None = None) -> None:
        self.store = store
        self.rules = rules or TableRules()
        self._tables: dict[str, Table] = {}
        self._lock = threading.Lock()
        self._unwatch = store.watch(self._heard)

    def _heard(self, name: str | None, seq: int) -> None:
        """The store heard another process commit (in the store's watching thread): the
        open table catches up, its feed tells its listeners. ``name`` None: catch up on
        every open table (notifications may have been missed)."""
        with self._lock:
            if name is None:
                tables = list(self._tables.values())
            else:
                table = self._tables.get(name)
                tables = [table] if table is not None and table.seq < seq else []
        for table in tables:
            try:
                table.catch_up()
            except FracasError:
                continue  # the store is away again: the next notice or look catches up

    def create(
        self,
        text: str,
        source: str,
        *,
        name: str | None = None,
        seed: int | None = None,
        live: bool = True,
    ) -> Table:
        """A new stored encounter from a file's text: the start, then the file's actions
        (their dice as the file gives them, the rest from the seed), stored together.

        ``seed`` replaces the file's seed for every die. Without one, the file's seed
        rolls the file's actions and, for a ``live`` table, a fresh seed every later
        die (two fights started from one file do not roll alike; ``engine.seed`` tells
        which).

        Raises:
            FileError: the file does not validate, or one of its actions is refused
                (``where`` names it); nothing is stored then.
        """
        ef = parse_text(text, source)
        if seed is not None:
            ef = dataclasses.replace(ef, seed=seed)
        played = play_file(ef)
        if played.refused is not None:
            number, exc = played.refused
            raise FileError(
                exc.code, f"action {number}: {exc.message}", ef.action_where[number - 1]
            )
        engine = played.engine
        if live and seed is None:  # what is rolled from now on: not the file's dice again
            engine.reseed(fresh_seed())
        new = NewEncounter(ef.path, text, ef.ruleset.name, engine.seed)
        stored = self.store.create(new, [record_json(r) for r in engine.log], name)
        table = Table(self.store, stored, text, ef, engine, self.rules)
        table.before = played.before
        with self._lock:
            self._tables[stored] = table
        return table

    def create_from(
        self, data: Mapping[str, Any], source: str = "<program>", **kwargs: Any
    ) -> Table:
        """:meth:`create` from an encounter given as data (what a file holds)."""
        text = yaml.safe_dump(thaw(data), sort_keys=False, allow_unicode=True)
        return self.create(text, source, **kwargs)

    def open(self, name: str) -> Table:
        """The table of stored encounter ``name`` (resumed once per process, then caught
        up with the store: at each open, unless the store's watch is live).

        Raises:
            StoreError: ``unknown_encounter``; ``log_drift`` or ``bad_record`` when the
                stored log no longer replays.
        """
        with self._lock:
            table = self._tables.get(name)
            if table is None:
                table = self._tables[name] = _resume(self.store, name, self.rules)
        table.refresh()
        return table

    def list(self) -> list[EncounterInfo]:
        return self.store.list()

    def names(self) -> Sequence[str]:
        return [i.name for i in self.store.list()]

    def delete(self, name: str) -> None:
        with self._lock:
            self.store.delete(name)
            self._tables.pop(name, None)
