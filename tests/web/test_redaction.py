"""A player's log hides an enemy's HP-like state as the table hides its HP (issue 12,
item 11): a ruleset's event that :attr:`~fracas.model.Event.reveals` a combatant's
damage (wasteland's limb damage, WL-20; soak's armour and wounds, SK-12, SK-14; tier
duel's temporary damage, TD-5) has its veiled line on the server, for every ruleset by
the same mechanism, never by the ruleset's name."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.io.store import open_store
from fracas.model import Damaged, Event
from fracas.table import Identity, SetPolicy, TableService, View
from fracas.web.shown import page_lines

EXAMPLES = Path(__file__).parents[2] / "examples"


def _revealing(table: object) -> list[tuple[int, Event, str, str]]:
    """(record, event, the combatant it reveals, its game-master line) of every event
    that reveals HP-like state, other than core damage."""
    from fracas.table import Table

    assert isinstance(table, Table)
    out = []
    for i, record in enumerate(table.log):
        state = table.before[i]
        for event in record.events:
            if event.reveals and not isinstance(event, Damaged):
                text = event.describe(state)
                if text:
                    out.append((i, event, getattr(event, event.reveals), text))
            state = event.apply(state)
    return out


@pytest.mark.parametrize("shown", ["label", "hidden"])
@pytest.mark.parametrize(
    ("example", "events"),
    [
        ("wasteland.yaml", {"LimbHit", "LimbDamaged"}),
        ("soak.yaml", {"Soaked", "Wounded"}),
        ("tier-duel.yaml", {"TemporaryDamage"}),
    ],
)
def test_a_players_log_veils_an_enemys_hp_like_state(
    tmp_path: Path, example: str, events: set[str], shown: str
) -> None:
    store = open_store(tmp_path / "s.sqlite3", durable=False)
    try:
        service = TableService(store, {"enemy_hp": shown})
        table = service.create((EXAMPLES / example).read_text(), example, name="t", seed=1)
        first = next(iter(table.state.combatants.values()))
        player = Identity.player("Pat", first.id)
        lines = [line["text"] for line in page_lines(View(table.snapshot(), player))]
        gm_lines = [line["text"] for line in page_lines(View(table.snapshot(), Identity.gm()))]
        revealing = _revealing(table)
        kinds = {
            type(e).__name__
            for _, e, cid, _ in revealing
            if table.state.get(cid).side != first.side
        }
        assert events <= kinds, kinds  # the example plays them on an enemy
        for _, _event, cid, text in revealing:
            assert text in gm_lines
            if table.state.get(cid).side == first.side:
                assert text in lines  # its own side: exact
            else:
                assert text not in lines, text
                assert f"  {table.state.name(cid)}: details hidden" in lines
        table.submit(SetPolicy({"enemy_hp": "exact"}))
        seen = table.snapshot()
        assert page_lines(View(seen, player)) == page_lines(View(seen, Identity.gm()))
    finally:
        store.close()
