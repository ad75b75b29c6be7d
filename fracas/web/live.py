"""The live part of ``fracas serve``: one WebSocket per page, every change of a table
pushed to every page of it, each projected for its page's identity
(:class:`fracas.table.View`), and the page's messages taken as that identity.

The protocol (JSON objects, one a message):

page -> server
  ``{"type": "hello", "seq": N}``           the page holds the log up to record N
  ``{"type": "act", "id": K, "seq": N, "action": {actor, do, target, at, ...}}``
  ``{"type": "undo" | "redo", "id": K, "seq": N}``
  ``{"type": "odds", "id": K, "seq": N, "action": {...}}``
  ``{"type": "dice", "id": K, "seq": N, "physical": true}``  the game master: dice
      typed in from now on (false: rolled by fracas)
  ``{"type": "die", "id": K, "seq": N, "face": F}``  the face of the die asked for
  ``{"type": "cancel", "id": K, "seq": N}``  drop the action waiting for its dice
server -> page
  ``{"type": "sync", "seq": S, "state": {...}, "lines": [...], "options": {...}}``
      the state now, the log lines from the page's last seq on, what it may do
  ``{"type": "done", "id": K, "seq": S}``  the page's action is stored
  ``{"type": "asked", "id": K, "seq": S}``  the action waits for a physical die (the
      state's ``pending`` says which; every page of the table is synced)
  ``{"type": "refused", "id": K, "code": C, "message": M}``  nothing was written
  ``{"type": "odds", "id": K, "seq": S, "odds": {...}}``  (``fracas odds --json``'s)

``seq`` in a page's change is the seq it saw: a page behind the table is refused
with ``moved_on`` (and synced), so no one acts on a state they did not see.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import Executor, Future
from typing import Any

import anyio.to_thread
from starlette.websockets import WebSocket, WebSocketDisconnect

from fracas.errors import FracasError
from fracas.files import read_action
from fracas.model import Action, Encounter
from fracas.odds import Odds, action_odds
from fracas.rulesets.base import Ruleset
from fracas.store import StoreError
from fracas.table import Change, Identity, Role, Table, TableService, View
from fracas.table.physical import Pending
from fracas.table.projection import mentions
from fracas.web.links import LinkError, Links
from fracas.web.winbar import WinBars

__all__ = ["MAX_MESSAGE", "RATE", "Hub", "Page"]

MAX_MESSAGE = 16_384
"""The largest message a page may send, in bytes (``too_big`` past it)."""

RATE = (30, 5.0)
"""At most 30 messages in any 5 seconds per page (``too_fast`` past it)."""


def _odds(ruleset: Ruleset, state: Encounter, action: Action, seed: int) -> Odds:
    """Run in the odds executor (a process pool: off the event loop, another core)."""
    return action_odds(ruleset, state, action, seed=seed)


KINDS = ("act", "undo", "redo", "odds", "dice", "die", "cancel")
"""The message types a page sends after its hello."""

POLL = 1.0
"""Seconds between two looks at the store for other processes' records."""


class Refused(FracasError):
    """A page's message refused by the protocol itself (bad JSON, too big, too fast, ...)."""


