"""``fracas serve``: the command that starts the table in the browser."""

from __future__ import annotations

import click

from fracas.web.stopping import stop_signals
from fracas.words.console import echo
from fracas.words.console import guard as _guard
from fracas.words.console import store_option as _store_option

__all__ = ["serve"]


@click.command()
@click.argument("target", metavar="[FILE|ENCOUNTER]", required=False)
@_store_option("The encounter store (the same as `fracas play`'s).")
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option(
    "--port",
    type=int,
    default=None,
    help="0: any free port. Default: the port the encounter was last served on (its "
    "links keep their address), else 8765.",
)
@click.option(
    "--public-url",
    default=None,
    metavar="URL",
    help="The address players open, as https://fights.example.org (behind a reverse "
    "proxy, or a name of this machine): the links are made from it, and requests for "
    "another host are refused. Default: the address listened on.",
)
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
    help="What players see of the HP of combatants on no side of theirs (the "
    "encounter's policy; default: its file's `policy:`, else label; given for a stored "
    "encounter, a logged change of its policy).",
)
@click.option(
    "--new",
    "new",
    is_flag=True,
    help="FILE: start another encounter from it, even where its last one is unfinished "
    "(without it, the unfinished one goes on, with its links).",
)
@click.option(
    "--new-links",
    is_flag=True,
    help="New tokens for every link of the encounter (the old ones stop working); without "
    "it, the links kept with the encounter work again.",
)
@click.option(
    "--secret-file",
    type=click.Path(dir_okay=False),
    default=None,
    envvar="FRACAS_SECRET_FILE",
    show_envvar=True,
    help="The server secret that seals the links' tokens in the store (made, 0600, where "
    "missing). Default: STORE.secret beside a SQLite store; for PostgreSQL, `secret` in "
    "fracas's data directory: every process sharing one database needs the same one.",
)
@click.option("--keep-links", is_flag=True, hidden=True, help="The default now; kept for scripts.")
def serve(
    target: str | None,
    db: str,
    host: str,
    port: int | None,
    public_url: str | None,
    open_browser: bool,
    enemy_hp: str | None,
    keep_links: bool,
    new: bool,
    new_links: bool,
    secret_file: str | None,
) -> None:
    """Serve an encounter in the browser: FILE starts a new stored encounter (or goes on
    with its unfinished one, with the same links; --new starts another), ENCOUNTER
    resumes one; no argument: the setup page only, which lists the stored encounters
    and starts new ones from a form. Prints the game master's link and one link per
    player, and the setup page's (yours only); every page shows every change live.
    `fracas play` on the same store goes on with the same encounter."""

    # Ctrl-C and SIGTERM stop it cleanly from here on, the web stack's imports too
    stopping = stop_signals()

    def go() -> None:
        from fracas.web.serve import serve as run_server

        run_server(
            db, target, host, port, open_browser, echo, enemy_hp=enemy_hp,
            keep_links=keep_links, new=new, new_links=new_links, stopping=stopping,
            secret_file=secret_file, public_url=public_url,
        )  # fmt: skip

    _guard(go)
