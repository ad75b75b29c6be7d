"""The HTTP side of ``fracas serve``: the page, its static files, the links API and
the socket. Thin: who a request is comes from its token (:class:`Links`); what it may
do is decided by :class:`fracas.table.Identity`; what it sees, by
:class:`fracas.table.View`.

``GET /``                            a landing page: how to open a table
``GET /t/TOKEN``                    the page (``index.html``)
``GET /static/...``                  its script and style (gzip where asked; each with
                                     its ETag, revalidated: ``no-cache``, a 304 when unchanged)
``GET /favicon.ico``                 the icon (``static/favicon.svg``)
``GET /api/state``                   the state as this token sees it
``GET /api/links`` ``POST /api/links`` ``POST /api/links/ID`` ``DELETE /api/links/ID``
                                     the game master's player links (list, each with
                                     its address and a QR code; create, assign
                                     combatants, revoke)
``GET /api/export``                  the game master's download: an encounter file
``PUT /api/map`` ``DELETE /api/map``  the game master's map image (PNG, JPEG, WebP)
``GET /map/TOKEN``                   the map image, for every page of the table
``WS  /ws?token=TOKEN``              the live protocol (:mod:`fracas.web.live`)
``/api/sheet...``                    the game master's sheet form of the ruleset (a new
                                     combatant mid-fight) and the combatants kept with
                                     the encounter (:mod:`fracas.web.sheet`)
``/setup/TOKEN``, ``/api/setup/...``   the setup page (:mod:`fracas.web.setup`), where a
                                     setup key is given

Every ``/api`` request carries ``Authorization: Bearer TOKEN``; a refusal is
``{"code", "message"}`` with status 400 (bad input), 403 (not allowed), 404 or 413 (a
body past its limit, :func:`body_limit`), made by the app's one exception handler
(:mod:`fracas.web.refusal`) from the error a route raises. Before any route,
:class:`Guard` checks the ``Host`` (and a socket's ``Origin``) against the
:class:`Site`, holds each body to its limit before it is read, and adds the security
headers to every response.
"""

from __future__ import annotations

import gzip
import re
from concurrent.futures import Executor
from pathlib import Path
from typing import Any, ClassVar

import anyio
import anyio.to_thread
import yaml
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import NotModifiedResponse, StaticFiles
from starlette.types import Scope

from fracas.model.frozen import thaw
from fracas.table import Identity, TableService, View
from fracas.web.guard import Guard, Limit, Site, csp_with_scripts, json_object
from fracas.web.links import Link, LinkError, Links
from fracas.web.live import MAX_MESSAGE, Hub, Socket
from fracas.web.logmd import log_routes
from fracas.web.mapimage import KEY as MAP_KEY
from fracas.web.mapimage import MAX_BYTES as MAX_IMAGE
from fracas.web.mapimage import MapImageError, image_type
from fracas.web.party import party_routes
from fracas.web.qr import qr_svg
from fracas.web.refusal import HANDLERS, bearer
from fracas.web.setup import SETUP_BODY, SetupKey, setup_routes
from fracas.web.sheet import sheet_routes
from fracas.web.shown import page_state

__all__ = ["GZIP_FROM", "STATIC", "body_limit", "create_app", "warm"]

STATIC = Path(__file__).parent / "static"

GZIP_FROM = 500
"""Bytes from which a response is sent gzipped to a browser that takes it (the page's
scripts and style: 112 KB as files, about a third of it gzipped)."""


class Static(StaticFiles):
    """The page's files, each kept by the browser and asked again with its ETag at every
    load (``no-cache``: a new fracas's files are seen at once; an unchanged file costs
    a 304 with no body)."""

    _kept: ClassVar[dict[str, tuple[tuple[int, int], bytes, bytes | None, dict[str, str]]]] = {}
    """Every file served, by its path: its time and size, bytes, gzipped bytes, headers
    (one for the process: its apps serve the same files)."""

    def file_response(
        self, full_path: Any, stat_result: Any, scope: Scope, status_code: int = 200
    ) -> Response:
        asked = Headers(scope=scope)
        if scope["method"] != "GET" or status_code != 200 or "range" in asked:
            response = super().file_response(full_path, stat_result, scope, status_code)
            response.headers["Cache-Control"] = "no-cache"
            return response
        # Kept in memory, gzipped once (issue 35, "speed and weight"): a first load asks
        # for some fifteen files at once, and each read in threads and gzipped again on
        # the server's one loop held the page's modules back by a few ms apiece.
        plain, packed, headers = self._kept_file(str(full_path), stat_result)
        if self.is_not_modified(Headers(headers=headers), asked):
            return NotModifiedResponse(Headers(headers=headers))
        if packed is not None and "gzip" in asked.get("accept-encoding", ""):
            return Response(packed, headers={**headers, "Content-Encoding": "gzip"})
        return Response(plain, headers=headers)

    def _kept_file(
        self, full_path: str, stat_result: Any
    ) -> tuple[bytes, bytes | None, dict[str, str]]:
        """The file's bytes, gzipped where it gains (``GZIP_FROM``), and its headers (its
        type, ETag and date as Starlette's ``FileResponse`` gives them), read again when
        its time or size changed."""
        stamp = (stat_result.st_mtime_ns, stat_result.st_size)
        kept = self._kept.get(full_path)
        if kept is None or kept[0] != stamp:
            plain = Path(full_path).read_bytes()
            packed = gzip.compress(plain, 9, mtime=0) if len(plain) >= GZIP_FROM else None
            told = FileResponse(full_path, stat_result=stat_result).headers
            headers = {k: told[k] for k in ("content-type", "etag", "last-modified")}
            headers |= {"Cache-Control": "no-cache", "Vary": "Accept-Encoding"}
            kept = (stamp, plain, packed, headers)
            self._kept[full_path] = kept
        return kept[1], kept[2], kept[3]


