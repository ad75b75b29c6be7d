"""``fracas serve``: open (or start) an encounter of the store, or none (the setup
page), print the links and run the server (uvicorn) until Ctrl-C."""

from __future__ import annotations

import contextlib
import signal
import socket
import threading
import webbrowser
from collections.abc import Callable, Iterator
from types import FrameType

from fracas.play.loop import open_session
from fracas.store import open_store
from fracas.table import Table, TableRules, TableService
from fracas.web.app import create_app
from fracas.web.links import GM_ID, Links, links_path
from fracas.web.setup import SetupKey
from fracas.web.workers import pool, stop

__all__ = ["free_port", "print_links", "serve", "start_links"]


class _Stop(Exception):
    """Ctrl-C or SIGTERM, raised again by uvicorn once it has stopped serving."""


@contextlib.contextmanager
def _stop_signals() -> Iterator[list[str]]:
    """Ctrl-C and SIGTERM end the server cleanly: uvicorn stops serving on either, then
    raises it again with the handlers it found, these, which end the block (the list
    given gets the signal's name). Left to the defaults, SIGTERM ended the process at
    once: no store closed, worker pools left to the resource tracker's warning; and
    Ctrl-C printed "Aborted!" with status 1."""
    stopped: list[str] = []
    if threading.current_thread() is not threading.main_thread():  # a test's server
        yield stopped
        return

    def stop(signum: int, frame: FrameType | None) -> None:
        raise _Stop(signal.Signals(signum).name)

    signals = (signal.SIGINT, signal.SIGTERM)
    before = {sig: signal.signal(sig, stop) for sig in signals}
    try:
        yield stopped
    except _Stop as why:
        stopped.append("Ctrl-C" if str(why) == "SIGINT" else str(why))
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


def free_port(host: str) -> int:
    """A port free on ``host`` now (for ``--port 0``)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        port: int = s.getsockname()[1]
        return port


def start_links(links: Links, table: Table) -> tuple[str, list[tuple[str, str, str]]]:
    """A new game master's token, and every player link with a new token: (name, the
    combatants it plays, token). An encounter with no player link yet gets one per
    combatant of the side of its file's first combatant (the players' side, as files
    are written), named after the combatant."""
    gm = links.gm(table.name)
    renewed = links.renew(table.name)
    players = [
        (link.name, ", ".join(link.owns), renewed[link.id])
        for link in links.of(table.name)
        if link.id in renewed
    ]
    if not links.of(table.name):
        state = table.state
        first = next(iter(state.combatants.values()))
        for c in state.combatants.values():
            if c.side == first.side:
                link, token = links.add(table.name, c.name, [c.id])
                players.append((link.name, c.id, token))
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
    port: int,
    open_browser: bool,
    say: Callable[[str], None],
    *,
    enemy_hp: str = "label",
    keep_links: bool = False,
) -> None:
    """Serve ``target`` (a file: a new encounter; a stored name: resumed; None: the setup
    page only, which lists the stored encounters and starts new ones). The setup page's
    link is printed in every case; it is the only way in to the setup page."""
    import uvicorn

    store = open_store(db)
    try:
        service = TableService(store, TableRules(enemy_hp=enemy_hp))
        links = Links(links_path(db))
        key = SetupKey()
        setup = key.mint()
        gm_tokens: dict[str, str] = {}
        port = port or free_port(host)
        base = f"http://{host}:{port}"
        first = f"{base}/setup/{setup}"
        if target is None:
            stored = len(store.list())
            say(
                f"no encounter given: the setup page lists the {stored} stored in "
                f"{store.location} and starts new ones (`fracas serve FILE` starts one from "
                "a file)"
            )
        else:
            opened, new = open_session(store, target)
            table = service.open(opened.name)
            what = "new encounter" if new else "resumed"
            say(
                f"{what} {table.name!r} ({table.ruleset.name}, {table.seq} records) in "
                f"{store.location}; `fracas play {table.name}` goes on with it too"
            )
            if keep_links and not new and links.link(table.name, GM_ID) is not None:
                say(
                    "  the links printed before still work (--keep-links); they are stored "
                    "hashed and cannot be printed again: open pages reconnect by themselves"
                )
            else:
                if keep_links:
                    say("  --keep-links: no links kept for a new encounter; new ones:")
                gm, players = start_links(links, table)
                gm_tokens[table.name] = gm
                first = f"{base}/t/{gm}"
                print_links(say, base, gm, players)
        say(f"  setup (yours only): {base}/setup/{setup}")
        say(
            f"links are stored hashed in {links.path}; each start of `fracas serve` makes "
            "new ones unless resumed with --keep-links (the game master's page makes more, "
            "assigns and revokes them). "
            f"Players see enemy HP: {enemy_hp}. Ctrl-C stops."
        )
        workers = pool()
        app = None
        try:
            app = create_app(service, links, workers, key, gm_tokens)
            if open_browser:
                threading.Timer(0.8, webbrowser.open, [first]).start()
            config = uvicorn.Config(
                app, host=host, port=port, log_level="warning", ws="websockets-sansio"
            )
            with _stop_signals() as stopped:
                uvicorn.Server(config).run()
            if stopped:
                say(f"stopped ({stopped[0]}); every action is kept in {store.location}")
        finally:
            stop([workers, *(app.state.hub.winbars.executors() if app is not None else [])])
    finally:
        store.close()
