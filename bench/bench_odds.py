"""Benchmark: exact odds against icepool, our times against the issue's targets, before
against after, ``fracas run`` throughput (issue 11, item 6) and the command's odds (issue
20, item 9).

Run by hand from the repository root (it is not a test; 3-4 minutes on the shared 2-core
machine, ``--quick`` under 2); ``PYTHONPATH`` picks the fracas timed as "after"; ``--only
N`` (again for more) runs part N alone::

    PYTHONPATH=. .venv/bin/python bench/bench_odds.py [--quick] [--repeat N] [--only N]
        [--before REF|PATH] [--before-command REF|PATH] [--before-first REF|PATH]

(1) Ours against icepool: every case of :mod:`bench.odds_cases` (eight, each an
    encounter and an icepool model written from the rule texts), the damage
    distribution of every combatant asserted equal, exactly; with exploding dice equal
    on every enumerated value, and the cut mass and its least damage equal to icepool's
    own cut bucket (``explode(depth, end=...)`` per die). Median in-process wall times;
    icepool's dice are built afresh in every run (no icepool cache carried over).
(2) Our time, median of several runs, with the issue's target beside it: the last
    action of every ``examples/*.yaml``; every action of each example played in order
    from its start (each action's odds in the state before it); the issue's named
    cases (wasteland single shot, melee, frag, bursts; the Molotov on three; soak's
    longsword with disadvantage; a 50-shot burst under a 1 s budget); the odds of
    every choice of the wasteland example's current actor (before its last action).
(3) Before against after: every case timed in a fresh subprocess against this tree and
    against commit 85b2e11 (taken out with ``git archive``, or a checkout given as
    ``--before``). Cases without a cut on either side must give equal hit, damage and
    down exactly; where either side cut exploding dice, within the sum of the two cut
    masses. CPU time is the figure compared; wall time beside it.
(4) Throughput of playing a generated 1,000-action encounter, in-process and with
    ``fracas run FILE``.
(5) The command's odds (:func:`bench.odds_cases.commands`): ``fracas odds FILE --json``
    less ``fracas run FILE --json`` of the same file, in-process, median of several of
    each in turn; beside the issue's budget (a frag grenade on three victims, 50 ms) or
    icepool (the dice-combat pistol, 3 times faster aimed at). Before (commit d2a2c77,
    or ``--before-command``) against after, each in fresh processes taken in turn, the
    exact odds asserted equal; and the first call of a process (the odds' caches empty).
(6) The first odds of a process (issue 34: every single action within 50 ms the first
    time a process meets it, the dice-combat Molotov on three within 100 ms):
    :func:`action_odds` of one action, the first call of a fresh process after the file
    is read and played up to it (every cache of the odds, the dice and the rules empty),
    then the same call again (warm). The process first does what the tree's own
    processes do once loaded, where they do it (:func:`gc.freeze`: the command line once
    its command is imported, before it reads the file; a server's worker at its start).
    Before (``--before-first``, default ``HEAD``: the
    last commit) against after, fresh processes taken in turn, this script's own
    measurement in both trees; the exact odds asserted equal (within what either tree
    cut at the depth, where one did).
(7) Part (6)'s cases in instructions, counted by valgrind's callgrind
    (:mod:`bench.instructions`): the same before and after, by a measure the machine's
    load does not move. About 7 minutes; only with ``--only 7``.
"""

from __future__ import annotations

import argparse
import gc
import inspect
import json
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
import icepool.math
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))  # bench.odds_cases; fracas is whichever PYTHONPATH picks first

from bench.odds_cases import CASES, Case, commands, named, split  # noqa: E402
from bench.trees import before_tree, in_tree  # noqa: E402
from fracas.engine.play import Engine  # noqa: E402
from fracas.errors import FracasError  # noqa: E402
from fracas.io.files import EncounterFile, load, parse_text  # noqa: E402
from fracas.model import Action  # noqa: E402
from fracas.odds.action import action_odds  # noqa: E402

T = TypeVar("T")
BEFORE = "85b2e11"
"""The commit the "before" figures are taken from (exact odds before issue 11)."""
RULESETS = ("dice-combat", "tier-duel", "escalation", "soak", "wasteland")
EXAMPLE_TARGET = 0.05
"""The issue's target for every action of the examples: exact, at most 50 ms."""
CHOICE_TARGET = 0.25
"""The issue's target for the odds of every choice of the current actor, at once."""
CHOICE_BUDGET = 5.0
"""The time the choices' request may take (its default is the target itself): long
enough that a choice answers exactly where it can, so the time shown is what exact
answers cost."""


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


