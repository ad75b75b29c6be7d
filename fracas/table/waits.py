"""What a table holds that is not stored: the dice mode, the action waiting for its
next physical die (:class:`~fracas.table.physical.Pending`: nothing of it is stored
until its last die is given), and players' requests waiting for the game master's
answer. Each change of them is told on the table's feed; an action they let through
is stored by the table's :class:`~fracas.table.writer.Writer`.
"""

from __future__ import annotations

from fracas.errors import FracasError
from fracas.model import Action
from fracas.table.commands import Answer, Outcome, Request
from fracas.table.identity import Forbidden, Identity
from fracas.table.physical import Pending, StopDice, needed
from fracas.table.writer import Writer

__all__ = ["Waits"]


class Waits:
    """The dice mode, the pending die and the requests of one table (called with its
    lock held)."""

    def __init__(self, writer: Writer) -> None:
        self._writer = writer
        self.physical = False
        """Dice are physical: an action asks for each of its dice."""
        self.pending: Pending | None = None
        """The action waiting for its next physical die."""
        self._requests: dict[int, Request] = {}
        self._next_request = 1

    @property
    def requests(self) -> tuple[Request, ...]:
        """Players' requests waiting for the game master's answer, oldest first."""
        return tuple(self._requests.values())

    def _publish(self) -> None:
        w = self._writer
        w.feed.publish(w.name, (), w.seq)

    def set_physical(self, physical: bool) -> None:
        self.physical = physical
        if not physical:
            self.pending = None

    def no_pending(self) -> None:
        """Refuse a change while an action waits for its dice."""
        if self.pending is not None:
            raise FracasError(
                "dice_pending",
                f"an action waits for its dice (the {self.pending.needed.said}): give it "
                "or cancel first",
            )

    def request(self, action: Action, by: Identity, calls: tuple[str, ...]) -> Outcome:
        """Keep ``action`` (checked) as ``by``'s request for the game master's answer."""
        w = self._writer
        needed(w.file.ruleset, w.state, action)  # the rules' refusal now, not at the answer
        request = Request(self._next_request, action, by.name, by.owns, calls, w.seq)
        self._next_request += 1
        self._requests[request.id] = request
        self._publish()
        return Outcome(w.seq, request=request)

    def answer(self, answer: Answer, by: Identity) -> Outcome:
        """The game master's answer to a request: refused, or the action taken as the
        player who asked (if it still may)."""
        by.check_gm("answer a player's request")
        request = self._requests.pop(answer.request, None)
        if request is None:
            waiting = ", ".join(f"#{r}" for r in self._requests) or "none"
            raise FracasError(
                "no_request",
                f"no request #{answer.request} waits for an answer; waiting: {waiting}",
            )
        self._publish()
        w = self._writer
        if not answer.accept:
            return Outcome(w.seq)
        player = Identity.player(request.by, *request.owns)
        player.check_act(w.file.ruleset, w.state, request.action)  # still its turn?
        if self.physical:
            return self.next_die(request.action, player)
        record = w.run(lambda engine: engine.act(request.action, by=player.by, checked=True))
        return Outcome(w.seq, record)

    def give(self, face: int, by: Identity) -> Outcome:
        """A physical die's face, given by ``by``."""
        pending = self.pending
        if pending is None:
            raise FracasError("no_die_asked", "no die is asked for now")
        action = pending.check_give(by, face)
        if pending.seq != self._writer.seq:  # another process wrote since
            self.pending = None
            self._publish()
            raise FracasError(
                "moved_on", "the table moved on while the dice were asked: roll again"
            )
        return self.next_die(action, pending.by)

    def cancel(self, by: Identity) -> None:
        pending = self.pending
        if pending is None:
            raise FracasError("no_die_asked", "no action waits for dice now")
        if not pending.may_cancel(by):
            started = "" if pending.by.is_gm else f" or {pending.by.name}, who took it,"
            raise Forbidden(
                "forbidden",
                f"only the game master{started} may cancel this action; {by.name!r} may not",
            )
        self.pending = None

    def next_die(self, action: Action, by: Identity) -> Outcome:
        """Ask for ``action``'s next physical die, or store it once it has them all."""
        w = self._writer
        try:
            need = needed(w.file.ruleset, w.state, action)
        except FracasError:
            if self.pending is not None:
                self.pending = None
                self._publish()
            raise
        if need is not None:
            self.pending = Pending(action, by, need, w.seq)
            self._publish()
            return Outcome(w.seq, asked=need)
        self.pending = None
        record = w.run(lambda engine: engine.act(action, StopDice(), by=by.by, checked=True))
        return Outcome(w.seq, record)
