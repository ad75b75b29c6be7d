"""Issue 32, item 2: a flood of unknown tokens does not slow the game master.

A real ``fracas serve`` on a store of about a thousand encounters, each with its links;
a thousand requests with tokens no link has (100 at a time, to ``/t/``, ``/ws``,
``/map/`` and ``/api/``) while the game master's page asks for its state again and
again. An unknown token is answered from one indexed read of the store (not by reading
every encounter's links), so the game master's answers stay quick: counted, not summed.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import threading
import time
import urllib.request
from pathlib import Path

from websockets.asyncio.client import connect

from fracas.io.store import NewEncounter, open_store
from tests.web.multiprocess import FIGHT, Server

ENCOUNTERS = 1000
BAD = 1000
AT_ONCE = 100
SLOW = 0.5
"""A game master's answer slower than this is a slow one (seconds)."""


def old_links(n: int) -> bytes:
    """Links as a store of the previous fracas kept them (clear tokens): written through
    the store's API, as any fracas reads them."""
    links = {
        lid: {"id": lid, "name": name, "token": secrets.token_urlsafe(32), "owns": owns,
              "revoked": False}
        for lid, name, owns in (("gm", "gm", []), ("p1", f"P{n}", ["ana"]))
    }  # fmt: skip
    return json.dumps({"version": 2, "links": links}).encode()


def stored_encounters(db: Path, n: int) -> None:
    store = open_store(db, durable=False)
    try:
        for i in range(n):
            name = store.create(NewEncounter("other.yaml", FIGHT, "dice-combat", i), [])
            store.put_extra(name, "links", old_links(i))
    finally:
        store.close()


async def bad_request(port: int, i: int) -> None:
    token = secrets.token_urlsafe(32)
    kind = i % 4
    if kind == 1:
        async with connect(f"ws://127.0.0.1:{port}/ws?token={token}", open_timeout=60) as ws:
            refused = json.loads(await asyncio.wait_for(ws.recv(), 60))
            assert refused["code"] == "bad_token"
        return
    path = {0: f"/t/{token}", 2: f"/map/{token}", 3: "/api/state"}[kind]
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\n"
        "Connection: close\r\n\r\n".encode()
    )
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), 60)
    writer.close()
    assert answer.startswith(b"HTTP/1.1 403"), answer[:80]


async def flood(port: int) -> None:
    for start in range(0, BAD, AT_ONCE):
        await asyncio.gather(*(bad_request(port, i) for i in range(start, start + AT_ONCE)))


def test_a_flood_of_unknown_tokens_does_not_slow_the_game_master(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite3"
    stored_encounters(db, ENCOUNTERS)
    (tmp_path / "fight.yaml").write_text(FIGHT)
    server = Server(str(db), str(tmp_path / "fight.yaml"), tmp_path)
    try:
        gm = server.tokens["gm"]
        url = f"http://127.0.0.1:{server.port}/api/state"
        times: list[float] = []
        done = threading.Event()

        def game_master() -> None:
            while not done.is_set():
                request = urllib.request.Request(url, headers={"Authorization": f"Bearer {gm}"})
                began = time.perf_counter()
                with urllib.request.urlopen(request, timeout=60) as response:
                    assert response.status == 200
                    response.read()
                times.append(time.perf_counter() - began)
                time.sleep(0.02)

        watcher = threading.Thread(target=game_master)
        watcher.start()
        began = time.perf_counter()
        try:
            asyncio.run(flood(server.port))
        finally:
            took = time.perf_counter() - began
            done.set()
            watcher.join()
    finally:
        server.stop()
    slow = [t for t in times if t > SLOW]
    print(
        f"{ENCOUNTERS + 1} encounters, {BAD} unknown tokens {AT_ONCE} at a time in {took:.1f} s; "
        f"game master: {len(times)} answers, {len(slow)} over {SLOW} s, slowest "
        f"{max(times):.3f} s, median {sorted(times)[len(times) // 2]:.3f} s"
    )
    assert len(times) >= 5
    # one slow answer may be the machine's (a busy runner); before issue 32 most were
    assert len(slow) <= 1, (
        f"{len(slow)} of the game master's {len(times)} answers took over {SLOW} s"
    )
