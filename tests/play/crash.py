"""Crash trials: ``fracas play`` killed with SIGKILL at a random moment of a scripted
session, then checked and resumed.

Shared by ``tests/play/test_crash.py`` (a few trials, in CI) and
``bench/stress_crash.py`` (hundreds, by hand). The session runs with manual dice,
so some steps give every die on the command line and others answer fracas's
questions one die at a time: a kill can land while it waits for a die, while it
resolves, while it commits, or while it prints.

After each kill: every action whose result was shown (a ``#N`` heading) is in
the store; the store holds exactly a prefix of the reference log (nothing
duplicated, nothing half-written, nothing invented); it replays; and a resumed
``fracas play`` that finishes the script ends with exactly the reference log.
"""

from __future__ import annotations

import io
import random
import re
import signal
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pexpect

from fracas.engine.play import dice_from_rolls
from fracas.io.store import open_store
from fracas.play.commands import Act, command_text, parse
from fracas.table import TableService
from tests.play.support import PROMPT, spawn_play

__all__ = ["FIGHT", "Script", "Step", "Trial", "script", "trial"]

FIGHT = """\
ruleset: dice-combat
seed: 5
order: [ana, bo, cy]
combatants:
  - {id: ana, name: Ana, side: players, at: [0, 0], hand: {is: pistol, loaded: 6}}
  - {id: bo, name: Bo, side: raiders, at: [3, 0], hand: knife}
  - {id: cy, name: Cy, side: raiders, at: [4, 0], hand: club, max_hp: 40}
"""

PLAN = (
    "ana attack bo",
    "undo",
    "redo",
    "end",
    "bo attack cy",
    "end",
    "cy attack bo",
    "undo",
    "cy attack bo",
    "end",
    "ana attack bo",
    "end",
    "bo attack cy",
    "end",
    "cy attack bo",
)
"""The session's intent; the script gives its dice (as rolled once with the seed)."""

QUESTION = r"d\d+\? "


@dataclass(frozen=True)
class Step:
    """One prompt line, and the dice fracas will ask for after it (manual mode)."""

    line: str
    answers: tuple[int, ...] = ()


@dataclass(frozen=True)
class Script:
    steps: tuple[Step, ...]
    reference: tuple[dict[str, Any], ...]
    """The stored log the whole script must give: the start, then one record a step."""


def script(workdir: Path) -> Script:
    """Play :data:`PLAN` in process once (auto dice); write its dice into the steps,
    every other action's as answers to fracas's questions."""
    (workdir / "fight.yaml").write_text(FIGHT)
    store = open_store(workdir / "reference.sqlite3", durable=False)
    session = TableService(store).create(FIGHT, "fight.yaml", name="crash", seed=5)
    steps: list[Step] = []
    rolling = 0  # actions that roll dice so far
    for line in PLAN:
        command = parse(line, session.file, session.state)
        if isinstance(command, Act):
            record = session.act(command.action)
            assert record.action is not None
            rolling += bool(record.rolls)
            if rolling % 2 and record.rolls:  # answered one die at a time
                steps.append(
                    Step(command_text(record.action), tuple(r.value for r in record.rolls))
                )
            else:  # every die on the line
                steps.append(Step(command_text(record.action, dice_from_rolls(record.rolls))))
        else:
            (session.undo if line == "undo" else session.redo)()
            steps.append(Step(line))
    reference = tuple(store.load("crash").records)
    store.close()
    assert len(reference) == 1 + len(steps)
    assert sum(bool(step.answers) for step in steps) >= 3  # some dice are asked for
    return Script(tuple(steps), reference)


def _drive(child: pexpect.spawn[str], step: Step) -> None:
    child.sendline(step.line)
    for answer in step.answers:
        child.expect(QUESTION)
        child.sendline(str(answer))
    child.expect(PROMPT)


@dataclass
class Trial:
    killed_at: str
    mid_roll: bool
    """Killed while fracas still had dice to ask for."""
    shown: int
    stored: int
    output: str


def trial(workdir: Path, s: Script, rng: random.Random, *, finish: bool = True) -> Trial:
    """One kill at a random moment, the checks, and (``finish``) a resumed session that
    completes the script. Raises AssertionError, with the transcript, on a failure."""
    db = workdir / f"crash-{rng.randrange(10**9)}.sqlite3"
    args = ("--db", str(db), "--dice", "manual")
    child = spawn_play(*args, "--name", "crash", "fight.yaml", cwd=workdir)
    transcript = io.StringIO()
    child.logfile_read = transcript
    k = rng.randrange(len(s.steps) + 1)
    mid_roll = False
    if k == 0:
        time.sleep(rng.uniform(0.0, 1.0))  # while starting: reading, creating, storing
        where = "at start"
    else:
        child.expect(PROMPT)
        for step in s.steps[: k - 1]:
            _drive(child, step)
        step = s.steps[k - 1]
        child.sendline(step.line)
        given = rng.randint(0, len(step.answers))
        for answer in step.answers[:given]:
            child.expect(QUESTION)
            child.sendline(str(answer))
        time.sleep(rng.uniform(0.0, 0.03))
        where = f"step {k} ({step.line!r}, {given}/{len(step.answers)} dice)"
        mid_roll = given < len(step.answers)
    child.kill(signal.SIGKILL)
    child.expect(pexpect.EOF)
    child.close()
    output = transcript.getvalue()
    context = f"killed {where}; transcript:\n{output}"

    shown = {int(n) for n in re.findall(r"^#(\d+) ", output, re.M)}
    store = open_store(db)
    if "crash" not in [i.name for i in store.list()]:
        assert "new encounter" not in output and not shown, context
        stored: list[dict[str, Any]] = []
    else:
        stored = store.load("crash").records
        assert stored == list(s.reference[: len(stored)]), context  # a prefix, each once
        assert all(n < len(stored) for n in shown), context  # everything shown is stored
        assert len(stored) <= k + 1, context  # nothing beyond what was typed
        assert TableService(store).open("crash").seq == len(stored), context  # it replays
    store.close()
    if finish:
        _finish(workdir, s, db, stored, context)
    return Trial(where, mid_roll, max(shown, default=-1) + 1, len(stored), output)


def _finish(workdir: Path, s: Script, db: Path, stored: list[dict[str, Any]], context: str) -> None:
    """Resume (or start again, if nothing was stored) and play the rest of the script."""
    args = ("--db", str(db), "--dice", "manual")
    if stored:
        child = spawn_play(*args, "crash", cwd=workdir)
        rest = s.steps[len(stored) - 1 :]
    else:
        child = spawn_play(*args, "--name", "crash", "fight.yaml", cwd=workdir)
        rest = s.steps
    child.expect(PROMPT)
    for step in rest:
        _drive(child, step)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, context
    store = open_store(db)
    assert store.load("crash").records == list(s.reference), context
    store.close()
