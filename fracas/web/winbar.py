"""The tracker's win bar on ``fracas serve``: each side's chance to win, worked out in
the background after every record (:func:`fracas.lab.bar.win_bar`: exact when the
chain is small, else a bounded simulation with its 95% interval, marked an estimate),
pushed to the game master's pages, and to the players' and viewers' pages only while
the game master shows it to them.

The protocol (beside :mod:`fracas.web.live`'s):

page -> server
  ``{"type": "hello", "seq": N, "winbar": true}``  the page asks for the bar (a page
      that does not ask is never sent one)
  ``{"type": "winbar", "id": K, "seq": N, "players": true|false}``  the game master
      shows the bar to the players (and viewers) or stops; anyone else is refused
      (``forbidden``)
server -> page
  ``{"type": "winbar", "seq": S, "players": P, "gm": G, "bar": {...}}``  the bar of
      the state after record S-1 (``bar``: :meth:`~fracas.lab.bar.WinBar.to_json`);
      to a player's page only while ``players``; ``"bar": null`` tells a page the
      bar is no longer shown to it

The work runs off the event loop, as the odds do, in an executor of its own of the
same kind as the server's odds executor (a process where the odds have a process
pool), one worker, so a bar never holds up an odds request; it is started with the
first page that asks and shut down with the last one. A bar still being worked out
when the table moves on is cancelled if it has not started, and its result dropped
if it has. Whether players see it is decided here, on the
server, in :meth:`WinBars.sees`: a player's socket is never sent a bar otherwise.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from fracas.errors import FracasError
from fracas.lab.bar import BAR_FIGHTS, BAR_SECONDS, BAR_STATES, bar_in_worker
from fracas.table import Change, Role, Table
from fracas.web.workers import pool

if TYPE_CHECKING:
    from fracas.web.live import Hub, Page

__all__ = ["WinBars"]

_log = logging.getLogger(__name__)


class WinBars:
    """The win bars of every table a :class:`~fracas.web.live.Hub` serves."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.limits: dict[str, Any] = {
            "max_states": BAR_STATES,
            "fights": BAR_FIGHTS,
            "seconds": BAR_SECONDS,
        }
        """The bounds of one bar (:func:`~fracas.lab.bar.win_bar`'s)."""
        self.players: dict[str, bool] = {}
        """Per table: whether the game master shows the bar to players (default not)."""
        self.latest: dict[str, tuple[int, dict[str, Any]]] = {}
        self._pending: dict[str, tuple[int, Future[dict[str, Any]]]] = {}
        self._stops: dict[str, Callable[[], None]] = {}
        self._loops: dict[str, asyncio.AbstractEventLoop] = {}
        self._tables: dict[str, Table] = {}
        self._own: Executor | None = None
        self._wanted: dict[str, set[Page]] = {}
        """Per table, the pages that asked for the bar (their hello's ``winbar``)."""

    def _executor(self) -> Executor:
        if self._own is None:
            if isinstance(self.hub.executor, ProcessPoolExecutor):
                self._own = pool()  # a worker that ends with the server
            else:
                self._own = ThreadPoolExecutor(max_workers=1, thread_name_prefix="winbar")
        return self._own

    def executors(self) -> list[Executor]:
        """The executor the bars run in, where one was started (to stop it with the
        server, :func:`fracas.web.workers.stop`)."""
        return [] if self._own is None else [self._own]

    def sees(self, page: Page) -> bool:
        """Whether ``page`` is sent the bar: the game master's always, anyone else's
        only while the game master shows it to the players."""
        try:
            role = page.identity.role
        except FracasError:  # a revoked link: nothing more
            return False
        return role is Role.GM or self.players.get(page.encounter, False)

    # --- pages come and go -----------------------------------------------------------

    def hello(self, page: Page, message: dict[str, Any]) -> None:
        """A page's hello (after its sync): with ``"winbar": true`` it asks for the bar;
        the table's bar starts being kept (its first such page), and this page gets
        the latest bar where it sees it."""
        if message.get("winbar") is not True:
            return
        encounter = page.encounter
        self._wanted.setdefault(encounter, set()).add(page)
        table = self._tables.get(encounter)
        if table is None:
            self._loops[encounter] = page.loop
            table = self._tables[encounter] = page.table
            self._stops[encounter] = table.subscribe(self._heard)
        latest = self.latest.get(encounter)
        if latest is not None and latest[0] == table.seq:
            self.hub.spawn(self._send(page, *latest))
        else:
            self._start(encounter)

    def leave(self, page: Page) -> None:
        """A page closed: the last one of its table that asked stops the bar's work."""
        encounter = page.encounter
        wanted = self._wanted.get(encounter, set())
        wanted.discard(page)
        if wanted:
            return
        self._wanted.pop(encounter, None)
        stop = self._stops.pop(encounter, None)
        if stop is not None:
            stop()
        pending = self._pending.pop(encounter, None)
        if pending is not None:
            pending[1].cancel()
        self._loops.pop(encounter, None)
        self._tables.pop(encounter, None)
        if not self._wanted and self._own is not None:  # no page of any table asks
            self._own.shutdown(wait=False, cancel_futures=True)
            self._own = None

    # --- the work --------------------------------------------------------------------

    def _heard(self, change: Change) -> None:
        """The table's feed (in the writer's thread): a new record; start on the loop."""
        loop = self._loops.get(change.table)
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._start, change.table)

    def _start(self, encounter: str) -> None:
        """Work out the bar of the table's state now; the one still pending for an
        older state is cancelled (not started yet) or left to be dropped."""
        table = self._tables.get(encounter)
        if table is None:
            return
        with table._lock:
            state, seq = table.state, table.seq
        pending = self._pending.get(encounter)
        if pending is not None:
            if pending[0] == seq:
                return  # already on its way
            pending[1].cancel()
        future = self._executor().submit(
            bar_in_worker,
            _key(encounter, table),
            table.ruleset,
            table.file.tactics,
            state,
            seq,
            dict(self.limits),
        )
        self._pending[encounter] = (seq, future)
        self.hub.spawn(self._finish(encounter, table, seq, future))

    async def _finish(
        self, encounter: str, table: Table, seq: int, future: Future[dict[str, Any]]
    ) -> None:
        try:
            bar = await asyncio.wrap_future(future)
        except (asyncio.CancelledError, FracasError):
            return  # a newer state replaced it, or the rules refused (no bar then)
        except Exception:  # a bug in the work: the bar stays as it was, the server on
            _log.exception("the win bar of %s (record %d) failed", encounter, seq - 1)
            return
        finally:
            if self._pending.get(encounter, (None, None))[1] is future:
                del self._pending[encounter]
        if table.seq != seq:
            return  # the table moved on while it was worked out: dropped
        self.latest[encounter] = (seq, bar)
        for page in list(self._wanted.get(encounter, ())):
            if self.sees(page):
                await self._send(page, seq, bar)

    async def _send(self, page: Page, seq: int, bar: dict[str, Any] | None) -> None:
        gm = page.identity.role is Role.GM
        players = self.players.get(page.encounter, False)
        if bar is not None and not self.sees(page):  # the one gate, checked at the send
            return
        if page not in self._wanted.get(page.encounter, ()):
            return  # it never asked, or it left
        if bar is not None and not gm:  # who sits the fight out: the game master's to know
            bar = {**bar, "idle": []}
        message = {"type": "winbar", "seq": seq, "players": players, "gm": gm, "bar": bar}
        if page.loop is asyncio.get_running_loop():
            await page.send(message)
        elif not page.loop.is_closed():  # the page's socket lives on another loop
            await asyncio.wrap_future(
                asyncio.run_coroutine_threadsafe(page.send(message), page.loop)
            )

    # --- the game master's choice ------------------------------------------------------

    async def choose(self, page: Page, message: dict[str, Any]) -> None:
        """The game master shows the bar to the players, or stops (a ``winbar``
        message); every page of the table hears the choice.

        Raises:
            FracasError: ``forbidden`` for anyone but the game master; ``bad_message``
                without a true or false ``players``.
        """
        page.identity.check_gm("choose who sees the win bar")
        players = message.get("players")
        if not isinstance(players, bool):
            raise FracasError(
                "bad_message", f"a winbar message gives 'players': true or false, not {players!r}"
            )
        encounter = page.encounter
        self.players[encounter] = players
        latest = self.latest.get(encounter)
        seq, bar = latest if latest is not None else (page.table.seq, None)
        for other in list(self._wanted.get(encounter, ())):
            if self.sees(other):
                if bar is not None or other is page:
                    await self._send(other, seq, bar)
            else:
                await self._send(other, seq, None)
        await page.send({"type": "done", "id": message.get("id"), "seq": page.table.seq})


def _key(encounter: str, table: Table) -> str:
    """The table's key for the worker's kept policy: its name and its file's text."""
    return f"{encounter}/{hashlib.sha256(table.text.encode()).hexdigest()[:16]}"
