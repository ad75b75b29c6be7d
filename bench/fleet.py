"""``bench/bench_serve.py --fleet``: real ``fracas serve`` processes, many tables at once.

The servers (and the PostgreSQL cluster) are started by the benchmark's own process;
the load's socket clients run in a child process of their own (spawned), in a process
group of its own (``setpgid``), at a lower priority (``--client-nice``, 10 by default:
where the clients and the servers both want a core, the scheduler gives the servers
about ten times the clients' share) and, with ``--client-cpus``, pinned to those CPUs
(``sched_setaffinity``). So the clients cannot take the servers' CPU in a burst, and
what is measured is the servers' tail, not the clients' (their own CPU is printed).

``--trace FILE``: one JSON line per action (table, seq, its send time on the wall
clock, its round trip in ms, the server of the game master's page), to line the slow
actions up against a server's own timings.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import json
import multiprocessing
import os
import random
import resource
import signal
import statistics
import tempfile
import time
from collections import Counter
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import websockets

__all__ = ["fleet", "until_sync"]

EXAMPLE = Path(__file__).parents[1] / "examples" / "dice-combat.yaml"
PR_SET_PDEATHSIG = 1
"""prctl(2): the signal a process gets when its parent ends (a process group of its
own is not ended with the benchmark's)."""


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


async def until_sync(ws: Any, seq: int) -> None:
    while True:
        m = json.loads(await ws.recv())
        if m["type"] == "sync" and m["seq"] >= seq:
            return


async def _pages_hear(pages: list[Any], seq: int, timeout: float) -> bool:
    try:
        await asyncio.wait_for(asyncio.gather(*(until_sync(ws, seq) for ws in pages)), timeout)
    except TimeoutError:
        return False
    return True


async def _table(
    index: int, gm: Any, pages: list[Any], args: Any, rng: random.Random, out: dict[str, Any]
) -> None:
    """One table: its game master ends the turn every ``interval`` seconds (jittered)."""
    await gm.send(json.dumps({"type": "hello", "seq": 0}))
    m = json.loads(await gm.recv())
    seq, actor = m["seq"], m["state"]["turn"]
    for ws in pages:
        await ws.send(json.dumps({"type": "hello", "seq": 0}))
        await until_sync(ws, seq)
    out["ready"] += 1
    await out["go"].wait()
    interval = args.interval
    await asyncio.sleep(min(rng.uniform(0, interval), out["deadline"] - time.perf_counter()))
    for _ in range(args.rounds):
        if time.perf_counter() > out["deadline"]:
            return
        act = {"type": "act", "id": seq, "seq": seq, "action": {"actor": actor, "do": "end_turn"}}
        sent, start = time.time(), time.perf_counter()
        await gm.send(json.dumps(act))
        heard = await _pages_hear(pages, seq + 1, 5.0)
        took = time.perf_counter() - start
        while True:  # the game master's own reply, and its sync: the next turn
            m = json.loads(await asyncio.wait_for(gm.recv(), 5.0))
            if m["type"] == "refused":
                out["errors"][m["code"]] += 1
            if m["type"] == "sync" and m["seq"] > seq:
                break
        if start < out["counted"]:
            pass  # the warm-up's
        elif heard:
            out["times"].append(took)
            out["trace"].append([index, seq, sent, 1000 * took])
        else:
            out["errors"]["not heard in 5 s"] += 1
        seq, actor = m["seq"], m["state"]["turn"]
        pause = interval * rng.uniform(0.5, 1.5)
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
    out["counted"] = 0.0
    out["go"], out["trace"] = asyncio.Event(), []
    rng = random.Random(5)
    sockets = []
    for addresses in urls:
        sockets.append([await _connect(u) for u in addresses])
    tables = [
        asyncio.ensure_future(_table(i, row[0], row[1:], args, rng, out))
        for i, row in enumerate(sockets)
    ]
    while out["ready"] < len(sockets):  # every page said hello and has its sync
        await asyncio.sleep(0.05)
    out["counted"] = time.perf_counter() + args.warmup
    out["deadline"] = out["counted"] + args.seconds
    out["go"].set()
    await asyncio.sleep(args.warmup)
    servers = [_proc_cpu(pid) for pid in pids]
    began = time.perf_counter()
    before = cpu()
    await asyncio.gather(*tables)
    out["wall"], out["cpu"] = time.perf_counter() - began, cpu() - before
    out["servers"] = [_proc_cpu(pid) - b for pid, b in zip(pids, servers, strict=True)]
    for row in sockets:
        for ws in row:
            await ws.close()
    del out["go"]
    return out


def _clients(urls: list[list[str]], args: Any, pids: list[int], reply: Connection) -> None:
    """The child process of the load's clients: its own process group, niced, pinned
    where asked; sends back what it measured."""
    os.setpgid(0, 0)
    with contextlib.suppress(OSError, AttributeError):  # Linux: die with the benchmark
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    os.nice(args.client_nice)
    if args.client_cpus:
        os.sched_setaffinity(0, args.client_cpus)
    reply.send(asyncio.run(_fleet_run(urls, args, pids)))
    reply.close()


def _proc_cpu(pid: int) -> float:
    """User plus system CPU seconds of process ``pid`` so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _run_clients(urls: list[list[str]], args: Any, pids: list[int]) -> dict[str, Any]:
    """Run the clients in their child process; its result."""
    spawn = multiprocessing.get_context("spawn")
    mine, theirs = spawn.Pipe(duplex=False)
    child = spawn.Process(target=_clients, args=(urls, args, pids, theirs), daemon=True)
    child.start()
    theirs.close()
    try:
        out: dict[str, Any] = mine.recv()
    except EOFError:
        raise RuntimeError(f"the clients' process ended (status {child.exitcode})") from None
    finally:
        child.join(10)
        if child.is_alive():
            child.kill()
            child.join()
    return out


def fleet(backend: str, tables: int, args: Any) -> None:
    """On ``backend``: start the servers, make the tables and their links, play."""
    from fracas.io.store import open_store
    from fracas.table import TableService
    from fracas.web.links import Links
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
                out = _run_clients(urls, args, [s.proc.pid for s in servers])
            finally:
                for server in servers:
                    server.stop()
        finally:
            if cluster is not None:
                cluster.destroy()
    if args.trace:
        with open(args.trace, "a") as f:
            for i, seq, sent, ms in out["trace"]:
                row = {"backend": backend, "rate": round(tables / args.interval, 1)}
                row |= {"table": i, "seq": seq, "sent": sent, "ms": round(ms, 2)}
                f.write(json.dumps({**row, "server": i % count}) + "\n")
    _report(backend, count, tables, args, out)


def _report(backend: str, count: int, tables: int, args: Any, out: dict[str, Any]) -> None:
    times = sorted(out["times"])
    servers = " + ".join(f"{c:.1f}" for c in out["servers"])
    if not times:
        print(
            f"(d) {backend}: no action in {out['wall']:.1f} s; errors {dict(out['errors'])}; "
            f"CPU: the servers' {servers} s (idle)"
        )
        return
    p90, p99 = (times[min(len(times) - 1, int(q * len(times)))] for q in (0.9, 0.99))
    pinned = f", CPUs {','.join(map(str, args.client_cpus))}" if args.client_cpus else ""
    print(
        f"(d) {backend}, {count} process{'es' if count > 1 else ''}, {tables} tables x "
        f"{args.pages} pages, one action a table every {args.interval:g} s: {len(times)} "
        f"actions in {out['wall']:.1f} s ({len(times) / out['wall']:.0f} a second); round "
        f"trip p50 {1000 * statistics.median(times):.1f} ms p90 {1000 * p90:.1f} ms p99 "
        f"{1000 * p99:.1f} ms max {1000 * times[-1]:.1f} ms; errors "
        f"{sum(out['errors'].values())} {dict(out['errors']) or ''}; CPU: the servers' "
        f"{servers} s ({1000 * sum(out['servers']) / len(times):.1f} ms an action), the "
        f"clients' {out['cpu']:.1f} s (own process group, nice +{args.client_nice}{pinned})"
        + (f"; after {args.warmup:g} s of warm-up" if args.warmup else "")
    )
