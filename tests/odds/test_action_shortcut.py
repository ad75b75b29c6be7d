"""Dice a ruleset declares irrelevant to the odds (``DieSpec.odds_relevant=False``) really are.

The exact odds skip branching on such dice. Here the skipped and the full
enumerations are compared on encounters where the die could matter if the
declaration were wrong: nearly empty guns, every gun class, every crit profile.
"""

from __future__ import annotations

import pytest

from fracas.engine.play import Engine
from fracas.odds.action import action_odds
from fracas.rulesets import RULESETS
from tests.helpers import load_text

GUNS = ["pistol", "smg", "rifle", "machine_gun", "sawn_off_rifle"]


def test_dice_combat_declares_ammo_irrelevant() -> None:
    """DC-9: damage does not depend on rounds fired, so the ammo d3 is declared irrelevant."""
    ruleset = next(r for r in RULESETS if r.about.name == "dice-combat")
    skipped = {d.label for d in ruleset.contract.dice if not d.odds_relevant}
    assert skipped == {"ammo"}


@pytest.mark.parametrize("gun", GUNS)
@pytest.mark.parametrize("loaded", [1, 2, 3])
@pytest.mark.parametrize("crit", ["normal", "wildcard"])
@pytest.mark.parametrize("ammo_on_miss", [True, False])
def test_skipping_ammo_die_changes_no_odds(
    gun: str, loaded: int, crit: str, ammo_on_miss: bool
) -> None:
    ef = load_text(f"""
        ruleset: dice-combat
        options: {{ammo_on_miss: {str(ammo_on_miss).lower()}}}
        seed: 3
        combatants:
          - {{id: ana, at: [0, 0], crit: {crit}, hand: {{is: {gun}, loaded: {loaded}}}}}
          - {{id: bo, at: [4, 0], hp: 4, crit: {crit}}}
        actions:
          - {{actor: ana, do: attack, target: bo}}
        """)
    engine = Engine(ef.ruleset, ef.start, ef.seed)
    engine.begin()
    fast = action_odds(ef.ruleset, engine.state, ef.actions[0])
    full = action_odds(ef.ruleset, engine.state, ef.actions[0], shortcut=False)
    assert fast.combatants == full.combatants
    # Every path rolls the ammo d3 right after the attack d20: the full tree is 3 times wider.
    assert full.paths == 3 * fast.paths
