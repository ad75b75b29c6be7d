"""A table's snapshots (:mod:`fracas.table.moments`): made at the lock's outermost
release; read at once while another thread holds the lock (the last one made), as the
table is now by the thread changing it; one state's snapshots share its kept answers."""

from __future__ import annotations

import threading
from pathlib import Path

from fracas.io.store import open_store
from fracas.model import Action
from fracas.table import Table, TableService
from tests.play.support import EXAMPLES

EXAMPLE = (EXAMPLES / "dice-combat.yaml").read_text().split("actions:")[0]


def _table(tmp: Path) -> Table:
    store = open_store(tmp / "s.sqlite3", durable=False)
    return TableService(store).create(EXAMPLE, "dice-combat.yaml", seed=3)


def test_a_reader_never_waits_for_the_holder_of_the_lock(tmp_path: Path) -> None:
    table = _table(tmp_path)
    moments, lock = table._moments, table._writer.lock
    last = moments.last
    held, go_on = threading.Event(), threading.Event()

    def holder() -> None:
        with lock:
            held.set()
            go_on.wait(10)

    thread = threading.Thread(target=holder)
    thread.start()
    assert held.wait(10)
    assert moments.take() is last  # at once, the last made
    go_on.set()
    thread.join()
    assert moments.last is not last and moments.last.seq == last.seq  # settled again


def test_the_thread_changing_the_table_sees_it_as_it_is_now(tmp_path: Path) -> None:
    table = _table(tmp_path)
    seen: list[int] = []
    table.subscribe(lambda change: seen.append(table.snapshot().seq))
    table.act(Action("ana", "end_turn"))  # its listener runs in the writer's thread
    assert seen == [table.seq]


def test_a_state_past_is_answered_and_not_kept(tmp_path: Path) -> None:
    table = _table(tmp_path)
    moments = table._moments
    start = table.state
    assert moments.kept_for(start) is moments.kept_for(start)
    table.act(Action("ana", "end_turn"))
    past = moments.kept_for(start)
    past.options(table.ruleset, start, None, frozenset())
    assert len(past) == 0 and moments.kept_for(table.state) is table.snapshot().kept
