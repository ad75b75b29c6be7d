"""The tracker's win bar on ``fracas serve``: each side's chance to win, worked out in
the background after every record (the table's :meth:`~fracas.table.Table.win_question`,
answered by :mod:`fracas.lab.bar` in slices of work: exact when the chain is small,
else seeded fights with their 95% interval, marked an estimate; the same final answer
on a quiet and a busy machine), pushed to the game master's
pages, and to the players' and viewers' pages only where the table's policy shows them
the bar (``winbar``, and enemy HP shown exactly); theirs is worked out from what they
see (no hidden combatant, nor its side).

The protocol (beside :mod:`fracas.web.live`'s):

page -> server
  ``{"type": "hello", "seq": N, "winbar": true}``  the page asks for the bar (a page
      that does not ask is never sent one)
  ``{"type": "winbar", "id": K, "seq": N, "players": true|false}``  the game master
      shows the bar to the players (and viewers) or stops: a change of the table's
      policy (``winbar``); anyone else is refused (``forbidden``)
server -> page
  ``{"type": "winbar", "seq": S, "players": P, "gm": G, "bar": {...}, "withheld": W}``
      the bar of the state after record S-1 (``withheld``, the game master's only: why
      players shown the bar see none, in words, else null; ``bar``:
      :meth:`~fracas.lab.bar.WinBar.to_json`, as
      :func:`honest` words it: with the draw's interval, ``draw_ci95``, and no figure at
      all while an estimate is wider than :data:`WIDE`); ``"bar": null`` tells a page
      the bar is no longer shown to it

The rule of honest figures is the server's, here (:func:`honest`): an estimate is sent
with every figure's 95% interval (each side's ``ci95``, the draw's ``draw_ci95``), and
only once every one of them is within :data:`WIDE` (±10 points) of its figure; until
then the bar is sent as ``"method": "working"`` with no figure (``sides`` empty,
``draw`` null), the fights played so far (``fights``) and ``too_wide: true``, and the
page says "working it out: 12 fights so far". The page only draws what it is sent.

The work runs off the event loop, as the odds do, in an executor of its own of the
same kind as the server's odds executor (a process where the odds have a process
pool), one worker, so a bar never holds up an odds request; it is started with the
first page that asks and shut down with the last one. A bar still being worked out
when the table moves on is cancelled if it has not started, and its result dropped
if it has. Whether a page gets a bar is the table's to say (a question or none).
Where that worker is a process, the bar's fights are played in a process it forks, on
the machine's other core, while it grows the chain (``alongside``,
:mod:`fracas.lab.alongside`): that process rests once a bar is final and ends with the
worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocketDisconnect

from fracas.errors import FracasError
from fracas.lab.bar import BAR_FIGHTS, BAR_SECONDS, BAR_STATES, FIRST, SLICE
from fracas.lab.sim import wilson
from fracas.table import AdviceQuestion, Change, Identity, Table, WinQuestion
from fracas.table.questions import players_bar_withheld
from fracas.web import answers
from fracas.web.workers import pool

if TYPE_CHECKING:
    from fracas.web.live import Hub, Page

__all__ = ["WIDE", "WinBars", "honest"]

_log = logging.getLogger(__name__)

PLAYERS = Identity.player("players")
"""Who asks the players' bar (any player sees the same: the policy's, the projection's)."""


WIN_LIMITS: dict[str, Any] = {
    "max_states": BAR_STATES,
    "fights": BAR_FIGHTS,
    "seconds": BAR_SECONDS,
    **FIRST,
}
"""The bounds of one win bar's slice (:func:`~fracas.lab.bar.bar_slice`'s): states past
which it samples, fights it plays at most, the work of its first slice (states and
fights; a later one's is :data:`~fracas.lab.bar.SLICE`), and the outer bound on a
slice's wall time."""

WIDE = 0.10
"""An estimate's figures are sent only once every one is within this of both ends of
its 95% interval (±10 points); until then, none is (:func:`honest`)."""


def honest(bar: dict[str, Any]) -> dict[str, Any]:
    """The bar as a page is sent it (``bar``: :meth:`~fracas.lab.bar.WinBar.to_json`).

    Solved (``exact``, ``float``): as it is, ``draw_ci95`` null. An estimate: each
    side's interval as it is and the draw's added (``draw_ci95``), so that every figure
    a page shows carries its interval; but while any figure (a side's or the draw's) is
    more than :data:`WIDE` from either end of its interval, no figure at all: the bar
    goes as ``"method": "working"``, ``sides`` empty, ``draw`` null, with the fights
    played so far and ``too_wide: true`` (``final`` as it was: a bar whose budget of
    fights ran out before it was narrow enough stays without a figure). A ``working``
    bar (no fight ended yet) has no figure either.
    """
    method = bar.get("method")
    if method in ("exact", "float"):
        return {**bar, "draw_ci95": None, "too_wide": False}
    fights = int(bar.get("fights") or 0)
    if method == "estimate" and fights > 0:
        draw_ci = wilson(round(bar["draw"] * fights), fights)
        spans = [(s["win"], s.get("ci95")) for s in bar["sides"].values()]
        spans.append((bar["draw"], draw_ci))
        if all(ci is not None and max(p - ci[0], ci[1] - p) <= WIDE for p, ci in spans):
            return {**bar, "draw_ci95": list(draw_ci), "too_wide": False}
    return {
        **bar,
        "method": "working",
        "sides": {},
        "draw": None,
        "draw_certain": False,
        "draw_ci95": None,
        "fights": fights,
        "states": 0,
        "residual": None,
        "idle": [],
        "too_wide": method == "estimate" and fights > 0,
    }


