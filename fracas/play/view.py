"""What the prompt shows: a record's log lines, whose turn it is, help, odds, tables."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

from rich.markup import escape
from rich.table import Table

from fracas.engine import Record, spec_of
from fracas.files import EncounterFile
from fracas.model import Action, Encounter, Event
from fracas.odds import Odds
from fracas.play.choices import options_now
from fracas.play.commands import COMMANDS, GM_USAGE
from fracas.render import action_title
from fracas.rulesets.base import Ruleset
from fracas.store import EncounterInfo

__all__ = [
    "encounters_table",
    "help_lines",
    "now_line",
    "odds_lines",
    "record_lines",
    "status_table",
]


def _event_lines(state: Encounter, events: Iterable[Event]) -> list[str]:
    lines: list[str] = []
    for event in events:
        line = event.describe(state)
        state = event.apply(state)
        if line:
            lines.append(line)
    return lines


def _title(record: Record) -> str:
    assert record.action is not None
    return action_title(record.seq, record.action)


def record_lines(log: Sequence[Record], before: Encounter, record: Record) -> list[str]:
    """The log lines of one record, given the state before it."""
    if record.kind in ("undo", "redo"):
        assert record.target is not None
        target = log[record.target]
        if record.kind == "undo":
            return [f"#{record.seq} undo: takes back {_title(target)}"]
        return [
            f"#{record.seq} redo: puts back {_title(target)}",
            *_event_lines(before, target.events),
        ]
    lines = [_title(record)] if record.action is not None else []
    return lines + _event_lines(before, record.events)


def now_line(state: Encounter) -> str:
    """Whose turn it is."""
    over = " (turn over: end, move or set)" if state.turn.over else ""
    return f"now: round {state.round}, {state.name(state.turn.actor)}'s turn{over}"


def help_lines(ef: EncounterFile, state: Encounter, about: str | None = None) -> list[str]:
    """What the current actor may do now (the rules asked), the core actions, the commands."""
    if about is not None:
        if about in COMMANDS:
            return [f"{about}: {COMMANDS[about]}"]
        spec = spec_of(ef.ruleset, about)
        assert spec is not None, about
        params = f" [{', '.join(spec.params)}]" if spec.params else ""
        return [f"{spec.name} ({spec.targets}){params}: {spec.summary}"]
    actor = state.turn.actor
    lines = [f"{state.name(actor)} ({actor}) may now:"]
    refused: list[str] = []
    for option in options_now(ef, state):
        spec = option.spec
        keys = [
            f"{p}={'|'.join(spec.choices[p])}" if p in spec.choices else f"{p}=VALUE"
            for p in spec.params
            if p not in spec.required
        ]
        needs = " ".join(p.upper() for p in spec.required if p not in spec.choices)
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
    """The exact odds of ``action`` as text: per combatant hit, mean, down, damage bars."""
    fixed = ", ".join(f"{k}={','.join(map(str, v))}" for k, v in action.dice.items())
    lines = [
        f"odds of {action_title(0, action)[3:]}"
        + (f" given {fixed}" if fixed else "")
        + f": {result.paths:,} dice paths, exact"
    ]
    if result.truncated:
        lines.append(
            f"  paths cut at {result.depth} rolls: probability {result.truncated} not shown"
        )
    for cid, o in result.combatants.items():
        c = state.get(cid)
        hit = "hit n/a" if o.hit is None else f"hit {_pct(o.hit).strip()}"
        lines.append(
            f"  {c.name} (HP {c.hp}/{c.max_hp}): {hit}, mean damage {float(o.mean):.3f}, "
            f"down {_pct(o.down).strip()}"
        )
        top = max(o.damage.values())
        for dmg, p in sorted(o.damage.items()):
            bar = "#" * max(1 if p else 0, round(30 * p / top))
            lines.append(f"    {dmg:>3} dmg {bar:<30} {_pct(p)}  {p}")
    return lines


def status_table(ruleset: Ruleset, state: Encounter) -> Table:
    """Every combatant: HP bar, statuses, what is in hand (ammo), position."""
    table = Table(title=now_line(state)[5:], title_justify="left")
    for col in ("combatant", "side", "HP", "statuses", "gear", "at"):
        table.add_column(col, no_wrap=col in ("HP", "at"))
    for c in state.combatants.values():
        width = 12
        filled = max(0, min(width, round(width * c.hp / c.max_hp))) if c.max_hp else 0
        bar = f"[green]{'█' * filled}[/green][dim]{'·' * (width - filled)}[/dim]"
        down = " [red]DOWN[/red]" if ruleset.is_down(c) else ""
        statuses = ", ".join(
            f"{k} " + " ".join(f"{a}={b}" for a, b in v.items()) for k, v in c.statuses.items()
        )
        at = f"{c.at[0]},{c.at[1]}" if c.at is not None else "-"
        name = ("> " if c.id == state.turn.actor else "  ") + c.name
        table.add_row(
            escape(name),
            escape(c.side),
            f"{bar} {c.hp}/{c.max_hp}{down}",
            escape(statuses),
            escape(ruleset.presenter().gear(state, c)),
            at,
        )
    return table


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
