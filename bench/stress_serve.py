"""Stress test, by hand: ``fracas serve`` killed with SIGKILL at random moments of a
scripted game master's session in a real browser (Debian's Chromium), then restarted
with ``--keep-links``: the page reconnects by itself and goes on.

Run from the repository root (CI runs a couple of these trials:
``tests/web/test_browser_crash.py``)::

    .venv/bin/python bench/stress_serve.py [--trials 20] [--actions 8] [--seed N]

Each trial checks that every action the page showed as done is stored exactly once,
and nothing else is (0 lost, 0 doubled), and that the page reconnected. Exit status
1 on the first failing trial.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fracas.web.serve import free_port
from tests.web.browser_crash import ARGS, chromium, trial


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--actions", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    path = chromium()
    if path is None:
        sys.exit("no chromium on the PATH (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    rng = random.Random(args.seed)
    lost = doubled = shown_total = 0
    began = time.monotonic()
    with sync_playwright() as p, tempfile.TemporaryDirectory() as tmp:
        browser = p.chromium.launch(executable_path=path, args=ARGS)
        for n in range(1, args.trials + 1):
            out = trial(Path(tmp) / str(n), browser, rng, args.actions, free_port("127.0.0.1"))
            missing = [s for s in out.shown if out.stored.count(s) != 1]
            extra = [s for s in out.stored if s not in out.shown]
            lost += len(missing)
            doubled += len(extra) + sum(out.stored.count(s) - 1 for s in set(out.stored))
            shown_total += len(out.shown)
            print(
                f"trial {n:>3}: killed at action+delay {out.killed_after:5.2f}, page showed "
                f"{len(out.shown)} actions, stored {len(out.stored)}, "
                f"reconnected {out.reconnected}; lost {len(missing)}, not shown {len(extra)}"
            )
            if missing or extra or not out.reconnected:
                sys.exit(1)
        browser.close()
    print(
        f"{args.trials} trials, {shown_total} actions shown done: {lost} lost, "
        f"{doubled} doubled or unshown; {time.monotonic() - began:.0f} s"
    )


if __name__ == "__main__":
    main()
