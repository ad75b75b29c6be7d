"""The win bar's fights played on the machine's other core while its worker grows the
fight's chain (docs/lab.md, "The win bar").

A server's bar worker (``fracas serve``) grows the chain of the state on the table and
plays seeded fights from it, in slices; one process doing both gave each half of one
core, while the machine's other core waited for a tap's odds. :class:`Alongside` plays
the fights in a process forked from the worker (its tactics' caches and the turns it
played come along, copied on write), which lives on from state to state, so what it
learns of the fight (the tactics' choices, the turns played) serves the next state's
fights too. For each state it is given, it plays fight ``i`` seeded from (seed, ``i``)
alone, ``i`` from the count the worker had on, and sends each back whole, in order. The
worker adds them one by one with the same stops as when it plays them itself (its cap
of fights, an interval precise enough), so the tally, and the bar's final answer, are
those of the fights played in the worker; only how soon they come differs.

The process plays until it has played what it may, until it is given another state or
told to rest, and ends when it is told or at once when the worker is gone (a thread
looks at its parent).
"""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import threading
import time
from multiprocessing.connection import Connection
from typing import Any

from fracas.lab.played import Played
from fracas.lab.policy import Policy
from fracas.lab.sim import Tally, play
from fracas.model import Encounter
from fracas.rulesets.base import Ruleset

__all__ = ["FORKS", "Alongside", "bar_rng"]

FORKS = "fork" in multiprocessing.get_all_start_methods()
"""Whether this system forks processes (not Windows): elsewhere the bar's worker plays
its fights itself."""
_LOOK = 0.1
"""Seconds between two looks of the forked process at its parent."""
_NICEST = 19
"""The forked process's niceness: the lowest priority there is."""

Job = tuple[int, Encounter, int, int, int]
"""(its number, the state, the seed, the first fight's number, the count to stop at)."""


def bar_rng(seed: int, index: int) -> random.Random:
    """The dice of the bar's fight number ``index`` of a state: a function of (seed,
    ``index``) alone, whichever process plays it."""
    return random.Random(f"fracas-bar/{seed}/{index}")


class Alongside:
    """A forked process that plays the bar's fights of the state it is given, under
    ``policy`` (with the turns ``played``), for the rules ``ruleset``."""

    def __init__(self, ruleset: Ruleset, policy: Policy, played: Played) -> None:
        ctx = multiprocessing.get_context("fork")
        self._conn, theirs = ctx.Pipe(duplex=True)
        args = (ruleset, policy, played, theirs, os.getpid())
        self._proc: Any = ctx.Process(
            target=_play_alongside, args=args, daemon=True, name="fracas-bar-fights"
        )
        self._proc.start()
        theirs.close()
        self._open = True
        self._job = 0
        self.root: Encounter | None = None
        """The state whose fights it plays now (as the bar keeps its tally); None: it
        rests."""
        self.next = 0
        """The number of the next fight to come."""
        self._upto = 0

    def play(self, root: Encounter, state: Encounter, *, seed: int, first: int, upto: int) -> None:
        """Play fights ``first``, ``first + 1``, ... ``upto - 1`` of ``state`` (kept
        under ``root``), the fight under way for another state dropped."""
        self._job += 1
        self.root, self.next, self._upto = root, first, upto
        self._send((self._job, state, seed, first, upto))

    def rest(self) -> None:
        """Stop playing (the fight under way dropped) until given another state."""
        if self.root is not None:
            self._job += 1
            self.root = None
            self._send(None)

    def take(self, wait: float = 0.0) -> list[Tally]:
        """The fights of the current state finished since the last call, in order (each
        a tally of one); where none has, those that finish first within ``wait``
        seconds (none once it has played them all)."""
        out: list[Tally] = []
        until = time.monotonic() + wait
        try:
            while self._open and self.root is not None and self.next + len(out) < self._upto:
                if not self._conn.poll(0.0 if out else max(0.0, until - time.monotonic())):
                    break
                job, one = self._conn.recv()
                if job == self._job:  # not a fight of a state it was given before
                    out.append(one)
        except (EOFError, OSError):  # it is gone
            self._open = False
        self.next += len(out)
        return out

    @property
    def done(self) -> bool:
        """It has ended: nothing more will come (a fight failed in it)."""
        return not self._open

    def stop(self) -> None:
        """End the process (its fight under way dropped: not waited for)."""
        self._proc.kill()
        self._proc.join()
        self._conn.close()
        self._open = False
        self.root = None

    def _send(self, job: Job | None) -> None:
        try:
            self._conn.send(job)
        except (BrokenPipeError, OSError):
            self._open = False


def _play_alongside(
    ruleset: Ruleset, policy: Policy, played: Played, conn: Connection, parent: int
) -> None:
    """The forked process: each state's fights, one after another, each sent whole."""
    # the worker it was forked from ignores SIGTERM (the server's to act on); a
    # process of its own is ended with its parent's exit (multiprocessing terminates
    # its daemonic children), so it takes SIGTERM again
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # the lowest priority: where the cores are all busy (a page loading, a tap's odds,
    # the chain) it yields to them; on an otherwise idle core it plays as fast
    if hasattr(os, "nice"):
        os.nice(max(0, _NICEST - os.nice(0)))
    threading.Thread(target=_watch, args=(parent,), daemon=True).start()
    job: Job | None = None

    def asked() -> bool:  # between two actions: another state given, or a rest
        return conn.poll()

    try:
        while True:
            if job is None or conn.poll():
                job = conn.recv()
                continue
            number, state, seed, i, upto = job
            one = play(
                ruleset, state, policy, bar_rng(seed, i), 1, stop=asked, abandon=True, played=played
            )
            if one.fights == 0:
                continue  # asked meanwhile: the fight under way dropped
            conn.send((number, one))
            job = (number, state, seed, i + 1, upto) if i + 1 < upto else None
    except EOFError:  # the worker closed its end: nothing more is wanted
        pass
    except Exception:  # a fight failed: the worker plays the fights itself, and says why
        pass
    finally:
        conn.close()


def _watch(parent: int) -> None:
    """End this process the moment ``parent`` (the worker) has ended."""
    while os.getppid() == parent:
        time.sleep(_LOOK)
    os._exit(0)
