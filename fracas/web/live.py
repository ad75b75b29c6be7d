"""The live part of ``fracas serve``: one WebSocket per page (:class:`Socket`,
Starlette's WebSocket endpoint), every change of a table pushed to every page of it,
each projected for its page's identity (:class:`fracas.table.View`), and the page's
messages submitted to the table as that identity. Thin: every decision (the seq seen,
who may do what, the rules) is the table's (:meth:`fracas.table.Table.submit`); this
turns frames into commands and changes into messages.

The protocol (JSON objects, one a message):

page -> server
  ``{"type": "hello", "seq": N}``           the page holds the log up to record N
  ``{"type": "act", "id": K, "seq": N, "action": {actor, do, target, at, ...}}``
  ``{"type": "undo" | "redo", "id": K, "seq": N}``
  ``{"type": "odds", "id": K, "seq": N, "action": {...}}``
  ``{"type": "cost", "id": K, "seq": N, "action": {actor, do: "move", to}}``  what a
      dragged token's move would cost (asked as it is dragged, before the drop; its own
      allowance of messages, :data:`COST_RATE`)
  ``{"type": "advise", "id": K, "seq": N}``  the advisor's choices for whoever's turn it
      is (the game master; a player where the policy lets it, in its own turn)
  ``{"type": "dice", "id": K, "seq": N, "physical": true}``  the game master: dice
      typed in from now on (false: rolled by fracas)
  ``{"type": "die", "id": K, "seq": N, "face": F}``  the face of the die asked for
  ``{"type": "cancel", "id": K, "seq": N}``  drop the action waiting for its dice
  ``{"type": "answer", "id": K, "seq": N, "request": R, "accept": true}``  the game
      master's answer to a player's request
  ``{"type": "policy", "id": K, "seq": N, "changes": {...}}``  the game master's change
      of the table's policy (``fracas.model.Policy``'s fields)
  ``{"type": "winbar", "id": K, "seq": N, "players": true}``  the game master's switch
      of the win bar shown to players (the policy's ``winbar``)
server -> page
  ``{"type": "sync", "seq": S, "state": {...}, "lines": [...], "options": {...}}``
      the state now, the log lines from the page's last seq on, what it may do
  ``{"type": "done", "id": K, "seq": S}``  the page's change is made (stored)
  ``{"type": "asked", "id": K, "seq": S}``  the action waits for a physical die (the
      state's ``pending`` says which; every page of the table is synced)
  ``{"type": "requested", "id": K, "seq": S, "request": R}``  the action waits for the
      game master's answer (the state's ``requests`` say which)
  ``{"type": "refused", "id": K, "code": C, "message": M, "words": W, "rules": [...]}``
      nothing was written: the stable code and the developer's message (for tools),
      the same in people's words and the rule IDs it cites (for the page)
  ``{"type": "odds", "id": K, "seq": S, "odds": {...}}``  (``fracas odds --json``'s)
  ``{"type": "cost", "id": K, "seq": S, "cost": {...}}``  (``MoveCost.to_json``: the
      rules' lines of what the move pays, or their refusal's code and message, with
      ``refusal_words`` and ``refusal_rules`` for people)
  ``{"type": "advice", "id": K, "seq": S, "advice": {...}}``  (``fracas lab advise
      --json``'s, projected for the page)

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
from starlette.endpoints import WebSocketEndpoint
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from fracas.errors import FracasError
from fracas.table import (
    Act,
    Answer,
    Cancel,
    Change,
    Command,
    Give,
    Identity,
    Odds,
    OddsQuestion,
    Outcome,
    Redo,
    SetDice,
    SetPolicy,
    Snapshot,
    Table,
    TableService,
    Undo,
    View,
)
from fracas.web import answers
from fracas.web.guard import json_object
from fracas.web.links import LinkError, Links
from fracas.web.shown import page_cost, page_lines, page_options, page_state, refusal_json
from fracas.web.winbar import WinBars
from fracas.web.workers import Workers

__all__ = ["MAX_MESSAGE", "RATE", "Hub", "Page", "Socket"]

MAX_MESSAGE = 16_384
"""The largest message a page may send, in bytes (``too_big`` past it)."""

RATE = (30, 5.0)
"""At most 30 messages in any 5 seconds per page (``too_fast`` past it)."""

COST_RATE = (120, 5.0)
"""At most 120 questions of a move's cost in any 5 seconds per page, counted apart
from :data:`RATE` (a drag asks one per tile: it never leaves the drop too fast)."""


CHANGES = ("act", "undo", "redo", "dice", "die", "cancel", "answer", "policy", "winbar")
"""The message types that ask the table for a change."""
KINDS = (*CHANGES, "odds", "cost", "advise")
"""The message types a page sends after its hello."""

POLL = 1.0
"""Seconds between two looks at the store for other processes' records."""

