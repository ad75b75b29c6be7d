"""Inputs that broke fracas (issue 20), kept in ``tests/data/repros/`` as the shared
repros folder gave them, each with what it must do now: a result, or one error line.

* ``soak-proficient-elsewhere.yaml``: a proficiency in a weapon type the character does
  not carry was refused (``unknown_proficiency``); soak.md 2.1 makes ``proficiencies`` a
  set of free weapon types, and SK-7/SK-8 only ask whether the weapon's type is in it.
* ``wasteland-riposte-unhashable.yaml``: an unarmed riposte that hits crashed
  (``TypeError: unhashable type: 'dict'``): the built-in unarmed weapon was the one
  value of the rules not frozen (its ``effects: {}``).
"""

from __future__ import annotations

import json
from pathlib import Path

from fracas.rulesets.base import full_shown, presenter_of
from tests.helpers import cli

REPROS = Path(__file__).resolve().parent / "data" / "repros"


def test_SK_7_SK_8_a_proficiency_in_a_type_not_carried_plays_without_it() -> None:
    """Mira (proficient with longswords) fires her crossbow: 9 + 3 agility + 3
    marksmanship = 15 vs DV 14 at 10 tiles: a hit. Not proficient with crossbows: the d10's
    10 does not explode and no Strength: base 10 + 3 = 13 vs AV 4, 9 through, AV 4 -> 3,
    and the 10 wounds (SK-14)."""
    path = str(REPROS / "soak-proficient-elsewhere.yaml")
    plain = cli("run", path)
    assert plain.exit_code == 0 and plain.stderr == ""
    assert "  base damage: d10 10 + 3 marksmanship = 13" in plain.stdout.splitlines()
    result = cli("run", "--json", path)
    assert result.exit_code == 0, result.stderr
    ghoul = json.loads(result.stdout)["combatants"]["ghoul"]
    assert (ghoul["hp"], ghoul["superficial"], ghoul["av"], ghoul["wounds"]) == (11, 9, 3, 1)


def test_SK_7_status_names_the_proficiency_no_weapon_carried_reaches() -> None:
    """What replaces the refusal: `status` says the longsword proficiency reaches none of
    Mira's weapons (the help a misspelt type needs), without refusing the file."""
    from fracas.io.files import load

    ef = load(REPROS / "soak-proficient-elsewhere.yaml")
    p = presenter_of(ef.ruleset)
    shown = {s.label: s for s in full_shown(p, ef.start, ef.start.get("mira"))}
    assert shown["proficiencies"].detail == (
        "exploding dice and Strength (SK-7, SK-8) with none of its weapons; "
        "it carries no weapon of type 'longsword'"
    )


def test_WL_31_an_unarmed_riposte_that_hits_plays_and_has_exact_odds() -> None:
    """Ana's riposte on Cy (WL-31) with the built-in unarmed weapon. Seed 6: d20 19 > 11,
    the torso (glancing): 4 - DT 1 = 3, Cy 36 -> 33, torso CT 10 -> 9. Its odds: a hit on
    12 to 20, 9/20; the earlier actions roll no die the file does not give."""
    path = str(REPROS / "wasteland-riposte-unhashable.yaml")
    plain = cli("run", "--seed", "6", path)
    assert plain.exit_code == 0 and plain.stderr == ""
    assert "  Cy takes 3 damage (3): HP 36 -> 33" in plain.stdout.splitlines()
    result = cli("run", "--seed", "6", "--json", path)
    assert result.exit_code == 0, result.stderr
    cy = json.loads(result.stdout)["combatants"]["cy"]
    assert (cy["hp"], cy["limbs"]["torso"]["ct"]) == (33, 9)
    for args in (("odds",), ("odds", "--json")):
        odds = cli(*args, path)
        assert odds.exit_code == 0 and odds.stderr == ""
    exact = json.loads(odds.stdout)["exact"]["combatants"]["cy"]
    assert exact["hit"] == "9/20"
