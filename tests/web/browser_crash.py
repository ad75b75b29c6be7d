"""One trial of the browser crash stress (``bench/stress_serve.py``, and a couple of
trials in ``tests/web/test_browser_crash.py``): ``fracas serve`` killed with SIGKILL
at a random moment of a scripted game master's session in Chromium, restarted with
``--keep-links``; the page reconnects by itself and goes on. Afterwards every action
the page showed as done is in the store exactly once, and nothing else is."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fracas.io.store import open_store

ROOT = Path(__file__).resolve().parents[2]
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"]
FIGHT = """\
ruleset: dice-combat
combatants:
  - {id: ana, at: [0, 0], max_hp: 999, hand: pistol}
  - {id: bo, at: [3, 0], side: raiders, max_hp: 999}
"""


@dataclass
class Outcome:
    shown: list[int]
    """The seqs of the actions the page showed as done (its log's titles)."""
    stored: list[int]
    """The seqs of the stored records after the encounter's start."""
    killed_after: float
    """The number of the action under whose click the server died, plus the delay in s."""
    reconnected: bool


def _start(db: Path, port: int, target: str, keep: bool) -> tuple[subprocess.Popen[bytes], str]:
    cmd = [sys.executable, "-m", "fracas", "serve", target, "--db", str(db), "--port", str(port)]
    if keep:
        cmd.append("--keep-links")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = db.with_name(f"serve-{time.monotonic_ns()}.log")
    with out.open("wb") as sink:  # the server writes its links here; never a full pipe
        proc = subprocess.Popen(cmd, stdout=sink, stderr=subprocess.STDOUT, env=env)
    deadline = time.monotonic() + 20
    text = ""
    while "Ctrl-C stops" not in text:
        assert proc.poll() is None, f"the server stopped: {text}"
        assert time.monotonic() < deadline, f"the server did not start: {text}"
        time.sleep(0.05)
        text = out.read_text(encoding="utf-8", errors="replace")
    link = ""
    for line in text.splitlines():
        if "game master:" in line:
            link = line.split("game master:", 1)[1].strip()
    _wait_port(port)
    return proc, link


def _wait_port(port: int) -> None:
    import socket

    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise AssertionError("the server does not listen")


def _titles(page: Any) -> list[int]:
    """The records whose headings the page's log shows (a line's ``data-seq``)."""
    seqs: list[int] = page.evaluate(
        "[...document.querySelectorAll('#log li.title')].map((li) => Number(li.dataset.seq))"
    )
    return seqs


def trial(tmp: Path, browser: Any, rng: random.Random, actions: int, port: int) -> Outcome:
    """One trial: ``actions`` damage actions clicked by the game master (each waits for
    its line in the log), the server killed once at a random moment and restarted."""
    tmp.mkdir(parents=True, exist_ok=True)
    db = tmp / "crash.sqlite3"
    file = tmp / "fight.yaml"
    file.write_text(FIGHT, encoding="utf-8")
    proc, gm = _start(db, port, str(file), keep=False)
    page = browser.new_context().new_page()
    page.goto(gm)
    page.wait_for_selector("#order li")
    start = len(_titles(page))
    # The kill: under the click of a random action, a random moment after it.
    kill_on, kill_after = rng.randrange(actions), rng.uniform(0.0, 0.3)
    killed = reconnected = False
    done = 0
    try:
        while done < actions:
            shown = len(_titles(page))
            if shown - start > done:  # the last click was stored and shown after all
                done = shown - start
                continue
            page.select_option("#gm-who", "bo")
            page.fill("#gm-amount", "1")
            page.get_by_role("button", name="Damage", exact=True).click()
            if not killed and done == kill_on:
                page.wait_for_timeout(kill_after * 1000)
                proc.send_signal(signal.SIGKILL)
                proc.wait()
                killed = True
                proc, _ = _start(db, port, "fight", keep=True)
                page.wait_for_function(
                    "document.getElementById('conn').textContent === 'live'", timeout=20000
                )
                page.wait_for_timeout(300)  # the catch-up sync
                reconnected = True
                continue
            try:
                page.wait_for_function(
                    f"document.querySelectorAll('#log li.title').length > {shown}",
                    timeout=5000,
                )
            except Exception:
                continue
            done = len(_titles(page)) - start
        page.wait_for_timeout(200)
        shown_seqs = _titles(page)[start:]
    finally:
        page.context.close()
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
    store = open_store(db, durable=False)
    try:
        records = store.load("fight").records
    finally:
        store.close()
    stored = [int(r["seq"]) for r in records][1 + start :]  # record 0: the start
    return Outcome(shown_seqs, stored, kill_on + kill_after, reconnected)


def chromium() -> str | None:
    """Debian's headless shell where installed, else its Chromium (as the browser tests)."""
    return shutil.which("chromium-headless-shell") or shutil.which("chromium")
