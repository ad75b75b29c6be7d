"""Fights played ahead on the machine's other core while ``fracas lab win`` grows its
chain (docs/lab.md, "Methods").

The chain runs in this process and often answers (exact or float); where it does not,
half the time was spent on it, and the estimate had only the rest. :class:`Ahead`
plays :func:`~fracas.lab.sim.precise`'s chunks 0, 1, 2, ... of the same seed meanwhile,
in one forked process, and sends each back whole; :meth:`Ahead.take` stops it and
gives the chunks it finished, in order, for the estimate to start from (a chunk cut
short is dropped: every chunk counted is the chunk the seed names, so the answer is
the same whichever process played it). The process ends when it is told, at the
deadline, or when the process that started it is gone (looked at between two actions
of a fight).
"""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import time
from multiprocessing.connection import Connection
from typing import Any

from fracas.lab.sim import MAX_ROUNDS, PRECISE_CHUNK, Tally, chunk_seed, play, played_of, setup

__all__ = ["Ahead"]


class Ahead:
    """Chunks of fights of the file ``text`` played in another process until
    :meth:`take` (or ``deadline``, a :func:`time.monotonic` time)."""

    def __init__(
        self, text: str, name: str, *, seed: int, deadline: float, max_rounds: int = MAX_ROUNDS
    ) -> None:
        ctx = multiprocessing.get_context("fork")
        self._halt = ctx.Event()
        self._got, theirs = ctx.Pipe(duplex=False)
        args = (text, name, seed, deadline, max_rounds, self._halt, theirs, os.getpid())
        self._proc: Any = ctx.Process(
            target=_play_ahead, args=args, daemon=True, name="fracas-lab-ahead"
        )
        self._proc.start()
        theirs.close()
        self._taken: list[Tally] | None = None

    def take(self) -> list[Tally]:
        """Stop the fights; the chunks finished, in chunk order (0, 1, ...)."""
        if self._taken is not None:
            return self._taken
        self._halt.set()
        out: list[Tally] = []
        try:
            while True:
                out.append(self._got.recv())
        except (EOFError, OSError):
            pass
        self._proc.join(10)
        if self._proc.is_alive():
            self._proc.kill()
            self._proc.join()
        self._got.close()
        self._taken = out
        return out


def _play_ahead(
    text: str,
    name: str,
    seed: int,
    deadline: float,
    max_rounds: int,
    halt: Any,
    conn: Connection,
    parent: int,
) -> None:
    """The other process: chunk after chunk, each sent whole, until told to stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C is the command's to act on

    def stop() -> bool:
        return halt.is_set() or time.monotonic() > deadline or os.getppid() != parent

    try:
        ef, start, policy = setup(text, name)
        played = played_of(text, name)
        i = 0
        while not stop():
            rng = random.Random(chunk_seed(seed, i))
            tally = play(
                ef.ruleset,
                start,
                policy,
                rng,
                PRECISE_CHUNK,
                max_rounds,
                stop,
                abandon=True,
                played=played,
            )
            if tally.fights < PRECISE_CHUNK:
                break  # cut short: not the chunk the seed names
            conn.send(tally)
            i += 1
    except Exception:  # the estimate here plays the chunks again, and says what failed
        pass
    finally:
        conn.close()
