"""Soak's erosion, wounds and health-track damage read and change their target alone
(SK-13, SK-14, SK-15; issue 34: exact odds and the lab's scores follow them per
combatant, without folding a whole state per dice path). Each fold must stay what it
was: the sheet's change put in with ``with_sheet``; for the health track, the track
taken and ``hp`` worked out from it (SK-15, 2.1)."""

from __future__ import annotations

from pathlib import Path

from fracas.io.files import load
from fracas.lab.fight import file_start
from fracas.model import Encounter, Event
from fracas.model.events import apply_to_target, changes_one
from fracas.model.frozen import evolve
from fracas.rulesets.soak.events import Eroded, Harmed, Wounded
from fracas.rulesets.soak.sheet import Sheet


def _check(state: Encounter, event: Event, want: Encounter) -> None:
    cid = event.target  # type: ignore[attr-defined]
    got = event.apply(state)
    assert got == want and hash(got) == hash(want)
    assert event.changed(state.get(cid)) == want.get(cid)  # type: ignore[attr-defined]
    assert all(got.get(c) is state.get(c) for c in state.combatants if c != cid)


def test_SK_13_SK_14_are_events_of_one_combatant() -> None:
    for kind in (Eroded, Wounded, Harmed):
        assert changes_one(kind) and kind.apply is apply_to_target


def test_SK_13_SK_14_fold_as_before() -> None:
    state = file_start(load(Path("examples/start/soak.yaml")))
    c = state.get("brute")
    sheet = c.sheet
    assert isinstance(sheet, Sheet)
    _check(state, Eroded("brute", 1), state.with_sheet(c, av=1))
    _check(state, Wounded("brute", "a 10"), state.with_sheet(c, wounds=sheet.wounds + 1))


def test_SK_15_health_track_damage_folds_as_before() -> None:
    """``hp = max(0, max_hp - superficial - aggravated)`` after the track is taken
    (2.1): each kind of damage on the Brute, once fresh and once near the end of it."""
    state = file_start(load(Path("examples/start/soak.yaml")))
    c = state.get("brute")
    sheet = c.sheet
    assert isinstance(sheet, Sheet)
    for kind, amount in (("superficial", 3), ("aggravated", 2), ("superficial", 99)):
        taken = evolve(sheet, **{kind: getattr(sheet, kind) + amount})
        hp = max(0, c.max_hp - taken.superficial - taken.aggravated)
        want = state.with_combatant(evolve(c, sheet=taken, hp=hp))
        _check(state, Harmed("brute", amount, kind=kind), want)
    assert Harmed("brute", 99).apply(state).get("brute").hp == 0
