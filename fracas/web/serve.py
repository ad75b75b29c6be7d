"""``fracas serve``: open (or start) an encounter of the store, or none (the setup
page), listen, print the links and run the server (uvicorn) until Ctrl-C or SIGTERM.

The links are printed once uvicorn serves (its socket bound and listening before
uvicorn starts, so nothing ever meets "connection refused"; the links printed when
uvicorn's loop is up, so a page opened from one at once is answered at once rather
than queued behind the server's start, about 30 ms). Ctrl-C or SIGTERM at any moment
stops it cleanly, with status 0 (:mod:`fracas.web.stopping`): before it listens, no
link is minted and nothing is served."""

from __future__ import annotations

import json
import socket
import sys
import threading
import webbrowser
from collections.abc import Callable

from fracas.errors import FracasError
from fracas.io.store import EncounterStore, open_store
from fracas.table import SetPolicy, Table, TableService
from fracas.web import answers
from fracas.web.app import create_app, warm
from fracas.web.collector import Collector
from fracas.web.guard import Site, server_config
from fracas.web.links import GM_ID, Links, add_player_links, secret_for
from fracas.web.setup import SetupKey
from fracas.web.stopping import Stopping
from fracas.web.workers import pool, stop

__all__ = ["DEFAULT_PORT", "SERVED", "free_port", "listen", "print_links", "serve", "start_links"]

DEFAULT_PORT = 8765
"""The port listened on where none is given and the encounter was never served."""

SERVED = "served"
"""The store's extra, per encounter, that keeps the port it was last served on (JSON:
``{"port": N}``): a later start without ``--port`` listens there again, so the links
players hold still work (issue 35)."""


