"""What a page is sent of an action's targets (:mod:`fracas.table.projection`, issue 35):
in the rules' order (enemies, allies, the actor, the down last), each marked with what
it is to the actor and whether it is down, none the identity may not see."""

from __future__ import annotations

from pathlib import Path

from fracas.io.store import open_store
from fracas.model import NO_ACTOR, Action
from fracas.table import Act, Identity, SetDice, TableService, View
from tests.play.support import EXAMPLES

EXAMPLE = (EXAMPLES / "dice-combat.yaml").read_text().split("actions:")[0]


def test_an_attacks_targets_come_marked_ally_and_down(tmp_path: Path) -> None:
    table = TableService(open_store(tmp_path / "s.sqlite3", durable=False)).create(
        EXAMPLE, "dice-combat.yaml", seed=3
    )
    table.act(Action("cy", "damage", params={"amount": 12}))  # Cy down; Bo still stands
    gm, pat = Identity.gm(), Identity.player("Pat", "ana")
    for by in (gm, pat):
        attack = next(o for o in View(table.snapshot(), by).options()["ana"] if o["do"] == "attack")
        assert attack["allowed"] and attack["targets"] == ["bo", "dee", "cy"]
        assert attack["marks"] == {
            "bo": {"relation": "enemy", "down": False},
            "dee": {"relation": "ally", "down": False},
            "cy": {"relation": "enemy", "down": True},
        }
    table.act(Action("bo", "hide"))
    attack = next(o for o in View(table.snapshot(), pat).options()["ana"] if o["do"] == "attack")
    assert attack["targets"] == ["dee", "cy"] and set(attack["marks"]) == {"dee", "cy"}


def test_the_game_masters_own_roll_with_physical_dice_waits_for_the_game_master(
    tmp_path: Path,
) -> None:
    table = TableService(open_store(tmp_path / "s.sqlite3", durable=False)).create(
        EXAMPLE, "dice-combat.yaml", seed=3
    )
    table.submit(SetDice(True))
    table.submit(Act({"do": "roll", "notation": "1d6"}))
    for by, yours in ((Identity.player("Pat", "ana"), False), (Identity.gm(), True)):
        asked = View(table.snapshot(), by).state()["pending"]
        assert asked.need is not None and asked.need.owner == NO_ACTOR
        assert (asked.played, asked.yours) == (False, yours)  # no player gives it
