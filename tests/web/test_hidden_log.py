"""A combatant the game master hides after it took part in the fight is gone from every
page a player opens afterwards (issue 32, item 10): Ana attacks Cy, the game master
hides Cy, and the log a fresh page of Ana's player reads has no line naming Cy, on the
table's view, on the socket's raw frames, for every ruleset's example."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from fracas.io.store import open_store
from fracas.model import Action
from fracas.table import Identity, TableService, View
from fracas.web.shown import page_lines, page_state
from tests.web.support import served

EXAMPLES = Path(__file__).parents[2] / "examples"

FIGHT = """\
ruleset: dice-combat
seed: 5
order: [ana, bo, cy]
combatants:
  - {id: ana, name: Ana, side: players, at: [0, 0], hand: {is: pistol, loaded: 6}}
  - {id: bo, name: Bo, side: raiders, at: [1, 0], hand: knife}
  - {id: cy, name: Cy, side: raiders, at: [4, 0], hand: club}
"""
"""Cy on the raiders' side, four tiles from Ana: Ana's pistol reaches him."""

CY = re.compile(r"\bcy\b", re.IGNORECASE)


def _hello(ws: Any, seq: int = 0) -> dict[str, Any]:
    ws.send_json({"type": "hello", "seq": seq})
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "sync":
            return message


def test_a_fresh_players_page_has_no_line_of_a_combatant_hidden_since(tmp_path: Path) -> None:
    """Pat (Ana) attacks Cy on its own socket, the game master hides Cy; Pat's page
    opened afterwards (raw frames, its log from the start) and Sam's (Bo's player) never
    carry Cy's id or name; the game master's page reads the attack whole."""
    with served(tmp_path, FIGHT) as s:
        client = TestClient(s.app)
        with client.websocket_connect(f"/ws?token={s.ana}") as pat:
            seq = _hello(pat)["seq"]
            attack = {"actor": "ana", "do": "attack", "target": "cy"}
            pat.send_json({"type": "act", "id": 1, "seq": seq, "action": attack})
            seen = _hello(pat, seq)  # the attack's lines, Cy shown then
            assert any("Ana attacks Cy" in line["text"] for line in seen["lines"])
        s.table.act(Action("cy", "hide"))
        for token in (s.ana, s.bo):
            with client.websocket_connect(f"/ws?token={token}") as page:
                page.send_json({"type": "hello", "seq": 0})
                raw = page.receive_text()
            assert json.loads(raw)["type"] == "sync"
            assert not CY.search(raw), raw
            texts = [line["text"] for line in json.loads(raw)["lines"]]
            assert "The game master acts out of sight" in texts  # the attack's record
        with client.websocket_connect(f"/ws?token={s.gm}") as gm:
            texts = [line["text"] for line in _hello(gm)["lines"]]
        assert any(t.startswith("Ana attacks Cy with the pistol") for t in texts), texts


def test_the_views_entries_name_no_hidden_combatant_and_keep_the_number(tmp_path: Path) -> None:
    """The table's view of the same fight: Ana's attack is a covered record (its number,
    no action), and no entry of Pat's log names Cy (``names``) nor holds an event that
    says Cy in words (AttackRolled's ``how``); the ammunition Ana spent stays."""
    store = open_store(tmp_path / "s.sqlite3", durable=False)
    try:
        table = TableService(store).create(FIGHT, "fight.yaml", name="t", seed=11)
        table.act(Action("ana", "attack", "cy"))
        before = [line["text"] for line in page_lines(View(table.snapshot(), PAT))]
        assert any(t.startswith("Ana attacks Cy with the pistol") for t in before)
        table.act(Action("cy", "hide"))
        view = View(table.snapshot(), PAT)
        entries = view.lines()
        assert next((e.seq, e.kind) for e in entries if e.seq == 1) == (1, "covered")
        assert not any("cy" in e.names for e in entries), entries
        assert not any(e.event is not None and e.event.prose for e in entries if e.seq == 1)
        texts = [line["text"] for line in page_lines(view)]
        assert texts[1:] == [
            "The game master acts out of sight",
            "  ammo: 3 fired, 3 left in the pistol",
            "The game master acts out of sight",
        ], texts
        assert not CY.search(json.dumps([page_state(view), page_lines(view)]))
        gm = [line["text"] for line in page_lines(View(table.snapshot(), Identity.gm()))]
        assert gm[:3] == before[:3] and "The game master hides Cy from the players" in gm
    finally:
        store.close()


PAT = Identity.player("Pat", "ana")


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.yaml")))
def test_a_combatant_hidden_after_its_fight_is_named_on_no_fresh_page(
    tmp_path: Path, example: str
) -> None:
    """Every example played through (its actions: attacks, damage, a ruleset's own
    events), then each combatant but the player's own hidden in turn: a fresh view of
    the player (its state and its whole log, in words) never names it, by id or by
    name, whatever the ruleset's events hold."""
    store = open_store(tmp_path / "s.sqlite3", durable=False)
    try:
        table = TableService(store).create(
            (EXAMPLES / example).read_text(), example, name="t", seed=1
        )
        mine = next(iter(table.state.combatants.values()))
        player = Identity.player("Pat", mine.id)
        names = {c.name for c in table.state.combatants.values()}
        for c in list(table.state.combatants.values()):
            if c.id == mine.id or any(c.name in n for n in names - {c.name}):
                continue  # a name inside another's: not told apart in words
            table.act(Action(c.id, "hide"))
            view = View(table.snapshot(), player)
            assert not any(c.id in e.names for e in view.lines())
            said = json.dumps([page_state(view), page_lines(view)])
            assert not re.search(rf"\b{re.escape(c.name)}\b", said), (c.name, said)
            assert not re.search(rf"\"{re.escape(c.id)}\"", said), (c.id, said)
            table.undo()
    finally:
        store.close()
