"""``fracas serve`` with no FILE or NAME: it opens no encounter, prints the setup page's
link (the only way in to it), and the page starts an encounter that ``fracas play``
then sees on the same store. With a FILE the setup link is printed too."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path

from tests.web.test_serve_command import ROOT, get, link, start, stop

SETUP = {
    "ruleset": "dice-combat",
    "name": "from-the-page",
    "combatants": [
        {"id": "ana", "side": "players", "at": ["0", "0"], "hand": {"is": "pistol"}},
        {"id": "bo", "side": "raiders", "at": ["2", "0"], "hand": {"is": "club"}},
    ],
}


def post(url: str, token: str, body: object) -> tuple[int, dict[str, object]]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST")
    request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request) as response:
        return response.status, json.loads(response.read())


def test_serve_without_a_file_serves_the_setup_page_only(tmp_path: Path) -> None:
    db = tmp_path / "e.sqlite3"
    proc, lines = start(db)
    try:
        assert lines[0].startswith("no encounter given: the setup page lists the 0 stored in")
        assert not any(line.strip().startswith("game master:") for line in lines)
        setup = link(lines, "setup (yours only)")
        base, token = setup.rsplit("/setup/", 1)
        assert get(setup)[0] == 200
        assert get(f"{base}/setup/not-the-token")[0] == 403
        assert get(f"{base}/api/setup/encounters")[0] == 403
        status, body = get(f"{base}/api/setup/encounters", token)
        assert (status, json.loads(body)) == (200, [])
        status, started = post(f"{base}/api/setup/start", token, SETUP)
        assert status == 200 and started["name"] == "from-the-page"
        assert get(f"{base}{started['gm']}")[0] == 200
    finally:
        stop(proc)
    listed = subprocess.run(
        [sys.executable, "-m", "fracas", "play", "--list", "--db", str(db)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "from-the-page" in listed.stdout


def test_serve_with_a_file_prints_the_setup_link_too(tmp_path: Path) -> None:
    proc, lines = start(tmp_path / "e.sqlite3", "examples/dice-combat.yaml")
    try:
        gm = link(lines, "game master")
        setup = link(lines, "setup (yours only)")
        base, token = setup.rsplit("/setup/", 1)
        status, body = get(f"{base}/api/setup/encounters", token)
        assert status == 200 and [e["name"] for e in json.loads(body)] == ["dice-combat"]
        # opening it from the setup page gives the printed game master's link again
        _, opened = post(f"{base}/api/setup/open", token, {"name": "dice-combat"})
        assert f"{base}{opened['gm']}" == gm
    finally:
        stop(proc)
