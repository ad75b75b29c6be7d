"""The tracker's win bar over the socket (Starlette's test client): the game master's
page gets each side's chance after every record, exact where the chain is small (equal
to ``fracas lab win`` on the table's state) and else an estimate with its interval;
a player's socket never receives a bar unless the game master shows it to players,
which only the game master may choose."""

from __future__ import annotations

import threading
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from fracas.lab import bar
from fracas.lab.bar import bar_in_worker
from fracas.lab.chain import win_odds
from tests.web.support import served

DUEL = """\
ruleset: dice-combat
seed: 5
order: [ana, bo]
combatants:
  - {id: ana, name: Ana, side: players, at: [0, 0], hp: 4, max_hp: 4, hand: club}
  - {id: bo, name: Bo, side: raiders, at: [1, 0], hp: 4, max_hp: 4, hand: knife}
"""


def hello(ws: Any, winbar: bool = True) -> dict[str, Any]:
    ws.send_json({"type": "hello", "seq": 0, "winbar": winbar})
    message: dict[str, Any] = ws.receive_json()
    assert message["type"] == "sync"
    return message


def until(ws: Any, kind: str, seen: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The next message of type ``kind``; every message read is kept in ``seen``."""
    for _ in range(20):
        message: dict[str, Any] = ws.receive_json()
        if seen is not None:
            seen.append(message)
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind!r} message")


def bar_for(ws: Any, seq: int, seen: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The win bar of record ``seq`` (older ones, still on their way, are skipped)."""
    for _ in range(10):
        message = until(ws, "winbar", seen)
        if message["seq"] == seq and message["bar"] is not None:
            return message
    raise AssertionError(f"no win bar for seq {seq}")


def test_the_game_masters_bar_is_exact_and_follows_each_action(tmp_path: Path) -> None:
    with served(tmp_path, DUEL) as s:
        # the chain is small, and the bar's budget is work (issue 34): a busy machine
        # (two test workers) may cut its slices, never turn it into an estimate
        client = TestClient(s.app)
        with client.websocket_connect(f"/ws?token={s.gm}") as gm:
            seq = hello(gm)["seq"]
            message = bar_for(gm, seq)
            assert message["gm"] is True and message["players"] is False
            bar = message["bar"]
            exact = win_odds(s.table.ruleset, s.table.state)
            assert bar["method"] == "exact" and bar["states"] == exact.states
            assert bar["sides"]["players"] == {
                "win": float(exact.sides["players"]),
                "ci95": None,
                "certain": False,
            }
            assert bar["final"] is True
            assert bar["sides"]["raiders"]["win"] == float(exact.sides["raiders"])
            action = {"actor": "ana", "do": "attack", "target": "bo"}
            gm.send_json({"type": "act", "id": 1, "seq": seq, "action": action})
            assert until(gm, "done")["seq"] == seq + 1
            after = bar_for(gm, seq + 1)["bar"]
            now = win_odds(s.table.ruleset, s.table.state)
            assert after["sides"]["players"]["win"] == float(now.sides["players"])


def test_past_the_bound_the_bar_is_an_estimate_with_its_interval(tmp_path: Path) -> None:
    """Past its bound the chain is given up: the bar is an estimate (another file than the
    other tests', whose solved chain a worker keeps for the same table and file)."""
    with served(tmp_path, DUEL + "# bounded\n") as s:
        s.app.state.hub.winbars.limits.update(max_states=5, fights=300)
        client = TestClient(s.app)
        with client.websocket_connect(f"/ws?token={s.gm}") as gm:
            seq = hello(gm)["seq"]
            bar = bar_for(gm, seq)["bar"]
            while not bar["final"]:  # slices of work: 20 fights, then 100 a slice
                assert bar["method"] in ("working", "estimate")
                bar = bar_for(gm, seq)["bar"]
            assert bar["method"] == "estimate" and bar["fights"] == 300
            exact = float(win_odds(s.table.ruleset, s.table.state).sides["players"])
            lo, hi = bar["sides"]["players"]["ci95"]
            assert lo <= bar["sides"]["players"]["win"] <= hi
            assert lo <= exact <= hi


def test_a_players_socket_never_receives_the_bar_unless_shown(tmp_path: Path) -> None:
    """The gate is on the server, in the table's policy: while the game master has not
    shown it, no message to Pat's socket carries a bar (Pat asked for it, and the game
    master's page got one for every record); once shown (a policy record), Pat's gets
    it; hidden again, Pat's hears so."""
    with served(tmp_path, DUEL, {"enemy_hp": "exact"}) as s:
        client = TestClient(s.app)
        seen: list[dict[str, Any]] = []
        with (
            client.websocket_connect(f"/ws?token={s.gm}") as gm,
            client.websocket_connect(f"/ws?token={s.ana}") as pat,
        ):
            seq = hello(gm)["seq"]
            hello(pat)
            bar_for(gm, seq)
            for i, do in enumerate(("attack", "end_turn"), start=1):
                action = {"actor": "ana", "do": do, **({"target": "bo"} if do == "attack" else {})}
                gm.send_json({"type": "act", "id": i, "seq": seq, "action": action})
                seq = until(gm, "done")["seq"]
                bar_for(gm, seq)
                until(pat, "sync", seen)
            # Pat may not choose, and Pat's socket got nothing but syncs so far
            pat.send_json({"type": "winbar", "id": 7, "seq": seq, "players": True})
            refused = until(pat, "refused", seen)
            assert refused["code"] == "forbidden"
            gm.send_json({"type": "winbar", "id": 8, "seq": seq, "players": "yes"})
            assert until(gm, "refused")["code"] == "bad_message"
            gm.send_json({"type": "winbar", "id": 9, "seq": seq, "players": True})
            seq = until(gm, "done")["seq"]  # the policy's record
            shown = bar_for(pat, seq, seen)
            assert shown["players"] is True and shown["gm"] is False
            assert shown["bar"] == bar_for(gm, seq)["bar"]
            gm.send_json({"type": "winbar", "id": 10, "seq": seq, "players": False})
            seq = until(gm, "done")["seq"]
            hidden = until(pat, "winbar", seen)
            assert hidden["bar"] is None and hidden["players"] is False
            action = {"actor": "bo", "do": "attack", "target": "ana"}
            gm.send_json({"type": "act", "id": 11, "seq": seq, "action": action})
            seq = until(gm, "done")["seq"]
            assert bar_for(gm, seq)["players"] is False
            pat.send_json({"type": "hello", "seq": seq})
            until(pat, "sync", seen)
        bars = [m for m in seen if m["type"] == "winbar" and m["bar"] is not None]
        assert bars and all(m["players"] is True for m in bars)
        assert [m for m in seen if m["type"] == "winbar"].index(bars[0]) == 0


def test_players_get_no_bar_where_the_table_hides_enemy_hp(tmp_path: Path) -> None:
    """Shown to players, the bar still reaches no player while enemy HP is a label: it
    would be worked out from HP they may not see."""
    with served(tmp_path, DUEL) as s:
        client = TestClient(s.app)
        seen: list[dict[str, Any]] = []
        with (
            client.websocket_connect(f"/ws?token={s.gm}") as gm,
            client.websocket_connect(f"/ws?token={s.ana}") as pat,
        ):
            seq = hello(gm)["seq"]
            hello(pat)
            gm.send_json({"type": "winbar", "id": 1, "seq": seq, "players": True})
            seq = until(gm, "done")["seq"]
            assert bar_for(gm, seq)["players"] is True
            action = {"actor": "ana", "do": "end_turn"}
            gm.send_json({"type": "act", "id": 2, "seq": seq, "action": action})
            seq = until(gm, "done")["seq"]
            bar_for(gm, seq)
            pat.send_json({"type": "hello", "seq": seq})
            until(pat, "sync", seen)
        assert all(m["bar"] is None for m in seen if m["type"] == "winbar")


def test_a_page_that_does_not_ask_gets_no_bar(tmp_path: Path) -> None:
    with served(tmp_path, DUEL) as s:
        client = TestClient(s.app)
        with client.websocket_connect(f"/ws?token={s.gm}") as gm:
            seq = hello(gm, winbar=False)["seq"]
            action = {"actor": "ana", "do": "attack", "target": "bo"}
            gm.send_json({"type": "act", "id": 1, "seq": seq, "action": action})
            kinds = [gm.receive_json()["type"] for _ in range(2)]
            gm.send_json({"type": "hello", "seq": seq + 1})
            kinds.append(until(gm, "sync")["type"])
        assert "winbar" not in kinds
        assert s.app.state.hub.winbars.latest == {}


def test_a_bar_for_a_state_that_moved_on_is_dropped_or_cancelled(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """The bar of record S is being worked out when two actions land: its result is
    dropped when it ends, the bar of S+1 (still waiting) is cancelled, and the page
    gets only the bar of S+2."""
    started, release = threading.Event(), threading.Event()
    submitted: list[Future[Any]] = []

    def held(*args: Any) -> dict[str, Any]:
        started.set()
        release.wait(10)
        return bar_in_worker(*args)

    monkeypatch.setattr(bar, "bar_in_worker", held)  # the table asks it of the lab when asked
    with served(tmp_path, DUEL) as s:
        bars = s.app.state.hub.winbars
        real = bars._executor

        pools: list[Any] = []

        def watched() -> Any:
            pool = real()
            if pool not in pools:  # each submit to it noted, once
                pools.append(pool)
                submit = pool.submit

                def recorded(*args: Any, **kwargs: Any) -> Future[Any]:
                    future: Future[Any] = submit(*args, **kwargs)
                    submitted.append(future)
                    return future

                pool.submit = recorded
            return pool

        monkeypatch.setattr(bars, "_executor", watched)
        client = TestClient(s.app)
        seen: list[dict[str, Any]] = []
        with client.websocket_connect(f"/ws?token={s.gm}") as gm:
            seq = hello(gm)["seq"]
            assert started.wait(10)  # the bar of record seq - 1 is being worked out
            for i, do in enumerate(("attack", "end_turn"), start=1):
                action = {"actor": "ana", "do": do, **({"target": "bo"} if do == "attack" else {})}
                gm.send_json({"type": "act", "id": i, "seq": seq, "action": action})
                seq = until(gm, "done", seen)["seq"]
            release.set()
            bar_for(gm, seq, seen)
        assert [m["seq"] for m in seen if m["type"] == "winbar"] == [seq]
        assert len(submitted) == 3 and submitted[1].cancelled()
        assert not submitted[0].cancelled() and submitted[0].done()


STRANDED = """\
ruleset: dice-combat
seed: 5
order: [ana, bo]
combatants:
  - {id: ana, name: Ana, side: players, at: [0, 0], hp: 3, max_hp: 3, hand: {is: pistol, loaded: 8}}
  - {id: bo, name: Bo, side: raiders, at: [5, 0], hp: 3, max_hp: 3, hand: knife}
tactics: {bo: {approach: false}}
"""


def test_the_game_master_hears_who_sits_the_fight_out_and_players_do_not(
    tmp_path: Path,
) -> None:
    """Bo's knife reaches nobody from 5 tiles and his tactics do not walk: the
    chain's Bo only ends his turns (WinOdds.idle), the game master's bar names him, and
    a player's bar, once shown, names nobody."""
    with served(tmp_path, STRANDED, {"enemy_hp": "exact"}) as s:
        client = TestClient(s.app)
        with (
            client.websocket_connect(f"/ws?token={s.gm}") as gm,
            client.websocket_connect(f"/ws?token={s.ana}") as pat,
        ):
            seq = hello(gm)["seq"]
            hello(pat)
            bar = bar_for(gm, seq)["bar"]
            assert bar["method"] == "exact" and bar["idle"] == ["Bo"]
            assert bar["sides"]["players"]["win"] == 1.0
            gm.send_json({"type": "winbar", "id": 1, "seq": seq, "players": True})
            seq = until(gm, "done")["seq"]
            assert bar_for(pat, seq)["bar"]["idle"] == []


def test_the_advisor_over_the_socket_follows_the_tables_policy(tmp_path: Path) -> None:
    """Issue 23: the game master's ``advise`` gets every choice of whoever's turn it is
    ranked, the tactics' first, with the chances to win; Pat's is refused until the
    policy lets players ask (a policy record), then Pat gets it in Ana's turn, without
    the chance to down Bo (Pat sees Bo's HP as a label) nor the chances to win; Sam
    (Bo's) is refused in Ana's turn."""
    with served(tmp_path, DUEL) as s:
        client = TestClient(s.app)
        with (
            client.websocket_connect(f"/ws?token={s.gm}") as gm,
            client.websocket_connect(f"/ws?token={s.ana}") as pat,
            client.websocket_connect(f"/ws?token={s.bo}") as sam,
        ):
            seq = hello(gm, winbar=False)["seq"]
            assert hello(pat, winbar=False)["state"]["you"]["advise"] is False
            hello(sam, winbar=False)
            gm.send_json({"type": "advise", "id": 1, "seq": seq})
            # issue 34: the choices alone (from the odds' worker, at once), and again with
            # the chances to win (from the bar's): two answers, in whichever order they
            # come (the page keeps the one with the chances)
            two = [until(gm, "advice"), until(gm, "advice")]
            two.sort(key=lambda m: not m["advice"]["working"])
            listed, advice = two
            assert listed["id"] == 1 and listed["seq"] == seq
            assert listed["advice"]["working"] is True and listed["advice"]["chances"] is True
            assert listed["advice"]["win"] is None
            assert all(c["win"] is None for c in listed["advice"]["choices"])
            assert advice["id"] == 1 and advice["seq"] == seq
            data = advice["advice"]
            assert data["working"] is False and data["unsolved"] is None
            assert [c["steps"] for c in data["choices"]] == [
                c["steps"] for c in listed["advice"]["choices"]
            ]
            assert data["actor"] == "ana" and data["method"] == "exact"
            top = data["choices"][0]
            assert top["tactics"] is True and top["steps"][0]["do"] == "attack"
            assert top["win"] == data["win"] and 0 < data["win"] < 1
            assert "down" in top["odds"]["combatants"]["bo"]
            pat.send_json({"type": "advise", "id": 2, "seq": seq})
            refused = until(pat, "refused")
            assert refused["code"] == "forbidden" and "advisor" in refused["message"]
            gm.send_json({"type": "policy", "id": 3, "seq": seq, "changes": {"advisor": True}})
            seq = until(gm, "done")["seq"]
            assert until(pat, "sync")["state"]["you"]["advise"] is True
            pat.send_json({"type": "advise", "id": 4, "seq": seq})
            mine = until(pat, "advice")["advice"]  # one answer: no chances to wait for
            assert mine["working"] is False and mine["chances"] is False
            assert [c["steps"] for c in mine["choices"]] == [c["steps"] for c in data["choices"]]
            assert mine["win"] is None and all(c["win"] is None for c in mine["choices"])
            assert "down" not in mine["choices"][0]["odds"]["combatants"]["bo"]
            until(sam, "sync")
            sam.send_json({"type": "advise", "id": 5, "seq": seq})
            assert until(sam, "refused")["code"] == "forbidden"
