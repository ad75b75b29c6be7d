"""The page's socket as Starlette's WebSocket endpoint (:class:`fracas.web.live.Socket`):
each frame read once by the guard whatever its kind (a binary frame and bad JSON
answered, the socket kept), a refused token closed 4403, frames that meet a socket
the server closed dropped, and every page leaving the hub (and its table's feed) when
its socket ends. In Starlette's TestClient and on a real server (uvicorn, as
``fracas serve`` configures it)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from starlette.endpoints import WebSocketEndpoint
from starlette.routing import WebSocketRoute
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

import fracas.web.live
from fracas.web.guard import json_object, server_config
from fracas.web.live import Hub, Socket
from fracas.web.serve import free_port
from tests.web.support import Served, served


@pytest.fixture
def s(tmp_path: Path) -> Iterator[Served]:
    with served(tmp_path) as it:
        yield it


def hub_of(s: Served) -> Hub:
    hub: Hub = s.app.state.hub
    return hub


def hello(ws: Any, seq: int = 0) -> dict[str, Any]:
    ws.send_json({"type": "hello", "seq": seq})
    message: dict[str, Any] = ws.receive_json()
    assert message["type"] == "sync"
    return message


def test_the_socket_route_is_starlettes_endpoint(s: Served) -> None:
    (route,) = [r for r in s.app.routes if isinstance(r, WebSocketRoute)]
    assert route.path == "/ws" and route.endpoint is Socket
    assert issubclass(Socket, WebSocketEndpoint) and Socket.encoding is None


def test_each_frame_is_parsed_once_by_the_guard(s: Served, monkeypatch: pytest.MonkeyPatch) -> None:
    parsed: list[str | bytes] = []
    real = json_object

    def counted(raw: str | bytes, *args: Any, **kwargs: Any) -> dict[str, Any]:
        parsed.append(raw)
        return real(raw, *args, **kwargs)

    monkeypatch.setattr(fracas.web.live, "json_object", counted)
    with TestClient(s.app).websocket_connect(f"/ws?token={s.gm}") as gm:
        seq = hello(gm)["seq"]
        act = {"type": "act", "id": 1, "seq": seq, "action": {"actor": "bo", "do": "end_turn"}}
        gm.send_json(act | {"action": {"actor": "bo", "do": "damage", "amount": 1}})
        while (reply := gm.receive_json())["type"] == "sync":
            pass
        assert reply["type"] == "done"
    assert len(parsed) == 2  # the hello and the act: one parse each


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        (b'{"type": "hello", "seq": 0}', "bad_message"),  # binary: Starlette's "text" closes
        ("{not json", "bad_json"),  # Starlette's "json" closes
        ("[" * 10_000, "bad_json"),  # past the parser's recursion: still an answer
        ("[1]", "bad_message"),
    ],
)
def test_a_bad_frame_is_answered_and_the_socket_kept(
    s: Served, frame: str | bytes, code: str
) -> None:
    with TestClient(s.app).websocket_connect(f"/ws?token={s.ana}") as pat:
        hello(pat)
        if isinstance(frame, bytes):
            pat.send_bytes(frame)
        else:
            pat.send_text(frame)
        reply = pat.receive_json()
        assert (reply["type"], reply["id"], reply["code"]) == ("refused", None, code)
        assert hello(pat)["seq"] == s.table.seq  # still open, still answering


def test_a_page_leaves_the_hub_and_the_feed_when_its_socket_ends(s: Served) -> None:
    hub = hub_of(s)
    client = TestClient(s.app)
    with (
        client.websocket_connect(f"/ws?token={s.gm}") as gm,
        client.websocket_connect(f"/ws?token={s.ana}") as pat,
    ):
        hello(gm)
        hello(pat)
        assert len(hub.pages["fight"]) == 2 and "fight" in hub._stops
    assert hub.pages.get("fight", set()) == set() and hub._stops == {}


def test_a_refused_token_joins_nothing(s: Served) -> None:
    hub = hub_of(s)
    with TestClient(s.app).websocket_connect("/ws?token=nope") as ws:
        reply = ws.receive_json()
        assert (reply["type"], reply["id"], reply["code"]) == ("refused", None, "bad_token")
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
        assert hub.pages == {}
        ws.send_text(json.dumps({"type": "hello", "seq": 0}))  # after the close: dropped


def test_frames_after_a_revoke_are_dropped(s: Served) -> None:
    """The server closed the page's socket (its link revoked); what the page had sent
    meanwhile is dropped, not read (a second close would be an error)."""
    hub = hub_of(s)
    client = TestClient(s.app)
    link = next(li for li in s.links.of("fight") if li.name == "Pat")
    with client.websocket_connect(f"/ws?token={s.ana}") as pat:
        hello(pat)
        headers = {"Authorization": f"Bearer {s.gm}"}
        assert client.delete(f"/api/links/{link.id}", headers=headers).status_code == 200
        with pytest.raises(WebSocketDisconnect) as closed:
            pat.receive_json()
        assert closed.value.code == 4403
        for _ in range(3):
            pat.send_text(json.dumps({"type": "hello", "seq": 0}))
    assert hub.pages.get("fight", set()) == set()  # it left; no server error was raised


# --- on a real server --------------------------------------------------------------


@pytest.fixture
def live(s: Served) -> Iterator[str]:
    """The app served by uvicorn as ``fracas serve`` serves it; its ``ws://`` base."""
    port = free_port("127.0.0.1")
    server = uvicorn.Server(server_config(s.app, host="127.0.0.1", port=port))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield f"ws://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)
        assert not thread.is_alive(), "the server did not stop"


