"""Physical dice through the socket (issue 12, item 7): the game master makes a table's
dice physical; an action then asks for each die by its label, size and owner ("Ana's
attack d20?"), the table service working out which die is next by running the rules on
the dice given so far; a face the die does not have is refused; a player gives its own
combatants' dice, the game master any; nothing is written until the last die."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from fracas.engine.play import Engine
from fracas.io.files import parse_text
from fracas.model import Action
from tests.web.support import FIGHT, Served, served


@pytest.fixture
def s(tmp_path: Path) -> Any:
    with served(tmp_path) as it:
        yield it


def hello(ws: Any) -> dict[str, Any]:
    ws.send_json({"type": "hello", "seq": 0})
    message: dict[str, Any] = ws.receive_json()
    assert message["type"] == "sync"
    return message


def until(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(20):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind!r} message")


def pending_of(ws: Any, label: str) -> dict[str, Any]:
    """The pending die of the first sync that asks for die ``label`` (older syncs of the
    page skipped)."""
    for _ in range(20):
        state = until(ws, "sync")["state"]
        assert state["dice"] == "physical"
        pending: dict[str, Any] | None = state["pending"]
        if pending is not None and pending["label"] == label:
            return pending
    raise AssertionError(f"no die {label!r} asked")


def test_an_attack_asks_for_each_die_and_is_stored_after_the_last(s: Served) -> None:
    client = TestClient(s.app)
    seq = s.table.seq
    with (
        client.websocket_connect(f"/ws?token={s.gm}") as gm,
        client.websocket_connect(f"/ws?token={s.ana}") as pat,
        client.websocket_connect(f"/ws?token={s.bo}") as sam,
    ):
        for ws in (gm, pat, sam):
            assert hello(ws)["state"]["dice"] == "fracas"
        pat.send_json({"type": "dice", "id": 1, "seq": seq, "physical": True})
        assert until(pat, "refused")["code"] == "forbidden"  # the game master's choice
        gm.send_json({"type": "dice", "id": 1, "seq": seq, "physical": True})
        assert until(gm, "done")["seq"] == seq
        assert until(pat, "sync")["state"]["dice"] == "physical"
        assert until(sam, "sync")["state"]["pending"] is None

        pat.send_json(
            {
                "type": "act",
                "id": 2,
                "seq": seq,
                "action": {"actor": "ana", "do": "attack", "target": "bo"},
            }
        )
        assert until(pat, "asked")["id"] == 2
        asked = pending_of(pat, "attack")
        assert asked["question"] == "Ana's attack d20?"
        assert (asked["label"], asked["sides"], asked["owner"]) == ("attack", 20, "ana")
        assert asked["yours"] is True and asked["action"] == f"#{seq} ana: attack bo"
        assert pending_of(sam, "attack")["yours"] is False  # Ana's die is Pat's (or the GM's)
        assert pending_of(gm, "attack")["yours"] is True

        sam.send_json({"type": "die", "id": 3, "seq": seq, "face": 5})
        assert until(sam, "refused")["code"] == "forbidden"
        pat.send_json({"type": "die", "id": 4, "seq": seq, "face": 21})  # not a d20's face
        refused = until(pat, "refused")
        assert refused["code"] == "die_out_of_range" and "give 1..20" in refused["message"]
        pat.send_json({"type": "die", "id": 5, "seq": seq, "face": 0})
        assert until(pat, "refused")["code"] == "die_out_of_range"
        assert s.table.seq == seq and s.table.pending is not None

        faces = {"attack": 20, "ammo": 2, "defend:bo": 3, "crit": 4}
        questions = []
        pat.send_json({"type": "die", "id": 6, "seq": seq, "face": 20})
        until(pat, "asked")
        for label, who in (("ammo", pat), ("defend:bo", sam), ("crit", pat)):
            asked = pending_of(who, label)
            questions.append(asked["question"])
            assert asked["label"] == label and asked["yours"] is True
            who.send_json({"type": "die", "id": 7, "seq": seq, "face": faces[label]})
            until(who, "asked" if label != "crit" else "done")
        assert questions == ["Ana's ammo d3?", "Bo's defend d20?", "Ana's crit d4?"]
        assert s.table.seq == seq + 1 and s.table.pending is None
        record = s.table.log[-1]
        assert [(r.label, r.value) for r in record.rolls] == list(faces.items())
        assert record.by == "Pat"
        # the same dice given in a file give the same state
        ef = parse_text(FIGHT, "fight.yaml")
        engine = Engine(ef.ruleset, ef.start, 11, ef.bounds)
        engine.begin(order=ef.order)
        dice = {k: (v,) for k, v in faces.items()}
        engine.act(Action("ana", "attack", "bo", dice=dice))
        assert engine.state.get("bo").hp == s.table.state.get("bo").hp == 5


def test_a_cancelled_or_refused_action_writes_nothing(s: Served) -> None:
    client = TestClient(s.app)
    seq = s.table.seq
    with (
        client.websocket_connect(f"/ws?token={s.gm}") as gm,
        client.websocket_connect(f"/ws?token={s.bo}") as sam,
    ):
        hello(gm)
        hello(sam)
        gm.send_json({"type": "dice", "id": 1, "seq": seq, "physical": True})
        until(gm, "done")
        attack = {"actor": "ana", "do": "attack", "target": "bo"}
        gm.send_json({"type": "act", "id": 2, "seq": seq, "action": attack})
        until(gm, "asked")
        gm.send_json(
            {"type": "act", "id": 3, "seq": seq, "action": {"actor": "ana", "do": "end_turn"}}
        )
        assert until(gm, "refused")["code"] == "dice_pending"
        sam.send_json({"type": "cancel", "id": 4, "seq": seq})
        assert until(sam, "refused")["code"] == "forbidden"
        gm.send_json({"type": "cancel", "id": 5, "seq": seq})
        until(gm, "done")
        assert s.table.pending is None and s.table.seq == seq
        gm.send_json({"type": "die", "id": 6, "seq": seq, "face": 3})
        assert until(gm, "refused")["code"] == "no_die_asked"
        # an action that needs no die is stored at once
        gm.send_json(
            {"type": "act", "id": 7, "seq": seq, "action": {"actor": "ana", "do": "end_turn"}}
        )
        assert until(gm, "done")["seq"] == seq + 1
        gm.send_json({"type": "die", "id": 8, "seq": seq + 1, "face": "six"})
        assert until(gm, "refused")["code"] == "bad_message"
