"""What ``fracas serve`` checks before a request reaches a route: the ``Host`` it was
sent to, a socket's ``Origin``, the size of a body (before it is read), the time a
connection takes to send its request's headers; and the headers every response
carries (a Content-Security-Policy that lets in only the server's own scripts and
styles, and a page's own inline script by its hash, :func:`csp_with_scripts`; no
referrer, no sniffing, no framing).

:class:`Site` is where the server is reached: the ``--public-url`` when given, else
the address it listens on. Links are built from it, never from a request's ``Host``;
a request whose ``Host`` names neither is refused (400). A socket whose handshake
carries an ``Origin`` other than the server's own is refused (403) before it is
accepted; a handshake without ``Origin`` (no browser sends one without: scripts, the
tests' sockets) is let through, as its token alone says who it is.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import ipaddress
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import h11
import uvicorn
from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from fracas.errors import FracasError

__all__ = [
    "HEADERS",
    "HEADER_TIMEOUT",
    "WS_MAX_SIZE",
    "Guard",
    "Limit",
    "Site",
    "csp_with_scripts",
    "http_protocol",
    "json_object",
    "public_url",
    "server_config",
]

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; "
    "object-src 'none'"
)


def csp_with_scripts(*scripts: str) -> str:
    """:data:`CSP`, letting in besides exactly these inline scripts, by their SHA-256
    (a page's own, as its file has them: ``index.html`` opens its socket inline)."""
    hashes = "".join(
        f" 'sha256-{base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()}'"
        for s in scripts
    )
    return CSP.replace("script-src 'self'", f"script-src 'self'{hashes}", 1)


HEADERS = {
    "content-security-policy": CSP,
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
}
"""Added to every response (where the route has not set its own)."""

HEADER_TIMEOUT = 10.0
"""Seconds a connection has to send a request's headers, whole (slow-loris: closed)."""

WS_MAX_SIZE = 65_536
"""The largest WebSocket message read, in bytes: a frame announcing more is refused
from its header (close 1009), never buffered. The page's messages are checked again
at 16 KiB (:data:`fracas.web.live.MAX_MESSAGE`, a ``too_big`` answer, the socket
kept): this limit is the one that bounds memory."""

LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})
WILDCARD = frozenset({"", "0.0.0.0", "::"})
_DEFAULT_PORT = {"http": 80, "https": 443}


def _name(host: str) -> str:
    """A host as compared: lower case, no brackets, an IPv4-mapped IPv6 address as IPv4."""
    host = host.strip().lower().strip("[]")
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host.rstrip(".")
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return str(address.ipv4_mapped)
    return str(address)


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _netloc(host: str, port: int, scheme: str) -> str:
    shown = f"[{host}]" if ":" in host else host
    return shown if port == _DEFAULT_PORT.get(scheme) else f"{shown}:{port}"


def _origin(url: str) -> tuple[str, str, int]:
    """A checked URL's origin: scheme, host, port (the scheme's default where none)."""
    parts = urlsplit(url)
    return parts.scheme, _name(parts.hostname or ""), parts.port or _DEFAULT_PORT[parts.scheme]


def _split(netloc: str) -> tuple[str, int | None] | None:
    """``host[:port]`` (``[v6]:port`` too) as (host, port); None where it is no address."""
    try:
        parts = urlsplit(f"//{netloc}")
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    if not host or parts.username is not None or parts.password is not None or parts.path:
        return None
    return _name(host), port


def public_url(text: str) -> str:
    """``--public-url``'s value, checked: ``http(s)://host[:port]``, no path.

    Raises:
        FracasError: ``bad_public_url``, quoting it.
    """
    parts = urlsplit(text.strip())
    try:
        ok = parts.scheme in ("http", "https") and bool(parts.hostname) and parts.port != 0
    except ValueError:  # a port that is no number, or out of range
        ok = False
    if not ok or parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        raise FracasError(
            "bad_public_url",
            f"--public-url {text!r}: give the address players open, as "
            "https://fights.example.org or http://192.168.1.20:8765 (a scheme, a host, a "
            "port if any; no path)",
        )
    return f"{parts.scheme}://{parts.netloc.lower()}"


