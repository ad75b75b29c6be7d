"""``fracas roll``: a free roll in d20's notation, off the table (issue 36)."""

from __future__ import annotations

import json

import click
from rich.markup import escape

from fracas.cli.common import _guard, _out
from fracas.table.rolls import free_roll_json


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("notation", nargs=-1, required=True)
@click.option("--seed", type=int, default=None, help="Seeded dice: the same seed, the same roll.")
@click.option("--json", "as_json", is_flag=True, help="Print the roll as one JSON object.")
def roll(notation: tuple[str, ...], seed: int | None, as_json: bool) -> None:
    """Roll NOTATION as d20 (Avrae's dice) writes it: 4d6kh3, 1d20+5, (1d4+1)*2, 1d20 [fire].

    Also 2d20kl1, 8d6ro1, 1d6e6, 4d6mi2, (1d4, 1d6)kh1, d%, 60 // 1d6.

    The words of NOTATION are joined by a space, never glued: `fracas roll 1d2 0` is
    refused, not a d20. --json prints {"notation", "total", "dice", "shown", "seed"};
    each die with its size, every face it showed (a reroll adds one), what it counts
    and whether it is kept.
    """

    def go() -> None:
        out = free_roll_json(" ".join(notation), seed)
        if as_json:
            click.echo(json.dumps(out, indent=2))
            return
        _out.print(f"{escape(str(out['shown']))} = [bold]{out['total']}[/bold]")
        _out.print(f"[dim]seed {out['seed']}[/dim]")

    _guard(go, as_json=as_json)
