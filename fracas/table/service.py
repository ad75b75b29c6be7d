"""The table service: the tables of one store. Create (from a file's text or data),
open (one :class:`~fracas.table.Table` per encounter per process, resumed from the
store), open-or-create (what ``fracas play TARGET`` and ``fracas serve TARGET`` mean),
list and delete.

Resuming re-reads the setup (the file's text, as stored) and replays every stored
record: actions re-resolve with their recorded dice, so no seed is needed; a record
that no longer replays as stored is ``log_drift``.
"""

from __future__ import annotations

import dataclasses
import json
import random
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from fracas.errors import FileError, FracasError
from fracas.io.files import EncounterFile, parse_text, play_file, read_text
from fracas.io.roster_csv import Roster, read_roster
from fracas.io.store import NAME_PATTERN, EncounterInfo, EncounterStore, NewEncounter
from fracas.io.store.records import record_json
from fracas.model.frozen import thaw
from fracas.table.identity import Identity
from fracas.table.projection import View, player_ids
from fracas.table.table import Table, resume

__all__ = ["Played", "Refused", "TableService", "check_file", "fresh_seed"]


@dataclass(frozen=True)
class Refused:
    """The action of a file the rules refused: its number (from 1), its ``FILE:LINE``,
    the refusal."""

    number: int
    where: str
    error: FracasError


@dataclass(frozen=True)
class Played:
    """A file played (:meth:`TableService.play`): its table, and the action refused
    where it stopped (None: every action played)."""

    table: Table
    refused: Refused | None


def fresh_seed() -> int:
    """A new seed for a new live encounter (two fights from one file roll differently)."""
    return random.SystemRandom().randrange(2**32)


def check_file(text: str, source: str) -> EncounterFile:
    """An encounter file's text checked as ``fracas run`` checks a file (a setup drafted
    on a page, before it becomes an encounter).

    Raises:
        FileError: the first problem, its field as data (``FileError.path``).
    """
    return parse_text(text, source)


