"""The log of a fight as Markdown, downloaded from the table's page (issue 36, "Rosters
in and out"): for a campaign channel.

``GET /api/log.md``            the log as the page's token may read it: a player's (or a
                               viewer's) own view, as its page shows the log; the
                               game master's page, the players' view
``GET /api/log.md?view=gm``    the game master's own log (hidden combatants, rolls and
                               notes included): the game master's token alone

Who reads what is the table's: a player's view is its identity's projection (the page's
own), the players' view the table service's (:meth:`fracas.table.TableService.log_view`);
the words are :func:`fracas.words.markdown_log.markdown_log`'s.
"""

from __future__ import annotations

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from fracas.table import TableService
from fracas.web.links import Links
from fracas.web.refusal import bearer
from fracas.words.markdown_log import markdown_log

__all__ = ["log_routes"]


def log_routes(tables: TableService, links: Links) -> list[Route]:
    """The Markdown log's route, behind the page's own token."""

    async def log_md(request: Request) -> Response:
        encounter, link = links.identify(bearer(request))
        identity = link.identity
        gm = request.query_params.get("view") == "gm"
        if gm:
            identity.check_gm("read the game master's log")
        view = tables.log_view(encounter, identity, gm=gm)
        text = await anyio.to_thread.run_sync(markdown_log, view, encounter)
        name = f"{encounter}-{'gm' if gm else 'players'}.md"
        return Response(
            text,
            media_type="text/markdown; charset=utf-8",
            headers={
                "Content-Disposition": f'attachment; filename="{name}"',
                "Cache-Control": "no-store",
            },
        )

    return [Route("/api/log.md", log_md)]