def free_port(host: str) -> int:
    """A port free on ``host`` now (for ``--port 0``)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        port: int = s.getsockname()[1]
        return port


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` (0: any free port) and listening, for uvicorn.

    Raises:
        FracasError: ``cannot_listen`` where the address is taken or not this machine's.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named, as getaddrinfo names it: asyncio sets TCP_NODELAY only on the
    # connections of a socket whose protocol says TCP. With 0 (the default), every
    # response after a connection's first waited for the browser's delayed ACK (Nagle's
    # algorithm: its body held back behind its headers), about 40 ms a request.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)  # uvicorn's default backlog
    except OSError as exc:
        sock.close()
        raise FracasError(
            "cannot_listen",
            f"cannot listen on {host}:{port} ({exc.strerror or exc}): give another --port "
            "(0: any free one) or a --host of this machine",
        ) from None
    return sock


def start_links(
    links: Links, table: Table, *, renew: bool = False
) -> tuple[str, list[tuple[str, str, str]]]:
    """The game master's token and every player link not revoked: (name, the combatants
    it plays, token), the ones kept in the store (``renew``: new tokens, the old ones
    stop working). An encounter with no player link yet gets one per player-side
    combatant (:func:`fracas.table.player_ids`), named after the combatant."""
    gm = links.gm(table.name, renew=renew)
    if renew:
        links.renew(table.name)
    if not links.of(table.name):
        add_player_links(links, table)
    players = [
        (link.name, ", ".join(link.owns), link.token)
        for link in links.of(table.name)
        if not link.revoked
    ]
    return gm, players


def print_links(
    say: Callable[[str], None], base: str, gm: str, players: list[tuple[str, str, str]]
) -> None:
    say(f"  game master: {base}/t/{gm}")
    labels = [f"{name} ({owns or 'nobody'})" for name, owns, _ in players]
    width = max(map(len, labels), default=0)
    for label, (_, _, token) in zip(labels, players, strict=True):
        say(f"  {label:<{width}}: {base}/t/{token}")


def serve(
    db: str,
    target: str | None,
    host: str,
    port: int | None,
    open_browser: bool,
    say: Callable[[str], None],
    *,
    enemy_hp: str | None = None,
    keep_links: bool = False,
    new: bool = False,
    new_links: bool = False,
    stopping: Stopping | None = None,
    secret_file: str | None = None,
    public_url: str | None = None,
) -> None:
    """Serve ``target`` (a file: a new encounter; a stored name: resumed; None: the setup
    page only, which lists the stored encounters and starts new ones). A file whose
    latest encounter in the store is unfinished goes on with it, with its links, unless
    ``new``. ``keep_links``: the links kept (always so now; the flag stays for old
    scripts); ``new_links``: new tokens, the old ones refused. The setup page's
    link is printed in every case; it is the only way in to the setup page.
    ``stopping``: the command's signals (:func:`fracas.web.stopping.stop_signals`);
    without it, the server runs until uvicorn is stopped (a test's, in a thread).
    ``secret_file``: the secret the tokens are sealed under (:func:`secret_for`); links
    an older fracas kept in clear are sealed now, said once on stderr.
    ``public_url``: the address players open (behind a proxy), which links are made
    from and requests' ``Host`` is checked against; else the address listened on."""
    stopping = stopping or Stopping()
    site = Site(public_url)  # a bad URL refused before the store is opened
    store = open_store(db)
    try:
        if stopping.heard is None:
            links = Links(store, secret_for(store, secret_file))
            migrated = links.migrate()
            if migrated:
                print(
                    f"migrated the links of {migrated} encounter{'s' * (migrated != 1)}: "
                    "tokens are now kept as keyed hashes",
                    file=sys.stderr,
                    flush=True,
                )
            service = TableService(store, {"enemy_hp": enemy_hp} if enemy_hp else None)
            opening = _opening(store, service, target, say, new)
            _run(opening, links, host, port, open_browser, say, new_links, stopping, site)
        if stopping.heard is not None:
            say(f"stopped ({stopping.heard}); every action is kept in {store.location}")
    finally:
        store.close()


def _run(
    opening: tuple[TableService, Table | None, bool],
    links: Links,
    host: str,
    port: int | None,
    open_browser: bool,
    say: Callable[[str], None],
    new_links: bool,
    stopping: Stopping,
    site: Site,
) -> None:
    """Listen, print the links, serve until a signal (none printed or served where
    one came first); the workers stopped in every case."""
    import uvicorn

    service, table, _ = opening
    key = SetupKey()
    gm_tokens: dict[str, str] = {}
    workers = pool(ready=answers.ready)  # started once a page has its state (Hub.page_ready)
    app = create_app(service, links, workers, key, gm_tokens, site)
    warm()  # the page's files ready before a link is printed
    config = server_config(app)  # frames, bodies and headers bounded (fracas.web.guard)
    config.load()  # its protocols imported now, to be frozen with the rest

    class Serving(uvicorn.Server):
        """uvicorn, saying what it serves once it does (see the module)."""

        serving: Callable[[], None] | None = None
        """What to say once it serves: the links."""

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=sockets)
            if self.started and not self.should_exit and self.serving is not None:
                self.serving()

    server = Serving(config)
    stopping.server = server
    timer: threading.Timer | None = None
    collector = Collector()  # the garbage collector kept from stopping the loop for long
    try:
        if stopping.heard is not None:
            return
        with _listen_for(service.store, table, host, port, say) as sock:
            site.listening(host, sock.getsockname()[1])
            base = site.printed()  # the links' base: --public-url, else the bound address

            # minted now (a refusal, such as another secret's, stops the command here,
            # said as any error is), printed once uvicorn serves
            lines: list[str] = []
            first = _print_links(lines.append, base, links, key, table, new_links, gm_tokens)
            lines.append(
                f"links are kept with the encounter in {service.store.location}, their "
                f"tokens sealed under {links.secret.where}: the same ones at the next "
                "start (--new-links makes new ones; the game master's page lists them "
                "with QR codes, makes more, assigns and revokes them). "
                f"{_hp_line(service, table)} Ctrl-C stops."
            )

            def links_said() -> None:
                nonlocal timer
                for line in lines:
                    say(line)
                if open_browser:
                    timer = threading.Timer(0.8, webbrowser.open, [first])
                    timer.start()

            server.serving = links_said
            collector.start()
            server.run(sockets=[sock])
    finally:
        collector.stop()
        if timer is not None:
            timer.cancel()
        stop([workers, *app.state.hub.winbars.executors()])


def _listen_for(
    store: EncounterStore,
    table: Table | None,
    host: str,
    port: int | None,
    say: Callable[[str], None],
) -> socket.socket:
    """The socket the server listens on: ``port`` where given (0: any free one); else
    the port ``table``'s encounter was last served on, so its links keep their address
    (taken: another, said, with what it means for the links), else :data:`DEFAULT_PORT`.
    The port bound is kept with the encounter for its next start."""
    last = _last_port(store, table) if port is None else None
    if port is not None or last is None:
        sock = listen(host, DEFAULT_PORT if port is None else port)
    else:
        try:
            sock = listen(host, last)
        except FracasError:
            sock = _another(host, last)
            say(
                f"port {last}, where {table.name if table else ''!r} was last served, is "
                f"taken: serving on {sock.getsockname()[1]} instead, so the addresses of "
                "the links below changed (their tokens did not): send the players the new "
                f"ones, or stop what holds port {last} and start again"
            )
    if table is not None:
        bound = sock.getsockname()[1]
        if bound != last:
            store.put_extra(table.name, SERVED, json.dumps({"port": bound}).encode())
    return sock


