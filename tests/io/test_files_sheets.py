"""Free-form sheet keys checked against the names that count, options given in part,
and the defaults ``fracas rules`` shows.

wasteland.md 2.1 (``skills``: the skills the rules read, WL-6, WL-17, WL-21, and the
milestones), wasteland.md 2.7 (options ``hit_location``, ``called_shot_penalty``,
``range_tiles``, WL-G1, WL-G2, WL-35); soak.md 2.1's ``proficiencies`` are weapon types,
free text, never refused (SK-7, SK-8).
"""

from __future__ import annotations

import json

import pytest

from fracas.engine.play import Engine
from fracas.errors import FileError, Refusal
from fracas.io.files import parse_text
from fracas.model import Action
from tests.helpers import cli

WASTELAND = """\
ruleset: wasteland
combatants:
  - id: vera
    skills: {guns: 3}
    weapons: [{name: smg, damage: 1d6}]
  - id: bo
"""

SOAK = """\
ruleset: soak
combatants:
  - id: mara
    proficiencies: [sword]
    weapons: [{name: sword, dice: 1d8}]
  - id: bo
"""


def _refused(text: str) -> FileError:
    with pytest.raises(FileError) as exc:
        parse_text(text, "enc.yaml")
    return exc.value


def test_WL_6_a_misspelt_skill_is_refused_naming_the_skills() -> None:
    exc = _refused(WASTELAND.replace("{guns: 3}", "{gnus: 4}"))
    assert (exc.code, exc.where) == ("unknown_skill", "enc.yaml:4: combatants[0].skills.gnus")
    assert exc.message == (
        "'gnus' is not a skill; valid: guns, melee, unarmed, explosives, sneak, survival, "
        "pilot (or a skill a weapon names)"
    )


def test_WL_6_a_skill_a_weapon_names_is_a_skill() -> None:
    text = WASTELAND.replace("{guns: 3}", "{energy_weapons: 3}").replace(
        "damage: 1d6}", "damage: 1d6, skill: energy_weapons}"
    )
    vera = parse_text(text, "enc.yaml").start.get("vera")
    assert dict(vera.sheet.skills) == {"energy_weapons": 3}


def test_WL_6_set_refuses_a_misspelt_skill_too() -> None:
    ef = parse_text(WASTELAND, "enc.yaml")
    engine = Engine(ef.ruleset, ef.start, 1)
    engine.begin()
    with pytest.raises(Refusal) as exc:
        engine.act(Action("vera", "set", params={"skills": {"gnus": 2}}))
    assert exc.value.code == "unknown_skill"
    assert "skills.gnus" in exc.value.message


def test_SK_7_SK_8_a_proficiency_in_a_type_no_weapon_has_is_a_valid_sheet() -> None:
    """soak.md 2.1: proficiencies are a set of weapon types and a weapon's type is free
    text: a type none of its weapons has (a longsword, or a typo) is kept, not refused."""
    mara = parse_text(SOAK.replace("[sword]", "[longsword, swrod]"), "enc.yaml").start.get("mara")
    assert mara.sheet.proficiencies == ("longsword", "swrod")


def test_SK_10_a_proficiency_may_name_any_type() -> None:
    text = SOAK.replace("[sword]", "[chair, club, axe, unarmed]").replace(
        "{name: sword, dice: 1d8}", "{name: chair, type: club, improvised: true, dice: 1d6}"
    )
    mara = parse_text(text, "enc.yaml").start.get("mara")
    assert mara.sheet.proficiencies == ("chair", "club", "axe", "unarmed")


def test_WL_G2_an_option_given_in_part_keeps_the_other_defaults() -> None:
    text = "options:\n  called_shot_penalty: {head: 6}\n  range_tiles: {close: 3}\n" + WASTELAND
    options = parse_text(text, "enc.yaml").ruleset.options
    assert dict(options.called_shot_penalty) == {"head": 6, "torso": 1, "arms": 2, "legs": 2}
    assert dict(options.range_tiles) == {"close": 3, "medium": 10, "long": 20, "extreme": 40}


def test_WL_G2_an_unknown_key_of_a_table_option_is_still_refused() -> None:
    exc = _refused("options:\n  called_shot_penalty: {hed: 6}\n" + WASTELAND)
    assert exc.code == "bad_value" and "called_shot_penalty" in exc.where


def test_SK_G2_a_table_with_open_keys_is_taken_whole() -> None:
    """A DV table names its own bands: merged over the default it would keep bands the
    file left out."""
    text = "options:\n  dv_table: {10: 12}\n" + SOAK
    assert dict(parse_text(text, "enc.yaml").ruleset.options.dv_table) == {10: 12}


def test_rules_shows_the_defaults_made_by_factories() -> None:
    result = cli("rules", "wasteland", "--json")
    options = {row["name"]: row["default"] for row in json.loads(result.stdout)["options"]}
    assert options["called_shot_penalty"] == {"head": 4, "torso": 1, "arms": 2, "legs": 2}
    assert options["range_tiles"] == {"close": 5, "medium": 10, "long": 20, "extreme": 40}
    assert options["hit_location"]["head"] == [1, 2]
    assert options["hit_location"]["right_leg"] == [18, 20]
    sheet = {row["name"]: row["default"] for row in json.loads(result.stdout)["sheet"]}
    assert sheet["skills"] == {} and sheet["limbs"] == {}
    text = cli("rules", "wasteland").stdout
    assert '{"head": 4, "torso": 1,' in text
