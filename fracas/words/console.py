"""What every command of ``fracas`` shares, whichever face it starts (the command line's
own, the prompt's ``play``, the web's ``serve``): the console, the one-line error and
its exit status (with ``--json``, the error as a JSON object on stdout too), the
``--db`` option.

Whatever reaches a terminal goes through :func:`printable` (the console's text, every
line :func:`echo` prints, the error line): a control character in a name, a note or a
quoted input is shown escaped (``\\x1b``), never acted on by the terminal.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from fractions import Fraction
from typing import Any, NoReturn

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from fracas.errors import FileError, FracasError
from fracas.io.store import default_db_path
from fracas.model import Combatant, Encounter
from fracas.rulesets.base import (
    Ruleset,
    Shown,
    encounter_shown,
    full_shown,
    is_down,
    presenter_of,
    statuses_shown,
)

__all__ = [
    "DEFAULT_DB",
    "WIDE",
    "ActionError",
    "SafeConsole",
    "combatant_table",
    "echo",
    "error_json",
    "fail",
    "guard",
    "now_line",
    "out",
    "pct",
    "printable",
    "status_table",
    "store_option",
]

DEFAULT_DB = str(default_db_path())

_ESCAPED = {c: f"\\x{c:02x}" for c in (*range(0x20), *range(0x7F, 0xA0)) if c not in (9, 10)}
"""Control characters (C0 but tab and newline, DEL, C1) as the text ``\\x1b``."""


def printable(text: str) -> str:
    """``text`` as a terminal may be given it: every control character but a newline
    (which separates lines) and a tab shown as ``\\xNN`` (an escape sequence in a name
    or a note would retitle, clear or rewrite the terminal)."""
    return text.translate(_ESCAPED)


class SafeConsole(Console):
    """A rich console whose every text (a line printed, a table's cell, title and
    caption) is made :func:`printable` before its markup is read; the console's own
    styles still reach the terminal."""

    def render_str(self, text: str, **kwargs: Any) -> Text:
        return super().render_str(printable(text), **kwargs)


def echo(line: str = "", *, err: bool = False) -> None:
    """Print ``line`` (:func:`printable`) on stdout, or stderr with ``err``."""
    click.echo(printable(line), err=err)


out = SafeConsole(highlight=False, soft_wrap=True)
if not out.is_terminal:
    out.width = 120  # piped output: no table squeezed to 80 columns


class ActionError(FracasError):
    """An action of a file that cannot be played (refused, or dice that do not fit it):
    its number (from 1) and ``FILE:LINE``, then the error's own code and message."""

    def __init__(self, number: int, where: str, error: FracasError) -> None:
        super().__init__(error.code, error.message)
        self.number = number
        self.where = where

    def __str__(self) -> str:
        return f"action {self.number} ({self.where}): {self.code}: {self.message}"


def error_json(exc: FracasError) -> dict[str, Any]:
    """An error as ``--json`` gives it: ``code``, ``message``, ``where`` (``FILE:LINE:
    field``, or ``""``), and the action's number where an action failed: the fields of
    the one ``error:`` line, which holds the same words."""
    out: dict[str, Any] = {}
    if isinstance(exc, ActionError):
        out["action"] = exc.number
    where = exc.where if isinstance(exc, FileError | ActionError) else ""
    return {**out, "code": exc.code, "message": exc.message, "where": where}


def fail(message: str, code: int = 1) -> NoReturn:
    echo(f"error: {message}", err=True)
    sys.exit(code)


def guard(fn: Callable[[], None], *, as_json: bool = False) -> None:
    """Run a command's body: an error fracas raises ends it with the ``error:`` line on
    stderr and exit status 1; with ``as_json`` stdout holds ``{"error": {...}}`` too, so
    every ``--json`` command answers with one JSON object, errors included."""
    try:
        fn()
    except FracasError as exc:
        if as_json:
            click.echo(json.dumps({"error": error_json(exc)}, indent=2))
        fail(str(exc))