_pages: dict[str, tuple[tuple[int, int], bytes, dict[str, str]]] = {}
"""The pages served (``index.html``, ``setup.html``, ``landing.html``) by name: their
time and size, their bytes and headers, read again when either changed."""
INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.DOTALL)
"""A page's inline script (a ``<script>`` with no attribute): let in by its hash."""


def page_response(name: str) -> Response:
    """A page of :data:`STATIC`, never kept by the browser (``no-store``: its token is in
    its address), from memory: the first request of every load, it held the page's
    scripts back while Starlette's ``FileResponse`` stat-ed, opened, read and closed the
    file in some twenty hops to worker threads (issue 35, "speed"). The app's
    ``GZipMiddleware`` gzips it where the browser takes that."""
    path = STATIC / name
    info = path.stat()
    stamp = (info.st_mtime_ns, info.st_size)
    kept = _pages.get(name)
    if kept is None or kept[0] != stamp:
        body = path.read_bytes()
        headers = {"Cache-Control": "no-store"}
        inline = INLINE_SCRIPT.findall(body.decode())
        if inline:  # its own inline scripts, and no other, by their hashes
            headers["Content-Security-Policy"] = csp_with_scripts(*inline)
        kept = _pages[name] = (stamp, body, headers)
    return Response(kept[1], media_type="text/html", headers=kept[2])


MAP_BODY = Limit(
    MAX_IMAGE,
    f"a map image of more than {MAX_IMAGE:,} bytes; at most 4 MiB: upload a smaller one",
)
API_BODY = Limit(
    MAX_MESSAGE,
    f"a body of more than {MAX_MESSAGE:,} bytes; the game master's page sends at most that",
)


def warm() -> None:
    """The table page and the files it names (``/static/...``) read, gzipped and kept
    now, as :class:`Static` and :func:`page_response` keep them, the file types known,
    and anyio's worker threads imported (StaticFiles looks a file up in one): ``fracas
    serve`` calls it before it prints its links, so the first load does not wait on
    the server's own first time (the first static file of a fresh server took 28 ms,
    21 of them anyio's asyncio backend imported, on the server's one loop)."""
    anyio.run(anyio.to_thread.run_sync, lambda: None)  # the backend, as uvicorn's loop uses it
    page = page_response("index.html").body
    static = Static(directory=STATIC)
    for name in sorted(set(re.findall(rb'"/static/([\w.-]+)"', page))):
        full_path, stat_result = static.lookup_path(name.decode())
        if stat_result is not None:
            static._kept_file(full_path, stat_result)


def body_limit(method: str, path: str) -> Limit:
    """The largest body a request may carry: the map image's, the setup form's, else
    (the links API, and any request whose body is not read) a page message's."""
    if path == "/api/map" and method == "PUT":
        return MAP_BODY
    if path.startswith("/api/setup/"):
        return SETUP_BODY
    return API_BODY


def listed(link: Link, base: str) -> dict[str, Any]:
    """A link as the game master's list shows it: its address and QR code too (a revoked
    one: neither)."""
    out = link.public()
    if not link.revoked:
        url = f"{base}/t/{link.token}"
        out |= {"path": f"/t/{link.token}", "url": url, "qr": qr_svg(url, f"{link.name}'s link")}
    return out