def timed_cpu(fn: Callable[[], T], repeat: int) -> tuple[T, float, float]:
    """The result of ``fn``, the median wall time and the median CPU time of ``repeat``
    runs, in seconds (the machine is shared: CPU time shows what waiting hid)."""
    walls: list[float] = []
    cpus: list[float] = []
    result: T | None = None
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        result = fn()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    assert result is not None
    return result, statistics.median(walls), statistics.median(cpus)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:9.2f} ms"


def from_doc(doc: dict[str, Any]) -> EncounterFile:
    return parse_text(json.dumps(doc), "case.json")


def before_last(ef: EncounterFile) -> Engine:
    """An engine that has played every action of ``ef`` but the last."""
    engine = Engine(ef.ruleset, ef.start, ef.seed if ef.seed is not None else 1)
    engine.begin(ef.dice, ef.order)
    for action in ef.actions[:-1]:
        engine.act(action)
    return engine


# --- (1) ours against icepool ---------------------------------------------------------------


def clear_icepool_caches() -> None:
    """Empty what icepool keeps between calls outside a die object: its table of binomial
    rows and every multiset evaluator's caches (a model builds its dice afresh)."""
    icepool.math.comb_row_cache.clear()
    for obj in gc.get_objects():
        module = getattr(type(obj), "__module__", None)
        if isinstance(module, str) and module.startswith("icepool"):
            for name in ("_cache", "ascending_cache", "descending_cache"):
                if name in getattr(obj, "__dict__", {}):
                    delattr(obj, name)


def cold(model: Callable[[], T], repeat: int) -> tuple[T, float, float]:
    """``model``'s result, its median wall and CPU times, icepool's caches emptied before
    each run (outside the timed part)."""
    walls: list[float] = []
    cpus: list[float] = []
    result: T | None = None
    for _ in range(repeat):
        clear_icepool_caches()
        wall, cpu = time.perf_counter(), time.process_time()
        result = model()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    assert result is not None
    return result, statistics.median(walls), statistics.median(cpus)


def check_equal(case: Case, odds: Any, model: dict[str, dict[int, Fraction]]) -> None:
    """Every combatant's damage, the cut mass and its least damage, exactly equal."""
    assert set(model) <= set(odds.combatants), (case.name, set(model), set(odds.combatants))
    for cid, dist in model.items():
        theirs, ours = split(dist), odds.combatants[cid]
        assert ours.damage == theirs.damage, (case.name, cid, "damage")
        assert ours.cut == theirs.cut, (case.name, cid, "cut", ours.cut, theirs.cut)
        assert ours.at_least == theirs.at_least, (case.name, cid, ours.at_least, theirs.at_least)
        assert sum(ours.damage.values()) + ours.cut == 1, (case.name, cid)


def clear_our_caches() -> None:
    """Forget the pool classes our enumerator keeps (``fracas.dice.pools``), where the
    tree has them."""
    try:
        from fracas.dice import pools
    except ImportError:
        return
    classes = getattr(pools, "_classes", None)
    if classes is not None and hasattr(classes, "cache_clear"):
        classes.cache_clear()


def bench_icepool(repeat: int) -> None:
    print("(1) ours against icepool: the same damage distributions, asserted equal exactly")
    print(
        f"    {'case':<38}{'paths':>6} {'cut mass':>9}  {'fracas [CPU]':>20} {'fracas cold':>12}"
        f" {'icepool cold [CPU]':>20}  {'ours/icepool':>19}"
    )
    slower = 0
    for make in CASES:
        case = make()
        ef = from_doc(case.doc)
        engine = before_last(ef)

        def ours(ef: EncounterFile = ef, engine: Engine = engine, case: Case = case) -> Any:
            return action_odds(
                ef.ruleset, engine.state, ef.actions[-1], seconds=None, max_rolls=case.max_rolls
            )

        def ours_cold(run: Callable[[], Any] = ours) -> Any:
            clear_our_caches()
            return run()

        _, t_cold = timed(ours_cold, repeat)  # the clearing itself is a dict's clear
        odds, t_ours, c_ours = timed_cpu(ours, repeat)
        model, t_theirs, c_theirs = cold(case.model, repeat)
        check_equal(case, odds, model)
        cut = f"{float(odds.truncated):.1e}" if odds.truncated else "0"
        slower += t_ours >= t_theirs
        print(
            f"    {case.name:<38}{odds.paths:>6,} {cut:>9}  {ms(t_ours)} [{c_ours * 1e3:>6.1f}]"
            f" {ms(t_cold)} {ms(t_theirs)} [{c_theirs * 1e3:>6.1f}]"
            f"  {t_ours / t_theirs:>5.2f}x {t_cold / t_theirs:>5.2f}x [{c_ours / c_theirs:>5.2f}x]"
            f"  {'faster' if t_ours < t_theirs else 'SLOWER'}"
            f"{'' if (t_ours < t_theirs) == (c_ours < c_theirs) else ' (not on CPU)'}"
        )
    print(
        "    equal: every combatant's damage, exactly; cut mass and its least damage equal to"
        " icepool's cut bucket."
    )
    print(
        f"    median of {repeat} runs in-process, wall. icepool cold: dice built afresh and its"
        " module caches (binomial rows, multiset evaluators) emptied before each run. fracas:"
        " pool classes kept from run to run; fracas cold: emptied before each run."
        " [CPU]: median CPU ms. ours/icepool: wall warm, wall cold [CPU warm]; faster or"
        f" slower on wall, warm. Slower than icepool: {slower} of {len(CASES)}"
    )


