"""``fracas``: every command, each from its face: the command line's own (``run``, ``odds``,
``rules``, ``lab``), the prompt's ``play`` and the web's ``serve``. The one place that
knows all the faces; none of them imports another."""

from fracas.cli import main

__all__ = ["main"]

main.add_lazy(
    "play",
    "fracas.play.command:play",
    "Play an encounter live at a prompt: FILE starts a new stored encounter (its actions "
    "played first), ENCOUNTER (a stored name) resumes one.",
)
main.add_lazy(
    "serve",
    "fracas.web.command:serve",
    "Serve an encounter in the browser: FILE starts a new stored encounter (or goes on with "
    "its unfinished one, with the same links; --new starts another), ENCOUNTER resumes one; "
    "no argument: the setup page only, which lists the stored encounters and starts new ones "
    "from a form.",
)
