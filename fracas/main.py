"""``fracas``: every command, each from its face: the command line's own (``run``, ``odds``,
``rules``, ``lab``), the prompt's ``play`` and the web's ``serve``. The one place that
knows all the faces; none of them imports another."""

from fracas.cli import main
from fracas.play.command import play
from fracas.web.command import serve

__all__ = ["main"]

main.add_command(play)
main.add_command(serve)
