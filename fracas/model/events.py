"""Events, the fold that applies them, and the core events every ruleset shares.

An event is a frozen fact of the log; the state of an encounter is the fold of its
log. The game master's table events are in :mod:`fracas.model.table_events`; import either from
:mod:`fracas.model`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from fracas.model.frozen import evolve, thaw
from fracas.model.grid import Tile
from fracas.model.state import Combatant, Encounter, Turn, _frozen

__all__ = [
    "ActionUsed",
    "Attempted",
    "Damaged",
    "Event",
    "FieldsSet",
    "Moved",
    "Note",
    "StatusCleared",
    "StatusSet",
    "TurnEnded",
    "TurnFlagged",
    "TurnOver",
    "TurnStarted",
    "ValueSet",
    "Walked",
    "changes_one",
    "event_json",
    "fold",
]


@dataclass(frozen=True, slots=True)
class Event:
    """A fact of the log: a kind (its class) and fields, never prose. Subclasses override
    :meth:`apply` (the state change) and :meth:`describe` (its sentence, made only when a
    face shows the log)."""

    tone: ClassVar[str] = ""
    """How a face may mark the event's line: ``""`` (plainly), ``"critical_failure"``,
    ``"critical_hit"``, ``"down"``, ``"turn"`` (a turn's start or end). Faces style by
    this, never by reading the sentence."""
    keeps_down: ClassVar[bool] = False
    """True for an event that never changes who is down nor anyone's HP, nor anything a
    later event's ``apply`` reads: the exact odds' last fold of a path, made only to see
    who is down, skips it (``fracas.odds.outcomes``), and so do the tactics' gains, which
    read HP and who is down (``fracas.lab.folds``); a test checks every declaration on
    the examples."""
    reveals: ClassVar[str] = ""
    """The field naming the combatant whose HP, or HP-like state (damage taken, wounds,
    a limb's damage, armour worn down), this event's line tells; a face that hides that
    combatant's HP from someone shows :meth:`veiled` instead. ``""``: none."""
    prose: ClassVar[tuple[str, ...]] = ()
    """The fields holding words rather than values (``attacks Bo with the pistol``, a
    free text), which may name any combatant: a projection that leaves a combatant out
    drops the line of such an event wherever that combatant takes part in its record
    (the names in words are never searched)."""

    def apply(self, state: Encounter) -> Encounter:
        """The state after this event."""
        return state

    def effect(self) -> Hashable:
        """What :meth:`apply` reads of this event: two events with equal effects change
        every state alike, so a fold of many runs (the lab's) applies them once. The
        default is the event whole; a class whose fields include what only its line
        reads (a cause) may leave those out, and a subclass that changes ``apply``
        falls back to the whole event."""
        return self

    def veiled(self, state: Encounter) -> str:
        """The line of this event for someone who may not see the HP of the combatant it
        :attr:`reveals` (its name, no figure)."""
        return f"  {state.name(getattr(self, self.reveals))}: details hidden"

    def describe(self, state: Encounter) -> str | None:
        """A log line, given the state just before this event; None for no line."""
        return None


def fold(state: Encounter, events: Iterable[Event]) -> Encounter:
    """Apply events in order."""
    for event in events:
        state = event.apply(state)
    return state


def event_json(event: Event) -> dict[str, Any]:
    """An event as a JSON-ready mapping with its ``type``."""
    out: dict[str, Any] = {"type": type(event).__name__}
    for f in dataclasses.fields(event):
        out[f.name] = thaw(getattr(event, f.name))
    return out


# --- core events -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    actor: str
    round: int
    tone: ClassVar[str] = "turn"

    def apply(self, state: Encounter) -> Encounter:
        return evolve(state, round=self.round, turn=Turn(self.actor))

    def describe(self, state: Encounter) -> str | None:
        return f"-- round {self.round}, {state.name(self.actor)}'s turn --"


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    actor: str
    passed: bool = False
    """True when the turn ended because another combatant acted."""

    def describe(self, state: Encounter) -> str | None:
        why = " (another combatant acts)" if self.passed else ""
        return f"{state.name(self.actor)}'s turn ends{why}"


@dataclass(frozen=True, slots=True)
class ActionUsed(Event):
    actor: str
    kind: str = ""
    """The kind of action used (``Turn.used``), where a ruleset's turn holds several."""
    keeps_down: ClassVar[bool] = True
    """The turn's events change the turn only, which no combatant's being down reads:
    the exact odds' last fold of a path skips them (``fracas.odds.outcomes``)."""

    def apply(self, state: Encounter) -> Encounter:
        turn = state.turn
        used = turn.used
        if self.kind:
            used = {**used, self.kind: used.get(self.kind, 0) + 1}
        return state.with_turn(actions_used=turn.actions_used + 1, used=used)


@dataclass(frozen=True, slots=True)
class TurnOver(Event):
    """A rule ended the actor's turn; its further ruleset actions are refused."""

    actor: str
    keeps_down: ClassVar[bool] = True

    def apply(self, state: Encounter) -> Encounter:
        return state.with_turn(over=True)

    def describe(self, state: Encounter) -> str | None:
        return f"{state.name(self.actor)}'s turn is over"


@dataclass(frozen=True, slots=True)
class TurnFlagged(Event):
    actor: str
    flag: str
    keeps_down: ClassVar[bool] = True

    def apply(self, state: Encounter) -> Encounter:
        return state.with_turn(flags=state.turn.flags | {self.flag})


@dataclass(frozen=True, slots=True)
class Walked(Event):
    """The actor walks ``tiles`` of its turn's walking (``HouseRules.move``)."""

    actor: str
    tiles: int
    keeps_down: ClassVar[bool] = True

    def apply(self, state: Encounter) -> Encounter:
        return state.with_turn(walked=state.turn.walked + self.tiles)

    def describe(self, state: Encounter) -> str | None:
        left = state.table.move - state.turn.walked - self.tiles
        return f"{state.name(self.actor)} walks {self.tiles} tiles ({left} left this turn)"


@dataclass(frozen=True, slots=True)
class Moved(Event):
    actor: str
    to: Tile | None

    def apply(self, state: Encounter) -> Encounter:
        return state.with_combatant(evolve(state.get(self.actor), at=self.to))

    def describe(self, state: Encounter) -> str | None:
        if self.to is None:
            return f"{state.name(self.actor)} moves off the map"
        return f"{state.name(self.actor)} moves to [{self.to[0]}, {self.to[1]}]"


@dataclass(frozen=True, slots=True)
class FieldsSet(Event):
    """A game master's edit of a combatant (core fields and sheet fields, validated)."""

    actor: str
    core: Mapping[str, Any]
    sheet: Mapping[str, Any]
    order: tuple[str, ...] | None = None
    """The turn order the edit makes (a ruleset's ``order_after_set``); None: unchanged."""

    def __post_init__(self) -> None:
        _frozen(self, "core")
        _frozen(self, "sheet")

    def apply(self, state: Encounter) -> Encounter:
        c = state.get(self.actor)
        if self.sheet:
            c = evolve(c, sheet=evolve(c.sheet, **self.sheet))
        state = state.with_combatant(evolve(c, **self.core))
        return state if self.order is None else evolve(state, order=self.order)

    def describe(self, state: Encounter) -> str | None:
        parts = [f"{k}: {thaw(v)}" for k, v in {**self.core, **self.sheet}.items()]
        order = (
            "" if self.order is None else "; turn order: " + ", ".join(map(state.name, self.order))
        )
        return f"GM sets {state.name(self.actor)}: {', '.join(parts)}{order}"


@dataclass(frozen=True, slots=True)
class Attempted(Event):
    """An attack's roll against one combatant, landed or not (the odds' ``hit``)."""

    actor: str
    target: str
    landed: bool


def apply_to_target(event: Any, state: Encounter) -> Encounter:
    """The :meth:`~Event.apply` of an event that reads and changes its ``target`` alone,
    as its ``changed(c)`` says (:class:`Damaged`'s, :class:`StatusSet`'s,
    :class:`StatusCleared`'s). A ruleset's event of one
    combatant says ``apply = apply_to_target`` and writes ``changed``: then
    :func:`changes_one` knows it, and exact odds and the lab's scores follow its changes
    per combatant instead of folding a whole state per run (issue 34: wasteland's limb
    damage)."""
    return state.with_combatant(event.changed(state.get(event.target)))


@dataclass(frozen=True, slots=True)
class Damaged(Event):
    """Damage dealt to a combatant, after armor and the like; HP stops at 0.

    A negative amount (a ruleset whose damage may go below 0 without a floor) heals,
    and HP then stops at ``max_hp``.
    """

    target: str
    amount: int
    cause: str = ""
    reveals: ClassVar[str] = "target"

    def after(self, c: Combatant) -> int:
        """The HP of ``c`` after this damage."""
        return min(max(c.max_hp, c.hp), max(0, c.hp - self.amount))

    def changed(self, c: Combatant) -> Combatant:
        """The combatant it damages, ``c``, after it: all :meth:`apply` changes, and all
        it reads (:func:`changes_one`)."""
        return evolve(c, hp=self.after(c))

    apply = apply_to_target

    def effect(self) -> Hashable:
        # the cause is for the log line only; a subclass with its own apply, changed or
        # after reads what it reads: the whole event
        kind = type(self)
        if kind is not Damaged and (
            kind.apply is not Damaged.apply
            or kind.changed is not Damaged.changed
            or kind.after is not Damaged.after
        ):
            return self
        return (kind, self.target, self.amount)

    def describe(self, state: Encounter) -> str | None:
        return self.line(state, "damage")

    def line(self, state: Encounter, what: str) -> str:
        """The log line of this damage, called ``what`` (``damage``, ``superficial
        damage``), with the HP before and after it."""
        c = state.get(self.target)
        after = self.apply(state).get(self.target).hp
        cause = f" ({self.cause})" if self.cause else ""
        return f"  {c.name} takes {self.amount} {what}{cause}: HP {c.hp} -> {after}"


@dataclass(frozen=True, slots=True)
class StatusSet(Event):
    target: str
    status: str
    details: Mapping[str, int | str]

    def __post_init__(self) -> None:
        _frozen(self, "details")

    def changed(self, c: Combatant) -> Combatant:
        """``c``, its target, after it (:func:`changes_one`)."""
        return c.with_status(self.status, self.details)

    apply = apply_to_target

    def describe(self, state: Encounter) -> str | None:
        details = ", ".join(f"{k} {v}" for k, v in self.details.items())
        shown = f" ({details})" if details else ""  # a status without details: no "()"
        return f"  {state.name(self.target)} is {self.status}{shown}"


@dataclass(frozen=True, slots=True)
class StatusCleared(Event):
    target: str
    status: str

    def changed(self, c: Combatant) -> Combatant:
        """``c``, its target, after it (:func:`changes_one`)."""
        return c.without_status(self.status)

    apply = apply_to_target

    def describe(self, state: Encounter) -> str | None:
        return f"  {state.name(self.target)} is no longer {self.status}"


def changes_one(kind: type[Event]) -> bool:
    """Whether an event of ``kind`` reads and changes nothing but one combatant, the one
    its ``target`` names, as its ``changed(c)`` says: its :meth:`~Event.apply` is
    :func:`apply_to_target` (that of :class:`Damaged`, :class:`StatusSet` and
    :class:`StatusCleared`, not overridden, and of a ruleset's event that says so).
    Such events on different combatants commute, and the exact odds follow each
    combatant's changes apart (``fracas.odds.outcomes``)."""
    return kind.apply is apply_to_target


@dataclass(frozen=True, slots=True)
class ValueSet(Event):
    """An encounter-wide ruleset value changes (reported beside ``round``)."""

    name: str
    value: int

    def apply(self, state: Encounter) -> Encounter:
        return state.with_value(self.name, self.value)

    def describe(self, state: Encounter) -> str | None:
        return f"{self.name}: {state.values.get(self.name, 0)} -> {self.value}"


@dataclass(frozen=True, slots=True)
class Note(Event):
    """A log line with no effect on the state."""

    text: str
    prose: ClassVar[tuple[str, ...]] = ("text",)

    def describe(self, state: Encounter) -> str | None:
        return self.text
