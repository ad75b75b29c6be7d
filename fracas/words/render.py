"""Turning the state, the log and the odds into words and JSON (the faces' shared part).

The table service (``fracas.table``) speaks in values: a projected log's entries, the
die a table asks for, a request, an outcome; the words of each are made here."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from fracas.engine.play import Record
from fracas.io.files import action_json
from fracas.model import (
    GAME_MASTER_NAME,
    NO_ACTOR,
    Action,
    CombatantAdded,
    Damaged,
    Encounter,
    Event,
    FieldsSet,
    event_json,
)
from fracas.odds.action import CombatantOdds, Odds
from fracas.rulesets.base import Ruleset, is_down, plain, presenter_of, values_json

if TYPE_CHECKING:  # words of the table's values; the table never imports this module
    from fracas.odds.choices import Choice
    from fracas.table.physical import DieNeeded
    from fracas.table.projection import Entry

__all__ = [
    "DamageRow",
    "Line",
    "action_title",
    "damage_rows",
    "die_question",
    "die_words",
    "entry_words",
    "events_json",
    "log_entries",
    "log_lines",
    "outcome_words",
    "record_entries",
    "request_words",
    "rolls_json",
    "state_json",
    "turn_words",
    "undo_title",
    "waiting_words",
]


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the log, with how a face may mark it: ``tone`` is the event's
    (:attr:`fracas.model.Event.tone`: ``critical_failure``, ``turn``, ...), or ``title``
    for an action's heading."""

    text: str
    tone: str = ""


def action_title(number: int, action: Action) -> str:
    """The heading of an action in the log: ``#2 bo: throw ana``."""
    what = action.do
    if action.target is not None:
        what += f" {action.target}"
    if action.at is not None:
        what += f" at [{action.at[0]}, {action.at[1]}]"
    extras = [f"{k}={_shown(_short(v))}" for k, v in action.params.items()]
    who = action.actor if action.actor != NO_ACTOR else GAME_MASTER_NAME  # its own roll
    return f"#{number} {who}: {what}" + (f" ({', '.join(extras)})" if extras else "")


TITLE_TEXT = 40
"""The longest text parameter a log heading shows whole (a note's text is on the line
below it: shown once, not twice)."""


def _short(value: Any) -> Any:
    if isinstance(value, str) and len(value) > TITLE_TEXT:
        return f"{value[: TITLE_TEXT - 8]}... ({len(value)} characters)"
    return value


def die_question(
    state: Encounter, actor: str, sides: int, label: str, of: str | None, n: int | None
) -> str:
    """``Ana's attack d20? ``: whose die (``of``, else the actor), its label, its size (a
    physical die asked for at a prompt or a page)."""
    who = state.name(of) if of is not None and of in state.combatants else state.name(actor)
    nth = f" #{n}" if n is not None else ""
    return f"{who}'s {label}{nth} d{sides}? "


def die_words(state: Encounter, need: DieNeeded) -> str:
    """The die a table asks for (``fracas.table.DieNeeded``): ``Ana's attack d20?``."""
    return die_question(state, need.owner, need.sides, need.rolled, None, need.n).strip()


def waiting_words(state: Encounter, owner: str | None) -> str:
    """Who a die waits for: its owner's player or the game master (None: the game
    master alone, where nobody plays its owner)."""
    if owner is None:
        return "the game master"
    return f"{state.name(owner)}'s player or the game master"


def turn_words(state: Encounter, actor: str | None) -> str:
    """Whose turn it is: ``Ana's turn``; None: a combatant not shown."""
    if actor is None:
        return "a turn the game master plays out of sight"
    return f"{state.name(actor)}'s turn"


def request_words(state: Encounter, by: str, action: Action, calls: Iterable[str]) -> str:
    """A player's request: ``Pat asks for edge=advantage on Ana's attack``."""
    asked = ", ".join(
        f"{k}={'yes' if action.params[k] is True else action.params[k]}" for k in calls
    )
    who = state.name(action.actor) if action.actor in state.combatants else action.actor
    return f"{by} asks for {asked} on {who}'s {action.do}"


def outcome_words(side: str | None, standing: Sequence[str], over: bool = True) -> str:
    """Who won, naming who still stands (none named: the side alone); ``over`` False:
    the game master ended the fight before either side won."""
    if not over:
        return "The game master ended the fight."
    if side is None:
        return "The fight is over: nobody is left standing."
    if not standing:
        return f"The fight is over: {side} win."
    return f"The fight is over: {side} win ({', '.join(standing)} standing)."


