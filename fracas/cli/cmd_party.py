"""``fracas party``: a party that carries over from fight to fight (issue 36), kept in
the store of ``fracas play`` and ``fracas serve``.

Thin: every command is a call of :mod:`fracas.table.party` (which goes through the
table service) and a print of what comes back. What lasts between fights is each
ruleset's to say (``fracas party show`` prints it beside the members).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import click
import yaml

from fracas.cli.common import _echo, _guard, _store_option
from fracas.errors import FracasError
from fracas.io.store import open_store
from fracas.table import TableService
from fracas.table import party as parties
from fracas.table.party import Parties, Party

__all__ = ["party"]

_DB_HELP = "The encounter store (a path or a postgresql:// URL): the parties live in it."


def _with_store(db: str, body: Callable[[TableService], None], *, as_json: bool = False) -> None:
    """Run ``body`` on the table service of store ``db``, closed after; errors as one line."""

    def go() -> None:
        store = open_store(db)
        try:
            body(TableService(store))
        finally:
            store.close()

    _guard(go, as_json=as_json)


def _value(text: str) -> Any:
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return text


def _lines(p: Party) -> list[str]:
    lasting = parties.lasting_of(p.ruleset)
    since = f"written back from {p.encounter} (record {p.seq})" if p.encounter else "no fight yet"
    out = [f"{p.name}: {p.ruleset}, {len(p.members)} members, {since}"]
    what = ", ".join(("HP",) * lasting.hp + lasting.sheet + lasting.statuses)
    out.append(f"  lasts between fights: {what} ({lasting.rules or 'HP'})")
    for m in p.members:
        fields = "; ".join(f"{k} {json.dumps(v)}" for k, v in m.fields.items())
        statuses = ", ".join(m.statuses)
        parts = [f"HP {m.hp}/{m.max_hp}", *([fields] if fields else [])]
        parts += [f"statuses: {statuses}"] if statuses else []
        out.append(f"  {m.id} ({m.name}, {m.side}): " + "; ".join(parts))
    return out


@click.group()
def party() -> None:
    """A party that carries over from fight to fight: list, show, export, rest, set.

    \b
    A party is made by writing a fight back to it; the next fight brings it in:
      fracas party write-back ambush --party crew   what lasts of fight `ambush`
      fracas party start crew examples/next.yaml     the next fight, the party in it
      fracas serve next                              and play it
    """


@party.command("list")
@_store_option(_DB_HELP)
@click.option("--json", "as_json", is_flag=True, help="One JSON object: {name: party}.")
def list_(db: str, as_json: bool) -> None:
    """List the parties of the store."""

    def body(tables: TableService) -> None:
        known = Parties(tables.store).all()
        if as_json:
            click.echo(json.dumps({p.name: p.to_json() for p in known}, indent=2))
            return
        for p in known:
            _echo(f"{p.name}: {p.ruleset}, {', '.join(m.name for m in p.members) or 'no members'}")
        if not known:
            _echo("no parties yet: fracas party write-back ENCOUNTER --party NAME makes one")

    _with_store(db, body, as_json=as_json)


@party.command()
@click.argument("name")
@_store_option(_DB_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print the party as one JSON object.")
def show(name: str, db: str, as_json: bool) -> None:
    """Show party NAME: each member's HP and what else lasts of it."""

    def body(tables: TableService) -> None:
        p = Parties(tables.store).get(name)
        if as_json:
            click.echo(json.dumps(p.to_json(), indent=2))
        else:
            for line in _lines(p):
                _echo(line)

    _with_store(db, body, as_json=as_json)


@party.command()
@click.argument("name")
@_store_option(_DB_HELP)
def export(name: str, db: str) -> None:
    """Print party NAME as YAML: each member as an encounter file's combatant holds it."""

    def body(tables: TableService) -> None:
        p = Parties(tables.store).get(name)
        lasting = parties.lasting_of(p.ruleset)
        members = []
        for m in p.members:
            entry: dict[str, Any] = {"id": m.id, "name": m.name, "side": m.side}
            if lasting.hp:
                entry["hp"] = m.hp
            entry["max_hp"] = m.max_hp
            entry.update(m.fields)
            if m.statuses:
                entry["statuses"] = {k: dict(v) for k, v in m.statuses.items()}
            members.append(entry)
        data = {"party": p.name, "ruleset": p.ruleset, "members": members}
        click.echo(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), nl=False)

    _with_store(db, body)


@party.command("write-back")
@click.argument("encounter")
@click.option("--party", "name", default=None, help="The party (default: the one it brought in).")
@_store_option(_DB_HELP)
def write_back(encounter: str, name: str | None, db: str) -> None:
    """Write what lasts of stored ENCOUNTER, as it stands now, back to its party (a new
    party is made of the fight's players' side)."""

    def body(tables: TableService) -> None:
        p = parties.write_back(tables, encounter, name)
        for line in _lines(p):
            _echo(line)

    _with_store(db, body)


@party.command()
@click.argument("name")
@click.argument("file", type=click.Path())
@click.option("--name", "encounter", default=None, help="The new encounter's name.")
@click.option("--seed", type=int, default=None, help="Seed for every die the file does not give.")
@_store_option(_DB_HELP)
def start(name: str, file: str, encounter: str | None, seed: int | None, db: str) -> None:
    """Start a new stored encounter from FILE with party NAME brought in (members matched
    by id or name take what lasts); then `fracas serve` or `fracas play` it."""

    def body(tables: TableService) -> None:
        table = parties.start_file(tables, name, file, name=encounter, seed=seed).table
        _echo(f"started {table.name} with party {name}: fracas serve {table.name}")

    _with_store(db, body)


@party.command()
@click.argument("name")
@click.argument("members", nargs=-1)
@_store_option(_DB_HELP)
def rest(name: str, members: tuple[str, ...], db: str) -> None:
    """Rest party NAME (or only MEMBERS) by its ruleset's own rest rule."""

    def body(tables: TableService) -> None:
        store = Parties(tables.store)
        p = store.put(parties.rest(store.get(name), members))
        for line in _lines(p):
            _echo(line)

    _with_store(db, body)


@party.command("set")
@click.argument("name")
@click.argument("member")
@click.argument("changes", nargs=-1, required=True)
@_store_option(_DB_HELP)
def set_(name: str, member: str, changes: tuple[str, ...], db: str) -> None:
    """Set MEMBER's lasting values by hand: FIELD=VALUE ... (hp=12, a YAML value)."""

    def body(tables: TableService) -> None:
        given: dict[str, Any] = {}
        for change in changes:
            key, eq, text = change.partition("=")
            if not eq or not key:
                raise FracasError("bad_value", f"{change!r}: give FIELD=VALUE (hp=12)")
            given[key] = _value(text)
        store = Parties(tables.store)
        p = store.put(parties.set_member(store.get(name), member, given))
        for line in _lines(p):
            _echo(line)

    _with_store(db, body)
