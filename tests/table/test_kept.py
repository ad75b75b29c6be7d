"""What a table keeps between its changes, and what it sends to a worker.

A server holds hundreds of tables for hours: whatever each keeps per change stays in
the garbage collector's oldest generation, which a full collection walks with the
event loop stopped (``bench/bench_serve.py --fleet``: 100 to 400 ms pauses, the whole
tail of its round trips). So:

* "May do now" keeps no decision of the rules and no refusal's traceback (whose frames
  held every state and plan the rules made on the way);
* a table keeps what its state now needs, no more: its options and the rules' kept
  decisions go when the state moves on;
* a ruleset is pickled to an odds or win-bar worker without decisions: they are kept
  per process (``fracas.rulesets.base.decided``), never on the ruleset.
"""

from __future__ import annotations

import gc
import pickle
import tempfile
from pathlib import Path

from fracas.engine.may_do import Option, options_now
from fracas.io.store import open_store
from fracas.model import Action
from fracas.rulesets import memo
from fracas.rulesets.base import Ruleset, decided, forget_decisions
from fracas.table import Identity, Table, TableService, View
from tests.play.support import EXAMPLES

EXAMPLE = (EXAMPLES / "dice-combat.yaml").read_text().split("actions:")[0]
"""Ana, Bo (a Molotov), Cy and Dee at the scrapyard gate, before any action."""


def _table(tmp: Path) -> Table:
    store = open_store(tmp / "s.sqlite3", durable=False)
    forget_decisions()  # what other tests of this process kept
    return TableService(store).create(EXAMPLE, "dice-combat.yaml", seed=3)


def _kept(ruleset: Ruleset, table: Table | None = None) -> int:
    """The decisions this process keeps of ``ruleset`` (its type and options), in its
    own memo and in ``table``'s."""
    memos = [memo._decisions, *([table.decisions.kept] if table is not None else [])]
    return sum(1 for m in memos for k in m if k[0] is type(ruleset) and k[1] == ruleset.options)


def _said(options: list[Option]) -> list[tuple[object, ...]]:
    """What an option tells (a refusal by its words: each is an exception of its own)."""
    return [
        (o.spec.name, o.actor, o.targets, o.tile, dict(o.choices), o.allowed)
        + ((o.refusal.code, o.refusal.message) if o.refusal is not None else ())
        for o in options
    ]


def _turns(table: Table, n: int) -> None:
    """``n`` ends of turn, every page's view made after each (the game master's and a
    player's: state, log and options)."""
    for _ in range(n):
        table.act(Action(table.state.turn.actor, "end_turn"))
        for who in (Identity.gm(), Identity.player("Ana", "ana")):
            view = View(table.snapshot(), who)
            view.state(), view.lines(table.seq - 1), view.options()


def test_a_refusal_offered_keeps_its_words_and_nothing_of_how_it_was_raised(
    tmp_path: Path,
) -> None:
    table = _table(tmp_path)
    throw = next(o for o in table.options() if o.spec.name == "throw")
    assert throw.refusal is not None
    assert (throw.refusal.code, throw.refusal.message) == (
        "not_throwable",  # DC-17: the reason before a self-target's
        "'ana' holds 'pistol': only short blades, short blunt weapons and explosives can be "
        "thrown (DC-15)",  # the words, then the rule (issue 22 item 8)
    )
    assert throw.refusal.__traceback__ is None
    assert throw.refusal.__context__ is None and throw.refusal.__cause__ is None


def test_may_do_now_keeps_no_decision(tmp_path: Path) -> None:
    table = _table(tmp_path)
    _turns(table, 5)  # round 2, Bo's turn: his Molotov on every target and tile (DC-28)
    ruleset = table.ruleset
    forget_decisions()
    options = options_now(ruleset, table.state)
    attack = next(o for o in options if o.spec.name == "attack")
    assert (attack.actor, attack.targets, attack.tile) == (
        "bo",
        ("ana", "dee", "cy", "bo"),
        True,
    )  # enemies first, then allies, then Bo himself (issue 35)
    assert _kept(ruleset) == 0


def test_a_table_keeps_the_decisions_and_options_of_its_state_now_alone(tmp_path: Path) -> None:
    table = _table(tmp_path)
    table.odds(Action("ana", "attack", "bo"))  # decided, and kept for this state
    assert _kept(table.ruleset, table) == 1
    before = _said(table.options())
    _turns(table, 1)
    assert _kept(table.ruleset, table) == 0  # the state moved on: the attack's decision went
    now = _said(table.options())
    assert now == _said(options_now(table.ruleset, table.state)) and now != before
    assert now[0][:3] == ("attack", "bo", ())  # DC-28: no Molotov in the first round
    assert _said(table.options("ana")) == _said(options_now(table.ruleset, table.state, "ana"))


def test_a_tables_changes_leave_few_objects_behind(tmp_path: Path) -> None:
    """Each change keeps its record and its state (about ten objects the collector
    tracks); before, the kept decisions and refusals' frames left 350 a change."""
    table = _table(tmp_path)
    _turns(table, 4)
    gc.collect()
    start = len(gc.get_objects())
    _turns(table, 40)
    gc.collect()
    assert (len(gc.get_objects()) - start) / 40 < 25


def test_a_ruleset_is_pickled_without_its_decisions() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        table = _table(Path(tmp))
        _turns(table, 5)  # round 2, Bo's turn
        table.odds(Action("bo", "attack", "ana"))  # his Molotov: its plan holds every victim
        ruleset = table.ruleset
        action = Action("bo", "attack", "cy")
        decision = decided(ruleset, table.state, action)
        assert _kept(ruleset, table) == 2
        assert set(vars(ruleset)) == {"options"}  # the decisions are the process's
        back = pickle.loads(pickle.dumps(ruleset))
        assert type(back) is type(ruleset) and back.options == ruleset.options
        assert decided(back, table.state, action) is decision  # one memo per process
        fresh = type(ruleset)(ruleset.options)
        assert len(pickle.dumps(ruleset)) == len(pickle.dumps(fresh))
