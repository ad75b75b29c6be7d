"""wasteland: seeded samples agree with the exact odds, and AP never goes negative.

* 20,000 seeded called shots (WL-6 to WL-18: roll vs Evasion, CRIT dice, DT, DR) played
  through the ruleset's own resolution, against the exact damage distribution of
  ``fracas odds`` (chi-square with cells of expected count < 5 merged), and the same
  samples rejected against the odds of a target one Evasion point harder to hit.
* Random turns of attacks, moves and turn ends (hypothesis): AP and MAP stay >= 0
  (WL-2, WL-3, WL-5); refused actions are skipped.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.dice.source import RandomDice
from fracas.engine.play import Engine, plan
from fracas.errors import FracasError
from fracas.model import Action, Damaged
from fracas.odds.action import action_odds
from tests.helpers import load_text
from tests.rulesets.builders import merged_chisquare
from tests.rulesets.wasteland.support import PISTOL, SMG, act, doc, who

SAMPLES = 20_000


def _called_shot(evasion_mod: int) -> tuple[Any, Any, Action]:
    d = doc(
        who("a", weapons=[{**PISTOL, "damage": "1d10"}], skills={"guns": 3}, agi_mod=1),
        who("b", at=(3, 0), evasion_mod=evasion_mod, dt={"physical": 1}, dr={"physical": 20}),
        actions=[act("a", "attack", "b", called="torso")],
    )
    ef = load_text(json.dumps(d))
    engine = Engine(ef.ruleset, ef.start, ef.seed)
    engine.begin(ef.dice, ef.order)
    return ef, engine.state, ef.actions[-1]


def test_WL_6_to_WL_18_sampled_called_shots_fit_the_exact_odds() -> None:
    ef, state, action = _called_shot(0)
    exact = action_odds(ef.ruleset, state, action)
    dist = exact.combatants["b"].damage
    assert len(dist) > 5
    dice = RandomDice(20_261_130)
    counts: Counter[int] = Counter()
    for _ in range(SAMPLES):
        dealt = sum(
            e.amount for e in plan(ef.ruleset, state, action, dice) if isinstance(e, Damaged)
        )
        counts[dealt] += 1
    # Paths cut at the odds depth carry tiny mass; compare conditional on finishing.
    total = sum(dist.values())
    conditional = {k: v / total for k, v in dist.items()}
    assert merged_chisquare(counts, conditional) > 0.001
    _, harder_state, harder_action = _called_shot(1)
    wrong = action_odds(ef.ruleset, harder_state, harder_action).combatants["b"].damage
    wrong_total = sum(wrong.values())
    assert merged_chisquare(counts, {k: v / wrong_total for k, v in wrong.items()}) < 1e-6


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**16),
    moves=st.lists(
        st.tuples(
            st.sampled_from(["a", "b"]),
            st.sampled_from(["attack", "burst", "move", "end_turn"]),
            st.integers(0, 6),
        ),
        max_size=12,
    ),
)
def test_WL_2_WL_5_ap_and_map_never_negative(seed: int, moves: list[tuple[str, str, int]]) -> None:
    d = doc(
        who("a", weapons=[SMG], skills={"guns": 2}, max_map=2),
        who("b", at=(4, 0), weapons=[PISTOL], skills={"guns": 1}),
        seed=seed,
    )
    ef = load_text(json.dumps(d))
    engine = Engine(ef.ruleset, ef.start, ef.seed)
    engine.begin(ef.dice, ef.order)
    for actor, kind, n in moves:
        other = "b" if actor == "a" else "a"
        if kind == "attack":
            action = Action(actor, "attack", other)
        elif kind == "burst":
            action = Action(actor, "attack", other, params={"burst": True})
        elif kind == "move":
            at = engine.state.get(actor).at or (0, 0)
            action = Action(actor, "move", params={"to": (at[0], at[1] + 1), "ap": n})
        else:
            action = Action(actor, "end_turn")
        try:
            engine.act(action)
        except FracasError:
            continue
        for c in engine.state.combatants.values():
            assert c.sheet.ap is None or c.sheet.ap >= 0
            assert c.sheet.map is None or c.sheet.map >= 0
