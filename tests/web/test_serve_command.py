"""``fracas serve`` as a command: it prints the game master's link and one per player,
the links open the page with the right identity, the same file again goes on with its
unfinished fight and the same links (``--new``: another; ``--new-links``: new tokens, the
old ones refused), and ``fracas play`` sees the same encounter."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from fracas.web.serve import free_port

ROOT = Path(__file__).parents[2]


def start(db: Path, *args: str, port: bool = True) -> tuple[subprocess.Popen[str], list[str]]:
    """``fracas serve ARGS --db DB`` until it prints its links (``port``: on a free port,
    else on the one the command picks)."""
    given = ["--port", str(free_port("127.0.0.1"))] if port else []
    proc = subprocess.Popen(
        [sys.executable, "-m", "fracas", "serve", *args, "--db", str(db), *given],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    return proc, ready(proc)


def ready(proc: subprocess.Popen[str]) -> list[str]:
    """The lines ``fracas serve`` prints until its last (``Ctrl-C stops``): it listens."""
    assert proc.stdout is not None
    lines: list[str] = []
    while not lines or "Ctrl-C stops" not in lines[-1]:
        line = proc.stdout.readline()
        assert line, f"fracas serve ended: {lines}"
        lines.append(line.rstrip("\n"))
    return lines


def link(lines: list[str], who: str) -> str:
    found = next(line for line in lines if line.strip().startswith(who))
    return found.split(": ", 1)[1].strip()


def get(url: str, token: str | None = None) -> tuple[int, str]:
    for _ in range(100):
        request = urllib.request.Request(url)
        if token is not None:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode()
        except urllib.error.URLError:
            time.sleep(0.05)  # not listening yet
    raise AssertionError(f"no answer from {url}")


def stop(proc: subprocess.Popen[str]) -> None:
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    if proc.stdout is not None:
        proc.stdout.close()


def test_serve_prints_links_that_open_the_table_and_resumes(tmp_path: Path) -> None:
    db = tmp_path / "e.sqlite3"
    proc, lines = start(db, "examples/dice-combat.yaml")
    try:
        assert lines[0].startswith("new encounter 'dice-combat' (dice-combat, ")
        gm, ana = link(lines, "game master"), link(lines, "Ana (ana)")
        assert link(lines, "Dee (dee)")
        assert get(gm)[0] == 200
        base, ana_token = ana.rsplit("/t/", 1)
        status, body = get(f"{base}/api/state", ana_token)
        assert status == 200 and json.loads(body)["you"]["owns"] == ["ana"]
        status, body = get(f"{base}/")  # the landing page, not a 404
        assert status == 200 and "fracas serve" in body and "game master" in body
    finally:
        stop(proc)

    # issue 22, item 4: the same file again goes on with its unfinished fight, same links
    proc, lines = start(db, "examples/dice-combat.yaml", "--enemy-hp", "hidden")
    try:
        assert lines[0].startswith(
            "going on with 'dice-combat', the unfinished fight of examples/dice-combat.yaml"
        ), lines
        assert "`fracas serve examples/dice-combat.yaml --new` starts another" in lines[0]
        assert "the same links as before" in "\n".join(lines)
        again = link(lines, "game master"), link(lines, "Ana (ana)")
        assert [x.rsplit("/t/", 1)[1] for x in again] == [gm.rsplit("/t/", 1)[1], ana_token]
        base = again[1].rsplit("/t/", 1)[0]  # another port: the same token
        status, body = get(f"{base}/api/state", ana_token)
        bo = next(c for c in json.loads(body)["combatants"] if c["id"] == "bo")
        assert status == 200 and bo["hp_shown"] == "hidden" and "hp_label" not in bo
    finally:
        stop(proc)

    # --new: another encounter from the file, links of its own; --new-links: new tokens
    proc, lines = start(db, "examples/dice-combat.yaml", "--new")
    try:
        assert lines[0].startswith("new encounter 'dice-combat-2'"), lines
        assert link(lines, "Ana (ana)").rsplit("/t/", 1)[1] != ana_token
    finally:
        stop(proc)
    proc, lines = start(db, "dice-combat", "--new-links")
    try:
        assert lines[0].startswith("resumed 'dice-combat'")
        new_ana = link(lines, "Ana (ana)")
        base, new_token = new_ana.rsplit("/t/", 1)
        assert new_token != ana_token and get(f"{base}/api/state", new_token)[0] == 200
        assert get(f"{base}/api/state", ana_token)[0] == 403  # the old link is gone
    finally:
        stop(proc)
    listed = subprocess.run(
        [sys.executable, "-m", "fracas", "play", "--list", "--db", str(db)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "dice-combat" in listed.stdout and "dice-combat-2" in listed.stdout


def test_ctrl_c_and_sigterm_stop_the_server_cleanly(tmp_path: Path) -> None:
    for sig, name in ((signal.SIGTERM, "SIGTERM"), (signal.SIGINT, "Ctrl-C")):
        db = tmp_path / f"{name}.sqlite3"
        proc, lines = start(db, "examples/dice-combat.yaml")
        assert get(link(lines, "game master"))[0] == 200
        proc.send_signal(sig)
        out, _ = proc.communicate(timeout=20)
        # SIGTERM ended the process at once: the store left open and a warning of the
        # worker pool's leaked semaphores; Ctrl-C printed "Aborted!" and exited with 1
        assert proc.returncode == 0, out
        assert f"stopped ({name}); every action is kept in {db}" in out
        assert "leaked" not in out and "Aborted" not in out and "Traceback" not in out, out
