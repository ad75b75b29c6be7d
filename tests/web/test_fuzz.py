"""A bounded fuzz of the WebSocket and HTTP API (Starlette's TestClient: a server
exception fails the test): random and malformed messages, wrong types, huge payloads,
nesting too deep, binary frames, replayed seqs, floods, forged and revoked tokens. No
crash, no traceback in any reply, every refusal a code and a message, and nothing a
player may not see or do: enemies' exact HP never reaches a player's page, and every
stored record taken by a player is one of its own combatants'.

Each test prints its counts (``-s`` shows them)."""

from __future__ import annotations

import json
import random
import string
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import fracas.web.live
from fracas.web.live import MAX_MESSAGE, RATE
from tests.web.support import Served, served

IDS = ["ana", "bo", "cy", "zed", "", "ANA", "../etc", "ana\x00", "💥"]
DOS = ["attack", "move", "end_turn", "reload", "add", "damage", "heal", "set", "aim", "x"]
SECRET_KEYS = ("hp", "max_hp", "fields", "ranges")
"""What a player's page never gets of a combatant it does not play on another side."""


@pytest.fixture
def s(tmp_path: Path) -> Any:
    with served(tmp_path) as it:
        yield it


def junk(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON value."""
    kind = rng.randrange(9 if depth < 4 else 5)
    if kind == 0:
        return rng.choice([None, True, False])
    if kind == 1:
        return rng.choice([0, -1, 1, 2**63, -(2**70), 7])
    if kind == 2:
        return rng.choice([0.5, -1e308, 1e308, 3.0])
    if kind in (3, 4):
        alphabet = string.printable + "é💥\x00\u202e"
        return "".join(rng.choice(alphabet) for _ in range(rng.randrange(12)))
    if kind in (5, 6):
        return [junk(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = ["actor", "do", "target", "at", "amount", "hp", "edge", "combatant", "dice", "x"]
    return {rng.choice(keys): junk(rng, depth + 1) for _ in range(rng.randrange(5))}


def action(rng: random.Random) -> Any:
    """An action that is often almost right."""
    out: dict[str, Any] = {"actor": rng.choice(IDS), "do": rng.choice(DOS)}
    for key in rng.sample(["target", "at", "amount", "hp", "edge", "dice", "combatant"], 2):
        out[key] = rng.choice(
            [
                rng.choice(IDS),
                [rng.randrange(-3, 9), rng.randrange(-3, 9)],
                rng.randrange(-5, 30),
                junk(rng),
            ]
        )
    return out if rng.random() < 0.9 else junk(rng)


def good(rng: random.Random, turn: str) -> dict[str, Any]:
    """An action the rules take (from the right page)."""
    return rng.choice(
        [
            {"actor": "bo", "do": rng.choice(["heal", "damage"]), "amount": 1},
            {"actor": "ana", "do": "attack", "target": "bo"},
            {"actor": "bo", "do": "attack", "target": "ana"},
            {"actor": turn, "do": "end_turn"},
        ]
    )


def message(rng: random.Random, seq: int, turn: str) -> str | bytes:
    """One random frame from a page."""
    pick = rng.randrange(14)
    if pick >= 12:
        return json.dumps({"type": "act", "id": 3, "seq": seq, "action": good(rng, turn)})
    near = rng.choice([seq, seq, seq, seq - 1, seq + 1, 0, -5, 2**40])
    wrong = rng.choice([str(seq), None, 1.5, [seq], {"seq": seq}, True])
    if pick <= 3:
        return json.dumps(
            {"type": "act", "id": rng.randrange(99), "seq": near, "action": action(rng)}
        )
    if pick == 4:
        return json.dumps({"type": rng.choice(["undo", "redo"]), "id": 1, "seq": near})
    if pick == 5:
        return json.dumps({"type": "odds", "id": 2, "seq": near, "action": action(rng)})
    if pick == 6:  # wrong types where the protocol names one
        return json.dumps(
            {"type": rng.choice(["act", "hello", "odds", 3, None, ["act"]]), "seq": wrong}
            | ({"action": junk(rng)} if rng.random() < 0.5 else {})
        )
    if pick == 7:
        return json.dumps(junk(rng))
    if pick == 8:  # malformed: truncated, or not JSON at all
        text = json.dumps({"type": "act", "seq": seq, "action": action(rng)})
        return text[: rng.randrange(len(text))] if rng.random() < 0.5 else "<script>{"
    if pick == 9:  # too big, or nested too deep
        if rng.random() < 0.5:
            return json.dumps({"type": "act", "seq": seq, "pad": "x" * (MAX_MESSAGE + 1)})
        return "[" * rng.choice([2000, 10_000]) + "]" * 10
    if pick == 10:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
    return json.dumps({"type": "hello", "seq": rng.choice([seq, 0, -1, 2**64, "x", None])})


def check(reply: dict[str, Any], sides: set[str] | None, counts: Counter[str]) -> None:
    """No traceback, a code and a message on every refusal, no enemy secret to a player."""
    text = json.dumps(reply)
    assert "Traceback" not in text and 'File "' not in text, text[:300]
    if reply["type"] == "refused":
        assert isinstance(reply["code"], str) and isinstance(reply["message"], str)
        counts[f"refused {reply['code']}"] += 1
    if sides is not None and reply["type"] == "sync":
        for c in reply["state"]["combatants"]:
            if not c["mine"] and c["side"] not in sides:
                leaked = [k for k in SECRET_KEYS if k in c]
                counts["leaks"] += bool(leaked)
                assert not leaked, (c["id"], leaked)


def test_random_and_malformed_messages_never_crash_or_leak(
    s: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    """1,800 random frames from the game master's and both players' pages (the rate
    limit lifted, to reach everything past it). After each, a marker message (an unknown
    type with its own id) is answered: the server is still there and answering."""
    monkeypatch.setattr(fracas.web.live, "RATE", (10**9, 5.0))
    rng = random.Random(14)
    counts: Counter[str] = Counter()
    client = TestClient(s.app)
    pages = [(s.gm, None), (s.ana, {"players"}), (s.bo, {"raiders"})]
    for round_ in range(6):
        for token, sides in pages:
            with client.websocket_connect(f"/ws?token={token}") as ws:
                ws.send_json({"type": "hello", "seq": 0})
                hello = ws.receive_json()
                seq, turn = hello["seq"], hello["state"]["turn"]
                for i in range(100):
                    frame = message(rng, seq, turn)
                    if isinstance(frame, bytes):
                        ws.send_bytes(frame)
                    else:
                        ws.send_text(frame)
                    counts["sent"] += 1
                    marker = f"m{round_}.{i}"
                    ws.send_json({"type": "ping", "id": marker})
                    while True:
                        reply = ws.receive_json()
                        check(reply, sides, counts)
                        counts[reply["type"]] += 1
                        if reply["type"] == "sync":
                            seq, turn = reply["seq"], reply["state"]["turn"]
                        if reply.get("id") == marker:
                            break
    for record in s.table.store.load("fight").records:  # what players did was theirs to do
        if record["kind"] == "action" and record.get("by") in ("Pat", "Sam"):
            assert record["action"]["actor"] == {"Pat": "ana", "Sam": "bo"}[record["by"]]
    print(f"fuzz: {dict(sorted(counts.items()))}; crashes 0, leaks {counts['leaks']}")
    assert counts["sent"] == 1800 and counts["leaks"] == 0
    assert counts["done"] > 0  # some of it was right: the fuzz reached the rules


def test_a_flood_is_refused_too_fast_and_the_page_goes_on(s: Served) -> None:
    client = TestClient(s.app)
    count, _ = RATE
    with client.websocket_connect(f"/ws?token={s.ana}") as ws:
        for _ in range(count + 20):
            ws.send_json({"type": "ping", "id": 0})
        codes = Counter(ws.receive_json()["code"] for _ in range(count + 20))
    assert codes == {"unknown_message": count, "too_fast": 20}
    print(f"flood: {count + 20} messages, {codes['too_fast']} refused too_fast")


def test_a_replayed_seq_is_moved_on_and_stored_once(s: Served) -> None:
    client = TestClient(s.app)
    with client.websocket_connect(f"/ws?token={s.gm}") as ws:
        ws.send_json({"type": "hello", "seq": 0})
        seq = ws.receive_json()["seq"]
        act = {"type": "act", "id": 1, "seq": seq, "action": {"actor": "bo", "do": "damage"}}
        act["action"]["amount"] = 1
        replies = []
        for _ in range(3):
            ws.send_json(act)
            while (reply := ws.receive_json())["type"] == "sync":
                pass
            replies.append(reply)
    assert [r["type"] for r in replies] == ["done", "refused", "refused"]
    assert {r["code"] for r in replies[1:]} == {"moved_on"}
    assert s.table.seq == seq + 1


def test_forged_and_revoked_tokens_open_nothing(s: Served) -> None:
    rng = random.Random(3)
    client = TestClient(s.app, raise_server_exceptions=True)
    forged = [s.gm[:-1] + ("A" if s.gm[-1] != "A" else "B"), "", "x" * 5000, "%00", s.gm.upper()]
    forged += ["".join(rng.choice(string.ascii_letters) for _ in range(43)) for _ in range(20)]
    statuses: Counter[int] = Counter()
    for token in forged:
        for path in ("/api/state", "/api/links", "/api/export"):
            r = client.get(path, headers={"Authorization": f"Bearer {token}"})
            statuses[r.status_code] += 1
            assert r.status_code == 403 and r.json()["code"] == "bad_token"
        assert client.get(f"/t/{token}").status_code in (403, 404)
        with client.websocket_connect(f"/ws?token={token}") as ws:
            assert ws.receive_json()["code"] == "bad_token"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4403
    # a player's token on the game master's API
    for method, path in (("GET", "/api/links"), ("POST", "/api/links"), ("GET", "/api/export")):
        r = client.request(method, path, headers={"Authorization": f"Bearer {s.ana}"}, json={})
        assert r.status_code == 403 and r.json()["code"] == "forbidden"
    # a huge or deeply nested body
    gm = {"Authorization": f"Bearer {s.gm}"}
    assert client.post("/api/links", headers=gm, content=b"x" * 2**20).json()["code"] == "too_big"
    assert client.post("/api/links", headers=gm, content=b"[" * 9000).json()["code"] == "bad_json"
    # revoked while its page is open: the page is closed, the token refused from then on
    link = next(li for li in s.links.of("fight") if li.name == "Pat")
    with client.websocket_connect(f"/ws?token={s.ana}") as page:
        page.send_json({"type": "hello", "seq": 0})
        page.receive_json()
        assert client.delete(f"/api/links/{link.id}", headers=gm).status_code == 200
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                page.receive_json()
        assert closed.value.code == 4403
    assert client.get("/api/state", headers={"Authorization": f"Bearer {s.ana}"}).status_code == 403
    print(f"forged tokens: {len(forged)} x 3 API paths + page + socket: {dict(statuses)}")
