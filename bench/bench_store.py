"""Benchmark: the encounter store (SQLite, durable commits) and resuming a long encounter.

Run by hand from the repository root (it is not a test)::

    .venv/bin/python bench/bench_store.py [--appends N] [--events N] [--dir DIR]

(a) Records appended per second, one transaction each (the way play appends every
    action): to the store alone, with durable commits (``synchronous=FULL``, an fsync
    per commit) and, for comparison, without; then whole actions per second through a
    play session (rules resolved, record stored durably) in auto dice mode.
(b) The time to resume an encounter whose log holds at least ``--events`` events
    (default 10,000): read the store, re-read the setup, replay every record with its
    recorded dice and check each against what was stored. Median of 5.
(c) A scratch store (``open_store(":memory:")``, as a command that plays a file and
    keeps nothing opens one per call): open it, create an encounter of 20 records, load
    it back, close. Median of 200.

``--dir`` puts the store elsewhere (the default is a temporary directory, which on
some machines is memory, where an fsync costs nothing: give a disk path to measure one).
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from fracas.engine.play import Engine
from fracas.errors import FracasError
from fracas.io.files import parse_text
from fracas.io.store import MEMORY, NewEncounter, open_store
from fracas.io.store.records import record_json
from fracas.model import Action
from fracas.table import TableService

ARENA = """\
ruleset: dice-combat
seed: 1
combatants:
  - {id: ana, at: [0, 0], max_hp: 100000, hand: knife}
  - {id: bo, at: [1, 0], max_hp: 100000, hand: club}
  - {id: cy, at: [0, 1], max_hp: 100000, hand: knife}
  - {id: dee, at: [1, 1], max_hp: 100000, hand: club}
"""


def _events(engine: Engine) -> int:
    return sum(len(r.events) for r in engine.log)


def _step(engine: Engine, rng: random.Random) -> None:
    """One action of the current actor: an attack on someone else, or end the turn."""
    actor = engine.state.turn.actor
    if engine.state.turn.actions_used and rng.random() < 0.9:
        action = Action(actor, "end_turn")
    else:
        others = [c for c in engine.state.combatants if c != actor]
        action = Action(actor, "attack", rng.choice(others))
    try:
        engine.act(action)
    except FracasError:
        engine.act(Action(actor, "end_turn"))


def appends(directory: Path, n: int, durable: bool) -> float:
    """Records appended per second, one transaction each."""
    ef = parse_text(ARENA, "arena.yaml")
    engine = Engine(ef.ruleset, ef.start, 1)
    engine.begin(ef.dice, ef.order)
    rng = random.Random(1)
    while len(engine.log) < n + 1:
        _step(engine, rng)
    bodies = [record_json(r) for r in engine.log]
    store = open_store(directory / f"append-{durable}.sqlite3", durable=durable)
    name = store.create(NewEncounter("arena.yaml", ARENA, "dice-combat", 1), bodies[:1])
    t0 = time.perf_counter()
    for body in bodies[1 : n + 1]:
        store.append(name, body["seq"], [body])
    elapsed = time.perf_counter() - t0
    store.close()
    return n / elapsed


def scratch(count: int = 20, rounds: int = 200) -> list[float]:
    """The times (s) to open a scratch store, create an encounter of ``count`` records,
    load it and close the store."""
    ef = parse_text(ARENA, "arena.yaml")
    engine = Engine(ef.ruleset, ef.start, 1)
    engine.begin(ef.dice, ef.order)
    rng = random.Random(1)
    while len(engine.log) < count:
        _step(engine, rng)
    bodies = [record_json(r) for r in engine.log[:count]]
    new = NewEncounter("arena.yaml", ARENA, "dice-combat", 1)
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        store = open_store(MEMORY)
        assert len(store.load(store.create(new, bodies)).records) == count
        store.close()
        times.append(time.perf_counter() - t0)
    return times


def session_actions(directory: Path, n: int) -> float:
    """Whole actions per second through a session: resolved, then stored durably."""
    store = open_store(directory / "session.sqlite3")
    session = TableService(store).create(ARENA, "arena.yaml", live=False)
    rng = random.Random(2)
    t0 = time.perf_counter()
    for _ in range(n):
        actor = session.state.turn.actor
        others = [c for c in session.state.combatants if c != actor]
        try:
            if session.state.turn.actions_used:
                raise FracasError("used", "")
            session.act(Action(actor, "attack", rng.choice(others)))
        except FracasError:
            session.act(Action(actor, "end_turn"))
    elapsed = time.perf_counter() - t0
    store.close()
    return n / elapsed


def resume(directory: Path, events: int) -> tuple[int, int, list[float]]:
    """Records, events, and the resume times (s) of an encounter of ``events`` events."""
    ef = parse_text(ARENA, "arena.yaml")
    engine = Engine(ef.ruleset, ef.start, 3)
    engine.begin(ef.dice, ef.order)
    rng = random.Random(3)
    while _events(engine) < events:
        _step(engine, rng)
    store = open_store(directory / "resume.sqlite3")
    new = NewEncounter(ef.path, ARENA, ef.ruleset.about.name, engine.seed)
    name = store.create(new, [record_json(r) for r in engine.log])
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        session = TableService(store).open(name)
        times.append(time.perf_counter() - t0)
        assert session.state == engine.state, "a resumed encounter differs from the played one"
    store.close()
    return len(engine.log), _events(engine), times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--appends", type=int, default=500, help="records appended (a)")
    parser.add_argument("--events", type=int, default=10_000, help="events to resume (b)")
    parser.add_argument("--dir", type=Path, default=None, help="where the stores go")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        directory = Path(tmp)
        print(f"stores in {directory}")
        durable = appends(directory, args.appends, True)
        print(f"(a) store.append, durable commits (synchronous=FULL): {durable:,.0f} records/s")
        fast = appends(directory, args.appends, False)
        print(f"    store.append, synchronous=NORMAL (comparison):   {fast:,.0f} records/s")
        played = session_actions(directory, args.appends)
        print(f"    whole actions through a session, durable:        {played:,.0f} actions/s")
        records, events, times = resume(directory, args.events)
        print(
            f"(b) resume of an encounter of {events:,} events ({records:,} records): "
            f"median {statistics.median(times) * 1000:,.0f} ms "
            f"(min {min(times) * 1000:,.0f}, max {max(times) * 1000:,.0f})"
        )
    times = scratch()
    print(
        f"(c) scratch store: open, create 20 records, load, close: median "
        f"{statistics.median(times) * 1000:.2f} ms (min {min(times) * 1000:.2f}, "
        f"max {max(times) * 1000:.2f})"
    )


if __name__ == "__main__":
    main()
