"""The table decides, and only the table: every attempt of a player (or a viewer) to do
what the table's policy keeps for the game master, sent as raw socket frames (not
through the page's greyed buttons), is refused with its code, writes nothing and
leaves the table's state and seq as they were; with the game master's switches on
(the policy), what they allow works."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from fracas.table import SetPolicy
from tests.web.support import Served, served

COVERED = "The game master acts out of sight"
"""A record a player may not read, in its log (its sentence alone)."""
HIDDEN = """\
ruleset: dice-combat
seed: 5
order: [ana, bo, cy, grik]
combatants:
  - {id: ana, name: Ana, side: players, at: [0, 0], hand: {is: pistol, loaded: 6}}
  - {id: bo, name: Bo, side: raiders, at: [1, 0], hand: knife}
  - {id: cy, name: Cy, side: players, at: [4, 0], hand: club}
  - {id: grik, name: Grik, side: ambush, at: [2, 0], hand: knife}
actions:
  - {actor: grik, do: hide}
"""
"""The support fight with Grik, hidden by the game master's first action."""


def frame(kind: str, seq: int | None, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "id": 1, "seq": seq, **fields}


def act(seq: int, **action: Any) -> dict[str, Any]:
    return frame("act", seq, action=action)


def answer(ws: Any) -> dict[str, Any]:
    """The answer to the frame just sent (syncs pushed in between skipped)."""
    for _ in range(20):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] not in ("sync", "winbar"):
            return message
    raise AssertionError("no answer")


def hello(ws: Any) -> dict[str, Any]:
    ws.send_json({"type": "hello", "seq": 0})
    message: dict[str, Any] = ws.receive_json()
    assert message["type"] == "sync"
    return message


Attempt = tuple[str, str, Callable[[int], dict[str, Any]], str]
"""(an id for the test, whose token, the frame at the table's seq, the code expected)."""

ATTEMPTS: list[Attempt] = [
    # 1. dice chosen by a player: its own and the enemy's
    ("dice-own-and-enemys", "ana", lambda q: act(q, actor="ana", do="attack", target="bo",
                                                  dice={"attack": 20, "defend": 1}), "forbidden"),
    ("dice-own-only", "ana", lambda q: act(q, actor="ana", do="attack", target="bo",
                                            dice={"attack": 20}), "forbidden"),
    ("dice-in-a-free-roll", "ana", lambda q: act(q, actor="ana", do="roll", notation="1d20",
                                                  dice={"roll": 20}), "forbidden"),
    # 2. out of turn: it is Ana's turn; Bo's player acts
    ("attack-out-of-turn", "bo", lambda q: act(q, actor="bo", do="attack", target="ana"),
     "not_your_turn"),
    ("end-turn-out-of-turn", "bo", lambda q: act(q, actor="bo", do="end_turn"), "not_your_turn"),
    ("reload-out-of-turn", "bo", lambda q: act(q, actor="bo", do="reload"), "not_your_turn"),
    ("move-out-of-turn", "bo", lambda q: act(q, actor="bo", do="move", to=[2, 2]),
     "not_your_turn"),
    # 3. the game master's table actions
    *(
        (f"gm-action-{do}", "ana", (lambda q, do=do, extra=extra: act(q, actor="ana", do=do,
                                                                       **extra)), "forbidden")
        for do, extra in [
            ("delay", {"after": "bo"}),
            ("initiative", {"order": ["ana", "cy", "bo"]}),
            ("set", {"hp": 12}),
            ("heal", {"amount": 5}),
            ("damage", {"amount": 5}),
            ("status", {"add": "burning"}),
            ("add", {"combatant": {"id": "zed"}}),
            ("remove", {}),
            ("hide", {}),
            ("show", {}),
            ("reveal", {"on": True}),
            ("note", {"text": "mine"}),
            ("tactics", {"preset": "naive"}),
            ("policy", {"player_undo": True}),
            ("finish", {}),
            ("reopen", {}),
        ]
    ),
    ("gm-action-on-an-enemy", "ana", lambda q: act(q, actor="bo", do="damage", amount=9),
     "forbidden"),
    ("move-someone-elses-token", "ana", lambda q: act(q, actor="bo", do="move", to=[3, 3]),
     "forbidden"),
    # acting for a combatant it does not play, in that combatant's turn or not
    ("act-for-an-enemy", "ana", lambda q: act(q, actor="bo", do="end_turn"), "forbidden"),
    ("act-for-an-ally-it-does-not-play", "ana", lambda q: act(q, actor="cy", do="end_turn"),
     "forbidden"),
    # 4. undo: players do not, by default
    ("undo", "ana", lambda q: frame("undo", q), "forbidden"),
    ("redo", "ana", lambda q: frame("redo", q), "forbidden"),
    # the game master's other switches and answers
    ("dice-mode", "ana", lambda q: frame("dice", q, physical=True), "forbidden"),
    ("policy-change", "ana", lambda q: frame("policy", q, changes={"enemy_hp": "exact"}),
     "forbidden"),
    ("winbar-shown", "ana", lambda q: frame("winbar", q, players=True), "forbidden"),
    ("answer-a-request", "ana", lambda q: frame("answer", q, request=1, accept=True),
     "forbidden"),
    # stale and malformed frames
    ("stale-seq", "ana", lambda q: act(q - 1, actor="ana", do="end_turn"), "moved_on"),
    ("unknown-type", "ana", lambda q: frame("cheat", q), "unknown_message"),
    ("no-seq", "ana", lambda q: {"type": "act", "id": 1, "action": {"actor": "ana"}},
     "bad_message"),
    ("odds-of-an-enemys-attack", "ana", lambda q: frame("odds", q, action={
        "actor": "bo", "do": "attack", "target": "ana"}), "forbidden"),
    ("odds-of-a-gm-action", "ana", lambda q: frame("odds", q, action={
        "actor": "ana", "do": "heal", "amount": 3}), "forbidden"),
    # a move's cost asked of a token it may not move (issue 22 item 3)
    ("cost-of-an-enemys-move", "ana", lambda q: frame("cost", q, action={
        "actor": "bo", "do": "move", "to": [2, 2]}), "forbidden"),
    ("cost-out-of-turn", "bo", lambda q: frame("cost", q, action={
        "actor": "bo", "do": "move", "to": [2, 2]}), "not_your_turn"),
    ("cost-of-no-move", "ana", lambda q: frame("cost", q, action={
        "actor": "ana", "do": "end_turn"}), "bad_value"),
    ("cost-without-an-action", "ana", lambda q: frame("cost", q), "bad_message"),
    # a viewer of the table acts
    ("viewer-acts", "viewer", lambda q: act(q, actor="ana", do="end_turn"), "forbidden"),
    ("viewer-undoes", "viewer", lambda q: frame("undo", q), "forbidden"),
]  # fmt: skip


