"""Issue 36, item 4: rulesets as packages. A ruleset installed as a package registers
itself through the entry-point group ``fracas.rulesets``, and every face plays it with
no launcher: ``fracas rules``, ``run``, ``odds``, ``lab win`` and ``serve`` (its game
master's page and its setup page). An installed ruleset that fails to load (a module
that does not import, an object that is not a ruleset, a name fracas ships in another
spelling) is named with its error, once, on stderr, and every other ruleset still plays;
a shipped ruleset's file imports no plugin at all.

The packages are installed into a fresh virtual environment beside fracas's: made
without pip (a few milliseconds), fracas's own environment added to it by a ``.pth``
file (``site.addsitedir``, so fracas's editable install's finder works there too), and
each package laid out as an installer lays it (the package, and a ``*.dist-info`` with
``METADATA``, ``entry_points.txt`` and ``RECORD``), which ``importlib.metadata`` finds
through the normal search of site-packages. (``pip install`` of a package is tried on
the docs' example: ``tests/docs/test_docs_example.py``.)

The plugin, ``brawl``, derives dice-combat's rules (it cites them: DC-*) with its own
default HP (3): where a file gives no ``max_hp``, what is played is the plugin's.
"""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import sysconfig
import time
import urllib.error
import urllib.request
import venv
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
from click.testing import CliRunner

import fracas.rulesets as registry
from fracas.errors import PluginError
from fracas.main import main
from fracas.rulesets import RULESETS, _load, find_ruleset, registered
from fracas.rulesets.dice_combat import DiceCombat
from fracas.web.serve import free_port
from tests.web.test_serve_command import ready

BASE = sysconfig.get_path("purelib")
"""The site-packages of the environment these tests run in: fracas and its libraries."""

SHIPPED = ["dice-combat", "tier-duel", "escalation", "soak", "wasteland"]

BRAWL = {
    "brawl/__init__.py": '"""A ruleset of its own, installed: dice-combat\'s rules, 3 HP."""\n',
    "brawl/rules.py": (
        "import dataclasses\n"
        "from fracas.rulesets.base import About\n"
        "from fracas.rulesets.dice_combat import DiceCombat\n\n\n"
        "class Brawl(DiceCombat):\n"
        '    """dice-combat\'s rules, short fights: 3 HP where a sheet gives none."""\n\n'
        "    about = About(\n"
        '        name="brawl", title="Brawl", rule_text=DiceCombat.about.rule_text,\n'
        '        summary="dice-combat, 3 HP",\n'
        "    )\n"
        "    contract = dataclasses.replace(DiceCombat.contract, default_max_hp=3)\n"
    ),
}
"""The plugin that loads: ``brawl = "brawl.rules:Brawl"``."""

BROKEN = {
    "broken/__init__.py": (
        "from fracas.rulesets.base import About\n"
        "from fracas.rulesets.dice_combat import DiceCombat\n\n"
        'NOTES = "not a ruleset"\n\n\n'
        "class Copycat(DiceCombat):\n"
        '    about = About(name="Dice_Combat", title="t", rule_text="r", summary="s")\n'
    ),
}
"""A package whose three entry points fail, one way each."""

BROKEN_POINTS = {
    "copycat": "broken:Copycat",  # a name fracas ships, in another spelling
    "ghost": "ghost.rules:Ghost",  # no such module
    "notes": "broken:NOTES",  # not a ruleset class
}

FIGHT = """\
ruleset: brawl
seed: 3
combatants:
  - {id: ana, name: Ana, side: red, at: [0, 0], hand: knife}
  - {id: bo, name: Bo, side: blue, at: [1, 0], hand: club}
actions:
  - {actor: ana, do: attack, target: bo, dice: {attack: 15, defend: 4}}
  - {actor: bo, do: attack, target: ana}
"""
"""Ana's knife hits Bo for 2 (15 against 4), then Bo's club swings at Ana (the last
action: the one ``fracas odds`` answers). No ``max_hp``: brawl's 3."""

