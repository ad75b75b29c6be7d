"""A live encounter kept in step with the store (``Table``), in process.

* Every record is stored as it is made; a refusal stores nothing; resume gives back the
  same state and log; undo and redo are records.
* Two sessions on one encounter: the second writer gets ``moved_on`` and then holds what
  the first wrote; nothing is lost or written twice.
* A stored log that no longer replays (changed dice, a setup that no longer reads) is
  refused with ``log_drift``.
* Property, for every ruleset: a generated session (prompt lines with actions, undo, redo
  and ends of turn), saved, then played by ``fracas run``, reproduces the same end state;
  and so does resuming it from the store.
* "May do now" agrees with the rules: what it allows is not refused, what it refuses is.
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.dice.source import RandomDice
from fracas.engine.play import Engine, plan
from fracas.errors import FileError, FracasError, Refusal
from fracas.io.files import EncounterFile
from fracas.io.store import EncounterStore, MovedOn, StoreError, open_store
from fracas.io.store.records import record_json
from fracas.model import Action
from fracas.play.commands import Act, command_text, parse
from fracas.play.loop import save
from fracas.rulesets import RULESETS, Ruleset
from fracas.table import Identity, Table, TableService, View, live_seed, options_now
from fracas.words.render import state_json
from tests.helpers import cli
from tests.play.support import EXAMPLES, example_file, setup_for

EXAMPLE = (EXAMPLES / "dice-combat.yaml").read_text()


def new(tmp: Path, text: str = EXAMPLE, **kw: Any) -> tuple[EncounterStore, Table]:
    store = open_store(tmp / "s.sqlite3", durable=False)
    return store, TableService(store).create(text, "dice-combat.yaml", **kw)


def stored(session: Table) -> list[dict[str, Any]]:
    return session.store.load(session.name).records


def test_create_stores_the_start_and_the_files_actions(tmp_path: Path) -> None:
    store, session = new(tmp_path)
    ef = session.file
    assert session.name == "dice-combat" and session.seq == 1 + len(ef.actions)
    assert stored(session) == [json.loads(json.dumps(record_json(r))) for r in session.log]
    again = TableService(store).open(session.name)
    assert again.state == session.state
    assert [record_json(r) for r in again.log] == [record_json(r) for r in session.log]


def test_act_undo_redo_are_stored_and_a_refusal_is_not(tmp_path: Path) -> None:
    store, session = new(tmp_path, name="gate")
    actor = session.state.turn.actor
    session.act(Action(actor, "end_turn"))
    session.undo()
    session.redo()
    seq = session.seq
    with pytest.raises(Refusal):
        session.act(Action("cy", "attack", "dee"))  # out of reach: refused
    assert session.seq == seq and len(stored(session)) == seq  # nothing kept, nothing stored
    assert [r["kind"] for r in stored(session)][-3:] == ["action", "undo", "redo"]
    assert stored(session)[-1]["target"] == stored(session)[-2]["target"] == seq - 3
    again = TableService(store).open("gate")
    assert again.state == session.state
    again.undo()  # the redone action is the one a resumed session takes back
    assert again.log[-1].target == seq - 3


def test_two_sessions_one_encounter(tmp_path: Path) -> None:
    _, first = new(tmp_path)
    second = TableService(open_store(tmp_path / "s.sqlite3")).open(first.name)
    seq = first.seq
    mine = first.act(Action(first.state.turn.actor, "end_turn"))
    with pytest.raises(MovedOn) as err:
        second.act(Action(second.state.turn.actor, "end_turn"))
    assert err.value.expected == seq and err.value.records == [record_json(mine)]
    assert second.seq == seq + 1 and second.state == first.state  # it now holds what happened
    assert [r.seq for r in second.since(err.value)] == [seq]
    second.undo()  # and goes on from there
    with pytest.raises(MovedOn):
        first.redo()
    assert first.state == second.state
    assert [r["kind"] for r in stored(first)][-2:] == ["action", "undo"]


def test_a_file_with_an_illegal_action_stores_nothing(tmp_path: Path) -> None:
    text = EXAMPLE + "  - {actor: cy, do: attack, target: dee}\n"
    store = open_store(tmp_path / "s.sqlite3", durable=False)
    with pytest.raises(FileError) as err:
        TableService(store).create(text, "bad.yaml")
    assert "action 14" in err.value.message and err.value.where.startswith("bad.yaml:")
    assert store.list() == []


def test_changed_dice_in_the_store_are_log_drift(tmp_path: Path) -> None:
    store, session = new(tmp_path)
    body = stored(session)[1]
    body["rolls"] = body["rolls"][:1]  # a die of the stored attack is gone
    db = sqlite3.connect(tmp_path / "s.sqlite3")
    db.execute("UPDATE records SET body = ? WHERE seq = 1", (json.dumps(body),))
    db.commit()
    with pytest.raises(StoreError) as err:
        TableService(store).open(session.name)
    assert err.value.code == "log_drift" and "record #1 no longer replays" in err.value.message


def test_a_setup_that_no_longer_reads_is_log_drift(tmp_path: Path) -> None:
    store, session = new(tmp_path)
    db = sqlite3.connect(tmp_path / "s.sqlite3")
    db.execute("UPDATE encounters SET setup = replace(setup, 'revision: B', 'revision: Z')")
    db.commit()
    with pytest.raises(StoreError) as err:
        TableService(store).open(session.name)
    assert err.value.code == "log_drift" and "setup no longer reads" in err.value.message


def test_live_seed() -> None:
    assert live_seed(7, 0) == 7
    assert live_seed(7, 5) == live_seed(7, 5) != live_seed(7, 6)
    assert live_seed(7, 5) != 7


def test_save_writes_yaml_or_json(tmp_path: Path) -> None:
    _, session = new(tmp_path, seed=3)
    for name in ("out.yaml", "out.json"):
        n = save(session.export(), tmp_path / name)
        assert n == len(session.export()["actions"])
        result = cli("run", str(tmp_path / name), "--json")
        assert result.exit_code == 0, result.stderr
        want = json.loads(json.dumps(state_json(session.file.ruleset, session.state)))
        assert _state(json.loads(result.stdout)) == want
    with pytest.raises(FracasError) as err:
        save(session.export(), tmp_path / "no" / "such" / "dir.yaml")
    assert err.value.code == "save_failed"


def _state(out: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in out.items() if k not in ("seed", "log", "events", "rolls")}


# --- the property: save, then fracas run, gives the same end state --------------------


def _templates(ef: EncounterFile) -> dict[str, list[dict[str, Any]]]:
    """Values of required parameters the example itself uses, per action."""
    out: dict[str, list[dict[str, Any]]] = {}
    for a in ef.actions:
        out.setdefault(a.do, []).append(dict(a.params))
    return out


def _line(ef: EncounterFile, session: Table, data: st.DataObject) -> str:
    draw = data.draw
    state = session.state
    kind = draw(st.sampled_from(["act", "act", "act", "act", "end", "undo", "redo", "other"]))
    if kind in ("end", "undo", "redo"):
        return kind
    ids = list(state.combatants)
    actor = state.turn.actor if kind == "act" else draw(st.sampled_from(ids))
    spec = draw(st.sampled_from(ef.ruleset.contract.actions))
    params: dict[str, Any] = {}
    used = _templates(ef).get(spec.name, [])
    if used and (spec.required or draw(st.booleans())):
        params = dict(draw(st.sampled_from(used)))
    elif spec.required and any(p not in spec.choices for p in spec.required):
        return "end"
    for p, values in spec.choices.items():
        if p in spec.required or draw(st.integers(0, 3)) == 0:
            params[p] = draw(st.sampled_from(values))
    target = at = None
    params.pop("targets", None)
    if spec.targets != "none":
        tiles = [c.at for c in state.combatants.values() if c.at is not None]
        if spec.targets == "combatant_or_tile" and tiles and draw(st.booleans()):
            at = draw(st.sampled_from(tiles))
        elif spec.targets == "combatants" and draw(st.booleans()):
            params["targets"] = draw(st.lists(st.sampled_from(ids), min_size=2, max_size=3))
        else:
            target = draw(st.sampled_from(ids))
    return command_text(Action(actor, spec.name, target, at, params))


def _setup_only(ruleset: type[Ruleset]) -> str:
    """The ruleset's example without its actions (they assume its seed), as JSON."""
    data = yaml.safe_load(setup_for(ruleset))
    return json.dumps({k: v for k, v in data.items() if k != "actions"})


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.about.name)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_saved_session_replays_to_the_same_end_state(
    ruleset: type[Ruleset], seed: int, data: st.DataObject
) -> None:
    ef = example_file(ruleset)
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(Path(tmp) / "s.sqlite3", durable=False)
        session = TableService(store).create(_setup_only(ruleset), "generated.json", seed=seed)
        taken = 0
        for _ in range(data.draw(st.integers(10, 40))):
            line = _line(ef, session, data)
            try:
                command = parse(line, session.file, session.state)
                if isinstance(command, Act):
                    session.act(command.action)
                elif line == "undo":
                    session.undo()
                elif line == "redo":
                    session.redo()
                taken += 1
            except FracasError as exc:
                assert exc.code != "moved_on"
        save(session.export(), Path(tmp) / "saved.yaml")
        result = cli("run", str(Path(tmp) / "saved.yaml"), "--json")
        assert result.exit_code == 0, result.stderr
        want = json.loads(json.dumps(state_json(session.file.ruleset, session.state)))
        assert _state(json.loads(result.stdout)) == want
        assert TableService(store).open(session.name).state == session.state
        store.close()


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.about.name)
def test_may_do_now_agrees_with_the_rules(ruleset: type[Ruleset]) -> None:
    """At every step of the example: an action listed as allowed on a target is not
    refused there; one listed as not allowed is refused on every target tried."""
    ef = example_file(ruleset)
    engine = Engine(ef.ruleset, ef.start, 1)
    engine.begin(ef.dice, ef.order)
    checked = 0
    for action in (*ef.actions, None):
        state, actor = engine.state, engine.state.turn.actor
        for option in options_now(ef.ruleset, state):
            spec = option.spec
            if any(not option.choices.get(p) for p in spec.required):
                continue
            params = {p: option.choices[p][0] for p in spec.required}
            tries = (
                [Action(actor, spec.name, params=params)]
                if spec.targets == "none"
                else [Action(actor, spec.name, c, params=params) for c in state.combatants]
            )
            for attempt in tries:
                listed = option.refusal is None and (
                    spec.targets == "none" or attempt.target in option.targets
                )
                try:
                    plan(ef.ruleset, state, attempt, RandomDice(checked))
                    refused = False
                except Refusal:
                    refused = True
                except FracasError:
                    refused = False
                assert refused != listed, (attempt, option)
                checked += 1
        if action is not None:
            engine.act(action)
    assert checked > 0


