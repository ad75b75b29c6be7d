"""Issue 36, "Rosters in and out": the setup page's column mapping, at the route (no
browser). A CSV column that names no field of the ruleset's sheet is refused through the
app's one refusal handler (:mod:`fracas.web.refusal`), which now carries an error's
``cells``: each such column is row 1's ``unknown_column``, which the page offers to map;
the same file sent again with ``map`` (``{column: field}``, ``"-"``: leave it out) is
imported. DC-* sheets (dice-combat's ``luck``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.testclient import TestClient

from fracas.errors import FracasError
from fracas.io.roster_csv import BadCell, RosterError
from fracas.io.store import open_store
from fracas.table import TableService
from fracas.web.app import create_app
from fracas.web.links import Links
from fracas.web.refusal import HANDLERS
from fracas.web.setup import SetupKey

SHEET = """\
Name,Player,Side,Fortune
Ana,Kim,players,lucky
Bo,,raiders,none
"""
"""Two columns naming no field: ``Player`` (to leave out), ``Fortune`` (``luck``)."""
VALID = (
    "valid: id, name, side, at, hp, max_hp, attack_bonus, defend_close_bonus, "
    "defend_ranged_bonus, crit, luck, traits, cover, surrendered, hand, inventory, x, y; "
    "or map it to '-' to leave it out"
)
"""What a column may name in dice-combat: the core fields, the DC sheet's, the tile's."""


@pytest.fixture
def post(tmp_path: Path) -> Iterator[Any]:
    """POST a body to ``/api/setup/roster`` with the setup key: the response."""
    store = open_store(tmp_path / "s.sqlite3", durable=False)
    key = SetupKey()
    token = key.mint()
    with ThreadPoolExecutor(1) as pool:
        client = TestClient(create_app(TableService(store), Links(store), pool, key))

        def send(body: dict[str, Any]) -> Any:
            headers = {"Authorization": f"Bearer {token}"}
            return client.post("/api/setup/roster", content=json.dumps(body), headers=headers)

        yield send
    store.close()


def test_issue_36_a_column_naming_no_field_comes_back_as_a_cell_to_map(post: Any) -> None:
    r = post({"ruleset": "dice-combat", "text": SHEET, "source": "crew.csv"})
    assert r.status_code == 400
    assert r.json() == {
        "code": "bad_roster",
        "message": "2 bad cells in 'crew.csv', nothing imported; first: row 1, column "
        f"'Player': unknown_column: 'Player' maps to no field of dice-combat; {VALID}",
        "field": "",  # the app's handler answered it, as every route's refusal
        "cells": [
            {
                "row": 1,
                "column": column,
                "code": "unknown_column",
                "message": f"{column!r} maps to no field of dice-combat; {VALID}",
            }
            for column in ("Player", "Fortune")
        ],
    }


def test_issue_36_the_same_file_with_the_pages_mapping_is_imported(post: Any) -> None:
    body = {"ruleset": "dice-combat", "text": SHEET, "map": {"Player": "-", "Fortune": "luck"}}
    r = post(body)
    assert r.status_code == 200, r.text
    assert r.json() == {
        "ruleset": "dice-combat",
        "columns": {"Name": "name", "Side": "side", "Fortune": "luck"},
        "combatants": [
            {"id": "ana", "name": "Ana", "side": "players", "luck": "lucky"},
            {"id": "bo", "name": "Bo", "side": "raiders", "luck": "none"},
        ],
    }


def test_issue_36_a_mapping_the_sheet_refuses_is_named_by_its_column(post: Any) -> None:
    def cells(mapping: dict[str, str]) -> list[tuple[int, str, str, str]]:
        r = post({"ruleset": "dice-combat", "text": SHEET, "map": mapping})
        assert (r.status_code, r.json()["code"]) == (400, "bad_roster")
        return [(c["row"], c["column"], c["code"], c["message"]) for c in r.json()["cells"]]

    assert cells({"Player": "-", "Fortune": "fortune"}) == [
        (1, "Fortune", "unknown_column", f"'Fortune' maps to field 'fortune' of dice-combat; "
         f"{VALID}")
    ]  # fmt: skip
    assert cells({"Player": "name", "Fortune": "luck"}) == [
        (1, "Player", "duplicate_column", "a second column for 'name'")
    ]
    # the mapped column's cells are checked as any (DC sheets: luck is none or lucky)
    r = post({"ruleset": "dice-combat", "text": SHEET.replace("lucky", "very"),
              "map": {"Player": "-", "Fortune": "luck"}})  # fmt: skip
    assert [(c["row"], c["column"], c["code"]) for c in r.json()["cells"]] == [
        (2, "Fortune", "bad_value")
    ]


def _raising(request: Request) -> Response:
    which = request.path_params["which"]
    if which == "cells":
        raise RosterError("x.csv", [BadCell(2, "HP", "bad_value", "'lots' is no value")])
    raise FracasError("store_busy", "the store is busy")


def test_issue_36_the_refusal_handler_carries_an_errors_cells_and_only_then() -> None:
    app = Starlette(
        routes=[Route("/api/{which}", _raising), Route("/api/setup/{which}", _raising)],
        exception_handlers=HANDLERS,
    )
    client = TestClient(app)
    cell = {"row": 2, "column": "HP", "code": "bad_value", "message": "'lots' is no value"}
    message = "1 bad cell in 'x.csv', nothing imported; first: row 2, column 'HP': bad_value: "
    message += "'lots' is no value"
    assert client.get("/api/cells").json() == {
        "code": "bad_roster",
        "message": message,
        "cells": [cell],
    }
    assert client.get("/api/setup/cells").json() == {
        "code": "bad_roster",
        "message": message,
        "field": "",
        "cells": [cell],
    }
    assert client.get("/api/setup/plain").json() == {
        "code": "store_busy",
        "message": "the store is busy",
        "field": "",
    }
