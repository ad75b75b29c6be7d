"""The faces' shared words (``fracas.words.render``): an action's heading, the log a
game master reads with its tones, undo and redo headings, a projected log's entries, the
questions and answers of a table (a die, a request, an outcome), a damage distribution
as rows, the odds' heading and the ``--json`` state, events and rolls."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from fracas.engine.play import Engine
from fracas.io.files import EncounterFile, parse_text, play_file
from fracas.model import Action, CombatantAdded, Damaged, FieldsSet, TurnStarted
from fracas.odds.action import CombatantOdds, Estimate, Odds, action_odds
from fracas.odds.choices import Choice
from fracas.table.projection import Entry
from fracas.words.render import (
    TITLE_TEXT,
    DamageRow,
    Line,
    action_title,
    choice_lines,
    choices_json,
    damage_rows,
    die_question,
    entry_words,
    events_json,
    log_entries,
    log_lines,
    odds_heading,
    outcome_words,
    record_entries,
    request_words,
    rolls_json,
    state_json,
    turn_words,
    undo_title,
    waiting_words,
)

LONG = "a very long note that goes on and on past forty characters"
FIGHT = f"""\
ruleset: dice-combat
seed: 5
combatants:
  - {{id: ana, name: Ana, side: players, at: [0, 0], hand: knife}}
  - {{id: bo, name: Bo, side: raiders, at: [1, 0], hand: club}}
actions:
  - {{actor: ana, do: attack, target: bo, dice: {{attack: 15, defend: 3}}}}
  - {{actor: bo, do: note, text: "{LONG}"}}
"""
"""Ana's knife hits Bo for 2; the game master notes on Bo."""
HIT = [
    "Ana attacks Bo with the knife (melee): d20 15 = 15",
    "  Bo defends (close): d20 3 = 3 -> HIT",
    "  Bo takes 2 damage (2 base): HP 12 -> 10",
]
NOTE_TITLE = "#2 bo: note (text=a very long note that goes on an... (58 characters))"


@pytest.fixture(scope="module")
def fight() -> EncounterFile:
    return parse_text(FIGHT, "fight.yaml")


# --- headings -----------------------------------------------------------------------------------


def test_an_actions_heading_names_its_target_tile_and_parameters() -> None:
    assert action_title(1, Action("ana", "attack", "bo")) == "#1 ana: attack bo"
    assert action_title(2, Action("ana", "throw", at=(2, 3))) == "#2 ana: throw at [2, 3]"
    action = Action(
        "ana",
        "move",
        params={"to": (3, 4), "walk": True, "items": ["a", "b"], "st": {"burning": {"turns": 2}}},
    )
    assert action_title(3, action) == (
        "#3 ana: move (to=(3, 4), walk=True, items=['a', 'b'], st={'burning': {'turns': 2}})"
    )


def test_a_long_text_parameter_is_cut_in_the_heading() -> None:
    assert len(LONG) == 58 > TITLE_TEXT
    assert action_title(2, Action("bo", "note", params={"text": LONG})) == NOTE_TITLE
    short = "x" * TITLE_TEXT
    assert (
        action_title(2, Action("bo", "note", params={"text": short}))
        == f"#2 bo: note (text={short})"
    )


def test_undo_and_redo_headings_name_the_action_taken_back_or_put_back() -> None:
    end = Action("ana", "end_turn")
    assert undo_title(4, 2, end) == "#4 undo: takes back #2 ana: end_turn"
    assert undo_title(5, 2, end, redo=True) == "#5 redo: puts back #2 ana: end_turn"


# --- the log --------------------------------------------------------------------------------------


def test_the_log_of_a_played_file_with_its_tones(fight: EncounterFile) -> None:
    played = play_file(fight)
    assert played.refused is None
    assert log_entries(fight.start, played.records) == [
        Line("-- round 1, Ana's turn --", "turn"),
        Line("#1 ana: attack bo", "title"),
        *(Line(text) for text in HIT),
        Line(NOTE_TITLE, "title"),
        Line(f"GM notes on Bo: {LONG}"),
    ]
    assert log_lines(fight.start, played.records) == [
        "-- round 1, Ana's turn --",
        "#1 ana: attack bo",
        *HIT,
        NOTE_TITLE,
        f"GM notes on Bo: {LONG}",
    ]


