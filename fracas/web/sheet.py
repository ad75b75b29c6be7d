"""The game master's combatant sheet on the table's page (issue 35): the ruleset's sheet
form (the setup page's, :func:`fracas.web.setup.sheet_form`), its values turned into
the combatant a file holds by the setup page's own function
(:func:`fracas.web.setup.combatant`), and the list of combatants the game master keeps
with the encounter to add later.

The add itself is the table's ``add`` action, sent on the page's socket: the table
checks the combatant as a file's (``duplicate_id``, ``tile_taken``, ...), logs it and
lets it be undone. The kept list is the game master's preparation, no record of play:
it is an extra of the store kept with the encounter (:data:`KEPT`; durable, deleted with
the encounter, never in the log), so no sync, export or player's page ever holds it;
only these routes, behind the game master's token, read it.

``GET    /api/sheet``                 ``{"form": {...}, "kept": [...]}``: the sheet form of
                                      the encounter's ruleset and the kept list
``POST   /api/sheet/combatant``      ``{"values": {...}}``: ``{"combatant": {...}}``, the
                                      combatant a file would hold
``POST   /api/sheet/kept``           ``{"values": {...}}`` or ``{"from": ID}`` (a
                                      combatant of the fight, at full HP): kept;
                                      ``{"kept": [...]}``
``DELETE /api/sheet/kept/N``         the N-th kept one dropped; ``{"kept": [...]}``

A refusal names its ``field`` (``combatant.hp``), as the setup API's does.
"""

from __future__ import annotations

import json
import threading
from typing import Any

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from fracas.errors import FracasError
from fracas.rulesets.base import plain, sheet_json_raw
from fracas.table import TableService
from fracas.web.guard import json_object
from fracas.web.links import Links
from fracas.web.refusal import bearer
from fracas.web.setup import SetupError, combatant, sheet_form

__all__ = ["KEPT", "MAX_KEPT", "sheet_routes"]

KEPT = "kept-combatants"
"""The store's extra (per encounter) holding the kept list: JSON ``[{"combatant": {...}}]``."""
MAX_KEPT = 50
"""The most combatants kept with one encounter."""
WHERE = "combatant"
"""The path of the combatant's fields in errors: ``combatant.hp``, as the ``add`` action's."""


def sheet_routes(tables: TableService, links: Links) -> list[Route]:
    """The routes of the game master's sheet form and kept list (every one behind the
    game master's token: ``forbidden`` for a player's)."""
    lock = threading.Lock()  # one read-and-write of a kept list at a time

    def gm(request: Request, what: str) -> str:
        return links.gm_encounter(bearer(request), what)

    def ruleset_of(encounter: str) -> str:
        return tables.open(encounter).ruleset.about.name

    async def body(request: Request) -> dict[str, Any]:
        raw = await request.body()  # bounded by the guard (a page message's limit)
        return json_object(raw, SetupError)

    def kept(encounter: str) -> list[dict[str, Any]]:
        raw = tables.store.extra(encounter, KEPT)
        data = json.loads(raw) if raw else []
        return data if isinstance(data, list) else []

    def of_values(encounter: str, data: dict[str, Any]) -> dict[str, Any]:
        values = data.get("values")
        if not isinstance(values, dict):
            raise SetupError("bad_value", "send the form's values: {values: {field: ...}}")
        out = combatant(ruleset_of(encounter), values, WHERE)
        if not isinstance(out.get("id"), str) or not out["id"]:
            raise SetupError("bad_id", "give the new combatant an id", f"{WHERE}.id")
        return out

    def of_fight(encounter: str, cid: Any) -> dict[str, Any]:
        """A combatant of the fight as a file would give it afresh (full HP, no tile)."""
        state = tables.open(encounter).state
        if not isinstance(cid, str) or cid not in state.combatants:
            raise SetupError("unknown_combatant", f"no combatant {cid!r} to keep", "from")
        c = state.combatants[cid]
        sheet = {k: plain(v) for k, v in sheet_json_raw(c).items()}
        return {"id": c.id, "name": c.name, "side": c.side, "max_hp": c.max_hp, **sheet}

    def keep(encounter: str, entry: dict[str, Any]) -> list[dict[str, Any]]:
        with lock:
            now = kept(encounter)
            if len(now) >= MAX_KEPT:
                raise SetupError(
                    "too_many", f"{MAX_KEPT} combatants are kept already: drop one first"
                )
            now.append({"combatant": entry})
            tables.store.put_extra(encounter, KEPT, json.dumps(now).encode())
            return now

    def drop(encounter: str, n: int) -> list[dict[str, Any]]:
        with lock:
            now = kept(encounter)
            if not 0 <= n < len(now):
                raise SetupError("unknown_kept", f"no kept combatant {n}; {len(now)} are kept")
            del now[n]
            tables.store.put_extra(encounter, KEPT, json.dumps(now).encode())
            return now

    async def get_sheet(request: Request) -> Response:
        encounter = gm(request, "see the combatant sheet and the kept list")
        form = sheet_form(ruleset_of(encounter))
        listed = await anyio.to_thread.run_sync(kept, encounter)
        return JSONResponse({"form": form, "kept": listed})

    async def convert(request: Request) -> Response:
        encounter = gm(request, "add a combatant")
        return JSONResponse({"combatant": of_values(encounter, await body(request))})

    async def keep_one(request: Request) -> Response:
        encounter = gm(request, "keep a combatant")
        data = await body(request)
        fight = "from" in data  # a combatant of the fight's sheet, else the form's values
        entry = of_fight(encounter, data["from"]) if fight else of_values(encounter, data)
        listed = await anyio.to_thread.run_sync(keep, encounter, entry)
        return JSONResponse({"kept": listed})

    async def drop_one(request: Request) -> Response:
        encounter = gm(request, "drop a kept combatant")
        try:
            n = int(request.path_params["n"])
        except ValueError:
            raise FracasError("bad_value", "a kept combatant's number") from None
        listed = await anyio.to_thread.run_sync(drop, encounter, n)
        return JSONResponse({"kept": listed})

    return [
        Route("/api/sheet", get_sheet, methods=["GET"]),
        Route("/api/sheet/combatant", convert, methods=["POST"]),
        Route("/api/sheet/kept", keep_one, methods=["POST"]),
        Route("/api/sheet/kept/{n}", drop_one, methods=["DELETE"]),
    ]