# --- (2) our time against the targets ---------------------------------------------


def one_odds(ef: EncounterFile, engine: Engine, action: Action, budget: float | None) -> Any:
    if budget is None:
        return action_odds(ef.ruleset, engine.state, action, seed=engine.seed)
    return action_odds(ef.ruleset, engine.state, action, seed=engine.seed, seconds=budget)


def verdict(exact: bool, seconds: float, cpu: float, target: float) -> str:
    """Met on wall time; where only the CPU time meets it (the machine was busy), says so."""
    if exact and seconds <= target:
        return "met"
    if exact and cpu <= target:
        return "NOT met (met on CPU)"
    return "NOT met"


def row(name: str, odds: Any, seconds: float, cpu: float, target: float) -> str:
    if isinstance(odds, FracasError):
        return f"    {name:<40}{'refused: ' + odds.code:>26}"
    exact = odds.estimate is None
    kind = "exact" if exact else f"estimate ({odds.paths} samples)"
    met = verdict(exact, seconds, cpu, target)
    return (
        f"    {name:<40}{odds.paths if exact else '':>8}  {kind:<10}{ms(seconds)}"
        f" [{cpu * 1e3:>7.1f}]  {'<= ' + format(target * 1000, 'g') + ' ms':>11}  {met}"
    )


def timed_odds(
    ef: EncounterFile, engine: Engine, action: Action, repeat: int, budget: float | None = None
) -> tuple[Any, float, float]:
    try:
        return timed_cpu(lambda: one_odds(ef, engine, action, budget), repeat)
    except FracasError as refusal:
        return refusal, 0.0, 0.0


def label(action: Action) -> str:
    return " ".join(x for x in (action.actor, action.do, action.target) if x)


def bench_targets(repeat: int) -> list[tuple[str, bool]]:
    """(2); the (name, met) of every row, for the closing count."""
    results: list[tuple[str, bool]] = []

    def show(name: str, odds: Any, seconds: float, cpu: float, target: float) -> None:
        print(row(name, odds, seconds, cpu, target))
        ok = not isinstance(odds, FracasError) and odds.estimate is None and seconds <= target
        results.append((name, ok))

    print(
        f"(2) our time against the issue's targets (median of {repeat} runs: wall, [CPU ms];"
        " a target is met on wall time, exact)"
    )
    print(f"    {'case':<40}{'paths':>8}  {'':<10}{'fracas':>12} {'[CPU]':>9}  {'target':>11}")
    print("    the last action of each example")
    for name in RULESETS:
        ef = load(str(ROOT / "examples" / f"{name}.yaml"))
        engine = before_last(ef)
        odds, seconds, cpu = timed_odds(ef, engine, ef.actions[-1], repeat)
        show(f"{name}: {label(ef.actions[-1])}", odds, seconds, cpu, EXAMPLE_TARGET)
    print("    every action of each example, played in order (odds in the state before it)")
    for name in RULESETS:
        ef = load(str(ROOT / "examples" / f"{name}.yaml"))
        engine = Engine(ef.ruleset, ef.start, ef.seed if ef.seed is not None else 1)
        engine.begin(ef.dice, ef.order)
        for i, action in enumerate(ef.actions, 1):
            odds, seconds, cpu = timed_odds(ef, engine, action, repeat)
            show(f"{name} #{i}: {label(action)}", odds, seconds, cpu, EXAMPLE_TARGET)
            engine.act(action)
    print("    the issue's named cases")
    for case in named():
        ef = from_doc(case.doc)
        engine = before_last(ef)
        odds, seconds, cpu = timed_odds(ef, engine, ef.actions[-1], repeat, case.budget)
        if case.budget is not None:  # within its budget: exact or a marked estimate
            ok = seconds <= case.target
            kind = (
                "exact" if odds.estimate is None else f"estimate, {odds.estimate.samples} samples"
            )
            print(
                f"    {case.name:<40}{'':>8}  {kind:<10}{ms(seconds)} [{cpu * 1e3:>7.1f}]"
                f"  {'<= budget ' + format(case.budget, 'g') + ' s':>11}  "
                f"{'met' if ok else 'NOT met'}"
            )
            results.append((case.name, ok))
            continue
        show(case.name, odds, seconds, cpu, case.target)
    print("    the odds of every choice, at once (item 5)")
    # Imported here: the "before" tree (3) runs this file and has no choice odds.
    from fracas.odds.choices import choice_odds

    for name in ("wasteland",):
        ef = load(str(ROOT / "examples" / f"{name}.yaml"))
        engine = before_last(ef)
        state = engine.state

        def every(ef: EncounterFile = ef, state: Any = state, seed: int = engine.seed) -> list[Any]:
            return list(choice_odds(ef.ruleset, state, seed=seed, seconds=CHOICE_BUDGET))

        choices, seconds, cpu = timed_cpu(every, repeat)
        exact = all(c.odds.estimate is None for c in choices)
        paths = sum(c.odds.paths for c in choices)
        who = state.turn.actor
        title = f"{name}: every choice of {who} ({len(choices)})"
        print(
            f"    {title:<40}{paths:>8}  {'exact' if exact else 'estimates':<10}{ms(seconds)}"
            f" [{cpu * 1e3:>7.1f}]  {'<= ' + format(CHOICE_TARGET * 1000, 'g') + ' ms':>11}"
            f"  {verdict(exact, seconds, cpu, CHOICE_TARGET)}"
        )
        results.append((title, exact and seconds <= CHOICE_TARGET))
    met = sum(ok for _, ok in results)
    print(
        f"    targets met: {met} of {len(results)}; not met: "
        + ", ".join(name for name, ok in results if not ok)
    )
    return results


