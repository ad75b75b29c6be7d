"""Issue 32, item 11: a page that closes while its win bar is worked out and sent.
Seen as ``Task exception was never retrieved … WinBars._finish … WebSocketDisconnect``
when pages closed under load: the bar's send met a socket the client had closed
before the socket's own task had left the table. Here, on a real server (uvicorn,
a real socket), the bar is held while it is worked out, the page closes, its leaving
is put off a moment (the window the race has under load, made wide), and the bar is
let go: its send meets the closed socket. No task's error may be logged, and the
server still serves the next page its bar."""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import threading
import time
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

from fracas.lab import bar
from fracas.lab.bar import bar_in_worker
from tests.web.test_browser import Server

DUEL = """\
ruleset: dice-combat
seed: 5
order: [ana, bo]
combatants:
  - {id: ana, name: Ana, side: players, at: [0, 0], hp: 4, max_hp: 4, hand: club}
  - {id: bo, name: Bo, side: raiders, at: [1, 0], hp: 4, max_hp: 4, hand: knife}
"""


def receive(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(20):
        message: dict[str, Any] = json.loads(ws.recv(timeout=20))
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind!r} message")


def test_a_page_closed_while_its_bar_is_sent_logs_no_task_error(
    tmp_path: Path, monkeypatch: Any, caplog: Any
) -> None:
    caplog.set_level(logging.ERROR)
    started, release = threading.Event(), threading.Event()

    def held(*args: Any) -> dict[str, Any]:
        started.set()
        release.wait(20)
        return bar_in_worker(*args)

    monkeypatch.setattr(bar, "bar_in_worker", held)  # the table asks it of the lab when asked
    server = Server(tmp_path, DUEL, win_bar=True)
    try:
        app: Any = server.server.config.app
        hub = app.state.hub
        real_leave = hub.leave
        left = threading.Event()
        gone = threading.Event()

        def leave_now(page: Any) -> None:
            real_leave(page)
            gone.set()

        def later(page: Any) -> None:  # the page's leaving, put off past the bar's send
            asyncio.get_running_loop().call_later(1.0, leave_now, page)
            left.set()

        monkeypatch.setattr(hub, "leave", later)
        url = server.base.replace("http", "ws") + f"/ws?token={server.gm}"
        with connect(url) as page:
            page.send(json.dumps({"type": "hello", "seq": 0, "winbar": True}))
            receive(page, "sync")
            assert started.wait(20)  # the bar is being worked out
        assert left.wait(10)  # the page closed; its socket's task is done with it
        release.set()  # the bar's send now meets the closed socket
        # the page's leaving done, and the bar's send (the hub's task) with it
        assert gone.wait(10)
        deadline = time.monotonic() + 10
        while hub._tasks:  # the tasks the hub spawned and holds until they end
            assert time.monotonic() < deadline, "the bar's send never ended"
            time.sleep(0.01)
        gc.collect()  # a task's error no one retrieved is logged when it is collected
        monkeypatch.setattr(hub, "leave", real_leave)
        with connect(url) as again:  # the server still serves, the bar too
            again.send(json.dumps({"type": "hello", "seq": 0, "winbar": True}))
            assert receive(again, "sync")["seq"] >= 1
            assert receive(again, "winbar")["bar"] is not None
    finally:
        release.set()
        server.stop()
    gc.collect()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not [r.getMessage() for r in errors], [r.getMessage() for r in errors]
