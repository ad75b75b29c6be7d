"""WL-2 (with WL-3, WL-4, WL-19, WL-33): a ``move`` with ``ap: n`` is the actor's own
Movement Action, paid MAP first, then AP; a ``move`` without ``ap`` stays the game
master's (no turn, no cost). Refusals consume nothing. The core ``move`` hook it rides
on: the ruleset's extra parameters reach the file reader, the prompt and ``fracas rules``."""

from __future__ import annotations

import json

import pytest

from fracas.engine.catalogue import spec_of
from fracas.engine.checking import check_now
from fracas.engine.play import Engine
from fracas.errors import FileError, FracasError, Refusal
from fracas.io.files import parse_text
from fracas.model import Action, Moved
from fracas.play.commands import Act, command_text, parse
from fracas.rulesets.wasteland.turn_events import MovementPaid, OpeningPassed
from fracas.words.rules_info import describe_ruleset
from tests.helpers import load_text
from tests.play.support import EXAMPLES
from tests.rulesets.wasteland.support import PISTOL, act, doc, fight, log, ok, refusal, sheet, who

# vera: AGI +2 -> max AP 9 (WL-2); 2 MAP. raider: max AP 8, no MAP.
VERA = who("vera", at=(0, 0), side="players", agi_mod=2, max_map=2, weapons=[PISTOL])
RAIDER = who("raider", at=(6, 0), side="raiders", weapons=[PISTOL])


def points(p: object, cid: str) -> tuple[int | None, int | None]:
    s = sheet(p, cid)  # type: ignore[arg-type]
    return s.map, s.ap


def test_WL_2_map_is_spent_first_then_ap() -> None:
    p = ok(fight(VERA, RAIDER, actions=[act("vera", "move", to=[1, 1], ap=3)]))
    assert points(p, "vera") == (0, 8)
    assert p.state.get("vera").at == (1, 1)
    # The encounter's first own-turn action also ends its opening (WL-33).
    assert p.records[-1].events == (
        MovementPaid("vera", 2, 1),
        OpeningPassed(),
        Moved("vera", (1, 1)),
    )
    assert "vera spends 3 on movement: MAP 2 -> 0, AP 9 -> 8" in log(p)


def test_WL_2_map_alone_when_it_covers_the_cost() -> None:
    p = ok(fight(VERA, RAIDER, actions=[act("vera", "move", to=[1, 0], ap=1)]))
    assert points(p, "vera") == (1, 9)


def test_WL_2_map_0_by_default_so_ap_pays() -> None:
    actions = [act("raider", "move", to=[5, 0], ap=2)]
    p = ok(fight(VERA, RAIDER, actions=actions, order=["raider", "vera"]))
    assert points(p, "raider") == (0, 6)


def test_WL_2_moves_then_attacks_with_what_is_left() -> None:
    # 2 MAP + 3 AP of movement leaves 6 AP: one pistol shot (4), not a second.
    actions = [
        act("vera", "move", to=[2, 0], ap=5),
        act("vera", "attack", "raider", dice={"attack": 2}),
        act("vera", "attack", "raider", dice={"attack": 2}),
    ]
    p = fight(VERA, RAIDER, actions=actions)
    assert refusal(p) == (3, "not_enough_ap")
    assert points(p, "vera") == (0, 2)


def test_WL_2_not_enough_map_and_ap_is_refused_and_consumes_nothing() -> None:
    # 2 MAP + 9 AP = 11 < 12.
    p = fight(VERA, RAIDER, actions=[act("vera", "move", to=[3, 3], ap=12)])
    assert refusal(p) == (1, "not_enough_ap")
    assert p.error is not None
    assert p.error[1].message == "'vera' has 2 MAP and 9 AP; this move costs 12 (WL-2)"
    assert points(p, "vera") == (2, 9)
    assert p.state.get("vera").at == (0, 0)
    assert len(p.records) == 1  # only the start


def test_WL_2_exactly_all_map_and_ap() -> None:
    p = ok(fight(VERA, RAIDER, actions=[act("vera", "move", to=[3, 3], ap=11)]))
    assert points(p, "vera") == (0, 0)


def test_WL_2_an_own_move_takes_the_actors_turn() -> None:
    # raider's move is its own: vera's turn ends first; raider's AP and MAP refresh.
    p = ok(fight(VERA, RAIDER, actions=[act("raider", "move", to=[5, 0], ap=1)]))
    assert (p.state.turn.actor, p.state.round) == ("raider", 1)
    assert points(p, "raider") == (0, 7)
    assert "vera's turn ends (another combatant acts)" in log(p)