def create_app(
    tables: TableService,
    links: Links,
    executor: Executor,
    setup: SetupKey | None = None,
    gm_tokens: dict[str, str] | None = None,
    site: Site | None = None,
) -> Starlette:
    """The server's app over ``tables`` (its store), ``links`` and an odds executor;
    with a ``setup`` key, the setup page too (``gm_tokens``: the game master's tokens
    minted by this process, by encounter, which the setup page hands out again).
    ``site``: where the server is reached (links are made from it; without one, from
    the address each connection reached)."""
    hub = Hub(tables, links, executor)
    site = site or Site()

    def who(request: Request) -> tuple[str, Link]:
        return links.identify(bearer(request))

    async def body(request: Request) -> dict[str, Any]:
        raw = await request.body()  # at most MAX_MESSAGE bytes: the guard stops the rest
        return json_object(raw, LinkError)

    def owns(data: dict[str, Any], encounter: str) -> list[str]:
        ids = data.get("owns", [])
        known = tables.open(encounter).state.combatants
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise LinkError("bad_owns", "'owns' is a list of combatant ids")
        for cid in ids:
            if cid not in known:
                raise LinkError(
                    "unknown_combatant", f"no combatant {cid!r}; valid: {', '.join(known)}"
                )
        return list(ids)

    async def landing(request: Request) -> Response:
        return page_response("landing.html")

    async def favicon(request: Request) -> Response:
        return FileResponse(
            STATIC / "favicon.svg",
            media_type="image/svg+xml",
            headers={"Cache-Control": "max-age=86400"},
        )

    async def page(request: Request) -> Response:
        try:
            links.identify(request.path_params["token"])
        except LinkError as exc:
            return Response(f"{exc.message}\n", status_code=403, media_type="text/plain")
        return page_response("index.html")

    async def state(request: Request) -> Response:
        encounter, link = who(request)
        return JSONResponse(page_state(View(tables.open(encounter).snapshot(), link.identity)))

    def gm(request: Request, what: str) -> tuple[str, Identity]:
        encounter, link = who(request)
        identity = link.identity
        identity.check_gm(what)
        return encounter, identity

    async def list_links(request: Request) -> Response:
        encounter, _ = gm(request, "see the player links")
        base = site.base(request.scope)  # never the request's Host
        return JSONResponse([listed(link, base) for link in links.of(encounter)])

    async def add_link(request: Request) -> Response:
        encounter, _ = gm(request, "make player links")
        data = await body(request)
        name = data.get("name")
        if not isinstance(name, str):
            raise LinkError("bad_name", "a new link needs a 'name'")
        link, token = links.add(encounter, name, owns(data, encounter))
        return JSONResponse({**listed(link, site.base(request.scope)), "token": token})

    async def assign(request: Request) -> Response:
        encounter, _ = gm(request, "assign combatants")
        data = await body(request)
        link = links.assign(encounter, request.path_params["id"], owns(data, encounter))
        await hub.changed(encounter, link.id)
        return JSONResponse(link.public())

    async def revoke(request: Request) -> Response:
        encounter, _ = gm(request, "revoke links")
        link = links.revoke(encounter, request.path_params["id"])
        await hub.revoked(encounter, link.id)
        return JSONResponse(link.public())

    async def download(request: Request) -> Response:
        encounter, identity = gm(request, "download the encounter")
        data = thaw(tables.open(encounter).export(identity))
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
        return Response(
            text,
            media_type="application/yaml",
            headers={"Content-Disposition": f'attachment; filename="{encounter}.yaml"'},
        )

    async def put_map(request: Request) -> Response:
        encounter, identity = gm(request, "upload the map image")
        raw = await request.body()  # at most MAX_IMAGE bytes: the guard stops the rest
        kind = image_type(raw)
        table = tables.open(encounter)
        await anyio.to_thread.run_sync(table.put_map_image, raw, identity)
        return JSONResponse({"type": kind, "bytes": len(raw), "path": "/map/"})

    async def drop_map(request: Request) -> Response:
        encounter, identity = gm(request, "remove the map image")
        table = tables.open(encounter)
        await anyio.to_thread.run_sync(table.put_map_image, None, identity)
        return JSONResponse({"removed": True})

    async def map_image(request: Request) -> Response:
        try:
            encounter, _ = links.identify(request.path_params["token"])
        except LinkError as exc:
            return Response(f"{exc.message}\n", status_code=403, media_type="text/plain")
        data = tables.store.extra(encounter, MAP_KEY)
        if data is None:
            return Response("no map image\n", status_code=404, media_type="text/plain")
        try:
            kind = image_type(data)
        except MapImageError as exc:  # kept before the pixel limit: no page is sent it
            return Response(f"{exc.message}\n", status_code=404, media_type="text/plain")
        return Response(
            data,
            media_type=kind,
            headers={"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"},
        )

    extra = (
        []
        if setup is None
        else setup_routes(
            tables, links, setup, {} if gm_tokens is None else gm_tokens, page_response
        )
    )

    app = Starlette(
        routes=[
            Route("/", landing),
            Route("/t/{token}", page),
            Route("/api/state", state),
            Route("/api/links", list_links, methods=["GET"]),
            Route("/api/links", add_link, methods=["POST"]),
            Route("/api/links/{id}", assign, methods=["POST"]),
            Route("/api/links/{id}", revoke, methods=["DELETE"]),
            Route("/api/export", download),
            Route("/api/map", put_map, methods=["PUT"]),
            Route("/api/map", drop_map, methods=["DELETE"]),
            Route("/map/{token}", map_image),
            WebSocketRoute("/ws", Socket),
            *sheet_routes(tables, links),  # the game master's sheet form and kept list
            *log_routes(tables, links),  # the log as Markdown (fracas.web.logmd)
            *party_routes(tables, links, setup),  # the party: write back, next fight (issue 36)
            *extra,
            Route("/favicon.ico", favicon),
            Mount("/static", Static(directory=STATIC), name="static"),
        ],
        middleware=[
            Middleware(Guard, site=site, limits=body_limit),
            Middleware(GZipMiddleware, minimum_size=GZIP_FROM),
        ],
        exception_handlers=HANDLERS,
    )
    app.state.site = site
    app.state.hub = hub  # the socket's (Socket) pages join it
    return app
