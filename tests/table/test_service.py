"""The table service: identities and permissions, the change feed, writers in several
threads and in two services on one store, and the regressions found through the prompt
(a stored undo that takes back the wrong record, `help` of an unknown name, `help`
listing actions the rules then refuse, two live fights from one file rolling alike)."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from fracas.engine.play import Record
from fracas.errors import FracasError
from fracas.io.store import EncounterStore, MovedOn, StoreError, open_store
from fracas.io.store.records import record_json
from fracas.model import Action
from fracas.play.loop import Prompt
from fracas.rulesets.base import Decision, decided, forget_decisions
from fracas.table import Change, Forbidden, Identity, SetPolicy, TableService, options_now
from tests.play.support import EXAMPLES, ScriptedTerminal

FIGHT = """\
ruleset: dice-combat
seed: 5
order: [ana, bo, cy]
combatants:
  - {id: ana, name: Ana, side: players, at: [0, 0], hand: {is: pistol, loaded: 6}}
  - {id: bo, name: Bo, side: raiders, at: [1, 0], hand: knife}
  - {id: cy, name: Cy, side: raiders, at: [4, 0], hand: club}
"""

ANA = Identity.player("pat", "ana")
BO = Identity.player("sam", "bo")


@pytest.fixture
def store(tmp_path: Path) -> EncounterStore:
    return open_store(tmp_path / "s.sqlite3", durable=False)


def test_a_player_acts_only_for_its_own_combatants(store: EncounterStore) -> None:
    table = TableService(store).create(FIGHT, "fight.yaml", seed=1)
    with pytest.raises(Forbidden) as err:
        table.act(Action("ana", "attack", "bo"), BO)
    assert err.value.code == "forbidden"
    assert "'sam' does not play 'ana'; its combatants: bo" in err.value.message
    assert table.seq == 1  # nothing written
    record = table.act(Action("ana", "attack", "bo"), ANA)
    assert record.by == "pat"
    assert store.load(table.name).records[-1]["by"] == "pat"


@pytest.mark.parametrize("do", ["set", "heal", "status", "add", "remove", "initiative"])
def test_game_master_actions_are_refused_to_players(store: EncounterStore, do: str) -> None:
    table = TableService(store).create(FIGHT, "fight.yaml", seed=1)
    with pytest.raises(Forbidden) as err:
        table.act(Action("ana", do, params={"hp": 3}), ANA)
    assert f"{do!r} is the game master's" in err.value.message


def test_a_viewer_cannot_act_or_undo(store: EncounterStore) -> None:
    table = TableService(store).create(FIGHT, "fight.yaml", seed=1)
    viewer = Identity.viewer("tv")
    calls: list[Callable[[], Record]] = [
        lambda: table.act(Action("ana", "end_turn"), viewer),
        lambda: table.undo(viewer),
    ]
    for call in calls:
        with pytest.raises(Forbidden) as err:
            call()
        assert "'tv' watches this table" in err.value.message


def test_a_player_undoes_only_its_own_latest_action_where_the_policy_allows(
    store: EncounterStore,
) -> None:
    strict = TableService(store).create(FIGHT, "fight.yaml", seed=1)
    strict.act(Action("ana", "end_turn"), ANA)
    with pytest.raises(Forbidden) as err:
        strict.undo(ANA)  # by default players do not undo
    assert "only the game master may undo" in err.value.message
    table = TableService(store, {"player_undo": True}).create(FIGHT, "fight.yaml", seed=1)
    assert table.state.policy.player_undo
    table.act(Action("ana", "end_turn"), ANA)
    with pytest.raises(Forbidden) as err:
        table.undo(BO)
    assert "the latest is pat's" in err.value.message
    table.undo(ANA)
    assert table.state.turn.actor == "ana"
    table.redo(ANA)
    table.act(Action("bo", "end_turn"))  # the game master's
    with pytest.raises(Forbidden):
        table.undo(ANA)
    table.undo()  # the game master may
    table.submit(SetPolicy({"player_undo": False}))
    with pytest.raises(Forbidden) as err:
        table.undo(ANA)
    assert "only the game master may undo" in err.value.message


def test_listeners_hear_every_record_once_in_order(store: EncounterStore) -> None:
    table = TableService(store).create(FIGHT, "fight.yaml", seed=1)
    heard: list[Change] = []
    stop = table.subscribe(heard.append)
    table.act(Action("ana", "end_turn"))
    table.undo()
    stop()
    table.redo()
    assert [[r.kind for r in c.records] for c in heard] == [["action"], ["undo"]]
    assert [c.seq for c in heard] == [2, 3]


def test_two_services_on_one_store_catch_up_and_never_double(store: EncounterStore) -> None:
    """Two processes' views of one encounter: a stale writer is told `moved_on`, its
    listeners hear what the other wrote, and its view is again the stored one."""
    first = TableService(store).create(FIGHT, "fight.yaml", seed=1)
    other = TableService(open_store(store.location, durable=False)).open(first.name)
    heard: list[Change] = []
    other.subscribe(heard.append)
    first.act(Action("ana", "end_turn"))
    with pytest.raises(MovedOn) as err:
        other.act(Action("ana", "end_turn"))
    assert err.value.expected == 1
    assert [r.seq for c in heard for r in c.records] == [1]
    assert other.state == first.state and other.seq == first.seq == 2
    first.act(Action("bo", "end_turn"))
    assert [r.seq for r in other.refresh()] == [2]
    assert other.state == first.state


def test_threads_acting_on_one_table_lose_and_double_nothing(store: EncounterStore) -> None:
    table = TableService(store).create(FIGHT, "fight.yaml", seed=1)
    done: list[Record] = []
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            for _ in range(10):
                done.append(table.act(Action(table.state.turn.actor, "end_turn")))
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert sorted(r.seq for r in done) == list(range(1, 41))
    stored = store.load(table.name).records
    assert [r["seq"] for r in stored] == list(range(41))
    assert TableService(store).open(table.name).state == table.state


def test_a_stored_undo_of_the_wrong_record_is_a_clear_error(store: EncounterStore) -> None:
    """Before: `fracas play NAME` ended in an AssertionError traceback (engine.py)."""
    table = TableService(store).create(FIGHT, "fight.yaml", seed=1)
    table.act(Action("ana", "end_turn"))
    table.act(Action("bo", "end_turn"))
    store.append(table.name, 3, [record_json(Record(3, None, (), (), "undo", 1))])
    with pytest.raises(StoreError) as err:
        TableService(store).open(table.name)
    assert err.value.code == "log_drift"
    assert "undo record #3 names record #1, but the latest action is #2" in err.value.message


def test_two_live_fights_from_one_file_roll_differently(store: EncounterStore) -> None:
    service = TableService(store)
    seeds = {service.create(FIGHT, "fight.yaml").seed for _ in range(4)}
    assert len(seeds) == 4
    assert service.create(FIGHT, "fight.yaml", seed=9).seed == 9


def test_help_of_an_action_spelled_with_a_dash(store: EncounterStore, tmp_path: Path) -> None:
    """Before: `help end-turn` failed an assert in play/view.py."""
    (tmp_path / "fight.yaml").write_text(FIGHT)
    table, _ = TableService(store).open_or_create(str(tmp_path / "fight.yaml"))
    terminal = ScriptedTerminal(["help end-turn", "help end", "help end-it"])
    Prompt(table, terminal).run()
    lines = [line for line in terminal.lines if not line.startswith("r1 ")]
    assert lines[0].startswith("end_turn (none): end the actor's turn")
    assert lines[1] == "end: end the current actor's turn"
    assert lines[2].startswith("error: bad_command: help 'end-it': valid: attack, throw")


def test_help_lists_nothing_the_rules_then_refuse(store: EncounterStore) -> None:
    """Before: after Bo's Molotov (a rule ends the turn) `help` listed `equip ITEM` for
    Bo, and the rules then refused it (examples/dice-combat.yaml, DC-29)."""
    text = (EXAMPLES / "dice-combat.yaml").read_text()
    table = TableService(store).create(text, "dice-combat.yaml")
    state = table.state
    assert state.turn.actor == "cy" and not state.turn.over
    service_state = None
    for record in table.log:  # the state right after Bo's throw: the turn is over
        if record.action is not None and record.action.do == "throw":
            service_state = table.before[record.seq + 1] if record.seq + 1 < table.seq else None
    assert service_state is not None and service_state.turn.over
    for option in options_now(table.ruleset, service_state):
        if option.allowed:
            for target in option.targets or (None,):
                params = {p: v[0] for p, v in option.choices.items() if p in option.spec.required}
                action = Action("bo", option.spec.name, target, params=params)
                decided(table.ruleset, service_state, action)  # never refused
    equip = next(o for o in options_now(table.ruleset, service_state) if o.spec.name == "equip")
    assert equip.refusal is not None and equip.refusal.code == "turn_over"


def test_may_do_now_lets_a_bug_surface(
    store: EncounterStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No `except Exception` lists a bug in the rules as an allowed action."""
    table = TableService(store).create(FIGHT, "fight.yaml", seed=1)

    def broken(*args: object) -> Decision:
        raise KeyError("damage")

    spec = table.ruleset.contract.actions[0]
    contract = dataclasses.replace(
        table.ruleset.contract,
        actions=(dataclasses.replace(spec, decide=broken), *table.ruleset.contract.actions[1:]),
    )
    monkeypatch.setattr(type(table.ruleset), "contract", contract)
    forget_decisions()
    with pytest.raises(KeyError):
        options_now(table.ruleset, table.state)


def test_refused_actions_raise_fracas_errors(store: EncounterStore) -> None:
    table = TableService(store).create(FIGHT, "fight.yaml", seed=1)
    with pytest.raises(FracasError) as err:
        table.act(Action("ana", "attack", "zed"))
    assert err.value.code in ("unknown_combatant", "bad_value")
    assert table.seq == 1


def test_help_lists_nothing_for_a_down_combatant(store: EncounterStore) -> None:
    """Before: `help` listed `equip ITEM` for a combatant at 0 HP (DC-1), which the rules
    then refused."""
    text = (EXAMPLES / "dice-combat.yaml").read_text()
    table = TableService(store).create(text, "dice-combat.yaml", seed=1)
    actor = table.state.turn.actor
    table.act(Action(actor, "set", params={"hp": 0}))
    options = options_now(table.ruleset, table.state)
    assert options and not any(o.allowed for o in options), options
    assert {o.refusal.code for o in options if o.refusal} <= {"knocked_out", "nothing_to_choose"}
