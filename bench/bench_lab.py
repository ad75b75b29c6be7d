"""Benchmark: the balance lab before and after its speed work, against icepool.

Run by hand from the repository root (it is not a test; a few minutes)::

    .venv/bin/python bench/bench_lab.py [--hp 12 40] [--fights N] [--before REF|PATH]
        [--skip-before-above HP] [--skip-icepool-above HP]

Every figure of (a) to (c) is taken twice in one run, side by side: in a fresh
subprocess on this tree ("after") and on the code of commit ``BEFORE`` (taken out with
``git archive`` into a temporary folder, or a checkout given as ``--before``), and the
two results must be equal (asserted: the speed work changes no number). CPU seconds
are the figures compared (the machine may be shared); wall seconds beside them.

(a) The exact duel win odds of two dice-combat pistol fighters (3 tiles apart, 8
    rounds loaded) at each ``--hp``: ``fracas lab win``'s chain (the real rules, every
    state the fight reaches: HP, ammo, whose turn) and icepool's absorbing Markov chain
    over (HP, HP, whose turn), built from the single-attack damage distributions.
    Equal (asserted); the time of each and the ratios. icepool at 40 HP takes minutes:
    ``--skip-icepool-above`` leaves it out above that HP (``--skip-before-above`` the
    before code likewise).
(b) ``fracas lab sim`` fights per second on a 2 v 2 dice-combat fight (pistol and club
    against knife and pistol), on 1 and on 2 workers, and the speed-up.
(c) ``fracas lab sim`` fights per second on ``examples/wasteland.yaml``.
(e) ``fracas lab win`` on each example (issue 23): the answer, the method (exact,
    float, estimate) and the time; before: the exact chain alone (it refused past
    20,000 states).
(d) Dask's overhead per chunk (a one-worker ``LocalCluster`` against this process),
    where the extra ``fracas[dask]`` is installed (this tree only).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import resource
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import icepool

ROOT = Path(__file__).resolve().parent.parent
sys.path.append(str(ROOT))  # bench.trees; fracas is whichever PYTHONPATH picks first

from bench.trees import before_tree, in_tree  # noqa: E402
from fracas.io.files import parse_text  # noqa: E402
from fracas.lab.chain import win_odds  # noqa: E402
from fracas.lab.fight import file_start  # noqa: E402
from fracas.lab.sim import simulate  # noqa: E402
from fracas.model import Action  # noqa: E402
from fracas.odds.action import action_odds  # noqa: E402

BEFORE = "7443e43"
"""The commit the "before" figures are taken from (main before issue 23's tactics)."""

PISTOLS = """
ruleset: dice-combat
order: [ana, bo]
combatants:
  - {id: ana, name: Ana, side: a, at: [0, 0], hp: HP, max_hp: HP, hand: {is: pistol, loaded: 8}}
  - {id: bo, name: Bo, side: b, at: [3, 0], hp: HP, max_hp: HP, hand: {is: pistol, loaded: 8}}
"""

TWO_V_TWO = """
ruleset: dice-combat
order: [ana, bo, cy, dee]
combatants:
  - {id: ana, name: Ana, side: players, at: [0, 0], hand: {is: pistol, loaded: 8}}
  - {id: bo, name: Bo, side: raiders, at: [1, 0], hand: knife}
  - {id: cy, name: Cy, side: players, at: [0, 1], hand: club}
  - {id: dee, name: Dee, side: raiders, at: [4, 1], hand: {is: pistol, loaded: 8}}
"""


def icepool_duel(hp: int, text: str) -> tuple[Fraction, float]:
    """Ana's chance to win by icepool's absorbing chain, and the CPU seconds it took, as
    ours are counted (the attack distributions from ``fracas.odds.action`` are not timed)."""
    ef = parse_text(text)
    start = file_start(ef)
    dies: dict[str, Any] = {}
    for who, target in (("ana", "bo"), ("bo", "ana")):
        odds = action_odds(ef.ruleset, start.with_turn(actor=who), Action(who, "attack", target))
        dist = odds.combatants[target].damage
        den = 1
        for p in dist.values():
            den = den * p.denominator // _gcd(den, p.denominator)
        dies[who] = icepool.Die({d: int(p * den) for d, p in dist.items()})
    t0 = time.process_time()

    def step(a: int, b: int, turn: int) -> Any:
        if a == 0 or b == 0:
            return (a, b, turn)
        if turn == 0:
            return dies["ana"].map(lambda d: (a, max(0, b - d), 1))
        return dies["bo"].map(lambda d: (max(0, a - d), b, 0))

    end = icepool.Die([(hp, hp, 0)]).map(step, star=True, repeat="inf")
    win = sum((Fraction(q, end.denominator()) for o, q in end.items() if o[1] == 0), Fraction(0))
    return win, time.process_time() - t0


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


def measure(case: str, fights: int) -> dict[str, Any]:
    """Run in a subprocess whose PYTHONPATH picks the tree: one case, timed. Cases:
    ``win:HP`` (the pistol duel's exact odds), ``sim:WORKERS`` (the 2 v 2 fight),
    ``again:SEED`` (the 2 v 2 fight's ``fights`` of seed 1 played first, untimed, then
    those of ``SEED`` in the same process, timed: the caches warm), ``wasteland`` (the
    example). Only what both trees have is called."""
    if case.startswith("again:"):
        simulate(TWO_V_TWO, "2v2", fights, seed=1)
    wall, cpu = time.perf_counter(), time.process_time()
    children = _children_cpu()
    if case.startswith("win:"):
        hp = int(case.partition(":")[2])
        ef = parse_text(PISTOLS.replace("HP", str(hp)))
        odds = win_odds(ef.ruleset, file_start(ef), max_states=2_000_000)
        result: Any = {"a": str(odds.sides["a"]), "states": odds.states}
    elif case.startswith("sim:"):
        workers = int(case.partition(":")[2])
        result = simulate(TWO_V_TWO, "2v2", fights, seed=1, workers=workers).to_json()
    elif case.startswith("again:"):
        seed = int(case.partition(":")[2])
        result = simulate(TWO_V_TWO, "2v2", fights, seed=seed).to_json()
    elif case.startswith("example:"):
        result = _example(case.partition(":")[2])
    else:
        text = (ROOT / "examples" / "wasteland.yaml").read_text()
        result = simulate(text, "wasteland", fights, seed=1).to_json()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    cpu += _children_cpu() - children  # the pool's workers, reaped at its shutdown
    # The numbers, not how many states the chain took to reach them (the chain key
    # changed the count, not the odds).
    same = {k: v for k, v in result.items() if k != "states"}
    digest = hashlib.sha256(json.dumps(same, sort_keys=True).encode()).hexdigest()[:16]
    return {"wall": wall, "cpu": cpu, "result": result, "digest": digest}


def _example(name: str) -> dict[str, Any]:
    """``fracas lab win`` on one example, with whichever the tree has: issue 23's
    ``fracas.lab.win.win`` (exact, float or estimate), else the exact chain alone."""
    path = ROOT / "examples" / f"{name}.yaml"
    text = path.read_text()
    try:
        from fracas.lab.win import win
    except ImportError:
        from fracas.errors import FracasError
        from fracas.lab.policy import Policy

        ef = parse_text(text, str(path))
        try:
            odds = win_odds(ef.ruleset, file_start(ef), Policy(ef.ruleset, ef.tactics))
        except FracasError as exc:
            return {"method": exc.code, "sides": {}, "idle": []}
        sides = {s: float(p) for s, p in odds.sides.items()}
        return {"method": "exact", "sides": sides, "states": odds.states, "idle": odds.idle}
    w = win(text, str(path))
    return {
        "method": w.method,
        "sides": w.sides,
        "states": w.states,
        "fights": w.fights,
        "ci95": w.ci95,
        "precise": w.precise,
        "idle": list(w.idle),
    }


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _pair(
    old: Path | None, case: str, fights: int = 0, *, own: bool = True
) -> tuple[dict[str, Any] | None, Any]:
    """(before, after) for one case; the results asserted equal. ``own``: the before
    tree is measured by its own copy of this script (False: by this one, a case that
    copy does not know)."""
    now = in_tree(__file__, ROOT, case, "--fights", str(fights))
    was = None if old is None else in_tree(__file__, old, case, "--fights", str(fights), own=own)
    if was is not None and case.startswith("win:"):
        # the pistol duel: both in reach from the start, the same odds (asserted)
        assert was["digest"] == now["digest"], (case, was["result"], now["result"])
    return was, now


def _secs(m: dict[str, Any] | None) -> str:
    return f"{'-':>8} {'':>9}" if m is None else f"{m['cpu']:8.2f} [{m['wall']:6.2f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hp", type=int, nargs="+", default=[12, 40])
    parser.add_argument("--fights", type=int, default=2000)
    parser.add_argument("--before", default=BEFORE, help="the 'before' code: a commit or a folder")
    parser.add_argument("--skip-icepool-above", type=int, default=None)
    parser.add_argument("--skip-before-above", type=int, default=None)
    parser.add_argument("--wasteland-fights", type=int, default=20)
    parser.add_argument("--sim-only", action="store_true", help="Only parts (b) to (e).")
    parser.add_argument(
        "--examples",
        nargs="*",
        default=["dice-combat", "tier-duel", "escalation", "soak", "wasteland"],
        help="The examples of (e).",
    )
    parser.add_argument("--dask-chunks", type=int, default=20)
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:  # a subprocess of (a) to (c)
        print(json.dumps(measure(args.measure, args.fights)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        old = before_tree(args.before, Path(tmp))
        compare(args, old)
    dask_overhead(args.dask_chunks)


def compare(args: argparse.Namespace, old: Path) -> None:
    print(f"before: {args.before}; after: this tree; CPU s [wall s], each in a fresh process")
    print("(a) exact pistol duel win odds: fracas lab win, before and after, and icepool")
    print(f"    {'HP':>3} {'states':>15}  {'before':>17}  {'after':>17}  {'speed-up':>8}  icepool")
    for hp in [] if args.sim_only else args.hp:
        skip_before = args.skip_before_above is not None and hp > args.skip_before_above
        was, now = _pair(None if skip_before else old, f"win:{hp}")
        ours = Fraction(now["result"]["a"])
        states = f"{now['result']['states']:,}"
        if was is not None:
            states = f"{was['result']['states']:,} -> {states}"
        line = f"    {hp:>3} {states:>15}  {_secs(was)}  {_secs(now)}  " + (
            f"{was['cpu'] / now['cpu']:7.1f}x" if was else f"{'-':>8}"
        )
        if args.skip_icepool_above is not None and hp > args.skip_icepool_above:
            print(line + "  skipped")
            print(f"    P(ana wins) equal before and after ({float(ours):.6f} at {hp} HP)")
            continue
        theirs, t_ice = icepool_duel(hp, PISTOLS.replace("HP", str(hp)))
        assert theirs == ours, (hp, theirs, ours)
        print(line + f"  {t_ice:7.2f} s CPU, equal: icepool/after {t_ice / now['cpu']:.2f}x")
        print(f"    P(ana wins) equal before, after and in icepool ({float(ours):.6f} at {hp} HP)")

    print(f"(b) fracas lab sim on a 2 v 2 dice-combat fight, {args.fights:,} fights, seed 1")
    print(
        f"    {'workers':>7}  {'before':>17}  {'after':>17}  fights per CPU second "
        "(all processes), before -> after"
    )
    walls: dict[tuple[str, int], float] = {}
    cpus: dict[tuple[str, int], float] = {}
    for workers in (1, 2):
        was, now = _pair(old, f"sim:{workers}", args.fights)
        assert was is not None
        for when, m in (("before", was), ("after", now)):
            walls[when, workers], cpus[when, workers] = m["wall"], m["cpu"]
        print(
            f"    {workers:>7}  {_secs(was)}  {_secs(now)}  "
            f"{args.fights / was['cpu']:,.0f} -> {args.fights / now['cpu']:,.0f}"
        )
    for when in ("before", "after"):
        print(
            f"    2 workers, {when}: {walls[when, 1] / walls[when, 2]:.2f}x the wall-clock "
            f"speed of 1; {cpus[when, 2] / cpus[when, 1]:.2f}x its CPU (the wall clock "
            "counts only where the machine's 2 cores are otherwise idle)"
        )
    assert was is not None
    same = "equal" if was["digest"] == now["digest"] else "differ (issue 23's tactics walk)"
    print(
        f"    results {same}: players win "
        f"{was['result']['sides']['players']['win'] * 100:.1f}% before, "
        f"{now['result']['sides']['players']['win'] * 100:.1f}% after"
    )
    print(
        "    the same process again, its caches warm (issue 34, item 4: each state's "
        "choice and dice paths kept), fights per CPU second, before -> after:"
    )
    for seed, what in ((1, "the same fights again"), (2, "new fights (seed 2)")):
        was, now = _pair(old, f"again:{seed}", args.fights, own=False)
        assert was is not None
        same = "equal" if was["digest"] == now["digest"] else "DIFFER"
        print(
            f"    {what:<22} {args.fights / was['cpu']:>7,.0f} -> "
            f"{args.fights / now['cpu']:,.0f}  (results {same})"
        )
    was, now = _pair(old, "wasteland", args.wasteland_fights)
    assert was is not None
    n = args.wasteland_fights
    print(
        f"(c) fracas lab sim on examples/wasteland.yaml, {n} fights on 1 worker: "
        f"before {was['cpu']:.1f} s ({n / was['wall']:.2f} fights/s), "
        f"after {now['cpu']:.1f} s ({n / now['wall']:.2f} fights/s)"
    )
    print("(e) fracas lab win on each example: before -> after (CPU s [wall s])")
    for name in args.examples:
        was, now = _pair(old, f"example:{name}")
        assert was is not None
        print(f"    {name:<12} before {_said(was)}")
        print(f"    {'':<12} after  {_said(now)}")


def _said(m: dict[str, Any]) -> str:
    r = m["result"]
    sides = ", ".join(f"{s} {p * 100:.2f}%" for s, p in r["sides"].items()) or "no answer"
    how = r["method"]
    if how in ("exact", "float"):
        how += f", {r['states']:,} states"
    elif how == "estimate":
        worst = max(hi - lo for lo, hi in r["ci95"].values()) / 2 * 100
        how += f", {r['fights']:,} fights, 95% within +-{worst:.2f} points"
    idle = f"; idle {', '.join(r['idle'])}" if r["idle"] else ""
    return f"{sides} ({how}{idle}) {_secs(m)}"


def dask_overhead(chunks: int) -> None:
    """(e) ``fracas lab win`` on each example (issue 23): the answer, the method (exact,
        float, estimate) and the time; before: the exact chain alone (it refused past
        20,000 states).
    (d) Dask's overhead per chunk: the same chunks on a one-worker LocalCluster and in
        this process (a short duel, so the chunks' own work is small)."""
    if chunks <= 0:
        print("(d) Dask: skipped (--dask-chunks 0)")
        return
    try:
        import distributed
    except ImportError:
        print("(d) Dask: not installed (pip install 'fracas[dask]'); skipped")
        return
    from fracas.lab.sim import CHUNK

    text = PISTOLS.replace("HP", "2")
    n = chunks * CHUNK
    simulate(text, "duel", CHUNK, seed=2)  # warm this process's caches
    t0 = time.perf_counter()
    simulate(text, "duel", n, seed=2)
    local = time.perf_counter() - t0
    local_cluster: Any = distributed.LocalCluster  # untyped
    with local_cluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        address = cluster.scheduler_address.removeprefix("tcp://")
        simulate(text, "duel", CHUNK, seed=2, executor=f"dask://{address}")  # warm the worker
        t0 = time.perf_counter()
        simulate(text, "duel", n, seed=2, executor=f"dask://{address}")
        remote = time.perf_counter() - t0
    print(
        f"(d) Dask, {chunks} chunks of {CHUNK} fights on a 1-worker LocalCluster: "
        f"{remote:.2f} s against {local:.2f} s in-process: "
        f"{(remote - local) / chunks * 1000:.1f} ms overhead per chunk"
    )


if __name__ == "__main__":
    main()
