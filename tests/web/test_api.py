"""``fracas serve`` without a browser: the HTTP API and the socket protocol through
Starlette's test client. Permissions are enforced on the server (a player acting for
another's combatant, a revoked link, undoing the game master's action), refusals
carry their code and write nothing, and a player's socket never receives hidden HP."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from fracas.model import Action
from fracas.table import Identity, TableService, View
from fracas.web.links import Links
from fracas.web.live import MAX_MESSAGE
from fracas.web.shown import page_lines
from tests.web.support import Served, served


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def hello(ws: Any, seq: int = 0) -> dict[str, Any]:
    ws.send_json({"type": "hello", "seq": seq})
    message: dict[str, Any] = ws.receive_json()
    assert message["type"] == "sync"
    return message


def until(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` (syncs pushed in between are skipped)."""
    for _ in range(10):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind!r} message")


def attack(seq: int, actor: str = "ana", target: str = "bo", ident: int = 1) -> dict[str, Any]:
    action = {"actor": actor, "do": "attack", "target": target}
    return {"type": "act", "id": ident, "seq": seq, "action": action}


@pytest.fixture
def s(tmp_path: Path) -> Any:
    with served(tmp_path) as it:
        yield it


def test_the_page_opens_for_a_link_and_not_for_a_guess(s: Served) -> None:
    client = TestClient(s.app)
    page = client.get(f"/t/{s.ana}")
    assert page.status_code == 200 and "<svg" in page.text
    assert client.get("/t/not-a-token").status_code == 403
    assert client.get("/static/app.js").status_code == 200


def test_state_is_projected_per_link(s: Served) -> None:
    client = TestClient(s.app)
    gm = client.get("/api/state", headers=bearer(s.gm)).json()
    pat = client.get("/api/state", headers=bearer(s.ana)).json()
    bo_gm = next(c for c in gm["combatants"] if c["id"] == "bo")
    bo_pat = next(c for c in pat["combatants"] if c["id"] == "bo")
    cy_pat = next(c for c in pat["combatants"] if c["id"] == "cy")
    assert (bo_gm["hp"], bo_gm["max_hp"]) == (12, 12)
    assert "hp" not in bo_pat and "fields" not in bo_pat and bo_pat["hp_label"] == "healthy"
    assert cy_pat["hp"] == 12  # Cy is on Pat's side: exact
    assert pat["you"] == {
        "name": "Pat",
        "role": "player",
        "owns": ["ana"],
        "undo": False,
        "redo": False,
        "advise": False,  # the table's policy `advisor` is off by default (issue 23)
        "end_turn": True,  # Ana's turn, and the fight goes on (issue 35)
    }
    assert gm["you"]["advise"] is True
    assert client.get("/api/state").status_code == 403


def test_the_game_master_makes_assigns_and_revokes_links(s: Served) -> None:
    client = TestClient(s.app)
    made = client.post("/api/links", headers=bearer(s.gm), json={"name": "Lee", "owns": ["cy"]})
    assert made.status_code == 200
    link = made.json()
    assert link["owns"] == ["cy"] and len(link["token"]) >= 43  # 256 bits, URL-safe
    lee = link["token"]
    assert client.get("/api/state", headers=bearer(lee)).json()["you"]["owns"] == ["cy"]
    moved = client.post(f"/api/links/{link['id']}", headers=bearer(s.gm), json={"owns": ["bo"]})
    assert moved.json()["owns"] == ["bo"]
    # a player may not manage links; a bad combatant is named
    refused = client.post("/api/links", headers=bearer(s.ana), json={"name": "X"})
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
    bad = client.post("/api/links", headers=bearer(s.gm), json={"name": "Y", "owns": ["zed"]})
    assert bad.json()["code"] == "unknown_combatant" and "'zed'" in bad.json()["message"]
    assert client.delete(f"/api/links/{link['id']}", headers=bearer(s.gm)).status_code == 200
    gone = client.get("/api/state", headers=bearer(lee))
    assert gone.status_code == 403 and gone.json()["code"] == "bad_token"
    listed = client.get("/api/links", headers=bearer(s.gm)).json()
    assert [(x["name"], x["revoked"]) for x in listed] == [
        ("Pat", False),
        ("Sam", False),
        ("Lee", True),
    ]
    # every live link listed with its address and QR code, never a revoked one's
    assert [x["url"] for x in listed[:2]] == [
        f"http://testserver/t/{s.ana}",
        f"http://testserver/t/{s.bo}",
    ]
    assert listed[0]["qr"].startswith("<svg") and "<title>Pat's link</title>" in listed[0]["qr"]
    assert "url" not in listed[2] and "qr" not in listed[2]
    # kept with the encounter in its store (a second server on it reads the same)
    assert s.links.store is not None
    kept = json.loads(s.links.store.extra("fight", "links") or b"{}")["links"]
    assert kept["p3"]["revoked"] is True and "token" not in kept["p1"]  # sealed, issue 32
    assert Links(s.links.store, s.links.secret).identify(s.ana)[1].id == "p1"