class Site:
    """Where this server is reached: ``public`` (``--public-url``, checked by
    :func:`public_url`) if given, else the address it listens on (:meth:`listening`;
    until then, or on a wildcard address, the address each connection came in on)."""

    def __init__(self, public: str | None = None) -> None:
        self.public = None if public is None else public_url(public)
        self.bound: tuple[str, int] | None = None

    def listening(self, host: str, port: int) -> None:
        self.bound = (host, port)

    def printed(self) -> str:
        """The base of the links printed at start (the server listens)."""
        if self.public is not None:
            return self.public
        assert self.bound is not None, "printed before listening"
        host, port = self.bound
        return f"http://{_netloc(host, port, 'http')}"

    def _own(self, scope: Scope) -> tuple[str, int] | None:
        """The address links name without a public URL: the one listened on, or, on a
        wildcard, the one this connection reached (None: unknown, a unix socket)."""
        if self.bound is not None and self.bound[0] not in WILDCARD:
            return _name(self.bound[0]), self.bound[1]
        server = scope.get("server")
        if not server or server[1] is None:
            return None
        return _name(str(server[0])), int(server[1])

    def base(self, scope: Scope) -> str:
        """The base of every link the game master's page lists (no request's ``Host``)."""
        if self.public is not None:
            return self.public
        own = self._own(scope)
        if own is None:
            return "http://localhost"
        scheme = "https" if scope.get("scheme") in ("https", "wss") else "http"
        return f"{scheme}://{_netloc(own[0], own[1], scheme)}"

    def _names(self, own: tuple[str, int]) -> frozenset[str]:
        return LOOPBACK | {own[0]} if _loopback(own[0]) else frozenset({own[0]})

    def allows_host(self, scope: Scope) -> bool:
        """Whether the request's ``Host`` is the public URL's host, or the address
        listened on (any loopback name where that is loopback). A request with no
        ``Host`` (HTTP/1.0) names no other host: let through."""
        header = Headers(scope=scope).get("host")
        if header is None:
            return True
        split = _split(header)
        if split is None:
            return False
        host, port = split
        if self.public is not None and host == _origin(self.public)[1]:
            return True
        own = self._own(scope)
        if own is None:
            return True  # no address to hold it to (a unix socket; fracas never listens so)
        default = 443 if scope.get("scheme") in ("https", "wss") else 80
        return host in self._names(own) and (port or default) == own[1]

    def allows_origin(self, scope: Scope) -> bool:
        """Whether a socket's handshake comes from a page of this server: no ``Origin``
        (not a browser's page), or the public URL's origin, or the address listened on."""
        origin = Headers(scope=scope).get("origin")
        if origin is None:
            return True
        parts = urlsplit(origin)
        try:
            scheme, host, port = parts.scheme, parts.hostname, parts.port
        except ValueError:
            return False
        if scheme not in ("http", "https") or not host or parts.path:
            return False
        port = port or _DEFAULT_PORT[scheme]
        if self.public is not None and (scheme, _name(host), port) == _origin(self.public):
            return True
        own = self._own(scope)
        if own is None:
            return False
        expected = "https" if scope.get("scheme") in ("https", "wss") else "http"
        return scheme == expected and _name(host) in self._names(own) and port == own[1]


@dataclass(frozen=True)
class Limit:
    """The largest body of a request, and what its refusal (413) says: JSON
    ``{"code": "too_big", "message", **fields}`` on ``/api/``, else plain text."""

    bytes: int
    message: str
    fields: Mapping[str, str] = field(default_factory=dict)


class TooBig(Exception):
    """A body past its limit, found while it is read (raised through the app)."""


async def _respond(
    send: Send, scope: Scope, status: int, code: str, message: str, fields: Mapping[str, str]
) -> None:
    """A refusal: JSON ``{"code", "message", **fields}`` on ``/api/``, else plain text;
    the connection closed after it (a body left unread)."""
    if str(scope.get("path", "")).startswith("/api/"):
        body = json.dumps({"code": code, "message": message, **fields}).encode()
        kind = b"application/json"
    else:
        body, kind = f"{message}\n".encode(), b"text/plain; charset=utf-8"
    headers = [
        (b"content-type", kind),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class Guard:
    """The app's first layer, inside Starlette's error handler (pure ASGI: no body is
    read here): the ``Host`` and ``Origin`` checks, each body held to
    ``limits(method, path)`` from its ``Content-Length`` or, chunked, while the route
    reads it, and :data:`HEADERS` on every response."""

    def __init__(self, app: ASGIApp, site: Site, limits: Callable[[str, str], Limit]) -> None:
        self.app = app
        self.site = site
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            if not (self.site.allows_host(scope) and self.site.allows_origin(scope)):
                await send({"type": "websocket.close", "code": 1008})  # before accept: 403
                return
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await self._http(scope, receive, _headed(send))

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self.site.allows_host(scope):
            host = Headers(scope=scope).get("host", "")
            await _respond(
                send,
                scope,
                400,
                "bad_host",
                f"a request for host {host!r}: this server answers for "
                f"{self.site.base(scope)} (`fracas serve --public-url` names the address "
                "players open)",
                {},
            )
            return
        limit = self.limits(scope["method"], scope["path"])
        length = Headers(scope=scope).get("content-length")
        if length is not None:
            if not length.strip().isdigit():
                await _respond(
                    send,
                    scope,
                    400,
                    "bad_length",
                    f"Content-Length {length[:40]!r}: a number of bytes",
                    limit.fields,
                )
                return
            if int(length) > limit.bytes:
                await _respond(send, scope, 413, "too_big", limit.message, limit.fields)
                return
        read = 0
        over = False
        started = False

        async def bounded() -> Message:
            nonlocal read, over
            message = await receive()
            if message["type"] == "http.request":
                read += len(message.get("body", b""))
                if read > limit.bytes:
                    over = True
                    raise TooBig(limit.message)
            return message

        async def refuse() -> None:
            nonlocal started
            if not started:
                started = True
                await _respond(send, scope, 413, "too_big", limit.message, limit.fields)

        async def answer(message: Message) -> None:
            nonlocal started
            if over:
                await refuse()  # whatever the route answers once its body was cut short
                return
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, bounded, answer)
        except TooBig:
            await refuse()


