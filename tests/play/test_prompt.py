"""The prompt loop in process, with a scripted terminal: what each command prints, bad
input as one line with nothing written, manual dice asked by name and checked, a
stale session told that the encounter moved on, and the store commands."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.errors import FracasError
from fracas.io.store import EncounterStore, open_store
from fracas.play.loop import Prompt, play
from fracas.table import TableService
from tests.play.support import ScriptedTerminal

FIGHT = """\
ruleset: dice-combat
seed: 5
order: [ana, bo, cy]
combatants:
  - {id: ana, name: Ana, side: players, at: [0, 0], hand: {is: pistol, loaded: 6}}
  - {id: bo, name: Bo, side: raiders, at: [3, 0], hand: knife}
  - {id: cy, name: Cy, side: raiders, at: [4, 0], hand: club}
"""


@pytest.fixture
def store(tmp_path: Path) -> EncounterStore:
    (tmp_path / "fight.yaml").write_text(FIGHT)
    return open_store(tmp_path / "s.sqlite3", durable=False)


def run(store: EncounterStore, target: str, *answers: str) -> ScriptedTerminal:
    terminal = ScriptedTerminal(answers)
    assert play(store, target, terminal) == 0
    return terminal


def between(terminal: ScriptedTerminal, command: str) -> list[str]:
    """The lines a prompt command printed (up to the next question)."""
    lines = terminal.lines
    start = next(i for i, line in enumerate(lines) if line.endswith("> " + command))
    out = []
    for line in lines[start + 1 :]:
        if line.startswith("r") and "> " in line:
            break
        out.append(line)
    return out


def test_a_session_with_attacks_undo_redo_and_manual_dice(
    store: EncounterStore, tmp_path: Path
) -> None:
    t = run(
        store,
        str(tmp_path / "fight.yaml"),
        "ana attack bo attack=15 ammo=1 defend=5",
        "undo",
        "redo",
        "dice manual",
        "bo attack cy",
        "25",
        "x",
        "18",
        "3",
        "end",
        "quit",
    )
    assert t.lines[0].startswith("new encounter 'fight' (dice-combat) in ")
    assert between(t, "ana attack bo attack=15 ammo=1 defend=5") == [
        "#1 ana: attack bo",
        "Ana attacks Bo with the pistol (close, 3 tiles): d20 15 +1 close = 16",
        "  ammo: 1 fired, 5 left in the pistol",
        "  Bo defends (ranged): d20 5 = 5 -> HIT",
        "  Bo takes 3 damage (3 base): HP 12 -> 9",
        "now: round 1, Ana's turn",
    ]
    assert between(t, "undo") == [
        "#2 undo: takes back #1 ana: attack bo",
        "now: round 1, Ana's turn",
    ]
    assert between(t, "redo")[0] == "#3 redo: puts back #1 ana: attack bo"
    assert "  Bo takes 3 damage (3 base): HP 12 -> 9" in between(t, "redo")
    assert t.questions[5:9] == [
        "Bo's attack d20? ",
        "Bo's attack d20? ",
        "Bo's attack d20? ",
        "Cy's defend d20? ",
    ]
    assert "error: die_out_of_range: '25' is not a face of a d20: give 1..20 (or cancel)" in t.lines
    assert "  Cy takes 2 damage (2 base): HP 12 -> 10" in t.lines
    assert between(t, "end")[-1] == "now: round 1, Cy's turn"
    records = store.load("fight").records
    assert [r["kind"] for r in records] == ["start", "action", "undo", "redo", "action", "action"]
    assert [r["value"] for r in records[4]["rolls"]] == [18, 3]
    # resume: the same state, and the recent log shown
    t = run(store, "fight", "status", "log 2", "quit")
    assert t.lines[0].startswith("resumed 'fight' (dice-combat, 6 records) from ")
    status = "\n".join(between(t, "status"))
    assert "9/12" in status and "10/12" in status and "pistol 5/8" in status
    assert between(t, "log 2")[0] == "#4 bo: attack cy"


@pytest.mark.parametrize(
    ("line", "starts"),
    [
        ("zed attack bo", "error: unknown_command: 'zed' is not a combatant"),
        ("ana fly", "error: unknown_action: 'fly' is not an action of dice-combat; valid:"),
        ("ana attack zed", "error: bad_word: 'zed' is not a target"),
        ("ana attack bo attack=21", "error: die_out_of_range: 'attack' = 21 is not a face"),
        ("cy attack ana", "error: out_of_reach: 'ana' is 4 tiles away"),
        ("ana equip knife", "error: not_in_inventory:"),
        ("undo", "error: nothing_to_undo: there is no action to undo"),
        ("redo", "error: nothing_to_redo: there is no undone action to redo"),
        ("dice loaded", "error: bad_command: dice 'loaded': give manual or auto"),
        ("save /no/such/dir/x.yaml", "error: save_failed: cannot write"),
        ("delete fight", "error: in_play: 'fight' is the encounter being played here"),
        ("delete nope", "error: unknown_encounter: no encounter called 'nope'"),
        ("odds ana attack zed", "error: bad_word:"),
        ("odds cy attack ana", "error: out_of_reach:"),
        ('ana attack "bo', "error: bad_command:"),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(
    store: EncounterStore, tmp_path: Path, line: str, starts: str
) -> None:
    session, _ = TableService(store).open_or_create(str(tmp_path / "fight.yaml"))
    seq = session.seq
    terminal = ScriptedTerminal([line, "status"])
    Prompt(session, terminal).run()
    out = between(terminal, line)
    assert len(out) == 1 and out[0].startswith(starts), out
    assert session.seq == seq and len(store.load("fight").records) == seq


def test_manual_dice_cancelled_by_end_of_input(store: EncounterStore, tmp_path: Path) -> None:
    session, _ = TableService(store).open_or_create(str(tmp_path / "fight.yaml"))
    terminal = ScriptedTerminal(["ana attack bo", "0"])
    Prompt(session, terminal, manual=True).run()
    assert terminal.questions[1:] == ["Ana's attack d20? ", "Ana's attack d20? ", "r1 ana> "]
    assert "error: cancelled: the action was cancelled: nothing of it was written" in terminal.lines
    assert len(store.load("fight").records) == 1


def test_a_stale_session_is_told_what_happened(store: EncounterStore, tmp_path: Path) -> None:
    first, _ = TableService(store).open_or_create(str(tmp_path / "fight.yaml"))
    second = TableService(open_store(tmp_path / "s.sqlite3")).open("fight")
    Prompt(first, ScriptedTerminal(["ana attack bo attack=15 ammo=1 defend=5"])).run()
    terminal = ScriptedTerminal(["ana attack bo attack=2 ammo=1 defend=5", "undo"])
    Prompt(second, terminal).run()
    out = between(terminal, "ana attack bo attack=2 ammo=1 defend=5")
    assert out[0].startswith("error: moved_on: the encounter 'fight' moved on: another session")
    assert out[1:3] == [
        "#1 ana: attack bo",
        "Ana attacks Bo with the pistol (close, 3 tiles): d20 15 +1 close = 16",
    ]
    assert out[-1] == "now: round 1, Ana's turn"
    assert between(terminal, "undo")[0] == "#2 undo: takes back #1 ana: attack bo"
    records = store.load("fight").records
    assert [r["kind"] for r in records] == ["start", "action", "undo"]
    assert records[1]["rolls"][0]["value"] == 15  # the loser's attack (2) was never written


def test_help_odds_list_delete(store: EncounterStore, tmp_path: Path) -> None:
    TableService(store).create(FIGHT, "other.yaml")
    t = run(
        store,
        str(tmp_path / "fight.yaml"),
        "help",
        "help throw",
        "odds ana attack bo",
        "list",
        "delete other",
        "n",
        "delete other",
        "y",
        "list",
        "quit",
    )
    assert between(t, "help")[0] == "Ana (ana) may now:"
    assert any(line.startswith("  attack bo|cy ") for line in between(t, "help"))
    assert between(t, "help throw")[0].startswith("throw (combatant_or_tile) [edge]: ")
    odds = between(t, "odds ana attack bo")
    assert odds[0] == "odds of ana: attack bo: 128 dice paths, exact"
    assert odds[1].startswith("  Bo (HP 12/12): hit ")
    listed = "\n".join(between(t, "list"))
    assert "* fight" in listed and "other" in listed
    assert "not deleted" in t.lines and "deleted 'other'" in t.lines
    assert [i.name for i in store.list()] == ["fight"]


def test_open_session_resolves_names_and_files(store: EncounterStore, tmp_path: Path) -> None:
    _, new = TableService(store).open_or_create(str(tmp_path / "fight.yaml"), name="night")
    assert new
    session, new = TableService(store).open_or_create("night")
    assert not new and session.name == "night"
    for target, code in (
        ("nope", "unknown_encounter"),
        (str(tmp_path / "nope.yaml"), "unreadable_file"),
    ):
        with pytest.raises(FracasError) as err:
            TableService(store).open_or_create(target)
        assert err.value.code == code
    with pytest.raises(FracasError) as err:
        TableService(store).open_or_create("night", name="x")
    assert err.value.code == "bad_command"


def test_a_store_that_fails_stops_the_session_without_showing_anything_done(
    store: EncounterStore, tmp_path: Path
) -> None:
    session, _ = TableService(store).open_or_create(str(tmp_path / "fight.yaml"))
    store.close()  # the disk is gone
    terminal = ScriptedTerminal(["list", "ana attack bo attack=15 ammo=1 defend=5", "status"])
    assert Prompt(session, terminal).run() == 1
    assert between(terminal, "list")[0].startswith("error: store_failed:")
    out = between(terminal, "ana attack bo attack=15 ammo=1 defend=5")
    assert len(out) == 1 and out[0].startswith("error: store_failed: 'fight' cannot be read back")
    assert not any(line.startswith("#1") for line in terminal.lines)
    assert terminal.answers == ["status"]  # the session stopped there


def test_a_bug_is_one_line_and_the_session_goes_on(
    store: EncounterStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session, _ = TableService(store).open_or_create(str(tmp_path / "fight.yaml"))

    def broken(*args: object) -> None:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr("fracas.engine.play.roll_all", broken)  # the rules' roll
    terminal = ScriptedTerminal(["ana attack bo", "end"])
    assert Prompt(session, terminal).run() == 0
    assert between(terminal, "ana attack bo") == [
        "error: internal_error: ZeroDivisionError: division by zero (a bug in fracas; "
        "the encounter is as stored, `log` shows it)"
    ]
    assert between(terminal, "end")[0] == "#1 ana: end_turn"
    assert [r["kind"] for r in store.load("fight").records] == ["start", "action"]


def test_a_new_action_drops_what_could_be_redone(store: EncounterStore, tmp_path: Path) -> None:
    t = run(
        store,
        str(tmp_path / "fight.yaml"),
        "ana attack bo attack=15 ammo=1 defend=5",
        "undo",
        "ana attack cy attack=3 ammo=1 defend=5",
        "redo",
        "quit",
    )
    assert between(t, "redo") == ["error: nothing_to_redo: there is no undone action to redo"]
    records = store.load("fight").records
    assert [r["kind"] for r in records] == ["start", "action", "undo", "action"]
    assert records[3]["action"]["target"] == "cy"


def test_hint_shows_the_advisors_best_choices_with_their_odds(
    store: EncounterStore, tmp_path: Path
) -> None:
    """Issue 23: ``hint N`` at the prompt is the advisor's (the game master's): the
    tactics' choice first, with the figures ``odds`` gives for it."""
    t = run(store, str(tmp_path / "fight.yaml"), "hint 2", "odds ana attack bo", "hint x")
    hint = between(t, "hint 2")
    # (the chances to win come with it where the chain is solved within the advice's
    # time, which a loaded machine may not give: not asserted here, test_advisor does)
    assert hint[0].startswith("Ana's turn: the advisor's choices, best first")
    assert hint[1] == "  1. ana attack bo (the tactics' choice)"
    assert sum(line[:5].strip().endswith(".") for line in hint) == 2
    # the same figures as `odds` (rounded): hit 56.75%, mean damage 1.946, down 0.00%
    assert hint[2].startswith("     hit 56.8%, mean 1.95, down 0.0%")
    odds = between(t, "odds ana attack bo")
    assert odds[1] == "  Bo (HP 12/12): hit 56.75%, mean damage 1.946, down 0.00%"
    assert "error: bad_command: hint 'x': give a number of choices >= 1" in t.lines
