"""The encounter state, the core events, and the fold that applies them.

State is immutable: an event's :meth:`Event.apply` returns a new
:class:`Encounter`. The state of an encounter is the fold of its log.
A ruleset's per-combatant data lives in ``Combatant.sheet`` (the ruleset's
own frozen dataclass); this module never looks inside it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from fracas.frozen import EMPTY, SCALARS, FrozenDict, HashKept, evolve, freeze, thaw
from fracas.grid import Tile

__all__ = [
    "Action",
    "ActionUsed",
    "Attempted",
    "Combatant",
    "CombatantAdded",
    "CombatantRemoved",
    "Concealed",
    "Damaged",
    "Encounter",
    "Event",
    "FieldsSet",
    "HpChanged",
    "Moved",
    "Note",
    "NoteWritten",
    "OrderSet",
    "Rolled",
    "StatusCleared",
    "StatusSet",
    "TableRules",
    "Turn",
    "TurnEnded",
    "TurnFlagged",
    "TurnOver",
    "TurnSkipped",
    "TurnStarted",
    "ValueSet",
    "event_json",
    "fold",
]

Statuses = Mapping[str, Mapping[str, Any]]
"""Status name -> its details (JSON scalars: ``{"turns": 2}``, ``{"from": "ana"}``)."""


def _built(value: object) -> bool:
    return type(value) is FrozenDict or hasattr(type(value), "__dataclass_fields__")


def _frozen(obj: object, name: str) -> None:
    """Make field ``name`` of a frozen dataclass a :class:`FrozenDict` all the way down
    (a caller may give a plain dict; the state must stay hashable)."""
    value = getattr(obj, name)
    if type(value) is not FrozenDict:
        object.__setattr__(obj, name, freeze(value))


@dataclass(frozen=True, slots=True)
class Combatant(HashKept):
    """One combatant: the fields every ruleset shares, and the ruleset's own sheet."""

    id: str
    name: str
    side: str
    at: Tile | None
    hp: int
    max_hp: int
    sheet: Any
    """The ruleset's frozen sheet dataclass (its fields, flat, as its file names them)."""
    statuses: Statuses = EMPTY
    marks: frozenset[str] = frozenset()
    """Lasting markers a ruleset keeps on a combatant that are not sheet fields."""

    def __post_init__(self) -> None:
        if type(self.statuses) is not FrozenDict:  # _frozen(self, "statuses"), inline
            object.__setattr__(self, "statuses", freeze(self.statuses))

    def __hash__(self) -> int:
        try:
            return self._hash
        except AttributeError:
            h = hash(
                (
                    self.id,
                    self.name,
                    self.side,
                    self.at,
                    self.hp,
                    self.max_hp,
                    self.sheet,
                    self.statuses,
                    self.marks,
                )
            )
            object.__setattr__(self, "_hash", h)
            return h

    def with_status(self, status: str, details: Mapping[str, Any]) -> Combatant:
        """This combatant with ``status`` set to ``details`` (others kept)."""
        return evolve(self, statuses={**self.statuses, status: freeze(details)})

    def without_status(self, status: str) -> Combatant:
        """This combatant without ``status`` (others kept)."""
        if status not in self.statuses:
            return self
        statuses = {k: v for k, v in self.statuses.items() if k != status}
        return evolve(self, statuses=statuses)


@dataclass(frozen=True, slots=True)
class Turn(HashKept):
    """Whose turn it is and what that combatant may still do in it."""

    actor: str
    actions_used: int = 0
    over: bool = False
    """A rule ended the turn ("your turn ends"); it stays until end_turn or another acts."""
    flags: frozenset[str] = frozenset()
    used: Mapping[str, int] = EMPTY
    """Actions used this turn by kind (``ActionUsed.kind``), for rulesets whose turns
    hold several kinds of action; ``actions_used`` counts them all."""

    def __post_init__(self) -> None:
        _frozen(self, "used")

    def __hash__(self) -> int:
        try:
            return self._hash
        except AttributeError:
            h = hash((self.actor, self.actions_used, self.over, self.flags, self.used))
            object.__setattr__(self, "_hash", h)
            return h


