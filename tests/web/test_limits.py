"""Issue 32, item 3 and 4: limits held before anything is read. Against ``fracas serve``
in a process of its own (its memory read from /proc): a socket frame past 64 KiB
closes the socket (1009) from its header, never buffered; a 300 MB body to the links
API is refused (413) from its Content-Length, and a chunked one while it streams;
every endpoint's limit is its own; a connection that does not finish its request's
headers is closed (a short timeout in a server of this process, the 10 s default in
the command's)."""

from __future__ import annotations

import base64
import json
import os
import select
import socket
import struct
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from fracas.web.app import body_limit
from fracas.web.guard import HEADER_TIMEOUT, server_config
from fracas.web.live import MAX_MESSAGE
from fracas.web.mapimage import MAX_BYTES as MAX_IMAGE
from fracas.web.serve import free_port
from fracas.web.setup import MAX_SETUP
from tests.web.support import Served, served
from tests.web.test_serve_command import link, start, stop

MB = 1_000_000
CHUNK = b"x" * 65_536


class Command:
    """``fracas serve`` on the example, in its own process."""

    def __init__(self, tmp: Path) -> None:
        self.proc, self.lines = start(tmp / "e.sqlite3", "examples/dice-combat.yaml")
        gm = link(self.lines, "game master")
        self.base, self.gm = gm.rsplit("/t/", 1)
        self.port = int(self.base.rsplit(":", 1)[1])
        player = next(line for line in self.lines if "/t/" in line and "game master" not in line)
        self.player = player.rsplit("/t/", 1)[1].strip()

    def memory(self) -> int:
        """The server's resident memory now, in bytes (/proc/PID/status VmRSS)."""
        status = Path(f"/proc/{self.proc.pid}/status").read_text()
        kb = next(line for line in status.splitlines() if line.startswith("VmRSS:"))
        return int(kb.split()[1]) * 1024


@pytest.fixture(scope="module")
def command(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Command]:
    c = Command(tmp_path_factory.mktemp("limits"))
    yield c
    stop(c.proc)


class Peak:
    """The server's highest resident memory while the block runs (read every 10 ms)."""

    def __init__(self, command: Command) -> None:
        self.command = command
        self.before = command.memory()
        self.peak = self.before
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def _watch(self) -> None:
        while not self._done.wait(0.01):
            self.peak = max(self.peak, self.command.memory())

    def __enter__(self) -> Peak:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()
        self.peak = max(self.peak, self.command.memory())

    @property
    def growth(self) -> int:
        return self.peak - self.before


def connect(port: int) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    return s


def answered(s: socket.socket) -> bool:
    return bool(select.select([s], [], [], 0)[0])


