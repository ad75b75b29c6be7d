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
from typing import TYPE_CHECKING, NamedTuple

from fracas.model import TurnEnded, TurnStarted
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


class _Turn(NamedTuple):
    """A turn begun (``TurnStarted``): a heading."""

    round: int
    actor: str
    name: str


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
    records: dict[int, list[_Turn | str]] = {}  # per record: the turns begun, its lines
    titles: dict[int, tuple[str, str]] = {}
    for entry in view.lines():
        seq, event = entry.seq, entry.event
        before = snap.before[seq] if seq < len(snap.before) else snap.state
        if isinstance(event, TurnStarted):
            records.setdefault(seq, []).append(
                _Turn(event.round, event.actor, before.name(event.actor))
            )
            continue
        said = line_said(entry, before, unseen).text.strip()
        if not said or isinstance(event, TurnEnded):
            continue
        if entry.tone == "title":
            titles[seq] = (said, entry.action.actor if entry.action is not None else "")
        elif said != titles.get(seq, ("", ""))[0]:  # "Bo moves to tile 4, 1": said once
            records.setdefault(seq, []).append(said)
    round_now = 0

    def turn(begun: _Turn) -> None:
        nonlocal round_now
        if begun.round != round_now:
            round_now = begun.round
            out.extend(["", f"## Round {begun.round}"])
        out.extend(["", f"### {md(begun.name)}'s turn", ""])

    for seq in sorted(records.keys() | titles.keys()):
        items = records.get(seq, [])
        title, actor = titles.get(seq, (None, ""))
        # the turns begun before the action: up to its actor's own
        lead = 0
        for i, item in enumerate(items):
            if not isinstance(item, _Turn):
                break
            if item.actor == actor:
                lead = i + 1
        for item in items[:lead]:
            assert isinstance(item, _Turn)
            turn(item)
        if title is not None:
            out.append(f"- **{md(title)}**")
        for item in items[lead:]:
            if isinstance(item, _Turn):
                turn(item)
            else:
                out.append(f"{'  ' if title is not None else ''}- {md(item)}")
    result = view.state()["outcome"]
    if result is None:
        ending = f"The fight goes on (round {snap.state.round})."
    else:
        ending = outcome_words(result["side"], result["standing"], result["over"])
    out += ["", f"**Result:** {md(ending)}", ""]
    return "\n".join(out)