def _last_port(store: EncounterStore, table: Table | None) -> int | None:
    """The port ``table``'s encounter was last served on (None: never, or unreadable)."""
    if table is None:
        return None
    raw = store.extra(table.name, SERVED)
    try:
        port = json.loads(raw)["port"] if raw is not None else None
    except (ValueError, TypeError, KeyError):
        return None
    return port if isinstance(port, int) and 0 < port < 65536 else None


def _another(host: str, taken: int) -> socket.socket:
    """A socket on :data:`DEFAULT_PORT`, else on any free port (``taken`` is not)."""
    if taken != DEFAULT_PORT:
        try:
            return listen(host, DEFAULT_PORT)
        except FracasError:
            pass
    return listen(host, 0)


def _opening(
    store: EncounterStore,
    service: TableService,
    target: str | None,
    say: Callable[[str], None],
    new: bool = False,
) -> tuple[TableService, Table | None, bool]:
    """The encounter served (None: the setup page only), said in a line, and whether
    it is new. A file already started in this store goes on with its latest encounter
    while no side has won it (``new``: another one)."""
    if target is None:
        say(
            f"no encounter given: the setup page lists the {len(store.list())} stored in "
            f"{store.location} and starts new ones (`fracas serve FILE` starts one from "
            "a file)"
        )
        return service, None, False
    going = None if new else _unfinished(service, target)
    if going is not None:
        table, fresh = service.open(going), False
        say(
            f"going on with {table.name!r}, the unfinished fight of {target} ({table.seq} "
            f"records) in {store.location}, with its links; `fracas serve {target} --new` "
            "starts another"
        )
    else:
        table, fresh = service.open_or_create(target)
        what = "new encounter" if fresh else "resumed"
        say(
            f"{what} {table.name!r} ({table.ruleset.about.name}, {table.seq} records) in "
            f"{store.location}; `fracas play {table.name}` goes on with it too"
        )
    hp = service.policy.get("enemy_hp")
    if not fresh and hp is not None and table.state.policy.enemy_hp != hp:
        table.submit(SetPolicy({"enemy_hp": hp}))  # logged, undone like any change
        say(f"  --enemy-hp {hp}: the encounter's policy now shows players enemy HP as {hp}")
    return service, table, fresh


def _unfinished(service: TableService, target: str) -> str | None:
    """The latest stored encounter started from file ``target`` with more than one side
    standing and not ended by the game master, if any (a stored encounter's name is no
    file: None)."""
    for info in service.list():  # the most recently changed first
        if info.source == target:
            table = service.open(info.name)
            if table.outcome() is None and not table.state.ended:
                return info.name
    return None


def _hp_line(service: TableService, table: Table | None) -> str:
    """What players see of enemy HP: the encounter's policy, or what new ones get."""
    if table is not None:
        return (
            f"Players see enemy HP: {table.state.policy.enemy_hp} (the encounter's policy; "
            "the game master's page changes it)."
        )
    hp = service.policy.get("enemy_hp")
    return f"New encounters show players enemy HP: {hp or 'as their file says, else label'}."


def _print_links(
    say: Callable[[str], None],
    base: str,
    links: Links,
    key: SetupKey,
    table: Table | None,
    new_links: bool,
    gm_tokens: dict[str, str],
) -> str:
    """Print the links (the server listens): the game master's and the players', kept
    with the encounter (``new_links``: new tokens), then the setup page's. Returns the
    page to open: the game master's, else the setup page."""
    setup = f"{base}/setup/{key.mint()}"
    first = setup
    if table is not None:
        kept = not new_links and links.link(table.name, GM_ID) is not None
        gm, players = start_links(links, table, renew=new_links)
        if kept:
            say("  the same links as before (kept with the encounter; open pages reconnect):")
        gm_tokens[table.name] = gm
        first = f"{base}/t/{gm}"
        print_links(say, base, gm, players)
    say(f"  setup (yours only): {setup}")
    return first
