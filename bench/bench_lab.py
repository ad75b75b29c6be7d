"""Benchmark: the balance lab's exact chain against icepool, and simulated fights.

Run by hand from the repository root (it is not a test)::

    .venv/bin/python bench/bench_lab.py [--hp 12 40] [--fights N] [--skip-icepool-above HP]

(a) The exact duel win odds of two dice-combat pistol fighters (3 tiles apart, 8
    rounds loaded) at each ``--hp``: ``fracas lab win``'s chain (the real rules, every
    state the fight reaches: HP, ammo, whose turn) and icepool's absorbing Markov chain
    over (HP, HP, whose turn), built from the single-attack damage distributions.
    Equal (asserted); the time of each and the ratio. icepool at 40 HP takes minutes:
    ``--skip-icepool-above`` leaves it out above that HP.
(b) ``fracas lab sim`` fights per second on a 2 v 2 dice-combat fight (pistol and club
    against knife and pistol), on 1 and on 2 workers, and the speed-up.
(c) ``fracas lab sim`` fights per second on ``examples/wasteland.yaml``.
(d) Dask's overhead per chunk (a one-worker ``LocalCluster`` against this process),
    where the extra ``fracas[dask]`` is installed.
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import icepool

from fracas.files import parse_text
from fracas.lab import sim as lab_sim
from fracas.lab.chain import win_odds
from fracas.lab.fight import file_start
from fracas.lab.sim import simulate
from fracas.model import Action
from fracas.odds import action_odds

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
    """Ana's chance to win by icepool's absorbing chain, and the seconds it took
    (the attack distributions from ``fracas.odds`` are not timed)."""
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
    t0 = time.perf_counter()

    def step(a: int, b: int, turn: int) -> Any:
        if a == 0 or b == 0:
            return (a, b, turn)
        if turn == 0:
            return dies["ana"].map(lambda d: (a, max(0, b - d), 1))
        return dies["bo"].map(lambda d: (max(0, a - d), b, 0))

    end = icepool.Die([(hp, hp, 0)]).map(step, star=True, repeat="inf")
    win = sum((Fraction(q, end.denominator()) for o, q in end.items() if o[1] == 0), Fraction(0))
    return win, time.perf_counter() - t0


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hp", type=int, nargs="+", default=[12, 40])
    parser.add_argument("--fights", type=int, default=2000)
    parser.add_argument("--skip-icepool-above", type=int, default=None)
    parser.add_argument("--wasteland-fights", type=int, default=20)
    parser.add_argument("--sim-only", action="store_true", help="Only parts (b) to (d).")
    parser.add_argument("--dask-chunks", type=int, default=20)
    args = parser.parse_args()

    print("(a) exact pistol duel win odds: fracas lab win vs icepool's absorbing chain")
    for hp in [] if args.sim_only else args.hp:
        text = PISTOLS.replace("HP", str(hp))
        ef = parse_text(text)
        t0 = time.perf_counter()
        ours = win_odds(ef.ruleset, file_start(ef), max_states=2_000_000)
        t_ours = time.perf_counter() - t0
        line = (
            f"  {hp:>3} HP: ours {float(ours.sides['a']):.6f} in {t_ours:8.2f} s "
            f"({ours.states:,} states)"
        )
        if args.skip_icepool_above is not None and hp > args.skip_icepool_above:
            print(line + "; icepool skipped")
            continue
        theirs, t_ice = icepool_duel(hp, text)
        assert theirs == ours.sides["a"], (hp, theirs, ours.sides["a"])
        print(
            line + f"; icepool {float(theirs):.6f} in {t_ice:8.2f} s; equal; "
            f"icepool/ours {t_ice / t_ours:.2f}x"
        )

    print(f"(b) fracas lab sim on a 2 v 2 dice-combat fight, {args.fights:,} fights")
    rates = {}
    for workers in (1, 2):
        lab_sim._PARSED.clear()  # a cold policy cache for each run (workers fork from here)
        t0 = time.perf_counter()
        sim = simulate(TWO_V_TWO, "2v2", args.fights, seed=1, workers=workers)
        dt = time.perf_counter() - t0
        rates[workers] = args.fights / dt
        print(
            f"  {workers} worker(s): {rates[workers]:8.0f} fights/s "
            f"(players win {sim.win('players') * 100:.1f}%)"
        )
    print(f"  speed-up on 2 workers: {rates[2] / rates[1]:.2f}x")
    text = Path("examples/wasteland.yaml").read_text()
    lab_sim._PARSED.clear()
    t0 = time.perf_counter()
    simulate(text, "wasteland", args.wasteland_fights, seed=1)
    dt = time.perf_counter() - t0
    print(
        f"(c) fracas lab sim on examples/wasteland.yaml: {args.wasteland_fights / dt:.2f} "
        f"fights/s on 1 worker ({args.wasteland_fights} fights in {dt:.1f} s)"
    )
    dask_overhead(args.dask_chunks)


def dask_overhead(chunks: int) -> None:
    """(d) Dask's overhead per chunk: the same chunks on a one-worker LocalCluster and in
    this process (a short duel, so the chunks' own work is small)."""
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
