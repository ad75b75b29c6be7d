"""Issue 34, item 5: the command line starts with only what the command needs. A fresh
process says which modules a command imported (``sys.modules`` as it exits): ``fracas
--help`` imports no command, no rule system and no library a command alone needs (it
lists every command by its kept first sentence); ``fracas odds FILE`` none of the
balance lab's, the web's or the plotting's libraries. What is asserted is which modules
are imported, never how long it took (``bench/bench_startup.py`` times it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.helpers import cli

ROOT = Path(__file__).resolve().parents[2]

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
    "fracas.web",
    "fracas.play",
)
"""What no command of the command line's own imports to start: the lab's solver and
plots, the web's stack, the PostgreSQL driver, the test tools, the other faces."""
HELP_FREE = (
    *HEAVY,
    "fracas.lab",
    "fracas.table",
    "fracas.engine",
    "fracas.odds",
    "fracas.rulesets",
    "fracas.io",
    "fracas.words",
    "pydantic",
    "yaml",
    "rich",
)
"""What ``fracas --help`` does without, besides: every layer of fracas below the faces,
and the libraries that read files and print."""


PROBE = (
    "import atexit, sys\n"
    "atexit.register(lambda: print('MODULES', *sorted(sys.modules), file=sys.stderr))\n"
    "from fracas.main import main\n"
    "main(prog_name='fracas')\n"
)
"""``fracas ARGS`` in a fresh process that, as it exits, lists every module it holds."""


def _imported(*args: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """A fresh ``fracas ARGS``: its run and every module it imported (``sys.modules`` as
    it exits: ``-X importtime`` leaves out what ``importlib.import_module`` imports)."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, check=False, cwd=ROOT
    )
    listed = [line for line in done.stderr.splitlines() if line.startswith("MODULES ")]
    assert listed, done.stderr[-2000:]
    return done, set(listed[-1].split()[1:])


def _of(names: set[str], prefixes: tuple[str, ...]) -> list[str]:
    return sorted(n for n in names if any(n == p or n.startswith(p + ".") for p in prefixes))


def test_help_imports_only_the_command_line_and_lists_every_command() -> None:
    done, names = _imported("--help")
    assert done.returncode == 0, done.stderr[-2000:]
    assert _of(names, HELP_FREE) == []
    assert _of(names, ("fracas",)) == ["fracas", "fracas.cli", "fracas.main"]
    listed = {line.split()[0] for line in done.stdout.split("Commands:")[1].splitlines() if line}
    assert listed == {
        *("lab", "log", "odds", "party", "play", "roll", "roster", "rules", "run", "serve")
    }


def test_odds_of_a_file_imports_no_heavy_library_and_no_other_face() -> None:
    done, names = _imported("odds", "examples/dice-combat.yaml")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Exact odds" in done.stdout or "%" in done.stdout
    assert _of(names, HEAVY) == []
    assert _of(names, ("fracas.cli",)) == ["fracas.cli", "fracas.cli.cmd_odds", "fracas.cli.common"]
    others = [f"fracas.rulesets.{p}" for p in ("tier_duel", "escalation", "soak", "wasteland")]
    assert "fracas.rulesets.dice_combat" in names and _of(names, tuple(others)) == []


FIND = (
    "from fracas import rulesets\n"
    "alone = [rulesets.find_ruleset(r) for r in sys.argv[1:]]\n"
    "assert not rulesets._shipped  # each found with its own package alone\n"
    "every = rulesets.rulesets()\n"
    "assert len({r.about.name for r in every}) == len(every)\n"
    "assert alone == [next(r for r in every if r.about.name == n) for n in sys.argv[1:]]\n"
    "assert [rulesets.find_ruleset(r) for r in sys.argv[1:]] == alone\n"
)


def test_a_shipped_ruleset_found_by_its_name_alone_is_the_one_every_ruleset_gives() -> None:
    """A file's ruleset is found with its own package imported alone (the others are
    not: ``fracas odds FILE``), and it is the one found among every ruleset."""
    from fracas.rulesets import RULESETS

    names = [r.about.name for r in RULESETS]
    subprocess.run([sys.executable, "-c", f"import sys\n{FIND}", *names], check=True, cwd=ROOT)


def test_odds_of_a_file_imports_no_balance_lab() -> None:
    """The table's questions import the lab where a win bar or advice is asked, not
    with the table (``fracas odds`` asks neither)."""
    _, names = _imported("odds", "examples/dice-combat.yaml")
    assert _of(names, ("fracas.lab",)) == []


SETTLED = (
    "import atexit, gc, sys\n"
    "atexit.register(lambda: print('SETTLED', gc.get_freeze_count(), file=sys.stderr))\n"
    "from fracas.main import main\n"
    "main(prog_name='fracas')\n"
)
"""``fracas ARGS`` in a fresh process that, as it exits, says how many objects were kept
out of the garbage collector's walks."""


def test_issue_34_a_command_settles_what_it_loaded_before_it_works() -> None:
    """Once its command is imported, ``fracas`` keeps what the process has loaded out of
    the garbage collector's walks (``gc.freeze``): the first full collection
    walked them all during a process's first odds (25 of 57 ms of the wasteland frag
    grenade on three). The same odds come out."""
    example = str(ROOT / "examples" / "dice-combat.yaml")
    done = subprocess.run(
        [sys.executable, "-c", SETTLED, "odds", example, "--json"],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    settled = int(done.stderr.split("SETTLED ")[-1].split()[0])
    assert settled > 10_000, done.stderr[-2000:]  # the modules, not a few objects
    assert done.stdout == cli("odds", example, "--json").stdout  # in this process: unsettled
    helped = subprocess.run(
        [sys.executable, "-c", SETTLED, "--help"], capture_output=True, text=True, cwd=ROOT
    )
    assert "SETTLED 0" in helped.stderr  # `fracas --help` runs no command: nothing settled
