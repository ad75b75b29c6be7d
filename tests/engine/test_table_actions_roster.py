"""The roster's table actions (issue 22, item 2) through the table service: a game
master's copy of a combatant added mid-fight (its sheet and side, full HP, no statuses,
placed after a named one), refused with a stable code where its id or tile is bad; a
secret roll only the game master reads; the ruleset's statuses listed for the game
master's conditions."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.errors import Refusal
from fracas.io.store import open_store
from fracas.table import GAME_MASTER, Act, Identity, Table, TableService, View
from fracas.words.render import entry_words

ROOT = Path(__file__).parents[2]
START = (ROOT / "examples" / "dice-combat.yaml").read_text().split("actions:")[0]


@pytest.fixture
def table(tmp_path: Path) -> Table:
    tables = TableService(open_store(tmp_path / "s.sqlite3", durable=False))
    return tables.create(START, "dice-combat.yaml", name="fight", seed=5)


def test_a_copy_joins_after_the_named_combatant_with_full_hp(table: Table) -> None:
    table.submit(Act({"actor": "bo", "do": "damage", "amount": 5}))
    table.submit(Act({"actor": "bo", "do": "status", "add": "prone"}))
    bo = table.state.get("bo")
    assert bo.hp == 7 and "prone" in bo.statuses
    table.submit(
        Act(
            {
                "actor": "bo",
                "do": "add",
                "copy": "bo",
                "combatant": {"id": "bo2", "name": "Bo's twin", "at": [5, 5]},
                "after": "ana",
            }
        )
    )
    twin = table.state.get("bo2")
    assert (twin.name, twin.side, twin.at, twin.hp, twin.max_hp) == (
        "Bo's twin",
        bo.side,
        (5, 5),
        12,
        12,
    )
    assert twin.sheet == bo.sheet and dict(twin.statuses) == {}
    order = list(table.state.order)
    assert order[order.index("ana") + 1] == "bo2"


@pytest.mark.parametrize(
    ("combatant", "code"),
    [
        ({"id": "bo"}, "duplicate_id"),
        ({"id": "Bo 2"}, "bad_id"),
        ({"id": "bo3", "at": "here"}, "bad_value"),
        ({"id": "bo3", "hp": 3}, "unknown_field"),
    ],
)
def test_a_bad_copy_is_refused_and_writes_nothing(
    table: Table, combatant: dict[str, object], code: str
) -> None:
    seq = table.seq
    with pytest.raises(Refusal) as refused:
        table.submit(Act({"actor": "bo", "do": "add", "copy": "bo", "combatant": combatant}))
    assert refused.value.code == code
    quoted = "hp" if code == "unknown_field" else "here" if code == "bad_value" else combatant["id"]
    assert str(quoted) in refused.value.message, refused.value.message
    assert table.seq == seq


def test_a_secret_roll_is_read_by_the_game_master_only(table: Table) -> None:
    pat = Identity.player("Pat", "ana")
    table.submit(Act({"actor": "ana", "do": "roll", "notation": "2d6+1", "secret": True}))
    table.submit(Act({"actor": "ana", "do": "roll", "notation": "1d4"}))
    snap = table.snapshot()
    gm_lines = [entry_words(e) for e in View(snap, GAME_MASTER).lines()]
    pat_lines = [entry_words(e) for e in View(snap, pat).lines()]
    assert any("2d6+1" in t for t in gm_lines) and any("1d4" in t for t in gm_lines)
    assert not any("2d6+1" in t for t in pat_lines) and any("1d4" in t for t in pat_lines)


def test_the_game_master_reads_the_rulesets_statuses(table: Table) -> None:
    snap = table.snapshot()
    listed = View(snap, GAME_MASTER).state()["status_list"]
    spec = {s.name: s for s in table.ruleset.contract.statuses}
    assert [s["name"] for s in listed] == list(spec)
    assert View(snap, Identity.player("Pat", "ana")).state()["status_list"] == []
