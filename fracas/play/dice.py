"""Manual dice: fracas asks the table for each die it needs, by name, and checks it.

``Ana's attack d20?`` takes a face in 1..20; anything else is refused with one
line and asked again. ``cancel`` (or end of input, or Ctrl-C) abandons the
action: nothing of it is kept, nothing is written.
"""

from __future__ import annotations

from collections.abc import Callable

from fracas.errors import FracasError
from fracas.model import Encounter
from fracas.words.render import die_question

__all__ = ["AskedDice", "Cancelled", "die_question"]


class Cancelled(FracasError):
    """The player abandoned an action while fracas was asking for a die."""

    def __init__(self) -> None:
        super().__init__("cancelled", "the action was cancelled: nothing of it was written")


class AskedDice:
    """A :class:`~fracas.dice.source.Dice` that asks for every face.

    Args:
        ask: shows a question and returns the answer (EOFError, KeyboardInterrupt: cancel).
        say: prints one line (a refused answer).
        state: the state the action starts from (for names).
        actor: whose action it is (the owner of a die not rolled for someone named).
    """

    def __init__(
        self,
        ask: Callable[[str], str],
        say: Callable[[str], None],
        state: Encounter,
        actor: str,
    ) -> None:
        self._ask = ask
        self._say = say
        self._state = state
        self._actor = actor

    def roll(self, sides: int, label: str, *, of: str | None = None, n: int | None = None) -> int:
        question = die_question(self._state, self._actor, sides, label, of, n)
        while True:
            try:
                answer = self._ask(question).strip()
            except (EOFError, KeyboardInterrupt):
                raise Cancelled() from None
            if answer.lower() in ("cancel", "c"):
                raise Cancelled()
            if answer.isdigit() and 1 <= int(answer) <= sides:
                return int(answer)
            self._say(
                f"error: die_out_of_range: {answer!r} is not a face of a d{sides}: "
                f"give 1..{sides} (or cancel)"
            )
