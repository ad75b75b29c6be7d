"""``fracas serve`` starting up: the links are printed once the port listens (a client
that opens one the moment it is printed is answered), and Ctrl-C (to the process
group, as a terminal sends it) or SIGTERM (to the process, as ``kill`` does) at any
moment of the start-up stops it cleanly: status 0, no traceback, no "Aborted!", none
of its processes left (issue 20, 6)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests import procs
from tests.web.multiprocess import FIGHT, Page, Server
from tests.web.test_serve_command import ROOT, link

STOPS = [
    pytest.param("Ctrl-C", signal.SIGINT, True, id="ctrl-c"),  # a terminal's: the group
    pytest.param("SIGTERM", signal.SIGTERM, False, id="kill"),  # kill PID
    pytest.param("SIGTERM", signal.SIGTERM, True, id="kill-group"),  # a service manager's
]


def start(db: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "fracas", "serve", *args, "--db", str(db), "--port", "0"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        start_new_session=True,  # its own process group, to be sent a terminal's Ctrl-C
    )


def send(proc: subprocess.Popen[str], sig: signal.Signals, group: bool) -> None:
    """``sig`` to the process, or to every process of its group (as a terminal sends
    Ctrl-C, and systemd SIGTERM, by default)."""
    if group:
        os.killpg(proc.pid, sig)
    else:
        proc.send_signal(sig)


def catches_sigterm(pid: int) -> bool:
    """Whether ``pid`` has a handler of its own for SIGTERM (``SigCgt`` in /proc)."""
    with open(f"/proc/{pid}/status") as f:
        caught = next(line for line in f if line.startswith("SigCgt:"))
    return bool(int(caught.split()[1], 16) >> (signal.SIGTERM - 1) & 1)


def test_the_first_link_printed_answers_at_once(tmp_path: Path) -> None:
    proc = start(tmp_path / "e.sqlite3", "examples/dice-combat.yaml")
    assert proc.stdout is not None
    try:
        lines: list[str] = []
        while not lines or "/t/" not in lines[-1]:
            line = proc.stdout.readline()
            assert line, f"fracas serve ended: {lines}"
            lines.append(line.rstrip("\n"))
        # one try, no retry: before, the links came before the port listened and
        # this was "connection refused"
        with urllib.request.urlopen(link(lines, "game master"), timeout=30) as response:
            assert response.status == 200
            assert "<html" in response.read().decode().lower()
    finally:
        send(proc, signal.SIGTERM, False)
        out, _ = proc.communicate(timeout=30)
    assert proc.returncode == 0, out


@pytest.mark.parametrize("moment", ["caught", "opened", "listening", "serving"])
@pytest.mark.parametrize(("name", "sig", "group"), STOPS)
def test_a_stop_at_any_moment_of_start_up_ends_cleanly(
    tmp_path: Path, moment: str, name: str, sig: signal.Signals, group: bool
) -> None:
    """``caught``: the command has its handlers, nothing printed yet; ``opened``: the
    encounter opened, the port not listening yet; ``listening``: the first link just
    printed; ``serving``: the page answered once."""
    db = tmp_path / "e.sqlite3"
    proc = start(db, "examples/dice-combat.yaml")
    assert proc.stdout is not None
    lines: list[str] = []
    kids: list[int] = []
    try:
        if moment == "caught":
            for _ in range(30_000):
                if proc.poll() is not None or catches_sigterm(proc.pid):
                    break
                time.sleep(0.001)
        else:
            want = {"opened": "new encounter", "listening": "/t/", "serving": "Ctrl-C stops"}
            while not lines or want[moment] not in lines[-1]:
                line = proc.stdout.readline()
                assert line, f"fracas serve ended: {lines}"
                lines.append(line.rstrip("\n"))
            if moment == "serving":
                with urllib.request.urlopen(link(lines, "game master"), timeout=30) as page:
                    assert page.status == 200
        kids = procs.children(proc.pid)
        send(proc, sig, group)
        rest, _ = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    out = "\n".join([*lines, rest])
    # before: Ctrl-C here printed "Aborted!" with status 1; SIGTERM ended it at once
    assert proc.returncode == 0, out
    assert out.rstrip().endswith(f"stopped ({name}); every action is kept in {db}"), out
    assert "Traceback" not in out and "Aborted" not in out and "leaked" not in out, out
    assert procs.wait_gone(kids, 10.0) == [], [procs.command(pid) for pid in kids]


@pytest.mark.parametrize(("name", "sig", "group"), STOPS)
def test_a_stop_while_the_workers_work_ends_them_quietly(
    tmp_path: Path, name: str, sig: signal.Signals, group: bool
) -> None:
    """The odds and win-bar workers running: a signal to the group reaches them too;
    the server alone acts on it, and ends them (before, a terminal's Ctrl-C printed
    each worker's KeyboardInterrupt traceback; a SIGTERM to the group killed the win
    bar's worker under its work, and the server logged a BrokenProcessPool)."""
    (tmp_path / "fight.yaml").write_text(FIGHT)
    db = tmp_path / "s.sqlite3"
    server = Server(str(db), str(tmp_path / "fight.yaml"), tmp_path)
    kids: list[int] = []
    try:
        page = Page(server, server.tokens["gm"])
        page.send({"type": "hello", "seq": page.seq, "winbar": True})
        attack = {"actor": "ana", "do": "attack", "target": "bo"}
        page.send({"type": "odds", "id": 1, "seq": page.seq, "action": attack})
        assert page.until("odds")["id"] == 1
        kids = procs.children(server.proc.pid)
        assert len(kids) == 3  # the two workers and the resource tracker
        send(server.proc, sig, group)
        out, _ = server.proc.communicate(timeout=30)
        page.close()
    finally:
        server.kill()
    assert server.proc.returncode == 0, out
    assert out.rstrip().endswith(f"stopped ({name}); every action is kept in {db}"), out
    assert "Traceback" not in out and "Aborted" not in out and "leaked" not in out, out
    assert procs.wait_gone(kids, 10.0) == [], [procs.command(pid) for pid in kids]