def test_an_undo_shows_its_heading_alone_and_a_redo_the_actions_lines_again(
    fight: EncounterFile,
) -> None:
    played = play_file(dataclasses.replace(fight, actions=fight.actions[:1]))
    engine = played.engine
    before = engine.state
    undo = engine.undo()
    assert record_entries(engine.log, before, undo) == [
        Line("#2 undo: takes back #1 ana: attack bo", "title")
    ]
    redo = engine.redo()
    assert record_entries(engine.log, engine._before[1], redo) == [
        Line("#3 redo: puts back #1 ana: attack bo", "title"),
        *(Line(text) for text in HIT),
    ]


# --- a projected log's entries -----------------------------------------------------------------


def test_the_words_of_each_kind_of_projected_entry(fight: EncounterFile) -> None:
    state = fight.start
    attack = Action("ana", "attack", "bo")
    assert entry_words(Entry(1, "covered", "title", number=4)) == "#4: the game master acts"
    assert entry_words(Entry(1, "title", "title", 1, attack)) == "#1 ana: attack bo"
    assert entry_words(Entry(3, "undo", "title", 3, attack, taken=1)) == (
        "#3 undo: takes back #1 ana: attack bo"
    )
    assert entry_words(Entry(4, "redo", "title", 4, attack, taken=1)) == (
        "#4 redo: puts back #1 ana: attack bo"
    )
    hurt = Damaged("bo", 2)
    assert entry_words(Entry(1, "damage", "", event=hurt, before=state, label="hurt")) == (
        "  Bo takes damage: hurt"
    )
    assert entry_words(Entry(1, "damage", "", event=hurt, before=state)) == "  Bo takes damage"
    edit = FieldsSet("bo", {"hp": 3}, {})
    assert entry_words(Entry(1, "hp_set", "", event=edit, before=state)) == "GM changes Bo's HP"
    cy = dataclasses.replace(state.get("bo"), id="cy", name="Cy")
    added = CombatantAdded(cy, ("ana", "cy", "bo"))
    assert entry_words(Entry(1, "added", "", event=added, before=state)) == (
        "GM adds Cy (raiders): order Ana, Cy, Bo"
    )
    started = TurnStarted("bo", 2)
    assert entry_words(Entry(1, "event", "turn", event=started, before=state)) == (
        "-- round 2, Bo's turn --"
    )


# --- a table's questions and answers ------------------------------------------------------------


def test_the_die_a_table_asks_for_and_whom_it_waits_for(fight: EncounterFile) -> None:
    state = fight.start
    assert die_question(state, "ana", 20, "attack", "bo", 2) == "Bo's attack #2 d20? "
    assert die_question(state, "ana", 6, "damage", None, None) == "Ana's damage d6? "
    assert die_question(state, "ana", 6, "damage", "zed", None) == "Ana's damage d6? "
    assert waiting_words(state, None) == "the game master"
    assert waiting_words(state, "bo") == "Bo's player or the game master"
    assert turn_words(state, "ana") == "Ana's turn"
    assert turn_words(state, None) == "a turn the game master plays out of sight"


def test_a_players_request_names_each_call(fight: EncounterFile) -> None:
    action = Action("ana", "attack", "bo", params={"edge": "advantage", "aim": True})
    assert request_words(fight.start, "Pat", action, ["edge", "aim"]) == (
        "Pat asks for edge=advantage, aim=yes on Ana's attack"
    )
    stranger = Action("zed", "attack", "bo", params={"edge": "advantage"})
    assert request_words(fight.start, "Pat", stranger, ["edge"]) == (
        "Pat asks for edge=advantage on zed's attack"
    )


def test_the_outcome_of_a_fight() -> None:
    assert outcome_words("players", ["Ana", "Dee"]) == (
        "The fight is over: players win (Ana, Dee standing)."
    )
    assert outcome_words("players", []) == "The fight is over: players win."
    assert outcome_words(None, []) == "The fight is over: nobody is left standing."
    assert outcome_words("players", ["Ana"], over=False) == "The game master ended the fight."


# --- odds ---------------------------------------------------------------------------------------


