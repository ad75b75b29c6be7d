"""What the commands of the command line share: the console, the one-line error and
its exit status, the ``--db`` option of `fracas play` and `fracas serve`."""

from __future__ import annotations

import sys
from collections.abc import Callable
from fractions import Fraction
from typing import NoReturn

import click
from rich.console import Console

from fracas.errors import FracasError
from fracas.store import default_db_path

_DEFAULT_DB = str(default_db_path())

_out = Console(highlight=False, soft_wrap=True)
if not _out.is_terminal:
    _out.width = 120  # piped output: no table squeezed to 80 columns


def _fail(message: str, code: int = 1) -> NoReturn:
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


def _guard(fn: Callable[[], None]) -> None:
    try:
        fn()
    except FracasError as exc:
        _fail(str(exc))


def _store_option(help: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """``--db``: the encounter store of `fracas play` and `fracas serve` (``FRACAS_DB``)."""
    return click.option(
        "--db",
        type=click.Path(dir_okay=False),
        default=_DEFAULT_DB,
        show_default=True,
        envvar="FRACAS_DB",
        show_envvar=True,
        help=help,
    )


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:6.2f}%"
