"""Input limits of the file reader: aliases, nesting, integers and file size.

A file that would take the reader out of memory, out of stack or into a long
conversion is refused at once with a ``FileError`` naming the limit, before any
data is built; ``fracas run`` prints one line and exits 1.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from fracas.errors import FileError
from fracas.io.files import MAX_ALIASED, MAX_BYTES, MAX_DEPTH, MAX_DIGITS, load, parse_text
from tests.helpers import cli

VALID = "ruleset: dice-combat\ncombatants:\n  - id: ana\n  - id: bo\n"


def _laughs(levels: int, name: str = "lol") -> str:
    """A "billion laughs": each level an alias list of nine of the level before."""
    rows = [f'a0: &a0 ["{name}", "{name}", "{name}", "{name}", "{name}", "{name}", '
            f'"{name}", "{name}", "{name}"]']  # fmt: skip
    for i in range(1, levels):
        rows.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    return "\n".join(rows) + "\n"


def _fails(tmp_path: Path, text: str, name: str = "enc.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = cli("run", str(path))
    assert result.exit_code == 1, result.stdout
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


def test_a_billion_laughs_is_refused_at_once() -> None:
    text = _laughs(9)  # 9**9 = 387,420,489 strings from about 500 bytes
    assert len(text) < 600
    start = time.perf_counter()
    with pytest.raises(FileError) as exc:
        parse_text(text, "lol.yaml")
    assert time.perf_counter() - start < 2
    assert exc.value.code == "too_large"
    assert f"{MAX_ALIASED:,}" in exc.value.message and "aliases" in exc.value.message


def test_aliases_expanded_in_a_field_are_refused_with_a_short_line(tmp_path: Path) -> None:
    """9**6 = 531,441 strings in a name: before, seconds and a line of megabytes echoing
    them."""
    levels = ['&a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    levels += [f"&a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 6)]
    text = VALID.replace("id: ana", f"id: ana\n    name: [{', '.join(levels)}]")
    assert len(text) < 400
    line = _fails(tmp_path, text)
    assert ": too_large: " in line and len(line) < 300


def test_a_few_aliases_are_still_read() -> None:
    text = """\
ruleset: dice-combat
combatants:
  - &fighter {id: ana, hand: sword}
  - {id: bo, hand: sword}
options: &opts {}
"""
    ef = parse_text(text, "ok.yaml")
    assert list(ef.start.combatants) == ["ana", "bo"]


@pytest.mark.parametrize("name", ["deep.json", "deep.yaml"])
def test_deep_nesting_is_refused(tmp_path: Path, name: str) -> None:
    deep = "[" * 5000 + "]" * 5000
    if name.endswith(".json"):
        text = '{"ruleset": "dice-combat", "combatants": ' + deep + "}"
    else:
        text = "ruleset: dice-combat\ncombatants: " + "[" * 900 + "]" * 900 + "\n"
    line = _fails(tmp_path, text, name)
    assert ": too_large: " in line and f"nesting deeper than {MAX_DEPTH}" in line


def test_nesting_just_past_the_limit_names_its_line() -> None:
    text = VALID + "options:\n  x: " + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "\n"
    with pytest.raises(FileError) as exc:
        parse_text(text, "deep.yaml")
    assert (exc.value.code, exc.value.where) == ("too_large", "deep.yaml:6")


@pytest.mark.parametrize("name", ["big.json", "big.yaml"])
def test_an_integer_of_4401_digits_is_a_bad_value(tmp_path: Path, name: str) -> None:
    digits = "9" * 4401
    if name.endswith(".json"):
        text = json.dumps({"ruleset": "dice-combat", "combatants": [{"id": "a"}]})
        text = text[:-1] + f', "seed": {digits}}}'
    else:
        text = VALID + f"seed: {digits}\n"
    line = _fails(tmp_path, text, name)
    assert ": bad_value: an integer of 4,401 digits: give at most " in line
    assert len(line) < 300


def test_an_integer_of_the_limit_is_read() -> None:
    ef = parse_text(VALID + f"seed: {'1' * MAX_DIGITS}\n", "ok.yaml")
    assert ef.seed == int("1" * MAX_DIGITS)


def test_a_file_above_the_size_limit_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text(VALID + "#" * MAX_BYTES + "\n", encoding="utf-8")
    with pytest.raises(FileError) as exc:
        load(path)
    assert exc.value.code == "too_large" and f"{MAX_BYTES:,}" in exc.value.message
    with pytest.raises(FileError) as exc:
        parse_text(path.read_text(encoding="utf-8"), "big.yaml")
    assert exc.value.code == "too_large"


MAP_FIGHT = """\
ruleset: dice-combat
seed: 1
{map}combatants:
  - {{id: ana, name: Ana, side: players, at: {at}, hand: knife}}
  - {{id: bo, name: Bo, side: raiders, at: [1, 0], hand: knife}}
"""


@pytest.mark.parametrize(
    ("map_line", "at", "expected"),
    [
        (
            "map: {width: 100000, height: 100000}\n",
            "[0, 0]",
            "error: {path}:3: map.width: bad_value: 100000: input should be less than or "
            "equal to 200",
        ),
        (
            "map: {width: 200, height: 201}\n",
            "[0, 0]",
            "error: {path}:3: map.height: bad_value: 201: input should be less than or "
            "equal to 200",
        ),
        (
            "map: {width: 200, height: 200}\n",
            "[-1, 0]",
            "error: {path}:5: combatants[0].at: off_map: tile [-1, 0] is off the map: "
            "x in 0..199, y in 0..199",
        ),
        (
            "map: {width: 8, height: 6}\n",
            "[8, 0]",
            "error: {path}:5: combatants[0].at: off_map: tile [8, 0] is off the map: "
            "x in 0..7, y in 0..5",
        ),
    ],
    ids=["map-100000", "map-201", "tile-minus-1", "tile-past-the-edge"],
)
def test_the_map_is_at_most_200_by_200_and_no_tile_is_off_it(
    tmp_path: Path, map_line: str, at: str, expected: str
) -> None:
    """Issue 22, item 7: a map of 100000 x 100000 or a tile at x = -1 made a table
    unusable; both are refused where the file gives them."""
    line = _fails(tmp_path, MAP_FIGHT.format(map=map_line, at=at))
    assert line == expected.format(path=tmp_path / "enc.yaml")


def test_a_map_of_200_by_200_is_read() -> None:
    text = MAP_FIGHT.format(map="map: {width: 200, height: 200}\n", at="[199, 199]")
    assert parse_text(text, "enc.yaml").bounds == (200, 200)
