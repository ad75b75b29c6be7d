"""A ``fracas serve`` SIGKILLed leaves none of its processes running: its odds worker,
its win-bar worker, the process that worker forked to play the bar's fights (issue 34)
and multiprocessing's resource tracker end with it (issue 20, 4)."""

from __future__ import annotations

import signal
import time
from pathlib import Path
from typing import Any

from tests import procs
from tests.web.multiprocess import FIGHT, Page, Server


def test_a_killed_servers_workers_and_resource_tracker_end_with_it(tmp_path: Path) -> None:
    (tmp_path / "fight.yaml").write_text(FIGHT)
    server = Server(str(tmp_path / "s.sqlite3"), str(tmp_path / "fight.yaml"), tmp_path)
    kids: list[int] = []
    try:
        page = Page(server, server.tokens["gm"])
        page.send({"type": "hello", "seq": page.seq, "winbar": True})
        attack = {"actor": "ana", "do": "attack", "target": "bo"}
        page.send({"type": "odds", "id": 1, "seq": page.seq, "action": attack})
        heard: dict[str, dict[str, Any]] = {}
        while len(heard) < 2:  # the odds and the bar, in either order
            message = page.until("odds", "winbar", timeout=60)
            heard[message["type"]] = message
        assert heard["odds"]["id"] == 1 and heard["winbar"]["bar"] is not None
        kids = procs.children(server.proc.pid)
        commands = sorted(procs.command(pid).split(" -c ", 1)[-1].split(";")[0] for pid in kids)
        assert commands == [
            "from multiprocessing.resource_tracker import main",
            "from multiprocessing.spawn import spawn_main",  # the odds worker
            "from multiprocessing.spawn import spawn_main",  # the win bar's
        ], commands
        # the bar's worker forked one process to play the bar's fights on the other core
        grandchildren = [g for k in kids for g in procs.children(k)]
        assert len(grandchildren) == 1, [procs.command(g) for g in grandchildren]
        assert "spawn_main" in procs.command(grandchildren[0])  # a copy of the worker
        assert procs.niceness(grandchildren[0]) == 19  # it yields to all else
        kids += grandchildren
        server.proc.send_signal(signal.SIGKILL)
        server.proc.wait()
        page.close()
        # before: all three still ran, reparented, 35 s later
        assert procs.wait_gone(kids, 10.0) == [], [procs.command(pid) for pid in kids]
    finally:
        server.kill()
        procs.end(kids)


def test_issue_34_the_odds_worker_starts_when_a_page_has_its_state(tmp_path: Path) -> None:
    """``fracas serve`` starts its odds' worker once the first page has its state, not
    at the first question (a fresh server's first tap waited 0.55 s for it) nor with the
    server (its loading then shared the cores with the first page load): no worker
    before any page; once the game master's page is synced, and before it asks
    anything, the worker (and multiprocessing's resource tracker)."""
    (tmp_path / "fight.yaml").write_text(FIGHT)
    server = Server(str(tmp_path / "s.sqlite3"), str(tmp_path / "fight.yaml"), tmp_path)
    kids: list[int] = []
    try:
        before = [procs.command(p) for p in procs.children(server.proc.pid)]
        assert not [c for c in before if "spawn_main" in c], before  # no worker yet
        page = Page(server, server.tokens["gm"])  # hello, then its sync: no question asked
        commands: list[str] = []
        for _ in range(600):  # spawned after the sync: at most 30 s
            kids = procs.children(server.proc.pid)
            commands = sorted(procs.command(pid).split(" -c ", 1)[-1].split(";")[0] for pid in kids)
            if len(commands) == 2:
                break
            time.sleep(0.05)
        assert commands == [
            "from multiprocessing.resource_tracker import main",
            "from multiprocessing.spawn import spawn_main",  # the odds worker, nothing asked
        ], commands
        page.close()
    finally:
        server.kill()
        procs.end(kids)
