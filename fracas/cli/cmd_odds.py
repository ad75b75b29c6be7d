"""``fracas odds``: the exact odds of a file's last action, or of every choice."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING

import click
from rich.markup import escape

from fracas.cli.common import ActionError, _guard, _out, _pct
from fracas.errors import FracasError
from fracas.io.store import open_store
from fracas.table import (
    DEFAULT_SECONDS,
    Odds,
    Table,
    TableService,
    read_text,
)
from fracas.table.rolls import free_roll_odds
from fracas.words.render import action_title, choice_lines, choices_json, damage_rows, odds_heading

if TYPE_CHECKING:
    from fracas.table.rolls import FreeOdds


@click.command()
@click.argument("file", type=click.Path(), required=False, metavar="FILE")
@click.option(
    "--roll",
    "notation",
    default=None,
    metavar="NOTATION",
    help="The exact odds of a free roll in d20's notation (4d6kh3, 8d6ro1) instead of a "
    "file's action.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the odds as one JSON object.")
@click.option(
    "--depth",
    type=click.IntRange(min=1),
    default=None,
    help="Rolls along one dice path before exploding dice are cut (default: the ruleset's).",
)
@click.option(
    "--seconds",
    type=click.FloatRange(min=0, min_open=True),
    default=DEFAULT_SECONDS,
    show_default=True,
    help="An outer bound on wall time: the work (--max-paths, --samples) decides the "
    "answer; one this bound cuts says so.",
)
@click.option(
    "--budget",
    "budget_ms",
    type=click.IntRange(min=1),
    default=None,
    help="The same bound in milliseconds (overrides --seconds).",
)
@click.option(
    "--max-paths",
    type=click.IntRange(min=1),
    default=None,
    help="Dice paths the exact odds may take (default 30,000); past them, a marked Monte "
    "Carlo estimate.",
)
@click.option(
    "--samples",
    type=click.IntRange(min=1),
    default=None,
    help="Seeded samples of an estimate (default 2,000).",
)
@click.option(
    "--choices",
    is_flag=True,
    help="Play every action of FILE, then give the odds of every choice of whoever's turn "
    "it is (each action on each target or tile), fastest first, within the budget.",
)
def odds(
    file: str | None,
    notation: str | None,
    as_json: bool,
    depth: int | None,
    seconds: float,
    budget_ms: int | None,
    max_paths: int | None,
    samples: int | None,
    choices: bool,
) -> None:
    """Exact odds of the last action of FILE, before anyone rolls.

    Every action but the last is played with its dice; the last one is
    replayed over every face of every die it rolls. Dice the last action
    names stay fixed: the odds are conditional on them. Where dice explode
    without end, paths are cut at a depth and the output states the mass cut
    and the least damage of a cut path. Past the budget of work (--max-paths dice
    paths) the odds are a seeded Monte Carlo estimate (--samples samples) with 95%
    intervals, marked as such, instead of exact: the same answer on a quiet and a
    busy machine. --seconds (or --budget MS) only bounds the wall time; an answer it
    cuts says "cut by the time limit".

    --roll NOTATION (no FILE): the exact odds of a free roll's total, pooled
    (8d6 in milliseconds); --json prints {"notation", "min", "max", "mean",
    "distribution", "exact": {"mean", "distribution"}} (fractions "p/q"), and
    "estimate": true where an explosion (e) was cut at a depth (--depth: new dice
    per exploding die, default 12), with the depth.
    """
    if budget_ms is not None:
        seconds = budget_ms / 1000
    if file is None and notation is None:  # click's own usage error, as before --roll
        ctx = click.get_current_context()
        raise click.MissingParameter(ctx=ctx, param=ctx.command.params[0])
    if file is not None and notation is not None:
        raise click.UsageError("give FILE or --roll NOTATION, not both")
    if notation is not None:
        _guard(lambda: _roll_odds(notation, depth, as_json), as_json=as_json)
        return
    assert file is not None  # one of the two, by the checks above

    def go() -> None:
        if choices:
            table = _played(file, None)
            _print_choices(table, as_json, seconds)
            return
        table = _played(file, -1)  # every action but the last
        ef = table.file
        if not ef.actions:
            raise FracasError(
                "no_actions",
                f"{file!r} has no actions: odds are computed for the file's last action",
            )
        last, n = ef.actions[-1], len(ef.actions)
        try:
            work = {"max_paths": max_paths, "samples": samples}
            given = {k: v for k, v in work.items() if v is not None}
            result = table.odds(last, max_rolls=depth, seconds=seconds, **given)
        except FracasError as exc:
            raise ActionError(n, ef.action_where[n - 1], exc) from None
        if as_json:
            click.echo(json.dumps(result.to_json(), indent=2))
        else:
            _print_odds(table, result, n)

    _guard(go, as_json=as_json)


def _roll_odds(notation: str, depth: int | None, as_json: bool) -> None:
    """``fracas odds --roll NOTATION``: the odds of a free roll's total (issue 36)."""
    found = free_roll_odds(notation, depth)
    if as_json:
        click.echo(json.dumps(found.to_json(), indent=2))
        return
    _print_roll(found)