FAR_BEHIND = 32
"""Records a page may be behind for its sync to be made on the event loop."""


class Refused(FracasError):
    """A page's message refused by the protocol itself (bad JSON, too big, too fast, ...)."""


def command_of(kind: str, message: dict[str, Any]) -> Command:
    """The table command a page's message of type ``kind`` asks for, its fields checked
    for their shape (whether it may be done is the table's to say).

    Raises:
        Refused: ``bad_message``, saying the shape expected.
    """
    if kind == "act":
        raw = message.get("action")
        if not isinstance(raw, dict):
            raise Refused("bad_message", "an act or odds message carries an 'action' object")
        return Act(raw)
    if kind == "undo":
        return Undo()
    if kind == "redo":
        return Redo()
    if kind == "cancel":
        return Cancel()
    if kind == "die":
        face = message.get("face")
        if type(face) is not int:
            raise Refused(
                "bad_message", f"a die message gives its 'face' as a number, not {face!r}"
            )
        return Give(face)
    if kind == "dice":
        physical = message.get("physical")
        if not isinstance(physical, bool):
            raise Refused("bad_message", "a dice message says 'physical': true or false")
        return SetDice(physical)
    if kind == "answer":
        request, accept = message.get("request"), message.get("accept")
        if type(request) is not int or not isinstance(accept, bool):
            raise Refused(
                "bad_message", "an answer message gives 'request': N and 'accept': true or false"
            )
        return Answer(request, accept)
    if kind == "winbar":  # the win bar shown to players: the policy's `winbar` switch
        players = message.get("players")
        if not isinstance(players, bool):
            raise Refused(
                "bad_message", f"a winbar message gives 'players': true or false, not {players!r}"
            )
        return SetPolicy({"winbar": players})
    changes = message.get("changes")
    if not isinstance(changes, dict):
        raise Refused("bad_message", "a policy message gives its 'changes' as an object")
    return SetPolicy(changes)