@dataclass(frozen=True, slots=True)
class TableRules(HashKept):
    """How the table runs the encounter, whatever the ruleset (the file's ``table:`` and
    ``map:``): part of the state, so every path (play, replay, odds) sees the same."""

    skip_down: bool = True
    """A turn that comes up for a down combatant (``Ruleset.is_down``) is skipped: it
    begins and ends at once, its effects firing, and the next begins."""
    map_size: tuple[int, int] | None = None
    """The map's width and height, where the file gives them (tiles are checked)."""

    def __hash__(self) -> int:
        try:
            return self._hash
        except AttributeError:
            h = hash((self.skip_down, self.map_size))
            object.__setattr__(self, "_hash", h)
            return h


@dataclass(frozen=True, slots=True)
class Encounter(HashKept):
    """The whole state of one encounter at one point of its log.

    A value: equal states compare and hash equal whatever route made them (every
    mapping in it is a :class:`~fracas.frozen.FrozenDict`, every sequence a tuple), so
    a state is its own canonical key (exact odds merge paths by it; the lab keys a
    Markov chain by it).
    """

    ruleset: str
    combatants: Mapping[str, Combatant]
    order: tuple[str, ...]
    round: int
    turn: Turn
    values: Mapping[str, int] = EMPTY
    """Encounter-wide ruleset values, reported beside ``round``."""
    table: TableRules = TableRules()
    """The table's own rules (skipping down combatants' turns, the map's size)."""
    hidden: frozenset[str] = frozenset()
    """Combatants the game master hides from the players (``hide`` / ``show``): table
    state, never read by the rules; the players' projection leaves them out."""
    notes: Mapping[str, str] = EMPTY
    """The game master's note on a combatant (``note``): never sent to a player."""

    def __post_init__(self) -> None:
        if not isinstance(self.combatants, FrozenDict):
            object.__setattr__(self, "combatants", FrozenDict(self.combatants))
        # _frozen(self, "values"), _frozen(self, "notes"), inline: every fold runs this
        if type(self.values) is not FrozenDict:
            object.__setattr__(self, "values", freeze(self.values))
        if type(self.notes) is not FrozenDict:
            object.__setattr__(self, "notes", freeze(self.notes))
        if type(self.hidden) is not frozenset:
            object.__setattr__(self, "hidden", frozenset(self.hidden))
        if type(self.order) is not tuple:
            object.__setattr__(self, "order", tuple(self.order))

    def __hash__(self) -> int:
        try:
            return self._hash
        except AttributeError:
            h = hash(
                (
                    self.ruleset,
                    self.combatants,
                    self.order,
                    self.round,
                    self.turn,
                    self.values,
                    self.table,
                    self.hidden,
                    self.notes,
                )
            )
            object.__setattr__(self, "_hash", h)
            return h

    def get(self, cid: str) -> Combatant:
        return self.combatants[cid]

    def name(self, cid: str) -> str:
        return self.combatants[cid].name

    def with_combatant(self, c: Combatant) -> Encounter:
        combatants = self.combatants
        assert isinstance(combatants, FrozenDict)  # __post_init__ made it one
        return evolve(self, combatants=combatants.set(c.id, c))

    def with_sheet(self, who: Combatant | str, **changes: Any) -> Encounter:
        """The state with some of a combatant's sheet fields changed (the usual effect of a
        ruleset's event)."""
        c = self.combatants[who] if isinstance(who, str) else who
        # A FrozenDict or a dataclass given is taken as frozen through: built from the
        # state's own (frozen) parts by an event; anything else is frozen here.
        for k, v in changes.items():
            if type(v) not in SCALARS and not _built(v):
                changes[k] = freeze(v)
        return self.with_combatant(evolve(c, sheet=evolve(c.sheet, **changes)))

    def with_turn(self, **changes: Any) -> Encounter:
        return evolve(self, turn=evolve(self.turn, **changes))

    def with_value(self, name: str, value: int) -> Encounter:
        """The state with encounter-wide value ``name`` set to ``value``."""
        return evolve(self, values={**self.values, name: value})


