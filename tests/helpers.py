"""Shared test helpers: build encounters from YAML text, play them, run the CLI."""

from __future__ import annotations

import dataclasses
import json
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from fracas.engine.play import Engine, Record
from fracas.errors import FracasError
from fracas.io.files import EncounterFile, parse_text, play_file
from fracas.main import main
from fracas.model import Encounter

__all__ = ["GM_ACTIONS", "NAMED_FIGHT", "Played", "cli", "cli_json", "load_text", "play", "write"]

GM_ACTIONS = (
    "heal",
    "damage",
    "status",
    "add",
    "remove",
    "initiative",
    "delay",
    "roll",
    "hide",
    "show",
    "reveal",
    "finish",
    "reopen",
    "note",
    "tactics",
    "policy",
)
"""The game master's core actions, every ruleset's, in the order ``fracas rules`` lists
them after ``set`` (``fracas.engine.table_actions``)."""
NAMED_FIGHT = """\
ruleset: dice-combat
seed: 5
combatants:
  - {{id: ana, name: {ana}, side: players, at: [0, 0], hand: club}}
  - {{id: bo, name: Bo, side: raiders, at: [1, 0], hand: knife}}
"""
"""A dice-combat fight whose first combatant's name is given: ``NAMED_FIGHT.format(ana=
...)`` (a YAML scalar: a name to check, or one that reaches a terminal)."""


def load_text(text: str, name: str = "test.yaml") -> EncounterFile:
    """Validate an encounter given as (indented) YAML text."""
    return parse_text(textwrap.dedent(text), name)


@dataclass
class Played:
    """An encounter file played up to its end or its first refused action."""

    file: EncounterFile
    engine: Engine
    records: list[Record]
    error: tuple[int, FracasError] | None

    @property
    def state(self) -> Encounter:
        return self.engine.state

    @property
    def start(self) -> Encounter:
        return dataclasses.replace(self.file.start, order=self.engine.state.order)


def play(text: str, *, name: str = "test.yaml") -> Played:
    """Load and play every action; stops at the first refusal and records it."""
    ef = load_text(text, name)
    played = play_file(ef)
    return Played(ef, played.engine, played.records, played.refused)


def cli(*args: str) -> Result:
    """Run the ``fracas`` command in-process; stdout and stderr are kept apart."""
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def cli_json(*args: str, quiet: bool = False) -> Any:
    """What a ``fracas ... --json`` command prints, after checking it succeeded (and,
    ``quiet``, printed nothing on stderr)."""
    result = cli(*args)
    assert result.exit_code == 0, result.stderr
    if quiet:
        assert result.stderr == ""
    return json.loads(result.stdout)


def write(tmp_path: Path, text: str, name: str = "enc.yaml") -> str:
    """An encounter file written from (indented) YAML text in ``tmp_path``: its path."""
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return str(path)