# --- (3) before against after -------------------------------------------------------------

PISTOL = CASES[0]


def _example(name: str) -> Callable[[], EncounterFile]:
    return lambda: load(str(ROOT / "examples" / f"{name}.yaml"))


BEFORE_CASES: dict[str, Callable[[], EncounterFile]] = {
    **{f"{name} example": _example(name) for name in RULESETS},
    "pistol duel (icepool)": lambda: from_doc(PISTOL().doc),
    "Molotov, 3 victims": lambda: from_doc(next(n.doc for n in named() if "Molotov" in n.name)),
    "burst, 3 locations": lambda: from_doc(next(n.doc for n in named() if "located" in n.name)),
}
SLOW = 1.0
"""A case whose first run takes longer (seconds of CPU) is timed once."""


def measure(case: str, repeat: int) -> dict[str, Any]:
    """Run in a subprocess whose PYTHONPATH picks the tree: one case's odds, timed."""
    ef = BEFORE_CASES[case]()
    engine = before_last(ef)
    unbounded: dict[str, Any] = (
        {"seconds": None} if "seconds" in inspect.signature(action_odds).parameters else {}
    )
    walls: list[float] = []
    cpus: list[float] = []
    odds = None
    while len(walls) < repeat and (not cpus or cpus[0] <= SLOW):
        wall, cpu = time.perf_counter(), time.process_time()
        odds = action_odds(ef.ruleset, engine.state, ef.actions[-1], seed=engine.seed, **unbounded)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    assert odds is not None
    return {
        "paths": odds.paths,
        "runs": len(walls),
        "wall": statistics.median(walls),
        "cpu": statistics.median(cpus),
        "cut": str(odds.truncated),
        "exact": exact_of(odds),
    }


def exact_of(odds: Any) -> dict[str, Any]:
    """Every combatant's odds as text (exact fractions), to compare two trees'."""
    return {
        cid: {
            "hit": None if o.hit is None else str(o.hit),
            "damage": {str(d): str(p) for d, p in o.damage.items()},
            "down": str(o.down),
        }
        for cid, o in odds.combatants.items()
    }


def same_odds(case: str, was: dict[str, Any], now: dict[str, Any]) -> str:
    """Equal exactly where neither cut, else within the sum of the two cut masses; says
    which (and the largest difference seen)."""
    slack = Fraction(was["cut"]) + Fraction(now["cut"])
    assert set(was["exact"]) == set(now["exact"]), (case, "combatants")
    worst = Fraction(0)
    for cid, old in was["exact"].items():
        new = now["exact"][cid]
        pairs = [(old["down"], new["down"])]
        assert (old["hit"] is None) == (new["hit"] is None), (case, cid, "hit")
        if old["hit"] is not None:
            pairs.append((old["hit"], new["hit"]))
        for d in {*old["damage"], *new["damage"]}:
            pairs.append((old["damage"].get(d, "0"), new["damage"].get(d, "0")))
        for a, b in pairs:
            diff = abs(Fraction(a) - Fraction(b))
            assert diff <= slack, (case, cid, a, b, slack)
            worst = max(worst, diff)
    if not slack:
        return "equal"
    return f"within cut {float(slack):.1e} (max diff {float(worst):.1e})"


