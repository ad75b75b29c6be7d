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

import json
import sys
from collections.abc import Sequence
from typing import Any

import click

from fracas.cli.cmd_lab import lab
from fracas.cli.cmd_odds import odds
from fracas.cli.cmd_rules import rules
from fracas.cli.cmd_run import run

__all__ = ["main"]


class _Main(click.Group):
    """The ``fracas`` group: a command line that asks for ``--json`` gets even a usage
    error (a missing FILE, a bad option value) as ``{"error": {...}}`` on stdout, beside
    click's usage message on stderr (exit status 2)."""

    _json = False

    def main(self, args: Sequence[str] | None = None, *rest: Any, **extra: Any) -> Any:
        self._json = "--json" in (sys.argv[1:] if args is None else list(args))
        return super().main(args, *rest, **extra)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.ClickException as exc:
            if self._json:
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


main.add_command(run)
main.add_command(odds)
main.add_command(rules)
main.add_command(lab)
