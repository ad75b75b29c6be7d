"""One permission decision (issue 33): what a page offers an identity and what the table
takes from it are decided by :meth:`fracas.table.Identity.takes` alone."""

from __future__ import annotations

import pytest

from fracas.engine.catalogue import GM_ACTION_NAMES
from fracas.io.files import parse_text
from fracas.io.store import open_store
from fracas.model import Action
from fracas.table import Identity, TableService, View
from fracas.table.identity import Forbidden
from tests.table.support import PISTOL_FIGHT as FIGHT


def test_a_player_is_offered_exactly_what_the_table_would_take_from_it() -> None:
    ruleset = parse_text(FIGHT, "fight.yaml").ruleset
    table = TableService(open_store(":memory:")).create(FIGHT, "fight.yaml", name="f", seed=1)
    pat, gm = Identity.player("Pat", "ana"), Identity.gm()
    offered = {o["do"] for o in View(table.snapshot(), pat).options()["ana"]}
    every = {o["do"] for o in View(table.snapshot(), gm).options()["ana"]}
    assert offered == every == {"attack", "equip", "reload", "throw"}
    for do in sorted(every | GM_ACTION_NAMES):
        action = Action("ana", do)
        assert gm.takes(ruleset, action)
        if do in every:
            assert pat.takes(ruleset, action) == (do in offered), do
        if not pat.takes(ruleset, action):
            with pytest.raises(Forbidden, match="the game master's"):
                pat.check_act(ruleset, table.state, action)
    taken = {do for do in GM_ACTION_NAMES if pat.takes(ruleset, Action("ana", do))}
    assert taken == {"roll"}  # a free roll is anyone's; the rest the game master's
