"""Real ``fracas serve`` processes on one store, and pages that talk to them over real
WebSockets (loopback): for the cross-process tests (``test_multiprocess*.py``) and the
stress and load scripts (``bench/stress_pg.py``, ``bench/bench_serve.py``).

The servers share the store and the links file (``XDG_DATA_HOME`` points both at one
directory: a PostgreSQL store's links file lives in the user's data directory). Each
start of ``fracas serve`` mints new tokens, so the tokens to use are the last server's:
the earlier servers re-read the links file and accept them too.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from contextlib import ExitStack, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from fracas.web.serve import free_port
from tests.web.support import FIGHT  # the same fight as the in-process web tests

__all__ = ["FIGHT", "Page", "PageGone", "Server", "Trial", "add_action", "session", "trial"]

ROOT = Path(__file__).parents[2]


class PageGone(Exception):
    """The page's socket closed or could not open (its server is gone)."""


class Server:
    """One ``fracas serve`` process on 127.0.0.1; ``tokens`` by link name (``gm``,
    ``Ana (ana)``, ...)."""

    def __init__(self, db: str, target: str, home: Path, *args: str, root: Path = ROOT) -> None:
        """``root``: the tree whose fracas serves (another commit's, for a benchmark's
        "before")."""
        self.port = free_port("127.0.0.1")
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "XDG_DATA_HOME": str(home)}
        env["PYTHONPATH"] = str(root) + os.pathsep + env.get("PYTHONPATH", "")
        command = [sys.executable, "-m", "fracas", "serve", target, "--db", db]
        self.proc = subprocess.Popen(
            [*command, "--port", str(self.port), *args],
            cwd=root,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
            start_new_session=True,  # its own process group: a test may send it a Ctrl-C
        )
        assert self.proc.stdout is not None
        self.lines: list[str] = []
        while not self.lines or "Ctrl-C stops" not in self.lines[-1]:
            line = self.proc.stdout.readline()
            if not line:
                self.kill()
                raise RuntimeError("fracas serve ended: " + "\n".join(self.lines))
            self.lines.append(line.rstrip("\n"))
        self.tokens: dict[str, str] = {}
        for line in self.lines:
            if "/t/" in line and ": " in line:
                who, url = line.strip().split(": ", 1)
                self.tokens["gm" if who == "game master" else who.strip()] = url.rsplit("/t/")[1]

    def url(self, token: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws?token={token}"

    def kill(self) -> None:
        """SIGKILL: no goodbye, no flush."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self._close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._close()

    def _close(self) -> None:
        if self.proc.stdout is not None:
            self.proc.stdout.close()


class Page:
    """A page's socket to one server: hello, acts, the syncs it hears."""

    def __init__(self, server: Server, token: str, seq: int = 0, wait: float = 10.0) -> None:
        self.server = server
        self.seq = seq
        self.state: dict[str, Any] = {}
        self._stack = ExitStack()
        deadline = time.monotonic() + wait
        while True:
            try:
                self.ws: ClientConnection = self._stack.enter_context(
                    connect(server.url(token), open_timeout=5, max_size=2**22)
                )
                break
            except InvalidStatus as exc:
                raise PageGone(f"refused: {exc}") from None
            except (OSError, InvalidHandshake, TimeoutError, ConnectionClosed) as exc:
                if time.monotonic() > deadline or server.proc.poll() is not None:
                    raise PageGone(f"cannot connect: {exc}") from None
                time.sleep(0.05)  # not listening yet
        self.send({"type": "hello", "seq": seq})
        self.until("sync")

    def send(self, message: dict[str, Any]) -> None:
        try:
            self.ws.send(json.dumps(message))
        except (ConnectionClosed, OSError) as exc:
            raise PageGone(str(exc)) from None

    def receive(self, timeout: float = 10.0) -> dict[str, Any]:
        try:
            message: dict[str, Any] = json.loads(self.ws.recv(timeout))
        except TimeoutError:
            raise
        except (ConnectionClosed, OSError) as exc:
            raise PageGone(str(exc)) from None
        if message.get("type") == "sync":
            self.seq, self.state = message["seq"], message["state"]
        return message

    def until(self, *kinds: str, timeout: float = 10.0) -> dict[str, Any]:
        """The next message of one of ``kinds`` (others are taken in on the way)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {kinds} message in {timeout} s")
            message = self.receive(left)
            if message.get("type") in kinds:
                return message

    def until_seq(self, seq: int, timeout: float = 10.0) -> None:
        """Until the page holds the log up to ``seq``."""
        while self.seq < seq:
            self.until("sync", timeout=timeout)

    def close(self) -> None:
        with suppress(ConnectionClosed, OSError):
            self._stack.close()


def add_action(i: int) -> dict[str, Any]:
    """The game master's ``i``-th scripted action: add a raider ``z{i}`` (each one names
    itself, so the store shows which actions it holds, and how many times)."""
    zed = {
        "id": f"z{i}",
        "name": f"Zed {i}",
        "side": "raiders",
        "hp": 3,
        "at": [i % 50, 3 + i // 50],
    }
    return {"actor": "ana", "do": "add", "combatant": zed}


@dataclass
class Trial:
    """What one kill trial saw."""

    killed: str
    """Which server was killed: the acting page's (``actor``) or the watching page's."""
    at: float
    """Seconds into the session."""
    acked: int
    """Actions acknowledged (``done``)."""
    stored_unacked: int
    """Actions stored whose ``done`` was lost with the server (found in the state after
    reconnecting, not sent again)."""
    resent: int
    """Actions sent again after a reconnect (their first try had not been stored)."""
    refusals: dict[str, int]
    lost: int
    doubled: int


def session(
    servers: list[Server], token: str, actor: int, actions: int, start: int = 0
) -> tuple[Page, dict[int, int], int, int, dict[str, int]]:
    """The game master's page adds raiders ``start`` to ``start + actions - 1`` one after
    the other through ``servers[actor]``; when its server goes, it reconnects to a
    living one from its seq and, as the page does, sends the action again unless the
    state shows it stored. Returns the page, ``{i: seq}`` of the acknowledged actions,
    the stored-but-unacknowledged and resent counts, and the refusals by code."""
    try:
        page = Page(servers[actor], token)
    except PageGone:  # killed before the page got there
        page = _reconnect(servers, token, 0)
    acked: dict[int, int] = {}
    unacked = resent = 0
    refusals: dict[str, int] = {}
    for i in range(start, start + actions):
        tries = 0
        while True:
            try:
                if f"z{i}" in {c["id"] for c in page.state.get("combatants", [])}:
                    unacked += 1  # stored before the server went: its done was lost
                    break
                resent += tries > 0
                tries += 1
                page.send({"type": "act", "id": i, "seq": page.seq, "action": add_action(i)})
                reply = page.until("done", "refused", timeout=10)
                if reply["type"] == "done":
                    acked[i] = reply["seq"]
                    break
                refusals[reply["code"]] = refusals.get(reply["code"], 0) + 1
                if reply["code"] == "moved_on":
                    page.until("sync")
                else:
                    time.sleep(0.05)
            except PageGone:
                page.close()
                page = _reconnect(servers, token, page.seq)
        while i in acked and page.seq < acked[i]:  # its sync, before the next action
            try:
                page.until_seq(acked[i])
            except PageGone:
                page.close()
                page = _reconnect(servers, token, page.seq)
    return page, acked, unacked, resent, refusals


def _reconnect(servers: list[Server], token: str, seq: int) -> Page:
    for _ in range(100):
        for server in servers:
            if server.proc.poll() is None:
                try:
                    return Page(server, token, seq=seq, wait=1)
                except (PageGone, TimeoutError):
                    continue
        time.sleep(0.05)
    raise PageGone("no server left")


def trial(db: str, home: Path, rng: random.Random, actions: int = 12) -> Trial:
    """Two servers on ``db``, a game master's page acting on one and a player's page
    watching on the other; one server SIGKILLed at a random moment; the pages go on
    with the survivor. Checks the store holds every action once, in order, and the
    watcher ends with the log."""
    (home / "fight.yaml").write_text(FIGHT)
    first = Server(db, str(home / "fight.yaml"), home)
    second = Server(db, "fight", home)
    servers = [first, second]
    try:
        tokens = second.tokens
        actor = rng.randrange(2)
        watcher = Page(servers[1 - actor], tokens["Ana (ana)"])
        victim = rng.randrange(2)
        at = rng.uniform(0.0, 0.02 * actions)
        timer = threading.Timer(at, servers[victim].kill)
        began = time.perf_counter()
        timer.start()
        page, acked, unacked, resent, refusals = session(servers, tokens["gm"], actor, actions)
        timer.join()
        at = min(at, time.perf_counter() - began)
        end = page.seq
        try:
            watcher.until_seq(end, timeout=10)
        except PageGone:
            watcher.close()
            watcher = _reconnect(servers, tokens["Ana (ana)"], watcher.seq)
            watcher.until_seq(end, timeout=10)
        assert watcher.seq == end
        page.close()
        watcher.close()
    finally:
        for server in servers:
            server.kill()
    from fracas.io.store import open_store

    store = open_store(db)
    records = store.load("fight").records
    store.close()
    ids = [r["action"]["combatant"]["id"] for r in records if r["kind"] == "action"]
    want = [f"z{i}" for i in range(actions)]
    lost = len(set(want) - set(ids))
    doubled = len(ids) - len(set(ids))
    for i, seq in acked.items():  # each acknowledged action is where its done said
        assert records[seq - 1]["action"]["combatant"]["id"] == f"z{i}", (i, seq)
    assert ids == want, f"stored {ids}"
    return Trial(
        "actor" if victim == actor else "watcher",
        at,
        len(acked),
        unacked,
        resent,
        refusals,
        lost,
        doubled,
    )