WARNINGS = [
    "warning: ruleset plugin left out: plugin_name_clash: entry point "
    "'copycat = broken:Copycat' of fracas-broken 1.0 names ruleset 'Dice_Combat', and "
    "fracas ships 'dice-combat'; valid: a name other than dice-combat, tier-duel, "
    "escalation, soak, wasteland, brawl (in any spelling)",
    "warning: ruleset plugin left out: plugin_import_failed: entry point "
    "'ghost = ghost.rules:Ghost' of fracas-broken 1.0 did not load "
    "(ModuleNotFoundError: No module named 'ghost'); valid: MODULE:CLASS of an "
    "importable module",
    "warning: ruleset plugin left out: plugin_not_a_ruleset: entry point "
    "'notes = broken:NOTES' of fracas-broken 1.0 names 'not a ruleset' (a str), not a "
    "ruleset; valid: a subclass of fracas.rulesets.Ruleset with an `about`",
]
"""What every command that looks past the shipped rulesets says on stderr, once each,
in the entry points' name order."""


def site_packages(env: Path) -> Path:
    """The site-packages of the virtual environment at ``env``."""
    return Path(sysconfig.get_path("purelib", vars={"base": str(env), "platbase": str(env)}))


def fresh_venv(env: Path) -> Path:
    """A new virtual environment at ``env`` that sees fracas's (a ``.pth`` file that adds
    its site-packages, after the new one's own): its python."""
    venv.create(env, with_pip=False, symlinks=True)
    (site_packages(env) / "_fracas_base.pth").write_text(
        f"import site; site.addsitedir({BASE!r})\n"
    )
    return env / "bin" / "python"


def install(env: Path, name: str, files: dict[str, str], points: dict[str, str]) -> None:
    """Install the distribution ``name`` 1.0 into ``env`` as an installer lays a wheel
    out: its ``files``, and a dist-info with its entry points in ``fracas.rulesets``."""
    site = site_packages(env)
    for path, text in files.items():
        (site / path).parent.mkdir(parents=True, exist_ok=True)
        (site / path).write_text(text)
    info = site / f"{name.replace('-', '_')}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    lines = "".join(f"{k} = {v}\n" for k, v in points.items())
    (info / "entry_points.txt").write_text(f"[fracas.rulesets]\n{lines}")
    record = [*files, *(f"{info.name}/{f}" for f in ("METADATA", "entry_points.txt", "RECORD"))]
    (info / "RECORD").write_text("".join(f"{p},,\n" for p in record))


def run_in(python: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``fracas ARGS`` by the environment's python, in ``cwd`` (outside the repository:
    nothing of it on the path but what is installed)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(
        [str(python), "-m", "fracas", *args],
        capture_output=True, text=True, timeout=120, cwd=cwd, env={**env, "COLUMNS": "200"},
    )  # fmt: skip


@dataclass
class Installed:
    python: Path
    home: Path
    """A folder outside the repository, holding the fight's file."""
    fight: Path


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """One fresh environment with ``fracas-brawl`` and ``fracas-broken`` installed."""
    home = tmp_path_factory.mktemp("plugins")
    python = fresh_venv(home / "env")
    install(home / "env", "fracas-brawl", BRAWL, {"brawl": "brawl.rules:Brawl"})
    install(home / "env", "fracas-broken", BROKEN, BROKEN_POINTS)
    fight = home / "fight.yaml"
    fight.write_text(FIGHT)
    return Installed(python, home, fight)


def _warned(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("warning: ruleset plugin")]


# --- fracas rules --------------------------------------------------------------------


def test_rules_lists_the_installed_ruleset_and_names_each_broken_one(installed: Installed) -> None:
    """Issue 36: the installed ruleset after the shipped ones; each broken one named with
    its code and message on stderr (once), and listed as broken in the table."""
    listed = run_in(installed.python, "rules", "--json", cwd=installed.home)
    assert listed.returncode == 0, listed.stderr
    assert [r["name"] for r in json.loads(listed.stdout)] == [*SHIPPED, "brawl"]
    assert _warned(listed.stderr) == WARNINGS
    table = run_in(installed.python, "rules", cwd=installed.home)
    rows = [line.split("│")[1:3] for line in table.stdout.splitlines() if "│" in line]
    named = {name.strip(): seed.strip() for name, seed in rows if name.strip()}
    assert named["brawl"] == "000_342b9ddb13dd48fb.txt"  # dice-combat's seed, its rules
    assert [named[n] for n in BROKEN_POINTS] == ["broken"] * 3
    assert "plugin_import_failed: entry point 'ghost = ghost.rules:Ghost'" in table.stdout