def test_a_player_acts_for_its_own_and_is_refused_for_another(s: Served) -> None:
    client = TestClient(s.app)
    with client.websocket_connect(f"/ws?token={s.bo}") as sam:
        seq = hello(sam)["seq"]
        sam.send_json(attack(seq, actor="ana", target="bo"))
        refused = until(sam, "refused")
        assert refused["code"] == "forbidden" and "'ana'" in refused["message"]
        assert s.table.seq == seq  # nothing written
    with client.websocket_connect(f"/ws?token={s.ana}") as pat:
        seq = hello(pat)["seq"]
        pat.send_json(attack(seq))
        done = until(pat, "done")
        assert done["seq"] == seq + 1 == s.table.seq
        assert s.table.log[-1].by == "Pat"


def test_every_page_of_the_table_hears_a_change(s: Served) -> None:
    client = TestClient(s.app)
    with (
        client.websocket_connect(f"/ws?token={s.gm}") as gm,
        client.websocket_connect(f"/ws?token={s.ana}") as pat,
    ):
        seq = hello(gm)["seq"]
        hello(pat)
        pat.send_json(attack(seq))
        pushed = until(gm, "sync")
        bo = next(c for c in pushed["state"]["combatants"] if c["id"] == "bo")
        assert pushed["seq"] == seq + 1
        assert bo["hp"] == s.table.state.get("bo").hp
        assert pushed["lines"][0]["text"] == "Ana attacks Bo"
        assert pushed["lines"][0]["tone"] == "title"


def test_a_page_that_reconnects_catches_up_from_its_seq(s: Served) -> None:
    client = TestClient(s.app)
    with client.websocket_connect(f"/ws?token={s.gm}") as gm:
        first = hello(gm)
        seq = first["seq"]
        gm.send_json(attack(seq))
        until(gm, "done")
    with client.websocket_connect(f"/ws?token={s.gm}") as gm:
        again = hello(gm, seq)
        assert again["seq"] == seq + 1
        assert {line["seq"] for line in again["lines"]} == {seq}  # only what it missed


def test_refusals_carry_their_code_and_write_nothing(s: Served) -> None:
    client = TestClient(s.app)
    with client.websocket_connect(f"/ws?token={s.ana}") as pat:
        seq = hello(pat)["seq"]
        cases: list[tuple[str, str]] = [
            ("{not json", "bad_json"),
            ("[1]", "bad_message"),
            (json.dumps({"type": "shout"}), "unknown_message"),
            (json.dumps({"type": "act", "seq": seq}), "bad_message"),
            (json.dumps(attack(seq - 1)), "moved_on"),
            (
                json.dumps({**attack(seq), "action": {"actor": "ana", "do": "dance"}}),
                "unknown_action",
            ),
            (json.dumps({"type": "undo", "seq": seq}), "forbidden"),  # the GM's start record
            ("x" * (MAX_MESSAGE + 1), "too_big"),
        ]
        for text, code in cases:
            pat.send_text(text)
            assert until(pat, "refused")["code"] == code, text
        assert s.table.seq == seq


def test_a_flood_is_refused(s: Served) -> None:
    client = TestClient(s.app)
    with client.websocket_connect(f"/ws?token={s.ana}") as pat:
        codes = []
        for _ in range(32):
            pat.send_text(json.dumps({"type": "shout"}))
            codes.append(until(pat, "refused")["code"])
        assert codes.count("too_fast") == 2 and codes[0] == "unknown_message"


def test_a_revoked_link_is_refused_and_its_socket_closed(s: Served) -> None:
    client = TestClient(s.app)
    with client.websocket_connect(f"/ws?token={s.ana}") as pat:
        hello(pat)
        client.delete("/api/links/p1", headers=bearer(s.gm))
        with pytest.raises(WebSocketDisconnect) as closed:
            pat.receive_json()
        assert closed.value.code == 4403
    with client.websocket_connect(f"/ws?token={s.ana}") as pat:
        message = pat.receive_json()
        assert (message["type"], message["code"]) == ("refused", "bad_token")


def test_odds_come_back_as_fracas_odds_gives_them(s: Served) -> None:
    client = TestClient(s.app)
    with client.websocket_connect(f"/ws?token={s.gm}") as gm:
        seq = hello(gm)["seq"]
        gm.send_json({**attack(seq), "type": "odds"})
        odds = until(gm, "odds")["odds"]
    assert odds == s.table.odds(Action("ana", "attack", "bo")).to_json()


HP_LINE = re.compile(r"Bo takes \d+ damage.*HP \d+ -> \d+")


