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
        [--interval 1.0] [--seconds 30] [--backend postgres sqlite]

(d) For each backend: ``postgres`` is 2 server processes on one throwaway PostgreSQL
    cluster (``tests/store/pgcluster.py``, fsync on), ``sqlite`` 1 process on one
    SQLite file (synchronous=FULL). ``--tables`` encounters, each with ``--pages``
    sockets split between the processes (the game master's page on one, the others
    alternating), so every action crosses processes on PostgreSQL. All tables play at
    once: each table's game master ends the turn every ``--interval`` seconds
    (jittered), for ``--seconds`` or ``--rounds`` actions a table, whichever ends
    first; an action's round trip is from its send until every page of its table has
    the sync. Prints p50/p99, throughput (actions a second) and errors (refusals,
    or a page that did not hear within 5 s).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import resource
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import uvicorn
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench and tests packages

from fracas.store import open_store
from fracas.table import TableService
from fracas.web.app import create_app
from fracas.web.links import Links
from fracas.web.serve import free_port

EXAMPLE = Path(__file__).parents[1] / "examples" / "dice-combat.yaml"


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


async def until_sync(ws: Any, seq: int) -> None:
    while True:
        m = json.loads(await ws.recv())
        if m["type"] == "sync" and m["seq"] >= seq:
            return


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


# --- (d): real server processes, many tables at once ------------------------------------


async def _pages_hear(pages: list[Any], seq: int, timeout: float) -> bool:
    try:
        await asyncio.wait_for(asyncio.gather(*(until_sync(ws, seq) for ws in pages)), timeout)
    except TimeoutError:
        return False
    return True


async def _table(
    gm: Any, pages: list[Any], args: Any, rng: random.Random, out: dict[str, Any]
) -> None:
    """One table: its game master ends the turn every ``--interval`` seconds."""
    await gm.send(json.dumps({"type": "hello", "seq": 0}))
    m = json.loads(await gm.recv())
    seq, actor = m["seq"], m["state"]["turn"]
    for ws in pages:
        await ws.send(json.dumps({"type": "hello", "seq": 0}))
        await until_sync(ws, seq)
    out["ready"] += 1
    await out["go"].wait()
    await asyncio.sleep(min(rng.uniform(0, args.interval), out["deadline"] - time.perf_counter()))
    for _ in range(args.rounds):
        if time.perf_counter() > out["deadline"]:
            return
        act = {"type": "act", "id": seq, "seq": seq, "action": {"actor": actor, "do": "end_turn"}}
        start = time.perf_counter()
        await gm.send(json.dumps(act))
        heard = await _pages_hear(pages, seq + 1, 5.0)
        while True:  # the game master's own reply, and its sync: the next turn
            m = json.loads(await asyncio.wait_for(gm.recv(), 5.0))
            if m["type"] == "refused":
                out["errors"][m["code"]] += 1
            if m["type"] == "sync" and m["seq"] > seq:
                seq, actor = m["seq"], m["state"]["turn"]
                break
        if heard:
            out["times"].append(time.perf_counter() - start)
        else:
            out["errors"]["not heard in 5 s"] += 1
        pause = args.interval * rng.uniform(0.5, 1.5)
        await asyncio.sleep(max(0.0, min(pause, out["deadline"] - time.perf_counter())))


async def _connect(url: str) -> Any:
    """A socket to a server that may not be listening yet."""
    for _ in range(200):
        try:
            return await websockets.connect(url, max_size=2**22)
        except OSError:
            await asyncio.sleep(0.05)
    raise RuntimeError(f"no server at {url.split('?')[0]}")


async def _fleet_run(urls: list[list[str]], args: Any, pids: list[int]) -> dict[str, Any]:
    out: dict[str, Any] = {"times": [], "errors": Counter(), "deadline": 0.0, "ready": 0}
    out["go"] = asyncio.Event()
    rng = random.Random(5)
    sockets = []
    for addresses in urls:
        sockets.append([await _connect(u) for u in addresses])
    tables = [asyncio.ensure_future(_table(row[0], row[1:], args, rng, out)) for row in sockets]
    while out["ready"] < len(sockets):  # every page said hello and has its sync
        await asyncio.sleep(0.05)
    servers = [_proc_cpu(pid) for pid in pids]
    out["deadline"] = time.perf_counter() + args.seconds
    began = time.perf_counter()
    before = cpu()
    out["go"].set()
    await asyncio.gather(*tables)
    out["wall"], out["cpu"] = time.perf_counter() - began, cpu() - before
    out["servers"] = [_proc_cpu(pid) - b for pid, b in zip(pids, servers, strict=True)]
    for row in sockets:
        for ws in row:
            await ws.close()
    return out


