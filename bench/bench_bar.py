"""Benchmark: the win bar and the advisor on a real ``fracas serve``, after each record
(issue 34's goals: "after each action on each example, an exact figure or an interval
within ±5 points within 1 s; the advisor's list within 1 s"). By hand from the
repository root (it is not a test; a few minutes)::

    .venv/bin/python -m bench.bench_bar [--records 4] [--cap 15] [FILE ...]

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
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

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


def one(path: Path, records: int, cap: float) -> list[str]:
    """The figures of one file, a line per record."""
    out: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(str(Path(tmp) / "s.sqlite3"), str(path), Path(tmp))
        try:
            gm = Page(server, server.tokens["gm"])
            gm.send({"type": "hello", "seq": gm.seq, "winbar": True})
            for i in range(records):
                first, met = _bar(gm, gm.seq, cap)
                listed, steps = _advice(gm, i)
                shown = "-" if first is None else f"{first:.2f}"
                goal = f"not within {cap:g} s" if met is None else f"{met[0]:.2f} ({met[1]})"
                out.append(
                    f"  record {gm.seq - 1}: bar figure {shown} s, goal {goal}; "
                    f"advice list {listed:.2f} s"
                )
                for step in steps:
                    gm.send({"type": "act", "id": 1000 + i, "seq": gm.seq, "action": step})
                    done = gm.until("done", "refused", timeout=60)
                    if done["type"] != "done":
                        return out
                    gm.until_seq(done["seq"])
                if not steps:
                    break
            gm.close()
        finally:
            server.stop()
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("files", nargs="*", type=Path, help="encounter files (default: all)")
    parser.add_argument("--records", type=int, default=4, help="states timed per file")
    parser.add_argument("--cap", type=float, default=15.0, help="seconds a bar is waited for")
    args = parser.parse_args()
    for path in args.files or FILES:
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path, flush=True)
        for line in one(path.resolve(), args.records, args.cap):
            print(line, flush=True)


if __name__ == "__main__":
    main()
