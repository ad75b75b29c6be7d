"""Benchmark: exact odds against icepool, and ``fracas run`` throughput.

Run by hand from the repository root (it is not a test; about a minute and a half)::

    .venv/bin/python bench/bench_odds.py [--repeat N] [--actions N] [--before REF|PATH]

(o) Exact odds before and after, side by side: every case is timed in a fresh
    subprocess against this tree and against the code of commit 85b2e11, before the
    table-service rework (taken out with ``git archive`` into a temporary folder, or a
    checkout given as ``--before``),
    and the two odds must be equal (asserted). Cases: the last action of each
    ``examples/NAME.yaml`` (one per ruleset), the icepool pistol duel of (a), a
    dice-combat Molotov thrown at three victims and a wasteland 3-shot burst with its
    three hit locations given (``location:1..3``). CPU time is the figure compared
    (the machine may be shared); wall time is shown beside it.
(a) The exact damage distribution of a dice-combat pistol attack at close range
    with crits and fumbles (attacker natural 20: +1d4 on a hit; defender natural 1:
    a hit and +1d4; the ammo d3 rolled), computed by our engine (``action_odds``)
    and by icepool from its own dice. The two must be equal (asserted); the script
    prints the median time of each and the ratio.
(b) Throughput of playing a generated 1,000-action encounter: loading, playing it
    with the Engine in-process, and ``fracas run FILE`` end to end in a subprocess.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar

import icepool
import yaml

from fracas.engine import Engine
from fracas.errors import FracasError
from fracas.files import EncounterFile, load, parse_text
from fracas.model import Action
from fracas.odds import action_odds

T = TypeVar("T")

PISTOL_DUEL = """\
ruleset: dice-combat
options: {revision: B}
combatants:
  - {id: ana, at: [0, 0], hand: pistol}
  - {id: bo, at: [3, 0]}
actions:
  - {actor: ana, do: attack, target: bo}
