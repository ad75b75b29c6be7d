"""The scratch store (``open_store(":memory:")``): the store contract
(``tests/store/contract.py``) but its tests of several store objects at one location
(a scratch store is one object's own), and what is its own: each open is a new, empty
store; no file is written; a file played through the table on it stores what a
SQLite file stores.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from fracas.io.store import MEMORY, NewEncounter, StoreError, open_store
from fracas.io.store.sqlite import MemoryStore
from fracas.table import TableService
from tests.store import contract
from tests.store.contract import (
    test_append_in_order_then_stale_writer_moved_on,
    test_badly_numbered_records_are_refused_whole,
    test_create_load_round_trip,
    test_given_name_taken_or_bad_is_refused,
    test_list_newest_first_and_delete,
    test_names_from_stems_are_made_unique,
    test_one_store_shared_by_threads_loses_nothing,
    test_unknown_encounter_lists_the_stored,
)

__all__ = [
    "test_append_in_order_then_stale_writer_moved_on",
    "test_badly_numbered_records_are_refused_whole",
    "test_create_load_round_trip",
    "test_given_name_taken_or_bad_is_refused",
    "test_list_newest_first_and_delete",
    "test_names_from_stems_are_made_unique",
    "test_one_store_shared_by_threads_loses_nothing",
    "test_unknown_encounter_lists_the_stored",
]

SEVERAL_OBJECTS = {
    "test_extras_kept_with_an_encounter_replaced_and_deleted_with_it",
    "test_processes_contending_lose_and_duplicate_nothing",
    "test_threads_same_expected_seq_exactly_one_wins",
}
"""The contract's tests that open one location from several store objects."""

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "dice-combat.yaml"
NEW = NewEncounter("fights/Gate Fight.yaml", "ruleset: x\n", "x", 7)


@pytest.fixture
def location() -> str:
    """A scratch store for each contract test (each open is a new one)."""
    return MEMORY


def test_every_other_contract_test_runs_here() -> None:
    assert set(contract.__all__) - set(__all__) == SEVERAL_OBJECTS


def test_extras_in_memory_kept_replaced_and_deleted_with_the_encounter() -> None:
    """The extras of the contract, on one in-memory store object."""
    store = open_store(MEMORY)
    name = store.create(NEW, [{"seq": 0, "kind": "start"}])
    store.put_extra(name, "map-image", b"\x89PNG\x00\x01")
    assert store.extra(name, "map-image") == b"\x89PNG\x00\x01"
    assert store.extras("map-image") == {name: b"\x89PNG\x00\x01"}
    store.put_extra(name, "map-image", None)
    assert store.extra(name, "map-image") is None
    store.put_extra(name, "links", b"{}")
    store.delete(name)
    assert store.extras("links") == {}
    store.close()


def test_each_open_is_a_new_empty_store_and_writes_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    first, second = open_store(MEMORY), open_store(":memory:", durable=True)
    assert isinstance(first, MemoryStore) and first.location == ":memory:"
    assert not first.listening
    name = first.create(NEW, [{"seq": 0, "kind": "start"}])
    assert [i.name for i in first.list()] == ["gate-fight"] and second.list() == []
    with pytest.raises(StoreError) as err:
        second.load(name)
    assert err.value.code == "unknown_encounter"
    assert err.value.message == ("no encounter called 'gate-fight' in ':memory:'; stored: none yet")
    first.close()
    second.close()
    assert os.listdir(tmp_path) == []


def test_a_file_played_on_it_stores_what_a_sqlite_file_stores(tmp_path: Path) -> None:
    """The example's actions, through the table service, on both stores with one seed:
    the same records; the encounter resumed from the scratch store is the one played."""
    text = EXAMPLE.read_text()
    tables = []
    for where in (MEMORY, str(tmp_path / "s.sqlite3")):
        store = open_store(where, durable=False)
        tables.append((store, TableService(store).create(text, EXAMPLE.name, seed=5)))
    (memory, played), (disk, reference) = tables
    records = memory.load(played.name).records
    assert [r["kind"] for r in records] == ["start"] + ["action"] * 13  # the file's 13
    assert records == disk.load(reference.name).records
    assert {c.id: c.hp for c in played.state.combatants.values()} == {
        "ana": 4,
        "bo": 8,
        "cy": 12,
        "dee": 12,
    }
    assert played.state == reference.state
    assert TableService(memory).open(played.name).state == played.state
    memory.close()
    disk.close()
