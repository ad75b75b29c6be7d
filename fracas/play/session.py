"""One live encounter: an engine kept in step with its stored log.

Every change goes the same way: the engine computes the record (a refusal
raises and changes nothing), the store appends it in one durable transaction
with the engine's log length as the expected sequence number, and only then
does the caller show it. When the append fails (another session moved the
encounter on, the disk is gone) the session reloads itself from the store, so
what it holds is again exactly what is stored, and the error goes up.

Resuming re-reads the setup (the file's text, as stored) and replays every
stored record: actions re-resolve with their recorded dice, so no seed is
needed, and a record the rules no longer reproduce is an error (``log_drift``).
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import yaml

from fracas.dice.source import Dice
from fracas.engine import Engine, Record
from fracas.errors import FileError, FracasError
from fracas.files import EncounterFile, export, parse_text
from fracas.model import Action, Encounter
from fracas.store import EncounterStore, MovedOn, NewEncounter, StoreError
from fracas.store.records import check_replayed, record_from_json, record_json

__all__ = ["Session", "StoreLost", "live_seed", "store_played"]


class StoreLost(StoreError):
    """An append failed and the encounter cannot be read back: the session must stop."""


def live_seed(seed: int, records: int) -> int:
    """The seed of a session resumed after ``records`` records of an encounter seeded
    ``seed``: reproducible, and not the start's dice again."""
    if records == 0:
        return seed
    return random.Random(f"fracas:{seed}:{records}").randrange(2**32)


def store_played(
    store: EncounterStore, text: str, ef: EncounterFile, engine: Engine, name: str | None = None
) -> str:
    """Store a played engine (its start and its actions, one transaction) as a new
    encounter of ``store``; returns its name."""
    new = NewEncounter(ef.path, text, ef.ruleset.name, engine.seed)
    return store.create(new, [record_json(r) for r in engine.log], name)


