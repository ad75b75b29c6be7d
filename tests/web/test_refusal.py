"""The app's one answer to a refused request (:mod:`fracas.web.refusal`): Starlette's
exception handler for :class:`~fracas.errors.FracasError`, registered once; JSON
``{"code", "message"}`` (``"field"`` too on the setup API), its status by its code. On
a bare app first (every code the web layer raises), then through the server's own
routes, the links API and the setup API alike."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.testclient import TestClient

from fracas.errors import FileError, FracasError
from fracas.io.store import open_store
from fracas.table import Forbidden, TableService
from fracas.table.mapimage import MapImageError
from fracas.web.app import create_app
from fracas.web.links import LinkError, Links
from fracas.web.refusal import HANDLERS, bearer, refused
from fracas.web.setup import SetupError, SetupKey
from tests.web.support import FIGHT

RAISED: dict[str, FracasError] = {
    "forbidden": Forbidden("forbidden", "only the game master may"),
    "bad_token": LinkError("bad_token", "this link does not open a table"),
    "setup_key": SetupError("bad_token", "this link does not open the setup page"),
    "unknown_link": LinkError("unknown_link", "no player link 'p9'"),
    "unknown_encounter": SetupError("unknown_encounter", "no stored encounter 'x'"),
    "map_too_big": MapImageError("too_big", "a map image of 5 bytes; at most 4"),
    "bad_name": LinkError("bad_name", "a new link needs a 'name'"),
    "bad_value": SetupError("bad_value", "a tile is [x, y]", "combatants[0].at"),
    "plain": FracasError("store_busy", "the store is busy"),
}
STATUS = {
    "forbidden": 403,
    "bad_token": 403,
    "setup_key": 403,
    "unknown_link": 404,
    "unknown_encounter": 404,
    "map_too_big": 413,
    "bad_name": 400,
    "bad_value": 400,
    "plain": 400,
}


def _raising(request: Request) -> Response:
    raise RAISED[request.path_params["which"]]


@pytest.fixture
def bare() -> TestClient:
    app = Starlette(
        routes=[
            Route("/api/{which}", _raising),
            Route("/api/setup/{which}", _raising),
        ],
        exception_handlers=HANDLERS,
    )
    return TestClient(app)


@pytest.mark.parametrize("which", sorted(RAISED))
def test_a_refusal_is_its_code_and_message_with_the_codes_status(
    bare: TestClient, which: str
) -> None:
    exc = RAISED[which]
    r = bare.get(f"/api/{which}")
    assert (r.status_code, r.json()) == (STATUS[which], {"code": exc.code, "message": exc.message})
    assert r.headers["content-type"] == "application/json"


@pytest.mark.parametrize("which", sorted(RAISED))
def test_the_setup_api_names_the_field_too(bare: TestClient, which: str) -> None:
    exc = RAISED[which]
    r = bare.get(f"/api/setup/{which}")
    field = "combatants[0].at" if which == "bad_value" else ""
    assert (r.status_code, r.json()) == (
        STATUS[which],
        {"code": exc.code, "message": exc.message, "field": field},
    )


def test_a_file_errors_field_is_named(bare: TestClient) -> None:
    exc = FileError("bad_value", "not a number", where="setup.yaml", path=("combatants", 1, "hp"))
    RAISED["file"] = exc
    try:
        body = bare.get("/api/setup/file").json()
    finally:
        del RAISED["file"]
    assert body == {"code": "bad_value", "message": exc.message, "field": "combatants[1].hp"}


def test_bearer_reads_the_token() -> None:
    def asked(headers: dict[str, str]) -> str:
        scope: dict[str, Any] = {
            "type": "http",
            "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
        }
        return bearer(Request(scope))

    assert asked({"Authorization": "Bearer abc"}) == "abc"
    assert asked({"Authorization": "bearer abc"}) == "abc"
    assert asked({"Authorization": "Basic abc"}) == ""
    assert asked({}) == ""


@pytest.fixture
def app(tmp_path: Path) -> Iterator[tuple[TestClient, str, str, str]]:
    """The server's app with its setup page: a client, the GM's, Pat's and the setup
    token."""
    from concurrent.futures import ThreadPoolExecutor

    store = open_store(tmp_path / "s.sqlite3", durable=False)
    tables = TableService(store)
    tables.create(FIGHT, "fight.yaml", name="fight", seed=11)
    links = Links(store)
    gm = links.gm("fight")
    _, pat = links.add("fight", "Pat", ["ana"])
    key = SetupKey()
    setup = key.mint()
    with ThreadPoolExecutor(1) as pool:
        yield TestClient(create_app(tables, links, pool, key)), gm, pat, setup
    store.close()


def test_the_app_registers_the_one_handler(app: tuple[TestClient, str, str, str]) -> None:
    client = app[0]
    starlette: Any = client.app
    assert starlette.exception_handlers[FracasError] is refused


def test_the_apps_routes_answer_through_it(app: tuple[TestClient, str, str, str]) -> None:
    client, gm, pat, setup = app

    def ask(method: str, path: str, token: str, **kw: Any) -> tuple[int, dict[str, Any]]:
        r = client.request(method, path, headers={"Authorization": f"Bearer {token}"}, **kw)
        return r.status_code, r.json()

    status, body = ask("GET", "/api/links", pat)
    assert (status, body["code"], set(body)) == (403, "forbidden", {"code", "message"})
    status, body = ask("GET", "/api/state", "nope")
    assert (status, body["code"], set(body)) == (403, "bad_token", {"code", "message"})
    status, body = ask("DELETE", "/api/links/p9", gm)
    assert (status, body["code"]) == (404, "unknown_link")
    status, body = ask("POST", "/api/links", gm, json={"owns": []})
    assert (status, body["code"]) == (400, "bad_name")
    status, body = ask("POST", "/api/links", gm, content=b"{not json")
    assert (status, body["code"]) == (400, "bad_json")
    status, body = ask("PUT", "/api/map", gm, content=b"GIF89a")
    assert (status, body["code"]) == (400, "bad_image")
    # the setup API: behind its key, every refusal with its field
    status, body = ask("GET", "/api/setup/rulesets", gm)
    assert (status, body) == (
        403,
        {"code": "bad_token", "message": "this link does not open the setup page", "field": ""},
    )
    status, body = ask("POST", "/api/setup/open", setup, json={"name": "nope"})
    assert (status, body["code"], body["field"]) == (404, "unknown_encounter", "")
    status, body = ask("POST", "/api/setup/check", setup, content=b"[1]")
    assert (status, body["code"], body["field"]) == (400, "bad_json", "")
    status, body = ask("GET", "/api/setup/export/nope", setup)
    assert (status, body["code"]) == (404, "unknown_encounter")
    # what is not refused is answered as before
    assert ask("GET", "/api/setup/encounters", setup)[0] == 200
    assert client.get("/api/state", headers={"Authorization": f"Bearer {gm}"}).status_code == 200
