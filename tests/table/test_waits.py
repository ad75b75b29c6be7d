"""What a table holds unstored (:mod:`fracas.table.waits`) on its own: the dice mode,
the action waiting for its next physical die, players' requests. Each change is told on
the feed; an action they let through is stored by the writer, and not before its last
die."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.errors import FracasError
from fracas.io.store import EncounterStore, open_store
from fracas.model import Action
from fracas.table import Answer, Change, Feed, Forbidden, Identity, TableService
from fracas.table.waits import Waits
from fracas.table.writer import Writer, load
from tests.play.support import EXAMPLES

EXAMPLE = (EXAMPLES / "dice-combat.yaml").read_text().split("actions:")[0]
GM, ANA, BO = Identity.gm(), Identity.player("Ana", "ana"), Identity.player("Bo", "bo")


def _waits(tmp: Path) -> tuple[Waits, Writer, list[Change], EncounterStore]:
    store = open_store(tmp / "s.sqlite3", durable=False)
    name = TableService(store).create(EXAMPLE, "dice-combat.yaml", seed=3).name
    loaded = load(store, name)
    feed, heard = Feed(), list[Change]()
    feed.subscribe(heard.append)
    writer = Writer(store, name, loaded.file, loaded.engine, feed, lambda: None)
    return Waits(writer), writer, heard, store


def test_physical_dice_are_asked_one_by_one_and_stored_with_the_last(tmp_path: Path) -> None:
    waits, writer, heard, store = _waits(tmp_path)
    waits.set_physical(True)
    seq = writer.seq
    asked = waits.next_die(Action("ana", "attack", "bo"), ANA)
    assert asked.asked is not None and asked.record is None and waits.pending is not None
    assert writer.seq == seq and len(heard) == 1  # told, nothing stored
    with pytest.raises(FracasError) as busy:
        waits.no_pending()
    assert busy.value.code == "dice_pending"
    with pytest.raises(Forbidden):
        waits.give(1, BO)  # not Bo's die
    outcome = asked
    while outcome.asked is not None:
        outcome = waits.give(outcome.asked.sides, GM)  # any die, its highest face
    assert outcome.record is not None
    assert waits.pending is None and writer.seq == seq + 1
    assert load(store, writer.name).engine.state == writer.state


def test_a_die_cancelled_or_the_mode_turned_off_drops_the_action(tmp_path: Path) -> None:
    waits, writer, _, _ = _waits(tmp_path)
    with pytest.raises(FracasError) as none:
        waits.cancel(GM)
    assert none.value.code == "no_die_asked"
    waits.set_physical(True)
    waits.next_die(Action("ana", "attack", "bo"), ANA)
    with pytest.raises(Forbidden):
        waits.cancel(BO)
    waits.cancel(ANA)
    assert waits.pending is None
    waits.next_die(Action("ana", "attack", "bo"), ANA)
    waits.set_physical(False)
    assert (waits.physical, waits.pending) == (False, None)
    assert writer.seq == 1


def test_a_request_waits_for_the_game_masters_answer(tmp_path: Path) -> None:
    waits, writer, heard, _ = _waits(tmp_path)
    action = Action("ana", "attack", "bo", params={"edge": "advantage"})
    first = waits.request(action, ANA, ("edge",))
    assert first.request is not None and waits.requests == (first.request,)
    with pytest.raises(Forbidden):
        waits.answer(Answer(first.request.id, True), ANA)
    refused = waits.answer(Answer(first.request.id, False), GM)
    assert refused.record is None and not waits.requests and writer.seq == 1
    with pytest.raises(FracasError) as gone:
        waits.answer(Answer(first.request.id, True), GM)
    assert gone.value.code == "no_request"
    second = waits.request(action, ANA, ("edge",))
    assert second.request is not None and second.request.id == first.request.id + 1
    accepted = waits.answer(Answer(second.request.id, True), GM)
    assert accepted.record is not None and accepted.record.by == "Ana" and writer.seq == 2
    assert len(heard) == 5  # two requests, two answers, one record
