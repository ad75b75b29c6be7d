"""A table's writer (:mod:`fracas.table.writer`) on its own: the lock settles at its
outermost release only; a stored encounter loads back as it was played; a change is
kept only once stored, and what the rules decided for it is kept in the writer's memo,
not the process's; a writer behind another catches up."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.engine.play import Engine
from fracas.errors import FracasError
from fracas.io.store import EncounterStore, MovedOn, open_store
from fracas.model import Action
from fracas.rulesets import memo
from fracas.rulesets.base import forget_decisions
from fracas.table import Change, Feed, Table, TableService
from fracas.table.writer import TableLock, Writer, live_seed, load
from tests.play.support import EXAMPLES

EXAMPLE = (EXAMPLES / "dice-combat.yaml").read_text().split("actions:")[0]


def _stored(tmp: Path) -> tuple[EncounterStore, Table]:
    store = open_store(tmp / "s.sqlite3", durable=False)
    table = TableService(store).create(EXAMPLE, "dice-combat.yaml", seed=3)
    return store, table


def _writer(store: EncounterStore, name: str, feed: Feed | None = None) -> Writer:
    loaded = load(store, name)
    writer = Writer(store, name, loaded.file, loaded.engine, feed or Feed(), lambda: None)
    writer.before.extend(loaded.before)
    return writer


def test_the_lock_settles_at_its_outermost_release_alone() -> None:
    settled: list[int] = []
    lock = TableLock(lambda: settled.append(lock.depth))
    with lock:
        with lock:
            assert lock.depth == 2
        assert settled == []
    assert settled == [1] and lock.depth == 0  # settled while still held
    assert lock.acquire(blocking=False)
    lock.release()
    assert settled == [1, 1]


def test_an_encounter_loads_back_as_played(tmp_path: Path) -> None:
    store, table = _stored(tmp_path)
    loaded = load(store, table.name)
    assert loaded.engine.state == table.state and loaded.engine.log == list(table.log)
    assert loaded.before == list(table.before) and loaded.text == table.text
    assert loaded.engine.seed == live_seed(3, len(table.log))


def test_a_change_is_kept_once_stored_its_decisions_in_the_writers_memo(
    tmp_path: Path,
) -> None:
    store, table = _stored(tmp_path)
    heard: list[Change] = []
    feed = Feed()
    feed.subscribe(heard.append)
    writer = _writer(store, table.name, feed)
    forget_decisions()
    seq = writer.seq
    record = writer.run(lambda e: e.act(Action("ana", "attack", "bo"), by="gm", checked=False))
    assert (record.seq, writer.seq) == (seq, seq + 1)
    assert load(store, table.name).engine.state == writer.state  # stored
    assert [c.seq for c in heard] == [seq + 1]
    assert len(writer.decisions) == 1 and not memo._decisions  # the writer's own


def test_a_refusal_or_a_lost_race_leaves_the_writer_as_stored(tmp_path: Path) -> None:
    store, table = _stored(tmp_path)
    writer = _writer(store, table.name)
    state = writer.state

    def refused(engine: Engine) -> object:
        raise FracasError("refused", "no")

    with pytest.raises(FracasError):
        writer.run(refused)  # type: ignore[arg-type]
    assert writer.state is state
    table.act(Action("ana", "end_turn"))  # another writer first
    with pytest.raises(MovedOn) as moved:
        writer.run(lambda e: e.act(Action("ana", "end_turn"), checked=False))
    assert writer.state == table.state and writer.seq == table.seq  # holds what it wrote
    assert [r.seq for r in writer.since(moved.value)] == [table.seq - 1]


def test_a_writer_behind_catches_up_and_looks_only_when_it_must(tmp_path: Path) -> None:
    store, table = _stored(tmp_path)
    writer = _writer(store, table.name)
    assert writer.catch_up() == []
    table.act(Action("ana", "end_turn"))
    assert [r.seq for r in writer.catch_up()] == [table.seq - 1]
    assert writer.state == table.state and writer.before == list(table.before)
    assert writer.looks is (not store.listening)
    writer.stale = True
    assert writer.looks
    writer.fresh()
    assert not writer.stale and writer.state == table.state
