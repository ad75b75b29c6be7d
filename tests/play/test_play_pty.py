"""``fracas play`` as a real process on a pseudo-terminal (pexpect).

* A scripted session: attacks with dice on the line, undo, redo, bad input (one line
  each, nothing written), manual dice (a bad face refused and asked again), tab
  completion, quit; then a resume with manual dice, status and save. The end state
  is checked against numbers worked out from the rules (dice-combat: pistol 3,
  knife 2, club 2, a critical success +1d4), in the store and from ``fracas run`` of
  the saved file.
* Two processes on one encounter: one after the other, then both at once. No action
  is lost or written twice; the loser is told the encounter moved on and what happened.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pexpect

from fracas.io.store import open_store
from fracas.table import TableService
from fracas.words.render import state_json
from tests.play.support import PROMPT, spawn_play

FIGHT = """\
ruleset: dice-combat
seed: 5
order: [ana, bo, cy]
combatants:
  - {id: ana, name: Ana, side: players, at: [0, 0], hand: {is: pistol, loaded: 6}}
  - {id: bo, name: Bo, side: raiders, at: [3, 0], hand: knife}
  - {id: cy, name: Cy, side: raiders, at: [4, 0], hand: club}
"""


def said(child: pexpect.spawn[str], line: str) -> list[str]:
    """Send a line, wait for the prompt; the lines printed in between (the echo dropped)."""
    child.sendline(line)
    child.expect(PROMPT)
    lines = [x.strip("\r") for x in str(child.before).split("\n")]
    assert lines[0].endswith(line), lines  # the terminal's echo of what was typed
    return [x for x in lines[1:] if x]


def answer(child: pexpect.spawn[str], question: str, value: str) -> None:
    child.expect_exact(question)
    child.sendline(value)


def test_a_scripted_session_then_resume(tmp_path: Path) -> None:
    (tmp_path / "fight.yaml").write_text(FIGHT)
    child = spawn_play("--db", "fight.sqlite3", "fight.yaml", cwd=tmp_path)
    child.expect("new encounter 'fight' \\(dice-combat\\) in fight.sqlite3")
    child.expect(PROMPT)
    out = said(child, "ana attack bo attack=15 ammo=1 defend=5")
    assert out == [
        "#1 ana: attack bo",
        "Ana attacks Bo with the pistol (close, 3 tiles): d20 15 +1 close = 16",
        "  ammo: 1 fired, 5 left in the pistol",
        "  Bo defends (ranged): d20 5 = 5 -> HIT",
        "  Bo takes 3 damage (3 base): HP 12 -> 9",
        "now: round 1, Ana's turn",
    ]
    assert said(child, "undo") == [
        "#2 undo: takes back #1 ana: attack bo",
        "now: round 1, Ana's turn",
    ]
    assert said(child, "redo")[0] == "#3 redo: puts back #1 ana: attack bo"
    # bad input: one line, and the session goes on
    for line, start in (
        ("zed attack bo", "error: unknown_command: 'zed' is not a combatant"),
        ("ana fly", "error: unknown_action: 'fly'"),
        ("ana attack zed", "error: bad_word: 'zed'"),
        ("bo attack cy attack=21", "error: die_out_of_range: 'attack' = 21"),
        ("cy attack ana", "error: out_of_reach:"),
    ):
        out = said(child, line)
        assert len(out) == 1 and out[0].startswith(start), out
    # manual dice: asked by name, a bad face refused and asked again
    said(child, "dice manual")
    child.sendline("bo attack cy")
    answer(child, "Bo's attack d20? ", "25")
    child.expect_exact("error: die_out_of_range: '25' is not a face of a d20: give 1..20")
    answer(child, "Bo's attack d20? ", "18")
    answer(child, "Cy's defend d20? ", "3")
    child.expect_exact("Cy takes 2 damage (2 base): HP 12 -> 10")
    child.expect(PROMPT)
    assert said(child, "end")[-1] == "now: round 1, Cy's turn"
    said(child, "dice auto")
    # tab completion: actor, action, target
    child.send("c\t")
    child.expect_exact("cy ")
    child.send("att\t")
    child.expect_exact("attack ")
    child.send("b\t")
    child.expect_exact("bo ")
    child.sendline("attack=17 defend=4")
    child.expect_exact("Bo takes 2 damage (2 base): HP 9 -> 7")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0

    # resume, with manual dice from the start
    child = spawn_play("--db", "fight.sqlite3", "--dice", "manual", "fight", cwd=tmp_path)
    child.expect("resumed 'fight' \\(dice-combat, 7 records\\)")
    child.expect(PROMPT)
    assert said(child, "end")[-1] == "now: round 2, Ana's turn"
    child.sendline("ana attack cy")
    answer(child, "Ana's attack d20? ", "12")
    answer(child, "Ana's ammo d3? ", "2")
    answer(child, "Cy's defend d20? ", "9")
    child.expect_exact("Cy takes 3 damage (3 base): HP 10 -> 7")
    child.expect(PROMPT)
    said(child, "ana end")
    child.sendline("bo attack cy")
    answer(child, "Bo's attack d20? ", "20")
    answer(child, "Cy's defend d20? ", "4")
    answer(child, "Bo's crit d4? ", "1")
    child.expect_exact("Cy takes 3 damage (2 base + 1 critical): HP 7 -> 4")
    child.expect(PROMPT)
    status = "\n".join(said(child, "status"))
    assert re.search(r"Bo .* 7/12", status) and re.search(r"Cy .* 4/12", status), status
    assert "pistol 3/8" in status
    assert said(child, "save saved.yaml")[0].startswith("saved 8 actions, with their dice,")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0

    # the end state, from the store and from `fracas run` of the saved file
    store = open_store(tmp_path / "fight.sqlite3")
    session = TableService(store).open("fight")
    want = {
        "round": 2,
        "turn": "bo",
        "hp": {"ana": 12, "bo": 7, "cy": 4},
        "loaded": 3,
        "kinds": ["start", "action", "undo", "redo", *["action"] * 7],
    }
    for state in (
        state_json(session.file.ruleset, session.state),
        _run_json(tmp_path / "saved.yaml"),
    ):
        assert state["round"] == want["round"] and state["turn"] == want["turn"]
        assert {k: c["hp"] for k, c in state["combatants"].items()} == want["hp"]
        assert state["combatants"]["ana"]["hand"]["loaded"] == want["loaded"]
    assert [r["kind"] for r in store.load("fight").records] == want["kinds"]


def _run_json(path: Path) -> dict[str, Any]:
    result = subprocess.run(
        [sys.executable, "-m", "fracas", "run", str(path), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    out: dict[str, Any] = json.loads(result.stdout)
    return out


def _two(tmp_path: Path) -> tuple[pexpect.spawn[str], pexpect.spawn[str]]:
    (tmp_path / "fight.yaml").write_text(FIGHT)
    store = open_store(tmp_path / "s.sqlite3")
    TableService(store).create(FIGHT, "fight.yaml")
    store.close()
    children = []
    for _ in range(2):
        child = spawn_play("--db", "s.sqlite3", "fight", cwd=tmp_path)
        child.expect(PROMPT)
        children.append(child)
    return children[0], children[1]


def test_two_processes_one_after_the_other(tmp_path: Path) -> None:
    a, b = _two(tmp_path)
    assert said(a, "ana attack bo attack=15 ammo=1 defend=5")[0] == "#1 ana: attack bo"
    out = said(b, "ana attack bo attack=2 ammo=1 defend=5")
    assert out[0].startswith(
        "error: moved_on: the encounter 'fight' moved on: another session wrote #1 first; "
        "nothing of yours was written; here is what happened"
    ), out
    assert out[1:3] == [
        "#1 ana: attack bo",
        "Ana attacks Bo with the pistol (close, 3 tiles): d20 15 +1 close = 16",
    ]
    assert out[-1] == "now: round 1, Ana's turn"
    assert said(b, "undo")[0] == "#2 undo: takes back #1 ana: attack bo"
    out = said(a, "redo")  # judged on a stale state: told what happened instead
    assert out[0].startswith("error: moved_on:") and out[1].startswith("#2 undo"), out
    assert said(a, "redo")[0] == "#3 redo: puts back #1 ana: attack bo"
    for child in (a, b):
        child.sendline("quit")
        child.expect(pexpect.EOF)
    records = open_store(tmp_path / "s.sqlite3").load("fight").records
    assert [r["kind"] for r in records] == ["start", "action", "undo", "redo"]
    assert records[1]["rolls"][0]["value"] == 15


def test_two_processes_at_once(tmp_path: Path) -> None:
    a, b = _two(tmp_path)
    a.sendline("ana attack bo attack=15 ammo=1 defend=5")
    b.sendline("ana attack bo attack=3 ammo=1 defend=5")
    outcomes = []
    for child in (a, b):
        child.expect(PROMPT)
        outcomes.append(str(child.before))
    won = [o for o in outcomes if "\n#1 ana: attack bo" in o and "error:" not in o]
    lost = [o for o in outcomes if "error: moved_on: the encounter 'fight' moved on" in o]
    assert len(won) == 1 and len(lost) == 1, outcomes
    winner_die = re.search(r"d20 (\d+) \+1 close", won[0])
    assert winner_die is not None
    assert f"d20 {winner_die.group(1)} +1 close" in lost[0]  # the loser sees the winner's roll
    for child in (a, b):
        child.sendline("quit")
        child.expect(pexpect.EOF)
    records = open_store(tmp_path / "s.sqlite3").load("fight").records
    assert [r["kind"] for r in records] == ["start", "action"]
    assert str(records[1]["rolls"][0]["value"]) == winner_die.group(1)
