"""Issue 34: the win bar's fights played on the other core (:mod:`fracas.lab.alongside`)
while the bar's worker grows the chain. The bar's answers are those of the fights played
in the worker: the same tally, fight by fight, the same final figure; the forked process
ends with the state it plays, and where it fails the worker plays the fights itself."""

from __future__ import annotations

import multiprocessing
from pathlib import Path
from typing import Any

import pytest

import fracas.lab.alongside
from fracas.io.files import parse_text
from fracas.lab.bar import WinBar, bar_slice
from fracas.lab.fight import canonical, file_start
from fracas.lab.keep import kept
from fracas.lab.sim import Tally
from fracas.model import Encounter

ROOT = Path(__file__).parents[2]


def _slices(key: str, name: str, *, alongside: bool, **limits: Any) -> tuple[list[WinBar], Any]:
    """Every slice of the bar of the example's state until final (the same seed)."""
    ef = parse_text((ROOT / "examples" / name).read_text(), name)
    keep = kept(key, ef.ruleset, ef.tactics)
    state = file_start(ef)
    bars = []
    for _ in range(200):
        bar = bar_slice(keep, state, seed=3, seconds=30.0, alongside=alongside, **limits)
        bars.append(bar)
        if bar.final:
            return bars, keep
    raise AssertionError("no final bar")


def _fights_children() -> list[Any]:
    return [p for p in multiprocessing.active_children() if p.name == "fracas-bar-fights"]


def test_the_fights_played_alongside_are_those_played_in_the_worker() -> None:
    """The chain given up at once (5 states): the bar is the estimate of 60 fights, the
    same figure, interval and tally whether the worker played them or its forked
    process did; the process is gone once the bar is final."""
    limits = {"max_states": 5, "fights": 60, "slice_fights": 20, "slice_states": 300}
    here, _ = _slices("alongside-here", "dice-combat.yaml", alongside=False, **limits)
    there, keep = _slices("alongside-there", "dice-combat.yaml", alongside=True, **limits)
    assert here[-1].method == there[-1].method == "estimate"
    assert here[-1].to_json() == there[-1].to_json()
    assert there[-1].fights == 60 and min(there[-1].sides.values()) > 0  # both win some
    resting(keep)


def test_a_chain_that_ends_gives_the_same_exact_bar_and_stops_the_fights() -> None:
    """The tier-duel example's chain ends within the slices: exact, the same values with
    the fights played alongside, and the forked process stopped with it."""
    limits = {"slice_fights": 20, "slice_states": 300}
    here, _ = _slices("alongside-exact-here", "tier-duel.yaml", alongside=False, **limits)
    there, keep = _slices("alongside-exact-there", "tier-duel.yaml", alongside=True, **limits)
    assert here[-1].method == there[-1].method == "exact"
    assert here[-1].to_json() == there[-1].to_json()
    resting(keep)


def resting(keep: Any) -> None:
    """The bar is final: the process rests (alive, for the next state's fights, its
    caches warm), and it ends when told."""
    helper = keep.alongside
    assert helper is not None and helper.root is None and len(_fights_children()) == 1
    keep.stop_alongside()
    assert keep.alongside is None and not _fights_children()


def test_a_new_state_is_played_by_the_same_process() -> None:
    """The table moved on: the next slice, of another state, gives the same process the
    new state (what it learnt of the fight serves it); a fight of the state before that
    still comes is not counted for the new one."""
    ef = parse_text((ROOT / "examples" / "dice-combat.yaml").read_text(), "dice-combat.yaml")
    keep = kept("alongside-moved-on", ef.ruleset, ef.tactics)
    state = file_start(ef)
    bar_slice(keep, state, seed=1, seconds=0.3, max_states=5, alongside=True)
    helper = keep.alongside
    assert helper is not None and helper.root == canonical(state)
    process = helper._proc
    moved: Encounter = ef.start
    bar = bar_slice(keep, moved, seed=1, seconds=0.3, max_states=5, alongside=True)
    assert keep.alongside is helper and process.is_alive()
    assert helper.root == canonical(moved)
    assert keep.tally(canonical(moved)).fights == bar.fights
    keep.stop_alongside()
    assert not process.is_alive() and not _fights_children()


def test_where_the_forked_process_fails_the_worker_plays_the_fights(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A process whose fights fail sends nothing and ends: the slices play the fights
    themselves (where a failure would be said), and the bar is the same."""

    def broken(*args: Any, **kwargs: Any) -> Tally:
        raise RuntimeError("a fight that fails")

    limits = {"max_states": 5, "fights": 40, "slice_fights": 20, "slice_states": 300}
    here, _ = _slices("alongside-broken-here", "dice-combat.yaml", alongside=False, **limits)
    monkeypatch.setattr(fracas.lab.alongside, "play", broken)  # the forked copy's play
    there, keep = _slices("alongside-broken-there", "dice-combat.yaml", alongside=True, **limits)
    assert here[-1].to_json() == there[-1].to_json() and there[-1].fights == 40
    assert keep.alongside is None and keep.alongside_failed and not _fights_children()


def test_a_slice_waiting_for_fights_answers_once_a_page_would_show_a_figure() -> None:
    """The chain given up, a slice waits for the fights played alongside for up to its
    seconds (here 30), but answers at once when the estimate first comes within ±10
    points (the width a page first shows a figure at): not final, far from its cap
    (waiting its 30 s, it would have reached ±1 and been final)."""
    ef = parse_text((ROOT / "examples" / "dice-combat.yaml").read_text(), "dice-combat.yaml")
    keep = kept("alongside-shown", ef.ruleset, ef.tactics)
    state = file_start(ef)
    limits: dict[str, Any] = {"max_states": 5, "fights": 20_000, "seconds": 30.0}
    bar = bar_slice(keep, state, seed=2, alongside=True, **limits)  # the chain given up
    while bar.fights == 0 or max(hi - lo for lo, hi in bar.ci95.values()) / 2 > 0.10:
        bar = bar_slice(keep, state, seed=2, alongside=True, **limits)
    assert not bar.final and bar.fights < 2_000
    keep.stop_alongside()
    assert not _fights_children()