"""
PISTOL_CLOSE = 1  # DC-13, revision B: a pistol at 1-5 tiles gets +1
PISTOL_DAMAGE = 3  # 1.5


def timed(fn: Callable[[], T], repeat: int) -> tuple[T, float]:
    """The result of ``fn`` and the median of ``repeat`` wall times, in seconds."""
    times: list[float] = []
    result: T | None = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    assert result is not None
    return result, statistics.median(times)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:9.2f} ms"


# --- (o) exact odds, before and after ----------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]
BEFORE = "85b2e11"
"""The commit the "before" figures are taken from (exact odds as they were)."""
RULESETS = ("dice-combat", "tier-duel", "escalation", "soak", "wasteland")

MOLOTOV: dict[str, Any] = {  # (a) of the issue: one throw, three in the blast, 269,917 paths
    "ruleset": "dice-combat",
    "round": 2,
    "seed": 1,
    "combatants": [
        {"id": "ana", "at": [0, 0], "hand": "molotov"},
        {"id": "bo", "at": [3, 0]},
        {"id": "cy", "at": [3, 1]},
        {"id": "dee", "at": [4, 0]},
    ],
    "actions": [{"actor": "ana", "do": "throw", "target": "bo"}],
}
BURST: dict[str, Any] = {  # (b) of the issue: a 3-shot 1d6 burst, locations given, 335,200 paths
    "ruleset": "wasteland",
    "seed": 1,
    "order": ["a", "b"],
    "combatants": [
        {
            "id": "a",
            "at": [0, 0],
            "skills": {"guns": 2},
            "weapons": [{"name": "smg", "damage": "1d6", "ap": 3, "burst": 3}],
        },
        {"id": "b", "at": [3, 0]},
    ],
    "actions": [
        {
            "actor": "a",
            "do": "attack",
            "target": "b",
            "burst": True,
            "dice": {"location:1": 5, "location:2": 3, "location:3": 1},
        }
    ],
}


def _example(name: str) -> Callable[[], EncounterFile]:
    return lambda: load(str(ROOT / "examples" / f"{name}.yaml"))


CASES: dict[str, Callable[[], EncounterFile]] = {
    **{f"{name} example": _example(name) for name in RULESETS},
    "pistol duel (icepool)": lambda: parse_text(PISTOL_DUEL, "pistol-duel.yaml"),
    "(a) Molotov, 3 victims": lambda: parse_text(json.dumps(MOLOTOV), "molotov.json"),
    "(b) burst, 3 locations": lambda: parse_text(json.dumps(BURST), "burst.json"),
}
BIG = ("(a) Molotov, 3 victims", "(b) burst, 3 locations")
"""Cases timed once (tens of seconds before); the others take the median of --repeat."""


def measure(case: str, repeat: int) -> dict[str, Any]:
    """Run in a subprocess whose PYTHONPATH picks the tree: one case's odds, timed."""
    ef = CASES[case]()
    engine = Engine(ef.ruleset, ef.start, ef.seed if ef.seed is not None else 1)
    engine.begin(ef.dice, ef.order)
    for action in ef.actions[:-1]:
        engine.act(action)
    unbounded: dict[str, Any] = (
        {"seconds": None} if "seconds" in inspect.signature(action_odds).parameters else {}
    )
    walls: list[float] = []
    cpus: list[float] = []
    odds = None
    for _ in range(1 if case in BIG else repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        odds = action_odds(ef.ruleset, engine.state, ef.actions[-1], seed=engine.seed, **unbounded)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    assert odds is not None
    text = json.dumps(odds.to_json(), sort_keys=True)
    return {
        "paths": odds.paths,
        "wall": statistics.median(walls),
        "cpu": statistics.median(cpus),
        "digest": hashlib.sha256(text.encode()).hexdigest()[:16],
    }


def in_tree(tree: Path, case: str, repeat: int) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    args = [sys.executable, str(Path(__file__).resolve()), "--measure", case]
    done = subprocess.run(
        [*args, "--repeat", str(repeat)], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def before_tree(ref: str, into: Path) -> Path:
    """``ref`` as a folder: an existing checkout, or the commit taken out with git archive."""
    if Path(ref).is_dir():
        return Path(ref)
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", ref, "fracas"], capture_output=True, check=True
    )
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


def bench_before_after(ref: str, repeat: int) -> None:
    _, t_icepool = timed(icepool_odds, repeat)
    print(f"(o) exact odds: before ({ref}) and after (this tree), CPU s [wall s]")
    print(f"    {'case':<24}{'paths':>9}  {'before':>16}  {'after':>16}  {'speed-up':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        old = before_tree(ref, Path(tmp))
        for case in CASES:
            was = in_tree(old, case, repeat)
            now = in_tree(ROOT, case, repeat)
            assert (was["paths"], was["digest"]) == (now["paths"], now["digest"]), (case, was, now)
            print(
                f"    {case:<24}{now['paths']:>9,}  "
                f"{was['cpu']:>7.3f} [{was['wall']:>6.3f}]  "
                f"{now['cpu']:>7.3f} [{now['wall']:>6.3f}]  "
                f"{was['cpu'] / now['cpu']:>7.2f}x"
            )
            if case.startswith("pistol"):
                print(f"    {'  icepool, same odds':<24}{'':>9}  {'':>16}  {t_icepool:>7.3f}")
    print(
        f"    odds equal before and after, exactly; examples and the pistol: median of "
        f"{repeat} runs, (a) and (b): one run"
    )


# --- (a) exact odds ---------------------------------------------------------------------


def engine_odds(ef: EncounterFile, shortcut: bool) -> dict[int, Fraction]:
    engine = Engine(ef.ruleset, ef.start, 1)
    engine.begin(ef.dice, ef.order)
    odds = action_odds(ef.ruleset, engine.state, ef.actions[0], shortcut=shortcut)
    return dict(odds.combatants["bo"].damage)


def icepool_odds() -> dict[int, Fraction]:
    """The same attack from icepool dice: attack d20, ammo d3, defence d20, crit d4s."""

    def damage(attack: int, ammo: int, defence: int) -> Any:
        # DC-38: a natural 1 misses (the ammo is spent all the same and changes nothing).
        if attack == 1:
            return 0
        # DC-39: the defender's natural 1 hits whatever the totals; DC-43: ties hit.
        if defence != 1 and attack + PISTOL_CLOSE < defence:
            return 0
        crit = icepool.d4 if attack == 20 else 0  # DC-37
        fumble = icepool.d4 if defence == 1 else 0  # DC-39, stacking (DC-40)
        return PISTOL_DAMAGE + crit + fumble

    die = icepool.map(damage, icepool.d20, icepool.d3, icepool.d20)
    den = die.denominator()
    return {int(d): Fraction(q, den) for d, q in die.items() if q}


def bench_odds(repeat: int) -> None:
    ef = parse_text(PISTOL_DUEL, "pistol-duel.yaml")
    ours, t_ours = timed(lambda: engine_odds(ef, shortcut=True), repeat)
    full, t_full = timed(lambda: engine_odds(ef, shortcut=False), repeat)
    theirs, t_theirs = timed(icepool_odds, repeat)
    assert ours == full == theirs, (ours, full, theirs)
    print("(a) exact damage of a pistol attack at close range, crits and fumbles")
    print(f"    {'damage':>6}  {'fracas':>12}  {'icepool':>12}")
    for d in sorted(theirs):
        print(f"    {d:>6}  {ours[d]!s:>12}  {theirs[d]!s:>12}")
    total_ours, total_theirs = str(sum(ours.values())), str(sum(theirs.values()))
    print(f"    sum     {total_ours:>12}  {total_theirs:>12}")
    print("    equal: fracas == icepool, exactly")
    print(f"    fracas action_odds (ammo d3 skipped) {ms(t_ours)}")
    print(f"    fracas action_odds (ammo d3 branched) {ms(t_full)}")
    print(f"    icepool                              {ms(t_theirs)}")
    print(
        f"    ratio fracas / icepool: {t_ours / t_theirs:.1f}x (skipped), "
        f"{t_full / t_theirs:.1f}x (branched)   [median of {repeat} runs]"
    )


# --- (b) throughput ---------------------------------------------------------------------

SKIRMISH: dict[str, Any] = {
    "ruleset": "dice-combat",
    "options": {"revision": "B"},
    "seed": 2026,
    "round": 2,
    "order": ["ana", "bo", "cy", "dee"],
    "combatants": [
        # A 2x2 block: everyone is 1 tile from everyone (melee reach, close range).
        {"id": "ana", "at": [0, 0], "max_hp": 100000, "hand": "pistol", "inventory": ["knife"]},
        {"id": "bo", "at": [1, 0], "max_hp": 100000, "hand": "greataxe"},
        {"id": "cy", "at": [0, 1], "max_hp": 100000, "hand": "smg", "traits": ["rifleman"]},
        {
            "id": "dee",
            "at": [1, 1],
            "max_hp": 100000,
            "hand": "club",
            "traits": ["strong_arm"],
            "inventory": ["sword"],
        },
    ],
}


def skirmish_yaml(count: int) -> str:
    """``count`` actions that are all legal when played with the file's seed.

    Each turn: reload a gun running low (free), attack or throw at someone, end the
    turn. Every action is tried on an Engine with the same seed and kept only if it is
    legal; a refused action consumes no die, so ``fracas run`` replays the same game.
    """
    base = parse_text(yaml.safe_dump(SKIRMISH), "skirmish.yaml")
    engine = Engine(base.ruleset, base.start, base.seed)
    engine.begin(base.dice, base.order)
    pick = random.Random(7)
    kept: list[dict[str, Any]] = []

    def attempt(raw: dict[str, Any]) -> bool:
        params = {k: v for k, v in raw.items() if k not in ("actor", "do", "target")}
        action = Action(raw["actor"], raw["do"], raw.get("target"), params=params)
        try:
            engine.act(action)
        except FracasError:
            return False
        kept.append(raw)
        return True

    while len(kept) < count:
        actor = engine.state.turn.actor
        me = engine.state.get(actor)
        hand = me.sheet.hand
        others = [c for c in engine.state.order if c != actor]
        if hand is not None and hand.type == "gun" and (hand.loaded or 0) < 3:
            attempt({"actor": actor, "do": "reload"})
        roll = pick.random()
        if len(kept) < count and roll < 0.05 and me.sheet.inventory:
            attempt({"actor": actor, "do": "equip", "item": me.sheet.inventory[0].name})
        elif len(kept) < count:
            do = "throw" if actor == "dee" and roll < 0.4 else "attack"
            edge = {"edge": "advantage"} if roll > 0.9 else {}
            attempt({"actor": actor, "do": do, "target": pick.choice(others), **edge})
        if len(kept) < count:
            attempt({"actor": actor, "do": "end_turn"})
    doc = {**SKIRMISH, "actions": kept}
    return yaml.safe_dump(doc, sort_keys=False, default_flow_style=None)


def play(ef: EncounterFile) -> Engine:
    engine = Engine(ef.ruleset, ef.start, ef.seed)
    engine.begin(ef.dice, ef.order)
    for action in ef.actions:
        engine.act(action)
    return engine


def fracas_command() -> list[str]:
    script = Path(sys.executable).with_name("fracas")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from fracas.cli import main; main()"]


def bench_run(count: int, repeat: int) -> None:
    text, t_gen = timed(lambda: skirmish_yaml(count), 1)
    ef, t_load = timed(lambda: parse_text(text, "skirmish.yaml"), repeat)
    assert len(ef.actions) == count
    engine, t_play = timed(lambda: play(ef), repeat)
    assert len(engine.log) == count + 1
    kinds: dict[str, int] = {}
    for a in ef.actions:
        kinds[a.do] = kinds.get(a.do, 0) + 1
    print(
        f"(b) `fracas run` throughput: {count:,} actions, 4 combatants ({t_gen:.2f} s to generate)"
    )
    print("    actions: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
    print(f"    load (parse + validate)  {ms(t_load)}")
    print(f"    play (Engine.act)        {ms(t_play)}  {count / t_play:10,.0f} actions/s")
    print(
        f"    load + play              {ms(t_load + t_play)}  "
        f"{count / (t_load + t_play):10,.0f} actions/s"
    )
    command = fracas_command()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "skirmish.yaml"
        path.write_text(text, encoding="utf-8")

        def run(*args: str) -> subprocess.CompletedProcess[str]:
            done = subprocess.run([*command, *args], capture_output=True, text=True, check=False)
            assert done.returncode == 0, done.stderr
            return done

        _, t_start = timed(lambda: run("--version"), repeat)
        out, t_run = timed(lambda: run("run", str(path)), repeat)
        _, t_json = timed(lambda: run("run", "--json", str(path)), repeat)
    assert f"#{count} " in out.stdout
    print(f"    `fracas --version` (start-up only)   {ms(t_start)}")
    print(f"    `fracas run FILE` end to end         {ms(t_run)}  {count / t_run:10,.0f} actions/s")
    print(
        f"    `fracas run --json FILE` end to end  {ms(t_json)}  {count / t_json:10,.0f} actions/s"
    )
    print(
        f"    `fracas run` less start-up           {ms(t_run - t_start)}  "
        f"{count / max(t_run - t_start, 1e-9):10,.0f} actions/s   [median of {repeat} runs]"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=7, help="runs per timing (median)")
    parser.add_argument("--actions", type=int, default=1000, help="actions in the encounter")
    parser.add_argument(
        "--before", default=BEFORE, help="the 'before' code: a commit, or a checkout's folder"
    )
    parser.add_argument("--measure", choices=sorted(CASES), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:  # a subprocess of (o)
        print(json.dumps(measure(args.measure, args.repeat)))
        return
    bench_before_after(args.before, args.repeat)
    print()
    bench_odds(args.repeat)
    print()
    bench_run(args.actions, max(3, args.repeat // 2))


if __name__ == "__main__":
    main()
