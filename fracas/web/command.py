"""``fracas serve``: the command that starts the table in the browser."""

from __future__ import annotations

import click

from fracas.errors import FracasError
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
@click.option(
    "--party",
    metavar="NAME",
    help="FILE: bring in stored party NAME (`fracas party list`): its members in the file "
    "(by id or name) start with what lasts of them. The file's unfinished fight that "
    "brought it in goes on (--new: another); not for a stored encounter.",
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
    party: str | None,
) -> None:
    """Serve an encounter in the browser: FILE starts a new stored encounter (or goes on
    with its unfinished one, with the same links; --new starts another), ENCOUNTER
    resumes one; no argument: the setup page only, which lists the stored encounters
    and starts new ones from a form. Prints the game master's link and one link per
    player, and the setup page's (yours only); every page shows every change live.
    `fracas play` on the same store goes on with the same encounter. --party NAME
    brings a stored party into the fight FILE starts."""

    # Ctrl-C and SIGTERM stop it cleanly from here on, the web stack's imports too
    stopping = stop_signals()

    def go() -> None:
        from fracas.web.serve import serve as run_server

        served = target if party is None else _with_party(db, target, party, enemy_hp, new)
        run_server(
            db, served, host, port, open_browser, echo, enemy_hp=enemy_hp,
            keep_links=keep_links, new=new, new_links=new_links, stopping=stopping,
            secret_file=secret_file, public_url=public_url,
        )  # fmt: skip

    _guard(go)


def _with_party(db: str, target: str | None, party: str, enemy_hp: str | None, new: bool) -> str:
    """``--party``: what to serve. The latest unfinished fight of file ``target`` goes on
    where it brought this party in (unless ``new``), as a file's unfinished fight goes on
    without ``--party``; else a new encounter from the file with the party brought in, as
    ``fracas party start`` starts it (:func:`fracas.table.party.start_file`), served by
    its name (the server opens it as stored).

    Raises:
        FracasError: ``missing_argument`` (no FILE); ``bad_command`` (a stored encounter:
            the party comes in as a fight starts); ``unknown_party``, ``wrong_ruleset``,
            ``no_member``; the file's own refusals.
    """
    from fracas.io.store import open_store
    from fracas.table import TableService
    from fracas.table import party as parties
    from fracas.web.serve import _unfinished as unfinished

    if target is None:
        raise FracasError(
            "missing_argument",
            f"--party {party!r} brings the party into the fight a FILE starts: give FILE "
            "(the setup page's 'Bring in the party' does it for a fight set up there)",
        )
    store = open_store(db)
    try:
        tables = TableService(store, {"enemy_hp": enemy_hp} if enemy_hp else None)
        parties.Parties(store).get(party)  # gone or mistyped: said before anything opens
        going = None if new or target in tables.names() else unfinished(tables, target)
        if going is not None and parties.party_of(tables, going) == party:
            return target  # the server goes on with it, its links and all
        started = parties.start_file(tables, party, target)
    finally:
        store.close()
    table = started.table
    echo(
        f"party {party!r} brought into a new encounter {table.name!r} from {target} "
        f"({', '.join(started.members)} with what lasts of them):"
    )
    return table.name
