"""``fracas play``: the command that opens the prompt on an encounter of the store."""

from __future__ import annotations

__all__ = ["play"]

import sys

import click

from fracas.errors import FracasError
from fracas.io.store import EncounterStore, open_store
from fracas.play.loop import play as play_loop
from fracas.play.view import encounters_table
from fracas.table import TableService
from fracas.table import party as parties
from fracas.words.console import echo as _echo
from fracas.words.console import guard as _guard
from fracas.words.console import out as _out
from fracas.words.console import store_option as _store_option


@click.command()
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
@click.option(
    "--party",
    metavar="NAME",
    help="FILE: bring in stored party NAME (`fracas party list`): its members in the file "
    "(by id or name) start with what lasts of them. Not for a stored encounter.",
)
@click.option("--list", "list_", is_flag=True, help="List the stored encounters and exit.")
@click.option("--delete", metavar="ENCOUNTER", help="Delete a stored encounter and exit.")
def play(
    target: str | None,
    db: str,
    name: str | None,
    seed: int | None,
    dice_mode: str,
    party: str | None,
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
        store = open_store(db)
        try:
            if list_:
                _out.print(encounters_table(store.list(), None, store.location))
                return
            if delete is not None:
                store.delete(delete)
                _echo(f"deleted {delete!r} from {store.location}")
                return
            if target is None:
                raise FracasError(
                    "missing_argument",
                    "give FILE (a new encounter) or ENCOUNTER (a stored one); --list lists them",
                )
            manual = dice_mode == "manual"
            if party is None:
                status = play_loop(store, target, name=name, seed=seed, manual=manual)
            else:  # the new encounter made first; the prompt opens it as stored
                status = play_loop(
                    store, _with_party(store, target, party, name, seed), manual=manual
                )
        finally:
            store.close()
        if status:
            sys.exit(status)

    _guard(go)


def _with_party(
    store: EncounterStore, target: str, party: str, name: str | None, seed: int | None
) -> str:
    """``--party``: the new encounter started from file ``target`` with the party
    brought in, as ``fracas party start`` starts it (:func:`fracas.table.party.start_file`);
    its name, for the prompt to open."""
    started = parties.start_file(TableService(store), party, target, name=name, seed=seed)
    table = started.table
    _echo(
        f"party {party!r} brought into a new encounter {table.name!r} from {target} "
        f"({', '.join(started.members)} with what lasts of them); live dice from seed "
        f"{table.seed}"
    )
    return table.name