@pytest.mark.parametrize(
    ("params", "code", "message"),
    [
        ({"distance": -1}, "bad_value", "distance: -1: input should be greater than or equal to 0"),
        ({"modifier": "2"}, "bad_value", "modifier: '2': input should be a valid integer"),
        ({"edge": "advantage"}, "unknown_field", "'edge' is not a field of this action"),
    ],
)
def test_odds_check_a_programs_action_as_act_does(
    tmp_path: Path, params: dict[str, Any], code: str, message: str
) -> None:
    # A soak attack with parameters of the wrong type: the odds refuse it as `act` does
    # (check_action), they do not compute odds of an attack no file could give.
    _, session = new(tmp_path, (EXAMPLES / "soak.yaml").read_text())
    actor = session.state.turn.actor
    target = next(cid for cid in session.state.combatants if cid != actor)
    action = Action(actor, "attack", target, params=params)
    for take in (lambda a: session.odds_question(a).answer(), session.act):
        with pytest.raises(Refusal) as exc:
            take(action)
        assert exc.value.code == code
        assert exc.value.message.startswith(message)


def test_switches_and_numbers_are_offered_for_their_parameters(tmp_path: Path) -> None:
    """A page offers every ``bool`` parameter of an action as a switch (``flags``):
    soak's advantage and disadvantage (SK-4), wasteland's burst, sneak, flanking and
    clear shot, escalation's free, unseen and unexpected (ES-2, ES-19 to ES-21); none
    where an action has no such parameter."""
    from fracas.engine.may_do import param_flags, param_numbers

    flags = {(r.about.name, s.name): param_flags(s) for r in RULESETS for s in r.contract.actions}
    assert flags[("soak", "attack")] == ("advantage", "disadvantage")
    assert flags[("wasteland", "attack")] == ("burst", "sneak", "flanking", "clear_shot")
    assert flags[("escalation", "attack")] == ("free", "unseen", "unexpected")
    assert flags[("tier-duel", "stealth")] == ("behind",)
    assert flags[("dice-combat", "attack")] == ()
    table = TableService(open_store(tmp_path / "s.sqlite3", durable=False)).create(
        Path("examples/soak.yaml").read_text(), "soak.yaml"
    )
    view = View(table.snapshot(), Identity.gm()).options()
    attack = next(o for o in view[table.state.turn.actor] if o["do"] == "attack")
    assert attack["flags"] == ["advantage", "disadvantage"]
    # and every whole-number parameter as a number to type in
    assert attack["numbers"] == ["modifier", "distance"]
    numbers = {
        (r.about.name, s.name): param_numbers(s) for r in RULESETS for s in r.contract.actions
    }
    assert numbers[("wasteland", "attack")] == ("accuracy_mod", "evasion_mod")
    assert numbers[("escalation", "attack")] == ("failure_mod",)
    assert numbers[("dice-combat", "attack")] == ()
