"""Stress test, by hand: two ``fracas serve`` processes on one PostgreSQL, one SIGKILLed
at a random moment of a scripted session.

Run from the repository root (the test suite runs a couple of these trials; see
``tests/web/test_multiprocess_kill.py``)::

    .venv/bin/python bench/stress_pg.py [--trials 50] [--actions 12] [--seed N]

It starts a throwaway PostgreSQL cluster (``tests/store/pgcluster.py``); each trial
takes a fresh database and two servers on it, a game master's page adding raiders
one after the other through one server and a player's page watching through the
other, and kills one of the two servers (either page's) at a random moment. The pages
reconnect to the survivor and catch up from their seq; the game master's page sends
an unacknowledged action again unless the state shows it stored. Each trial checks:
the store holds every action exactly once, in order (0 lost, 0 doubled), each
acknowledged action at the seq its ``done`` named, and the watcher ends holding the
whole log. Exit status 1 on the first failing trial.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests package

from tests.store.pgcluster import Cluster, find_bindir
from tests.web.multiprocess import trial


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=50)
    parser.add_argument("--actions", type=int, default=12)
    parser.add_argument("--seed", type=int, default=None, help="default: random, printed")
    args = parser.parse_args()
    bindir = find_bindir()
    if bindir is None:
        print("no PostgreSQL server binaries (initdb): apt-get install postgresql")
        return 2
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    cluster = Cluster(bindir)
    print(f"PostgreSQL started in {cluster.started_in:.2f} s; {args.trials} trials, seed {seed}")
    killed: Counter[str] = Counter()
    refusals: Counter[str] = Counter()
    lost = doubled = unacked = resent = acked = 0
    moments: list[float] = []
    t0 = time.perf_counter()
    try:
        for i in range(args.trials):
            with tempfile.TemporaryDirectory() as home:
                try:
                    result = trial(cluster.database(), Path(home), rng, args.actions)
                except AssertionError as exc:
                    print(f"trial {i + 1} FAILED: {exc}")
                    return 1
            killed[result.killed] += 1
            refusals.update(result.refusals)
            lost += result.lost
            doubled += result.doubled
            unacked += result.stored_unacked
            resent += result.resent
            acked += result.acked
            moments.append(result.at)
            if (i + 1) % 10 == 0:
                print(f"  {i + 1} trials passed ({time.perf_counter() - t0:.0f} s)")
    finally:
        cluster.destroy()
    print(f"all {args.trials} trials passed in {time.perf_counter() - t0:.0f} s")
    print(
        f"killed: the acting page's server {killed['actor']}, the watching page's "
        f"{killed['watcher']}; at {min(moments) * 1000:.0f} to {max(moments) * 1000:.0f} ms "
        f"into the session (median {statistics.median(moments) * 1000:.0f} ms)"
    )
    print(
        f"actions: {args.trials * args.actions} scripted, {acked} acknowledged, {unacked} "
        f"stored with their ack lost (found on reconnect), {resent} sent again"
    )
    print(f"refusals seen: {dict(refusals) or 'none'}")
    print(f"lost: {lost}, doubled: {doubled} (must be 0, 0)")
    return 0 if lost == doubled == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
