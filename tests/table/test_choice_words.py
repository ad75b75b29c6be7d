"""The equip choice names the scrap item and carries the scrap line where the rules apply
it (issue 22, item 6; DC-11: scrap ranged weapons do 1 less, melee is unaffected; DC-16,
DC-26: a short weapon thrown with Strong Arm, and explosives, likewise): the figure the
page is given with each option (``choice_words``), as the card's weapon has it."""

from __future__ import annotations

from pathlib import Path

from fracas.io.store import open_store
from fracas.table import GAME_MASTER, Identity, TableService, View

FIGHT = """\
ruleset: dice-combat
seed: 3
order: [ana, bo]
combatants:
  - id: ana
    name: Ana
    side: players
    at: [0, 0]
    hand: knife
    inventory: [{is: knife, scrap: true}, {is: revolver, scrap: true}, pistol]
  - id: bo
    name: Bo
    side: raiders
    at: [3, 2]
    traits: [strong_arm]
    inventory: [{is: knife, scrap: true}]
"""
REVOLVER = "scrap revolver: 1 less damage, never below the floor (DC-11, DC-26)"


def _equip(view: View, actor: str) -> dict[str, object]:
    return next(o for o in view.options()[actor] if o["do"] == "equip")


def test_DC_11_the_equip_choice_names_the_scrap_item_and_its_line_only_where_it_applies(
    tmp_path: Path,
) -> None:
    table = TableService(open_store(tmp_path / "s.sqlite3", durable=False)).create(
        FIGHT, "f.yaml", seed=1
    )
    for who in (GAME_MASTER, Identity.player("Pat", "ana")):
        equip = _equip(View(table.snapshot(), who), "ana")
        assert equip["choices"] == {"item": ["knife", "revolver", "pistol"]}
        assert equip["choice_words"] == {
            "item": {
                "knife": {"words": "knife (scrap)", "note": ""},  # swung: DC-11, none
                "revolver": {"words": "revolver (scrap)", "note": REVOLVER},
            }
        }
    table.act({"actor": "ana", "do": "end_turn"})
    bo = _equip(View(table.snapshot(), GAME_MASTER), "bo")
    assert bo["choice_words"] == {  # DC-16: Strong Arm throws it, and then it does 1 less
        "item": {
            "knife": {
                "words": "knife (scrap)",
                "note": "scrap knife: 1 less damage when thrown, never below the floor "
                "(DC-11, DC-26)",
            }
        }
    }