class TableService:
    """The tables of one store: create, open (one :class:`Table` per encounter in this
    process, shared by every face that opens it), open or create, list, delete."""

    def __init__(self, store: EncounterStore, policy: Mapping[str, Any] | None = None) -> None:
        self.store = store
        self.policy = dict(policy or {})
        """Policy fields a new encounter takes over its file's (``fracas serve
        --enemy-hp``); an encounter already stored keeps its own."""
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
        die (two fights started from one file do not roll alike; ``Table.seed`` tells
        which).

        Raises:
            FileError: the file does not validate, or one of its actions is refused
                (``where`` names it); nothing is stored then.
        """
        if self.policy:
            text = _with_policy(text, source, self.policy)
        played = self.play(text, source, name=name, seed=seed, live=live, store=False)
        if played.refused is not None:
            r = played.refused
            raise FileError(r.error.code, f"action {r.number}: {r.error.message}", r.where)
        return self._store(played.table, name)

    def play(
        self,
        text: str,
        source: str,
        *,
        name: str | None = None,
        seed: int | None = None,
        actions: int | None = None,
        live: bool = False,
        store: bool = True,
    ) -> Played:
        """A new encounter from a file's text, its first ``actions`` actions played
        (None: all; negative: all but that many last ones) up to the first the rules
        refuse (``fracas run``, ``fracas odds``): the table holds what was played
        before it, the refusal says which and why.
        Stored as :meth:`create` stores (``store`` False: not yet).

        Raises:
            FileError: the file does not validate.
        """
        ef = parse_text(text, source)
        if seed is not None:
            ef = dataclasses.replace(ef, seed=seed)
        played = play_file(ef, actions)
        engine = played.engine
        if live and seed is None:  # what is rolled from now on: not the file's dice again
            engine.reseed(fresh_seed())
        table = Table(self.store, name or "", text, ef, engine)
        table._before.extend(played.before)
        refused = None
        if played.refused is not None:
            number, exc = played.refused
            refused = Refused(number, ef.action_where[number - 1], exc)
        if store:
            self._store(table, name)
        return Played(table, refused)

    def _store(self, table: Table, name: str | None) -> Table:
        """Store a table played from a file as a new encounter (named ``name`` or the
        store's next name); the table, named."""
        new = NewEncounter(table.file.path, table.text, table.ruleset.about.name, table.seed)
        table.name = self.store.create(new, [record_json(r) for r in table.log], name)
        with self._lock:
            self._tables[table.name] = table
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
        table = self.held(name)
        table.refresh()
        return table

    def held(self, name: str) -> Table:
        """:meth:`open` without catching up: the table as this process holds it (its
        feed tells of what it hears of other processes)."""
        with self._lock:
            table = self._tables.get(name)
            if table is None:
                table = self._tables[name] = resume(self.store, name)
        return table

    def open_or_create(
        self, target: str, *, name: str | None = None, seed: int | None = None
    ) -> tuple[Table, bool]:
        """The table ``target`` names: a stored encounter's name resumes it; anything
        else is read as an encounter file and starts a new encounter. True when new.

        Raises:
            FracasError: ``unknown_encounter`` (neither stored nor a file);
                ``bad_command`` (a name or seed for a stored encounter).
        """
        stored = self.names() if NAME_PATTERN.match(target) else []
        if target in stored:
            if name is not None or seed is not None:
                raise FracasError(
                    "bad_command",
                    f"--name and --seed are for a new encounter; {target!r} is stored already",
                )
            return self.open(target), False
        if NAME_PATTERN.match(target) and not Path(target).exists():
            raise FracasError(
                "unknown_encounter",
                f"{target!r} is neither a stored encounter nor a file; stored in "
                f"{self.store.location}: {', '.join(sorted(stored)) or 'none yet'}",
            )
        return self.create(read_text(target), target, name=name, seed=seed), True

    @staticmethod
    def roster(text: str, source: str, **how: Any) -> Roster:
        """A spreadsheet's CSV rows as combatants of an encounter file (issue 36), checked
        by the file loader, every bad cell named, nothing half-imported (``how``:
        ``ruleset``, ``mapping``, ``into``, ``into_source``:
        :func:`fracas.io.roster_csv.read_roster`).

        Raises:
            FracasError: ``bad_roster`` (its ``cells``), ``unknown_ruleset``, ...
        """
        return read_roster(text, source=source, **how)

    def log_view(self, name: str, reader: Identity | None = None, *, gm: bool = False) -> View:
        """Stored encounter ``name`` as its log may be posted where the players read it
        (issue 36's Markdown log): the players' view, as one player of the whole
        players' side sees it (the first combatant's side, as files are written, hidden
        ones aside: hidden combatants, notes and enemy HP as their pages show them), or
        with ``gm`` the game master's. ``reader``: a player's page asks for its own view
        (the game master's, or none, for the players' or with ``gm`` its own)."""
        snap = self.open(name).snapshot()
        if reader is not None and not reader.is_gm:
            return View(snap, reader)
        if gm:
            return View(snap, Identity.gm())
        return View(snap, Identity.player("players", *player_ids(snap.state)))

    def list(self) -> list[EncounterInfo]:
        return self.store.list()

    def names(self) -> Sequence[str]:
        return [i.name for i in self.store.list()]

    def delete(self, name: str) -> None:
        """Delete stored encounter ``name`` (and forget its open table).

        Raises:
            StoreError: ``unknown_encounter``.
        """
        with self._lock:
            self.store.delete(name)
            self._tables.pop(name, None)


def _with_policy(text: str, source: str, policy: Mapping[str, Any]) -> str:
    """The file's text with ``policy`` over its own ``policy:`` fields (the file checked
    first, so a bad file says what is wrong with it, on its own lines)."""
    parse_text(text, source)
    data = json.loads(text) if source.endswith(".json") else yaml.safe_load(text)
    data["policy"] = {**(data.get("policy") or {}), **policy}
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
