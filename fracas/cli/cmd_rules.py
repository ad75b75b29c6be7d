"""``fracas rules``: the rulesets, one ruleset's contract, or one rule of it."""

from __future__ import annotations

import json
from typing import Any

import click
from rich.markup import escape
from rich.table import Table

from fracas.cli.common import _echo, _guard, _out
from fracas.words.rule_text import find_rule
from fracas.words.rules_info import broken_table, describe_ruleset, ruleset_table


@click.command()
@click.argument("ruleset", required=False)
@click.argument("rule_id", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def rules(ruleset: str | None, rule_id: str | None, as_json: bool) -> None:
    """List the rulesets, or one RULESET's sheet fields, items, actions, dice and options,
    or one rule of it (RULE_ID, e.g. DC-29): its section and a short statement.

    The list holds the installed rulesets too (entry points of the group
    fracas.rulesets); one that fails to load is listed as broken, with its error."""

    def go() -> None:
        if ruleset is not None and rule_id is not None:
            rule = find_rule(ruleset, rule_id)
            _echo(json.dumps(rule.as_json(), indent=2) if as_json else rule.line())
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
            for broken in broken_table():  # installed, failed to load: named with its error
                table.add_row(
                    escape(broken["name"]),
                    "[red]broken[/red]",
                    escape(f"{broken['code']}: {broken['message']}"),
                )
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

    _guard(go, as_json=as_json)


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
