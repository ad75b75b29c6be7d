"""files.play_file: the one "play a file until the first refusal" (the CLI's run and odds,
TableService.create and the tests' play call it)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from fracas.engine.play import Engine
from fracas.io.files import parse_text, play_file
from fracas.model import Action, fold

EXAMPLE = Path(__file__).parents[2] / "examples" / "dice-combat.yaml"


def test_every_action_played_with_the_state_before_each_record() -> None:
    ef = parse_text(EXAMPLE.read_text(), "dice-combat.yaml")
    played = play_file(ef)
    assert played.refused is None
    assert len(played.records) == len(played.before) == len(ef.actions) + 1
    assert played.before[0] == Engine(ef.ruleset, ef.start, ef.seed, ef.bounds).state
    for before, record, after in zip(
        played.before, played.records, [*played.before[1:], played.engine.state], strict=True
    ):
        assert fold(before, record.events) == after


def test_the_first_refusal_stops_the_play_and_is_numbered_from_1() -> None:
    ef = parse_text(EXAMPLE.read_text(), "dice-combat.yaml")
    whole = play_file(ef)
    n = len(ef.actions)
    refused = Action("nobody", "end_turn")  # a program's action naming no combatant
    ef2 = dataclasses.replace(ef, actions=(*ef.actions, refused, *ef.actions))
    played = play_file(ef2)
    assert played.refused is not None
    number, exc = played.refused
    assert number == n + 1
    assert exc.code == "unknown_combatant"
    assert len(played.records) == n + 1  # nothing of the refused action, nothing after it
    assert played.engine.state == whole.engine.state


def test_only_the_first_actions_when_asked() -> None:
    ef = parse_text(EXAMPLE.read_text(), "dice-combat.yaml")
    played = play_file(ef, len(ef.actions) - 1)
    assert played.refused is None
    assert len(played.records) == len(ef.actions)