class WinBars:
    """The win bars of every table a :class:`~fracas.web.live.Hub` serves."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.limits: dict[str, Any] = dict(WIN_LIMITS)
        """The bounds of one bar (:func:`~fracas.lab.bar.win_bar`'s)."""
        self.latest: dict[tuple[str, bool], tuple[int, dict[str, Any] | None]] = {}
        """Per (table, for the game master): the seq and the bar last worked out."""
        self._pending: dict[tuple[str, bool], tuple[int, Future[dict[str, Any]]]] = {}
        self._stops: dict[str, Callable[[], None]] = {}
        self._loops: dict[str, asyncio.AbstractEventLoop] = {}
        self._tables: dict[str, Table] = {}
        self._own: Executor | None = None
        self._wanted: dict[str, set[Page]] = {}
        """Per table, the pages that asked for the bar (their hello's ``winbar``)."""
        self.enabled = True
        """False: no bar is worked out nor sent (a page's ask is not heard); the
        browser tests that do not look at the bar keep its background work off the
        cores their pages need."""
        self.advice_states: int | None = None
        """The states the advisor's chain for the chances to win may grow to (None: the
        advisor's own; a test of a fight too large for it sets fewer)."""

    def _processes(self) -> bool:
        """Whether the bars run in a process (the hub's odds executor is a process
        pool: ``fracas serve``), else in a thread of this one."""
        return isinstance(self.hub.executor, ProcessPoolExecutor)

    def _executor(self) -> Executor:
        if self._own is None:
            if self._processes():
                # ends with the server; yields the CPU to it; loads what it answers with
                self._own = pool(nice=10, ready=answers.ready)
            else:
                self._own = ThreadPoolExecutor(max_workers=1, thread_name_prefix="winbar")
        return self._own

    def executors(self) -> list[Executor]:
        """The executor the bars run in, where one was started (to stop it with the
        server, :func:`fracas.web.workers.stop`)."""
        return [] if self._own is None else [self._own]

    @staticmethod
    def _gm(page: Page) -> bool | None:
        """Whether ``page`` is the game master's (None: its link is gone)."""
        try:
            return page.identity.is_gm
        except FracasError:
            return None

    # --- pages come and go -----------------------------------------------------------

    def hello(self, page: Page, message: dict[str, Any]) -> None:
        """A page's hello (after its sync): with ``"winbar": true`` it asks for the bar;
        the table's bar starts being kept (its first such page), and this page gets
        the latest bar it may see."""
        if message.get("winbar") is not True or not self.enabled:
            return
        encounter = page.encounter
        self._wanted.setdefault(encounter, set()).add(page)
        table = self._tables.get(encounter)
        if table is None:
            self._loops[encounter] = page.loop
            table = self._tables[encounter] = page.table
            self._stops[encounter] = table.subscribe(self._heard)
        gm = self._gm(page)
        if gm is None:
            return
        latest = self.latest.get((encounter, gm))
        if latest is not None and latest[0] == table.seq:
            if latest[1] is not None:
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
        for gm in (True, False):
            pending = self._pending.pop((encounter, gm), None)
            if pending is not None:
                pending[1].cancel()
        self._loops.pop(encounter, None)
        self._tables.pop(encounter, None)
        if not self._wanted and self._own is not None:  # no page of any table asks
            self._own.shutdown(wait=False, cancel_futures=True)
            self._own = None

    # --- the advisor, in the same worker (the chains it keeps serve both) -------------

    def advise(self, page: Page, question: AdviceQuestion, ident: Any) -> None:
        """Work out the advice for ``page`` in the bar's executor; reply when it is done
        and the table has not moved on (else it is dropped: the page asks again). Where
        the chances to win are asked, the choices are answered first, alone (``working``,
        in the odds' worker), and again with the chances once the fight's chain has
        them."""
        if self.advice_states is not None:
            question = dataclasses.replace(question, max_states=self.advice_states)
        first = question.list_first()  # the choices at once, the chances to win after
        if first is not None:
            # in the odds' worker (the previews': milliseconds a question), not behind
            # the bar's slice under way in its own (up to a second)
            future = self.hub.executor.submit(answers.answer, first)
            self.hub.spawn(self._advised(page, first, ident, future))
        future = self._executor().submit(answers.answer, question)
        self.hub.spawn(self._advised(page, question, ident, future))

    async def _advised(
        self, page: Page, question: AdviceQuestion, ident: Any, future: Future[dict[str, Any]]
    ) -> None:
        try:
            advice = await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            return
        except FracasError as exc:
            with contextlib.suppress(WebSocketDisconnect, RuntimeError):  # the page went
                await page.refuse(ident, exc)
            return
        except Exception:  # a bug in the work: the page hears nothing, the server goes on
            _log.exception("the advice of %s (record %d) failed", page.encounter, question.seq - 1)
            return
        if page.table.seq != question.seq:
            return
        await _sent(page, {"type": "advice", "id": ident, "seq": question.seq, "advice": advice})

    # --- the work --------------------------------------------------------------------

    def _heard(self, change: Change) -> None:
        """The table's feed (in the writer's thread): a new record; start on the loop."""
        loop = self._loops.get(change.table)
        if change.records and loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._start, change.table)

    def _start(self, encounter: str) -> None:
        """Work out the bars of the table's state now, for the audiences that want one
        (the game master's, the players'); one still pending for an older state is
        cancelled (not started yet) or left to be dropped."""
        table = self._tables.get(encounter)
        if table is None:
            return
        audiences = {self._gm(p) for p in self._wanted.get(encounter, ())} - {None}
        limits = self.limits
        if self._processes():
            # the bar's worker is a process: its fights on the machine's other core
            limits = {**limits, "alongside": True}
        for gm in sorted(audiences, key=bool):
            question = table.win_question(Identity.gm() if gm else PLAYERS, limits)
            key = (encounter, bool(gm))
            if question is None:  # the policy shows players no bar now: say so, once
                if self.latest.get(key, (None, None))[1] is not None:
                    self.hub.spawn(self._deliver(encounter, False, table.seq, None))
                self.latest[key] = (table.seq, None)
                continue
            pending = self._pending.get(key)
            if pending is not None:
                if pending[0] == question.seq:
                    continue  # already on its way
                pending[1].cancel()
            self._submit(encounter, bool(gm), table, question)

    def _submit(self, encounter: str, gm: bool, table: Table, question: WinQuestion) -> None:
        future = self._executor().submit(answers.answer, question)
        self._pending[(encounter, gm)] = (question.seq, future)
        self.hub.spawn(self._finish(encounter, gm, table, question, future))

    async def _finish(
        self,
        encounter: str,
        gm: bool,
        table: Table,
        question: WinQuestion,
        future: Future[dict[str, Any]],
    ) -> None:
        key = (encounter, gm)
        seq = question.seq
        try:
            bar = await asyncio.wrap_future(future)
        except (asyncio.CancelledError, FracasError):
            return  # a newer state replaced it, or the rules refused (no bar then)
        except Exception:  # a bug in the work: the bar stays as it was, the server on
            _log.exception("the win bar of %s (record %d) failed", encounter, seq - 1)
            return
        finally:
            if self._pending.get(key, (None, None))[1] is future:
                del self._pending[key]
        if table.seq != seq:
            return  # the table moved on while it was worked out: dropped
        sent = honest(bar)  # no figure wider than WIDE leaves the server
        self.latest[key] = (seq, sent)
        await self._deliver(encounter, gm, seq, sent)
        wanted = any(self._gm(p) is gm for p in self._wanted.get(encounter, ()))
        if not bar.get("final", True) and wanted and key not in self._pending:
            # not final: the next slice of work refines it (a newer record's first slice
            # waits at most one slice, itself bounded in wall time)
            more = dataclasses.replace(question, limits={**question.limits, **SLICE})
            self._submit(encounter, gm, table, more)

    async def _deliver(
        self, encounter: str, gm: bool, seq: int, bar: dict[str, Any] | None
    ) -> None:
        for page in list(self._wanted.get(encounter, ())):
            if self._gm(page) is gm:
                await self._send(page, seq, bar)

    async def _send(self, page: Page, seq: int, bar: dict[str, Any] | None) -> None:
        if page not in self._wanted.get(page.encounter, ()):
            return  # it never asked, or it left
        gm = self._gm(page)
        if gm is None:
            return
        state = self._tables[page.encounter].state
        message = {
            "type": "winbar",
            "seq": seq,
            "players": state.policy.winbar,
            "gm": gm,
            "bar": bar,
            "withheld": players_bar_withheld(state) if gm else None,
        }
        await _sent(page, message)


async def _sent(page: Page, message: dict[str, Any]) -> None:
    """Send ``message`` to ``page``, on the loop its socket lives on. A socket closed
    meanwhile (the page went while its bar was worked out or sent: the socket's own
    task sees it go and leaves) takes nothing: no error for a task no one awaits, and
    the next page of the table still gets its bar."""
    try:
        if page.loop is asyncio.get_running_loop():
            await page.send(message)
        elif not page.loop.is_closed():  # the page's socket lives on another loop
            await asyncio.wrap_future(
                asyncio.run_coroutine_threadsafe(page.send(message), page.loop)
            )
    except (WebSocketDisconnect, RuntimeError):  # as :mod:`fracas.web.live` takes it
        return
