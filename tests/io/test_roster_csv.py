"""Issue 36, "Rosters in and out": a spreadsheet's CSV rows imported as an encounter's
combatants, checked by the encounter-file loader itself (the ruleset's rules, DC-*
sheets here); every bad cell named by row and column in one ``bad_roster`` refusal,
nothing half-imported; and the setup page's API route that fills the form from one."""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from fracas.errors import FracasError
from fracas.io.files import parse_text
from fracas.io.roster_csv import BadCell, RosterError, read_roster
from fracas.io.store import open_store
from fracas.table import TableService
from fracas.web.app import create_app
from fracas.web.links import Links
from fracas.web.setup import SetupKey

GOOD = """\
Name,Side,X,Y,Attack Bonus,Traits,Hand,Inventory,HP,Notes
Ana,players,0,0,1,gunslinger,"{is: pistol, loaded: 6}",knife,,sharp
Bo the Raider,raiders,6,0,,,molotov,"club, knife",4,
"""
"""Two dice-combat sheets as a spreadsheet saves them: headers in words, ids left to
the names, a list without brackets, an item with fields, a notes column."""

BAD = """\
Name,Side,X,Y,Attack Bonus,Luck,HP
Ana,players,0,0,lots,lucky,
Bo,raiders,6,,2,sometimes,x
Cy,raiders,2,1,0,none,3
Dee,players,0,3,1,none,13
"""
"""Five bad cells in three rows; Cy's row is sound."""


def test_a_good_roster_becomes_the_combatants_a_file_holds() -> None:
    made = read_roster(GOOD, "dice-combat", mapping={"Notes": "-"}, source="good.csv")
    assert made.combatants == (
        {
            "id": "ana",
            "name": "Ana",
            "side": "players",
            "attack_bonus": 1,
            "traits": ["gunslinger"],
            "hand": {"is": "pistol", "loaded": 6},
            "inventory": ["knife"],
            "at": [0, 0],
        },
        {
            "id": "bo-the-raider",
            "name": "Bo the Raider",
            "side": "raiders",
            "hand": "molotov",
            "inventory": ["club", "knife"],
            "hp": 4,
            "at": [6, 0],
        },
    )
    assert made.columns == {
        "Name": "name",
        "Side": "side",
        "X": "x",
        "Y": "y",
        "Attack Bonus": "attack_bonus",
        "Traits": "traits",
        "Hand": "hand",
        "Inventory": "inventory",
        "HP": "hp",
    }
    start = parse_text(json.dumps(made.document), "roster.json").start
    assert start.combatants["bo-the-raider"].hp == 4
    assert start.combatants["ana"].max_hp == 12


def test_every_bad_cell_is_named_by_row_and_column_and_nothing_is_imported() -> None:
    with pytest.raises(RosterError) as caught:
        read_roster(BAD, "dice-combat", source="bad.csv")
    err = caught.value
    assert err.code == "bad_roster"
    integer = "input should be a valid integer, unable to parse string as an integer"
    assert err.cells == (
        BadCell(2, "Attack Bonus", "bad_value", f"'lots': {integer}"),
        BadCell(3, "Y", "bad_value", "y is blank, x is 6: a tile needs both"),
        BadCell(
            3, "Luck", "bad_value", "'sometimes': input should be 'none', 'lucky' or 'unlucky'"
        ),
        BadCell(3, "HP", "bad_value", f"'x': {integer}"),
        BadCell(5, "HP", "bad_value", "hp 13 is above max_hp 12: give 0..12"),
    )
    assert err.message.startswith("5 bad cells in 'bad.csv', nothing imported; first: row 2")


def test_a_column_naming_no_field_and_ids_used_twice_are_refused() -> None:
    with pytest.raises(RosterError) as caught:
        read_roster(GOOD, "dice-combat")
    assert [(c.row, c.column, c.code) for c in caught.value.cells] == [
        (1, "Notes", "unknown_column")
    ]
    assert "or map it to '-' to leave it out" in caught.value.cells[0].message
    twice = "Id,Name\nana,A\nana,B\nbo,C\nbo,D\n"
    with pytest.raises(RosterError) as caught:
        read_roster(twice, "dice-combat")
    assert [(c.row, c.column, c.code) for c in caught.value.cells] == [
        (3, "Id", "duplicate_id"),
        (5, "Id", "duplicate_id"),
    ]


def test_a_roster_into_an_encounter_file_keeps_its_order_and_ids_apart() -> None:
    into = "ruleset: dice-combat\norder: [ana, bo]\ncombatants: [{id: ana}, {id: bo}]\n"
    made = read_roster("Name;Side\nAna;players\n", into=into, into_source="enc.yaml")
    assert made.document["order"] == ["ana", "bo", "ana-2"]
    assert made.document["combatants"][2] == {"id": "ana-2", "name": "Ana", "side": "players"}
    with pytest.raises(FracasError, match="unknown_ruleset"):
        read_roster("Name\nAna\n", "chess")


# --- the setup page's route --------------------------------------------------------


@pytest.fixture
def setup(tmp_path: Path) -> Iterator[tuple[TestClient, str]]:
    store = open_store(tmp_path / "s.sqlite3", durable=False)
    key = SetupKey()
    token = key.mint()
    with ThreadPoolExecutor(1) as pool:
        app = create_app(TableService(store), Links(store), pool, key)
        yield TestClient(app), token
    store.close()


def _post(client: TestClient, token: str, path: str, body: Any) -> Any:
    return client.post(
        f"/api/setup/{path}", content=json.dumps(body), headers={"Authorization": f"Bearer {token}"}
    )


def test_the_setup_route_refuses_with_every_bad_cell(setup: tuple[TestClient, str]) -> None:
    client, token = setup
    r = _post(client, token, "roster", {"ruleset": "dice-combat", "text": BAD, "source": "b.csv"})
    assert r.status_code == 400
    body = r.json()
    assert body["code"] == "bad_roster"
    assert [(c["row"], c["column"]) for c in body["cells"]] == [
        (2, "Attack Bonus"),
        (3, "Y"),
        (3, "Luck"),
        (3, "HP"),
        (5, "HP"),
    ]
    assert (
        _post(client, "nope", "roster", {"ruleset": "dice-combat", "text": BAD}).json()["code"]
        == "bad_token"
    )


def test_the_setup_route_fills_the_form_which_then_checks(setup: tuple[TestClient, str]) -> None:
    client, token = setup
    body = {"ruleset": "dice-combat", "text": GOOD, "map": {"Notes": "-"}}
    r = _post(client, token, "roster", body)
    assert r.status_code == 200, r.text
    combatants = r.json()["combatants"]
    assert combatants[0] == {
        "id": "ana",
        "name": "Ana",
        "side": "players",
        "attack_bonus": "1",
        "traits": "gunslinger",  # a list field: its text, comma-separated
        "hand": {"is": "pistol", "more": "loaded: 6"},
        "inventory": [{"is": "knife", "more": ""}],
        "at": ["0", "0"],
    }
    assert combatants[1]["inventory"] == [{"is": "club", "more": ""}, {"is": "knife", "more": ""}]
    form = {"ruleset": "dice-combat", "combatants": combatants}
    assert _post(client, token, "check", form).json() == {"ok": True}
