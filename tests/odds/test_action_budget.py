"""Exact odds are bounded: by work (dice paths, then a fixed number of samples), with
the wall time only an outer bound whose cuts are said, and they can be cancelled
(README "Command line", ``fracas odds --max-paths``, ``--samples``, ``--seconds``).

A wasteland burst of 25 or 50 shots (WL-15: one to-hit d20 per shot, each hit its own
location and damage) once ran for a quarter of an hour: every dice path is cut at the
ruleset's depth, and cut paths counted against no budget. Timing assertions are not
made here; the budgets are small so that a refusal comes fast.
"""

from __future__ import annotations

import itertools
import json
import threading
from pathlib import Path

import pytest

from fracas.errors import FracasError
from fracas.odds.action import action_odds
from tests.helpers import cli
from tests.odds.support import burst

NEVER = 10**40
"""A path budget no enumeration reaches: only the clock or the caller can stop it."""


@pytest.mark.parametrize("shots", [25, 50])
def test_WL_15_long_free_burst_is_refused_by_the_time_budget(shots: int) -> None:
    ruleset, state, action = burst(shots)
    with pytest.raises(FracasError) as info:
        action_odds(ruleset, state, action, seconds=0.5, max_paths=NEVER, estimate=False)
    assert info.value.code == "too_slow"
    message = info.value.message
    assert "cut by the time limit" in message
    assert "within 0.5 s" in message
    assert "dice paths, " in message  # how far it got
    assert "attack:1, attack:2, attack:3" in message  # what would help: give those dice
    assert "fewer shots" in message


@pytest.mark.parametrize("shots", [25, 50])
def test_WL_15_long_free_burst_is_refused_by_the_path_budget_after_little_work(
    shots: int,
) -> None:
    # Cut paths count: after 1,000 of them the estimate (about 20**24 paths) refuses.
    # The work is counted, not timed: the cancel hook is looked at every 8 replays (and
    # every 8 descents of the estimate), so the looks bound the replays made. Before,
    # the first estimate came after 20,000 replays (2,500 looks; 6 s of a 50-shot burst).
    ruleset, state, action = burst(shots)
    looks = itertools.count(1)
    with pytest.raises(FracasError) as info:
        action_odds(
            ruleset, state, action, seconds=None, estimate=False,
            cancel=lambda: next(looks) < 0,
        )  # fmt: skip
    assert info.value.code == "too_many_paths"
    assert "by estimate" in info.value.message
    assert "attack:1" in info.value.message
    assert next(looks) <= (1_000 + 100) // 8 + 2


def test_odds_cancelled_from_another_thread() -> None:
    ruleset, state, action = burst(25)
    stop = threading.Event()
    timer = threading.Timer(0.2, stop.set)
    timer.start()
    try:
        with pytest.raises(FracasError) as info:
            action_odds(ruleset, state, action, seconds=120, max_paths=NEVER, cancel=stop)
    finally:
        timer.cancel()
    assert info.value.code == "cancelled"
    assert "dice paths replayed" in info.value.message


def test_odds_cancelled_by_a_callable() -> None:
    ruleset, state, action = burst(3)
    looks = itertools.count()
    with pytest.raises(FracasError) as info:
        action_odds(ruleset, state, action, seconds=None, cancel=lambda: next(looks) >= 3)
    assert info.value.code == "cancelled"


def test_a_cancel_hook_that_never_fires_changes_nothing() -> None:
    # WL-15: a 3-shot burst with every location and damage given (8,115 paths).
    dice = {f"{k}:{n}": v for n in (1, 2, 3) for k, v in (("location", 5), ("damage", 3))}
    ruleset, state, action = burst(3, dice)
    plain = action_odds(ruleset, state, action)
    hooked = action_odds(ruleset, state, action, cancel=threading.Event())
    assert hooked == plain
    assert hooked.paths <= 19 * 20 * 20 + 23 * 5  # die by die at most


LONG_BURST = """\
ruleset: wasteland
seed: 1
order: [a, b]
combatants:
  - {id: a, at: [0, 0], skills: {guns: 2}, weapons: [{name: mg, damage: 1d6, ap: 3, burst: 25}]}
  - {id: b, at: [3, 0]}
actions:
  - {actor: a, do: attack, target: b, burst: true}
"""