class Page:
    """One page's socket: its link, the seq its log holds, its pending odds."""

    def __init__(self, hub: Hub, ws: WebSocket, encounter: str, link_id: str) -> None:
        self.hub = hub
        self.ws = ws
        self.encounter = encounter
        self.link_id = link_id
        self.seq = 0
        self.sent: list[float] = []
        self.costs: list[float] = []
        self.odds: Future[Odds] | None = None
        self._send = asyncio.Lock()
        self._replying = asyncio.Lock()
        """Held while the page's own change is made and answered: the sync its change
        pushes follows the answer (``asked``, ``done``), as the page expects."""
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

    async def sync(self, snap: Snapshot | None = None) -> None:
        """Send the state, the log lines since the page's seq, and its options; made on
        the loop from the table's snapshot (a fraction of a millisecond: no thread
        hop), but for a page far behind (a hello, a reconnect), whose log lines may be
        many. ``snap``: the table as its feed told of a change (no look at the store);
        None: the table caught up with the store now."""
        if snap is None:
            snap = self.table.snapshot()
        else:
            async with self._replying:
                pass  # the page's own change answered first
            if snap.seq < self.seq:
                return  # a change older than what the page has: a later push tells of it
        played = frozenset(
            c for link in self.hub.links.of(self.encounter) if not link.revoked for c in link.owns
        )
        view = View(snap, self.identity, played)
        if view.snap.seq - self.seq > FAR_BEHIND:
            message = await anyio.to_thread.run_sync(self._sync_message, view)
        else:
            message = self._sync_message(view)
        await self.send(message)

    def _sync_message(self, view: View) -> dict[str, Any]:
        state = page_state(view)
        lines = page_lines(view, self.seq)
        self.seq = state["seq"]
        return {
            "type": "sync",
            "seq": state["seq"],
            "state": state,
            "lines": lines,
            "options": page_options(view),
        }

    async def refuse(self, ident: Any, exc: FracasError) -> None:
        """Say why a message was refused (every message names only what the page may
        see: the table checks actions on the combatants it sees)."""
        try:
            view = View(self.table.snapshot(), self.identity)
        except FracasError:  # the link or the table is gone: no names to read
            await self.send(refusal_json(ident, exc))
            return
        state = view.snap.state
        await self.send(refusal_json(ident, exc, state, view.unseen(state)))

    # --- messages -------------------------------------------------------------------

    def _check_rate(self) -> None:
        now = time.monotonic()
        count, window = RATE
        self.sent = [t for t in self.sent if now - t < window] + [now]
        if len(self.sent) > count:
            raise Refused("too_fast", f"more than {count} messages in {window:g} s; wait a moment")

    def _check_costs(self) -> None:
        """A cost question counts in :data:`COST_RATE`, not in :data:`RATE`."""
        self.sent.pop()
        now = time.monotonic()
        count, window = COST_RATE
        self.costs = [t for t in self.costs if now - t < window] + [now]
        if len(self.costs) > count:
            raise Refused(
                "too_fast", f"more than {count} questions of a cost in {window:g} s; wait a moment"
            )

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
            message = json_object(text, Refused, not_object="bad_message")
            ident = message.get("id")
            if message.get("type") == "cost":
                self._check_costs()
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
            self.hub.page_ready()
            self.hub.winbars.hello(self, message)  # "winbar": true asks for the win bar
            return
        if kind not in KINDS:
            raise Refused(
                "unknown_message",
                f"unknown message type {kind!r}; valid: hello, {', '.join(KINDS)}",
            )
        seq = message.get("seq")
        if not isinstance(seq, int):
            raise Refused("bad_message", f"a {kind} message names the seq it saw ('seq': N)")
        identity = self.identity
        table = self.table
        if kind == "odds":
            raw = message.get("action")
            if not isinstance(raw, dict):
                raise Refused("bad_message", "an act or odds message carries an 'action' object")
            question = await anyio.to_thread.run_sync(table.odds_question, raw, identity, seq)
            self._ask(question, message.get("id"), table)
            return
        if kind == "cost":  # a dragged token's move, before the drop (planned, not stored)
            raw = message.get("action")
            if not isinstance(raw, dict):
                raise Refused("bad_message", "a cost message carries an 'action' object")
            cost = await anyio.to_thread.run_sync(table.move_cost, raw, identity, seq)
            shown = page_cost(cost.to_json(), View(table.snapshot(), identity))
            await self.send({"type": "cost", "id": message.get("id"), "seq": seq, "cost": shown})
            return
        if kind == "advise":  # the advisor, in the win bar's worker (its chains kept)
            asked = await anyio.to_thread.run_sync(table.advice_question, identity, seq)
            self.hub.winbars.advise(self, asked, message.get("id"))
            return
        command = command_of(kind, message)
        async with self._replying:
            outcome: Outcome = await anyio.to_thread.run_sync(table.submit, command, identity, seq)
            ident = message.get("id")
            if outcome.asked is not None:
                await self.send({"type": "asked", "id": ident, "seq": outcome.seq})
            elif outcome.request is not None:
                reply = {"type": "requested", "id": ident, "seq": outcome.seq}
                await self.send({**reply, "request": outcome.request.id})
            else:
                await self.send({"type": "done", "id": ident, "seq": outcome.seq})

    def _ask(self, question: OddsQuestion, ident: Any, table: Table) -> None:
        if self.odds is not None:
            self.odds.cancel()  # a newer question: the older is not wanted
        future = self.hub.executor.submit(answers.answer, question)
        self.odds = future
        self.hub.spawn(self._odds_reply(future, ident, table, question, table.seq))

    async def _odds_reply(
        self, future: Future[Odds], ident: Any, table: Table, question: OddsQuestion, seq: int
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
        await self.send({"type": "odds", "id": ident, "seq": seq, "odds": question.shown(result)})


def _refresh(tables: list[Table]) -> None:
    for table in tables:
        try:
            table.refresh()
        except FracasError:
            continue  # the store is busy or gone: the next message says so


class Hub:
    """Every page of every table this server holds; pushes each table's changes."""

    def __init__(self, tables: TableService, links: Links, executor: Executor) -> None:
        self.tables = tables
        self.links = links
        self.executor = executor
        self.pages: dict[str, set[Page]] = {}
        self._stops: dict[str, Callable[[], None]] = {}
        self._tasks: set[asyncio.Future[None]] = set()
        self._poller: asyncio.Future[None] | None = None
        self.winbars = WinBars(self)

    def page_ready(self) -> None:
        """A page has its state: the odds' worker is started now, where it is a process
        not started yet (:meth:`fracas.web.workers.Workers.start`). It loads what it
        answers with while a person reads the page, not while the page loads (started
        with the server, its loading shared the two cores with the first page load: 150
        -> 245 ms), and not at the first question (a fresh server's first tap waited
        0.55 s for it)."""
        if isinstance(self.executor, Workers):
            self.executor.start()

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` on the loop, holding it until it ends."""
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def join(self, page: Page) -> None:
        pages = self.pages.setdefault(page.encounter, set())
        pages.add(page)
        poller = self._poller
        if poller is None or poller.done() or poller.get_loop().is_closed():
            self._poller = asyncio.ensure_future(self._poll())
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

    async def _poll(self) -> None:
        """While any table has pages, catch each up every :data:`POLL` seconds with what
        other processes (a `fracas play` prompt, another server) wrote to its store; the
        table's feed then pushes it like any change. One task for every table, one
        thread hop a round, none while the store's watch tells of every commit (a task
        a table woke 200 times a second, and each wake-up's objects outlived the
        collector's young generations)."""
        while any(self.pages.values()):
            await asyncio.sleep(POLL)
            tables = []
            for encounter, pages in list(self.pages.items()):
                try:
                    table = self.tables.held(encounter) if pages else None
                except FracasError:
                    continue  # the store is busy or gone: the next message says so
                if table is not None and table.looks:
                    tables.append(table)
            if tables:
                await anyio.to_thread.run_sync(_refresh, tables)

    def _heard(self, change: Change) -> None:
        """The table's feed (in the writer's thread, which may hold the table): push to
        each page on its loop the table as the change left it (on the loop, the table
        still held, its snapshot would be of the moment before)."""
        pages = list(self.pages.get(change.table, ()))
        if not pages:
            return
        snap = self.tables.held(change.table).snapshot()
        for page in pages:
            if not page.loop.is_closed():
                page.loop.call_soon_threadsafe(self._push, page, snap)

    def _push(self, page: Page, snap: Snapshot) -> None:
        self.spawn(self._sync(page, snap))

    async def _sync(self, page: Page, snap: Snapshot | None = None) -> None:
        try:
            await page.sync(snap)
        except LinkError:
            await page.ws.close(4403)
        except (WebSocketDisconnect, RuntimeError):
            self.leave(page)

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


class Socket(WebSocketEndpoint):
    """One page's socket (``WS /ws?token=TOKEN``), Starlette's endpoint over the app's
    :class:`Hub` (``app.state.hub``): the token read as it opens (refused: a
    ``refused`` message, then closed 4403), each frame handed to its :class:`Page`,
    which reads it once (:meth:`Page.handle`), the page leaving the hub as it closes.

    Frames come as they were sent (``encoding = None``): Starlette's ``"text"`` would
    close the socket (1003) on a binary frame, which the protocol answers
    ``bad_message`` and keeps open, and its ``"json"`` would parse a frame without the
    size and nesting guard, closing the socket on bad JSON (``bad_json`` here)."""

    encoding = None
    page: Page | None = None

    async def on_connect(self, websocket: WebSocket) -> None:
        hub: Hub = websocket.app.state.hub
        try:
            encounter, link = hub.links.identify(websocket.query_params.get("token", ""))
            hub.tables.open(encounter)
        except FracasError as exc:
            await websocket.accept()
            await websocket.send_text(json.dumps(refusal_json(None, exc)))
            await websocket.close(4403)
            return
        await websocket.accept()
        self.page = Page(hub, websocket, encounter, link.id)
        hub.join(self.page)

    async def on_receive(self, websocket: WebSocket, data: Any) -> None:
        if self.page is None or websocket.application_state is WebSocketState.DISCONNECTED:
            return  # closed by the server (a refused token, a revoked link): frames dropped
        try:
            await self.page.handle(data)
        except LinkError:
            await websocket.close(4403)
        except WebSocketDisconnect:
            pass  # the page is gone: its disconnect, next, ends the socket

    async def on_disconnect(self, websocket: WebSocket, close_code: int) -> None:
        if self.page is not None:
            self.page.hub.leave(self.page)
