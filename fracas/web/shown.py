"""What a page is sent of a table: one identity's view (:class:`fracas.table.View`, in
values, what it may not see already left out) with its words (``fracas.words.render``), as
the JSON of a ``sync`` (``state`` and ``lines``)."""

from __future__ import annotations

from typing import Any

from fracas.table import Asked, Request, View
from fracas.words.render import (
    action_title,
    die_words,
    entry_words,
    outcome_words,
    request_words,
    turn_words,
    waiting_words,
)

__all__ = ["page_lines", "page_state"]

COVERED_DIE = "the game master rolls"
"""The die of an action on a combatant the page may not see."""


def page_lines(view: View, since: int = 0) -> list[dict[str, Any]]:
    """The log's lines from record ``since`` on: ``seq``, ``text``, ``tone``."""
    out = []
    for entry in view.lines(since):
        text = entry_words(entry)
        if text:
            out.append({"seq": entry.seq, "text": text, "tone": entry.tone})
    return out


def page_state(view: View) -> dict[str, Any]:
    """The table now, as the page reads it: the view's state with its words (whose turn
    it is, the die asked for, the requests, the outcome)."""
    state = view.snap.state
    out: dict[str, Any] = {}
    for key, value in view.state().items():
        if key == "pending":
            value = None if value is None else _pending(view, value)
        elif key == "requests":
            value = [_request(view, r) for r in value]
        elif key == "outcome" and value is not None:
            side, standing = value["side"], value["standing"]
            words = outcome_words(side, standing, value["over"])
            value = {"side": side, "standing": standing, "ended": value["ended"], "words": words}
        out[key] = value
        if key == "turn":
            out["turn_words"] = turn_words(state, value)
    return out


def _pending(view: View, asked: Asked) -> dict[str, Any]:
    if asked.covered or asked.need is None or asked.action is None:
        return {"question": COVERED_DIE, "yours": asked.yours, "cancel": asked.cancel}
    state, need = view.snap.state, asked.need
    return {
        "question": die_words(state, need),
        "label": need.label,
        "sides": need.sides,
        "owner": need.owner,
        "waiting": waiting_words(state, need.owner if asked.played else None),
        "action": action_title(asked.number, asked.action),
        "by": "the game master" if asked.by is None else asked.by,
        "given": {k: list(v) for k, v in asked.given.items()},
        "yours": asked.yours,
        "cancel": asked.cancel,
    }


def _request(view: View, request: Request) -> dict[str, Any]:
    """A player's request: ``Pat asks for edge=advantage on Ana's attack``."""
    action = request.action
    return {
        "id": request.id,
        "by": request.by,
        "calls": list(request.calls),
        "action": action_title(view.snap.seq, action),
        "text": request_words(view.snap.state, request.by, action, request.calls),
    }