@dataclass(frozen=True, slots=True)
class Action:
    """One action as the file (or the prompt) gives it."""

    actor: str
    do: str
    target: str | None = None
    at: Tile | None = None
    params: Mapping[str, Any] = EMPTY
    dice: Mapping[str, tuple[int, ...]] = EMPTY

    def __post_init__(self) -> None:
        _frozen(self, "params")
        _frozen(self, "dice")


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
    """True for an event that never changes who is down, nor anything a later event's
    ``apply`` reads: the exact odds' last fold of a path, made only to see who is down,
    skips it (``fracas.outcomes``; a test checks every declaration on the examples)."""
    reveals: ClassVar[str] = ""
    """The field naming the combatant whose HP, or HP-like state (damage taken, wounds,
    a limb's damage, armour worn down), this event's line tells; a face that hides that
    combatant's HP from someone shows :meth:`veiled` instead. ``""``: none."""

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
    the exact odds' last fold of a path skips them (``fracas.outcomes``)."""

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
class Moved(Event):
    actor: str
    to: Tile | None

    def apply(self, state: Encounter) -> Encounter:
        return state.with_combatant(evolve(state.get(self.actor), at=self.to))

    def describe(self, state: Encounter) -> str | None:
        where = f"[{self.to[0]}, {self.to[1]}]" if self.to is not None else "off the map"
        return f"{state.name(self.actor)} moves to {where}"


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

    def apply(self, state: Encounter) -> Encounter:
        c = state.get(self.target)
        return state.with_combatant(evolve(c, hp=self.after(c)))

    def effect(self) -> Hashable:
        # the cause is for the log line only; a subclass with its own apply or after
        # reads what it reads: the whole event
        kind = type(self)
        if kind.apply is not Damaged.apply or kind.after is not Damaged.after:
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

    def apply(self, state: Encounter) -> Encounter:
        return state.with_combatant(state.get(self.target).with_status(self.status, self.details))

    def describe(self, state: Encounter) -> str | None:
        details = ", ".join(f"{k} {v}" for k, v in self.details.items())
        shown = f" ({details})" if details else ""  # a status without details: no "()"
        return f"  {state.name(self.target)} is {self.status}{shown}"


@dataclass(frozen=True, slots=True)
class StatusCleared(Event):
    target: str
    status: str

    def apply(self, state: Encounter) -> Encounter:
        return state.with_combatant(state.get(self.target).without_status(self.status))

    def describe(self, state: Encounter) -> str | None:
        return f"  {state.name(self.target)} is no longer {self.status}"


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

    def describe(self, state: Encounter) -> str | None:
        return self.text


# --- the game master's table actions (fracas.gm) ------------------------------


@dataclass(frozen=True, slots=True)
class HpChanged(FieldsSet):
    """A game master's heal (``amount`` > 0) or damage (< 0): a ``set hp`` by an amount,
    with the fields the ruleset derived from the new HP."""

    amount: int = 0

    def describe(self, state: Encounter) -> str | None:
        c = state.get(self.actor)
        verb = "heals" if self.amount > 0 else "damages"
        after = self.apply(state).get(self.actor).hp
        return f"GM {verb} {c.name} {abs(self.amount)}: HP {c.hp} -> {after}"


@dataclass(frozen=True, slots=True)
class OrderSet(Event):
    """The turn order changes (a game master's reorder or delay)."""

    order: tuple[str, ...]

    def apply(self, state: Encounter) -> Encounter:
        return evolve(state, order=self.order)

    def describe(self, state: Encounter) -> str | None:
        return f"GM sets the order: {', '.join(state.name(cid) for cid in self.order)}"


