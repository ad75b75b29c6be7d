"""Issue 35, item 12: links that survive a restart. ``fracas serve`` without ``--port``
listens on the port its encounter was last served on, so the addresses players hold
still work; where that port is taken it serves on another and says what that means for
the links; ``--port`` always wins."""

from __future__ import annotations

import json
import socket
import subprocess
from pathlib import Path

from fracas.io.store import open_store
from fracas.table import TableService
from fracas.web.serve import SERVED, _last_port, _listen_for
from tests.web.test_serve_command import ROOT, get, link, start, stop

EXAMPLE = ROOT / "examples" / "dice-combat.yaml"


def _start(db: Path, *args: str) -> tuple[subprocess.Popen[str], list[str]]:
    """``fracas serve`` on the example, as typed (no port unless ``args`` give one)."""
    return start(db, str(EXAMPLE), *args, port=False)


def test_a_restart_without_a_port_keeps_every_links_address(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite3"
    proc, lines = _start(db, "--port", "0")  # any free port, the first time
    try:
        first = {who: link(lines, who) for who in ("game master", "Ana (ana)", "Dee (dee)")}
        assert get(first["game master"])[0] == 200
    finally:
        stop(proc)
    proc, lines = _start(db)  # as a game master types it the next evening
    try:
        again = {who: link(lines, who) for who in first}
        assert again == first  # the same addresses: the players' links work
        assert get(again["Ana (ana)"])[0] == 200
        assert not any("is taken" in line for line in lines)
    finally:
        stop(proc)


def _table(tmp_path: Path) -> tuple[TableService, str]:
    store = open_store(tmp_path / "s.sqlite3", durable=False)
    service = TableService(store)
    table = service.create(EXAMPLE.read_text(), "dice-combat.yaml", name="fight", seed=1)
    return service, table.name


def test_a_taken_port_serves_on_another_and_says_so(tmp_path: Path) -> None:
    service, name = _table(tmp_path)
    table = service.open(name)
    said: list[str] = []
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen(1)
        taken = holder.getsockname()[1]
        service.store.put_extra(name, SERVED, json.dumps({"port": taken}).encode())
        with _listen_for(service.store, table, "127.0.0.1", None, said.append) as sock:
            bound = sock.getsockname()[1]
    assert bound != taken
    (line,) = said
    assert line.startswith(f"port {taken}, where 'fight' was last served, is taken: ")
    assert f"serving on {bound} instead" in line and "send the players the new" in line
    kept = service.store.extra(name, SERVED)
    assert kept is not None and json.loads(kept) == {"port": bound}  # the next start's
    service.store.close()


def test_a_given_port_wins_and_is_kept(tmp_path: Path) -> None:
    service, name = _table(tmp_path)
    table = service.open(name)
    service.store.put_extra(name, SERVED, json.dumps({"port": 1}).encode())
    with _listen_for(service.store, table, "127.0.0.1", 0, print) as sock:
        bound = sock.getsockname()[1]
    kept = service.store.extra(name, SERVED)
    assert kept is not None and json.loads(kept) == {"port": bound}
    service.store.close()


def test_an_unreadable_kept_port_is_not_used(tmp_path: Path) -> None:
    """A damaged extra is no port: the default, as for an encounter never served."""
    service, name = _table(tmp_path)
    table = service.open(name)
    assert _last_port(service.store, table) is None  # never served
    for body in (b"not json", b'{"port": "8765"}', b'{"port": 70000}', b"[]", b"{}"):
        service.store.put_extra(name, SERVED, body)
        assert _last_port(service.store, table) is None, body
    service.store.put_extra(name, SERVED, b'{"port": 8800}')
    assert _last_port(service.store, table) == 8800
    assert _last_port(service.store, None) is None  # the setup page alone
    service.store.close()


def test_each_connection_of_the_listening_socket_sends_without_delay() -> None:
    """The socket `fracas serve` listens on says it is TCP, so asyncio sets TCP_NODELAY on
    every connection it accepts. A socket of protocol 0 got none: each response after a
    keep-alive connection's first waited for the browser's delayed ACK, its body held
    back behind its headers (Nagle's algorithm), about 40 ms a request (issue 35: 17
    module files on six connections took 120 ms more to load on the real server)."""
    import asyncio

    from fracas.web.serve import listen

    async def accepted() -> int:
        loop = asyncio.get_running_loop()
        got: asyncio.Future[int] = loop.create_future()

        class Note(asyncio.Protocol):
            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                sock = transport.get_extra_info("socket")
                got.set_result(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
                transport.close()

        server = await loop.create_server(Note, sock=listen("127.0.0.1", 0))
        port = server.sockets[0].getsockname()[1]
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            return await asyncio.wait_for(got, 10)
        finally:
            writer.close()
            server.close()
            await server.wait_closed()

    assert asyncio.run(accepted()) != 0
