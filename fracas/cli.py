"""The command line: ``fracas run``, ``fracas odds``, ``fracas rules``, ``fracas play``,
``fracas serve``.

Thin: it reads files, hands actions to the engine and prints what comes back.
Every error fracas raises on purpose ends the command with exit status 1 and
one line on stderr; nothing prints a traceback.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, NoReturn

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from fracas.dice.budget import DEFAULT_SECONDS
from fracas.engine import Engine
from fracas.errors import FileError, FracasError
from fracas.files import EncounterFile, load, parse_text, play_file, read_text
from fracas.odds import Odds, action_odds
from fracas.play.view import status_table
from fracas.render import (
    Line,
    action_title,
    choice_lines,
    choices_json,
    damage_rows,
    events_json,
    log_entries,
    odds_heading,
    rolls_json,
    state_json,
)
from fracas.rule_text import find_rule
from fracas.rules_info import describe_ruleset, ruleset_table
from fracas.store import default_db_path, open_store
from fracas.table.choice_odds import DEFAULT_CHOICE_SECONDS, choice_odds

__all__ = ["main"]

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


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="fracas")
def main() -> None:
    """fracas: dice combat with the rules automated, and the exact odds of every action.

    \b
    Try:
      fracas run examples/dice-combat.yaml        play an encounter file, print the log
      fracas odds examples/dice-combat.yaml       exact odds of the file's last action
      fracas rules dice-combat                    sheet fields, actions, dice, options
    """


def _start(ef: EncounterFile, engine: Engine) -> Any:
    import dataclasses

    return dataclasses.replace(ef.start, order=engine.state.order)


@main.command()
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
        try:
            text = read_text(file)
            ef = parse_text(text, file)
        except FracasError as failed:
            if as_json:  # stdout still holds one JSON object (README contract)
                where = failed.where if isinstance(failed, FileError) else ""
                found = {"code": failed.code, "message": failed.message, "where": where}
                click.echo(json.dumps({"error": found}, indent=2))
            raise
        if seed is not None:
            import dataclasses

            ef2 = dataclasses.replace(ef, seed=seed)
        else:
            ef2 = ef
        played = play_file(ef2)
        engine, records, error = played.engine, played.records, played.refused
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
            if error is not None:
                number, exc = error
                out["error"] = {"action": number, "code": exc.code, "message": exc.message}
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
            number, exc = error
            where = ef2.action_where[number - 1]
            _fail(f"action {number} ({where}): {exc.code}: {exc.message}")

    _guard(go)


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


@main.command()
@click.argument("file", type=click.Path())
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
    help="Wall time the odds may take: exact within it, else a marked Monte Carlo estimate.",
)
@click.option(
    "--budget",
    "budget_ms",
    type=click.IntRange(min=1),
    default=None,
    help="The same time budget in milliseconds (overrides --seconds).",
)
@click.option(
    "--choices",
    is_flag=True,
    help="Play every action of FILE, then give the odds of every choice of whoever's turn "
    "it is (each action on each target or tile), fastest first, within the budget.",
)
def odds(
    file: str,
    as_json: bool,
    depth: int | None,
    seconds: float,
    budget_ms: int | None,
    choices: bool,
) -> None:
    """Exact odds of the last action of FILE, before anyone rolls.

    Every action but the last is played with its dice; the last one is
    replayed over every face of every die it rolls. Dice the last action
    names stay fixed: the odds are conditional on them. Where dice explode
    without end, paths are cut at a depth and the output states the mass cut
    and the least damage of a cut path. Past the time budget (--seconds or
    --budget MS) the odds are a seeded Monte Carlo estimate with 95% intervals,
    marked as such, instead of exact.
    """
    if budget_ms is not None:
        seconds = budget_ms / 1000

    def go() -> None:
        ef = load(file)
        if choices:
            _print_choices(ef, as_json, DEFAULT_CHOICE_SECONDS if budget_ms is None else seconds)
            return
        if not ef.actions:
            raise FracasError(
                "no_actions",
                f"{file!r} has no actions: odds are computed for the file's last action",
            )
        played = play_file(ef, len(ef.actions) - 1)
        engine, error = played.engine, played.refused
        if error is not None:
            number, exc = error
            _fail(f"action {number} ({ef.action_where[number - 1]}): {exc.code}: {exc.message}")
        last = ef.actions[-1]
        try:
            result = action_odds(
                ef.ruleset, engine.state, last, seed=engine.seed, max_rolls=depth, seconds=seconds
            )
        except FracasError as exc:
            n = len(ef.actions)
            _fail(f"action {n} ({ef.action_where[n - 1]}): {exc.code}: {exc.message}")
        if as_json:
            click.echo(json.dumps(result.to_json(), indent=2))
        else:
            _print_odds(ef, engine, result, len(ef.actions))

    _guard(go)


def _print_choices(ef: EncounterFile, as_json: bool, seconds: float) -> None:
    """``fracas odds --choices``: the odds of every choice of the current actor."""
    played = play_file(ef)
    if played.refused is not None:
        number, exc = played.refused
        _fail(f"action {number} ({ef.action_where[number - 1]}): {exc.code}: {exc.message}")
    state = played.engine.state
    found = choice_odds(ef.ruleset, state, seed=played.engine.seed, seconds=seconds)
    if as_json:
        click.echo(json.dumps(choices_json(state, found), indent=2))
        return
    _out.print(f"[bold]Odds of every choice of {escape(state.name(state.turn.actor))}[/bold]")
    for line in choice_lines(state, found):
        _out.print(escape(line))


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:6.2f}%"


def _print_odds(ef: EncounterFile, engine: Engine, result: Odds, number: int) -> None:
    last = ef.actions[-1]
    fixed = ", ".join(f"{k}={list(v) if len(v) > 1 else v[0]}" for k, v in last.dice.items())
    _out.print(
        f"[bold]Odds of {escape(action_title(number, last))}[/bold]"
        f"{' given ' + escape(fixed) if fixed else ''}"
    )
    paths, *cut = odds_heading(result)
    _out.print(f"[dim]{paths}[/dim]")
    for line in cut:
        _out.print(f"[yellow]{escape(line)}[/yellow]")
    for cid, o in result.combatants.items():
        c = engine.state.get(cid)
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


@main.command()
@click.argument("ruleset", required=False)
@click.argument("rule_id", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def rules(ruleset: str | None, rule_id: str | None, as_json: bool) -> None:
    """List the rulesets, or one RULESET's sheet fields, items, actions, dice and options,
    or one rule of it (RULE_ID, e.g. DC-29): its section and a short statement."""

    def go() -> None:
        if ruleset is not None and rule_id is not None:
            rule = find_rule(ruleset, rule_id)
            click.echo(json.dumps(rule.as_json(), indent=2) if as_json else rule.line())
            return
        if ruleset is None:
            if as_json:
                click.echo(json.dumps(ruleset_table(), indent=2))
                return
            table = Table(title="rulesets", title_justify="left")
            for col in ("name", "seed", "what it is"):
                table.add_column(col)
            for row in ruleset_table():
                table.add_row(row["name"], row["seed"], row["summary"])
            _out.print(table)
            _out.print("[dim]fracas rules NAME shows one ruleset's contract[/dim]")
            return
        info = describe_ruleset(ruleset)
        if as_json:
            click.echo(json.dumps(info, indent=2))
            return
        _print_rules(info)
        _out.print(
            f"[dim]fracas rules {escape(info['name'])} RULE_ID prints one rule "
            "(its section and a short statement)[/dim]"
        )

    _guard(go)


def _print_rules(info: dict[str, Any]) -> None:
    _out.print(f"[bold]{info['name']}[/bold]: {escape(info['title'])} (seed {info['seed']})")
    _out.print(escape(info["summary"]))
    sections = (
        ("sheet fields", info["sheet"], ("field", "type", "default", "meaning")),
        ("item fields", info.get("item") or [], ("field", "type", "default", "meaning")),
        ("options", info["options"], ("option", "type", "default", "meaning")),
    )
    for title, rows, cols in sections:
        if not rows:
            continue
        table = Table(title=title, title_justify="left")
        for col in cols:
            table.add_column(col)
        for row in rows:
            table.add_row(
                row["name"],
                escape(row["type"]),
                escape(json.dumps(row["default"])),
                escape(row["meaning"]),
            )
        _out.print(table)
    table = Table(title="actions", title_justify="left")
    for col in ("do", "target", "parameters", "what it does"):
        table.add_column(col)
    for row in info["actions"]:
        table.add_row(row["do"], row["target"], ", ".join(row["params"]), escape(row["summary"]))
    _out.print(table)
    table = Table(title="dice labels", title_justify="left")
    for col in ("label", "die", "per combatant", "rolled"):
        table.add_column(col)
    for row in info["dice"]:
        table.add_row(
            row["label"],
            f"d{row['sides']}",
            "yes" if row["per_combatant"] else "",
            escape(row["when"]),
        )
    _out.print(table)
    if info.get("shorthands"):
        _out.print("[bold]item short-hands:[/bold] " + ", ".join(info["shorthands"]))


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


@main.command()
@click.argument("target", metavar="FILE|ENCOUNTER", required=False)
@_store_option("The encounter store: a SQLite file (created where missing) or a postgresql:// URL.")
@click.option("--name", help="Name of a new encounter (default: the file's name, made unique).")
@click.option(
    "--seed",
    type=int,
    help="Seed of a new encounter's dice (overrides the file's). Default: the file's "
    "seed for its own actions, then a fresh seed (printed) for the live dice.",
)
@click.option(
    "--dice",
    "dice_mode",
    type=click.Choice(["auto", "manual"]),
    default="auto",
    show_default=True,
    help="auto: fracas rolls; manual: it asks for every die (physical dice). "
    "`dice manual|auto` at the prompt switches.",
)
@click.option("--list", "list_", is_flag=True, help="List the stored encounters and exit.")
@click.option("--delete", metavar="ENCOUNTER", help="Delete a stored encounter and exit.")
def play(
    target: str | None,
    db: str,
    name: str | None,
    seed: int | None,
    dice_mode: str,
    list_: bool,
    delete: str | None,
) -> None:
    """Play an encounter live at a prompt: FILE starts a new stored encounter (its
    actions played first), ENCOUNTER (a stored name) resumes one.

    \b
    At the prompt (tab completes; `help` lists what the current actor may do now):
      ana attack bo            an action: actor, action, target (key=value parameters)
      attack bo attack=17      the current actor's; dice given as label=N
      ana throw at 4,5         a tile target      bo reload / end   and so on
      heal bo 3, status bo add=burning, add, remove, initiative, roll 2d6  (the GM's)
      status [NAME], odds ACTION, undo, redo, log [N], dice manual|auto,
      save FILE, list, delete NAME, quit

    Every action is stored (durably) before it is shown, so nothing shown is ever
    lost; two sessions on one encounter never lose or duplicate an action.
    """

    def go() -> None:
        from fracas.play.loop import play as play_loop
        from fracas.play.view import encounters_table

        store = open_store(db)
        try:
            if list_:
                _out.print(encounters_table(store.list(), None, store.location))
                return
            if delete is not None:
                store.delete(delete)
                click.echo(f"deleted {delete!r} from {store.location}")
                return
            if target is None:
                raise FracasError(
                    "missing_argument",
                    "give FILE (a new encounter) or ENCOUNTER (a stored one); --list lists them",
                )
            status = play_loop(store, target, name=name, seed=seed, manual=dice_mode == "manual")
        finally:
            store.close()
        if status:
            sys.exit(status)

    _guard(go)


@main.group()
def lab() -> None:
    """The balance lab: who wins, how often (docs/lab.md).

    \b
      fracas lab win FILE         exact win odds (an absorbing Markov chain)
      fracas lab sim FILE -n N    Monte Carlo of whole fights, real rules and dice
    """


@lab.command("win")
@click.argument("file", type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@click.option(
    "--max-states",
    type=click.IntRange(min=1),
    default=None,
    help="States past which the chain refuses (default 20,000).",
)
def lab_win(file: str, as_json: bool, max_states: int | None) -> None:
    """Each side's exact chance to be the last standing, from FILE's state after its
    actions, under the lab's tactics (the file's `tactics:`). A draw: every side down
    at once, or a stalemate (nobody can hurt anybody any more); there is no round cap."""
    from fracas.lab.chain import MAX_STATES, win_odds
    from fracas.lab.fight import file_start
    from fracas.lab.policy import Policy

    def go() -> None:
        ef = load(file)
        result = win_odds(
            ef.ruleset,
            file_start(ef),
            Policy(ef.ruleset, ef.tactics),
            max_states=max_states or MAX_STATES,
        )
        if as_json:
            click.echo(json.dumps(result.to_json(), indent=2))
            return
        for side, p in result.sides.items():
            _out.print(f"[bold]{escape(side)}[/bold] wins {_pct(p)}  [dim]{p}[/dim]")
        _out.print(f"draw {_pct(result.draw)}  [dim]{result.draw}[/dim]")
        _out.print(
            f"[dim]{result.states:,} states; {float(result.rounds_mean):.2f} rounds on "
            "average[/dim]"
        )
        if result.idle:
            names = ", ".join(escape(ef.start.name(cid)) for cid in result.idle)
            one = len(result.idle) == 1
            _out.print(
                f"[yellow]{names} only {'ends its turn' if one else 'end their turns'} here: "
                "nothing in reach, and the lab's tactics do not move (give "
                f"{'it' if one else 'them'} `approach: true` under `tactics:` in the file "
                "to close in)[/yellow]"
            )

    _guard(go)


@lab.command("sim")
@click.argument("file", type=click.Path())
@click.option("-n", "fights", type=click.IntRange(min=1), default=1000, show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option(
    "--executor",
    metavar="dask://HOST:PORT",
    default=None,
    help="Run the chunks on this Dask cluster (the extra fracas[dask]) instead of --workers.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@click.option("--plot", type=click.Path(), default=None, help="Write a chart (.png or .svg).")
def lab_sim(
    file: str,
    fights: int,
    workers: int,
    seed: int,
    executor: str | None,
    as_json: bool,
    plot: str | None,
) -> None:
    """Monte Carlo of N whole fights of FILE through the real rules and the lab's
    tactics: win rates with 95% intervals, rounds, damage, survival, HP left. The same
    seed gives the same result whatever the number of workers."""
    from fracas.lab.sim import simulate

    def go() -> None:
        text = read_text(file)
        parse_text(text, file)  # a bad file fails here, before any worker starts
        if as_json or not _out.is_terminal:
            result = simulate(text, file, fights, seed=seed, workers=workers, executor=executor)
        else:
            from rich.progress import Progress

            with Progress(console=_out, transient=True) as bar:
                task = bar.add_task("fights", total=fights)
                result = simulate(
                    text,
                    file,
                    fights,
                    seed=seed,
                    workers=workers,
                    progress=lambda k: bar.advance(task, k),
                    executor=executor,
                )
        data = result.to_json()
        if plot is not None:
            from fracas.lab.plots import sim_plot

            sim_plot(data, plot)
        if as_json:
            click.echo(json.dumps(data, indent=2))
            return
        for side, s in data["sides"].items():
            lo, hi = s["ci95"]
            _out.print(
                f"[bold]{escape(side)}[/bold] wins {s['win'] * 100:6.2f}%  "
                f"(95%: {lo * 100:.2f}-{hi * 100:.2f}%)"
            )
        cap = data["round_cap"]
        _out.print(
            f"draw {data['draw'] * 100:6.2f}%  [dim]({cap['fights']} stopped at the "
            f"{cap['rounds']}-round cap)[/dim]"
        )
        _out.print(f"rounds: mean {data['rounds']['mean']:.2f}")
        peak = max(data["rounds"]["histogram"].values())
        for r, k in data["rounds"]["histogram"].items():
            _out.print(f"  {r:>3} [cyan]{'█' * max(1, round(30 * k / peak)):<30}[/cyan] {k}")
        table = Table("combatant", "dealt", "taken", "survival", "HP left")
        for c in data["combatants"].values():
            table.add_row(
                escape(c["name"]),
                f"{c['damage_dealt']:.2f}",
                f"{c['damage_taken']:.2f}",
                f"{c['survival'] * 100:.1f}%",
                f"{c['hp_left']:.2f}",
            )
        _out.print(table)

    _guard(go)


@lab.command("compare")
@click.argument("files", nargs=-1, required=True, type=click.Path())
@click.option(
    "--set",
    "sets",
    multiple=True,
    metavar="OPTION=VALUE[,...]",
    help="A variant: FILE with these options (repeat for each variant; one --set is "
    "compared with FILE as it is).",
)
@click.option(
    "-n",
    "fights",
    type=click.IntRange(min=1),
    default=2000,
    show_default=True,
    help="Fights per variant where the exact chain is too large.",
)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option(
    "--sweep",
    metavar="ID.FIELD=LO..HI",
    default=None,
    help="One variant per value of a sheet field (bo.hp=4..12; hp sets max_hp too) or "
    "an option (OPTION=LO..HI): a table and, with --plot, a curve.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@click.option("--plot", type=click.Path(), default=None, help="Write a chart (.png or .svg).")
def lab_compare(
    files: tuple[str, ...],
    sets: tuple[str, ...],
    sweep: str | None,
    fights: int,
    seed: int,
    as_json: bool,
    plot: str | None,
) -> None:
    """The same fight under rule variants side by side: FILE with --set options, or
    several FILES. Each side's win chance per variant (exact where `win` applies,
    else sampled), the difference to the first and whether it is significant."""
    from fracas.lab.compare import Variant, compare, with_options
    from fracas.lab.compare import sweep as sweep_variants

    def go() -> None:
        from pathlib import Path

        texts = [(f, read_text(f)) for f in files]
        variants = [Variant(Path(f).name, t, f) for f, t in texts]
        if sweep is not None:
            variants = sweep_variants(texts[0][1], texts[0][0], sweep)
        elif sets:
            first, text = texts[0]
            made = [with_options(text, first, s) for s in sets]
            variants = (made if len(made) > 1 else [variants[0], *made]) + variants[1:]
        if len(variants) < 2:
            raise FracasError(
                "nothing_to_compare",
                "give two FILES, or FILE with --set OPTION=VALUE (e.g. --set revision=A "
                "--set revision=B)",
            )
        for v in variants:
            parse_text(v.text, v.name)
        result = compare(variants, n=fights, seed=seed)
        if plot is not None:
            from fracas.lab.plots import compare_plot, sweep_plot

            if sweep is not None:
                sweep_plot(result, sweep.partition("=")[0], plot)
            else:
                compare_plot(result, plot)
        if as_json:
            click.echo(json.dumps(result, indent=2))
            return
        if sweep is not None:
            sides = list(result["variants"][0]["sides"])
            table = Table(sweep.partition("=")[0], *(f"{s} wins" for s in sides), "method")
            for v in result["variants"]:
                table.add_row(
                    escape(v["label"].rpartition("=")[2]),
                    *(f"{v['sides'][s]['win'] * 100:.2f}%" for s in sides),
                    v["method"],
                )
            _out.print(table)
            return
        for v in result["variants"]:
            _out.print(f"[bold]{escape(v['label'])}[/bold] [dim]({v['method']})[/dim]")
            for side, s in v["sides"].items():
                lo, hi = s["ci95"]
                ci = "" if "exact" in s else f"  (95%: {lo * 100:.2f}-{hi * 100:.2f}%)"
                _out.print(f"  {escape(side)} wins {s['win'] * 100:6.2f}%{ci}")
        for d in result["differences"]:
            _out.print(f"[bold]{escape(d['label'])} - {escape(d['against'])}[/bold]")
            for side, s in d["sides"].items():
                how = f"exact {s['exact']}" if "exact" in s else f"z test p = {s['p_value']:.3g}"
                mark = "significant" if s["significant"] else "not significant"
                _out.print(
                    f"  {escape(side)} {s['diff'] * 100:+.2f} points  [dim]{how}; {mark}[/dim]"
                )

    _guard(go)


@main.command()
@click.argument("target", metavar="[FILE|ENCOUNTER]", required=False)
@_store_option("The encounter store (the same as `fracas play`'s).")
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", type=int, default=8765, show_default=True, help="0: any free port.")
@click.option(
    "--open",
    "open_browser",
    is_flag=True,
    help="Open the game master's page (no FILE: the setup page).",
)
@click.option(
    "--enemy-hp",
    type=click.Choice(["exact", "label", "hidden"]),
    default="label",
    show_default=True,
    help="What players see of the HP of combatants on no side of theirs.",
)
@click.option(
    "--keep-links",
    is_flag=True,
    help="Resuming ENCOUNTER (after a crash or a restart): keep the links printed before "
    "working, so open pages reconnect by themselves; none are printed again.",
)
def serve(
    target: str | None,
    db: str,
    host: str,
    port: int,
    open_browser: bool,
    enemy_hp: str,
    keep_links: bool,
) -> None:
    """Serve an encounter in the browser: FILE starts a new stored encounter, ENCOUNTER
    resumes one; no argument: the setup page only, which lists the stored encounters
    and starts new ones from a form. Prints the game master's link and one link per
    player, and the setup page's (yours only); every page shows every change live.
    `fracas play` on the same store goes on with the same encounter."""

    def go() -> None:
        from fracas.web.serve import serve as run_server

        run_server(
            db, target, host, port, open_browser, click.echo, enemy_hp=enemy_hp,
            keep_links=keep_links,
        )  # fmt: skip

    _guard(go)
