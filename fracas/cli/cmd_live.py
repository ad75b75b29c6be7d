"""``fracas play`` and ``fracas serve``: an encounter played live, at a prompt or in
the browser, on the encounter store."""

from __future__ import annotations

import sys

import click

from fracas.cli.common import _guard, _out, _store_option
from fracas.errors import FracasError
from fracas.store import open_store
from fracas.web.stopping import stop_signals


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


@click.command()
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
    default=None,
    help="What players see of the HP of combatants on no side of theirs, in a new "
    "encounter (default: its file's `policy:`, else label); a stored one keeps its "
    "policy, which the game master's page changes.",
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
    enemy_hp: str | None,
    keep_links: bool,
) -> None:
    """Serve an encounter in the browser: FILE starts a new stored encounter, ENCOUNTER
    resumes one; no argument: the setup page only, which lists the stored encounters
    and starts new ones from a form. Prints the game master's link and one link per
    player, and the setup page's (yours only); every page shows every change live.
    `fracas play` on the same store goes on with the same encounter."""

    # Ctrl-C and SIGTERM stop it cleanly from here on, the web stack's imports too
    stopping = stop_signals()

    def go() -> None:
        from fracas.web.serve import serve as run_server

        run_server(
            db, target, host, port, open_browser, click.echo, enemy_hp=enemy_hp,
            keep_links=keep_links, stopping=stopping,
        )  # fmt: skip

    _guard(go)