class Session:
    """A stored encounter being played: ``engine`` holds exactly the stored log."""

    def __init__(
        self, store: EncounterStore, name: str, text: str, ef: EncounterFile, engine: Engine
    ) -> None:
        self.store = store
        self.name = name
        self.text = text
        self.file = ef
        self.engine = engine
        self.before: list[Encounter] = []
        """The state before each record of ``engine.log`` (for the log's words)."""

    # --- starting and resuming ------------------------------------------------------

    @classmethod
    def create(
        cls,
        store: EncounterStore,
        text: str,
        source: str,
        *,
        name: str | None = None,
        seed: int | None = None,
    ) -> Session:
        """A new stored encounter from a file's text: the start, then the file's actions
        (their dice as the file gives them, the rest from the seed), stored together.

        Raises:
            FileError: the file does not validate, or one of its actions is refused
                (``where`` names it); nothing is stored then.
        """
        ef = parse_text(text, source)
        if seed is not None:
            ef = dataclasses.replace(ef, seed=seed)
        engine = Engine(ef.ruleset, ef.start, ef.seed)
        befores = [engine.state]
        engine.begin(ef.dice, ef.order)
        for number, action in enumerate(ef.actions, 1):
            befores.append(engine.state)
            try:
                engine.act(action)
            except FracasError as exc:
                raise FileError(
                    exc.code, f"action {number}: {exc.message}", ef.action_where[number - 1]
                ) from None
        session = cls(store, store_played(store, text, ef, engine, name), text, ef, engine)
        session.before = befores
        return session

    @classmethod
    def resume(cls, store: EncounterStore, name: str) -> Session:
        """The stored encounter ``name``, replayed from its setup and its log.

        Raises:
            StoreError: ``unknown_encounter``; ``log_drift`` or ``bad_record`` when the
                stored log no longer replays.
        """
        stored = store.load(name)
        setup = stored.start
        try:
            ef = parse_text(setup.setup, setup.source)
        except FracasError as exc:
            raise StoreError(
                "log_drift", f"{name!r}: its stored setup no longer reads: {exc}"
            ) from None
        engine = Engine(ef.ruleset, ef.start, live_seed(setup.seed, len(stored.records)))
        session = cls(store, name, setup.setup, ef, engine)
        session._replay(stored.records)
        return session

    def _replay(self, bodies: Sequence[dict[str, Any]]) -> None:
        engine = self.engine
        for body in bodies:
            record = record_from_json(self.file, body)
            if record.seq != len(engine.log):
                raise StoreError(
                    "bad_record", f"{self.name!r}: record #{record.seq} at place {len(engine.log)}"
                )
            self.before.append(engine.state)
            try:
                replayed = engine.replay(record, self.file.order)
            except FracasError as exc:
                raise StoreError(
                    "log_drift",
                    f"{self.name!r} record #{record.seq} no longer replays: {exc} "
                    f"(fracas or the ruleset changed since it was played)",
                ) from None
            check_replayed(body, replayed, self.name)

    def reload(self) -> None:
        """Become again exactly what the store holds (after a failed append)."""
        fresh = Session.resume(self.store, self.name)
        self.engine, self.before, self.file = fresh.engine, fresh.before, fresh.file

    # --- playing --------------------------------------------------------------------

    @property
    def state(self) -> Encounter:
        return self.engine.state

    @property
    def seq(self) -> int:
        """The sequence number the next record takes."""
        return len(self.engine.log)

    def act(self, action: Action, dice: Dice | None = None) -> Record:
        """Play ``action`` and store it; returns the record once it is durable.

        Raises:
            FracasError: a refusal (nothing changed, nothing written).
            MovedOn: another session wrote first (the refusal, or this record, was
                judged on a state that is gone); this session now holds what it wrote.
        """
        return self._run(lambda: self.engine.act(action, dice))

    def undo(self) -> Record:
        """Take back the latest effective action; stored like any record."""
        return self._run(self.engine.undo)

    def redo(self) -> Record:
        """Put back the latest undone action; stored like any record."""
        return self._run(self.engine.redo)

    def _run(self, make: Callable[[], Record]) -> Record:
        before = self.state
        try:
            record = make()
        except FracasError:
            self._check_fresh()  # refused on a stale state? then say that instead
            raise
        try:
            self.store.append(self.name, record.seq, [record_json(record)])
        except BaseException:  # refused, failed or interrupted: the store says what happened
            self._recover()
            raise
        self.before.append(before)
        return record

    def _check_fresh(self) -> None:
        seq = self.seq
        since = self.store.records_since(self.name, seq)
        if since:
            self._recover()
            raise MovedOn(self.name, seq, since)

    def _recover(self) -> None:
        try:
            self.reload()
        except FracasError as exc:
            raise StoreLost(
                "store_failed", f"{self.name!r} cannot be read back from the store: {exc}"
            ) from None

    def since(self, error: MovedOn) -> list[Record]:
        """The records another session appended, as this session now holds them."""
        return self.engine.log[error.expected :]

    # --- saving ---------------------------------------------------------------------

    def export(self) -> dict[str, Any]:
        """The encounter as a file whose actions carry the dice as rolled."""
        start = self.engine.log[0]
        return export(self.file, [start, *self.engine.effective], self.state.order)

    def save(self, path: str | Path) -> int:
        """Write :meth:`export` to ``path`` (JSON for ``.json``, else YAML), replacing it
        whole; returns the number of actions written."""
        data = _plain(self.export())
        p = Path(path).expanduser()
        if p.suffix == ".json":
            text = json.dumps(data, indent=2) + "\n"
        else:
            text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
        tmp = p.with_name(f".{p.name}.tmp")
        try:
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(p)
        except OSError as exc:
            raise FracasError("save_failed", f"cannot write {str(p)!r}: {exc.strerror}") from None
        return len(data["actions"])


def _plain(value: Any) -> Any:
    """Data a YAML or JSON writer takes: tuples as lists, mappings as dicts."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value
