"""What a face shows of soak's state (soak.md 2.6): the presenter's exact values."""

from __future__ import annotations

import json

from fracas.rulesets.base import Shown, full_shown, presenter_of
from fracas.rulesets.soak.presenter import SoakPresenter
from tests.helpers import load_text
from tests.rulesets.soak_support import SWORD, act, fight, ok, who


def test_presenter_shows_av_ap_wounds_and_the_health_track() -> None:
    # SK-12 to SK-15: d8 8 explodes 2: base 10 + 0 vs AV 2: 8 through, AV 2 -> 1, a wound.
    p = ok(
        fight(
            who("ana", proficiencies=["sword"], weapons=[SWORD]),
            who("bo", (1, 0), av=2, aggravated=3, max_hp=25),
            actions=[act("ana", "attack", "bo", dice={"attack": 15, "damage": [8, 2]})],
        )
    )
    presenter = presenter_of(p.file.ruleset)
    assert isinstance(presenter, SoakPresenter)
    bo = [(s.label, s.value) for s in presenter.fields(p.state, p.state.get("bo"))]
    assert bo == [("AV", "1"), ("AP", "3/3"), ("wounds", "1"), ("sup/agg", "8/3")]
    ana = presenter.fields(p.state, p.state.get("ana"))
    assert ana[1] == Shown("AP", "2/3", "AP left this turn / AP per turn (SK-G1)")
    assert presenter.gear(p.state, p.state.get("ana")) == "sword"
    assert full_shown(presenter, p.state, p.state.get("bo"))[4] == Shown("superficial", "8")


def test_presenter_fields_of_a_fresh_sheet_take_the_options_defaults() -> None:
    ef = load_text(
        json.dumps(
            {
                "ruleset": "soak",
                "options": {"max_ap": 2},
                "combatants": [{"id": "ana"}, {"id": "bo"}],
            }
        )
    )
    ana = presenter_of(ef.ruleset).fields(ef.start, ef.start.get("ana"))
    assert [(s.label, s.value) for s in ana] == [
        ("AV", "0"),
        ("AP", "2/2"),
        ("wounds", "0"),
        ("sup/agg", "0/0"),
    ]
    assert ana[3].detail == "superficial 0, aggravated 0 of a track of 20 (SK-15, SK-G4)"


def test_SK_7_SK_8_status_says_which_weapons_the_proficiencies_reach() -> None:
    """`status NAME` (the presenter in full): the weapons a proficiency reaches, then a
    type it carries no weapon of, which a file may name (soak.md 2.1) but reaches none."""
    bow = {"name": "bow", "attack": "ranged", "dice": "1d8"}
    ef = load_text(
        json.dumps(
            {
                "ruleset": "soak",
                "combatants": [
                    {"id": "ana", "proficiencies": ["sword", "longsword"], "weapons": [SWORD, bow]},
                    {"id": "bo", "weapons": [bow]},
                ],
            }
        )
    )
    presenter = presenter_of(ef.ruleset)
    shown = {s.label: s for s in full_shown(presenter, ef.start, ef.start.get("ana"))}
    assert shown["proficiencies"] == Shown(
        "proficiencies",
        "sword, longsword",
        "exploding dice and Strength (SK-7, SK-8) with sword; "
        "it carries no weapon of type 'longsword'",
    )
    bo = {s.label: s for s in full_shown(presenter, ef.start, ef.start.get("bo"))}
    assert bo["proficiencies"] == Shown(
        "proficiencies", "none", "exploding dice and Strength (SK-7, SK-8) with none of its weapons"
    )
