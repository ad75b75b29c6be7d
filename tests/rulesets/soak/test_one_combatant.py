"""Soak's erosion and wounds read and change their target alone (SK-13, SK-14; issue
34: exact odds and the lab's scores follow them per combatant, without folding a whole
state per dice path). Each fold must stay what it was: the sheet's change put in with
``with_sheet``. (``Harmed``, SK-15, keeps its own apply: tests/odds/test_folds.py.)"""

from __future__ import annotations

from pathlib import Path

from fracas.io.files import load
from fracas.lab.fight import file_start
from fracas.model import Encounter, Event
from fracas.model.events import apply_to_target, changes_one
from fracas.rulesets.soak.events import Eroded, Wounded
from fracas.rulesets.soak.sheet import Sheet


def _check(state: Encounter, event: Event, want: Encounter) -> None:
    cid = event.target  # type: ignore[attr-defined]
    got = event.apply(state)
    assert got == want and hash(got) == hash(want)
    assert event.changed(state.get(cid)) == want.get(cid)  # type: ignore[attr-defined]
    assert all(got.get(c) is state.get(c) for c in state.combatants if c != cid)


def test_SK_13_SK_14_are_events_of_one_combatant() -> None:
    for kind in (Eroded, Wounded):
        assert changes_one(kind) and kind.apply is apply_to_target


def test_SK_13_SK_14_fold_as_before() -> None:
    state = file_start(load(Path("examples/start/soak.yaml")))
    c = state.get("brute")
    sheet = c.sheet
    assert isinstance(sheet, Sheet)
    _check(state, Eroded("brute", 1), state.with_sheet(c, av=1))
    _check(state, Wounded("brute", "a 10"), state.with_sheet(c, wounds=sheet.wounds + 1))
