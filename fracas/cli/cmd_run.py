"""``fracas run``: play an encounter file, print the log and where everyone stands."""

from __future__ import annotations

import dataclasses
import json
import os

import click
from rich.markup import escape

from fracas.cli.common import _DEFAULT_DB, ActionError, _echo, _fail, _guard, _out, error_json
from fracas.io.store import open_store
from fracas.model import Encounter
from fracas.rulesets.base import option_values
from fracas.table import Table, TableService, read_text
from fracas.words.console import status_table
from fracas.words.render import Line, events_json, log_entries, rolls_json, state_json


def _start(table: Table) -> Encounter:
    """The encounter's start, in the turn order its initiative gave."""
    return dataclasses.replace(table.before[0], order=table.state.order)


@click.command()
@click.argument("file", type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@click.option(
    "--seed",
    type=int,
    default=None,
    help="Seed for every die the file does not give (overrides the file's `seed`).",
)
@click.option(
    "--db",
    metavar="[PATH]",
    is_flag=False,
    flag_value=os.environ.get("FRACAS_DB") or _DEFAULT_DB,
    default=None,
    help="Also store the encounter played, as a new encounter of this store (a path or a "
    "postgresql:// URL; without PATH: the store of `fracas play`, FRACAS_DB or the "
    "default), where `fracas play NAME` goes on with it. "
    "A run stopped by an illegal action stores nothing.",
)
def run(file: str, as_json: bool, seed: int | None, db: str | None) -> None:
    """Play an encounter FILE and print the log, then where everyone stands.

    FILE is YAML or JSON: ruleset, options, seed, combatants, actions (see
    docs/encounter-files.md; `fracas rules RULESET` lists the fields).

    An illegal action stops the run there (exit status 1): nothing of it is
    consumed, and the state printed is the one before it.
    """

    def go() -> None:
        text = read_text(file)
        store = open_store(":memory:")  # a run is played on a table no one else sees
        try:
            played = TableService(store).play(text, file, seed=seed)
        finally:
            store.close()
        table = played.table
        error = None
        if played.refused is not None:
            r = played.refused
            error = ActionError(r.number, r.where, r.error)
        records = list(table.log)
        entries = log_entries(_start(table), records)
        lines = [line.text for line in entries]
        stored = _store_run(db, text, table) if db is not None and error is None else None
        if as_json:
            out = state_json(table.ruleset, table.state)
            out.update(
                {
                    "seed": table.seed,
                    "log": lines,
                    "events": events_json(records),
                    "rolls": rolls_json(records),
                }
            )
            if error is not None:  # the state before the refused action, and why
                out["error"] = error_json(error)
            if stored is not None:
                out["encounter"] = {"name": stored, "db": db}
            click.echo(json.dumps(out, indent=2))
        else:
            _print_log(table, entries)
            if stored is not None:
                _out.print(
                    f"stored as encounter [bold]{escape(stored)}[/bold] in {escape(str(db))}; "
                    f"`fracas play {escape(stored)}` goes on with it"
                )
        if error is not None:
            _fail(str(error))

    _guard(go, as_json=as_json)


def _store_run(db: str, text: str, table: Table) -> str:
    """Store a played file as a new encounter of the store at ``db`` (through the table
    service, with the seed it was played with: the same records); its name."""
    store = open_store(db)
    try:
        return TableService(store).create(text, table.file.path, seed=table.seed, live=False).name
    finally:
        store.close()


_TONES = {
    "critical_failure": "bold red",
    "critical_hit": "bold green",
    "title": "bold cyan",
    "turn": "dim",
}
"""How the terminal marks a log line of each tone (never by reading its words)."""


def _print_log(table: Table, entries: list[Line]) -> None:
    lines = [line.text for line in entries]
    ruleset = table.ruleset
    opts = ", ".join(
        f"{k}={v}"
        for k, v in option_values(ruleset).items()
        if v != ruleset.contract.option_defaults()[k]
    )
    _out.print(
        f"[bold]{escape(table.file.path)}[/bold] · {ruleset.about.name}"
        f"{' (' + escape(opts) + ')' if opts else ''} · seed {table.seed}"
    )
    if not _out.is_terminal:  # piped: plain text, printed at once
        _echo("\n".join("\n" + line if line.startswith("#") else line for line in lines))
        _out.print()
        _out.print(status_table(ruleset, table.state))
        return
    for line in entries:
        text = escape(line.text)
        style = _TONES.get(line.tone)
        if style:
            text = f"[{style}]{text}[/{style}]"
        _out.print("\n" + text if line.tone == "title" else text)
    _out.print()
    _out.print(status_table(ruleset, table.state))