def response(s: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """An HTTP response read whole (the server closes after a refusal)."""
    data = b""
    while b"\r\n\r\n" not in data:
        got = s.recv(65_536)
        assert got, f"closed without an answer: {data!r}"
        data += got
    head, body = data.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    length = int(headers.get("content-length", "0"))
    while len(body) < length:
        got = s.recv(65_536)
        if not got:
            break
        body += got
    return int(lines[0].split()[1]), {k.lower(): v for k, v in headers.items()}, body


def push(s: socket.socket, total: int, framed: bool = False) -> int:
    """Send ``total`` bytes of body (chunked: ``framed``) until the server answers or
    closes; the bytes sent. Made as sent, 64 KiB at a time: this process never holds
    them."""
    sent = 0
    try:
        while sent < total and not answered(s):
            piece = CHUNK[: total - sent]
            s.sendall(b"%x\r\n%s\r\n" % (len(piece), piece) if framed else piece)
            sent += len(piece)
        if framed and not answered(s):
            s.sendall(b"0\r\n\r\n")
    except OSError:
        pass  # the server closed its side: it has refused
    return sent


def post(command: Command, path: str, token: str, headers: str) -> socket.socket:
    s = connect(command.port)
    s.sendall(
        (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{command.port}\r\n"
            f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n{headers}\r\n"
        ).encode()
    )
    return s


def test_a_300_mb_body_is_refused_from_its_length_unread(command: Command) -> None:
    with Peak(command) as peak:
        s = post(command, "/api/links", command.gm, f"Content-Length: {300 * MB}\r\n")
        with s:
            sent = push(s, 300 * MB)
            status, headers, body = response(s)
    print(f"300 MB body: {sent:,} bytes sent; server {peak.before / MB:.0f} MB -> peak "
          f"{peak.peak / MB:.0f} MB (+{peak.growth / MB:.1f} MB)")  # fmt: skip
    assert status == 413 and headers["content-type"] == "application/json"
    assert json.loads(body)["code"] == "too_big"
    assert sent < 50 * MB  # answered at once, not after the body
    assert peak.growth < 30 * MB


def test_a_chunked_body_past_its_limit_is_refused_while_it_streams(command: Command) -> None:
    with Peak(command) as peak:
        s = post(command, "/api/links", command.gm, "Transfer-Encoding: chunked\r\n")
        with s:
            sent = push(s, 300 * MB, framed=True)
            status, _, body = response(s)
    print(f"chunked 300 MB body: {sent:,} bytes sent before the answer; server "
          f"+{peak.growth / MB:.1f} MB")  # fmt: skip
    assert status == 413 and json.loads(body) == {
        "code": "too_big",
        "message": f"a body of more than {MAX_MESSAGE:,} bytes; the game master's page sends "
        "at most that",
    }
    assert sent < 50 * MB
    assert peak.growth < 30 * MB
    # the map image's limit is its own: a chunked upload is read up to 4 MiB, no further
    s = connect(command.port)
    with s:
        s.sendall(
            f"PUT /api/map HTTP/1.1\r\nHost: 127.0.0.1:{command.port}\r\nAuthorization: "
            f"Bearer {command.gm}\r\nTransfer-Encoding: chunked\r\n\r\n".encode()
        )
        sent = push(s, 100 * MB, framed=True)
        status, _, body = response(s)
    assert (status, json.loads(body)["code"]) == (413, "too_big")
    assert MAX_IMAGE < sent < 50 * MB


def handshake(port: int, token: str) -> socket.socket:
    s = connect(port)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        (
            f"GET /ws?token={token} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    data = b""
    while b"\r\n\r\n" not in data:
        data += s.recv(4096)
    assert data.startswith(b"HTTP/1.1 101"), data
    return s


def close_code(s: socket.socket, wait: float = 20.0) -> int | None:
    """The code of the server's close frame (None: none came, text frames maybe)."""
    s.settimeout(wait)
    data = b""
    try:
        while True:
            while len(data) < 2:
                got = s.recv(65_536)
                if not got:
                    return None
                data += got
            opcode, size = data[0] & 0x0F, data[1] & 0x7F
            start = 2 + {126: 2, 127: 8}.get(size, 0)
            while len(data) < start:
                data += s.recv(65_536)
            if size >= 126:
                size = int.from_bytes(data[2:start], "big")
            while len(data) < start + size:
                got = s.recv(65_536)
                if not got:
                    return None
                data += got
            if opcode == 0x8:
                code: int = struct.unpack("!H", data[start : start + 2])[0]
                return code
            data = data[start + size :]
    except OSError:
        return None


def flood(port: int, token: str, frames: int, size: int, codes: list[int | None]) -> None:
    """A page that sends ``frames`` text frames of ``size`` bytes each (made as sent)."""
    with handshake(port, token) as s:
        try:
            for _ in range(frames):
                s.sendall(b"\x81\xff" + struct.pack("!Q", size) + b"\x00\x00\x00\x00")
                sent = 0
                while sent < size and not answered(s):
                    piece = CHUNK[: size - sent]
                    s.sendall(piece)
                    sent += len(piece)
                if answered(s):
                    break
        except OSError:
            pass
        codes.append(close_code(s))


def test_frames_past_64_kib_close_the_socket_unread(command: Command) -> None:
    """The issue's attack: 20 sockets, 2 frames of 15 MB each."""
    codes: list[int | None] = []
    with Peak(command) as peak:
        threads = [
            threading.Thread(target=flood, args=(command.port, command.player, 2, 15 * MB, codes))
            for _ in range(20)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
    print(f"20 sockets x 2 x 15 MB frames: server {peak.before / MB:.0f} MB -> peak "
          f"{peak.peak / MB:.0f} MB (+{peak.growth / MB:.1f} MB); closes {codes}")  # fmt: skip
    assert codes == [1009] * 20
    assert peak.growth < 30 * MB


def test_a_frame_under_64_kib_is_answered_too_big_and_the_socket_kept(
    command: Command,
) -> None:
    """Between the page's 16 KiB and the server's 64 KiB: the page's own refusal."""
    with handshake(command.port, command.player) as s:
        text = json.dumps({"type": "hello", "pad": "x" * 40_000}).encode()
        s.sendall(b"\x81\xff" + struct.pack("!Q", len(text)) + b"\x00\x00\x00\x00" + text)
        s.settimeout(10)
        got = s.recv(65_536)
        assert got[0] == 0x81 and b'"too_big"' in got


def test_each_endpoint_has_its_limit_refused_from_content_length(tmp_path: Path) -> None:
    assert body_limit("PUT", "/api/map").bytes == MAX_IMAGE
    assert body_limit("POST", "/api/setup/start").bytes == MAX_SETUP
    assert body_limit("POST", "/api/links").bytes == MAX_MESSAGE
    with served(tmp_path) as s:
        client = TestClient(s.app)
        gm = {"Authorization": f"Bearer {s.gm}"}
        for method, path, limit in [
            ("POST", "/api/links", MAX_MESSAGE),
            ("POST", "/api/links/x", MAX_MESSAGE),
            ("PUT", "/api/map", MAX_IMAGE),
            ("GET", "/api/state", MAX_MESSAGE),
        ]:
            r = client.request(method, path, headers=gm, content=b"{" * (limit + 1))
            assert r.status_code == 413 and r.json()["code"] == "too_big", path
            r = client.request(method, path, headers=gm, content=b"{" * limit)
            assert r.status_code != 413, path  # at the limit: read (and refused as JSON)
        r = client.post(f"/t/{s.gm}", content=b"x" * (MAX_MESSAGE + 1))
        assert r.status_code == 413 and r.headers["content-type"].startswith("text/plain")


# --- slow-loris ---------------------------------------------------------------------


@pytest.fixture
def quick(tmp_path: Path) -> Iterator[tuple[Served, int]]:
    """A server of this process whose connections have 0.5 s to send their headers."""
    import uvicorn

    with served(tmp_path) as s:
        port = free_port("127.0.0.1")
        server = uvicorn.Server(server_config(s.app, 0.5, host="127.0.0.1", port=port))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        deadline = time.monotonic() + 10
        while not server.started:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        yield s, port
        server.should_exit = True
        thread.join(30)


def closed_within(s: socket.socket, seconds: float, trickle: bytes = b"") -> float | None:
    """Seconds until the server closes ``s`` (sending ``trickle`` a byte every 0.1 s
    meanwhile); None if it is still open after ``seconds``."""
    started = time.monotonic()
    s.setblocking(False)
    for byte in [trickle[i : i + 1] for i in range(len(trickle))] + [b""] * int(seconds * 10):
        if select.select([s], [], [], 0.1)[0]:
            try:
                if s.recv(4096) == b"":
                    return time.monotonic() - started
            except ConnectionResetError:
                return time.monotonic() - started
        if byte:
            try:
                s.send(byte)
            except OSError:
                return time.monotonic() - started
        if time.monotonic() - started > seconds:
            break
    return None


def test_a_connection_that_never_finishes_its_headers_is_closed(
    quick: tuple[Served, int],
) -> None:
    s, port = quick
    host = f"Host: 127.0.0.1:{port}\r\n"
    with connect(port) as c:  # a partial request line, trickled a byte at a time
        c.sendall(b"GET /t/")
        took = closed_within(c, 3.0, trickle=f"{s.gm} HTTP/1.1\r\n{host}X-Slow: ".encode())
        assert took is not None and took < 2.0
    with connect(port) as c:  # nothing sent at all
        took = closed_within(c, 3.0)
        assert took is not None and took < 2.0
    with connect(port) as c:  # a whole request answered, then a second one begun
        c.sendall(f"GET / HTTP/1.1\r\n{host}\r\n".encode())
        status, _, _ = response(c)
        assert status == 200
        c.sendall(b"GET / HTTP/1.1\r\n")
        took = closed_within(c, 3.0)  # before uvicorn's keep-alive timeout (5 s)
        assert took is not None and took < 2.0
    with connect(port) as c:  # headers in time: answered, whatever the body's pace
        c.sendall(f"GET / HTTP/1.1\r\n{host}\r\n".encode())
        assert response(c)[0] == 200


def test_the_command_closes_half_sent_headers_after_10_seconds(command: Command) -> None:
    assert HEADER_TIMEOUT == 10.0
    with connect(command.port) as c:
        c.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        took = closed_within(c, HEADER_TIMEOUT + 5)
    assert took is not None and HEADER_TIMEOUT - 1 < took < HEADER_TIMEOUT + 3
