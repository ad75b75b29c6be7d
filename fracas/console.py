"""What every command of ``fracas`` shares, whichever face it starts (the command line's
own, the prompt's ``play``, the web's ``serve``): the console, the one-line error and
its exit status, the ``--db`` option."""

from __future__ import annotations

import sys
from collections.abc import Callable
from fractions import Fraction
from typing import NoReturn

import click
from rich.console import Console

from fracas.errors import FracasError
from fracas.store import default_db_path

__all__ = ["DEFAULT_DB", "fail", "guard", "out", "pct", "store_option"]

DEFAULT_DB = str(default_db_path())

out = Console(highlight=False, soft_wrap=True)
if not out.is_terminal:
    out.width = 120  # piped output: no table squeezed to 80 columns


def fail(message: str, code: int = 1) -> NoReturn:
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


def guard(fn: Callable[[], None]) -> None:
    try:
        fn()
    except FracasError as exc:
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