def undo_title(number: int, taken: int, action: Action, *, redo: bool = False) -> str:
    """The heading of an undo (a redo) of the action numbered ``taken``."""
    said = "redo: puts back" if redo else "undo: takes back"
    return f"#{number} {said} {action_title(taken, action)}"


def entry_words(entry: Entry) -> str:
    """The line of one entry of a projected log (``fracas.table.View.lines``); "" for
    none (an event with no line)."""
    kind, action = entry.kind, entry.action
    if kind == "covered":
        return f"#{entry.number}: the game master acts"
    if kind in ("title", "undo", "redo"):
        assert action is not None
        if kind == "title":
            return action_title(entry.number, action)
        return undo_title(entry.number, entry.taken, action, redo=kind == "redo")
    event, state = entry.event, entry.before
    assert event is not None and state is not None
    if kind == "veiled":
        return event.veiled(state)
    if kind == "damage":
        assert isinstance(event, Damaged)
        said = f"  {state.name(event.target)} takes damage"
        return f"{said}: {entry.label}" if entry.label else said
    if kind == "added":
        assert isinstance(event, CombatantAdded)
        c = event.combatant
        names = ", ".join(c.name if i == c.id else state.name(i) for i in event.order)
        return f"GM adds {c.name} ({c.side}): order {names}"
    if kind == "hp_set":
        assert isinstance(event, FieldsSet)
        return f"GM changes {state.name(event.actor)}'s HP"
    return event.describe(state) or ""


def _shown(value: Any) -> Any:
    """A parameter's value as the log shows it: a tile ``(x, y)``, a list ``['a', 'b']``,
    a mapping ``{'k': v}``."""
    if isinstance(value, tuple) and len(value) == 2 and all(type(v) is int for v in value):
        return value
    if isinstance(value, Mapping):
        return {k: _shown(v) for k, v in value.items()}  # nested too: {'burning': {'turns': 2}}
    return plain(value)


def _event_lines(state: Encounter, events: Iterable[Event]) -> list[Line]:
    lines: list[Line] = []
    for event in events:
        text = event.describe(state)
        state = event.apply(state)
        if text:
            lines.append(Line(text, event.tone))
    return lines


def _title(record: Record) -> Line:
    assert record.action is not None
    return Line(action_title(record.seq, record.action), "title")


def record_entries(log: Sequence[Record], before: Encounter, record: Record) -> list[Line]:
    """The log lines of one record of ``log``, given the state before it (an undo names
    the action it takes back; a redo shows that action's lines again), as the game
    master reads them (a player's: :func:`entry_words` of a projected log)."""
    if record.kind in ("undo", "redo"):
        assert record.target is not None
        target = log[record.target]
        assert target.action is not None
        head = Line(
            undo_title(record.seq, target.seq, target.action, redo=record.kind == "redo"), "title"
        )
        if record.kind == "undo":
            return [head]
        return [head, *_event_lines(before, target.events)]
    lines = [_title(record)] if record.action is not None else []
    return lines + _event_lines(before, record.events)


def log_entries(start: Encounter, records: Sequence[Record]) -> list[Line]:
    """The log a game master reads of records played in order from ``start`` (a file's
    run: starts and actions), every event's line, action by action."""
    lines: list[Line] = []
    state = start
    for record in records:
        lines += record_entries(records, state, record)
        for event in record.events:
            state = event.apply(state)
    return lines


def log_lines(start: Encounter, records: Sequence[Record]) -> list[str]:
    """:func:`log_entries` as plain text (``--json``'s ``log``)."""
    return [line.text for line in log_entries(start, records)]


@dataclass(frozen=True, slots=True)
class DamageRow:
    """One row of a damage distribution as faces print it: the damage, its exact
    probability and a bar length (0..30), or (``tail``) the rare outcomes folded into
    one row from ``damage`` up to ``up_to`` (``count`` of them)."""

    damage: int
    p: Fraction
    bar: int
    tail: bool = False
    count: int = 1
    up_to: int = 0


TAIL = Fraction(1, 1000)
"""Outcomes past the 20th whose total is below this are folded into one row."""


