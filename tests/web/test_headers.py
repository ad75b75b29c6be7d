"""Issue 32, item 7: every response carries the security headers (a CSP that lets in
only the server's own scripts and styles, no framing, no referrer, no sniffing); a
socket's handshake from another origin is refused before it is accepted; a request
for another host is refused, and the links the game master's page lists never take
a request's ``Host``; ``--public-url`` makes the printed and listed links."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import uvicorn
from starlette.testclient import TestClient

from fracas.table import TableService
from fracas.web.app import STATIC, create_app
from fracas.web.guard import CSP, Site, server_config
from fracas.web.serve import free_port
from fracas.web.setup import SetupKey
from tests.web.support import Served, served
from tests.web.test_serve_command import ROOT, link, start, stop

POOL = ThreadPoolExecutor(1)
"""The odds executor of these apps (no odds are asked)."""


def test_every_response_carries_the_security_headers(tmp_path: Path) -> None:
    with served(tmp_path) as s:
        key = SetupKey()
        setup = key.mint()
        app = create_app(TableService(s.table.store), s.links, POOL, key, {})
        client = TestClient(app)
        gm = {"Authorization": f"Bearer {s.gm}"}
        for path, headers in [
            ("/", {}),
            ("/t/nobody", {}),  # refused: 403
            (f"/setup/{setup}", {}),
            ("/static/app.js", {}),
            ("/static/app.css", {}),
            ("/static/nothing.js", {}),  # 404
            ("/api/state", gm),
            ("/api/links", gm),
            (f"/map/{s.gm}", {}),  # no image: 404
        ]:
            r = client.get(path, headers=headers)
            assert r.headers["content-security-policy"] == CSP, path
            assert "frame-ancestors 'none'" in CSP and "script-src 'self';" in CSP
            assert r.headers["referrer-policy"] == "no-referrer", path
            assert r.headers["x-content-type-options"] == "nosniff", path
        # the table page: the same policy, letting in besides exactly its own inline
        # script (the socket opened as it starts, issue 35) by its hash, and no other
        inline = re.findall(r"<script>(.*?)</script>", (STATIC / "index.html").read_text(), re.S)
        assert len(inline) == 1 and "new WebSocket(url)" in inline[0]
        digest = base64.b64encode(hashlib.sha256(inline[0].encode()).digest()).decode()
        for token in (s.gm, s.ana):
            r = client.get(f"/t/{token}")
            assert r.status_code == 200
            assert r.headers["content-security-policy"] == CSP.replace(
                "script-src 'self';", f"script-src 'self' 'sha256-{digest}';"
            )
            assert r.headers["x-frame-options"] == "DENY"


class Live:
    """The app served by uvicorn in this process (the command's config) on a free port
    of 127.0.0.1."""

    def __init__(self, s: Served, site: Site | None = None) -> None:
        self.port = free_port("127.0.0.1")
        if site is not None:
            site.listening("127.0.0.1", self.port)
        app = create_app(TableService(s.table.store), s.links, POOL, None, None, site)
        config = server_config(app, host="127.0.0.1", port=self.port)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            assert time.monotonic() < deadline
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(30)

    def get(self, path: str, host: str, token: str | None = None) -> tuple[int, bytes]:
        with socket.create_connection(("127.0.0.1", self.port), timeout=10) as c:
            auth = "" if token is None else f"Authorization: Bearer {token}\r\n"
            c.sendall(
                f"GET {path} HTTP/1.1\r\nHost: {host}\r\n{auth}Connection: close\r\n\r\n".encode()
            )
            data = b""
            while chunk := c.recv(65_536):
                data += chunk
        head, body = data.split(b"\r\n\r\n", 1)
        return int(head.split()[1]), body

    def handshake(self, token: str, origin: str | None, host: str | None = None) -> int:
        """The status of a socket's handshake (101: accepted)."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=10) as c:
            key = base64.b64encode(os.urandom(16)).decode()
            extra = "" if origin is None else f"Origin: {origin}\r\n"
            c.sendall(
                (
                    f"GET /ws?token={token} HTTP/1.1\r\nHost: {host or f'127.0.0.1:{self.port}'}"
                    f"\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}"
                    f"\r\nSec-WebSocket-Version: 13\r\n{extra}\r\n"
                ).encode()
            )
            data = b""
            while b"\r\n" not in data:
                data += c.recv(4096)
            return int(data.split()[1])


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[Served, Live]]:
    with served(tmp_path) as s:
        server = Live(s, Site())
        yield s, server
        server.stop()


def test_a_cross_origin_handshake_is_refused(live: tuple[Served, Live]) -> None:
    s, server = live
    port = server.port
    assert server.handshake(s.ana, "http://evil.example") == 403
    assert server.handshake(s.ana, f"http://evil.example:{port}") == 403
    assert server.handshake(s.ana, f"http://127.0.0.1:{port + 1}") == 403
    assert server.handshake(s.ana, f"https://127.0.0.1:{port}") == 403
    assert server.handshake(s.ana, "null") == 403
    assert server.handshake(s.ana, f"http://127.0.0.1:{port}") == 101  # its own page
    assert server.handshake(s.ana, f"http://localhost:{port}") == 101  # the same loopback
    assert server.handshake(s.ana, None) == 101  # no browser's: its token says who it is
    assert server.handshake(s.ana, None, host="evil.example") == 403


def test_a_forged_host_is_refused_and_links_never_take_the_host(
    live: tuple[Served, Live],
) -> None:
    s, server = live
    port = server.port
    status, body = server.get(f"/t/{s.gm}", "evil.example")
    assert status == 400 and b"evil.example" in body
    status, body = server.get("/api/links", f"evil.example:{port}", s.gm)
    assert status == 400 and json.loads(body)["code"] == "bad_host"
    assert server.get("/", f"127.0.0.1:{port + 1}")[0] == 400
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"):
        status, body = server.get("/api/links", host, s.gm)
        assert status == 200, host
        urls = [item["url"] for item in json.loads(body) if "url" in item]
        assert urls and all(u.startswith(f"http://127.0.0.1:{port}/t/") for u in urls), urls


def test_the_public_url_makes_the_listed_links(tmp_path: Path) -> None:
    with served(tmp_path) as s:
        server = Live(s, Site("https://Fights.example.org/"))
        try:
            port = server.port
            for host in ("fights.example.org", f"127.0.0.1:{port}"):
                status, body = server.get("/api/links", host, s.gm)
                assert status == 200, host
                urls = [item["url"] for item in json.loads(body) if "url" in item]
                assert urls and all(u.startswith("https://fights.example.org/t/") for u in urls)
            assert server.get("/", "evil.example")[0] == 400
            assert server.handshake(s.ana, "https://fights.example.org") == 101
            assert server.handshake(s.ana, "http://fights.example.org") == 403
        finally:
            server.stop()


def test_public_url_changes_the_printed_links(tmp_path: Path) -> None:
    proc, lines = start(
        tmp_path / "e.sqlite3",
        "examples/dice-combat.yaml",
        "--public-url",
        "https://fights.example.org",
    )
    try:
        for line in lines:
            if "/t/" in line or "/setup/" in line:
                assert "https://fights.example.org/" in line, line
        assert link(lines, "game master").startswith("https://fights.example.org/t/")
    finally:
        stop(proc)
    bad = start_failing(tmp_path, "--public-url", "fights.example.org/x")
    assert "bad_public_url" in bad and "'fights.example.org/x'" in bad


def start_failing(tmp: Path, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "fracas", "serve", "--db", str(tmp / "f.sqlite3"), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    return done.stdout + done.stderr
