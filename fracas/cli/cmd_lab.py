"""``fracas lab``: the balance lab (who wins, how often; docs/lab.md)."""

from __future__ import annotations

import json
import time

import click
from rich.markup import escape
from rich.table import Table

from fracas.cli.common import _guard, _out
from fracas.errors import FracasError
from fracas.table import check_file, read_text


@click.group()
def lab() -> None:
    """The balance lab: who wins, how often (docs/lab.md).

    \b
      fracas lab win FILE         win odds: exact, floating point, or an estimate
      fracas lab sim FILE -n N    Monte Carlo of whole fights, real rules and dice
      fracas lab advise FILE      every choice of whoever's turn it is, ranked
    """


@lab.command("win")
@click.argument("file", type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@click.option(
    "--max-states",
    type=click.IntRange(min=1),
    default=None,
    help="States past which the chain gives up for the estimate (default 20,000): the "
    "chain's budget of work.",
)
@click.option(
    "--fights",
    type=click.IntRange(min=1),
    default=None,
    help="Fights the estimate plays at most (default 1,000; it stops sooner once within "
    "1 point): its budget of work.",
)
@click.option(
    "--seconds",
    type=click.FloatRange(min=1),
    default=None,
    help="An outer bound on wall time (default 120): the budgets of work decide the "
    "answer; one this bound cuts says so.",
)
@click.option(
    "--method",
    type=click.Choice(["auto", "exact", "float", "estimate"]),
    default="auto",
    show_default=True,
    help="Only this method (auto: exact where small, else float, else an estimate).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="The estimate's seed.")
@click.option("--workers", type=click.IntRange(min=1), default=None, help="The estimate's.")
def lab_win(
    file: str,
    as_json: bool,
    max_states: int | None,
    fights: int | None,
    seconds: float | None,
    method: str,
    seed: int,
    workers: int | None,
) -> None:
    """Each side's chance to be the last standing, from FILE's state after its actions,
    under the lab's tactics (the file's `tactics:`): exact (Fractions) where the fight's
    chain is small, else the same chain in floating point (its residual shown), else a
    seeded estimate from fights (95% interval within 1 point, or --fights fights),
    labelled. The budgets are work (states, fights, the seed): the same answer on a
    quiet and a busy machine. A draw: every side down at once, or a stalemate; there is
    no round cap."""
    from fracas.lab.win import EXACT_STATES, FIGHTS, FLOAT_STATES, SECONDS, percent, win

    def go() -> None:
        text = read_text(file)
        methods = ("exact", "float", "estimate") if method == "auto" else (method,)
        result = win(
            text,
            file,
            seconds=seconds or SECONDS,
            max_states=max_states or (FLOAT_STATES if method != "exact" else EXACT_STATES),
            exact_states=EXACT_STATES if method in ("auto", "exact") else 0,
            fights=fights or FIGHTS,
            seed=seed,
            workers=workers,
            methods=methods,
        )
        if as_json:
            click.echo(json.dumps(result.to_json(), indent=2))
            return
        names = check_file(text, file).start
        for side, p in result.sides.items():
            shown = percent(p, result.certain[side])
            tail = ""
            if side in result.exact:
                q = str(result.exact[side])
                if len(q) > 60:
                    digits = len(str(result.exact[side].denominator))
                    q = f"exactly: a fraction of {digits} digits (--json)"
                tail = f"  [dim]{q}[/dim]"
            elif side in result.ci95:
                lo, hi = result.ci95[side]
                tail = f"  [dim](95%: {percent(lo)} to {percent(hi)})[/dim]"
            _out.print(f"[bold]{escape(side)}[/bold] wins {shown:>7}{tail}")
        draw_ci = ""  # an estimate's every figure carries its interval, the draw's too
        if "draw" in result.ci95:
            lo, hi = result.ci95["draw"]
            draw_ci = f"  [dim](95%: {percent(lo)} to {percent(hi)})[/dim]"
        _out.print(f"draw {percent(result.draw, result.certain['draw'])}{draw_ci}")
        if result.method == "exact":
            how = f"exact: the fight's chain, {result.states:,} states, in Fractions"
        elif result.method == "float":
            how = (
                f"floating point: the fight's chain, {result.states:,} states, solved by "
                f"sparse LU; largest residual {result.residual or 0:.1e}"
            )
        else:
            how = f"ESTIMATE from {result.fights:,} seeded fights (seed {seed}), 95% intervals"
            if not result.precise and not result.cut_by_time:
                how += f"; the budget of {fights or FIGHTS:,} fights ended before 1 point"
        if result.cut_by_time:
            how += (
                f"; cut by the time limit ({seconds or SECONDS:g} s): "
                "another machine may answer otherwise (--seconds allows more time)"
            )
        _out.print(
            f"[dim]{how}; {result.rounds_mean:.2f} rounds on average; {result.seconds:.1f} s[/dim]"
        )
        if result.why:
            _out.print(f"[dim](not the chain: {escape(result.why)})[/dim]")
        if result.idle:
            who = ", ".join(escape(names.name(cid)) for cid in result.idle)
            one = len(result.idle) == 1
            _out.print(
                f"[yellow]{who} only {'ends its turn' if one else 'end their turns'} here: "
                f"nothing the tactics take is in reach, and {'it does' if one else 'they do'} "
                "not walk (`approach: false`, or the table's `move: 0`)[/yellow]"
            )

    _guard(go, as_json=as_json)


@lab.command("advise")
@click.argument("file", type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print the advice as one JSON object.")
@click.option(
    "--seconds",
    type=click.FloatRange(min=0.1),
    default=None,
    help="An outer bound on the advice's wall time (default 15): the budgets of work "
    "(dice paths, samples, states) decide it; what this bound cuts is said.",
)
@click.option("--top", type=click.IntRange(min=1), default=None, help="Only the best N choices.")
@click.option(
    "--no-win",
    "no_win",
    is_flag=True,
    help="The choices alone, without the chances to win after each (those take a chain "
    "of the fight: seconds; the choices take milliseconds).",
)
def lab_advise(
    file: str, as_json: bool, seconds: float | None, top: int | None, no_win: bool
) -> None:
    """The advisor: every choice of whoever's turn it is after FILE's actions (each
    action, target, weapon and tile, walking then attacking), ranked by the lab's
    tactics (the first is the one they take), each with the exact odds of its attack
    (as `fracas odds` gives them) and, where the fight's chain can say, the side's chance
    to win after it."""
    from fracas.lab.advisor import ADVICE_SECONDS, advise, step_words, with_chances
    from fracas.lab.fight import file_start
    from fracas.lab.keep import Kept
    from fracas.lab.plans import pct
    from fracas.lab.policy import Policy
    from fracas.lab.win import percent

    def go() -> None:
        ef = check_file(read_text(file), file)
        state = file_start(ef)
        keep = Kept(ef.ruleset, ef.tactics, Policy(ef.ruleset, ef.tactics))
        bound = seconds or ADVICE_SECONDS
        begun = time.monotonic()
        if as_json:
            whole = advise(keep, state, seconds=bound, seed=ef.seed or 0, win=not no_win)
            data = whole.to_json(state)
            if top is not None:
                data["choices"] = data["choices"][:top]
            click.echo(json.dumps(data, indent=2))
            return
        # the choices first (milliseconds), then the chances to win after each (a chain
        # of the fight: seconds), printed as each is known (issue 34)
        listed = advise(keep, state, seconds=bound, seed=ef.seed or 0, win=False)
        data = listed.to_json(state)
        choices = data["choices"][:top]
        _out.print(f"[bold]{escape(data['name'])}[/bold]'s turn")
        for c in choices:
            steps = ", then ".join(step_words(s, actor=False) for s in c["steps"])
            figures = ""
            odds = c["odds"]
            if odds is not None and c["target"] in odds["combatants"]:
                o = odds["combatants"][c["target"]]
                hit = "" if o["hit"] is None else f"hit {pct(o['hit'])}, "
                est = " (estimate)" if "estimate" in odds else ""
                figures = f"{hit}mean {o['mean']:.2f}, down {pct(o['down'])}{est}"
            mark = "[green]*[/green]" if c["tactics"] else " "
            _out.print(f"{mark}{c['rank']:>3}. {escape(steps)}  [dim]{c['kind']}[/dim]")
            if figures:
                _out.print(f"       {figures}")
            _out.print(f"       [dim]{escape(c['why'])}[/dim]")
        if no_win:
            return
        with _out.status("Working out the chances to win…"):
            whole = with_chances(keep, state, listed, deadline=begun + bound)
        side = escape(whole.side)
        if whole.win is None:
            why = whole.unsolved or "the fight's chain did not say"
            _out.print(f"No chances to win: {escape(why)}.")
            return
        how = f"{whole.method}, {whole.states:,} states"
        _out.print(f"Chances to win ({how}): {side} win {percent(whole.win)} now")
        for c in whole.choices[: len(choices)]:
            after = "not worked out" if c.win is None else f"{side} win {percent(c.win)}"
            _out.print(f"{c.rank:>4}. then {after}")
        if whole.cut_by_time:
            _out.print("[dim](the time bound cut some of the work: --seconds)[/dim]")

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
        check_file(text, file)  # a bad file fails here, before any worker starts
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

    _guard(go, as_json=as_json)


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
            check_file(v.text, v.name)
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

    _guard(go, as_json=as_json)