class Page:
    """One page's socket: its link, the seq its log holds, its pending odds."""

    def __init__(self, hub: Hub, ws: WebSocket, encounter: str, link_id: str) -> None:
        self.hub = hub
        self.ws = ws
        self.encounter = encounter
        self.link_id = link_id
        self.seq = 0
        self.sent: list[float] = []
        self.odds: Future[Odds] | None = None
        self._send = asyncio.Lock()
        self.loop = asyncio.get_running_loop()

    @property
    def identity(self) -> Identity:
        link = self.hub.links.link(self.encounter, self.link_id)
        if link is None or link.revoked:
            raise LinkError("bad_token", "this link was revoked")
        return link.identity

    @property
    def table(self) -> Table:
        return self.hub.tables.open(self.encounter)

    async def send(self, message: dict[str, Any]) -> None:
        async with self._send:
            await self.ws.send_text(json.dumps(message))

    async def sync(self) -> None:
        """Send the state, the log lines since the page's seq, and its options."""
        view = View(self.table, self.identity)
        message = await anyio.to_thread.run_sync(self._sync_message, view)
        await self.send(message)

    def _sync_message(self, view: View) -> dict[str, Any]:
        state = view.state()
        lines = view.lines(self.seq)
        self.seq = state["seq"]
        return {
            "type": "sync",
            "seq": state["seq"],
            "state": state,
            "lines": lines,
            "options": view.options(),
        }

    async def refuse(self, ident: Any, exc: FracasError) -> None:
        """Say why a message was refused (a hidden combatant named "someone")."""
        try:
            message = View(self.table, self.identity).clean(exc.message)
        except LinkError:
            message = exc.message
        except FracasError:  # no view now (the store is down): say nothing of the table
            message = (
                exc.message
                if isinstance(exc, StoreError)
                else "the table cannot be read now; try again"
            )
        await self.send({"type": "refused", "id": ident, "code": exc.code, "message": message})

    # --- messages -------------------------------------------------------------------

    def _check_rate(self) -> None:
        now = time.monotonic()
        count, window = RATE
        self.sent = [t for t in self.sent if now - t < window] + [now]
        if len(self.sent) > count:
            raise Refused("too_fast", f"more than {count} messages in {window:g} s; wait a moment")

    async def handle(self, text: str | bytes) -> None:
        ident: Any = None
        try:
            self._check_rate()
            if not isinstance(text, str):
                raise Refused("bad_message", "a message is a text frame of JSON, not binary")
            if len(text.encode()) > MAX_MESSAGE:
                raise Refused(
                    "too_big", f"a message of {len(text.encode())} bytes; at most {MAX_MESSAGE}"
                )
            try:
                message = json.loads(text)
            except (ValueError, RecursionError) as exc:  # RecursionError: nested too deep
                raise Refused("bad_json", f"not JSON: {exc}") from None
            if not isinstance(message, dict):
                raise Refused("bad_message", "a message is a JSON object with a 'type'")
            ident = message.get("id")
            await self._dispatch(message)
        except LinkError:
            raise  # the link is gone: the socket closes
        except FracasError as exc:
            await self.refuse(ident, exc)
            if exc.code == "moved_on":
                await self.sync()

    async def _dispatch(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "hello":
            seq = message.get("seq", 0)
            self.seq = seq if isinstance(seq, int) and seq >= 0 else 0
            await self.sync()
            self.hub.winbars.hello(self, message)  # "winbar": true asks for the win bar
            return
        if kind == "winbar":  # the win bar's own messages (fracas.web.winbar)
            await self.hub.winbars.choose(self, message)
            return
        if kind not in KINDS:
            raise Refused(
                "unknown_message",
                f"unknown message type {kind!r}; valid: hello, {', '.join(KINDS)}, winbar",
            )
        seq = message.get("seq")
        if not isinstance(seq, int):
            raise Refused("bad_message", f"a {kind} message names the seq it saw ('seq': N)")
        identity = self.identity
        table = self.table
        if kind == "odds":
            await self._odds(message, table, identity, seq)
            return
        change = self._change(kind, message, table, identity, seq)
        waiting = table.pending
        try:
            seq_now, asked = await anyio.to_thread.run_sync(change)
        except FracasError:
            if table.pending is not waiting:  # a refusal dropped the action waiting
                await self.hub.touched(self.encounter)
            raise
        if asked:
            await self.send({"type": "asked", "id": message.get("id"), "seq": seq_now})
            await self.hub.touched(self.encounter)
            return
        await self.send({"type": "done", "id": message.get("id"), "seq": seq_now})

    def _action(self, message: dict[str, Any], table: Table, identity: Identity) -> Action:
        raw = message.get("action")
        if not isinstance(raw, dict):
            raise Refused("bad_message", "an act or odds message carries an 'action' object")
        state = table.state
        known = state.combatants
        if identity.role is not Role.GM:  # a hidden combatant is not in a player's fight
            known = {cid: c for cid, c in known.items() if cid not in state.hidden}
        action = read_action(table.file, raw, known)
        if identity.role is not Role.GM and mentions(action, state.hidden):
            raise Refused(
                "unknown_combatant",
                f"the action names a combatant not in the fight; combatants: {', '.join(known)}",
            )
        return action

    def _change(
        self, kind: str, message: dict[str, Any], table: Table, identity: Identity, seq: int
    ) -> Callable[[], tuple[int, bool]]:
        """The change a message asks for, to run off the loop: (the seq after it, whether
        it left an action waiting for a die, or changed the table's dice)."""
        action = self._action(message, table, identity) if kind == "act" else None
        face = message.get("face")
        physical = message.get("physical")
        if kind == "die" and type(face) is not int:
            raise Refused(
                "bad_message", f"a die message gives its 'face' as a number, not {face!r}"
            )
        if kind == "dice":
            identity.check_gm("choose how dice are rolled")
            if not isinstance(physical, bool):
                raise Refused("bad_message", "a dice message says 'physical': true or false")

        def run() -> tuple[int, bool]:
            with table._lock:  # the seq seen and the change, at once
                if table.seq != seq:
                    raise Refused(
                        "moved_on",
                        f"the table moved on (record {table.seq}, your page saw {seq}); "
                        "nothing was written; here is what happened",
                    )
                done: object = None
                if kind == "dice":
                    assert isinstance(physical, bool)
                    table.physical = physical
                    if not physical:
                        table.pending = None
                    return table.seq, True
                if kind == "cancel":
                    table.cancel(identity)
                    return table.seq, True
                if kind == "die":
                    assert isinstance(face, int)
                    done = table.give(face, identity)
                elif action is not None:
                    done = (
                        table.roll(action, identity)
                        if table.physical
                        else table.act(action, identity)
                    )
                elif kind == "undo":
                    table.undo(identity)
                else:
                    table.redo(identity)
                return table.seq, isinstance(done, Pending)

        return run

    async def _odds(
        self, message: dict[str, Any], table: Table, identity: Identity, seq: int
    ) -> None:
        action = self._action(message, table, identity)
        identity.check_act(action, table.ruleset.move_is_own(action))
        if self.odds is not None:
            self.odds.cancel()  # a newer question: the older is not wanted
        with table._lock:
            state, engine_seed, now = table.state, table.engine.seed, table.seq
        if now != seq:
            raise Refused("moved_on", f"the table moved on (record {now}, your page saw {seq})")
        future = self.hub.executor.submit(_odds, table.ruleset, state, action, engine_seed)
        self.odds = future
        self.hub.spawn(self._odds_reply(future, message.get("id"), table, identity, now))

    async def _odds_reply(
        self, future: Future[Odds], ident: Any, table: Table, identity: Identity, seq: int
    ) -> None:
        try:
            result = await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            return  # a newer question replaced it, or the page left
        except FracasError as exc:
            await self.refuse(ident, exc)
            return
        if self.odds is future:
            self.odds = None
        if table.seq != seq:
            return  # the state moved on while it was computed: dropped
        odds = View(table, identity).odds(result)
        await self.send({"type": "odds", "id": ident, "seq": seq, "odds": odds})


class Hub:
    """Every page of every table this server holds; pushes each table's changes."""

    def __init__(self, tables: TableService, links: Links, executor: Executor) -> None:
        self.tables = tables
        self.links = links
        self.executor = executor
        self.pages: dict[str, set[Page]] = {}
        self._stops: dict[str, Callable[[], None]] = {}
        self._tasks: set[asyncio.Future[None]] = set()
        self._pollers: dict[str, asyncio.Future[None]] = {}
        self.winbars = WinBars(self)

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` on the loop, holding it until it ends."""
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def join(self, page: Page) -> None:
        pages = self.pages.setdefault(page.encounter, set())
        pages.add(page)
        poller = self._pollers.get(page.encounter)
        if poller is None or poller.done():
            task = asyncio.ensure_future(self._poll(page.encounter))
            self._pollers[page.encounter] = task
        if page.encounter not in self._stops:
            table = self.tables.open(page.encounter)
            self._stops[page.encounter] = table.subscribe(self._heard)

    def leave(self, page: Page) -> None:
        pages = self.pages.get(page.encounter, set())
        pages.discard(page)
        if page.odds is not None:
            page.odds.cancel()
        if not pages and page.encounter in self._stops:
            self._stops.pop(page.encounter)()
            self.pages.pop(page.encounter, None)
        self.winbars.leave(page)

    async def _poll(self, encounter: str) -> None:
        """While a table has pages, catch up every :data:`POLL` seconds with what other
        processes (a `fracas play` prompt, another server) wrote to its store; the
        table's feed then pushes it like any change."""
        while self.pages.get(encounter):
            await asyncio.sleep(POLL)
            if self.pages.get(encounter):
                try:
                    await anyio.to_thread.run_sync(self.tables.open(encounter).refresh)
                except FracasError:
                    continue  # the store is busy or gone: the next message says so

    def _heard(self, change: Change) -> None:
        """The table's feed (in the writer's thread): push to each page on its loop."""
        for page in list(self.pages.get(change.table, ())):
            if not page.loop.is_closed():
                page.loop.call_soon_threadsafe(self._push, page)

    def _push(self, page: Page) -> None:
        self.spawn(self._sync(page))

    async def _sync(self, page: Page) -> None:
        try:
            await page.sync()
        except LinkError:
            await page.ws.close(4403)
        except (WebSocketDisconnect, RuntimeError):
            self.leave(page)

    async def touched(self, encounter: str) -> None:
        """The table changed without a record (a die asked for, the dice chosen): every
        page of it gets its new view."""
        for page in list(self.pages.get(encounter, ())):
            if not page.loop.is_closed():
                page.loop.call_soon_threadsafe(self._push, page)

    async def revoked(self, encounter: str, link_id: str) -> None:
        """Close every page of a revoked link."""
        for page in list(self.pages.get(encounter, ())):
            if page.link_id == link_id:
                await page.ws.close(4403)

    async def changed(self, encounter: str, link_id: str) -> None:
        """A link's combatants changed: its pages get their new view."""
        for page in list(self.pages.get(encounter, ())):
            if page.link_id == link_id:
                await self._sync(page)

    async def serve(self, ws: WebSocket) -> None:
        """One page's socket, from its token to its end."""
        token = ws.query_params.get("token", "")
        try:
            encounter, link = self.links.identify(token)
            self.tables.open(encounter)
        except FracasError as exc:
            await ws.accept()
            await ws.send_text(
                json.dumps(
                    {"type": "refused", "id": None, "code": exc.code, "message": exc.message}
                )
            )
            await ws.close(4403)
            return
        await ws.accept()
        page = Page(self, ws, encounter, link.id)
        self.join(page)
        try:
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                text = frame.get("text")
                await page.handle(text if text is not None else frame.get("bytes") or b"")
        except WebSocketDisconnect:
            pass
        except LinkError:
            await ws.close(4403)
        finally:
            self.leave(page)