def test_cli_odds_past_the_path_budget_gives_a_marked_estimate_of_so_many_samples(
    tmp_path: Path,
) -> None:
    # WL-15: a 25-shot burst has about 20**24 dice paths: past the budget of work a
    # seeded Monte Carlo estimate answers instead of a refusal, said to be one, with
    # 95% intervals, of exactly the samples asked (work, not time: the same answer twice).
    path = tmp_path / "burst.yaml"
    path.write_text(LONG_BURST, encoding="utf-8")
    result = cli("odds", "--samples", "300", str(path))
    assert result.exit_code == 0, result.stderr
    assert "ESTIMATE from 300 random fights" in result.stdout
    assert "not exact: more than 30,000 dice paths" in result.stdout
    assert "cut by the time limit" not in result.stdout
    runs = [cli("odds", "--samples", "300", "--json", str(path)) for _ in range(2)]
    data = json.loads(runs[0].stdout)
    assert runs[1].stdout == runs[0].stdout
    assert "exact" not in data
    est = data["estimate"]
    assert est["samples"] == 300 and est["seed"] == 1 and est["cut_by_time"] is False
    lo, hi = est["ci95"]["b"]["hit"]
    assert 0 <= lo <= data["combatants"]["b"]["hit"] <= hi <= 1
    assert sum(data["combatants"]["b"]["damage"].values()) == pytest.approx(1)


def test_cli_odds_cut_by_the_time_limit_says_so(tmp_path: Path) -> None:
    # The same burst under a 1 ms bound on wall time: fewer samples than asked (at
    # least 50), and the answer says the clock cut it.
    path = tmp_path / "burst.yaml"
    path.write_text(LONG_BURST, encoding="utf-8")
    result = cli("odds", "--budget", "1", "--samples", "100000", str(path))
    assert result.exit_code == 0, result.stderr
    assert "ESTIMATE from" in result.stdout
    assert "cut by the time limit" in result.stdout
    data = json.loads(
        cli("odds", "--budget", "1", "--samples", "100000", "--json", str(path)).stdout
    )
    est = data["estimate"]
    assert est["cut_by_time"] is True and "cut by the time limit" in est["why"]
    assert 50 <= est["samples"] < 100_000


def test_WL_15_estimate_brackets_the_exact_odds_of_a_short_burst() -> None:
    # A 2-shot burst is exact within the default budget; its estimate (forced by a tiny
    # path budget) takes exactly the samples asked and brackets the exact hit chance and
    # mean damage in its 95% intervals.
    ruleset, state, action = burst(2)
    exact = action_odds(ruleset, state, action, seconds=None)
    assert exact.estimate is None
    guess = action_odds(ruleset, state, action, seconds=None, max_paths=5, samples=10_000)
    assert guess.estimate is not None and guess.estimate.samples == 10_000
    assert not guess.cut_by_time and "more than 5 dice paths" in guess.why
    b = guess.estimate.intervals["b"]
    lo, hi = b["hit"] or (0.0, 0.0)
    assert lo <= float(exact.combatants["b"].hit or 0) <= hi
    lo, hi = b["mean"] or (0.0, 0.0)
    assert lo <= float(exact.combatants["b"].mean) <= hi


@pytest.mark.parametrize("value", ["0", "-1", "soon"])
def test_cli_odds_seconds_must_be_a_positive_number(tmp_path: Path, value: str) -> None:
    path = tmp_path / "burst.yaml"
    path.write_text(LONG_BURST, encoding="utf-8")
    result = cli("odds", "--seconds", value, str(path))
    assert result.exit_code == 2
    assert "--seconds" in result.stderr


@pytest.mark.parametrize(
    ("k", "n"), [(0, 50), (0, 11), (6, 6), (21, 21), (485, 485), (3, 10), (200, 201)]
)
def test_an_estimates_95_interval_holds_its_frequency(k: int, n: int) -> None:
    from fracas.odds.action import _wilson

    lo, hi = _wilson(k, n)
    assert 0 <= lo <= k / n <= hi <= 1
