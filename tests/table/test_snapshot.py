"""A table's snapshot: one moment of it, read without waiting for a writer.

* While a change is being stored (its writer holding the table's lock, the store
  committing), every view of the table is made at once, of the table as it was; once
  stored, of the table with the record, its state, log and seq agreeing.
* A listener of the table's feed, in the writer's thread, sees the change it is told
  of (a die asked for included), though the writer still holds the table.
* What may be done is worked out once per state and asker, whatever the pages asking.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

import fracas.table.snapshot as snapshot_module
from fracas.engine.may_do import options_now
from fracas.io.store import JSON, open_store
from fracas.model import Action
from fracas.table import Act, Cancel, Change, Identity, SetDice, Snapshot, Table, TableService, View
from fracas.words.render import die_words
from tests.play.support import EXAMPLES

EXAMPLE = (EXAMPLES / "dice-combat.yaml").read_text().split("actions:")[0]
GM, ANA = Identity.gm(), Identity.player("Ana", "ana")


def _table(tmp: Path) -> Table:
    store = open_store(tmp / "s.sqlite3", durable=False)
    return TableService(store).create(EXAMPLE, "dice-combat.yaml", seed=3)


def _views(table: Table) -> dict[str, Any]:
    view = View(table.snapshot(), ANA)
    return {"state": view.state(), "lines": view.lines(), "options": view.options()}


def test_a_view_is_made_while_a_writer_stores_and_sees_the_table_as_it_was(
    tmp_path: Path,
) -> None:
    table = _table(tmp_path)
    before = _views(table)
    committing, go_on = threading.Event(), threading.Event()
    append = table.store.append

    def slow_append(name: str, expected_seq: int, records: list[JSON]) -> None:
        committing.set()
        go_on.wait()
        append(name, expected_seq, records)

    table.store.append = slow_append  # type: ignore[method-assign,assignment]
    writer = threading.Thread(target=table.act, args=(Action("ana", "end_turn"),))
    writer.start()
    assert committing.wait(10)  # the writer holds the table's lock, in the store
    seen: list[dict[str, Any]] = []
    reader = threading.Thread(target=lambda: seen.append(_views(table)))
    reader.start()
    reader.join(10)  # with the lock taken the reader would wait for the writer
    done = not reader.is_alive()
    go_on.set()
    writer.join()
    reader.join()
    assert done and seen == [before]
    after = _views(table)
    assert after["state"]["seq"] == before["state"]["seq"] + 1 == table.seq
    assert after["state"]["turn"] == "bo"
    assert after["lines"][: len(before["lines"])] == before["lines"]
    assert after["lines"][-1].seq == table.seq - 1


def test_the_feed_hears_each_change_in_the_snapshot_a_die_asked_for_included(
    tmp_path: Path,
) -> None:
    table = _table(tmp_path)
    heard: list[Snapshot] = []

    def listener(change: Change) -> None:  # in the writer's thread, which may hold the table
        heard.append(table.snapshot())

    table.subscribe(listener)
    first = table.snapshot()
    table.submit(SetDice(True))
    asked = table.submit(Act(Action("ana", "attack", "cy")), ANA)
    assert asked.asked is not None and asked.record is None
    table.submit(Cancel(), ANA)
    assert [(s.physical, s.pending is not None) for s in heard] == [
        (True, False),
        (True, True),
        (True, False),
    ]
    pending = View(heard[1], ANA).state()["pending"]
    assert pending.need is not None
    assert (die_words(heard[1].state, pending.need), pending.yours) == ("Ana's attack d20?", True)
    assert table.snapshot().state is first.state and table.snapshot().seq == first.seq
    table.submit(SetDice(False))
    table.act(Action("ana", "end_turn"))
    assert (heard[-1].seq, heard[-1].state.turn.actor) == (first.seq + 1, "bo")


def test_may_do_now_is_worked_out_once_per_state_and_asker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = _table(tmp_path)
    asked: list[str | None] = []

    def counted(ruleset: Any, state: Any, actor: Any = None, unseen: Any = frozenset()) -> Any:
        asked.append(actor)
        return options_now(ruleset, state, actor, unseen)

    monkeypatch.setattr(snapshot_module, "options_now", counted)
    for _ in range(3):  # three pages of the game master
        View(table.snapshot(), GM).options()
    assert len(asked) == 1
    table.submit(SetDice(True))  # no change of state: what may be done is the same
    View(table.snapshot(), GM).options()
    assert len(asked) == 1
    table.submit(SetDice(False))
    old = table.snapshot()
    table.act(Action("ana", "end_turn"))
    View(table.snapshot(), GM).options(), View(table.snapshot(), GM).options()
    assert len(asked) == 2
    old.options(), old.options()  # a state past: answered each time, never kept
    assert len(asked) == 4
    assert [o.spec.name for o in table.options()] == [
        o.spec.name for o in options_now(table.ruleset, table.state)
    ]
