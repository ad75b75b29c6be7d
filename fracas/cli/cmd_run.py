"""``fracas run``: play an encounter file, print the log and where everyone stands."""

from __future__ import annotations

import json
import os
from typing import Any

import click
from rich.markup import escape

from fracas.cli.common import _DEFAULT_DB, ActionError, _fail, _guard, _out, error_json
from fracas.engine import Engine
from fracas.files import EncounterFile, parse_text, play_file, read_text
from fracas.play.view import status_table
from fracas.render import Line, events_json, log_entries, rolls_json, state_json
from fracas.store import open_store


def _start(ef: EncounterFile, engine: Engine) -> Any:
    import dataclasses

    return dataclasses.replace(ef.start, order=engine.state.order)


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
        ef = parse_text(text, file)
        if seed is not None:
            import dataclasses

            ef2 = dataclasses.replace(ef, seed=seed)
        else:
            ef2 = ef
        played = play_file(ef2)
        engine, records = played.engine, played.records
        error = None
        if played.refused is not None:
            number, exc = played.refused
            error = ActionError(number, ef2.action_where[number - 1], exc)
        entries = log_entries(_start(ef2, engine), records)
        lines = [line.text for line in entries]
        stored = _store_run(db, text, ef2, engine) if db is not None and error is None else None
        if as_json:
            out = state_json(ef2.ruleset, engine.state)
            out.update(
                {
                    "seed": engine.seed,
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
            _print_log(ef2, engine, entries)
            if stored is not None:
                _out.print(
                    f"stored as encounter [bold]{escape(stored)}[/bold] in {escape(str(db))}; "
                    f"`fracas play {escape(stored)}` goes on with it"
                )
        if error is not None:
            _fail(str(error))

    _guard(go, as_json=as_json)


def _store_run(db: str, text: str, ef: EncounterFile, engine: Engine) -> str:
    """Store a played file as a new encounter of the store at ``db`` (through the table
    service, with the seed it was played with: the same records); its name."""
    from fracas.table import TableService

    store = open_store(db)
    try:
        table = TableService(store).create(text, ef.path, seed=engine.seed, live=False)
        return table.name
    finally:
        store.close()


_TONES = {
    "critical_failure": "bold red",
    "critical_hit": "bold green",
    "title": "bold cyan",
    "turn": "dim",
}
"""How the terminal marks a log line of each tone (never by reading its words)."""


def _print_log(ef: EncounterFile, engine: Engine, entries: list[Line]) -> None:
    lines = [line.text for line in entries]
    opts = ", ".join(
        f"{k}={v}"
        for k, v in engine.ruleset.option_values().items()
        if v != engine.ruleset.option_defaults()[k]
    )
    _out.print(
        f"[bold]{escape(ef.path)}[/bold] · {ef.ruleset.name}"
        f"{' (' + escape(opts) + ')' if opts else ''} · seed {engine.seed}"
    )
    if not _out.is_terminal:  # piped: plain text, printed at once
        click.echo("\n".join("\n" + line if line.startswith("#") else line for line in lines))
        _out.print()
        _out.print(status_table(ef.ruleset, engine.state))
        return
    for line in entries:
        text = escape(line.text)
        style = _TONES.get(line.tone)
        if style:
            text = f"[{style}]{text}[/{style}]"
        _out.print("\n" + text if line.tone == "title" else text)
    _out.print()
    _out.print(status_table(ef.ruleset, engine.state))
