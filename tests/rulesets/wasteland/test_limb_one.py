"""A limb's damage reads and changes its target alone (WL-20 to WL-22; issue 34: exact
odds and the lab's scores follow it per combatant, without folding a whole state per
dice path). Its fold must stay what the sheet's limbs change gives."""

from __future__ import annotations

from pathlib import Path

from fracas.io.files import load
from fracas.lab.fight import file_start
from fracas.model.events import apply_to_target, changes_one
from fracas.model.frozen import FrozenDict, evolve, freeze
from fracas.rulesets.wasteland.events import LimbDamaged
from fracas.rulesets.wasteland.sheet import Limb, Sheet


def test_WL_20_limb_damage_is_an_event_of_one_combatant() -> None:
    assert changes_one(LimbDamaged) and LimbDamaged.apply is apply_to_target


def test_WL_21_limb_damage_folds_as_the_sheets_limbs_change() -> None:
    state = file_start(load(Path("examples/wasteland.yaml")))
    vera = state.get("vera")
    for event in (
        LimbDamaged("vera", "left_arm", 2, 3, True, "none", None, False),
        LimbDamaged("vera", "torso", 0, 7, True, "major", 12, True),
    ):
        limbs = vera.sheet.limbs
        assert isinstance(vera.sheet, Sheet)
        new = evolve(
            limbs.get(event.limb) or freeze(Limb()),
            ct=event.ct,
            injury=event.injury,
            injury_dc=event.injury_dc,
        )
        want = state.with_sheet(vera, limbs=FrozenDict({**limbs, event.limb: new}))
        got = event.apply(state)
        assert got == want and hash(got) == hash(want)
        assert got.get("vera").sheet.limbs[event.limb].ct == event.ct
        assert event.changed(vera) == want.get("vera")
        # every other combatant is the very record it was
        assert all(got.get(c) is state.get(c) for c in state.combatants if c != "vera")