def _stored(s: Served) -> int:
    return len(s.table.store.load(s.table.name).records)


def _token(s: Served, who: str) -> str:
    if who == "viewer":
        _, token = s.links.add("fight", "TV", [])
        return token
    return {"ana": s.ana, "bo": s.bo, "gm": s.gm}[who]


@pytest.mark.parametrize("attempt", ATTEMPTS, ids=[a[0] for a in ATTEMPTS])
def test_a_players_attempt_is_refused_and_writes_nothing(tmp_path: Path, attempt: Attempt) -> None:
    _, who, make, code = attempt
    with served(tmp_path) as s:
        seq, state, stored = s.table.seq, s.table.state, _stored(s)
        client = TestClient(s.app)
        with client.websocket_connect(f"/ws?token={_token(s, who)}") as ws:
            hello(ws)
            ws.send_json(make(seq))
            reply = answer(ws)
        assert (reply["type"], reply["code"]) == ("refused", code), reply
        assert (s.table.seq, s.table.state, _stored(s)) == (seq, state, stored)
        assert not s.table.requests and s.table.pending is None


def test_a_forged_token_and_an_oversize_frame_are_refused(tmp_path: Path) -> None:
    with served(tmp_path) as s:
        seq = s.table.seq
        client = TestClient(s.app)
        with client.websocket_connect(f"/ws?token={s.ana[:-1]}x") as ws:
            assert ws.receive_json()["code"] == "bad_token"
            with pytest.raises(WebSocketDisconnect):
                ws.receive_json()
        with client.websocket_connect(f"/ws?token={s.ana}") as ws:
            hello(ws)
            ws.send_text(json.dumps(act(seq, actor="ana", do="note", text="x" * 20_000)))
            assert answer(ws)["code"] == "too_big"
            ws.send_text("{not json")
            assert answer(ws)["code"] == "bad_json"
        assert (
            client.get("/api/export", headers={"Authorization": f"Bearer {s.ana}"}).json()["code"]
            == "forbidden"
        )
        assert s.table.seq == seq


def test_a_hidden_combatant_is_not_a_target_and_is_not_named_back(tmp_path: Path) -> None:
    with served(tmp_path, HIDDEN) as s:
        seq = s.table.seq
        assert s.table.state.hidden == {"grik"}
        client = TestClient(s.app)
        with client.websocket_connect(f"/ws?token={s.ana}") as ws:
            hello(ws)
            ws.send_json(act(seq, actor="ana", do="attack", target="grik"))
            reply = answer(ws)
        assert reply["code"] == "unknown_combatant" and "grik" not in json.dumps(reply).lower()
        assert s.table.seq == seq


