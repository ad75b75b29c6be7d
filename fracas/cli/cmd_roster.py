"""``fracas roster import`` and ``fracas log`` (issue 36, "Rosters in and out"): a
spreadsheet's CSV rows in as an encounter file's combatants, and the log of a fight
out as Markdown for a campaign channel.

Thin: the table service reads the roster (every bad cell named, nothing half-imported)
and projects the log for its reader (the players', or the game master's with
``--gm``); this module reads files and prints."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NoReturn

import click
import yaml

from fracas.cli.common import _echo, _fail, _guard, _store_option
from fracas.errors import FracasError
from fracas.io.store import NAME_PATTERN, open_store
from fracas.table import TableService, read_text
from fracas.words.markdown_log import markdown_log


@click.group()
def roster() -> None:
    """Rosters from spreadsheets: import a CSV file's rows as an encounter's combatants.

    `fracas roster import FILE.csv --ruleset NAME` (see its --help)."""


def _mapping(given: tuple[str, ...]) -> dict[str, str]:
    out = {}
    for pair in given:
        column, sep, field = pair.partition("=")
        if not sep or not column.strip() or not field.strip():
            raise FracasError(
                "bad_map", f"--map {pair!r}: give COLUMN=field (or COLUMN=- to leave it out)"
            )
        out[column.strip()] = field.strip()
    return out


_READ = 1_000_000
"""Characters of a CSV file read at most: more than a roster may hold, so a larger file
is refused by the roster's own limit without being read whole."""


def _csv_text(path: str) -> str:
    try:
        with Path(path).open(encoding="utf-8-sig") as f:
            return f.read(_READ)  # past the roster's limit: refused as too_large, not read whole
    except OSError as exc:
        raise FracasError("unreadable_file", f"cannot read {path!r}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise FracasError(
            "unreadable_file", f"{path!r} is not UTF-8 text: save the sheet as CSV UTF-8"
        ) from None


@roster.command("import")
@click.argument("file", type=click.Path())
@click.option(
    "--ruleset", help="The sheets' ruleset (`fracas rules` lists them); with --into: the file's."
)
@click.option(
    "--into",
    type=click.Path(),
    help="An encounter file the combatants are added to (its ruleset, options and map apply).",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False),
    help="Write the encounter file here (default: print it).",
)
@click.option(
    "--map",
    "maps",
    multiple=True,
    metavar="COLUMN=field",
    help="The field a column fills (its header matches a field's name otherwise, case "
    "and spaces aside); COLUMN=- leaves a column out. Repeatable.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
def import_(
    file: str,
    ruleset: str | None,
    into: str | None,
    out: str | None,
    maps: tuple[str, ...],
    as_json: bool,
) -> None:
    """Import combatants from a CSV FILE (a spreadsheet saved as CSV: one row per
    combatant, one column per sheet field) as an encounter file.

    Headers name the ruleset's sheet fields (`fracas rules RULESET`), or name, id,
    side, x and y; a cell is read as a file's value (a list without brackets: `knife,
    club`). Every bad cell is named by row and column, and nothing is imported then
    (exit status 1)."""

    def go() -> None:
        how: dict[str, Any] = {"ruleset": ruleset, "mapping": _mapping(maps)}
        if into is not None:
            how |= {"into": read_text(into), "into_source": into}
        try:
            made = TableService.roster(_csv_text(file), file, **how)
        except FracasError as exc:
            cells = getattr(exc, "cells", ())
            if not cells:
                raise
            if as_json:
                error: dict[str, Any] = {"code": exc.code, "message": exc.message}
                error["where"] = file
                error["cells"] = [c.to_json() for c in cells]
                click.echo(json.dumps({"error": error}, indent=2))
            _fail_cells(exc, cells)
        text = yaml.safe_dump(
            made.document, sort_keys=False, allow_unicode=True, width=100, default_flow_style=None
        )
        text = f"# imported by `fracas roster import` from {Path(file).name}\n{text}"
        if out is not None:
            Path(out).write_text(text, encoding="utf-8")
        if as_json:
            result = {"combatants": list(made.combatants), "columns": made.columns, "out": out}
            click.echo(json.dumps(result, indent=2))
        elif out is None:
            click.echo(text, nl=False)
        else:
            _echo(f"{len(made.combatants)} combatants imported into {out}", err=True)

    _guard(go, as_json=as_json)


def _fail_cells(exc: FracasError, cells: Any) -> NoReturn:
    """Every bad cell on its own line of stderr, then the one ``error:`` line."""
    for cell in cells:
        _echo(f"  {cell}", err=True)
    _fail(str(exc))


@click.command()
@click.argument("target", metavar="ENCOUNTER|FILE")
@click.option("--gm", is_flag=True, help="The game master's log (hidden things included).")
@_store_option("The encounter store ENCOUNTER is read from (a SQLite file or postgresql:// URL).")
@click.option(
    "--out", type=click.Path(dir_okay=False), help="Write the Markdown here (default: print it)."
)
def log(target: str, gm: bool, db: str, out: str | None) -> None:
    """The log of a fight as Markdown for a campaign channel (the players' view; --gm).

    A stored ENCOUNTER (or an encounter FILE, played as `fracas run` plays it), as the
    players read it; --gm for the game master's log, hidden combatants, rolls and notes
    included."""

    def go() -> None:
        stored = NAME_PATTERN.match(target) and not Path(target).exists()
        store = open_store(db if stored else ":memory:")
        try:
            tables = TableService(store)
            name = target
            if not stored:
                name = tables.create(read_text(target), target, live=False).name
            title = target if stored else Path(target).stem
            text = markdown_log(tables.log_view(name, gm=gm), title)
        finally:
            store.close()
        if out is not None:
            Path(out).write_text(text, encoding="utf-8")
        else:
            click.echo(text, nl=False)

    _guard(go)
