"""What the prompt shows: a record's log lines, whose turn it is, help, odds, tables."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from rich.markup import escape
from rich.table import Table

from fracas import table as tables
from fracas.engine.catalogue import spec_of
from fracas.errors import FracasError
from fracas.io.store import EncounterInfo
from fracas.model import Action, Encounter
from fracas.play.commands import COMMANDS, GM_USAGE, action_names
from fracas.table import Odds, Record
from fracas.words.console import combatant_table, now_line, status_table
from fracas.words.render import action_title, damage_rows, odds_heading, record_entries

__all__ = [
    "combatant_table",
    "encounters_table",
    "help_lines",
    "now_line",
    "odds_lines",
    "record_lines",
    "status_table",
]


def record_lines(log: Sequence[Record], before: Encounter, record: Record) -> list[str]:
    """The log lines of one record, given the state before it."""
    return [line.text for line in record_entries(log, before, record)]


def help_lines(table: tables.Table, about: str | None = None) -> list[str]:
    """What the current actor may do now (the rules asked), the core actions, the commands."""
    state = table.state
    if about is not None:
        if about in COMMANDS:
            return [f"{about}: {COMMANDS[about]}"]
        spec = spec_of(table.ruleset, about.replace("-", "_"))  # `end-turn`: end_turn
        if spec is None:
            valid = ", ".join([*COMMANDS, *action_names(table.file)])
            raise FracasError("unknown_command", f"no command or action {about!r}; valid: {valid}")
        params = f" [{', '.join(spec.params)}]" if spec.params else ""
        return [f"{spec.name} ({spec.targets}){params}: {spec.summary}"]
    actor = state.turn.actor
    lines = [f"{state.name(actor)} ({actor}) may now:"]
    refused: list[str] = []
    for option in table.options():
        spec = option.spec
        keys = [
            f"{p}={'|'.join(option.choices[p])}" if option.choices.get(p) else f"{p}=VALUE"
            for p in spec.params
            if p not in spec.required
        ]
        needs = " ".join(
            "|".join(option.choices[p]) if option.choices.get(p) else p.upper()
            for p in spec.required
        )
        if option.refusal is not None:
            refused.append(f"{spec.name} ({option.refusal.code}: {option.refusal.message})")
            continue
        what = [*option.targets] + (["at X,Y"] if option.tile else [])
        words = [spec.name]
        if what:
            words.append("|".join(what))
        if needs:
            words.append(needs)
        words += [f"[{k}]" for k in keys]
        lines.append(f"  {' '.join(words)}  - {spec.summary}")
    lines.append("  end  - end the turn")
    lines.append("the game master's, taking no turn: " + "; ".join(GM_USAGE.values()))
    if refused:
        lines.append("not now: " + "; ".join(refused))
    lines.append(
        "an action names its actor first (`bo reload`) or is the current actor's; "
        "dice as label=N (`attack=17`)"
    )
    lines.append("commands: " + ", ".join(COMMANDS))
    return lines


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:6.2f}%"


def odds_lines(state: Encounter, action: Action, result: Odds) -> list[str]:
    """The exact odds of ``action`` as text: per combatant hit, mean, down, damage bars
    (a long tail of rare outcomes folded into one line, as ``fracas odds`` prints it)."""
    fixed = ", ".join(f"{k}={','.join(map(str, v))}" for k, v in action.dice.items())
    paths, *cut = odds_heading(result)
    lines = [
        f"odds of {action_title(0, action)[3:]}"
        + (f" given {fixed}" if fixed else "")
        + f": {paths}"
    ]
    lines += [f"  {line}" for line in cut]
    for cid, o in result.combatants.items():
        c = state.get(cid)
        hit = "hit n/a" if o.hit is None else f"hit {_pct(o.hit).strip()}"
        lines.append(
            f"  {c.name} (HP {c.hp}/{c.max_hp}): {hit}, mean damage {float(o.mean):.3f}, "
            f"down {_pct(o.down).strip()}"
        )
        for row in damage_rows(o):
            if row.tail:
                lines.append(
                    f"    {row.damage:>3}+    {'':<30} {_pct(row.p)}  {row.p} "
                    f"({row.count} outcomes up to {row.up_to})"
                )
            else:
                lines.append(f"    {row.damage:>3} dmg {'#' * row.bar:<30} {_pct(row.p)}  {row.p}")
    return lines


def encounters_table(infos: Sequence[EncounterInfo], current: str | None, where: str) -> Table:
    """The stored encounters, the one being played marked."""
    table = Table(title=f"encounters in {where}", title_justify="left")
    for col in ("name", "ruleset", "records", "from file", "last change (UTC)"):
        table.add_column(col)
    for info in infos:
        mark = "* " if info.name == current else "  "
        table.add_row(
            escape(mark + info.name),
            info.ruleset,
            str(info.records),
            escape(info.source),
            info.updated[:19].replace("T", " "),
        )
    return table
