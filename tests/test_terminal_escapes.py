"""Issue 32, item 8: whatever reaches a terminal has its control characters escaped
(``\\x1b``), newlines kept where they separate lines: the error line quoting a bad
name, `fracas run`'s log with a note's free text, the prompt of `fracas play` (a note
typed, a line it refuses). The bytes each command writes are read, not rich's idea
of them."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rich.table import Table

from fracas.words.console import SafeConsole, printable
from tests.helpers import NAMED_FIGHT as FILE

TITLE = "\x1b]0;TITLE\x07\x1b[2J"
"""Retitles the terminal (OSC 0, ended by BEL), then clears it."""
CONTROL_BYTES = (b"\x1b", b"\x07", b"\xc2\x9b", b"\r")
"""ESC, BEL, C1's CSI (as UTF-8) and a carriage return: none may be written."""

NOTE = 'actions:\n  - {actor: ana, do: note, text: "hi \\e]0;TITLE\\a\\e[2J\\r there\\u009b31m"}\n'


def fracas(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "fracas", *args],
        input=stdin,
        capture_output=True,
        timeout=60,
        env={**os.environ, "NO_COLOR": "1", "TERM": "xterm-256color"},
    )


def clean(data: bytes) -> None:
    for byte in CONTROL_BYTES:
        assert byte not in data, (byte, data[:400])


def test_printable_escapes_control_characters_and_keeps_lines() -> None:
    assert printable(TITLE) == "\\x1b]0;TITLE\\x07\\x1b[2J"
    assert printable("a\tb\nc\r\x7f\x85\x9b") == "a\tb\nc\\x0d\\x7f\\x85\\x9b"
    assert printable("Ana — ok") == "Ana — ok"


def test_the_console_escapes_text_in_tables_and_keeps_its_own_styles() -> None:
    sink = io.StringIO()
    console = SafeConsole(
        file=sink, force_terminal=True, color_system="standard", width=100, highlight=False
    )
    table = Table(title=f"round 1 {TITLE}")
    table.add_column("combatant")
    table.add_row(f"[bold]Ana[/bold] {TITLE}")
    console.print(table)
    console.print(f"[bold]log[/bold] {TITLE}")
    written = sink.getvalue()
    assert "\x1b[1m" in written  # rich's bold: the console's own escape
    assert "\x1b]" not in written and "\x07" not in written and "\x1b[2J" not in written
    assert written.count("\\x1b]0;TITLE\\x07\\x1b[2J") == 3


@pytest.mark.parametrize("command", ["run", "serve"])
def test_an_error_quoting_a_name_with_escapes_writes_no_escape(
    tmp_path: Path, command: str
) -> None:
    """The issue's name: before, `fracas run` retitled and cleared the terminal."""
    path = tmp_path / "esc.yaml"
    path.write_text(FILE.format(ana='"\\e]0;TITLE\\a\\e[2J"'))
    extra = ["--db", str(tmp_path / "s.sqlite3"), "--port", "0"] if command == "serve" else []
    run = fracas(command, str(path), *extra)
    assert run.returncode == 1
    clean(run.stdout + run.stderr)
    assert run.stderr.decode().splitlines() == [
        f"error: {path}:4: combatants[0].name: bad_name: '\\x1b]0;TITLE\\x07\\x1b[2J' holds "
        "the control character '\\x1b': give printable text (no tab, newline or escape)"
    ]


def test_run_prints_a_notes_escapes_escaped(tmp_path: Path) -> None:
    path = tmp_path / "note.yaml"
    path.write_text(FILE.format(ana="Ana") + NOTE)
    run = fracas("run", str(path))
    assert run.returncode == 0, run.stderr
    clean(run.stdout + run.stderr)
    out = run.stdout.decode()
    assert "GM notes on Ana: hi \\x1b]0;TITLE\\x07\\x1b[2J\\x0d there\\x9b31m" in out
    assert len(out.splitlines()) > 5  # its lines still lines


def test_the_prompt_escapes_a_note_and_a_refused_line(tmp_path: Path) -> None:
    path = tmp_path / "note.yaml"
    path.write_text(FILE.format(ana="Ana") + NOTE)
    typed = 'ana note text="typed \x1b[2J"\nbo\x1b]0;X\x07 attack ana\nlog\nquit\n'
    run = fracas("play", str(path), "--db", str(tmp_path / "s.sqlite3"), stdin=typed.encode())
    assert run.returncode == 0, run.stderr
    clean(run.stdout + run.stderr)
    out = run.stdout.decode()
    assert "GM notes on Ana: typed \\x1b[2J" in out
    assert "error: unknown_command: 'bo\\x1b]0;X\\x07' is not a combatant" in out
    assert "GM notes on Ana: hi \\x1b]0;TITLE\\x07\\x1b[2J\\x0d there\\x9b31m" in out