def test_a_judgement_call_is_a_request_the_game_master_answers(tmp_path: Path) -> None:
    """dice-combat's edge is the game master's call (ActionSpec.calls): Pat's attack with
    advantage waits; refused, nothing is written; asked again and accepted, it is stored
    as Pat's, with advantage."""
    with served(tmp_path) as s:
        seq = s.table.seq
        client = TestClient(s.app)
        with (
            client.websocket_connect(f"/ws?token={s.gm}") as gm,
            client.websocket_connect(f"/ws?token={s.ana}") as pat,
        ):
            hello(gm)
            hello(pat)
            edge = {"actor": "ana", "do": "attack", "target": "bo", "edge": "advantage"}
            pat.send_json(frame("act", seq, action=edge))
            reply = answer(pat)
            assert reply["type"] == "requested"
            waiting = s.table.requests
            assert [r.calls for r in waiting] == [("edge",)] and s.table.seq == seq
            shown = gm.receive_json()
            while shown["type"] != "sync" or not shown["state"]["requests"]:
                shown = gm.receive_json()
            request = shown["state"]["requests"][0]
            assert request["text"] == "Pat asks for advantage on Ana's attack"
            assert request["action_words"] == "Ana attacks Bo (edge: advantage)"
            gm.send_json(frame("answer", seq, request=waiting[0].id, accept=False))
            assert answer(gm)["type"] == "done"
            assert not s.table.requests and s.table.seq == seq
            pat.send_json(frame("act", seq, action=edge))
            assert answer(pat)["type"] == "requested"
            gm.send_json(frame("answer", seq, request=s.table.requests[0].id, accept=True))
            assert answer(gm)["type"] == "done"
        record = s.table.log[-1]
        assert s.table.seq == seq + 1 and record.by == "Pat"
        assert record.action is not None and record.action.params == {"edge": "advantage"}
        assert [r.label for r in record.rolls][:1] == ["attack"]
        assert len([r for r in record.rolls if r.label == "attack"]) == 2  # advantage: 2 d20


def test_what_the_game_masters_switches_allow_works(tmp_path: Path) -> None:
    """With the policy's switches on, a player makes the calls it allows itself and
    undoes its own latest action when it rolled no die; a rolled one it may not undo
    (never a re-roll), and the game master may, and put it back."""
    with served(tmp_path) as s:
        s.table.submit(SetPolicy({"player_undo": True, "player_calls": ["edge"]}))
        client = TestClient(s.app)
        with client.websocket_connect(f"/ws?token={s.ana}") as pat:
            hello(pat)
            seq = s.table.seq
            edge = {"actor": "ana", "do": "attack", "target": "bo", "edge": "advantage"}
            pat.send_json(frame("act", seq, action=edge))
            assert answer(pat)["type"] == "done"
            attacked = s.table.log[-1]
            assert attacked.rolls and attacked.by == "Pat"
            pat.send_json(frame("undo", seq + 1))
            refused = answer(pat)
            assert refused["code"] == "forbidden" and "never a re-roll" in refused["message"]
            assert s.table.seq == seq + 1
            s.table.undo()  # the game master's
            s.table.redo()  # and back, with the same dice
            assert s.table.log[-1].kind == "redo" and s.table.state.get("bo").hp < 12
            pat.send_json(frame("act", s.table.seq, action={"actor": "ana", "do": "end_turn"}))
            assert answer(pat)["type"] == "done"
            pat.send_json(frame("undo", s.table.seq))
            assert answer(pat)["type"] == "done"  # no die rolled: a mis-click taken back
            assert s.table.log[-1].kind == "undo" and s.table.state.turn.actor == "ana"


def test_a_players_free_roll_is_rolled_by_the_table(tmp_path: Path) -> None:
    with served(tmp_path) as s:
        seq = s.table.seq
        client = TestClient(s.app)
        with client.websocket_connect(f"/ws?token={s.bo}") as sam:
            hello(sam)
            sam.send_json(act(seq, actor="bo", do="roll", notation="1d20"))  # not Bo's turn
            assert answer(sam)["type"] == "done"
        record = s.table.log[-1]
        assert record.by == "Sam" and [r.label for r in record.rolls] == ["roll"]
        assert s.table.state.turn.actor == "ana"  # it took no turn and ended none