def bench_before_after(ref: str, repeat: int) -> None:
    print(f"(3) exact odds: before ({ref}) and after (this tree), CPU s [wall s], one process each")
    print(f"    {'case':<24}{'paths':>17}  {'before':>16}  {'after':>16}  {'speed-up':>8}  odds")
    with tempfile.TemporaryDirectory() as tmp:
        old = before_tree(ref, Path(tmp))
        new = Path(sys.modules["fracas"].__file__ or "").resolve().parents[1]
        for case in BEFORE_CASES:
            was = in_tree(__file__, old, case, "--repeat", str(repeat))
            now = in_tree(__file__, new, case, "--repeat", str(repeat))
            verdict = same_odds(case, was, now)
            paths = f"{was['paths']:,} -> {now['paths']:,}"
            print(
                f"    {case:<24}{paths:>17}  "
                f"{was['cpu']:>7.3f} [{was['wall']:>6.3f}]  "
                f"{now['cpu']:>7.3f} [{now['wall']:>6.3f}]  "
                f"{was['cpu'] / now['cpu']:>7.1f}x  {verdict}"
            )
    print(
        f"    median of up to {repeat} runs (one where the first takes over {SLOW:g} s of CPU);"
        f" after: the fracas imported here ({new})"
    )


# --- (5) the command's odds ---------------------------------------------------------------

COMMAND_BEFORE = "d2a2c77"
"""The commit the command's "before" figures are taken from (before issue 20, item 9)."""
COMMAND_ROUNDS = 5
"""Fresh processes per tree and case in (5), taken in turn: before, after, before, ..."""


def command_measure(name: str, repeat: int) -> dict[str, Any]:
    """Run in a subprocess whose PYTHONPATH picks the tree: ``fracas odds FILE --json``
    and ``fracas run FILE --json`` of one case, in-process (click's runner). The first
    odds of the process (after one run: imports made, the odds' caches empty), then
    ``repeat`` of each in turn; the paths and exact odds of the JSON."""
    from click.testing import CliRunner

    from fracas.cli import main as cli

    case = next(c for c in commands() if c.name == name)
    runner = CliRunner()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "case.json"
        path.write_text(json.dumps(case.doc), encoding="utf-8")

        def invoke(do: str) -> tuple[str, float, float]:
            wall, cpu = time.perf_counter(), time.process_time()
            done = runner.invoke(cli, [do, str(path), "--json"])
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            assert done.exit_code == 0, done.output
            return done.output, wall, cpu

        invoke("run")
        out, first_wall, first_cpu = invoke("odds")
        _, run_wall, run_cpu = invoke("run")
        took: dict[str, list[float]] = {"odds": [], "odds cpu": [], "run": [], "run cpu": []}
        for _ in range(repeat):
            for do in ("odds", "run"):
                _, wall, cpu = invoke(do)
                took[do].append(wall)
                took[f"{do} cpu"].append(cpu)
    got = json.loads(out)
    med = {k: statistics.median(v) for k, v in took.items()}
    return {
        "paths": got["paths"],
        "exact": got["exact"],
        "wall": med["odds"] - med["run"],
        "cpu": med["odds cpu"] - med["run cpu"],
        "first_wall": first_wall - run_wall,
        "first_cpu": first_cpu - run_cpu,
    }


