"""Stress test, by hand: ``fracas play`` killed with SIGKILL at many random moments.

Run from the repository root (it is not part of the test suite, which runs 10 of
these trials; see ``tests/play/test_crash.py``)::

    .venv/bin/python bench/stress_crash.py [--trials 200] [--seed N] [--no-finish]

Each trial starts a scripted session (attacks, undo, redo, dice given on the line
or answered one at a time), kills the process at a random moment (while starting,
while waiting for a die, resolving, committing or printing), then checks that
every action shown is stored exactly once, that the store holds nothing
half-written (its log is a prefix of the reference log and replays), and, unless
``--no-finish``, resumes the encounter and finishes the script, which must end
with exactly the reference log. Exit status 1 on the first failing trial, with
its transcript.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests package

from tests.play.crash import script, trial


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=200)
    parser.add_argument("--seed", type=int, default=None, help="default: random, printed")
    parser.add_argument("--no-finish", action="store_true", help="do not resume and finish")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    print(f"{args.trials} trials, seed {seed}")
    where: Counter[str] = Counter()
    stored: Counter[int] = Counter()
    shown_not_stored = stored_not_shown = mid_roll = 0
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        s = script(Path(tmp))
        for i in range(args.trials):
            try:
                result = trial(Path(tmp), s, rng, finish=not args.no_finish)
            except AssertionError as exc:
                print(f"trial {i + 1} FAILED: {exc}")
                return 1
            where[result.killed_at.split(" (")[0]] += 1
            stored[result.stored] += 1
            shown_not_stored += result.shown > result.stored
            mid_roll += result.mid_roll
            stored_not_shown += result.stored > max(result.shown, 1)
            if (i + 1) % 25 == 0:
                print(f"  {i + 1} trials passed ({time.perf_counter() - t0:.0f} s)")
    print(f"all {args.trials} trials passed in {time.perf_counter() - t0:.0f} s")
    print(f"records stored when killed (count: trials): {dict(sorted(stored.items()))}")
    print(
        f"killed while starting: {where['at start']}; while fracas was asking for a die: "
        f"{mid_roll}; after a whole line: {args.trials - where['at start'] - mid_roll}"
    )
    print(
        f"killed after storing, before showing: {stored_not_shown} trials "
        f"(resumed: shown then); shown but not stored: {shown_not_stored} (must be 0)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
