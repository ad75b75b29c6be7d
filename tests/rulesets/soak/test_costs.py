"""Issue 35, item 7: soak's attack cost before any die, from its decision (SK-1, SK-G1:
AP per turn, a weapon's AP), as ``Ruleset.costs`` gives it to the page."""

from __future__ import annotations

from pathlib import Path

from fracas.model import Action
from fracas.rulesets.base import Cost, costs_of
from tests.helpers import play

START = (Path(__file__).parents[3] / "examples" / "start" / "soak.yaml").read_text()


def test_SK_1_an_attacks_ap_cost_and_what_is_left() -> None:
    p = play(START)
    assert p.error is None and p.state.turn.actor == "mara"
    ruleset, state = p.file.ruleset, p.state
    # Finn's bow at the Brute: 1 AP of 3
    assert costs_of(ruleset, state, Action("finn", "attack", "brute")) == (
        Cost("finn", "AP", 1, 3, 2),
    )
    assert costs_of(ruleset, state, Action("mara", "attack", "brute")) == ()  # out of reach