@dataclass(frozen=True, slots=True)
class CombatantAdded(Event):
    """A combatant joins the fight; ``order`` is the turn order with it placed."""

    combatant: Combatant
    order: tuple[str, ...]

    def apply(self, state: Encounter) -> Encounter:
        return evolve(state.with_combatant(self.combatant), order=self.order)

    def describe(self, state: Encounter) -> str | None:
        c = self.combatant
        names = ", ".join(c.name if cid == c.id else state.name(cid) for cid in self.order)
        return f"GM adds {c.name} ({c.side}, HP {c.hp}/{c.max_hp}): order {names}"


@dataclass(frozen=True, slots=True)
class CombatantRemoved(Event):
    """A combatant leaves the fight (out of the state and the order)."""

    actor: str

    def apply(self, state: Encounter) -> Encounter:
        return evolve(
            state,
            combatants={k: v for k, v in state.combatants.items() if k != self.actor},
            order=tuple(cid for cid in state.order if cid != self.actor),
            hidden=state.hidden - {self.actor},
            notes={k: v for k, v in state.notes.items() if k != self.actor},
        )

    def describe(self, state: Encounter) -> str | None:
        return f"GM removes {state.name(self.actor)} from the fight"


@dataclass(frozen=True, slots=True)
class TurnSkipped(Event):
    """A down combatant's turn came up and was skipped (``TableRules.skip_down``)."""

    actor: str
    tone: ClassVar[str] = "down"

    def describe(self, state: Encounter) -> str | None:
        return f"{state.name(self.actor)} is down: turn skipped"


@dataclass(frozen=True, slots=True)
class Rolled(Event):
    """A free roll of dice notation (``2d6+1``), for the table: it changes nothing."""

    actor: str
    notation: str
    terms: tuple[tuple[int, tuple[int, ...], int], ...]
    """Per term: its sign, the faces rolled (a number: itself), the value it counts
    (the kept faces' sum)."""
    total: int

    def describe(self, state: Encounter) -> str | None:
        text = ""
        for i, (sign, faces, value) in enumerate(self.terms):
            shown = " + ".join(str(f) for f in faces)
            if sum(faces) != value:  # some faces not kept (2d20kh1)
                shown = f"({', '.join(str(f) for f in faces)} -> {value})"
            elif sign < 0 and len(faces) > 1:
                shown = f"({shown})"
            if i == 0:
                text = ("-" if sign < 0 else "") + shown
            else:
                text += f" {'+' if sign > 0 else '-'} {shown}"
        return f"{state.name(self.actor)} rolls {self.notation}: {text} = {self.total}"


@dataclass(frozen=True, slots=True)
class Concealed(Event):
    """The game master hides a combatant from the players, or shows it again."""

    actor: str
    hidden: bool

    def apply(self, state: Encounter) -> Encounter:
        hidden = state.hidden | {self.actor} if self.hidden else state.hidden - {self.actor}
        return dataclasses.replace(state, hidden=hidden)

    def describe(self, state: Encounter) -> str | None:
        what = "hides" if self.hidden else "shows"
        return f"GM {what} {state.name(self.actor)}" + (" from the players" if self.hidden else "")


@dataclass(frozen=True, slots=True)
class NoteWritten(Event):
    """The game master's note on a combatant (an empty text clears it)."""

    actor: str
    text: str

    def apply(self, state: Encounter) -> Encounter:
        notes = {k: v for k, v in state.notes.items() if k != self.actor}
        if self.text:
            notes[self.actor] = self.text
        return dataclasses.replace(state, notes=notes)

    def describe(self, state: Encounter) -> str | None:
        name = state.name(self.actor)
        return f"GM notes on {name}: {self.text}" if self.text else f"GM clears the note on {name}"