# --- fracas run, odds, lab win ------------------------------------------------------


def test_run_odds_and_lab_win_play_the_installed_ruleset(installed: Installed) -> None:
    """The plugin's own contract plays (3 HP, no ``max_hp`` in the file), under
    dice-combat's rules (DC-1, opposed d20: 15 against 4 hits; a knife deals 2); its odds
    and its win chances are the shipped dice-combat's on the same fight at 3 HP."""
    ran = run_in(installed.python, "run", str(installed.fight), "--json", cwd=installed.home)
    assert ran.returncode == 0, ran.stderr
    played = json.loads(ran.stdout)
    assert played["ruleset"] == "brawl"
    assert {c: v["hp"] for c, v in played["combatants"].items()} == {"ana": 3, "bo": 1}
    assert _warned(ran.stderr) == WARNINGS

    odds = run_in(installed.python, "odds", str(installed.fight), "--json", cwd=installed.home)
    assert odds.returncode == 0, odds.stderr
    ana = json.loads(odds.stdout)["exact"]["combatants"]["ana"]
    assert (Fraction(ana["hit"]), Fraction(ana["down"])) == (Fraction(209, 400), Fraction(19, 200))

    won = run_in(installed.python, "lab", "win", str(installed.fight), "--json", cwd=installed.home)
    assert won.returncode == 0, won.stderr
    lab = json.loads(won.stdout)
    assert lab["method"] == "exact"
    assert Fraction(lab["sides"]["red"]["exact"]) == Fraction(1096000, 1280697)
    assert Fraction(lab["sides"]["blue"]["exact"]) == Fraction(184697, 1280697)

    # the oracle: the shipped ruleset it derives, in this process, with brawl's 3 HP
    shipped = installed.home / "shipped.yaml"
    shipped.write_text(
        FIGHT.replace("ruleset: brawl", "ruleset: dice-combat").replace("hand:", "max_hp: 3, hand:")
    )
    same = CliRunner().invoke(main, ["odds", str(shipped), "--json"], catch_exceptions=False)
    assert json.loads(same.output)["exact"]["combatants"]["ana"] == ana
    same = CliRunner().invoke(main, ["lab", "win", str(shipped), "--json"])
    assert json.loads(same.output)["sides"]["red"]["exact"] == lab["sides"]["red"]["exact"]


def test_a_broken_rulesets_file_is_refused_with_its_error_and_a_shipped_one_looks_no_further(
    installed: Installed,
) -> None:
    """A file naming the broken plugin ends with its error (at the file's ``ruleset:``
    line), not ``unknown_ruleset``; a shipped ruleset's file finds its ruleset alone, and
    no plugin is looked for (not one warning: ``fracas odds FILE`` imports nothing it
    does not need, issue 34)."""
    ghost = installed.home / "ghost.yaml"
    ghost.write_text(FIGHT.replace("ruleset: brawl", "ruleset: ghost"))
    refused = run_in(installed.python, "run", str(ghost), cwd=installed.home)
    assert refused.returncode == 1
    error = WARNINGS[1].removeprefix("warning: ruleset plugin left out: ")
    assert refused.stderr.splitlines()[-1] == f"error: {ghost}:1: ruleset: {error}"
    shipped = installed.home / "dc.yaml"
    shipped.write_text(FIGHT.replace("ruleset: brawl", "ruleset: dice-combat"))
    odds = run_in(installed.python, "odds", str(shipped), "--json", cwd=installed.home)
    assert odds.returncode == 0 and odds.stderr == ""
    assert json.loads(odds.stdout)["exact"]["combatants"]["ana"]["hit"] == "209/400"


# --- fracas serve --------------------------------------------------------------------


def _get(url: str, token: str | None = None) -> tuple[int, str]:
    request = urllib.request.Request(url)
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def _running_in_group(group: int) -> list[int]:
    """The processes of a process group still running (an ended one its new parent has
    not reaped yet is a zombie: ended, not left behind)."""
    running = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended as it was read
        if int(fields[2]) == group and fields[0] != "Z":
            running.append(int(stat.parent.name))
    return running