def test_WL_2_a_move_without_ap_is_the_game_masters() -> None:
    # In vera's turn the GM moves raider (a Warden swap, a push): no turn, no cost.
    p = ok(fight(VERA, RAIDER, actions=[act("raider", "move", to=[4, 0])]))
    assert p.state.turn.actor == "vera"
    assert points(p, "raider") == (0, 8)
    assert p.state.get("raider").at == (4, 0)
    assert p.records[-1].events == (Moved("raider", (4, 0)),)


def test_WL_2_ap_0_is_a_free_own_move() -> None:
    p = ok(fight(VERA, RAIDER, actions=[act("raider", "move", to=[5, 0], ap=0)]))
    assert p.state.turn.actor == "raider"
    assert points(p, "raider") == (0, 8)


def test_WL_3_map_replenishes_at_the_start_of_the_turn() -> None:
    actions = [
        act("vera", "move", to=[1, 1], ap=4),
        act("vera", "end_turn"),
        act("raider", "end_turn"),
    ]
    p = ok(fight(VERA, RAIDER, actions=actions))
    assert (p.state.round, p.state.turn.actor) == (2, "vera")
    assert points(p, "vera") == (2, 9)
    assert p.state.get("vera").at == (1, 1)


@pytest.mark.parametrize(
    ("fields", "before", "code"),
    [
        ({"hp": 0}, [], "down"),  # WL-19
        ({"surprised": True}, [], "surprised"),  # WL-33
        ({}, [act("vera", "defend")], "turn_over"),  # WL-4: Defend ended the turn
    ],
)
def test_WL_2_own_move_refusals_consume_nothing(
    fields: dict[str, object], before: list[dict[str, object]], code: str
) -> None:
    vera = {**VERA, **fields}
    p = fight(vera, RAIDER, actions=[*before, act("vera", "move", to=[1, 0], ap=1)])
    assert refusal(p) == (len(before) + 1, code)
    assert p.state.get("vera").at == (0, 0)
    assert sheet(p, "vera").map == 2
    # The game master may still move the token (no cost, no check).
    p = ok(fight(vera, RAIDER, actions=[*before, act("vera", "move", to=[1, 0])]))
    assert p.state.get("vera").at == (1, 0)
    assert sheet(p, "vera").map == 2


def test_WL_2_refused_move_keeps_the_log_and_state_in_an_engine() -> None:
    ef = load_text(json.dumps(doc(VERA, RAIDER)))
    engine = Engine(ef.ruleset, ef.start, ef.seed)
    engine.begin(ef.dice, ef.order)
    before = engine.state
    with pytest.raises(Refusal) as err:
        engine.act(Action("raider", "move", params={"to": (5, 0), "ap": 9}))
    assert err.value.code == "not_enough_ap"
    assert engine.state is before  # not even vera's turn ended
    assert len(engine.log) == 1


def test_WL_2_ap_must_be_a_whole_number_not_below_0() -> None:
    for bad in (-1, "two", True):
        with pytest.raises(FileError) as err:
            load_text(
                json.dumps(doc(VERA, RAIDER, actions=[act("vera", "move", to=[1, 0], ap=bad)]))
            )
        assert err.value.code == "bad_value", bad
        assert err.value.where.endswith("actions[0].ap"), err.value.where


def test_core_move_takes_no_ap_in_other_rulesets() -> None:
    text = (EXAMPLES / "dice-combat.yaml").read_text()
    ef = parse_text(text, "dice-combat.yaml")
    spec = spec_of(ef.ruleset, "move")
    assert spec is not None and spec.params == ("to", "walk")  # walking: the table's
    with pytest.raises(FracasError) as err:
        command = parse("ana move to 3,4 ap=2", ef, ef.start)
        assert isinstance(command, Act)
        check_now(ef.ruleset, ef.start, command.action, ef.bounds)
    assert err.value.code == "unknown_field"
    with pytest.raises(FileError) as err:
        load_text(
            text.replace("actions:", "actions:\n  - {actor: ana, do: move, to: [1, 1], ap: 2}", 1)
        )
    assert err.value.code == "unknown_field"


def test_WL_2_the_prompt_and_the_contract_know_ap() -> None:
    ef = load_text(json.dumps(doc(VERA, RAIDER)))
    command = parse("vera move to 3,4 ap=2", ef, ef.start)
    assert isinstance(command, Act)
    action = check_now(ef.ruleset, ef.start, command.action, ef.bounds)
    assert action == Action("vera", "move", params={"to": (3, 4), "ap": 2})
    assert command_text(action) == "vera move to 3,4 ap=2"
    plain = parse("vera move to 3,4", ef, ef.start)
    assert isinstance(plain, Act)
    assert check_now(ef.ruleset, ef.start, plain.action, ef.bounds) == Action(
        "vera", "move", params={"to": (3, 4)}
    )
    moves = [a for a in describe_ruleset("wasteland")["actions"] if a["do"] == "move"]
    assert moves[0]["params"] == ["to", "ap"]
    assert "MAP first, then AP (WL-2)" in moves[0]["summary"]
