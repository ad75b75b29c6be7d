"""What a page is sent of a table: one identity's view (:class:`fracas.table.View`, in
values, what it may not see already left out) with its words, as the JSON of a ``sync``
(``state``, ``lines`` and ``options``).

The page reads people's words (``fracas.words.people``): names for ids, verbs for
commands, a log heading as a sentence, the rule IDs apart in a ``rules`` list (the page
keeps them behind a small "Rules" control). What tools read stays beside them: a
refusal's ``code`` and developer's ``message``, an option's ``summary``, a die's and a
request's ``action`` heading (``#3 ana: attack bo``)."""

from __future__ import annotations

from typing import Any

from fracas.errors import FracasError, Refusal
from fracas.model import Encounter
from fracas.table import Asked, Request, View
from fracas.words.people import (
    action_sentence,
    line_said,
    names_of,
    plain,
    refusal_words,
    request_sentence,
    summary_words,
)
from fracas.words.render import (
    action_title,
    die_words,
    outcome_words,
    turn_words,
    waiting_words,
)

__all__ = ["page_cost", "page_lines", "page_options", "page_state", "refusal_json"]

COVERED_DIE = "the game master rolls"
"""The die of an action on a combatant the page may not see."""


def page_lines(view: View, since: int = 0) -> list[dict[str, Any]]:
    """The log's lines from record ``since`` on: ``seq``, ``text`` (people's words),
    ``tone``, ``rules`` (the rule IDs the line cites, apart from its words)."""
    snap = view.snap
    unseen = view.unseen(snap.state)
    out = []
    heading: tuple[int, str] | None = None
    for entry in view.lines(since):
        before = snap.before[entry.seq] if entry.seq < len(snap.before) else snap.state
        said = line_said(entry, before, unseen)
        if entry.tone == "title":
            heading = (entry.seq, said.text)
        elif heading == (entry.seq, said.text.strip()):
            continue  # the event says what its heading said ("Bo moves to tile 4, 1"): once
        if said.text:
            line = {"seq": entry.seq, "text": said.text, "tone": entry.tone}
            out.append({**line, "rules": list(said.rules)})
    return out


def page_options(view: View) -> dict[str, list[dict[str, Any]]]:
    """What this identity may do now (:meth:`fracas.table.View.options`), each option
    with its summary in words (``summary_words``) and each refusal with its words and
    rules (``words``, ``rules``) beside its ``code`` and ``message``."""
    state = view.snap.state
    unseen = view.unseen(state)
    out: dict[str, list[dict[str, Any]]] = {}
    for actor, options in view.options().items():
        shown = []
        for o in options:
            summary = summary_words(o["summary"])
            o = {**o, "summary_words": summary.text, "summary_rules": list(summary.rules)}
            refusal = o["refusal"]
            if refusal is not None:
                said = refusal_words(refusal["code"], refusal["message"], state, unseen)
                o["refusal"] = {**refusal, **said.to_json()}
            shown.append(o)
        out[actor] = shown
    return out


def page_cost(cost: dict[str, Any], view: View) -> dict[str, Any]:
    """A dragged token's move cost (``MoveCost.to_json``) with its refusal in people's
    words beside its code and message (``refusal_words``, ``refusal_rules``)."""
    if not cost.get("message"):
        return cost
    state = view.snap.state
    said = refusal_words(str(cost.get("code")), cost["message"], state, view.unseen(state))
    return {**cost, "refusal_words": said.text, "refusal_rules": list(said.rules)}


def refusal_json(
    ident: Any,
    exc: FracasError,
    state: Encounter | None = None,
    unseen: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """A ``refused`` message: the refusal's ``code`` and ``message`` (for tools), its
    ``words`` and ``rules`` (for people; names from ``state``, as the page sees it)."""
    said = refusal_words(exc.code, exc.message, state, unseen)
    field = exc.field if isinstance(exc, Refusal) else ""  # an add's field: the page's control
    return {
        "type": "refused",
        "id": ident,
        "code": exc.code,
        "message": exc.message,
        **said.to_json(),
        **({"field": field} if field else {}),
    }


def page_state(view: View) -> dict[str, Any]:
    """The table now, as the page reads it: the view's state with its words (whose turn
    it is, the die asked for, the requests, the outcome, the table's rules)."""
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
        elif key == "policy" and isinstance(value, dict) and "words" in value:
            value = {**value, "words": [plain(w, sentence=False).text for w in value["words"]]}
        elif key == "values" and isinstance(value, list):
            value = _details(value)
        elif key == "combatants" and isinstance(value, list):
            value = [
                {k: _details(v) if k in ("fields", "statuses") else v for k, v in c.items()}
                for c in value
            ]
        out[key] = value
        if key == "turn":
            out["turn_words"] = turn_words(state, value)
    return out


def _pending(view: View, asked: Asked) -> dict[str, Any]:
    if asked.covered or asked.need is None or asked.action is None:
        return {"question": COVERED_DIE, "yours": asked.yours, "cancel": asked.cancel}
    state, need = view.snap.state, asked.need
    names = names_of(state, view.unseen(state))
    return {
        "question": die_words(state, need),
        "label": need.label,
        "sides": need.sides,
        "owner": need.owner,
        "waiting": waiting_words(state, need.owner if asked.played else None),
        "action": action_title(asked.number, asked.action),
        "action_words": action_sentence(asked.action, names),
        "by": "the game master" if asked.by is None else asked.by,
        "given": {k: list(v) for k, v in asked.given.items()},
        "yours": asked.yours,
        "cancel": asked.cancel,
    }


def _request(view: View, request: Request) -> dict[str, Any]:
    """A player's request: ``Pat asks for advantage on Ana's attack``."""
    state, action = view.snap.state, request.action
    names = names_of(state, view.unseen(state))
    return {
        "id": request.id,
        "by": request.by,
        "calls": list(request.calls),
        "action": action_title(view.snap.seq, action),
        "action_words": action_sentence(action, names),
        "text": request_sentence(request.by, action, request.calls, names),
    }


def _details(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A ruleset's shown items (a sheet's fields, statuses, the encounter's values) with
    each ``detail`` (a tooltip) in people's words, its rule IDs apart (``detail_rules``)."""
    out = []
    for item in items:
        detail = item.get("detail")
        if isinstance(detail, str) and detail:
            said = plain(detail, sentence=False)
            item = {**item, "detail": said.text, "detail_rules": list(said.rules)}
        out.append(item)
    return out
