"""The command line around the store: ``fracas run --db`` plays a file into the store as a
new encounter (so scripted and live play share one store), and ``fracas play``'s
options: the default store shown by ``--help``, ``--list``, ``--delete``, errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from fracas.io.store import default_db_path, open_store
from fracas.table import TableService
from fracas.words.render import state_json
from tests.helpers import cli
from tests.play.support import EXAMPLES

EXAMPLE = str(EXAMPLES / "dice-combat.yaml")


def test_run_db_stores_the_played_file_as_a_new_encounter(tmp_path: Path) -> None:
    db = str(tmp_path / "s.sqlite3")
    result = cli("run", EXAMPLE, "--db", db)
    assert result.exit_code == 0, result.stderr
    assert "stored as encounter dice-combat in" in result.stdout
    result = cli("run", EXAMPLE, "--json", "--db", db)
    out = json.loads(result.stdout)
    assert out["encounter"] == {"name": "dice-combat-2", "db": db}
    session = TableService(open_store(db)).open("dice-combat-2")
    state = json.loads(json.dumps(state_json(session.file.ruleset, session.state)))
    assert {k: v for k, v in out.items() if k in state} == state
    assert session.seq == 1 + 13  # the start and the file's 13 actions


def test_run_db_with_an_illegal_action_stores_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(Path(EXAMPLE).read_text() + "  - {actor: cy, do: attack, target: dee}\n")
    db = tmp_path / "s.sqlite3"
    result = cli("run", str(bad), "--db", str(db))
    assert result.exit_code == 1 and "action 14" in result.stderr
    assert open_store(db).list() == []


def test_run_db_without_a_path_uses_the_default_store(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path), "HOME": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-m", "fracas", "run", EXAMPLE, "--db"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    store = open_store(tmp_path / "fracas" / "encounters.sqlite3")
    assert [i.name for i in store.list()] == ["dice-combat"]


def test_play_help_shows_the_default_store() -> None:
    result = cli("play", "--help")
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    assert "--db FILE" in text and "FRACAS_DB" in text
    assert str(default_db_path()).replace(" ", "") in text.replace(" ", "")
    for command in ("status", "odds ACTION", "undo", "redo", "save FILE", "dice manual|auto"):
        assert command in text


def test_play_list_and_delete(tmp_path: Path) -> None:
    db = str(tmp_path / "s.sqlite3")
    cli("run", EXAMPLE, "--db", db)
    result = cli("play", "--db", db, "--list")
    assert result.exit_code == 0 and "dice-combat" in result.stdout and "14" in result.stdout
    result = cli("play", "--db", db, "--delete", "dice-combat")
    assert result.exit_code == 0 and "deleted 'dice-combat'" in result.stdout
    result = cli("play", "--db", db, "--delete", "dice-combat")
    assert result.exit_code == 1
    assert result.stderr.startswith("error: unknown_encounter: no encounter called 'dice-combat'")


def test_play_errors_are_one_line(tmp_path: Path) -> None:
    db = str(tmp_path / "s.sqlite3")
    for args, start in (
        ((), "error: missing_argument: give FILE"),
        (("nope",), "error: unknown_encounter: 'nope' is neither a stored encounter nor a file"),
        ((str(tmp_path / "no.yaml"),), "error: "),
    ):
        result = cli("play", "--db", db, *args)
        assert result.exit_code == 1
        assert result.stderr.startswith(start) and result.stderr.count("\n") == 1, result.stderr
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database, just text " * 50)
    result = cli("play", "--db", str(notes), "--list")
    assert result.exit_code == 1 and "bad_store" in result.stderr
