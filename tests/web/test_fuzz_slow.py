"""Slow clients against a real ``fracas serve`` (a subprocess on loopback): a page that
never reads its socket (a 4 KB receive window; every action's sync piles up unread)
and an HTTP client that sends its request a byte at a time, one byte an action, do not
hold up the other pages of the table: every action of the game master is stored and
acknowledged in time, and the slow request is answered when it is whole."""

from __future__ import annotations

import socket
import statistics
import time
from pathlib import Path

from websockets.sync.client import connect

from tests.web.multiprocess import FIGHT, Page, Server, add_action


def test_a_page_that_never_reads_and_a_slow_request_hold_up_no_one(tmp_path: Path) -> None:
    (tmp_path / "fight.yaml").write_text(FIGHT)
    server = Server(str(tmp_path / "s.sqlite3"), str(tmp_path / "fight.yaml"), tmp_path)
    try:
        Page(server, server.tokens["gm"]).close()  # it listens
        sleepy = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sleepy.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sleepy.connect(("127.0.0.1", server.port))
        with connect(
            server.url(server.tokens["Ana (ana)"]), sock=sleepy, close_timeout=0.5
        ) as slow:
            slow.send('{"type": "hello", "seq": 0}')  # and never reads again
            drip = socket.create_connection(("127.0.0.1", server.port))
            drip.sendall(b"GET /static/app.css HTTP/1.1\r\n")  # the rest, a byte at a time
            pages = [Page(server, server.tokens["gm"]) for _ in range(3)]
            host = f"Host: 127.0.0.1:{server.port}\r\n\r\n".encode()  # the server's own (issue 32)
            times, request, seq = [], host, pages[0].seq
            for i in range(75):  # 25 a page: under each page's rate limit
                page = pages[i % 3]
                page.until_seq(seq)
                began = time.perf_counter()
                page.send({"type": "act", "id": i, "seq": page.seq, "action": add_action(i)})
                reply = page.until("done", "refused")
                assert reply["type"] == "done", reply
                seq = reply["seq"]
                times.append(time.perf_counter() - began)
                if i < len(request):
                    drip.send(request[i : i + 1])
            drip.settimeout(10)
            assert drip.recv(64).startswith(b"HTTP/1.1 200")  # the slow request, answered
            drip.close()
            for page in pages:
                page.close()
        print(
            f"75 actions beside a page that never reads: p50 "
            f"{statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms"
        )
        assert max(times) < 2.0
    finally:
        server.stop()
