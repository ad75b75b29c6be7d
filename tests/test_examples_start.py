"""Issue 22, item 5: the fights ``fracas serve`` opens (``examples/start/``) start at the
start: round 1, no action played, everyone at full HP, and the first in the order has
something to do; each is its played-through example's start (``examples/NAME.yaml``,
kept for ``fracas run``/``odds``), with nothing played."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.io.files import parse_text
from fracas.io.store import open_store
from fracas.table import TableService

ROOT = Path(__file__).resolve().parents[1]
STARTS = sorted((ROOT / "examples" / "start").glob("*.yaml"))


def test_every_example_has_a_start() -> None:
    played = sorted(p.name for p in (ROOT / "examples").glob("*.yaml"))
    assert [p.name for p in STARTS] == played
    assert len(played) == 5


@pytest.mark.parametrize("path", STARTS, ids=[p.stem for p in STARTS])
def test_a_start_is_round_1_with_nothing_played(path: Path) -> None:
    started = parse_text(path.read_text(), str(path))
    played = parse_text((path.parents[1] / path.name).read_text(), path.name)
    assert started.actions == () and len(played.actions) > 0
    assert started.start == played.start and started.seed == played.seed
    store = open_store(":memory:")
    table = TableService(store).create(path.read_text(), str(path))
    state = table.state
    assert (state.round, table.seq, state.turn.actions_used) == (1, 1, 0)
    assert all(c.hp == c.max_hp > 0 for c in state.combatants.values())
    assert table.outcome() is None
    first = state.turn.actor
    assert [o.spec.name for o in table.options(first) if o.refusal is None]
    store.close()