def store_option(help: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """``--db``: the encounter store of `fracas play` and `fracas serve` (``FRACAS_DB``)."""
    return click.option(
        "--db",
        type=click.Path(dir_okay=False),
        default=DEFAULT_DB,
        show_default=True,
        envvar="FRACAS_DB",
        show_envvar=True,
        help=help,
    )


def pct(p: Fraction) -> str:
    return f"{float(p) * 100:6.2f}%"


# --- where everyone stands, as a terminal table (`fracas run`, the prompt's `status`) ---


def now_line(state: Encounter) -> str:
    """Whose turn it is."""
    over = " (turn over: end, move or set)" if state.turn.over else ""
    return f"now: round {state.round}, {state.name(state.turn.actor)}'s turn{over}"


WIDE = 110
"""Terminal columns from which the status table shows the ruleset's state column."""


def status_table(ruleset: Ruleset, state: Encounter, width: int | None = None) -> Table:
    """Every combatant: HP bar, statuses, what it fights with, the ruleset's own state
    (its presenter's fields: AP and MAP, Energy, wounds, ...; on a terminal narrower than
    :data:`WIDE` columns, left to ``status NAME``), position."""
    presenter = presenter_of(ruleset)
    table = Table(title=now_line(state)[5:], title_justify="left")
    fields = {cid: presenter.fields(state, c) for cid, c in state.combatants.items()}
    if width is not None and width < WIDE and any(fields.values()):
        fields = {cid: () for cid in fields}
        table.caption = "`status NAME` shows one combatant in full"
    columns = ("combatant", "side", "HP", "statuses", "gear", "state", "at")
    for col in columns:
        if col != "state" or any(fields.values()):
            table.add_column(col, no_wrap=col in ("HP", "at"))
    for c in state.combatants.values():
        statuses = ", ".join(_shown(s) for s in statuses_shown(state, c))
        at = f"{c.at[0]},{c.at[1]}" if c.at is not None else "-"
        name = ("> " if c.id == state.turn.actor else "  ") + c.name
        row = [escape(name), escape(c.side), _hp(ruleset, c), escape(statuses)]
        row.append(escape(presenter.gear(state, c)))
        if any(fields.values()):
            row.append(escape(" · ".join(_shown(s) for s in fields[c.id])))
        table.add_row(*row, at)
    values = encounter_shown(presenter, state)
    if values:
        shown = escape(" · ".join(_shown(s) for s in values))
        table.caption = f"{shown}; {table.caption}" if table.caption else shown
    return table


def combatant_table(ruleset: Ruleset, state: Encounter, cid: str) -> Table:
    """One combatant in full (``status NAME``): HP, statuses, gear, then everything the
    presenter shows of it, with the details."""
    presenter = presenter_of(ruleset)
    c = state.get(cid)
    table = Table(title=f"{c.name} ({c.id}, {c.side})", title_justify="left", show_header=False)
    table.add_column("what")
    table.add_column("value")
    table.add_row("HP", _hp(ruleset, c))
    table.add_row("at", f"{c.at[0]},{c.at[1]}" if c.at is not None else "-")
    for s in statuses_shown(state, c):
        table.add_row(escape(f"status {s.label}"), escape(s.value))
    table.add_row("gear", escape(presenter.gear(state, c)))
    for s in full_shown(presenter, state, c):
        value = s.value + (f" ({s.detail})" if s.detail else "")
        table.add_row(escape(s.label), escape(value))
    return table


def _shown(s: Shown) -> str:
    return f"{s.label} {s.value}" if s.value else s.label


def _hp(ruleset: Ruleset, c: Combatant) -> str:
    """An HP bar (blue filled, dots empty) with the number; DOWN in words, not colour alone."""
    width = 12
    filled = max(0, min(width, round(width * c.hp / c.max_hp))) if c.max_hp else 0
    bar = f"[blue]{'█' * filled}[/blue][dim]{'·' * (width - filled)}[/dim]"
    down = " [bold]DOWN[/bold]" if is_down(ruleset, c) else ""
    return f"{bar} {c.hp}/{c.max_hp}{down}"
