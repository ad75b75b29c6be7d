"""Benchmark: the command line's start (issue 34, item 5: ``fracas --help`` under 150 ms,
the lab, scipy and the web stack imported only by the commands that use them).

Run by hand from the repository root (it is not a test; about a minute)::

    PYTHONPATH=. .venv/bin/python bench/bench_startup.py [--before REF|PATH] [--runs N]

Every command below runs ``--runs`` times (default 10) as ``python -m fracas ARGS`` in a
fresh process per tree, the two trees taken in turn (before, after, before, ...: the
machine is shared): the best and the median wall time, and the median CPU time of the
process (user and system). Then, once per tree, every module the command imported
(``sys.modules`` as it exits): how many, how many of fracas, and which of the heavy
ones (:data:`HEAVY`). The "before" tree is a commit taken out with ``git archive``
(:func:`bench.trees.before_tree`, default ``HEAD``: the last commit against the edits
of the work tree), or a checkout's folder; "after" is the fracas ``PYTHONPATH`` picks.
The load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))  # bench.trees; fracas is whichever PYTHONPATH picks first

from bench.trees import before_tree  # noqa: E402

BEFORE = "HEAD"
TARGET = 0.150
"""The issue's target for ``fracas --help``, seconds of wall time."""
COMMANDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("fracas --help", ("--help",)),
    ("fracas --version", ("--version",)),
    ("fracas odds --help", ("odds", "--help")),
    ("fracas rules", ("rules",)),
    ("fracas odds examples/dice-combat.yaml", ("odds", "{examples}/dice-combat.yaml")),
    ("fracas run examples/dice-combat.yaml", ("run", "{examples}/dice-combat.yaml")),
)
"""(name, arguments): ``{examples}`` is the tree's own ``examples`` folder."""
HEAVY = (
    "scipy",
    "numpy",
    "matplotlib",
    "starlette",
    "uvicorn",
    "websockets",
    "psycopg",
    "icepool",
    "hypothesis",
    "segno",
    "distributed",
    "pydantic",
    "yaml",
    "rich",
    "multiprocessing",
    "concurrent.futures",
    "fracas.lab",
    "fracas.web",
    "fracas.play",
    "fracas.table",
    "fracas.rulesets",
)
"""The packages reported when a command imports them (a prefix of a module's name)."""
PROBE = (
    "import atexit, sys\n"
    "atexit.register(lambda: print('MODULES', *sorted(sys.modules), file=sys.stderr))\n"
    "import runpy\n"
    "runpy.run_module('fracas', run_name='__main__', alter_sys=True)\n"
)
"""``python -m fracas ARGS`` that lists every module it holds as it exits."""


def _args(tree: Path, args: tuple[str, ...]) -> list[str]:
    return [a.format(examples=tree / "examples") for a in args]


def _env(tree: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(tree)}


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def once(tree: Path, args: tuple[str, ...]) -> tuple[float, float]:
    """One fresh ``python -m fracas ARGS`` importing ``tree``'s fracas: (wall, CPU) s."""
    cpu, wall = _cpu(), time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "fracas", *_args(tree, args)],
        env=_env(tree),
        cwd=tree,
        capture_output=True,
        check=False,
    )
    return time.perf_counter() - wall, _cpu() - cpu


def modules(tree: Path, args: tuple[str, ...]) -> set[str]:
    """Every module ``python -m fracas ARGS`` holds as it exits, with ``tree``'s fracas."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *_args(tree, args)],
        env=_env(tree),
        cwd=tree,
        capture_output=True,
        text=True,
        check=False,
    )
    listed = [line for line in done.stderr.splitlines() if line.startswith("MODULES ")]
    assert listed, done.stderr[-2000:]
    return set(listed[-1].split()[1:])


def heavy(names: set[str]) -> list[str]:
    """The :data:`HEAVY` packages among ``names``."""
    return [h for h in HEAVY if any(n == h or n.startswith(h + ".") for n in names)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--before", default=BEFORE, help="the 'before' code: a commit, or a checkout's folder"
    )
    parser.add_argument("--runs", type=int, default=10, help="fresh processes per command")
    args = parser.parse_args()
    import fracas

    new = Path(fracas.__file__ or "").resolve().parents[1]
    load = os.getloadavg()
    print(
        f"fracas start-up: before ({args.before}) and after ({new}); {args.runs} fresh processes"
        f" per command and tree, in turn; {time.strftime('%Y-%m-%d %H:%M')}, load average"
        f" {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; {os.cpu_count()} CPUs"
    )
    print(
        f"    {'command':<40}{'before: best':>13}{'median':>8}{'[CPU]':>8}"
        f"{'after: best':>13}{'median':>8}{'[CPU]':>8}  ms"
    )
    with tempfile.TemporaryDirectory() as tmp:
        old = before_tree(args.before, Path(tmp))
        trees = {"before": old, "after": new}
        listed: dict[tuple[str, str], set[str]] = {}
        for name, command in COMMANDS:
            took: dict[str, list[tuple[float, float]]] = {"before": [], "after": []}
            for _ in range(args.runs):
                for key, tree in trees.items():
                    took[key].append(once(tree, command))
            cells = []
            for key in trees:
                walls = [w for w, _ in took[key]]
                cpus = [c for _, c in took[key]]
                cells.append(
                    f"{min(walls) * 1e3:>13.1f}{statistics.median(walls) * 1e3:>8.1f}"
                    f"[{statistics.median(cpus) * 1e3:>6.1f}]"
                )
                listed[(name, key)] = modules(trees[key], command)
            print(f"    {name:<40}{cells[0]}{cells[1]}")
        best_help = min(once(new, ("--help",))[0] for _ in range(args.runs))
        print(
            f"    `fracas --help` after, best of {args.runs}: {best_help * 1e3:.1f} ms against"
            f" the target {TARGET * 1e3:g} ms: {'met' if best_help <= TARGET else 'NOT met'}"
        )
        print("\n    modules imported (sys.modules as the command exits): all, of fracas; heavy")
        for name, _ in COMMANDS:
            for key in trees:
                names = listed[(name, key)]
                ours = sum(n == "fracas" or n.startswith("fracas.") for n in names)
                print(
                    f"    {name if key == 'before' else '':<40}{key:<7}{len(names):>5}{ours:>5}"
                    f"  {', '.join(heavy(names)) or '-'}"
                )
    load = os.getloadavg()
    print(f"    load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
