"""How ``fracas serve`` answers a request it refuses: every
:class:`~fracas.errors.FracasError` a route raises reaches :func:`refused`, Starlette's
exception handler for it, registered once on the app (:data:`HANDLERS`, in
:func:`fracas.web.app.create_app`); no route catches its own.

The answer is JSON ``{"code", "message"}``, the setup API's (``/api/setup/``) and the
game master's sheet form's (``/api/sheet``) with
``"field"`` too: the form's control it is about (a file error's field, ``""`` where
none), as the :class:`~fracas.web.guard.Guard`'s own refusals there. A refusal of many
things at once carries each in ``"cells"`` (a CSV roster's every bad cell, issue 36:
``{"row", "column", "code", "message"}``): whatever the error holds in its ``cells``,
each as its ``to_json()``; an error without any answers without the key. Its status is
its code's (:data:`STATUS`), 400 for any other: the pages served by a token
(``/t/TOKEN``, ``/map/TOKEN``, ``/setup/TOKEN``) answer a bad one in plain text
themselves.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from fracas.errors import FracasError

__all__ = ["HANDLERS", "STATUS", "Cell", "bearer", "cells", "refused"]

STATUS: Mapping[str, int] = {
    "forbidden": 403,  # the identity may not (fracas.table.Forbidden)
    "bad_token": 403,  # no link, a revoked one, not the setup key
    "unknown_link": 404,
    "unknown_encounter": 404,
    "too_big": 413,  # a map image past its limit
}
"""The status of a refusal by its code (any other: 400, bad input)."""

SETUP_API = "/api/setup/"
"""Where a refusal names its ``field`` too (:mod:`fracas.web.setup`)."""
SHEET_API = "/api/sheet"
"""The game master's sheet form (:mod:`fracas.web.sheet`): its refusals name their field too."""


def bearer(request: Request) -> str:
    """The token of the request's ``Authorization: Bearer TOKEN`` (``""``: none)."""
    auth = request.headers.get("authorization", "")
    return auth[7:] if auth.lower().startswith("bearer ") else ""


@runtime_checkable
class Cell(Protocol):
    """One of the things a refusal names (:class:`fracas.io.roster_csv.BadCell`)."""

    def to_json(self) -> dict[str, Any]: ...


def cells(exc: FracasError) -> list[dict[str, Any]]:
    """What ``exc`` holds in its ``cells``, each as JSON (none: ``[]``)."""
    held = getattr(exc, "cells", None)
    if not isinstance(held, list | tuple):
        return []
    return [c.to_json() for c in held if isinstance(c, Cell)]


async def refused(request: Request, exc: Exception) -> Response:
    """The app's answer to a route's :class:`~fracas.errors.FracasError`."""
    assert isinstance(exc, FracasError), exc  # registered for FracasError alone
    body: dict[str, Any] = {"code": exc.code, "message": exc.message}
    if str(request.scope.get("path", "")).startswith((SETUP_API, SHEET_API)):
        body["field"] = getattr(exc, "field", "")  # FileError's, SetupError's
    listed = cells(exc)
    if listed:
        body["cells"] = listed
    return JSONResponse(body, status_code=STATUS.get(exc.code, 400))


HANDLERS: Mapping[Any, Any] = {FracasError: refused}
"""The app's exception handlers (``Starlette(exception_handlers=HANDLERS)``)."""
