"""Over a whole recorded session of every example, played by the game master through
the socket with a hidden combatant of its own side and a note on it, a player's socket
never carries the hidden combatant's id, name or side, the note, nor an enemy's exact
HP (the table hides it); and the dice it tries to choose are refused."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from fracas.table import EncounterFile, check_file
from tests.web.support import served

EXAMPLES = sorted((Path(__file__).parents[2] / "examples").glob("*.yaml"))
NOTE = "the-ambush-waits-behind-the-wall"


def _entry(action: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"actor": action.actor, "do": action.do}
    if action.target is not None:
        entry["target"] = action.target
    if action.at is not None:
        entry["at"] = list(action.at)
    for k, v in action.params.items():
        entry[k] = list(v) if isinstance(v, tuple) else v
    if action.dice:
        entry["dice"] = {k: list(v) for k, v in action.dice.items()}
    out: dict[str, Any] = json.loads(json.dumps(entry, default=list))
    return out


def _drain(ws: Any, heard: list[str]) -> dict[str, Any]:
    """Messages up to the answer to the last frame (every one kept as text)."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        heard.append(json.dumps(message))
        if message["type"] not in ("sync", "winbar"):
            return message


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_a_players_socket_never_carries_what_it_may_not_see(tmp_path: Path, path: Path) -> None:
    text = path.read_text()
    ef: EncounterFile = check_file(text, path.name)
    setup = text.split("\nactions:")[0] + "\n"
    first = next(iter(ef.start.combatants.values()))
    enemies = [c for c in ef.start.combatants.values() if c.side != first.side]
    with served(tmp_path, setup, {"enemy_hp": "hidden"}) as s:
        _, token = s.links.add("fight", "Quinn", [first.id])
        client = TestClient(s.app)
        heard: list[str] = []
        played = refused = 0
        with (
            client.websocket_connect(f"/ws?token={s.gm}") as gm,
            client.websocket_connect(f"/ws?token={token}") as pat,
        ):
            for ws in (gm, pat):
                ws.send_json({"type": "hello", "seq": 0})
            heard.append(json.dumps(pat.receive_json()))
            gm.receive_json()
            ghost = {"id": "ghost", "name": "Wraith", "side": "ambush"}
            setup_frames = [
                {"actor": first.id, "do": "add", "combatant": ghost, "hidden": True},
                {"actor": "ghost", "do": "note", "text": NOTE},
            ]
            for i, action in enumerate([*setup_frames, *map(_entry, ef.actions)]):
                gm.send_json({"type": "act", "id": i, "seq": s.table.seq, "action": action})
                reply: dict[str, Any] = gm.receive_json()
                while reply["type"] in ("sync", "winbar"):
                    reply = gm.receive_json()
                if reply["type"] == "done":
                    played += 1
                else:
                    refused += 1
                if i < len(setup_frames):
                    assert reply["type"] == "done", reply
                mine = {"actor": first.id, "do": "end_turn", "dice": {"attack": 20}}
                if i == len(setup_frames) and s.table.state.turn.actor == first.id:
                    pat.send_json({"type": "act", "id": 99, "seq": s.table.seq, "action": mine})
                    assert _drain(pat, heard)["code"] == "forbidden"
            pat.send_json({"type": "hello", "seq": 0})  # the whole log again, as it is now
            pat.send_json({"type": "odds", "id": 1, "seq": s.table.seq, "action": {
                "actor": first.id, "do": "end_turn"}})  # fmt: skip
            _drain(pat, heard)
        assert played >= len(setup_frames) + len(ef.actions) // 2, (played, refused)
        assert s.table.state.hidden == {"ghost"}
        everything = "\n".join(heard)
        assert "sync" in everything
        for secret in ("ghost", "wraith", "ambush", NOTE):
            at = everything.lower().find(secret)
            assert at < 0, everything[max(0, at - 300) : at + 100]
        for message in map(json.loads, heard):
            if message["type"] != "sync":
                continue
            for c in message["state"]["combatants"]:
                if c["side"] != first.side:
                    assert "hp" not in c and "max_hp" not in c and "fields" not in c, c
            for line in message["lines"]:
                for enemy in enemies:
                    assert not re.search(rf"{re.escape(enemy.name)}\b.*HP \d", line["text"]), line
