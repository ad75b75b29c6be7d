"""A state's hash is kept once asked for, and never travels: a copy, a change or a
pickle (another process's string hashes differ) hashes afresh."""

from __future__ import annotations

import dataclasses
import pickle
import subprocess
import sys

import pytest

from fracas.io.files import parse_text
from fracas.lab.fight import file_start
from fracas.model import Encounter
from fracas.model.frozen import evolve
from fracas.rulesets import RULESETS, Ruleset

TEXT = """
ruleset: dice-combat
order: [ana, bo]
combatants:
  - {id: ana, name: Ana, side: a, at: [0, 0], hand: {is: pistol, loaded: 8}}
  - {id: bo, name: Bo, side: b, at: [3, 0], hand: club}
"""


def _start() -> Encounter:
    return file_start(parse_text(TEXT))


def test_a_kept_hash_is_the_hash_of_the_fields() -> None:
    s = _start()
    c = s.get("ana")
    assert hash(c) == hash(
        (c.id, c.name, c.side, c.at, c.hp, c.max_hp, c.sheet, c.statuses, c.marks)
    )
    assert hash(s) == hash(s) == hash(_start())
    assert s == _start()


def test_a_changed_or_copied_state_hashes_afresh() -> None:
    s = _start()
    hash(s), hash(s.get("bo"))
    hurt = s.with_combatant(dataclasses.replace(s.get("bo"), hp=3))
    assert hash(hurt) != hash(s) and hurt != s
    assert not hasattr(evolve(s, round=2), "_hash")
    assert not hasattr(dataclasses.replace(s.get("bo"), hp=3), "_hash")
    assert hash(evolve(s, round=2)) == hash(dataclasses.replace(s, round=2))


def test_a_pickled_state_carries_no_hash_to_another_process() -> None:
    s = _start()
    hash(s)
    back = pickle.loads(pickle.dumps(s))
    assert not hasattr(back, "_hash") and not hasattr(back.get("ana"), "_hash")
    code = (
        "import pickle, sys\n"
        "from tests.model.test_state_hash import _start\n"
        "s = pickle.loads(sys.stdin.buffer.read())\n"
        "assert hash(s) == hash(_start()) and s == _start()\n"
        "assert {s: 1}[_start()] == 1\n"
    )
    for seed in ("1", "2"):
        done = subprocess.run(
            [sys.executable, "-c", code],
            input=pickle.dumps(s),
            env={"PYTHONHASHSEED": seed, "PYTHONPATH": "."},
            capture_output=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr.decode()


def test_WL_2_3_the_built_in_unarmed_weapon_is_frozen_as_a_sheets_own() -> None:
    """The unarmed weapon every wasteland character has is made outside the state (no
    sheet lists it): it must hash, and equal the one a sheet lists, hash included."""
    from fracas.model.frozen import FrozenDict
    from fracas.rulesets.wasteland.weapons import unarmed_weapon

    built = unarmed_weapon()
    assert type(built.effects) is FrozenDict
    text = "ruleset: wasteland\ncombatants:\n  - {id: ana, weapons: [unarmed]}\n  - {id: bo}\n"
    listed = parse_text(text).start.get("ana").sheet.weapons[0]
    assert built == listed and hash(built) == hash(listed)


def test_build_freezes_what_pydantic_makes() -> None:
    """validation.build: a ruleset's own value from data, frozen all the way down."""
    from fracas.model.frozen import FrozenDict
    from fracas.model.validation import build
    from fracas.rulesets.wasteland.weapons import WeaponField

    smg = build(WeaponField, {"name": "smg", "damage": "1d6", "effects": {"bleed": 1}})
    assert type(smg.effects) is FrozenDict and smg.effects == {"bleed": 1}
    knife = build(WeaponField, {"name": "knife", "damage": "1d4", "kind": "melee"})
    assert type(knife.effects) is FrozenDict and hash(knife) == hash(build(WeaponField, {
        "name": "knife", "damage": "1d4", "kind": "melee"}))  # fmt: skip


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.about.name)
def test_a_rulesets_options_are_frozen_however_it_is_built(ruleset: type[Ruleset]) -> None:
    """Options made by their defaults (tables from factories: plain dicts) are frozen by
    the ruleset that holds them, and equal a file's, which the rules may cache by."""
    made = ruleset(ruleset.contract.options())
    read = parse_text(
        f"ruleset: {ruleset.about.name}\ncombatants: [{{id: a}}, {{id: b}}]\n"
    ).ruleset
    assert made.options == read.options and hash(made.options) == hash(read.options)
