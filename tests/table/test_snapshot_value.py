"""A snapshot is a value (issue 33 item 4): it holds no way back into the live table,
pickles alone, and answers "may do now" from its own state and ruleset; every snapshot
of one state shares that state's kept answers, retired once the table moves on."""

from __future__ import annotations

import io
import pickle
from pathlib import Path
from typing import Any

from fracas.io.store import open_store
from fracas.model import Action
from fracas.table import Identity, Snapshot, Table, TableService, View
from fracas.table.snapshot import Kept
from tests.play.support import EXAMPLES

EXAMPLE = (EXAMPLES / "dice-combat.yaml").read_text().split("actions:")[0]
GM = Identity.gm()


def _table(tmp: Path) -> Table:
    store = open_store(tmp / "s.sqlite3", durable=False)
    return TableService(store).create(EXAMPLE, "dice-combat.yaml", seed=3)


class _Watching(pickle.Pickler):
    """A pickler that notes the type of every object it pickles."""

    def __init__(self, out: io.BytesIO) -> None:
        super().__init__(out)
        self.seen: set[str] = set()

    def reducer_override(self, obj: Any) -> Any:
        kind = type(obj)
        self.seen.add(f"{kind.__module__}.{kind.__qualname__}")
        return NotImplemented


def test_a_snapshot_pickles_without_the_table_and_still_answers(tmp_path: Path) -> None:
    table = _table(tmp_path)
    table.act(Action("ana", "end_turn"))
    snap = table.snapshot()
    options = View(snap, GM).options()  # kept in the snapshot's own Kept
    assert len(snap.kept) == 1

    out = io.BytesIO()
    pickler = _Watching(out)
    pickler.dump(snap)
    data = out.getvalue()
    live = {"Table", "Writer", "TableLock", "Feed", "Waits", "MapImage", "TableService"}
    assert not {s for s in pickler.seen if s.rsplit(".", 1)[-1] in live}, pickler.seen
    assert not {s for s in pickler.seen if "method" in s or "function" in s}, pickler.seen
    assert b"fracas.table.table" not in data and b"_thread" not in data
    assert pickle.dumps(snap)  # the plain way too

    back = pickle.loads(data)
    assert isinstance(back, Snapshot) and back.kept is not snap.kept and len(back.kept) == 0
    assert (back.name, back.seq, back.state) == (snap.name, snap.seq, snap.state)
    assert View(back, GM).options() == options  # worked out from its own state
    assert View(back, GM).state() == View(snap, GM).state()
    assert len(back.kept) == 1  # and kept for its state
    said = [(o.spec.name, o.targets, o.tile, o.allowed) for o in snap.options("bo")]
    assert [(o.spec.name, o.targets, o.tile, o.allowed) for o in back.options("bo")] == said


def test_snapshots_of_one_state_share_its_kept_answers_until_it_moves_on(
    tmp_path: Path,
) -> None:
    table = _table(tmp_path)
    first, second = table.snapshot(), table.snapshot()
    assert first.kept is second.kept
    first.options()
    assert len(second.kept) == 1
    table.act(Action("ana", "end_turn"))
    now = table.snapshot()
    assert now.kept is not first.kept and len(first.kept) == 0  # retired
    first.options()
    assert len(first.kept) == 0  # a state past: answered, never kept


def test_kept_pickles_empty_and_retired_keeps_nothing() -> None:
    kept = Kept()
    kept.retire()
    assert len(kept) == 0 and isinstance(pickle.loads(pickle.dumps(kept)), Kept)
