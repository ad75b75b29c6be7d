"""Monte Carlo of whole fights: the real engine, random dice, the policy.

Fights run in chunks of :data:`CHUNK`; chunk ``i`` is seeded from ``(seed, i)`` alone,
so the result is the same whatever the number of workers (chunks are merged in
order). Every setting travels in the task (:class:`Chunk`): the encounter file's text,
the seed, the caps; nothing is read from the environment.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from fracas.dice.source import RandomDice
from fracas.errors import FracasError
from fracas.io.files import EncounterFile, parse_text
from fracas.lab.collect import fewer_collections
from fracas.lab.fight import DRAW, file_start, outcome, sides_of
from fracas.lab.played import Played
from fracas.lab.policy import Policy
from fracas.model import Encounter
from fracas.rulesets.base import Ruleset, is_down

__all__ = [
    "CHUNK",
    "MAX_ROUNDS",
    "Chunk",
    "Sim",
    "Tally",
    "play",
    "played_of",
    "precise",
    "run_chunk",
    "simulate",
    "wilson",
]

CHUNK = 250
"""Fights per task."""
PRECISE_CHUNK = 25
"""Fights per task of :func:`precise` (small: it stops at the first chunk that is
enough, and a slow ruleset's chunk stays short)."""
MAX_ROUNDS = 100
"""A fight still on after this many rounds is stopped and counted as a draw."""


@dataclass(frozen=True)
class Chunk:
    """One task: ``fights`` fights of the file ``text``, seeded from (seed, index)."""

    text: str
    name: str
    seed: int
    index: int
    fights: int
    max_rounds: int = MAX_ROUNDS
    deadline: float | None = None
    """A :func:`time.monotonic` past which the chunk stops early (the machine's clock:
    a local worker's too): only an outer bound on wall time; a run it cuts says so."""


@dataclass
class Tally:
    """What a chunk (or the whole run) counted."""

    fights: int = 0
    wins: dict[str, int] = field(default_factory=dict)
    capped: int = 0
    rounds: dict[int, int] = field(default_factory=dict)
    dealt: dict[str, int] = field(default_factory=dict)
    taken: dict[str, int] = field(default_factory=dict)
    survived: dict[str, int] = field(default_factory=dict)
    hp_left: dict[str, int] = field(default_factory=dict)
    acted: set[str] = field(default_factory=set)
    """Who took anything but the end of a turn in some fight."""

    def add(self, other: Tally) -> None:
        self.fights += other.fights
        self.capped += other.capped
        self.acted |= other.acted
        for r, k in other.rounds.items():
            self.rounds[r] = self.rounds.get(r, 0) + k
        for mine, theirs in (
            (self.wins, other.wins),
            (self.dealt, other.dealt),
            (self.taken, other.taken),
            (self.survived, other.survived),
            (self.hp_left, other.hp_left),
        ):
            for key, v in theirs.items():
                mine[key] = mine.get(key, 0) + v


_PARSED: dict[tuple[str, str], tuple[EncounterFile, Encounter, Policy]] = {}
_PLAYED: dict[tuple[str, str], Played] = {}


def setup(text: str, name: str) -> tuple[EncounterFile, Encounter, Policy]:
    """The file, its start and a policy, once per process (the policy's cache lives on)."""
    found = _PARSED.get((text, name))
    if found is None:
        ef = parse_text(text, name)
        found = _PARSED[(text, name)] = (ef, file_start(ef), Policy(ef.ruleset, ef.tactics))
    return found


def played_of(text: str, name: str) -> Played:
    """The turns this process played of the file ``text`` (its fights share them)."""
    found = _PLAYED.get((text, name))
    if found is None:
        found = _PLAYED[(text, name)] = Played(setup(text, name)[2])
    return found


def chunk_seed(seed: int, index: int) -> int:
    """The seed of chunk ``index``: a function of (seed, index) only."""
    return random.Random(f"fracas-lab/{seed}/{index}").getrandbits(63)


def run_chunk(task: Chunk) -> Tally:
    """Play the chunk's fights (a top-level function: it runs in a worker process)."""
    ef, start, policy = setup(task.text, task.name)
    rng = random.Random(chunk_seed(task.seed, task.index))
    deadline = task.deadline
    stop = None if deadline is None else (lambda: time.monotonic() > deadline)
    # past the deadline the fight under way is dropped, not played to its end (a
    # wasteland fight takes seconds: the answer would come that much late)
    turns = played_of(task.text, task.name)
    fights, rounds = task.fights, task.max_rounds
    return play(ef.ruleset, start, policy, rng, fights, rounds, stop, abandon=True, played=turns)


def play(
    rs: Ruleset,
    start: Encounter,
    policy: Policy,
    rng: random.Random,
    fights: int,
    max_rounds: int = MAX_ROUNDS,
    stop: Callable[[], bool] | None = None,
    *,
    abandon: bool = False,
    played: Played | None = None,
) -> Tally:
    """Play ``fights`` fights from ``start`` under ``policy``, each with its own dice
    seeded from ``rng``; ``stop`` (asked between fights) ends the run early: the tally
    counts the fights played. ``abandon``: ``stop`` is asked between actions too, and
    a fight it stops is dropped, not counted (a slice of work that must end in time).
    ``played``: the turns already played under ``policy`` (:class:`Played`; None: a
    new one for these fights); the tally is the same either way."""
    with fewer_collections():
        return _play(rs, start, rng, fights, max_rounds, stop, abandon, played or Played(policy))


def _play(
    rs: Ruleset,
    start: Encounter,
    rng: random.Random,
    fights: int,
    max_rounds: int,
    stop: Callable[[], bool] | None,
    abandon: bool,
    turns: Played,
) -> Tally:
    out = Tally()
    ids = list(start.combatants)
    for _ in range(fights):
        if stop is not None and stop():
            break
        dice = RandomDice(rng.getrandbits(63))
        state = start
        dealt = dict.fromkeys(ids, 0)
        taken = dict.fromkeys(ids, 0)
        won = outcome(rs, state)
        actions = 0
        while won is None and state.round - start.round < max_rounds:
            if abandon and stop is not None and stop():
                return out
            # The tactics' action and the rules' own planning and fold, as Engine.act
            # does, without what only a table needs (the check of a typed action, the
            # log, undo): the policy's actions are the rules' own choices (``decided``
            # took them). A state and dice path met before is answered from the tree.
            action, after = turns.step(state, dice)
            if action.do != "end_turn":
                out.acted.add(action.actor)
            for cid, c in state.combatants.items():
                now = after.combatants.get(cid)
                lost = 0 if now is None else max(0, c.hp - now.hp)
                if lost:
                    taken[cid] += lost
                    if cid != action.actor:
                        dealt[action.actor] = dealt.get(action.actor, 0) + lost
            state = after
            won = outcome(rs, state)
            actions += 1
        out.fights += 1
        if won is None:
            out.capped += 1
            won = DRAW
        out.wins[won] = out.wins.get(won, 0) + 1
        played = state.round - start.round + 1
        out.rounds[played] = out.rounds.get(played, 0) + 1
        for cid in ids:
            last = state.combatants.get(cid)
            out.dealt[cid] = out.dealt.get(cid, 0) + dealt.get(cid, 0)
            out.taken[cid] = out.taken.get(cid, 0) + taken[cid]
            up = last is not None and not is_down(rs, last)
            out.survived[cid] = out.survived.get(cid, 0) + up
            out.hp_left[cid] = out.hp_left.get(cid, 0) + (last.hp if last is not None else 0)
    return out


def wilson(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of ``k`` successes in ``n`` (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, mid - half), min(1.0, mid + half))


@dataclass(frozen=True)
class Sim:
    """The result of ``fracas lab sim``."""

    tally: Tally
    sides: list[str]
    names: dict[str, str]
    max_rounds: int
    cut_by_time: bool = False
    """The wall-time bound stopped the fights before their work budget (its count, and
    so its answer, depends on the machine's speed)."""

    @property
    def n(self) -> int:
        return self.tally.fights

    def win(self, side: str) -> float:
        return self.tally.wins.get(side, 0) / self.n

    def ci95(self, side: str) -> tuple[float, float]:
        return wilson(self.tally.wins.get(side, 0), self.n)

    def to_json(self) -> dict[str, Any]:
        t, n = self.tally, self.n
        rounds_mean = sum(r * k for r, k in t.rounds.items()) / n
        return {
            "n": n,
            "sides": {s: {"win": self.win(s), "ci95": list(self.ci95(s))} for s in self.sides},
            "draw": t.wins.get(DRAW, 0) / n,
            "round_cap": {"rounds": self.max_rounds, "fights": t.capped},
            "rounds": {
                "mean": rounds_mean,
                "histogram": {str(r): k for r, k in sorted(t.rounds.items())},
            },
            "combatants": {
                cid: {
                    "name": self.names[cid],
                    "damage_dealt": t.dealt.get(cid, 0) / n,
                    "damage_taken": t.taken.get(cid, 0) / n,
                    "survival": t.survived.get(cid, 0) / n,
                    "hp_left": t.hp_left.get(cid, 0) / n,
                }
                for cid in self.names
            },
        }


def simulate(
    text: str,
    name: str,
    n: int,
    *,
    seed: int = 0,
    workers: int = 1,
    max_rounds: int = MAX_ROUNDS,
    progress: Callable[[int], None] | None = None,
    executor: str | None = None,
) -> Sim:
    """``n`` fights of the encounter file ``text`` (named ``name`` in messages), on
    ``workers`` processes (1: this one), or on the Dask cluster ``executor`` names
    (``dask://HOST:PORT``, the extra ``fracas[dask]``); ``progress`` hears each chunk's
    fights."""
    ef, start, _ = setup(text, name)
    tasks = [
        Chunk(text, name, seed, i, min(CHUNK, n - i * CHUNK), max_rounds)
        for i in range(math.ceil(n / CHUNK))
    ]
    total = Tally()
    if executor is not None:
        for part in _on_dask(executor, tasks):
            total.add(part)
            if progress is not None:
                progress(part.fights)
    elif workers <= 1:
        for task in tasks:
            part = run_chunk(task)
            total.add(part)
            if progress is not None:
                progress(part.fights)
    else:
        # Every chunk on the pool, one at a time as a worker comes free, merged in
        # chunk order. Each worker warms its own caches (the policy's choices, the
        # shared enumerations and scores): measured on 2 cores, 1.67x the speed of one
        # process where a first chunk played here to warm the forked workers gave 1.43x.
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for part in pool.map(run_chunk, tasks):
                total.add(part)
                if progress is not None:
                    progress(part.fights)
    names = {cid: c.name for cid, c in start.combatants.items()}
    del ef
    return Sim(total, sides_of(start), names, max_rounds)


def precise(
    text: str,
    name: str,
    *,
    half: float,
    seed: int = 0,
    workers: int = 1,
    fights: int | None = None,
    deadline: float | None = None,
    max_rounds: int = MAX_ROUNDS,
    ahead: list[Tally] | None = None,
) -> tuple[Sim, bool]:
    """Fights of the file ``text`` in chunks of :data:`PRECISE_CHUNK`, in chunk order,
    until every side's (and the draw's) 95% Wilson interval is at most ``half`` either
    side of its rate, or ``fights`` fights (the work budget; None: no cap) are played;
    the result, and whether it is that precise. The fights counted depend on the seed
    alone (the same seed, the same answer), whatever the workers and the machine's load.
    ``deadline`` (:func:`time.monotonic`) is only an outer bound: where it stops the
    fights first, the result says so (``Sim.cut_by_time``). ``ahead``: chunks 0, 1, ...
    already played (:class:`fracas.lab.ahead.Ahead`), counted first, one at a time, as
    if played here."""
    ef, start, _ = setup(text, name)
    sides = sides_of(start)
    total = Tally()
    cut = False

    def enough() -> bool:
        n = total.fights
        if n == 0:
            return False
        for label in (*sides, DRAW):
            lo, hi = wilson(total.wins.get(label, 0), n)
            k = total.wins.get(label, 0) / n
            if max(k - lo, hi - k) > half:
                return False
        return True

    def done() -> bool:
        return enough() or (fights is not None and total.fights >= fights)

    def late() -> bool:
        return deadline is not None and time.monotonic() > deadline

    def task(i: int) -> Chunk:
        return Chunk(text, name, seed, i, PRECISE_CHUNK, max_rounds, deadline)

    def add(part: Tally) -> None:
        nonlocal cut
        if part.fights < PRECISE_CHUNK:  # the deadline cut the chunk short
            cut = True
        total.add(part)

    i = 0
    for part in ahead or ():
        if done():
            break
        total.add(part)
        i += 1
    if workers <= 1:
        while not done() and not cut:
            if late():
                cut = True
                break
            add(run_chunk(task(i)))
            i += 1
    elif not done():
        with ProcessPoolExecutor(max_workers=workers) as pool:
            queue = [pool.submit(run_chunk, task(i + k)) for k in range(workers)]
            i += workers
            while queue and not done() and not cut:
                if late():
                    cut = True
                    break
                add(queue.pop(0).result())
                queue.append(pool.submit(run_chunk, task(i)))
                i += 1
            for f in queue:
                f.cancel()
    names = {cid: c.name for cid, c in start.combatants.items()}
    del ef
    return Sim(total, sides, names, max_rounds, cut_by_time=cut), enough()


def _on_dask(executor: str, tasks: list[Chunk]) -> Iterator[Tally]:
    """The chunks' tallies from a Dask cluster, in chunk order (every setting is in the
    task: the workers need fracas installed, nothing else)."""
    scheme, sep, address = executor.partition("://")
    if scheme != "dask" or not sep or not address:
        raise FracasError(
            "bad_value", f"--executor {executor!r}: give dask://HOST:PORT (a Dask scheduler)"
        )
    try:
        from distributed import Client
    except ImportError:
        raise FracasError(
            "missing_dependency",
            "--executor dask:// needs Dask: pip install 'fracas[dask]'",
        ) from None
    connect: Any = Client  # distributed's own signatures are untyped
    try:
        client = connect(f"tcp://{address}", timeout=10)
    except OSError as exc:
        raise FracasError(
            "executor_unreachable", f"cannot reach the Dask scheduler at {address!r}: {exc}"
        ) from None
    try:
        futures = client.map(run_chunk, tasks, pure=False)
        for future in futures:
            yield future.result()
    finally:
        client.close()
