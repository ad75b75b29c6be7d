"""The game master's party controls on the table's page (issue 36): "Write back to the
party" and "Next fight with this party", shown once the fight is over (``party.js``).

Every route is behind the game master's token (``forbidden`` for a player's) and is a
call of :mod:`fracas.table.party`, which goes through the table service: the write-back
reads the table's state as it stands (an undo before it counts), the next fight is a
new stored encounter with the party brought in.

``GET  /api/party``              ``{"party": NAME|null, "parties": [...], "encounters":
                                 [...], "lasting": "..."}``: the party this fight brought
                                 in, the store's parties, the stored encounters of the
                                 same ruleset to start the next fight from, and what lasts
``POST /api/party/write-back``   ``{"party": NAME}`` (none: the fight's own): ``{"party":
                                 {...}}``, the party written
``POST /api/party/next``         ``{"party": NAME, "from": ENCOUNTER}`` (a stored
                                 encounter's setup, afresh) or ``{"party": NAME, "text":
                                 FILE, "source": "next.yaml"}``: what lasts is written back,
                                 then ``{"name", "gm"}``: the new encounter and its game
                                 master's page

And on the setup page (behind the setup key, as its other routes):

``GET  /api/setup/parties``      ``[{"name", "ruleset", "members": [names]}]``
``POST /api/setup/party-start``  ``{"party": NAME, "form": {...}}`` (the setup form, as
                                 ``/api/setup/start`` takes it): the encounter started with
                                 the party brought in; ``{"name", "gm"}``
"""

from __future__ import annotations

from typing import Any

import anyio.to_thread
import yaml
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from fracas.errors import FracasError
from fracas.model.frozen import thaw
from fracas.table import TableService
from fracas.table import party as parties
from fracas.web.guard import json_object
from fracas.web.links import Links, add_player_links
from fracas.web.refusal import bearer
from fracas.web.setup import SetupError, SetupKey, loaded

__all__ = ["party_routes"]


def _name(data: dict[str, Any], key: str) -> str | None:
    value = data.get(key)
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise FracasError("bad_value", f"{key}: {value!r} is not a name")
    return value


def party_routes(tables: TableService, links: Links, key: SetupKey | None = None) -> list[Route]:
    """The routes of the game master's party controls, and the setup page's (where
    there is a setup page: ``key``)."""

    def gm(request: Request, what: str) -> str:
        return links.gm_encounter(bearer(request), what)

    async def body(request: Request) -> dict[str, Any]:
        return json_object(await request.body(), FracasError)

    def about(encounter: str) -> dict[str, Any]:
        ruleset = tables.open(encounter).ruleset.about
        lasting = ruleset.lasting
        known = parties.Parties(tables.store).all()
        return {
            "party": parties.party_of(tables, encounter),
            "parties": [p.name for p in known if p.ruleset == ruleset.name],
            "encounters": [
                i.name for i in tables.list() if i.ruleset == ruleset.name and i.name != encounter
            ],
            "lasting": ", ".join(("HP",) * lasting.hp + lasting.sheet + lasting.statuses),
        }

    def next_text(data: dict[str, Any]) -> tuple[str, str]:
        """The next fight's file: a stored encounter's setup (without its actions), or
        the text the page sent."""
        stored = _name(data, "from")
        if stored is not None:
            if stored not in tables.names():
                raise FracasError("unknown_encounter", f"no stored encounter {stored!r}")
            setup = thaw(tables.open(stored).file.setup)
            return yaml.safe_dump(setup, sort_keys=False, allow_unicode=True), f"{stored}.yaml"
        text, source = data.get("text"), data.get("source") or "next.yaml"
        if not isinstance(text, str) or not text.strip() or not isinstance(source, str):
            raise FracasError(
                "bad_value", "give the next fight: {from: ENCOUNTER} or {text: FILE, source}"
            )
        return text, source

    def go_next(encounter: str, data: dict[str, Any]) -> dict[str, Any]:
        text, source = next_text(data)
        table = parties.next_fight(tables, encounter, text, source, party=_name(data, "party"))
        add_player_links(links, table)  # one per player-side combatant, as the setup page's
        return {"name": table.name, "gm": f"/t/{links.gm(table.name, renew=False)}"}

    async def get_party(request: Request) -> Response:
        encounter = gm(request, "see the party")
        return JSONResponse(await anyio.to_thread.run_sync(about, encounter))

    async def write_back(request: Request) -> Response:
        encounter = gm(request, "write the fight back to the party")
        party = _name(await body(request), "party")
        written = await anyio.to_thread.run_sync(parties.write_back, tables, encounter, party)
        return JSONResponse({"party": written.to_json()})

    async def next_fight(request: Request) -> Response:
        encounter = gm(request, "start the next fight")
        data = await body(request)
        return JSONResponse(await anyio.to_thread.run_sync(go_next, encounter, data))

    routes = [
        Route("/api/party", get_party, methods=["GET"]),
        Route("/api/party/write-back", write_back, methods=["POST"]),
        Route("/api/party/next", next_fight, methods=["POST"]),
    ]
    return routes if key is None else routes + _setup_routes(tables, links, key)


def _setup_routes(tables: TableService, links: Links, key: SetupKey) -> list[Route]:
    """The setup page's party choice: the parties, and a start with one brought in."""

    def listed() -> list[dict[str, Any]]:
        return [
            {"name": p.name, "ruleset": p.ruleset, "members": [m.name for m in p.members]}
            for p in parties.Parties(tables.store).all()
        ]

    def started(data: dict[str, Any]) -> dict[str, Any]:
        party, form = _name(data, "party"), data.get("form")
        if party is None or not isinstance(form, dict):
            raise SetupError("bad_value", "send {party: NAME, form: {...}}", "party")
        name, text = loaded(form)
        table = parties.start(tables, party, text, f"{name or 'setup'}.yaml", name=name or None)
        add_player_links(links, table)
        return {"name": table.name, "gm": f"/t/{links.gm(table.name, renew=False)}"}

    async def get_parties(request: Request) -> Response:
        key.check(bearer(request))
        return JSONResponse(await anyio.to_thread.run_sync(listed))

    async def start(request: Request) -> Response:
        key.check(bearer(request))
        data = json_object(await request.body(), SetupError)
        return JSONResponse(await anyio.to_thread.run_sync(started, data))

    return [
        Route("/api/setup/parties", get_parties, methods=["GET"]),
        Route("/api/setup/party-start", start, methods=["POST"]),
    ]