def _print_roll(found: FreeOdds) -> None:
    """A free roll's total: its range, exact mean, and one bar per total."""
    data = found.to_json()
    _out.print(
        f"[bold]Odds of {escape(found.notation)}[/bold]   min {data['min']}   "
        f"max {data['max']}   mean {float(found.mean):.4f} ({found.mean})"
    )
    if found.estimate:
        _out.print(f"[yellow]estimate: {escape(str(data['note']))}[/yellow]")
    top = max(found.dist.values())
    for value, p in found.dist.items():
        if p * 10**6 < top and found.estimate:
            continue  # the cut's long tail: --json lists each
        bar = "█" * round(30 * p / top)
        _out.print(f"  {value:>5} [cyan]{bar:<30}[/cyan] {_pct(p)}  [dim]{p}[/dim]")


def _played(file: str, actions: int | None) -> Table:
    """The table of ``file`` played up to ``actions`` actions (None: all; -1: all but
    the last), on a store of its own; a refused action is an :class:`ActionError`."""
    store = open_store(":memory:")
    try:
        played = TableService(store).play(read_text(file), file, actions=actions)
    finally:
        store.close()
    if played.refused is not None:
        r = played.refused
        raise ActionError(r.number, r.where, r.error)
    return played.table


def _print_choices(table: Table, as_json: bool, seconds: float) -> None:
    """``fracas odds --choices``: the odds of every choice of the current actor."""
    state = table.state
    found = table.choice_odds(seconds)
    if as_json:
        click.echo(json.dumps(choices_json(state, found), indent=2))
        return
    _out.print(f"[bold]Odds of every choice of {escape(state.name(state.turn.actor))}[/bold]")
    for line in choice_lines(state, found):
        _out.print(escape(line))


def _print_odds(table: Table, result: Odds, number: int) -> None:
    last = table.file.actions[-1]
    fixed = ", ".join(f"{k}={list(v) if len(v) > 1 else v[0]}" for k, v in last.dice.items())
    _out.print(
        f"[bold]Odds of {escape(action_title(number, last))}[/bold]"
        f"{' given ' + escape(fixed) if fixed else ''}"
    )
    paths, *cut = odds_heading(result)
    _out.print(f"[dim]{paths}[/dim]")
    if result.roll is not None:  # a free roll: its total (issue 36), pooled
        _print_roll(result.roll)
    for line in cut:
        _out.print(f"[yellow]{escape(line)}[/yellow]")
    for cid, o in result.combatants.items():
        c = table.state.get(cid)
        iv = result.estimate.intervals[cid] if result.estimate is not None else {}

        def ci(
            name: str, pct: bool = True, iv: Mapping[str, tuple[float, float] | None] = iv
        ) -> str:
            got = iv.get(name)
            if got is None:
                return ""
            lo, hi = got
            return f" [{lo * 100:.1f}–{hi * 100:.1f}%]" if pct else f" [{lo:.2f}–{hi:.2f}]"

        hit = "hit   n/a  " if o.hit is None else f"hit {_pct(o.hit)}{ci('hit')}"
        _out.print(
            f"\n[bold]{escape(c.name)}[/bold] (HP {c.hp}/{c.max_hp})  {hit}   "
            f"mean damage {float(o.mean):.3f}{ci('mean', False)}   "
            f"down {_pct(o.down)}{ci('down')}"
        )
        for row in damage_rows(o):
            if row.tail:  # a long tail of rare outcomes (exploding dice): one line
                _out.print(
                    f"  {row.damage:>3}+    {'':<30} {_pct(row.p)}  [dim]{row.p} "
                    f"({row.count} outcomes up to {row.up_to}; --json lists each)[/dim]"
                )
            else:
                bar = "█" * row.bar
                _out.print(
                    f"  {row.damage:>3} dmg [cyan]{bar:<30}[/cyan] {_pct(row.p)}  "
                    f"[dim]{row.p}[/dim]"
                )
        if o.cut:
            _out.print(
                f"  ≥{o.at_least or 0:>2} dmg {'':<30} {_pct(o.cut)}  "
                f"[dim]{o.cut} (paths cut at the depth: at least {o.at_least or 0})[/dim]"
            )
