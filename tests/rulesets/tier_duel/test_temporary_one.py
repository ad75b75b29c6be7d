"""Temporary damage reads and changes its target alone (TD-5; issue 34: exact odds and
the lab's scores follow it per combatant, without folding a whole state per dice path).
Its fold must stay what ``with_sheet`` gives."""

from __future__ import annotations

from pathlib import Path

from fracas.io.files import load
from fracas.lab.fight import file_start
from fracas.model.events import apply_to_target, changes_one
from fracas.rulesets.tier_duel.events import TemporaryDamage
from fracas.rulesets.tier_duel.sheet import Sheet


def test_TD_5_temporary_damage_is_an_event_of_one_combatant() -> None:
    assert changes_one(TemporaryDamage) and TemporaryDamage.apply is apply_to_target


def test_TD_5_temporary_damage_folds_as_with_sheet() -> None:
    state = file_start(load(Path("examples/start/tier-duel.yaml")))
    bo = state.get("bo")
    assert isinstance(bo.sheet, Sheet)
    for amount, want_td in ((3, bo.sheet.temporary_damage + 3), (-99, 0)):
        event = TemporaryDamage("bo", amount)
        want = state.with_sheet(bo, temporary_damage=want_td)
        got = event.apply(state)
        assert got == want and hash(got) == hash(want)
        assert got.get("bo").sheet.temporary_damage == want_td
        assert event.changed(bo) == want.get("bo")
        assert all(got.get(c) is state.get(c) for c in state.combatants if c != "bo")
