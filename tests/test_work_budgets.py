"""Budgets of work, not of wall time (issue 34, item 1): the odds of an action, the odds
of every choice, ``fracas lab win``, the win bar and the advisor bound their work in
dice paths, samples, chain states and fights, with a fixed seed, so the same question
gets the same answer on a quiet and on a busy machine. The wall time is only an outer
bound, and an answer it cuts says so ("cut by the time limit").

The busy machine here is real: processes spinning on every core while the question is
asked again (CI's machine has two). No assertion is on a time.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fracas.io.files import parse_text
from fracas.lab.advisor import advise
from fracas.lab.bar import SLICE, bar_slice
from fracas.lab.fight import file_start
from fracas.lab.keep import Kept
from fracas.lab.policy import Policy
from fracas.lab.win import win
from fracas.odds.action import ODDS_PATHS, ODDS_SAMPLES, action_odds
from tests.helpers import cli, cli_json
from tests.lab.duels import DC_MELEE, DC_PISTOL, duel
from tests.odds.support import burst

EXAMPLES = Path(__file__).parent.parent / "examples"


@contextlib.contextmanager
def busy() -> Iterator[None]:
    """Every core of the machine spinning in another process meanwhile (one spinner a
    core: more would take more of the CPU from the tests beside these on CI's two
    workers, and make it no busier for the question asked)."""
    spinners = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"])
        for _ in range(os.cpu_count() or 1)
    ]
    try:
        yield
    finally:
        for p in spinners:
            p.kill()
        for p in spinners:
            p.wait()


def _win_json(text: str, **how: Any) -> dict[str, Any]:
    data = win(text, "duel.yaml", **how).to_json()
    del data["seconds"]  # how long it took: the one figure the load may change
    return data


# --- the odds of one action -----------------------------------------------------------


def test_the_odds_of_a_heavy_action_are_the_same_on_a_busy_machine() -> None:
    # WL-15: a free 25-shot burst (about 20**24 dice paths) is past the work budget: an
    # estimate of exactly ODDS_SAMPLES seeded samples, whatever the load; a 3-shot burst
    # with its locations given (2,291 paths over its steps, its harm one step per sum of
    # its hits) is exact, whatever the load.
    heavy = burst(25)
    located = burst(3, {"location:1": 5, "location:2": 3, "location:3": 1})
    quiet = [action_odds(*heavy, seed=3), action_odds(*located, seed=3)]
    with busy():
        loud = [action_odds(*heavy, seed=3), action_odds(*located, seed=3)]
    assert loud == quiet
    estimate, exact = quiet
    assert estimate.estimate is not None and estimate.estimate.samples == ODDS_SAMPLES
    assert not estimate.cut_by_time and f"more than {ODDS_PATHS:,} dice paths" in estimate.why
    assert exact.estimate is None and exact.paths == 2_291


def test_odds_cut_by_the_time_limit_say_so() -> None:
    # The same burst, its estimate cut by a millisecond's bound: fewer samples than its
    # budget (at least 50), and said; in JSON too.
    odds = action_odds(*burst(25), seconds=0.001, samples=1_000_000)
    assert odds.cut_by_time and odds.estimate is not None
    assert 50 <= odds.estimate.samples < 1_000_000
    assert "cut by the time limit" in odds.why
    data = odds.to_json()["estimate"]
    assert data["cut_by_time"] is True and "cut by the time limit" in data["why"]


# --- fracas lab win ---------------------------------------------------------------------


def test_lab_win_is_the_same_with_busy_cores_in_between() -> None:
    # An exact chain (a pistol duel) and an estimate (a melee duel whose chain is given
    # up at 5 states: 300 seeded fights on two workers, the other core playing ahead
    # while the chain is tried), asked on a quiet machine, then again on a busy one.
    exact_text, estimate_text = duel(DC_PISTOL, 6, 6), duel(DC_MELEE, 8, 8)
    estimated = {"max_states": 5, "fights": 300, "seed": 2, "workers": 2}
    quiet = [_win_json(exact_text), _win_json(estimate_text, **estimated)]
    with busy():
        loud = [_win_json(exact_text), _win_json(estimate_text, **estimated)]
    assert loud == quiet
    exact, estimate = quiet
    assert exact["method"] == "exact" and exact["cut_by_time"] is False
    assert estimate["method"] == "estimate" and estimate["fights"] == 300
    assert estimate["cut_by_time"] is False and estimate["precise"] is False
    assert "more than 5 states" in estimate["why"]


def test_the_command_line_gives_the_same_json_quiet_and_busy(tmp_path: Path) -> None:
    path = tmp_path / "duel.yaml"
    path.write_text(duel(DC_MELEE, 6, 6), encoding="utf-8")
    args = ("lab", "win", str(path), "--json", "--max-states", "5", "--fights", "100")
    quiet = cli_json(*args)
    with busy():
        loud = cli_json(*args)
    for data in (quiet, loud):
        del data["seconds"]
    assert loud == quiet and quiet["fights"] == 100


def test_lab_win_cut_by_the_time_limit_says_so(tmp_path: Path) -> None:
    # escalation's example: its chain does not end within two seconds (tens of
    # thousands of states), nor do a million fights: both are cut by the 2 s bound, and
    # said. (1 s left no fight ended at all once on CI's busy two cores: 173 end in 1 s
    # on a quiet machine, after the chain's share.)
    path = EXAMPLES / "escalation.yaml"
    args = ["lab", "win", str(path), "--seconds", "2", "--max-states", "10000000"]
    result = cli(*args, "--fights", "1000000")
    assert result.exit_code == 0, result.stderr
    assert "ESTIMATE from" in result.stdout
    assert "cut by the time limit" in result.stdout
    data = json.loads(cli(*args, "--fights", "1000000", "--json").stdout)
    assert data["method"] == "estimate" and data["cut_by_time"] is True
    assert data["why"].startswith("cut by the time limit")
    assert data["fights"] < 1_000_000


# --- the win bar and the advisor ------------------------------------------------------


def _slices(text: str, *, seconds: float, **limits: Any) -> tuple[dict[str, Any], int, bool]:
    """The bar of the file's start slice after slice until final (a fresh worker's
    caches): its JSON, the slices taken, and whether the clock cut any."""
    ef = parse_text(text, "duel.yaml")
    keep = Kept(ef.ruleset, ef.tactics, Policy(ef.ruleset, ef.tactics))
    state = file_start(ef)
    cut = False
    for n in range(1, 20_000):
        bar = bar_slice(keep, state, seconds=seconds, **SLICE, **limits)
        cut = cut or bar.cut_by_time
        if bar.final:
            data = bar.to_json()
            del data["cut_by_time"]
            return data, n, cut
    raise AssertionError("the bar never ended")


@pytest.mark.parametrize(
    ("text", "limits"),
    [
        (duel(DC_PISTOL, 6, 6), {}),  # the chain, exact
        (duel(DC_MELEE, 6, 6), {"max_states": 5, "fights": 120}),  # fights, an estimate
    ],
    ids=["exact", "estimate"],
)
def test_the_bars_final_answer_is_the_same_however_its_slices_were_cut(
    text: str, limits: dict[str, Any]
) -> None:
    # Slices of work (chain states, fights seeded by their number) under a generous
    # bound, and under one so short that the clock cuts slices: the next slice takes up
    # what the last left (the chain where it stopped, a dropped fight with its seed), so
    # the final bar is the same; only the number of slices differs.
    roomy, _, roomy_cut = _slices(text, seconds=60.0, **limits)
    tight, slices, tight_cut = _slices(text, seconds=0.002, **limits)
    assert tight == roomy
    assert not roomy_cut and tight_cut and slices > 1
    assert roomy["method"] == ("exact" if not limits else "estimate")


def test_the_advice_is_the_same_on_a_busy_machine() -> None:
    text = duel(DC_PISTOL, 6, 6)
    ef = parse_text(text, "duel.yaml")
    state = file_start(ef)

    def asked() -> dict[str, Any]:
        keep = Kept(ef.ruleset, ef.tactics, Policy(ef.ruleset, ef.tactics))
        return advise(keep, state, seed=1).to_json(state)

    quiet = asked()
    with busy():
        loud = asked()
    assert loud == quiet
    assert quiet["cut_by_time"] is False and quiet["method"] == "exact"
