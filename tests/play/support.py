"""Shared by the play tests: an encounter per ruleset, a scripted terminal, and
``fracas play`` spawned on a pseudo-terminal."""

from __future__ import annotations

import functools
import io
import json
import os
import sys
from collections.abc import Iterable
from pathlib import Path

import pexpect
import yaml
from rich.console import Console
from rich.table import Table

from fracas.io.files import EncounterFile, parse_text
from fracas.rulesets import Ruleset

__all__ = [
    "EXAMPLES",
    "PROMPT",
    "ScriptedTerminal",
    "example_file",
    "setup_for",
    "spawn_play",
]

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
PROMPT = r"r\d+ [a-z0-9_-]+> "
"""The prompt: ``r3 ana> `` (the round and whose turn it is)."""


def setup_for(ruleset: type[Ruleset]) -> str:
    """The text of an encounter of ``ruleset``: its example file where there is one
    (the README promises one per ruleset), else four default combatants on two sides."""
    for path in sorted(EXAMPLES.glob("*.y*ml")):
        text = path.read_text(encoding="utf-8")
        data = yaml.safe_load(text)
        if isinstance(data, dict) and data.get("ruleset") == ruleset.about.name:
            return text
    combatants = [
        {"id": cid, "side": side, "at": at}
        for cid, side, at in (
            ("ana", "a", [0, 0]),
            ("bo", "b", [1, 0]),
            ("cy", "a", [0, 1]),
            ("dee", "b", [1, 1]),
        )
    ]
    return json.dumps({"ruleset": ruleset.about.name, "seed": 1, "combatants": combatants})


@functools.cache
def example_file(ruleset: type[Ruleset]) -> EncounterFile:
    """:func:`setup_for` read (once per test run)."""
    return parse_text(setup_for(ruleset), f"{ruleset.about.name}.yaml")


class ScriptedTerminal:
    """A terminal that answers from a script and keeps every line printed."""

    def __init__(self, answers: Iterable[str]) -> None:
        self.answers = list(answers)
        self.lines: list[str] = []
        self.questions: list[str] = []

    def ask(self, question: str, *, complete: bool = True) -> str:
        self.questions.append(question)
        if not self.answers:
            raise EOFError
        answer = self.answers.pop(0)
        self.lines.append(question + answer)
        return answer

    def say(self, line: str) -> None:
        self.lines.extend(line.split("\n"))

    def show(self, table: Table) -> None:
        out = io.StringIO()
        Console(width=200, color_system=None, file=out).print(table)
        self.lines.extend(out.getvalue().splitlines())

    def after(self, question_prefix: str) -> list[str]:
        """The lines printed after the last line that starts with ``question_prefix``."""
        index = max(i for i, line in enumerate(self.lines) if line.startswith(question_prefix))
        return self.lines[index + 1 :]


def spawn_play(*args: str, cwd: Path, timeout: float = 20) -> pexpect.spawn[str]:
    """``python -m fracas play ARGS`` on a pseudo-terminal (plain text: TERM=dumb)."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "TERM": "dumb",
        "NO_COLOR": "1",
        "HOME": str(cwd),
        "LANG": "C.UTF-8",
    }
    child = pexpect.spawn(
        sys.executable,
        ["-m", "fracas", "play", *args],
        cwd=str(cwd),
        env=env,
        encoding="utf-8",
        timeout=timeout,
        dimensions=(60, 200),
    )
    child.delaybeforesend = None
    return child