def test_damage_rows_of_an_exact_knife_attack(fight: EncounterFile) -> None:
    engine = Engine(fight.ruleset, fight.start, 5)
    engine.begin()
    odds = action_odds(fight.ruleset, engine.state, Action("ana", "attack", "bo"))
    rows = damage_rows(odds.combatants["bo"])
    assert [(r.damage, r.p, r.bar) for r in rows] == [
        (0, Fraction(191, 400), 30),
        (2, Fraction(171, 400), 27),
        (3, Fraction(37, 1600), 1),
        (4, Fraction(149, 6400), 1),
        (5, Fraction(3, 128), 1),
        (6, Fraction(151, 6400), 1),
        (7, Fraction(1, 1600), 1),
        (8, Fraction(3, 6400), 1),
        (9, Fraction(1, 3200), 1),
        (10, Fraction(1, 6400), 1),
    ]
    assert not any(r.tail for r in rows)
    assert odds_heading(odds) == ["129 dice paths, exact"]


def test_a_long_tail_of_rare_outcomes_is_one_row() -> None:
    damage = {d: Fraction(1, 25) for d in range(20)}
    damage |= {20: Fraction(1, 10), 21: Fraction(199, 2000)}
    damage |= {d: Fraction(1, 16000) for d in range(22, 30)}  # 1/2000 in all, under 1/1000
    rows = damage_rows(CombatantOdds(Fraction(1), damage, Fraction(0)))
    assert len(rows) == 23
    assert rows[0] == DamageRow(0, Fraction(1, 25), 12)
    assert rows[20:22] == [
        DamageRow(20, Fraction(1, 10), 30),
        DamageRow(21, Fraction(199, 2000), 30),
    ]
    assert rows[-1] == DamageRow(22, Fraction(1, 2000), 0, tail=True, count=8, up_to=29)


def test_the_odds_heading_says_what_was_cut_and_what_is_an_estimate() -> None:
    cut = Odds(1234, {}, Fraction(1, 10**6), 12, at_least=3)
    assert odds_heading(cut) == [
        "1,234 dice paths, exact",
        "paths cut at 12 rolls (exploding dice): probability 1/1000000 (1.00e-06) not in "
        "the damage distributions; each of them deals at least 3; hits decided before the "
        "cut count, every figure is exact, short of the true value by at most that "
        "(--depth 16 goes deeper)",
    ]
    estimate = Odds(0, {}, Fraction(0), 12, estimate=Estimate(2000, 7, {}), why="too many paths")
    assert odds_heading(estimate) == [
        "ESTIMATE from 2,000 random fights of the action (seed 7), 95% intervals in brackets",
        "not exact: too many paths",
    ]


def test_each_choice_is_one_line_and_none_is_said(fight: EncounterFile) -> None:
    state = fight.start
    odds = Odds(
        129,
        {
            "bo": CombatantOdds(
                Fraction(1, 2), {0: Fraction(1, 2), 3: Fraction(1, 2)}, Fraction(1, 4)
            )
        },
        Fraction(0),
        12,
    )
    choice = Choice(Action("ana", "attack", "bo", params={"edge": "advantage"}), odds)
    assert list(choice_lines(state, [choice])) == [
        "  attack Bo edge=advantage (exact) — Bo: hit 50.0%, mean 1.50, down 25.0%"
    ]
    assert list(choice_lines(state, [])) == [
        "  nothing to odds now (no action on a target or a tile is allowed)"
    ]
    data = choices_json(state, [choice])
    assert data["actor"] == "ana"
    assert data["choices"][0]["action"] == {
        "actor": "ana",
        "do": "attack",
        "target": "bo",
        "edge": "advantage",
    }


# --- JSON ---------------------------------------------------------------------------------------


def test_the_json_state_events_and_rolls_of_a_played_file(fight: EncounterFile) -> None:
    played = play_file(fight)
    state = state_json(fight.ruleset, played.engine.state)
    assert (state["ruleset"], state["round"], state["turn"]) == ("dice-combat", 1, "ana")
    bo = state["combatants"]["bo"]
    assert {k: bo[k] for k in ("name", "side", "at", "hp", "max_hp", "down", "statuses")} == {
        "name": "Bo",
        "side": "raiders",
        "at": [1, 0],
        "hp": 10,
        "max_hp": 12,
        "down": False,
        "statuses": {},
    }
    assert bo["hand"]["name"] == "club"  # the ruleset's sheet, as its presenter gives it
    events = events_json(played.records)
    assert events[0] == {"action": 0, "type": "TurnStarted", "actor": "ana", "round": 1}
    assert [e["action"] for e in events] == [0, 1, 1, 1, 1, 1, 2]
    assert rolls_json(played.records) == [
        {"action": 1, "label": "attack", "sides": 20, "value": 15},
        {"action": 1, "label": "defend:bo", "sides": 20, "value": 3},
    ]
