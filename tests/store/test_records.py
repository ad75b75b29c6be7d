"""Engine records as stored JSON and back: every kind round-trips through a replay, the
JSON is plain (it survives ``json.dumps``), and a record the rules no longer reproduce
(``log_drift``) or that is not a record (``bad_record``) is refused, never replayed."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from fracas.engine.play import Engine
from fracas.io.files import load
from fracas.io.store import StoreError
from fracas.io.store.records import check_replayed, record_from_json, record_json
from fracas.model import Action

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "dice-combat.yaml"


def played() -> tuple[Engine, list[dict[str, Any]]]:
    ef = load(EXAMPLE)
    engine = Engine(ef.ruleset, ef.start, ef.seed)
    engine.begin(ef.dice, ef.order)
    for action in ef.actions[:6]:
        engine.act(action)
    engine.undo()
    engine.undo()
    engine.redo()
    engine.act(Action("dee", "set", params={"hp": 5, "statuses": {}}))
    return engine, [json.loads(json.dumps(record_json(r))) for r in engine.log]


def test_every_kind_round_trips_through_replay() -> None:
    engine, bodies = played()
    assert {b["kind"] for b in bodies} == {"start", "action", "undo", "redo"}
    ef = load(EXAMPLE)
    again = Engine(ef.ruleset, ef.start, None)  # no seed: the recorded dice are all it needs
    for body in bodies:
        replayed = again.replay(record_from_json(ef, body), ef.order)
        check_replayed(body, replayed, "t")
        assert record_json(replayed) == body
    assert again.state == engine.state


def test_a_record_holds_the_action_its_rolls_and_its_events() -> None:
    _, bodies = played()
    attack = bodies[1]
    assert attack["action"] == {"actor": "ana", "do": "attack", "target": "bo"}
    assert [r["label"] for r in attack["rolls"]] == ["attack", "ammo", "defend:bo"]
    assert any(e["type"] == "Damaged" for e in attack["events"])
    assert bodies[-2]["kind"] == "redo" and bodies[-2]["target"] == bodies[-3]["target"]
    move = bodies[2]["action"]
    assert move == {"actor": "bo", "do": "move", "to": [4, 1]}


@pytest.mark.parametrize(
    ("key", "change"),
    [
        ("events", lambda b: b["events"][-1].update(amount=99)),
        ("rolls", lambda b: b["rolls"][1].update(value=3)),
        ("kind", lambda b: b.update(kind="start")),
    ],
)
def test_drift_is_refused(key: str, change: object) -> None:
    """A stored record that differs from what its replay gives is refused."""
    _, bodies = played()
    ef = load(EXAMPLE)
    engine = Engine(ef.ruleset, ef.start, None)
    engine.replay(record_from_json(ef, bodies[0]), ef.order)
    replayed = engine.replay(record_from_json(ef, bodies[1]), ef.order)
    check_replayed(bodies[1], replayed, "gate")  # as stored: fine
    body = copy.deepcopy(bodies[1])
    change(body)  # type: ignore[operator]
    with pytest.raises(StoreError) as err:
        check_replayed(body, replayed, "gate")
    assert err.value.code == "log_drift"
    assert f"its {key} were" in err.value.message and "'gate' record #1" in err.value.message


@pytest.mark.parametrize(
    "body",
    [
        {"seq": 3, "kind": "teleport", "rolls": []},
        {"seq": 3, "kind": "action", "rolls": []},
        {"seq": 3, "kind": "undo", "rolls": []},
        {"seq": 3, "kind": "action", "rolls": [{"label": "attack"}], "action": {}},
        {"seq": 3, "kind": "action", "rolls": [], "action": {"actor": "zed", "do": "attack"}},
        {"seq": "x", "kind": "start", "rolls": []},
    ],
)
def test_not_a_record(body: dict[str, object]) -> None:
    with pytest.raises(StoreError) as err:
        record_from_json(load(EXAMPLE), body)
    assert err.value.code == "bad_record"
