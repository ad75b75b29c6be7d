"""The lab's chain key (``fracas.lab.keys.chain_key``): dice-combat keys a magazine that
reloads for free (DC-10) as full, and the chain's odds stay exactly those of the chain
that follows every magazine count."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from fracas.io.files import load, parse_text
from fracas.lab.chain import win_odds
from fracas.lab.fight import file_start
from fracas.lab.keys import chain_key
from fracas.model import Encounter
from fracas.rulesets.base import Ruleset

EXAMPLES = sorted(Path("examples").glob("*.yaml"))

FIGHTS = {
    "pistols half empty": """
ruleset: dice-combat
order: [ana, bo]
combatants:
  - {id: ana, name: Ana, side: a, at: [0, 0], hp: 5, hand: {is: pistol, loaded: 1}}
  - {id: bo, name: Bo, side: b, at: [3, 0], hp: 6, hand: {is: pistol, loaded: 3}}
""",
    "smg and club, hits only spend rounds": """
ruleset: dice-combat
options: {ammo_on_miss: false, machine_pistol: smg}
order: [ana, bo, cy]
combatants:
  - {id: ana, name: Ana, side: a, at: [0, 0], hp: 4, hand: {is: smg, loaded: 2}}
  - {id: bo, name: Bo, side: b, at: [1, 0], hp: 5, hand: club}
  - {id: cy, name: Cy, side: b, at: [5, 0], hp: 3, hand: {is: pistol, loaded: 0}}
""",
    "a crossbow's reload is the action": """
ruleset: dice-combat
order: [ana, bo]
combatants:
  - {id: ana, name: Ana, side: a, at: [0, 0], hp: 4, hand: {is: crossbow, loaded: 1}}
  - {id: bo, name: Bo, side: b, at: [4, 0], hp: 5, hand: {is: pistol, loaded: 2}}
""",
}


def _identity(rules: Ruleset, state: Encounter) -> Encounter:
    return state


@pytest.mark.parametrize("name", FIGHTS)
def test_dc10_free_reload_keyed_full_gives_the_exact_odds_of_every_count(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ef = parse_text(FIGHTS[name], name)
    start = file_start(ef)
    keyed = win_odds(ef.ruleset, start)
    with monkeypatch.context() as m:
        contract = dataclasses.replace(ef.ruleset.contract, chain_key=_identity)
        m.setattr(type(ef.ruleset), "contract", contract)
        every = win_odds(ef.ruleset, start)
    assert keyed.sides == every.sides
    assert keyed.draw == every.draw
    assert keyed.rounds_mean == every.rounds_mean
    assert keyed.states < every.states  # the magazines' counts are one state now


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_chain_key_keeps_what_the_rules_read(path: Path) -> None:
    """Every ruleset's key of an example's start is a state of the same combatants,
    HPs, positions and turn (only what the ruleset declares equivalent may change)."""
    ef = load(path)
    start = file_start(ef)
    key = chain_key(ef.ruleset, start)
    assert key.turn == start.turn and key.round == start.round
    for cid, c in start.combatants.items():
        k = key.get(cid)
        assert (k.hp, k.max_hp, k.at, k.statuses, k.side) == (
            c.hp,
            c.max_hp,
            c.at,
            c.statuses,
            c.side,
        )
    assert chain_key(ef.ruleset, key) == key  # keyed once is keyed


def test_dc10_the_key_fills_a_pistol_and_leaves_a_crossbow() -> None:
    ef = parse_text(FIGHTS["a crossbow's reload is the action"], "x")
    start = file_start(ef)
    key = chain_key(ef.ruleset, start)
    assert key.get("bo").sheet.hand.loaded == 8  # a pistol's capacity (2.2)
    assert key.get("ana").sheet.hand.loaded == 1
    empty = parse_text(
        FIGHTS["a crossbow's reload is the action"].replace("loaded: 1", "loaded: 0"), "y"
    )
    assert chain_key(ef.ruleset, file_start(empty)).get("ana").sheet.hand.loaded == 0
