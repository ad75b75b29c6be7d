"""The command line's own commands: ``fracas run``, ``fracas odds``, ``fracas rules``,
``fracas lab`` (``fracas play`` and ``fracas serve`` are their faces' own commands, in
``fracas.play.command`` and ``fracas.web.command``; :mod:`fracas.main` gathers all).

Thin: it reads files, hands actions to the engine and prints what comes back.
Every error fracas raises on purpose ends the command with exit status 1 and
one line on stderr; nothing prints a traceback.

The package: ``common`` (the console, the error line, ``--db``), one module per
command (``cmd_run``, ``cmd_odds``, ``cmd_rules``, ``cmd_lab``); this module holds the
``main`` group and adds them.
"""

from __future__ import annotations

import gc
import importlib
import sys
from collections.abc import Sequence
from typing import Any

import click

__all__ = ["main"]


class _Main(click.Group):
    """The ``fracas`` group: a command line that asks for ``--json`` gets even a usage
    error (a missing FILE, a bad option value) as ``{"error": {...}}`` on stdout, beside
    click's usage message on stderr (exit status 2)."""

    _json = False
    lazy: dict[str, tuple[str, str]]
    """A command imported only when it runs (or its own help is asked): its name ->
    ``module:attribute`` and the first sentence of its help, which ``fracas --help``
    lists (``fracas --help`` imports no command: issue 34, startup)."""

    def add_lazy(self, name: str, where: str, first: str) -> None:
        self.lazy = {**getattr(self, "lazy", {}), name: (where, first)}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *getattr(self, "lazy", {})})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        lazy = getattr(self, "lazy", {})
        if cmd_name in lazy and cmd_name not in self.commands:
            module, attr = lazy[cmd_name][0].split(":")
            self.add_command(getattr(importlib.import_module(module), attr), cmd_name)
        return super().get_command(ctx, cmd_name)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """The command to run, imported; then, where the command line runs as a program,
        what the process holds is kept out of the garbage collector's walks
        (:func:`gc.freeze`: the permanent generation, which no collection walks). The
        some 46,000 objects the imports made live as long as the process and are never
        garbage, and the first full collection after them came during the command's
        first odds: 25 of the 57 ms of the wasteland frag grenade on three victims. What
        is made afterwards is collected as before."""
        found = super().resolve_command(ctx, args)
        if self._program:
            gc.freeze()
        return found

    _program = False
    """Run as a program of its own (``fracas``, ``python -m fracas``: :meth:`__call__`),
    not called by a test's runner in its process (which settles nothing of the test
    run's)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self._program = True
        return super().__call__(*args, **kwargs)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """As click lists them, but a command not imported yet by its first sentence."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = []
        for name in names:
            cmd = self.commands.get(name)
            if cmd is not None:
                rows.append((name, cmd.get_short_help_str(limit)))
            else:
                rows.append(
                    (name, click.Command(name, help=self.lazy[name][1]).get_short_help_str(limit))
                )
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def main(self, args: Sequence[str] | None = None, *rest: Any, **extra: Any) -> Any:
        self._json = "--json" in (sys.argv[1:] if args is None else list(args))
        return super().main(args, *rest, **extra)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.ClickException as exc:
            if self._json:
                import json  # here: `fracas --help` reads no JSON

                error = {"code": "usage", "message": exc.format_message(), "where": ""}
                click.echo(json.dumps({"error": error}, indent=2))
            raise


@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="fracas")
def main() -> None:
    """fracas: dice combat with the rules automated, and the exact odds of every action.

    \b
    Try:
      fracas run examples/dice-combat.yaml        play an encounter file, print the log
      fracas odds examples/dice-combat.yaml       exact odds of the file's last action
      fracas rules dice-combat                    sheet fields, actions, dice, options
    """


assert isinstance(main, _Main)
main.add_lazy(
    "run",
    "fracas.cli.cmd_run:run",
    "Play an encounter FILE and print the log, then where everyone stands.",
)
main.add_lazy(
    "odds",
    "fracas.cli.cmd_odds:odds",
    "Exact odds of the last action of FILE, before anyone rolls.",
)
main.add_lazy(
    "rules",
    "fracas.cli.cmd_rules:rules",
    "List the rulesets, or one RULESET's sheet fields, items, actions, dice and options, or "
    "one rule of it (RULE_ID, e.g. DC-29): its section and a short statement.",
)
main.add_lazy(
    "lab", "fracas.cli.cmd_lab:lab", "The balance lab: who wins, how often (docs/lab.md)."
)
main.add_lazy(
    "roster",
    "fracas.cli.cmd_roster:roster",
    "Rosters from spreadsheets: import a CSV file's rows as an encounter's combatants.",
)
main.add_lazy(
    "log",
    "fracas.cli.cmd_roster:log",
    "The log of a fight as Markdown for a campaign channel (the players' view; --gm).",
)
main.add_lazy(
    "party",
    "fracas.cli.cmd_party:party",
    "A party that carries over from fight to fight: list, show, export, rest, set.",
)
main.add_lazy(
    "roll",
    "fracas.cli.cmd_roll:roll",
    "Roll NOTATION as d20 (Avrae's dice) writes it: 4d6kh3, 1d20+5, (1d4+1)*2, 1d20 [fire].",
)
