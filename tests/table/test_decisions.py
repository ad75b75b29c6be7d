"""The rules' decisions a table keeps are its own (issue 33 item 4): when one table's
state moves on it forgets its decisions alone, never those of another table of the same
ruleset and options in the process, nor the process's."""

from __future__ import annotations

import pickle
from pathlib import Path

from fracas.io.store import open_store
from fracas.model import Action
from fracas.rulesets import memo as rules_memo
from fracas.rulesets.base import Decisions, decided, forget_decisions, keeping_decisions
from fracas.table import Identity, Table, TableService, View
from tests.play.support import EXAMPLES

EXAMPLE = (EXAMPLES / "dice-combat.yaml").read_text().split("actions:")[0]


def _tables(tmp: Path) -> tuple[Table, Table]:
    service = TableService(open_store(tmp / "s.sqlite3", durable=False))
    one = service.create(EXAMPLE, "dice-combat.yaml", seed=3)
    two = service.create(EXAMPLE, "dice-combat.yaml", seed=3)
    return one, two


def test_one_tables_change_keeps_another_tables_memo(tmp_path: Path) -> None:
    one, two = _tables(tmp_path)
    assert type(one.ruleset) is type(two.ruleset) and one.ruleset.options == two.ruleset.options
    assert one.state == two.state  # even equal states: each table keeps its own
    one.odds(Action("ana", "attack", "bo"))
    two.odds(Action("ana", "attack", "bo"))
    two.odds(Action("ana", "attack", "cy"))
    assert (len(one.decisions), len(two.decisions)) == (1, 2)
    kept = dict(two.decisions.kept)

    one.act(Action("ana", "end_turn"))  # one's state moves on
    View(one.snapshot(), Identity.gm()).options()  # its pages ask after the change
    one.options()
    assert len(one.decisions) == 0  # one forgot its own
    assert len(two.decisions) == 2 and two.decisions.kept == kept  # two's stay

    forget_decisions()  # the process's memo: no table's
    assert len(two.decisions) == 2


def test_a_decision_is_kept_in_the_memo_of_the_block_that_asks(tmp_path: Path) -> None:
    one, _ = _tables(tmp_path)
    forget_decisions()
    action = Action("ana", "attack", "bo")
    memo = Decisions()
    with keeping_decisions(memo):
        inside = decided(one.ruleset, one.state, action)
    assert len(memo) == 1 and not any(k[3] == action for k in rules_memo._decisions)
    assert decided(one.ruleset, one.state, action) is not inside  # the process's: new
    assert any(k[3] == action for k in rules_memo._decisions)
    memo.forget(one.ruleset)
    assert len(memo) == 0
    assert len(pickle.loads(pickle.dumps(memo))) == 0  # never pickled with anything
