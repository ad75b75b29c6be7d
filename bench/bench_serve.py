"""Benchmark: ``fracas serve`` on loopback, one process.

Run by hand from the repository root (it is not a test)::

    .venv/bin/python bench/bench_serve.py [--tables 1 10 50] [--pages 6] [--rounds 20]

(a) First page load: the page, its script and its style over HTTP (median of 20),
    and the page's weight.
(b) Action round trip: for each count of tables, every table has ``--pages`` pages
    (the game master's and players' sockets); on each table in turn the game master
    ends the turn, timed from the send until every page of that table has its sync.
    p50 and p99 over all actions (sent one at a time), and the CPU time per action of
    this process: the server and the benchmark's own socket clients together.
(c) The odds of a dice-combat attack through the socket with the server's process
    pool (the first call, which starts the worker, and the median of 10 after).

Bounded: at most ``--rounds`` actions per table, loopback only, a temporary store.

``--fleet``: real ``fracas serve`` processes instead, many tables at once::

    .venv/bin/python bench/bench_serve.py --fleet [--tables 200] [--pages 6]
        [--interval 1.0 | --rate 20 40] [--seconds 30] [--backend postgres sqlite]
        [--client-nice 10] [--client-cpus N ...] [--trace FILE] [--warmup S]

(d) For each backend: ``postgres`` is 2 server processes on one throwaway PostgreSQL
    cluster (``tests/store/pgcluster.py``, fsync on), ``sqlite`` 1 process on one
    SQLite file (synchronous=FULL). ``--tables`` encounters, each with ``--pages``
    sockets split between the processes (the game master's page on one, the others
    alternating), so every action crosses processes on PostgreSQL. All tables play at
    once: each table's game master ends the turn every ``--interval`` seconds
    (jittered; ``--rate R``: every tables/R seconds, R actions a second in all, each
    rate in turn), for ``--seconds`` or ``--rounds`` actions a table, whichever ends
    first; an action's round trip is from its send until every page of its table has
    the sync. Prints p50/p99, throughput (actions a second) and errors (refusals,
    or a page that did not hear within 5 s). The clients run in a process of their
    own, in its own process group, niced (``bench/fleet.py`` says how). ``--warmup S``:
    the tables play S seconds first, not counted (the servers' first full garbage
    collections after 1,200 sockets opened fall there).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import resource
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import uvicorn
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench and tests packages

from bench.fleet import fleet, until_sync
from fracas.io.store import open_store
from fracas.table import TableService
from fracas.web.app import create_app
from fracas.web.links import Links
from fracas.web.serve import free_port

EXAMPLE = Path(__file__).parents[1] / "examples" / "dice-combat.yaml"


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


async def round_trips(base: str, tokens: list[list[str]], rounds: int, tables: Any) -> list[float]:
    url = base.replace("http", "ws") + "/ws?token="
    pages = [[await websockets.connect(url + t) for t in row] for row in tokens]
    seqs = []
    for row in pages:
        for ws in row:
            await ws.send(json.dumps({"type": "hello", "seq": 0}))
            m = json.loads(await ws.recv())
        seqs.append(m["seq"])
    times = []
    for _ in range(rounds):
        for i, row in enumerate(pages):
            table = tables[i]
            actor = table.state.turn.actor
            seq = table.seq
            act = {"actor": actor, "do": "end_turn"}
            start = time.perf_counter()
            await row[0].send(json.dumps({"type": "act", "id": 1, "seq": seq, "action": act}))
            await asyncio.gather(*(until_sync(ws, seq + 1) for ws in row))
            times.append(time.perf_counter() - start)
    for row in pages:
        for ws in row:
            await ws.close()
    return times


async def odds_times(base: str, token: str, table: Any) -> list[float]:
    url = base.replace("http", "ws") + "/ws?token=" + token
    out = []
    async with websockets.connect(url) as ws:
        await ws.send(json.dumps({"type": "hello", "seq": 0}))
        await ws.recv()
        for i in range(11):
            action = {"actor": table.state.turn.actor, "do": "attack", "target": "bo"}
            if action["actor"] == "bo":
                action["target"] = "ana"
            start = time.perf_counter()
            message = {"type": "odds", "id": i, "seq": table.seq, "action": action}
            await ws.send(json.dumps(message))
            while json.loads(await ws.recv())["type"] != "odds":
                pass
            out.append(time.perf_counter() - start)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, nargs="+", default=[1, 10, 50])
    ap.add_argument("--pages", type=int, default=6)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--fleet", action="store_true", help="(d): real server processes")
    ap.add_argument("--interval", type=float, default=1.0, help="(d): seconds between actions")
    ap.add_argument(
        "--rate", type=float, nargs="+", help="(d): actions a second, all tables together"
    )
    ap.add_argument("--client-nice", type=int, default=10, help="(d): the clients' niceness")
    ap.add_argument("--client-cpus", type=int, nargs="+", help="(d): pin the clients to these")
    ap.add_argument("--trace", help="(d): a JSON line per action to this file")
    ap.add_argument(
        "--warmup", type=float, default=0.0, help="(d): seconds of play before the count"
    )
    ap.add_argument("--seconds", type=float, default=30.0, help="(d): at most this long")
    ap.add_argument("--backend", nargs="+", default=["postgres", "sqlite"])
    args = ap.parse_args()
    if args.fleet:
        tables = args.tables[0] if args.tables != [1, 10, 50] else 200
        for rate in args.rate or [tables / args.interval]:
            args.interval = tables / rate
            for backend in args.backend:
                fleet(backend, tables, args)
        return
    text = EXAMPLE.read_text().split("actions:")[0]
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(Path(tmp) / "s.sqlite3", durable=False)
        service = TableService(store)
        links = Links(None)
        pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        port = free_port("127.0.0.1")
        base = f"http://127.0.0.1:{port}"
        config = uvicorn.Config(
            create_app(service, links, pool), port=port, log_level="warning", ws="websockets-sansio"
        )
        server = uvicorn.Server(config)
        threading.Thread(target=server.run, daemon=True).start()
        while not server.started:
            time.sleep(0.02)
        first = service.create(text, "x.yaml", name="t0", seed=1)
        gm = links.gm("t0")
        loads, weight = [], 0
        for _ in range(20):
            start = time.perf_counter()
            weight = 0
            for path in (f"/t/{gm}", "/static/app.bundle.js", "/static/app.css"):
                weight += len(urllib.request.urlopen(base + path).read())
            loads.append(time.perf_counter() - start)
        print(
            f"(a) page load (HTML+JS+CSS) median {1000 * statistics.median(loads):.1f} ms; "
            f"weight {weight / 1024:.1f} KB"
        )
        for n in args.tables:
            tables = [first] + [
                service.create(text, "x.yaml", name=f"t{n}-{i}", seed=i) for i in range(1, n)
            ]
            tokens = [
                [links.gm(t.name)]
                + [links.add(t.name, f"p{n}-{j}", [])[1] for j in range(args.pages - 1)]
                for t in tables
            ]
            before = cpu()
            times = asyncio.run(round_trips(base, tokens, args.rounds, tables))
            used = cpu() - before
            times.sort()
            p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
            print(
                f"(b) {n} tables x {args.pages} pages: {len(times)} actions, round trip "
                f"p50 {1000 * statistics.median(times):.1f} ms p99 {1000 * p99:.1f} ms; "
                f"CPU {1000 * used / len(times):.2f} ms per action"
            )
            first = tables[0]
        odds = asyncio.run(odds_times(base, links.gm(first.name), first))
        print(
            f"(c) odds of a dice-combat attack: first {1000 * odds[0]:.0f} ms (starts the "
            f"worker), then median {1000 * statistics.median(odds[1:]):.1f} ms"
        )
        server.should_exit = True
        pool.shutdown()
        store.close()


if __name__ == "__main__":
    main()
