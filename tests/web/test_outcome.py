"""Issue 22, item 5: a fight ends at the end. When one side alone stands, every page's
state says who won (a player's too, the standing enemy hidden from it not named); the
game master may finish the fight (then no rules action is taken, by anyone) and reopen
it; both are logged actions of the table service, undone like any other, refused to a
player as raw socket frames."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from fracas.model import Action
from fracas.table import GAME_MASTER, Act, Identity, Undo, View
from fracas.web.shown import page_lines, page_state
from tests.web.support import served
from tests.web.test_permissions import act, answer, hello

DUEL = """\
ruleset: dice-combat
seed: 5
order: [ana, bo]
combatants:
  - {id: ana, name: Ana, side: players, at: [0, 0], hand: {is: pistol, loaded: 6}}
  - {id: bo, name: Bo, side: raiders, at: [1, 0], hand: knife, hp: 1}
"""


def outcome_of(s: Any, identity: Identity) -> Any:
    return page_state(View(s.table.snapshot(), identity))["outcome"]


def test_when_one_side_stands_alone_every_page_says_who_won(tmp_path: Path) -> None:
    with served(tmp_path, DUEL) as s:
        pat = Identity.player("Pat", "ana")
        assert s.table.outcome() is None and outcome_of(s, pat) is None
        s.table.submit(Act(Action("bo", "damage", params={"amount": 1})), GAME_MASTER)
        won = {
            "side": "players",
            "standing": ["Ana"],
            "ended": False,
            "words": "The fight is over: players win (Ana standing).",
        }
        assert outcome_of(s, pat) == outcome_of(s, GAME_MASTER) == won
        assert outcome_of(s, Identity.player("Sam", "bo")) == won
        s.table.submit(Undo(), GAME_MASTER)  # Bo stands again: the fight goes on
        assert outcome_of(s, pat) is None


def test_the_game_master_finishes_and_reopens_the_fight_logged(tmp_path: Path) -> None:
    with served(tmp_path) as s:
        seq = s.table.seq
        client = TestClient(s.app)
        with (
            client.websocket_connect(f"/ws?token={s.gm}") as gm,
            client.websocket_connect(f"/ws?token={s.ana}") as pat,
        ):
            hello(gm)
            hello(pat)
            gm.send_json(act(seq, actor="ana", do="finish"))
            assert answer(gm)["type"] == "done"
            assert s.table.state.ended is True
            ended = outcome_of(s, Identity.player("Pat", "ana"))
            assert ended == {
                "side": None,
                "standing": [],
                "ended": True,
                "words": "The game master ended the fight.",
            }
            # no rules action now, the player's or the game master's
            pat.send_json(act(seq + 1, actor="ana", do="attack", target="bo"))
            refused = answer(pat)
            assert refused["code"] == "fight_ended"
            assert refused["message"] == (
                "the game master ended the fight; 'attack' waits until the game master reopens it"
            )
            assert refused["words"] == (
                "The game master ended the fight; attack waits until the game master reopens it"
            )
            gm.send_json(act(seq + 1, actor="ana", do="end_turn"))
            assert answer(gm)["code"] == "fight_ended"
            gm.send_json(act(seq + 1, actor="ana", do="finish"))
            assert answer(gm)["code"] == "already_ended"
            assert s.table.seq == seq + 1
            gm.send_json(act(seq + 1, actor="ana", do="reopen"))
            assert answer(gm)["type"] == "done"
            assert s.table.state.ended is False and outcome_of(s, GAME_MASTER) is None
        texts = [line["text"] for line in page_lines(View(s.table.snapshot(), GAME_MASTER), seq)]
        assert [t for t in texts if t.startswith("The game master")] == [
            "The game master ends the fight",
            "The game master reopens the fight",
        ], texts


def test_once_one_side_won_a_players_raw_end_turn_is_refused(tmp_path: Path) -> None:
    """Issue 35: after the winner, turns do not go on: a player's raw ``act`` frame for
    ``end_turn`` (or an attack) is refused ``fight_over``, nothing written; the game
    master's undo of the winning action reopens the fight, and the same frame is taken."""
    with served(tmp_path, DUEL) as s:
        client = TestClient(s.app)
        with (
            client.websocket_connect(f"/ws?token={s.gm}") as gm,
            client.websocket_connect(f"/ws?token={s.ana}") as pat,
        ):
            hello(gm)
            synced = hello(pat)
            assert synced["state"]["you"]["end_turn"] is True
            seq = s.table.seq
            gm.send_json(act(seq, actor="bo", do="damage", amount=1))
            assert answer(gm)["type"] == "done"
            for frame in (
                act(seq + 1, actor="ana", do="end_turn"),
                act(seq + 1, actor="ana", do="attack", target="bo"),
            ):
                pat.send_json(frame)
                refused = answer(pat)
                assert refused["code"] == "fight_over", refused
                assert refused["message"].startswith("the fight is over (players won); ")
            assert s.table.seq == seq + 1
            state = page_state(View(s.table.snapshot(), Identity.player("Pat", "ana")))
            assert state["you"]["end_turn"] is False
            assert state["outcome"]["words"] == "The fight is over: players win (Ana standing)."
            gm.send_json({"type": "undo", "id": 9, "seq": seq + 1})
            assert answer(gm)["type"] == "done"
            pat.send_json(act(seq + 2, actor="ana", do="end_turn"))
            assert answer(pat)["type"] == "done"
