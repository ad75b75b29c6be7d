"""The odds of every choice (issue "exact odds at hover speed", item 5): each action
the current actor may take now on each target and each tile that matters, equal to the
odds of that action alone, fastest first, within a budget of work (issue 34: dice
paths, then samples; the wall time only an outer bound), cancellable."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from fracas.engine.play import Engine
from fracas.errors import FracasError
from fracas.odds.action import action_odds
from fracas.odds.choices import choice_odds, choices_now
from tests.helpers import cli, load_text

MOLOTOV = """\
ruleset: dice-combat
round: 2
combatants:
  - {id: ana, at: [0, 0], hand: molotov}
  - {id: bo, at: [3, 0]}
  - {id: cy, at: [3, 1]}
  - {id: dee, at: [4, 0]}
"""
PISTOL = """\
ruleset: dice-combat
combatants:
  - {id: ana, at: [0, 0], hand: pistol}
  - {id: bo, at: [3, 0]}
  - {id: cy, at: [2, 2], hand: club}
"""


def start(text: str) -> tuple[object, Engine]:
    ef = load_text(text)
    engine = Engine(ef.ruleset, ef.start, 1)
    engine.begin(ef.dice, ef.order)
    return ef.ruleset, engine


def test_every_choice_equals_the_odds_of_that_action_alone() -> None:
    ruleset, engine = start(PISTOL)
    found = list(choice_odds(ruleset, engine.state, seconds=30))  # type: ignore[arg-type]
    # DC-15: a pistol cannot be thrown; no explosive, so no tile.
    assert {(c.action.do, c.action.target) for c in found} == {("attack", "bo"), ("attack", "cy")}
    for c in found:
        alone = action_odds(ruleset, engine.state, c.action, seconds=None)  # type: ignore[arg-type]
        assert c.odds.estimate is None and c.odds.combatants == alone.combatants


def test_DC_31_an_explosive_is_tried_at_every_tile_that_matters() -> None:
    ruleset, engine = start(MOLOTOV)
    actions = choices_now(ruleset, engine.state)  # type: ignore[arg-type]
    tiles = {a.at for a in actions if a.at is not None}
    # Each creature's tile and its neighbours (within the Molotov's reach of ana).
    assert {(3, 0), (3, 1), (4, 0), (2, 0), (4, 1), (5, 0)} <= tiles
    assert {a.target for a in actions if a.target is not None} >= {"bo", "cy", "dee"}


def test_past_the_budget_the_slow_choices_come_last_as_marked_estimates() -> None:
    # Forced by work: a first pass of 400 dice paths a choice (DC-31's Molotov at some
    # tiles takes more), then estimates of exactly 300 samples, the same twice.
    ruleset, engine = start(MOLOTOV)
    runs = [
        list(choice_odds(ruleset, engine.state, first_paths=400, samples=300))  # type: ignore[arg-type]
        for _ in range(2)
    ]
    found = runs[0]
    assert runs[1] == found
    assert len(found) == len(choices_now(ruleset, engine.state))  # type: ignore[arg-type]
    kinds = [c.odds.estimate is not None for c in found]
    assert any(kinds) and not all(kinds)
    assert kinds == sorted(kinds)  # every exact answer before every estimate
    for c in found:
        if c.odds.estimate is not None:
            assert c.odds.estimate.samples == 300 and not c.odds.cut_by_time
            assert "more than 400 dice paths" in c.odds.why
        else:
            assert c.odds.paths <= 400


def test_past_the_wall_time_bound_the_choices_are_estimates_cut_by_time() -> None:
    ruleset, engine = start(MOLOTOV)
    found = list(choice_odds(ruleset, engine.state, seconds=0.001, samples=100_000))  # type: ignore[arg-type]
    assert len(found) == len(choices_now(ruleset, engine.state))  # type: ignore[arg-type]
    cut = [c for c in found if c.odds.cut_by_time]
    assert cut
    for c in cut:
        assert c.odds.estimate is not None and 50 <= c.odds.estimate.samples < 100_000
        assert "cut by the time limit" in c.odds.why


def test_a_cancelled_request_stops() -> None:
    ruleset, engine = start(MOLOTOV)
    stop = threading.Event()
    stop.set()
    with pytest.raises(FracasError) as info:
        list(choice_odds(ruleset, engine.state, seconds=30, cancel=stop))  # type: ignore[arg-type]
    assert info.value.code == "cancelled"


def test_cli_odds_choices(tmp_path: Path) -> None:
    path = tmp_path / "pistol.yaml"
    path.write_text(PISTOL, encoding="utf-8")
    text = cli("odds", "--choices", str(path))
    assert text.exit_code == 0, text.stderr
    assert "Odds of every choice of ana" in text.stdout
    assert "attack bo (exact)" in text.stdout
    data = json.loads(cli("odds", "--choices", "--json", "--budget", "5000", str(path)).stdout)
    assert data["actor"] == "ana"
    got = {c["action"]["target"]: c["odds"] for c in data["choices"]}
    assert set(got) == {"bo", "cy"}
    alone = json.loads(cli("odds", "--json", str(_with_action(tmp_path, "bo"))).stdout)
    assert got["bo"]["exact"] == alone["exact"]


def _with_action(tmp_path: Path, target: str) -> Path:
    path = tmp_path / f"attack-{target}.yaml"
    path.write_text(
        PISTOL + f"actions:\n  - {{actor: ana, do: attack, target: {target}}}\n", encoding="utf-8"
    )
    return path