def _headed(send: Send) -> Send:
    async def headed(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = MutableHeaders(scope=message)
            for name, value in HEADERS.items():
                if name not in headers:
                    headers[name] = value
        await send(message)

    return headed


# --- the server's connections ----------------------------------------------------


def http_protocol(timeout: float = HEADER_TIMEOUT) -> type[H11Protocol]:
    """uvicorn's HTTP/1.1 protocol, with a connection closed that has not sent a
    request's headers whole within ``timeout`` seconds of its first byte (of its
    opening, for the first request). uvicorn times out only an idle connection
    between two requests (``timeout_keep_alive``), and only until a byte arrives."""

    class Timed(H11Protocol):
        _header_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._watch()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            self._watch()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._watch()

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            self._stop()  # the socket's protocol owns the connection from here
            super().handle_websocket_upgrade(event)

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop()
            super().connection_lost(exc)

        def _watch(self) -> None:
            """A timer runs while a request's headers are awaited and the idle
            connection's own (keep-alive) timer does not; it is not restarted by the
            bytes that trickle in."""
            if self.transport is None or self.transport.is_closing():
                self._stop()
            elif self.conn.their_state is h11.IDLE and self.timeout_keep_alive_task is None:
                if self._header_timer is None:
                    self._header_timer = self.loop.call_later(timeout, self._expired)
            else:
                self._stop()

        def _stop(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _expired(self) -> None:
            self._header_timer = None
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self.transport.close()

    return Timed


def server_config(
    app: ASGIApp, header_timeout: float = HEADER_TIMEOUT, **options: Any
) -> uvicorn.Config:
    """The uvicorn config of every server of the app (``fracas serve``'s, the tests'):
    the socket's frames held to :data:`WS_MAX_SIZE`, headers to ``header_timeout``."""
    return uvicorn.Config(
        app,
        http=http_protocol(header_timeout),
        ws="websockets-sansio",
        ws_max_size=WS_MAX_SIZE,
        **{"log_level": "warning", **options},
    )


def json_object(
    raw: bytes | str,
    fail: Callable[[str, str], FracasError],
    *,
    deepest: int | None = None,
    too_deep: str = "bad_json",
    not_object: str = "bad_json",
) -> dict[str, Any]:
    """``raw`` (a body or a socket's frame, within its limit already) read as the JSON
    object a page sends: the one parse of every endpoint and the socket. ``fail(code,
    message)`` makes the endpoint's own refusal: ``bad_json`` where it is not JSON,
    ``too_deep`` where it nests past ``deepest`` levels (or past the parser's recursion
    limit), ``not_object`` where it is JSON but no object."""
    try:
        data = json.loads(raw or b"{}")
    except RecursionError:  # nesting past the parser's recursion limit
        raise fail(
            too_deep, f"nesting deeper than {deepest or 'the parser reads'} levels"
        ) from None
    except ValueError as exc:
        raise fail("bad_json", f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise fail(not_object, "a JSON object is sent here")
    if deepest is not None and _depth(data, deepest) > deepest:
        raise fail(too_deep, f"nesting deeper than {deepest} levels")
    return data


def _depth(value: Any, deepest: int) -> int:
    """How deep ``value`` nests lists and mappings (without recursing; counted to just
    past ``deepest``)."""
    most, todo = 0, [(value, 0)]
    while todo:
        v, d = todo.pop()
        most = max(most, d)
        if d <= deepest and isinstance(v, dict | list):
            todo.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v))
    return most
