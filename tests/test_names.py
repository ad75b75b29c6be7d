"""Issue 32, item 5: one rule for names everywhere. A control character (C0, DEL, C1) in
any name or id a file carries (a combatant's name, id and side, an item's name, a
tactic's or option's key, an order's entry) is refused by the file's validation with
its one-line error, naming the line and field, and nothing is stored: `fracas run`,
`fracas serve`, the setup page and a game master's ``add`` and ``set`` mid-fight all go
through it. A note's text is free text: it may hold them (the terminal escapes them:
``tests/test_terminal_escapes.py``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from fracas.engine.play import Engine
from fracas.errors import FileError, Refusal
from fracas.io.files import parse_text
from fracas.io.store import open_store
from fracas.model import Action
from fracas.table import TableService
from fracas.web.app import create_app
from fracas.web.links import Links, add_player_links
from fracas.web.setup import SetupKey
from tests.helpers import NAMED_FIGHT as FILE

CONTROLS = {
    "tab": "Tab\there",
    "newline": "two\nlines",
    "escape": "\x1b]0;TITLE\x07\x1b[2J",
    "del": "rub\x7fout",
    "c1": "csi\x9b31m",
    "nul": "nul\x00",
}


def yaml_text(value: str) -> str:
    """``value`` as a YAML double-quoted scalar (JSON's escapes are YAML's)."""
    return json.dumps(value)


@pytest.mark.parametrize("text", CONTROLS.values(), ids=CONTROLS.keys())
def test_a_combatants_name_with_a_control_character_is_refused_in_one_line(text: str) -> None:
    with pytest.raises(FileError) as err:
        parse_text(FILE.format(ana=yaml_text(text)), "fight.yaml")
    e = err.value
    assert e.code == "bad_name" and e.where == "fight.yaml:4: combatants[0].name"
    assert e.path == ("combatants", 0, "name")
    assert e.message.startswith(f"{text!r} holds the control character ")
    assert e.message.endswith(": give printable text (no tab, newline or escape)")
    assert "\n" not in str(e) and "\x1b" not in str(e) and "\x9b" not in str(e)


FIELDS = {
    "side": (
        '  - {id: ana, name: Ana, side: "pla\\tyers", at: [0, 0], hand: club}\n',
        "combatants[0].side",
    ),
    "id": (  # `$` of the id's pattern matches before a final newline: this one did pass
        '  - {id: "ana\\n", name: Ana, side: players, at: [0, 0], hand: club}\n',
        "combatants[0].id",
    ),
    "item-name": (
        '  - {id: ana, name: Ana, side: players, at: [0, 0], hand: {is: club, name: "cl\\eub"}}\n',
        "combatants[0].hand.name",
    ),
    "sheet-key": (
        '  - {id: ana, name: Ana, side: players, at: [0, 0], hand: club, "tr\\taits": []}\n',
        "combatants[0].tr\taits",
    ),
}


@pytest.mark.parametrize(("line", "field"), FIELDS.values(), ids=FIELDS.keys())
def test_every_name_a_combatant_carries_follows_the_rule(line: str, field: str) -> None:
    text = FILE.format(ana="Ana").replace(FILE.format(ana="Ana").splitlines()[3] + "\n", line)
    with pytest.raises(FileError) as err:
        parse_text(text, "fight.yaml")
    assert err.value.code == "bad_name"
    assert err.value.where == f"fight.yaml:4: {field}"


@pytest.mark.parametrize(
    ("extra", "where"),
    [
        ('order: [ana, "b\\u0085o"]\n', "fight.yaml:6: order[1]"),
        ('tactics: {"an\\ta": {focus: weakest}}\n', "fight.yaml:6: tactics.an\ta"),
        ('options: {"ties\\x7fhit": true}\n', "fight.yaml:6: options.ties\x7fhit"),
        (
            'actions:\n  - {actor: ana, do: add, combatant: {id: cy, name: "C\\ey"}}\n',
            "fight.yaml:7: actions[0].combatant.name",
        ),
    ],
    ids=["order", "tactics", "options", "action-add"],
)
def test_the_files_other_names_follow_it_too(extra: str, where: str) -> None:
    with pytest.raises(FileError) as err:
        parse_text(FILE.format(ana="Ana") + extra, "fight.yaml")
    assert err.value.code == "bad_name" and err.value.where == where


def test_a_notes_text_is_free_text() -> None:
    note = 'actions:\n  - {actor: ana, do: note, text: "line one\\nline \\e[2J two"}\n'
    ef = parse_text(FILE.format(ana="Ana") + note, "fight.yaml")
    assert ef.actions[0].params["text"] == "line one\nline \x1b[2J two"


@pytest.mark.parametrize(
    "params",
    [
        {"combatant": {"id": "cy", "name": "C\x1b[2Jy", "hand": "club"}},
        {"combatant": {"id": "cy", "side": "rai\tders", "hand": "club"}},
        {"copy": "bo", "combatant": {"id": "cy", "name": "C\x9by"}},
    ],
    ids=["add", "add-side", "add-copy"],
)
def test_a_game_masters_add_mid_fight_is_checked_the_same(params: dict[str, Any]) -> None:
    ef = parse_text(FILE.format(ana="Ana"), "fight.yaml")
    engine = Engine(ef.ruleset, ef.start, 1)
    engine.begin()
    with pytest.raises(Refusal) as err:
        engine.act(Action("ana", "add", params=params))
    assert err.value.code == "bad_name"
    assert "holds the control character" in err.value.message
    assert "cy" not in engine.state.combatants


def test_a_game_masters_set_of_a_name_is_checked_the_same() -> None:
    ef = parse_text(FILE.format(ana="Ana"), "fight.yaml")
    engine = Engine(ef.ruleset, ef.start, 1)
    engine.begin()
    with pytest.raises(Refusal) as err:
        engine.act(Action("bo", "set", params={"name": "B\to"}))
    assert err.value.code == "bad_name"
    assert err.value.message.startswith("set name: 'B\\to' holds the control character")
    assert engine.state.combatants["bo"].name == "Bo"


def fracas(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "fracas", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "NO_COLOR": "1"},
    )


@pytest.mark.parametrize("command", ["run", "serve"])
def test_run_and_serve_refuse_the_file_and_store_nothing(tmp_path: Path, command: str) -> None:
    """The issue's file: a player-side combatant named "Tab\\there". Before, `serve`
    stored the encounter, then failed ``bad_name`` (its link's name) on every start."""
    path = tmp_path / "tab.yaml"
    path.write_text(FILE.format(ana=yaml_text("Tab\there")))
    db = tmp_path / "x.sqlite3"
    extra = ["--db", str(db), "--port", "0"] if command == "serve" else []
    for _ in range(2):  # and again: the same answer, not a stored encounter's
        run = fracas(command, str(path), *extra)
        assert run.returncode == 1 and "Traceback" not in run.stderr
        assert run.stderr.splitlines() == [
            f"error: {path}:4: combatants[0].name: bad_name: 'Tab\\there' holds the control "
            "character '\\t': give printable text (no tab, newline or escape)"
        ]
    if db.exists():
        store = open_store(db)
        try:
            assert store.list() == []
        finally:
            store.close()


def test_the_setup_page_answers_400_and_stores_nothing(tmp_path: Path) -> None:
    store = open_store(tmp_path / "s.sqlite3", durable=False)
    tables = TableService(store)
    key = SetupKey()
    token = key.mint()
    form = {
        "ruleset": "dice-combat",
        "name": "gate",
        "combatants": [
            {"id": "ana", "name": "Tab\there", "side": "players", "at": ["0", "0"]},
            {"id": "bo", "name": "Bo", "side": "raiders", "at": ["1", "0"]},
        ],
    }
    try:
        with ThreadPoolExecutor(1) as pool:
            client = TestClient(create_app(tables, Links(store), pool, key))
            for path in ("check", "start"):
                r = client.post(
                    f"/api/setup/{path}",
                    content=json.dumps(form),
                    headers={"Authorization": f"Bearer {token}"},
                )
                assert r.status_code == 400
                assert r.json()["code"] == "bad_name"
                assert r.json()["field"] == "combatants[0].name"
        assert store.list() == []
    finally:
        store.close()


@pytest.mark.parametrize(("name", "link"), [("   ", "ana"), (" gm ", "gm (ana)"), (" Ana ", "Ana")])
def test_a_player_link_is_named_after_a_name_of_spaces_too(
    tmp_path: Path, name: str, link: str
) -> None:
    """A player-side combatant's link takes its name, spaces stripped (a name of spaces
    alone: its id): a name the file takes never makes a link name the links refuse
    (``bad_name`` after the encounter was stored, as with a tab before)."""
    store = open_store(tmp_path / "s.sqlite3", durable=False)
    try:
        table = TableService(store).create(FILE.format(ana=yaml_text(name)), "f.yaml", name="f")
        links = Links(store)
        add_player_links(links, table)
        assert [(x.name, x.owns) for x in links.of("f")] == [(link, ["ana"])]
    finally:
        store.close()
