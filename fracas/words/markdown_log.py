"""The log of a fight as Markdown, to post where a campaign's players read (issue 36,
"Rosters in and out"): a title with the encounter's name and ruleset, a heading per
round, one bullet per step (an action, its lines under it), and the result at the end.

Nothing is decided here about who may read what: the table's view
(:meth:`fracas.table.TableService.log_view`, a player's :class:`~fracas.table.View`)
has already left out what its reader may not see (hidden combatants, the game master's
notes, enemy HP as the table's policy says), and each line is worded as the players'
page words it (:func:`fracas.words.people.line_said`). Every text is escaped, so a
name such as ``*Vex*`` reads as typed, not as emphasis.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from fracas.words.people import line_said
from fracas.words.render import outcome_words

if TYPE_CHECKING:  # words of the table's values; the table never imports this module
    from fracas.table.projection import View

__all__ = ["markdown_log", "md"]

_SPECIAL = re.compile(r"([\\`*_\[\]<|~])")
"""Characters Markdown (and a chat's flavour of it) reads as markup within a line."""
_SPACE = re.compile(r"\s+")
_CONTROL = {c: f"\\x{c:02x}" for c in (*range(0x20), *range(0x7F, 0xA0))}
"""Control characters as the text ``\\x1b`` (a note's free text may hold them: an
escape sequence would rewrite the terminal ``fracas log`` prints to)."""


def md(text: str) -> str:
    """``text`` as one line of Markdown that reads as typed: markup escaped, line breaks
    (a note's) made spaces, control characters shown as ``\\xNN``."""
    return _SPECIAL.sub(r"\\\1", _SPACE.sub(" ", text).strip()).translate(_CONTROL)


_TURN = re.compile(r"^-- round (\d+), (.+)'s turn --$")
"""A turn's start as the log words it (``TurnStarted``): a heading in Markdown."""


def markdown_log(view: View, name: str) -> str:
    """The log ``view`` may read, as Markdown: ``# NAME: RULESET TITLE``, whose view it
    is, a ``## Round N`` heading at each round and a ``### NAME's turn`` heading at each
    turn, ``- **an action**`` with each of its lines as ``  - `` under it, and the
    result (who won, or the round the fight goes on in). A turn that begins within an
    action's record (a combatant acting when the last one's turn was over) is headed
    before that action; the lines that a turn ends, which the next heading says, are
    left out."""
    snap = view.snap
    unseen = view.unseen(snap.state)
    ruleset = snap.ruleset.about
    whose = (
        "The game master's view (hidden combatants and notes included: not for the players)"
        if view.gm
        else "The players' view"
    )
    out = [f"# {md(name)}: {md(ruleset.title)}", "", f"*{whose}; ruleset {md(ruleset.name)}.*"]
    records: dict[int, list[tuple[str, str, str]]] = {}
    for entry in view.lines():
        seq = entry.seq
        before = snap.before[seq] if seq < len(snap.before) else snap.state
        said = line_said(entry, before, unseen).text.strip()
        kind = type(entry.event).__name__ if entry.event is not None else ""
        if said and kind != "TurnEnded":
            actor = entry.action.actor if entry.action is not None else ""
            records.setdefault(seq, []).append((entry.tone, said, actor))
    round_now = 0

    def turn(said: str) -> bool:
        nonlocal round_now
        found = _TURN.match(said)
        if found is None:
            return False
        number = int(found.group(1))
        if number != round_now:
            round_now = number
            out.extend(["", f"## Round {number}"])
        out.extend(["", f"### {md(found.group(2))}'s turn", ""])
        return True

    for lines in records.values():
        title = next((said for tone, said, _ in lines if tone == "title"), None)
        rest = [said for tone, said, _ in lines if tone != "title" and said != title]
        actor = next((a for tone, _, a in lines if tone == "title"), "")
        acting = snap.state.name(actor) if actor in snap.state.combatants else ""
        # the turn headings that come before the action: up to its actor's own turn
        lead = 0
        for i, said in enumerate(rest):
            found = _TURN.match(said)
            if found is None:
                break
            if acting and found.group(2) == acting:
                lead = i + 1
        for said in rest[:lead]:
            turn(said)
        if title is not None:
            out.append(f"- **{md(title)}**")
        for said in rest[lead:]:
            if not turn(said):
                out.append(f"{'  ' if title is not None else ''}- {md(said)}")
    result = view.state()["outcome"]
    if result is None:
        ending = f"The fight goes on (round {snap.state.round})."
    else:
        ending = outcome_words(result["side"], result["standing"], result["over"])
    out += ["", f"**Result:** {md(ending)}", ""]
    return "\n".join(out)