def bench_commands(ref: str, repeat: int) -> None:
    print(
        "(5) the command's odds: `fracas odds FILE --json` less `fracas run FILE --json` of"
        f" the same file, in-process; before ({ref}) and after (this tree), ms of wall [CPU]"
    )
    print(
        f"    {'case':<30}{'paths':>15}  {'before':>15}  {'after':>15}  {'speed-up':>8}"
        f"  {'first call':>19}  against"
    )
    med = statistics.median
    with tempfile.TemporaryDirectory() as tmp:
        old = before_tree(ref, Path(tmp))
        new = Path(sys.modules["fracas"].__file__ or "").resolve().parents[1]
        for case in commands():
            runs: dict[str, list[dict[str, Any]]] = {"was": [], "now": []}
            theirs: list[float] = []
            for _ in range(COMMAND_ROUNDS):  # interleaved: the machine is shared
                for key, tree in (("was", old), ("now", new)):
                    args = (case.name, "--repeat", str(repeat))
                    runs[key].append(in_tree(__file__, tree, *args, flag="--command"))
                if case.model is not None:
                    theirs.append(cold(case.model, repeat)[1])
            was, now = runs["was"], runs["now"]
            # the very same figures, and never more paths
            assert all(r["exact"] == was[0]["exact"] for r in was + now), case.name
            assert now[0]["paths"] <= was[0]["paths"], case.name
            fig = {
                f"{key} {m}": med(r[m] for r in rs) * 1000
                for key, rs in runs.items()
                for m in ("wall", "cpu", "first_wall", "first_cpu")
            }
            paths = f"{was[0]['paths']:,} -> {now[0]['paths']:,}"
            if case.budget is not None:
                target = case.budget * 1000
                against = (
                    f"<= {target:g} ms: "
                    + ("met" if fig["now wall"] <= target else "NOT met")
                    + f" (before: {'met' if fig['was wall'] <= target else 'NOT met'})"
                )
            else:
                ice = med(theirs) * 1000
                aim = case.aim or 1.0
                ratio_was, ratio_now = ice / fig["was wall"], ice / fig["now wall"]
                first_was, first_now = ice / fig["was first_wall"], ice / fig["now first_wall"]
                against = (
                    f"icepool {ice:.2f} ms: {ratio_was:.1f}x -> {ratio_now:.1f}x faster"
                    f" (aim {aim:g}x: {'met' if ratio_now >= aim else 'NOT met'}); first call"
                    f" {first_was:.1f}x -> {first_now:.1f}x"
                    f" ({'met' if first_now >= aim else 'NOT met'})"
                )
            print(
                f"    {case.name:<30}{paths:>15}  {fig['was wall']:>6.2f} [{fig['was cpu']:>6.2f}]"
                f"  {fig['now wall']:>6.2f} [{fig['now cpu']:>6.2f}]"
                f"  {fig['was wall'] / fig['now wall']:>7.1f}x"
                f"  {fig['was first_wall']:>7.2f} -> {fig['now first_wall']:>7.2f}  {against}"
            )
    print(
        f"    median of {repeat} of each command in turn per process, {COMMAND_ROUNDS} fresh"
        " processes per tree taken in turn (the medians' median); the JSON's exact odds"
        " asserted equal. first call: the first odds of a process (after one run: every"
        " cache of the odds empty), less a run, wall. icepool: cold, in this process."
    )


# --- (6) the first odds of a process ---------------------------------------------------------

FIRST_BEFORE = "HEAD"
"""The "before" code of (6): the last commit, against the edits of the work tree."""
FIRST_ROUNDS = 5
"""Fresh processes per tree and case in (6), taken in turn (3 with ``--quick``)."""


def _named(name: str) -> Callable[[], EncounterFile]:
    return lambda: from_doc(next(n.doc for n in named() if n.name == name))


FIRST_CASES: dict[str, tuple[Callable[[], EncounterFile], int | None, float]] = {
    "dice-combat example #8 (Molotov)": (_example("dice-combat"), 7, EXAMPLE_TARGET),
    "dice-combat example: last": (_example("dice-combat"), None, EXAMPLE_TARGET),
    "dice-combat Molotov on 3": (_named("dice-combat Molotov on 3"), None, 0.1),
    "wasteland frag grenade on 3": (_named("wasteland frag grenade on 3"), None, EXAMPLE_TARGET),
    "wasteland 2d6 single shot": (_named("wasteland 2d6 single shot"), None, EXAMPLE_TARGET),
    "wasteland free 3-shot burst": (_named("wasteland free 3-shot burst"), None, EXAMPLE_TARGET),
    "wasteland 3-shot burst, located": (
        _named("wasteland 3-shot burst, located"),
        None,
        EXAMPLE_TARGET,
    ),
    "soak longsword, disadvantage": (_named("soak longsword, disadvantage"), None, EXAMPLE_TARGET),
}
"""(the file, the action's index (None: the last), the target in seconds: issue 34's
50 ms for every single action, a burst's exact odds too, and 100 ms for the Molotov on
three. An earlier issue gave a burst's odds 1 s, an outer bound on the estimate of a long
burst (part (2)'s 50-shot burst); these two are exact, and single actions.)"""


def first_measure(case: str, calls: int | None = None) -> dict[str, Any]:
    """Run in a fresh subprocess whose PYTHONPATH picks the tree: the first
    :func:`action_odds` of the process, then the same again, each timed. ``calls``: only
    that many calls, untimed (part (7) counts their instructions)."""
    if _freezes(Path(sys.modules["fracas"].__file__ or "").parents[1]):
        gc.freeze()  # what the tree's processes do once loaded
    make, index, _ = FIRST_CASES[case]
    ef = make()
    at = len(ef.actions) - 1 if index is None else index
    engine = Engine(ef.ruleset, ef.start, ef.seed if ef.seed is not None else 1)
    engine.begin(ef.dice, ef.order)
    for action in ef.actions[:at]:
        engine.act(action)
    action = ef.actions[at]
    if calls is not None:
        for _ in range(calls):
            action_odds(ef.ruleset, engine.state, action, seed=engine.seed)
        return {"calls": calls}
    took: list[tuple[float, float]] = []
    odds = None
    for _ in range(2):
        wall, cpu = time.perf_counter(), time.process_time()
        odds = action_odds(ef.ruleset, engine.state, action, seed=engine.seed)
        took.append((time.perf_counter() - wall, time.process_time() - cpu))
    assert odds is not None
    return {
        "paths": odds.paths,
        "exact": exact_of(odds) if odds.estimate is None else None,
        "cut": str(odds.truncated),
        "first_wall": took[0][0],
        "first_cpu": took[0][1],
        "warm_wall": took[1][0],
        "warm_cpu": took[1][1],
    }


