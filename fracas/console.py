"""What every command of ``fracas`` shares, whichever face it starts (the command line's
own, the prompt's ``play``, the web's ``serve``): the console, the one-line error and
its exit status (with ``--json``, the error as a JSON object on stdout too), the
``--db`` option."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from fractions import Fraction
from typing import Any, NoReturn

import click
from rich.console import Console

from fracas.errors import FileError, FracasError
from fracas.store import default_db_path

__all__ = [
    "DEFAULT_DB",
    "ActionError",
    "error_json",
    "fail",
    "guard",
    "out",
    "pct",
    "store_option",
]

DEFAULT_DB = str(default_db_path())

out = Console(highlight=False, soft_wrap=True)
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
    click.echo(f"error: {message}", err=True)
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