def test_a_players_question_of_its_moves_cost_is_answered_and_writes_nothing(
    tmp_path: Path,
) -> None:
    """Issue 22 item 3: a ``cost`` frame of the player's own token in its turn is answered
    with the table's figure (here the table's walk: 6 tiles a turn by default), and
    counts apart from the messages' rate (a drag asks one a tile)."""
    with served(tmp_path) as s:
        seq, state = s.table.seq, s.table.state
        client = TestClient(s.app)
        with client.websocket_connect(f"/ws?token={s.ana}") as ws:
            hello(ws)
            replies = []
            for x in range(1, 41):  # more than the 30 messages of RATE
                ws.send_json(
                    frame("cost", seq, action={"actor": "ana", "do": "move", "to": [x % 8, 5]})
                )
                replies.append(answer(ws))
            ws.send_json(act(seq, actor="ana", do="end_turn"))
            done = answer(ws)
        assert {r["type"] for r in replies} == {"cost"}
        assert replies[0]["cost"]["words"] == ["Ana walks 5 tiles (1 left this turn)"]
        assert (replies[6]["cost"]["allowed"], replies[6]["cost"]["code"]) == (False, "too_far")
        assert done["type"] == "done"  # the drop after a long drag is not too fast
        assert s.table.seq == seq + 1 and s.table.state != state


def test_the_game_masters_tactics_frame_is_taken_and_told_to_the_game_master_alone(
    tmp_path: Path,
) -> None:
    """Issue 23, item 1: the page's tactics select sends a ``tactics`` action; the game
    master's is taken (the state's preset, which the win bar and the advisor play), and
    a player's socket is told nothing of it (no line, no preset), while Pat's own frame
    for it was refused above (``gm-action-tactics``)."""
    with served(tmp_path) as s:
        seq = s.table.seq
        client = TestClient(s.app)
        with (
            client.websocket_connect(f"/ws?token={s.gm}") as gm,
            client.websocket_connect(f"/ws?token={s.ana}") as pat,
        ):
            hello(gm)
            hello(pat)
            gm.send_json(act(seq, actor="bo", do="tactics", preset="random"))
            assert answer(gm)["type"] == "done"
            synced = pat.receive_json()
            while synced["type"] != "sync" or synced["seq"] != seq + 1:
                synced = pat.receive_json()
        assert s.table.seq == seq + 1 and s.table.state.presets == {"bo": "random"}
        assert "tactics" not in json.dumps(synced) and "random" not in json.dumps(synced)


LATER = (
    HIDDEN.replace("actions:\n  - {actor: grik, do: hide}\n", "")
    .replace("order: [ana, bo, cy, grik]", "order: [ana, grik, bo, cy]")
    .replace("side: ambush, at: [2, 0]", "side: ambush, at: [1, 1]")
)
"""The fight with Grik in sight, next after Ana: Ana shoots him, he stabs Ana back."""


def test_a_combatant_hidden_later_is_in_no_frame_a_player_gets_afterwards(
    tmp_path: Path,
) -> None:
    """Pat (Ana) shoots Grik by a raw frame, Grik stabs Ana; the game master hides
    Grik. Every frame Pat's and Sam's fresh sockets get afterwards (a hello from the
    log's start and from its middle, an attack and odds on Grik, refused) carries
    neither his id nor his name: not the earlier lines either."""
    with served(tmp_path, LATER) as s:
        client = TestClient(s.app)
        with client.websocket_connect(f"/ws?token={s.ana}") as pat:
            hello(pat)
            pat.send_json(act(s.table.seq, actor="ana", do="attack", target="grik"))
            assert answer(pat)["type"] == "done"
            pat.send_json(act(s.table.seq, actor="ana", do="end_turn"))
            assert answer(pat)["type"] == "done"
        with client.websocket_connect(f"/ws?token={s.gm}") as gm:
            hello(gm)
            for action in ({"actor": "grik", "do": "attack", "target": "ana"},
                           {"actor": "grik", "do": "hide"}):  # fmt: skip
                gm.send_json(act(s.table.seq, **action))
                assert answer(gm)["type"] == "done"
        gm_log = json.dumps(s.table.snapshot().log[1].events, default=repr)
        assert "Grik" in gm_log  # the earlier lines did name him
        seq = s.table.seq
        for token in (s.ana, s.bo):
            frames: list[str] = []
            with client.websocket_connect(f"/ws?token={token}") as ws:
                for since in (0, 2):
                    ws.send_json({"type": "hello", "seq": since})
                    frames.append(ws.receive_text())
                for kind in ("act", "odds"):
                    ws.send_json(frame(kind, seq, action={"actor": "ana", "do": "attack",
                                                          "target": "grik"}))  # fmt: skip
                    frames.append(ws.receive_text())
            lines = json.loads(frames[0])["lines"]
            covered = {line["seq"] for line in lines if line["text"] == COVERED}
            assert covered >= {1, 3}  # Grik's attack and his hiding: out of sight
            assert [json.loads(f)["type"] for f in frames] == ["sync", "sync", *["refused"] * 2]
            for text in frames:
                assert "grik" not in text.lower(), text
        assert s.table.seq == seq
