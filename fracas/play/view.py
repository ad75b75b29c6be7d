"""What the prompt shows: a record's log lines, whose turn it is, help, odds, tables."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from rich.markup import escape
from rich.table import Table

from fracas import table as tables
from fracas.catalogue import spec_of
from fracas.errors import FracasError
from fracas.model import Action, Combatant, Encounter
from fracas.play.commands import COMMANDS, GM_USAGE, action_names
from fracas.render import action_title, damage_rows, odds_heading, record_entries
from fracas.rulesets.base import Ruleset, Shown
from fracas.store import EncounterInfo
from fracas.table import Odds, Record

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


def now_line(state: Encounter) -> str:
    """Whose turn it is."""
    over = " (turn over: end, move or set)" if state.turn.over else ""
    return f"now: round {state.round}, {state.name(state.turn.actor)}'s turn{over}"


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


WIDE = 110
"""Terminal columns from which the status table shows the ruleset's state column."""


def status_table(ruleset: Ruleset, state: Encounter, width: int | None = None) -> Table:
    """Every combatant: HP bar, statuses, what it fights with, the ruleset's own state
    (its presenter's fields: AP and MAP, Energy, wounds, ...; on a terminal narrower than
    :data:`WIDE` columns, left to ``status NAME``), position."""
    presenter = ruleset.presenter()
    table = Table(title=now_line(state)[5:], title_justify="left")
    fields = {cid: presenter.fields(state, c) for cid, c in state.combatants.items()}
    if width is not None and width < WIDE and any(fields.values()):
        fields = {cid: () for cid in fields}
        table.caption = "`status NAME` shows one combatant in full"
    columns = ("combatant", "side", "HP", "statuses", "gear", "state", "at")
    for col in columns:
        if col != "state" or any(fields.values()):
            table.add_column(col, no_wrap=col in ("HP", "at"))
    for c in state.combatants.values():
        statuses = ", ".join(_shown(s) for s in presenter.statuses(state, c))
        at = f"{c.at[0]},{c.at[1]}" if c.at is not None else "-"
        name = ("> " if c.id == state.turn.actor else "  ") + c.name
        row = [escape(name), escape(c.side), _hp(ruleset, c), escape(statuses)]
        row.append(escape(presenter.gear(state, c)))
        if any(fields.values()):
            row.append(escape(" · ".join(_shown(s) for s in fields[c.id])))
        table.add_row(*row, at)
    values = presenter.encounter(state)
    if values:
        shown = escape(" · ".join(_shown(s) for s in values))
        table.caption = f"{shown}; {table.caption}" if table.caption else shown
    return table


def combatant_table(ruleset: Ruleset, state: Encounter, cid: str) -> Table:
    """One combatant in full (``status NAME``): HP, statuses, gear, then everything the
    presenter shows of it, with the details."""
    presenter = ruleset.presenter()
    c = state.get(cid)
    table = Table(title=f"{c.name} ({c.id}, {c.side})", title_justify="left", show_header=False)
    table.add_column("what")
    table.add_column("value")
    table.add_row("HP", _hp(ruleset, c))
    table.add_row("at", f"{c.at[0]},{c.at[1]}" if c.at is not None else "-")
    for s in presenter.statuses(state, c):
        table.add_row(escape(f"status {s.label}"), escape(s.value))
    table.add_row("gear", escape(presenter.gear(state, c)))
    for s in presenter.full(state, c):
        value = s.value + (f" ({s.detail})" if s.detail else "")
        table.add_row(escape(s.label), escape(value))
    return table


def _shown(s: Shown) -> str:
    return f"{s.label} {s.value}" if s.value else s.label


def _hp(ruleset: Ruleset, c: Combatant) -> str:
    """An HP bar (blue filled, dots empty) with the number; DOWN in words, not colour alone."""
    width = 12
    filled = max(0, min(width, round(width * c.hp / c.max_hp))) if c.max_hp else 0
    bar = f"[blue]{'█' * filled}[/blue][dim]{'·' * (width - filled)}[/dim]"
    down = " [bold]DOWN[/bold]" if ruleset.is_down(c) else ""
    return f"{bar} {c.hp}/{c.max_hp}{down}"


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