def damage_rows(o: CombatantOdds) -> list[DamageRow]:
    """A combatant's damage distribution as rows: every outcome, or the first ones and a
    long tail of rare outcomes (exploding dice) as one row."""
    top = max(o.damage.values())
    rows = sorted(o.damage.items())
    rest = sum((p for _, p in rows[20:]), Fraction(0))
    shown = len(rows)
    for i in range(20, len(rows)):
        if rest < TAIL:
            shown = i
            break
        rest -= rows[i][1]
    out = [DamageRow(d, p, max(1 if p else 0, round(30 * p / top))) for d, p in rows[:shown]]
    if shown < len(rows):
        tail = sum((p for _, p in rows[shown:]), Fraction(0))
        out.append(DamageRow(rows[shown][0], tail, 0, True, len(rows) - shown, rows[-1][0]))
    return out


def odds_heading(result: Odds) -> list[str]:
    """What to say of the enumeration itself: paths, and the cut mass where paths were
    cut; for an estimate, how many samples and why it is not exact."""
    e = result.estimate
    if e is not None:
        return [
            f"ESTIMATE from {e.samples:,} random fights of the action (seed {e.seed}), "
            "95% intervals in brackets",
            f"not exact: {result.why}",
        ]
    lines = [f"{result.paths:,} dice paths, exact"]
    if result.truncated:
        least = f"; each of them deals at least {result.at_least}" if result.at_least else ""
        lines.append(
            f"paths cut at {result.depth} rolls (exploding dice): probability "
            f"{result.truncated} ({float(result.truncated):.2e}) not in the damage "
            f"distributions{least}; hits decided before the cut count, every figure "
            f"is exact, short of the true value by at most that "
            f"(--depth {result.depth + 4} goes deeper)"
        )
    return lines


def choices_json(state: Encounter, choices: Iterable[Choice]) -> dict[str, Any]:
    """``fracas odds --choices --json``: the actor and each choice with its odds object."""
    return {
        "actor": state.turn.actor,
        "choices": [{"action": action_json(c.action), "odds": c.odds.to_json()} for c in choices],
    }


def choice_lines(state: Encounter, choices: Iterable[Choice]) -> Iterator[str]:
    """One line per choice, as they come (fastest first): per combatant it can affect,
    the chance to hit, the mean damage and the chance it goes down."""
    count = 0
    for c in choices:
        count += 1
        a = c.action
        on = state.name(a.target) if a.target is not None else f"tile {list(a.at or ())}"
        params = "".join(f" {k}={v}" for k, v in a.params.items())
        parts = []
        for cid, o in c.odds.combatants.items():
            hit = "" if o.hit is None else f"hit {float(o.hit) * 100:.1f}%, "
            parts.append(
                f"{state.name(cid)}: {hit}mean {float(o.mean):.2f}, down {float(o.down) * 100:.1f}%"
            )
        kind = "estimate" if c.odds.estimate is not None else "exact"
        yield f"  {a.do} {on}{params} ({kind}) — " + ("; ".join(parts) or "no one affected")
    if not count:
        yield "  nothing to odds now (no action on a target or a tile is allowed)"


def state_json(ruleset: Ruleset, state: Encounter) -> dict[str, Any]:
    """``ruleset``, ``round``, ``turn``, encounter values and ``combatants`` (README)."""
    out: dict[str, Any] = {
        "ruleset": ruleset.about.name,
        "round": state.round,
        "turn": state.turn.actor,
    }
    out.update(values_json(ruleset, state))
    out["combatants"] = {
        c.id: {
            "name": c.name,
            "side": c.side,
            "at": list(c.at) if c.at is not None else None,
            "hp": c.hp,
            "max_hp": c.max_hp,
            "down": is_down(ruleset, c),
            "statuses": {k: dict(v) for k, v in c.statuses.items()},
            **presenter_of(ruleset).sheet_json(state, c),
        }
        for c in state.combatants.values()
    }
    return out


def events_json(records: Sequence[Record]) -> list[dict[str, Any]]:
    """Every event, tagged with the number of its action (0: the encounter's start)."""
    return [{"action": r.seq, **event_json(e)} for r in records for e in r.events]


def rolls_json(records: Sequence[Record]) -> list[dict[str, Any]]:
    """Every die as rolled, so a log replays with no seed."""
    return [
        {"action": r.seq, "label": roll.label, "sides": roll.sides, "value": roll.value}
        for r in records
        for roll in r.rolls
    ]