@pytest.mark.parametrize("shown", ["label", "hidden"])
def test_a_players_socket_never_receives_enemy_hp(tmp_path: Path, shown: str) -> None:
    """Over a whole session of attacks on Bo, Pat's socket never carries Bo's HP: no
    ``hp`` of Bo, no log line with his HP, no chance that he goes down; the game
    master's does."""
    with served(tmp_path, policy={"enemy_hp": shown}) as s:
        client = TestClient(s.app)
        heard: list[str] = []
        with (
            client.websocket_connect(f"/ws?token={s.gm}") as gm,
            client.websocket_connect(f"/ws?token={s.ana}") as pat,
        ):
            hello(gm)
            heard.append(json.dumps(hello(pat)))

            def hear(kind: str, seq: int) -> None:
                """Keep Pat's messages up to one of ``kind`` (at ``seq`` for a sync)."""
                while True:
                    message = pat.receive_json()
                    heard.append(json.dumps(message))
                    if message["type"] == kind and (kind != "sync" or message["seq"] == seq):
                        return

            attacked = False
            for i in range(8):
                seq = s.table.seq
                actor = s.table.state.turn.actor
                attacked = actor == "ana" and not attacked
                if attacked:
                    pat.send_json({**attack(seq), "type": "odds"})
                    hear("odds", seq)
                    pat.send_json(attack(seq, ident=i))
                else:
                    end = {"actor": actor, "do": "end_turn"}
                    gm.send_json({"type": "act", "id": i, "seq": seq, "action": end})
                hear("sync", seq + 1)
            for i, edit in enumerate(
                [{"do": "damage", "amount": 1}, {"do": "set", "hp": 2}, {"do": "heal", "amount": 1}]
            ):
                seq = s.table.seq
                gm.send_json(
                    {"type": "act", "id": i, "seq": seq, "action": {"actor": "bo", **edit}}
                )
                hear("sync", seq + 1)
            zed = {"id": "zed", "name": "Zed", "side": "raiders", "hp": 7, "at": [5, 5]}
            add = {"actor": "ana", "do": "add", "combatant": zed}
            seq = s.table.seq
            gm.send_json({"type": "act", "id": 8, "seq": seq, "action": add})
            hear("sync", seq + 1)
            seq = s.table.seq
            gm.send_json({"type": "undo", "id": 9, "seq": seq})
            hear("sync", seq + 1)
        gm_log = [line["text"] for line in page_lines(View(s.table.snapshot(), Identity.gm()))]
        assert s.table.state.get("bo").hp < 12  # Bo was hurt
        assert any(HP_LINE.search(t) for t in gm_log)
        assert any(t.startswith("The game master adds Zed (raiders, HP 7/12)") for t in gm_log)
        assert "The game master sets Bo's HP to 2" in gm_log and s.table.state.get("bo").hp == 3
        for text in heard:
            message = json.loads(text)
            for c in message.get("state", {}).get("combatants", []):
                if c["id"] == "bo":
                    assert "hp" not in c and "max_hp" not in c and "fields" not in c
                    assert ("hp_label" in c) == (shown == "label")
            for line in message.get("lines", []):
                assert not HP_LINE.search(line["text"]), line
                assert "amount=" not in line["text"] and "hp=" not in line["text"], line
                assert "'hp'" not in line["text"] and "HP 7" not in line["text"], line
                assert "HP 2 ->" not in line["text"] and "-> 2" not in line["text"], line
            if message["type"] == "odds":
                assert "down" not in message["odds"]["combatants"]["bo"]


def test_a_page_hears_what_another_process_wrote(s: Served) -> None:
    """An encounter is shared with `fracas play`: a write through another table service
    on the same store (another process) reaches the page within a poll."""
    other = TableService(s.table.store)
    client = TestClient(s.app)
    with client.websocket_connect(f"/ws?token={s.gm}") as gm:
        seq = hello(gm)["seq"]
        other.open("fight").act(Action("ana", "attack", "bo"))
        pushed = until(gm, "sync")
        assert pushed["seq"] == seq + 1
        assert pushed["lines"][0]["text"] == "Ana attacks Bo"


def test_a_player_sees_the_ranges_of_its_own_combatants_only(s: Served) -> None:
    # DC-A5: rings of what each holds; Pat plays Ana (a pistol), the GM sees every one.
    client = TestClient(s.app)
    gm = client.get("/api/state", headers=bearer(s.gm)).json()
    pat = client.get("/api/state", headers=bearer(s.ana)).json()
    assert gm["metric"] == pat["metric"] == "chebyshev"
    seen = {c["id"]: c.get("ranges") for c in pat["combatants"]}
    assert seen == {
        "ana": [
            {"label": "pistol close", "tiles": 5},
            {"label": "pistol medium", "tiles": 12},
            {"label": "pistol long", "tiles": 15},
        ],
        "bo": None,
        "cy": None,  # Pat's side, but not Pat's combatant
    }
    every = {c["id"]: c["ranges"] for c in gm["combatants"]}
    assert every["bo"] == [{"label": "one-handed melee reach", "tiles": 1}]
    assert every["cy"] == [{"label": "one-handed melee reach", "tiles": 1}]
    with client.websocket_connect(f"/ws?token={s.bo}") as ws:
        sync = hello(ws)
        assert [c["id"] for c in sync["state"]["combatants"] if "ranges" in c] == ["bo"]