def recv(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(20):
        message: dict[str, Any] = json.loads(ws.recv(timeout=10))
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind!r} message")


def test_on_a_real_server_an_action_goes_through_and_bad_frames_are_answered(
    s: Served, live: str
) -> None:
    with connect(f"{live}/ws?token={s.gm}") as gm:
        gm.send(json.dumps({"type": "hello", "seq": 0}))
        seq = recv(gm, "sync")["seq"]
        action = {"actor": "bo", "do": "damage", "amount": 1}
        gm.send(json.dumps({"type": "act", "id": 7, "seq": seq, "action": action}))
        assert recv(gm, "done") == {"type": "done", "id": 7, "seq": seq + 1}
        assert recv(gm, "sync")["seq"] == seq + 1  # the feed's push
        gm.send(b"\x00\x01")
        assert recv(gm, "refused")["message"] == "a message is a text frame of JSON, not binary"
        gm.send("{not json")
        refused = recv(gm, "refused")
        assert refused["code"] == "bad_json" and refused["message"].startswith("not JSON: ")
    assert s.table.seq == seq + 1


def test_on_a_real_server_a_bad_token_is_closed_4403_and_nothing_joins(
    s: Served, live: str
) -> None:
    with connect(f"{live}/ws?token=nope") as ws:
        assert json.loads(ws.recv(timeout=10))["code"] == "bad_token"
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
    hub = hub_of(s)
    with connect(f"{live}/ws?token={s.ana}") as pat:
        pat.send(json.dumps({"type": "hello", "seq": 0}))
        recv(pat, "sync")
        assert set(hub.pages) == {"fight"}
    deadline = time.monotonic() + 10
    while hub.pages.get("fight"):  # the page left as its socket closed
        assert time.monotonic() < deadline, "the page never left the hub"
        time.sleep(0.02)
    assert hub._stops == {}


def test_a_socket_error_leaves_no_page(s: Served, monkeypatch: pytest.MonkeyPatch) -> None:
    """A page whose message fails unexpectedly still leaves the hub (Starlette's
    endpoint calls its ``on_disconnect`` on the way out)."""
    hub = hub_of(s)

    async def broken(self: Any, message: dict[str, Any]) -> None:
        raise RuntimeError("broken")  # no refusal: a fault

    monkeypatch.setattr(fracas.web.live.Page, "_dispatch", broken)
    with (
        pytest.raises(RuntimeError),
        TestClient(s.app).websocket_connect(f"/ws?token={s.gm}") as gm,
    ):
        gm.send_json({"type": "hello", "seq": 0})
        gm.receive_json()
    assert hub.pages.get("fight", set()) == set()
