"""The presenter's ``ranges`` hook: the rings a map draws around a combatant, with the
exact tiles of the rule texts (dice-combat DC-6, DC-7, DC-12, DC-17, DC-27, DC-A5;
wasteland WL-26, WL-35, WL-G16; soak SK-4, SK-G2)."""

from __future__ import annotations

from typing import Any

import pytest

from fracas.rulesets.base import Presenter, Reach, presenter_of
from tests.helpers import load_text


def rings(text: str, cid: str = "ana") -> list[tuple[str, int]]:
    ef = load_text(text)
    presenter: Presenter = presenter_of(ef.ruleset)
    state = ef.start
    return [(r.label, r.tiles) for r in presenter.ranges(state, state.get(cid)) if not r.ring]


def dice_combat(hand: Any, traits: str = "[]", revision: str = "B") -> str:
    return f"""
    ruleset: dice-combat
    options: {{revision: {revision}}}
    combatants:
      - {{id: ana, at: [0, 0], hand: {hand}, traits: {traits}}}
      - {{id: bo, at: [3, 0]}}
    """


def test_dc12_dc7_a_pistol_rings_its_band_edges_and_its_maximum_range() -> None:
    # DC-12: close 1-5, medium 6-12, long 13+; DC-7 (1.5): a pistol reaches 15 tiles.
    assert rings(dice_combat("pistol")) == [
        ("pistol close", 5),
        ("pistol medium", 12),
        ("pistol long", 15),
    ]


def test_dc7_a_rifle_and_a_crossbow_reach_20_tiles() -> None:
    assert rings(dice_combat("rifle"))[-1] == ("rifle long", 20)
    assert rings(dice_combat("crossbow"))[-1] == ("crossbow long", 20)
    assert rings(dice_combat("shotgun"))[-1] == ("shotgun long", 15)


def test_dc17_a_strong_arm_knife_rings_its_reach_and_its_throw_range() -> None:
    assert rings(dice_combat("knife", "[strong_arm]")) == [
        ("one-handed melee reach", 1),
        ("throw", 15),
    ]
    assert rings(dice_combat("knife", "[strong_arm]", "A"))[-1] == ("throw", 13)  # DC-17 [A]


def test_dc15_dc6_without_strong_arm_a_knife_only_reaches_one_tile() -> None:
    assert rings(dice_combat("knife")) == [("one-handed melee reach", 1)]
    assert rings(dice_combat("greataxe", "[strong_arm]")) == [("two-handed melee reach", 1)]
    assert rings(dice_combat("null")) == [("unarmed reach", 1)]


def test_dc27_an_explosive_is_thrown_up_to_10_tiles() -> None:
    assert rings(dice_combat("molotov")) == [("Molotov throw", 10)]
    assert rings(dice_combat("grenade")) == [("bomb throw", 10)]


def test_wl35_wlg16_each_weapon_rings_its_band_in_range_tiles() -> None:
    text = """
    ruleset: wasteland
    options: {range_tiles: {close: 4, medium: 10, long: 25, extreme: 40}}
    combatants:
      - id: ana
        at: [0, 0]
        weapons:
          - {name: rifle, damage: 2d6, range: long}
          - {name: pistol, damage: 1d6, range: close}
          - {name: knife, damage: 1d4, kind: melee}
      - {id: bo, at: [3, 0]}
    """
    assert rings(text) == [("knife reach", 1), ("pistol close", 4), ("rifle long", 25)]
    assert rings(text, "bo") == [("unarmed reach", 1)]  # WL-26: unarmed alone


def test_wl35_a_ranged_weapon_without_a_band_reaches_medium_10() -> None:
    text = """
    ruleset: wasteland
    combatants:
      - {id: ana, at: [0, 0], weapons: [{name: gun, damage: 1d6}]}
      - {id: bo, at: [3, 0]}
    """
    assert rings(text) == [("gun medium", 10)]


def test_sk4_skg2_a_ranged_weapon_rings_its_dv_bands() -> None:
    text = """
    ruleset: soak
    options: {melee_reach: 2}
    combatants:
      - id: ana
        at: [0, 0]
        weapons:
          - {name: bow, attack: ranged, dice: 1d8}
          - {name: sling, attack: ranged, dice: 1d4, dv: {3: 8, 9: 12}}
          - {name: sword, dice: 1d8}
      - {id: bo, at: [3, 0]}
    """
    assert rings(text) == [
        ("sword reach", 2),
        ("sling DV 8", 3),
        ("bow DV 10", 5),
        ("sling DV 12", 9),
        ("bow DV 13", 15),
        ("bow DV 16", 30),
    ]
    assert rings(text, "bo") == [("unarmed reach", 2)]


@pytest.mark.parametrize("ruleset", ["escalation", "tier-duel"])
def test_a_ruleset_without_ranges_rings_nothing(ruleset: str) -> None:
    text = f"""
    ruleset: {ruleset}
    combatants:
      - {{id: ana, at: [0, 0]}}
      - {{id: bo, at: [3, 0]}}
    """
    assert rings(text) == []


def test_reach_is_a_frozen_label_and_tiles() -> None:
    assert Reach("throw", 15) == Reach("throw", 15)
    with pytest.raises(AttributeError):
        Reach("throw", 15).tiles = 3  # type: ignore[misc]
