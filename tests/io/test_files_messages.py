"""Readable errors: short lines, words a user knows, JSON on stdout with ``--json``.

Every error line is cut in one place (``fracas.errors``): a quoted value ends in
``…`` after a few items, and what is valid is kept whole. The parser's own words
("not NoneType", "cannot start any token", "a valid tuple") become the user's.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fracas.errors import MESSAGE_LIMIT, FileError, FracasError, brief
from fracas.io.files import parse_text
from tests.helpers import cli

VALID = "ruleset: dice-combat\ncombatants:\n  - id: ana\n  - id: bo\n"


def _run(tmp_path: Path, text: str, name: str = "enc.yaml", *args: str) -> tuple[str, str]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = cli("run", str(path), *args)
    assert result.exit_code == 1, result.stdout
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    return str(path), lines[0]


# --- short lines ------------------------------------------------------------------


def test_a_nested_value_is_elided_in_the_error_line(tmp_path: Path) -> None:
    value = json.dumps({"a": list(range(2000))})
    path, line = _run(tmp_path, VALID.replace("id: ana", f"id: ana\n    hp: {value}"))
    assert line == (
        f"error: {path}:4: combatants[0].hp: bad_value: "
        "{'a': [0, 1, 2, …]}: input should be a valid integer"
    )


def test_every_error_line_is_cut_and_keeps_what_is_valid() -> None:
    long = "x" * 5000
    exc = FracasError("bad_value", f"{long!r} is not a trait; valid: a, b, c")
    assert len(exc.message) <= MESSAGE_LIMIT + len("valid: a, b, c")
    assert exc.message.startswith("'xxx") and " … " in exc.message
    assert exc.message.endswith("valid: a, b, c")
    assert len(str(FileError("bad_value", long, "f.yaml:3"))) < 300


def test_brief_elides_containers_strings_and_huge_integers() -> None:
    assert brief({"a": [1, 2]}) == "{'a': [1, 2]}"
    assert brief({"a": list(range(100))}) == "{'a': [0, 1, 2, …]}"
    assert brief("y" * 1000) == "'" + "y" * 40 + "…'"
    assert brief(10**5000) == "<an integer of about 5001 digits>"
    assert brief({3, 1, 2}) == "{1, 2, 3}"


def test_an_unknown_key_of_any_size_gives_a_short_line(tmp_path: Path) -> None:
    _, line = _run(tmp_path, VALID + f"{'k' * 1000}: 1\n")
    assert len(line) < 320 and "is not a known field; valid: ruleset, combatants" in line


# --- a lone surrogate -------------------------------------------------------------


def test_a_lone_surrogate_in_a_name_is_refused_at_load(tmp_path: Path) -> None:
    """Refused as a bad_value naming the field, in text and --json alike: no output can
    print half a UTF-16 pair (the text log crashed on it)."""
    text = '{"ruleset": "dice-combat", "combatants": [{"id": "a", "name": "\\ud800"}, {"id": "b"}]}'
    path, line = _run(tmp_path, text, "enc.json")
    assert line.startswith(f"error: {path}: combatants[0].name: bad_value: ")
    assert "half of a UTF-16 pair" in line
    _, json_line = _run(tmp_path, text, "enc.json", "--json")
    assert json_line == line


def test_a_surrogate_pair_is_a_character() -> None:
    smile = '"\\ud83d\\ude00"'  # one character, written as a JSON surrogate pair
    text = f'{{"ruleset": "dice-combat", "combatants": [{{"id": "a", "name": {smile}}}, '
    text += '{"id": "b"}]}'
    assert parse_text(text, "ok.json").start.get("a").name == "\U0001f600"


# --- --json on a file error -------------------------------------------------------


def test_run_json_prints_a_file_error_as_one_json_object(tmp_path: Path) -> None:
    path, line = _run(tmp_path, VALID.replace("id: bo", "id: Bo"), "enc.yaml", "--json")
    result = cli("run", path, "--json")
    out = json.loads(result.stdout)
    assert out == {
        "error": {
            "code": "bad_id",
            "message": "id 'Bo' must match [a-z0-9_-]+",
            "where": f"{path}:4: combatants[1].id",
        }
    }
    assert line == f"error: {path}:4: combatants[1].id: bad_id: id 'Bo' must match [a-z0-9_-]+"


def test_run_json_prints_an_unreadable_file_as_json(tmp_path: Path) -> None:
    path = str(tmp_path / "nowhere.yaml")
    result = cli("run", path, "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["error"]["code"] == "unreadable_file"


# --- the user's words -------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "\n", "# nothing yet\n"])
def test_an_empty_file_says_it_is_empty(tmp_path: Path, text: str) -> None:
    path, line = _run(tmp_path, text)
    assert line == (
        f"error: {path}: bad_file: the file is empty: an encounter needs "
        "`ruleset:` and `combatants:`"
    )


def test_a_tab_in_indentation_is_named(tmp_path: Path) -> None:
    path, line = _run(tmp_path, "ruleset: dice-combat\ncombatants:\n\t- id: ana\n")
    assert line == (
        f"error: {path}:3: bad_yaml: line 3: a tab in indentation; YAML indents with spaces"
    )


def test_a_tile_that_is_not_a_list_says_so(tmp_path: Path) -> None:
    path, line = _run(tmp_path, VALID.replace("id: ana", "id: ana\n    at: 3,0"))
    assert line == (
        f"error: {path}:4: combatants[0].at: bad_value: at: '3,0' is not a tile; give [x, y]"
    )


def test_a_move_to_a_number_says_it_is_not_a_tile(tmp_path: Path) -> None:
    text = VALID + "actions:\n  - {actor: ana, do: move, to: 3}\n"
    _, line = _run(tmp_path, text)
    assert line.endswith("actions[0].to: bad_value: to: 3 is not a tile; give [x, y]")


def test_a_tile_of_three_numbers_is_not_a_tile(tmp_path: Path) -> None:
    _, line = _run(tmp_path, VALID.replace("id: ana", "id: ana\n    at: [1, 2, 3]"))
    assert line.endswith("combatants[0].at: bad_value: at: [1, 2, 3] is not a tile; give [x, y]")


def test_dc8_a_refusal_names_whose_gun_without_a_doubled_quote(tmp_path: Path) -> None:
    """DC-8: an empty gun's refusal quotes the item and the combatant ids, and reads as
    words (not ``'ana''s``)."""
    text = (
        "ruleset: dice-combat\n"
        "combatants:\n"
        "  - {id: ana, at: [0, 0], hand: {is: pistol, loaded: 0}}\n"
        "  - {id: bo, at: [2, 0]}\n"
        "actions:\n"
        "  - {actor: ana, do: attack, target: bo}\n"
    )
    _, line = _run(tmp_path, text)
    assert "'pistol' of 'ana' is empty: reload" in line, line
    assert "''" not in line
