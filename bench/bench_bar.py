"""Benchmark: the win bar and the advisor on a real ``fracas serve``, after each record
(issue 34's goals: "after each action on each example, an exact figure or an interval
within ±5 points within 1 s; the advisor's list within 1 s"). By hand from the
repository root (it is not a test; a few minutes)::

    .venv/bin/python -m bench.bench_bar [--records 4] [--cap 15] [--before REF|PATH]
        [--rounds N] [FILE ...]

For each file (default: the five examples and their five starts), a ``fracas serve`` of
it in its own process, and the game master's socket (raw frames, as a page sends them),
asking for the bar. At each of the first ``--records`` states, timed from the moment
the state stands:

- the bar: the seconds until its first figure, and until a figure that is exact (or
  solved in floating point) or an estimate whose every side's 95% interval is within
  ±5 points (at most ``--cap`` seconds);
- the advisor: "advise", and the seconds until its list (the first answer with that
  id).

Then the advisor's first choice is acted, step by step, and the next state is timed.
Wall seconds on this machine: say how busy it was beside the figures.

``--before``: each file is also served by the code of commit REF (taken out with ``git
archive``, or a checkout given as a path), the two trees in turn (``--rounds`` times,
the first tree alternating), and a last table sums each tree's seconds until the goal
(a bar not there within ``--cap`` counted as the cap) and counts its records within
1 s. The dice of an action are the server's, so the two trees may walk the fight
along other records.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.trees import before_tree
from tests.web.multiprocess import Page, Server

ROOT = Path(__file__).resolve().parents[1]
FILES = [
    *sorted((ROOT / "examples").glob("*.yaml")),
    *sorted((ROOT / "examples" / "start").glob("*.yaml")),
]
WITHIN = 0.05
"""The goal's half-width of an estimate's 95% interval (±5 points)."""


def _good(bar: dict[str, Any]) -> str | None:
    """How the bar meets the goal (``exact``, ``float``, or the estimate's widest
    half-interval in points), or None."""
    if bar["method"] in ("exact", "float"):
        return str(bar["method"])
    if bar["method"] == "estimate":
        half = max((s["ci95"][1] - s["ci95"][0]) / 2 for s in bar["sides"].values())
        if half <= WITHIN:
            return f"±{100 * half:.1f}"
    return None


def _bar(page: Page, seq: int, cap: float) -> tuple[float | None, tuple[float, str] | None]:
    """The seconds until the bar of record ``seq`` has a figure, and until it meets
    the goal (with how), within ``cap``."""
    started = time.perf_counter()
    first: float | None = None
    while (left := cap - (time.perf_counter() - started)) > 0:
        try:
            message = page.until("winbar", timeout=left)
        except TimeoutError:
            break
        bar = message.get("bar")
        if message["seq"] != seq or bar is None:
            continue
        took = time.perf_counter() - started
        if first is None and bar["method"] != "working":
            first = took
        how = _good(bar)
        if how is not None:
            return first, (took, how)
    return first, None


def _advice(page: Page, ident: int) -> tuple[float, list[dict[str, Any]]]:
    """The seconds until the advisor's list, and its first choice's steps."""
    started = time.perf_counter()
    page.send({"type": "advise", "id": ident, "seq": page.seq})
    while True:
        message = page.until("advice", "refused", timeout=60)
        if message.get("id") == ident:
            break
    took = time.perf_counter() - started
    if message["type"] != "advice" or not message["advice"]["choices"]:
        return took, []
    steps: list[dict[str, Any]] = message["advice"]["choices"][0]["steps"]
    return took, steps


@dataclass
class Run:
    """One tree's figures of one file."""

    lines: list[str] = field(default_factory=list)
    goal: float = 0.0
    """The seconds until the goal, summed over the records (the cap where missed)."""
    within: int = 0
    """Records whose bar met the goal within 1 s."""
    records: int = 0


def one(path: Path, records: int, cap: float, root: Path = ROOT) -> Run:
    """The figures of one file served by the tree ``root``, a line per record."""
    run = Run()
    out = run.lines
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(str(Path(tmp) / "s.sqlite3"), str(path), Path(tmp), root=root)
        try:
            gm = Page(server, server.tokens["gm"])
            gm.send({"type": "hello", "seq": gm.seq, "winbar": True})
            for i in range(records):
                first, met = _bar(gm, gm.seq, cap)
                listed, steps = _advice(gm, i)
                shown = "-" if first is None else f"{first:.2f}"
                goal = f"not within {cap:g} s" if met is None else f"{met[0]:.2f} ({met[1]})"
                run.records += 1
                run.goal += cap if met is None else met[0]
                run.within += met is not None and met[0] <= 1.0
                out.append(
                    f"  record {gm.seq - 1}: bar figure {shown} s, goal {goal}; "
                    f"advice list {listed:.2f} s"
                )
                for step in steps:
                    gm.send({"type": "act", "id": 1000 + i, "seq": gm.seq, "action": step})
                    done = gm.until("done", "refused", timeout=60)
                    if done["type"] != "done":
                        return run
                    gm.until_seq(done["seq"])
                if not steps:
                    break
            gm.close()
        finally:
            server.stop()
    return run


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("files", nargs="*", type=Path, help="encounter files (default: all)")
    parser.add_argument("--records", type=int, default=4, help="states timed per file")
    parser.add_argument("--cap", type=float, default=15.0, help="seconds a bar is waited for")
    parser.add_argument("--before", help="a commit (or a checkout) to time beside this tree")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each tree per file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"this tree": ROOT}
        if args.before:
            trees = {f"before ({args.before})": before_tree(args.before, Path(tmp)), **trees}
        sums = {name: Run() for name in trees}
        for path in args.files or FILES:
            print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path, flush=True)
            for r in range(args.rounds):
                names = list(trees)
                for name in names[r % len(names) :] + names[: r % len(names)]:
                    run = one(path.resolve(), args.records, args.cap, trees[name])
                    if len(trees) > 1:
                        print(f"  {name}, round {r + 1}: {run.goal:.2f} s in all", flush=True)
                    for line in run.lines:
                        print(("  " if len(trees) > 1 else "") + line, flush=True)
                    total = sums[name]
                    total.goal += run.goal
                    total.within += run.within
                    total.records += run.records
        if len(trees) > 1:
            print(f"\nseconds until the goal, summed (a miss counted as {args.cap:g} s):")
            for name, total in sums.items():
                print(
                    f"  {name:<24} {total.goal:8.2f} s over {total.records} records;"
                    f" {total.within} within 1 s"
                )


if __name__ == "__main__":
    main()