@pytest.fixture
def served(installed: Installed) -> Iterator[tuple[list[str], subprocess.Popen[str]]]:
    """``fracas serve FIGHT`` in a session of its own until it prints its links; stopped
    after (Ctrl-C), and every process of its group gone."""
    port = free_port("127.0.0.1")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.Popen(
        [str(installed.python), "-m", "fracas", "serve", str(installed.fight),
         "--db", str(installed.home / "s.sqlite3"), "--port", str(port)],
        cwd=installed.home, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**env, "PYTHONUNBUFFERED": "1"}, start_new_session=True,
    )  # fmt: skip
    try:
        yield ready(proc), proc
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        deadline = time.monotonic() + 10
        while left := _running_in_group(proc.pid):  # its worker and tracker end with it
            if time.monotonic() > deadline:
                for pid in left:
                    os.kill(pid, signal.SIGKILL)
                raise AssertionError(f"fracas serve left processes behind: {left}")
            time.sleep(0.05)
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


def test_serve_plays_the_installed_ruleset_and_its_setup_page_offers_it(
    served: tuple[list[str], subprocess.Popen[str]],
) -> None:
    """The game master's page of a brawl encounter, and the setup page's rulesets: the
    installed one among them, the broken ones not (the page omits them; the server's
    stderr names them, once, as it starts)."""
    lines, proc = served
    assert lines[0].startswith("new encounter 'fight' (brawl, "), lines
    gm = next(line for line in lines if line.strip().startswith("game master:"))
    gm = gm.split(": ", 1)[1].strip()
    status, page = _get(gm)
    assert status == 200 and "<html" in page.lower()
    setup = next(line for line in lines if line.strip().startswith("setup (yours only):"))
    base, token = setup.split(": ", 1)[1].strip().split("/setup/")
    status, body = _get(f"{base}/api/setup/rulesets", token)
    assert status == 200
    assert [form["name"] for form in json.loads(body)] == [*SHIPPED, "brawl"]
    status, body = _get(f"{base}/api/setup/encounters", token)
    assert [(e["name"], e["ruleset"]) for e in json.loads(body)] == [("fight", "brawl")]
    proc.send_signal(signal.SIGINT)
    proc.wait(20)
    assert proc.stderr is not None
    assert _warned(proc.stderr.read()) == WARNINGS


# --- the registry's checks, in this process ------------------------------------------


def test_the_same_ruleset_name_from_a_second_entry_point_is_a_clash_and_the_first_plays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two installed rulesets of one name (in two spellings): the first by entry point
    name plays, the second is named as the clash; the same class twice is one ruleset."""
    (tmp_path / "brawl").mkdir()
    for path, text in BRAWL.items():
        (tmp_path / path).write_text(text)
    (tmp_path / "brawl2.py").write_text(
        "import dataclasses\nfrom brawl.rules import Brawl\n\n\nclass Again(Brawl):\n"
        "    about = dataclasses.replace(Brawl.about, name='BRAWL')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    group = "fracas.rulesets"
    points = [
        EntryPoint("a", "brawl.rules:Brawl", group),
        EntryPoint("b", "brawl.rules:Brawl", group),
        EntryPoint("c", "brawl2:Again", group),
    ]
    try:
        found, broken = _load(points, RULESETS)
    finally:  # imported here, forgotten after
        for module in ("brawl", "brawl.rules", "brawl2"):
            sys.modules.pop(module, None)
    assert [r.about.name for r in found] == ["brawl"]
    assert [(e.code, e.plugin) for e in broken] == [("plugin_name_clash", "c")]
    assert isinstance(broken[0], PluginError)
    assert "names ruleset 'BRAWL', and entry point 'a' gives 'brawl'" in broken[0].message


def test_a_ruleset_added_for_a_block_hides_an_installed_one_of_its_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``registered(...)`` (a ruleset still being built) wins over an installed ruleset of
    the same name for its block; after it, the installed one plays again."""
    about = dataclasses.replace(DiceCombat.about, name="brawl")
    installed = type("Installed", (DiceCombat,), {"about": about})
    local = type("Local", (DiceCombat,), {"about": about})
    monkeypatch.setattr(registry, "_plugins", (installed,))
    assert find_ruleset("brawl") is installed
    with registered(local):
        assert find_ruleset("BRAWL") is local
        assert [r for r in registry.rulesets() if r.about.name == "brawl"] == [local]
    assert find_ruleset("brawl") is installed