def _freezes(tree: Path) -> bool:
    """Whether ``tree``'s command line keeps what its process loaded out of the garbage
    collector's walks once its command is imported (:func:`gc.freeze`), as its server's
    workers then do too."""
    cli = tree / "fracas" / "cli" / "__init__.py"
    return cli.is_file() and "gc.freeze()" in cli.read_text(encoding="utf-8")


def bench_first(ref: str, rounds: int) -> None:
    print(
        f"(6) the first odds of a process: before ({ref}) and after (this tree), ms of wall"
        " [CPU], the medians of fresh processes taken in turn"
    )
    print(
        f"    {'case':<34}{'paths':>7}  {'first: before':>15}  {'after':>15}  {'speed-up':>8}"
        f"  {'warm: before':>15}  {'after':>15}  target"
    )
    med = statistics.median
    with tempfile.TemporaryDirectory() as tmp:
        old = before_tree(ref, Path(tmp))
        new = Path(sys.modules["fracas"].__file__ or "").resolve().parents[1]
        for case, (_, _, target) in FIRST_CASES.items():
            runs: dict[str, list[dict[str, Any]]] = {"was": [], "now": []}
            for _ in range(rounds):
                for key, tree in (("was", old), ("now", new)):
                    runs[key].append(in_tree(__file__, tree, case, flag="--first", own=False))
            for rs in runs.values():  # each tree: the same odds in every process
                assert all(r["exact"] == rs[0]["exact"] for r in rs), case
            was, now = runs["was"][0], runs["now"][0]
            assert (was["exact"] is None) == (now["exact"] is None), case
            # the two trees: equal, or within what either cut at the depth (a roll's
            # steps may cut an exploding die at another place than before)
            agree = "equal" if was["exact"] is None else same_odds(case, was, now)
            fig = {
                f"{key} {m}": med(r[m] for r in rs) * 1000
                for key, rs in runs.items()
                for m in ("first_wall", "first_cpu", "warm_wall", "warm_cpu")
            }
            limit = target * 1000
            met = (
                "met"
                if fig["now first_wall"] <= limit
                else "met on CPU"
                if fig["now first_cpu"] <= limit
                else "NOT met"
            )
            print(
                f"    {case:<34}{runs['now'][0]['paths']:>7,}"
                f"  {fig['was first_wall']:>7.1f} [{fig['was first_cpu']:>5.1f}]"
                f"  {fig['now first_wall']:>7.1f} [{fig['now first_cpu']:>5.1f}]"
                f"  {fig['was first_cpu'] / fig['now first_cpu']:>7.1f}x"
                f"  {fig['was warm_wall']:>7.1f} [{fig['was warm_cpu']:>5.1f}]"
                f"  {fig['now warm_wall']:>7.1f} [{fig['now warm_cpu']:>5.1f}]"
                f"  <= {limit:g} ms: {met}" + ("" if agree == "equal" else f"; odds {agree}")
            )
    print(
        f"    {rounds} fresh processes per tree and case; first: the process's first odds"
        " (its caches empty), warm: the same again; speed-up on CPU; the exact odds"
        " asserted equal (both trees; within what either cut at the depth where one did,"
        " said after its target). A target is met on wall time of the first call."
    )


# --- (7) the first odds of a process, in instructions -------------------------------------