def _proc_cpu(pid: int) -> float:
    """User plus system CPU seconds of process ``pid`` so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def fleet(backend: str, tables: int, args: Any) -> None:
    """(d) on ``backend``: start the servers, make the tables and their links, play."""
    from tests.store.pgcluster import Cluster, find_bindir
    from tests.web.multiprocess import Server

    text = EXAMPLE.read_text().split("actions:")[0]
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_DATA_HOME"] = tmp  # the links file of a PostgreSQL store: here
        cluster = None
        if backend == "postgres":
            bindir = find_bindir()
            if bindir is None:
                print("(d) postgres: no PostgreSQL server binaries; skipped")
                return
            cluster = Cluster(bindir, fsync=True)
            db = cluster.url()
        else:
            db = str(Path(tmp) / "fleet.sqlite3")
        try:
            store = open_store(db)
            service = TableService(store)
            service.create(text, "lobby.yaml", name="lobby", seed=1)
            links = Links(store)
            tokens = []
            for i in range(tables):
                name = service.create(text, "x.yaml", name=f"t{i}", seed=i).name
                tokens.append(
                    [links.gm(name)]
                    + [links.add(name, f"p{j}", [])[1] for j in range(args.pages - 1)]
                )
            store.close()
            count = 2 if backend == "postgres" else 1
            servers = [Server(db, "lobby", Path(tmp)) for _ in range(count)]
            try:
                urls = [
                    [servers[(i + j) % count].url(t) for j, t in enumerate(row)]
                    for i, row in enumerate(tokens)
                ]
                out = asyncio.run(_fleet_run(urls, args, [s.proc.pid for s in servers]))
            finally:
                for server in servers:
                    server.stop()
        finally:
            if cluster is not None:
                cluster.destroy()
    times = sorted(out["times"])
    if not times:
        print(
            f"(d) {backend}: no action in {out['wall']:.1f} s; errors {dict(out['errors'])}; "
            f"CPU: the servers' {' + '.join(f'{c:.1f}' for c in out['servers'])} s (idle)"
        )
        return
    p90, p99 = (times[min(len(times) - 1, int(q * len(times)))] for q in (0.9, 0.99))
    print(
        f"(d) {backend}, {count} process{'es' if count > 1 else ''}, {tables} tables x "
        f"{args.pages} pages: {len(times)} actions in {out['wall']:.1f} s "
        f"({len(times) / out['wall']:.0f} a second); round trip p50 "
        f"{1000 * statistics.median(times):.1f} ms p90 {1000 * p90:.1f} ms p99 "
        f"{1000 * p99:.1f} ms max "
        f"{1000 * times[-1]:.1f} ms; errors {sum(out['errors'].values())} "
        f"{dict(out['errors']) or ''}; CPU: the servers' "
        f"{' + '.join(f'{c:.1f}' for c in out['servers'])} s "
        f"({1000 * sum(out['servers']) / len(times):.1f} ms an action), the clients' "
        f"{out['cpu']:.1f} s"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, nargs="+", default=[1, 10, 50])
    ap.add_argument("--pages", type=int, default=6)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--fleet", action="store_true", help="(d): real server processes")
    ap.add_argument("--interval", type=float, default=1.0, help="(d): seconds between actions")
    ap.add_argument("--seconds", type=float, default=30.0, help="(d): at most this long")
    ap.add_argument("--backend", nargs="+", default=["postgres", "sqlite"])
    args = ap.parse_args()
    if args.fleet:
        for backend in args.backend:
            fleet(backend, args.tables[0] if args.tables != [1, 10, 50] else 200, args)
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
            for path in (f"/t/{gm}", "/static/app.js", "/static/app.css"):
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
