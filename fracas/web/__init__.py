"""``fracas serve``: the table in the browser, a thin face over the table service.

:mod:`fracas.web.app` (HTTP routes), :mod:`fracas.web.live` (the WebSocket protocol),
:mod:`fracas.web.links` (who a page is), :mod:`fracas.web.serve` (the command), and
``static/`` (the page: plain HTML, CSS and JavaScript, no build step). No rule, no
permission and no store logic lives here: :class:`fracas.table.Table` acts,
:class:`fracas.table.Identity` decides, :class:`fracas.table.View` projects.
"""