def bench_first_instructions(ref: str) -> None:
    """(7): part (6)'s cases counted in instructions (:mod:`bench.instructions`), which
    the machine's load does not move: each tree's process with 0, 1 and 2 calls, the
    first call the difference of the first two, the warm one of the last two."""
    from bench import instructions  # this tree's (the measured processes import the other's)

    print(
        f"(7) the first odds of a process in instructions (valgrind's callgrind): before"
        f" ({ref}) and after (this tree), millions"
    )
    if not instructions.available():
        print("    skipped: no valgrind on the PATH (Debian: apt-get install -y valgrind)")
        return
    print(
        f"    {'case':<34}  {'first: before':>13}  {'after':>8}  {'change':>7}"
        f"  {'warm: before':>12}  {'after':>8}  {'change':>7}"
    )
    script = str(Path(__file__).resolve())
    with tempfile.TemporaryDirectory() as tmp:
        old = before_tree(ref, Path(tmp))
        new = Path(sys.modules["fracas"].__file__ or "").resolve().parents[1]
        for case in FIRST_CASES:
            jobs = [
                ([sys.executable, script, "--first", case, "--calls", str(k)], tree)
                for tree in (old, new)
                for k in range(3)
            ]
            n = instructions.counts(jobs)
            first = (n[1] - n[0], n[4] - n[3])
            warm = (n[2] - n[1], n[5] - n[4])
            print(
                f"    {case:<34}  {first[0] / 1e6:>13,.1f}  {first[1] / 1e6:>8,.1f}"
                f"  {first[1] / first[0] - 1:>+7.1%}  {warm[0] / 1e6:>12,.1f}"
                f"  {warm[1] / 1e6:>8,.1f}  {warm[1] / warm[0] - 1:>+7.1%}"
            )
    print(
        "    this script's part (6) measurement in both trees under callgrind, the hash"
        " seed fixed: instructions, not time (a cache miss costs more than its count);"
        " two processes at a time"
    )


# --- (4) throughput ------------------------------------------------------------------------

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
    return [sys.executable, "-c", "from fracas.main import main; main()"]


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
        f"(4) `fracas run` throughput: {count:,} actions, 4 combatants ({t_gen:.2f} s to generate)"
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
    less = t_run - t_start
    rate = f"{count / less:10,.0f} actions/s" if less > 0 else "  below the start-up's noise"
    print(
        f"    `fracas run` less start-up           {ms(less)}  {rate}   [median of {repeat} runs]"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="3 runs per timing, fewer actions")
    parser.add_argument("--repeat", type=int, default=None, help="runs per timing (median)")
    parser.add_argument("--actions", type=int, default=None, help="actions of the encounter (4)")
    parser.add_argument(
        "--before", default=BEFORE, help="the 'before' code: a commit, or a checkout's folder"
    )
    parser.add_argument(
        "--before-command",
        default=COMMAND_BEFORE,
        help="the 'before' code of (5): a commit, or a checkout's folder",
    )
    parser.add_argument(
        "--before-first",
        default=FIRST_BEFORE,
        help="the 'before' code of (6): a commit, or a checkout's folder",
    )
    parser.add_argument(
        "--only",
        type=int,
        choices=range(1, 8),
        action="append",
        help="run this part (1-7; 7, instructions under valgrind, runs only when named)",
    )
    parser.add_argument("--measure", choices=sorted(BEFORE_CASES), help=argparse.SUPPRESS)
    parser.add_argument("--first", choices=sorted(FIRST_CASES), help=argparse.SUPPRESS)
    parser.add_argument("--calls", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--command", choices=[c.name for c in commands()], help=argparse.SUPPRESS)
    args = parser.parse_args()
    repeat = args.repeat if args.repeat is not None else (3 if args.quick else 7)
    if args.measure:  # a subprocess of (3)
        print(json.dumps(measure(args.measure, repeat)))
        return
    if args.command:  # a subprocess of (5)
        print(json.dumps(command_measure(args.command, repeat)))
        return
    if args.first:  # a subprocess of (6) or (7)
        print(json.dumps(first_measure(args.first, args.calls)))
        return
    parts = set(args.only or range(1, 7))
    started = time.perf_counter()
    import fracas

    tree = Path(fracas.__file__).resolve().parents[1]
    head = subprocess.run(
        ["git", "-C", str(tree), "log", "-1", "--format=%h"], capture_output=True, text=True
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "-C", str(tree), "status", "--porcelain", "fracas"], capture_output=True, text=True
    ).stdout.strip()
    edits = f" + {len(dirty.splitlines())} files edited" if dirty else ""
    print(f"fracas from {tree} (commit {head or '?'}{edits}); {time.strftime('%Y-%m-%d %H:%M')}")
    if 1 in parts:
        print()
        bench_icepool(repeat)
    if 2 in parts:
        print()
        bench_targets(repeat)
    if 3 in parts:
        print()
        bench_before_after(args.before, repeat)
    if 5 in parts:
        print()
        bench_commands(args.before_command, repeat)
    if 6 in parts:
        print()
        bench_first(args.before_first, 3 if args.quick else FIRST_ROUNDS)
    if 7 in parts:
        print()
        bench_first_instructions(args.before_first)
    if 4 in parts:
        print()
        count = args.actions if args.actions is not None else (300 if args.quick else 1000)
        bench_run(count, max(3, repeat // 2))
    print(f"\nwhole run: {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
