"""An action is checked once (issue 33): a page's action, sent as raw socket frames, is
read at the table's door into one typed action by the one checker
(:func:`fracas.engine.checking.check_action`) and trusted below it (no second look by the
engine, none for a player's move made its own walk); a stored log is replayed without
checking; a policy change stays a policy change whatever its fields say."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import fracas.engine.checking
from fracas.io.store import open_store
from fracas.table.table import resume
from tests.web.support import served
from tests.web.test_permissions import act, answer, frame, hello


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """Every call of the checker, by what it was given."""
    calls: list[Any] = []
    real = fracas.engine.checking.check_action

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[2])
        return real(*args, **kwargs)

    monkeypatch.setattr(fracas.engine.checking, "check_action", counted)
    yield calls


def test_a_players_attack_from_the_page_is_checked_once(tmp_path: Path, checks: list[Any]) -> None:
    with served(tmp_path) as s, TestClient(s.app) as client:
        with client.websocket_connect(f"/ws?token={s.ana}") as ws:
            seq = hello(ws)["seq"]
            checks.clear()
            ws.send_json(act(seq, actor="ana", do="attack", target="bo"))
            done = answer(ws)
        assert done["type"] == "done", done
        assert len(checks) == 1
        record = s.table.log[-1]
        assert record.action is not None and record.action.do == "attack"


def test_a_players_move_becomes_its_walk_with_one_check(tmp_path: Path, checks: list[Any]) -> None:
    with served(tmp_path) as s, TestClient(s.app) as client:
        with client.websocket_connect(f"/ws?token={s.ana}") as ws:
            seq = hello(ws)["seq"]
            checks.clear()
            ws.send_json(act(seq, actor="ana", do="move", to=[0, 1]))
            done = answer(ws)
        assert done["type"] == "done", done
        assert len(checks) == 1
        assert s.table.state.get("ana").at == (0, 1)
        record = s.table.log[-1]
        assert record.action is not None and record.action.params.get("walk") is True


def test_a_policy_change_is_checked_once_and_stays_a_policy_change(
    tmp_path: Path, checks: list[Any]
) -> None:
    with served(tmp_path) as s, TestClient(s.app) as client:
        hp = s.table.state.get("bo").hp
        with client.websocket_connect(f"/ws?token={s.gm}") as ws:
            seq = hello(ws)["seq"]
            checks.clear()
            ws.send_json(frame("policy", seq, changes={"player_undo": True}))
            done = answer(ws)
            assert done["type"] == "done", done
            assert len(checks) == 1
            record = s.table.log[-1]
            assert record.action is not None and record.action.do == "policy"
            assert s.table.state.policy.player_undo is True
            # an action's own fields among the changes are refused: never another action
            seq = done["seq"]
            changes = {"player_undo": False, "do": "attack", "actor": "ana", "target": "bo"}
            ws.send_json(frame("policy", seq, changes=changes))
            refused = answer(ws)
        assert refused["type"] == "refused" and refused["code"] == "unknown_field", refused
        assert refused["message"].startswith("'do' is not a field of the table's policy; valid:")
        assert s.table.seq == seq and s.table.state.policy.player_undo is True
        assert s.table.state.get("bo").hp == hp


def test_a_stored_log_is_replayed_without_checking(tmp_path: Path, checks: list[Any]) -> None:
    with served(tmp_path) as s, TestClient(s.app) as client:
        with client.websocket_connect(f"/ws?token={s.ana}") as ws:
            seq = hello(ws)["seq"]
            ws.send_json(act(seq, actor="ana", do="attack", target="bo"))
            assert answer(ws)["type"] == "done"
        ended = s.table.state
    checks.clear()
    store = open_store(tmp_path / "s.sqlite3", durable=False)
    try:
        again = resume(store, "fight")
        assert again.state == ended
    finally:
        store.close()
    assert checks == []


def test_every_change_carries_the_seq_its_sender_saw(tmp_path: Path) -> None:
    """A policy change or the win bar's switch without the seq it saw is refused (it was
    let through without the stale check); with a stale seq, ``moved_on``."""
    with served(tmp_path) as s, TestClient(s.app) as client:
        with client.websocket_connect(f"/ws?token={s.gm}") as ws:
            seq = hello(ws)["seq"]
            for message in (
                {"type": "winbar", "id": 1, "players": True},
                {"type": "policy", "id": 1, "changes": {"player_undo": True}},
            ):
                ws.send_json(message)
                refused = answer(ws)
                assert (refused["type"], refused["code"]) == ("refused", "bad_message"), refused
                assert refused["message"].endswith("names the seq it saw ('seq': N)")
            ws.send_json(frame("winbar", seq - 1, players=True))
            assert answer(ws)["code"] == "moved_on"
            assert s.table.seq == seq and s.table.state.policy.winbar is False
            ws.send_json(frame("winbar", seq, players=True))
            assert answer(ws)["type"] == "done"
        assert s.table.state.policy.winbar is True
        record = s.table.log[-1]
        assert record.action is not None and record.action.do == "policy"
        assert dict(record.action.params) == {"winbar": True}
