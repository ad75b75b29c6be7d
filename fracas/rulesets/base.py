"""What a ruleset is: its contract (sheet, options, actions, dice) and its hooks.

The engine calls a small set of hooks; everything a system does differently is
one of them or one of its class attributes, never a branch on its name in the
core. An action is taken in two steps (``docs/writing-a-ruleset.md``):

1. :meth:`Ruleset.decide` checks it against the rules and computes everything that
   needs no die (the weapon, the range band, the modifiers, who is in the blast).
   Every refusal is raised here. It returns a hashable *decision*.
2. :meth:`Ruleset.roll` asks the dice for every roll and returns the events.

The engine keeps the decision per (state, action) (:meth:`Ruleset.decided`), so exact
odds replay only the rolling step on every dice path, and "what may the actor do now"
asks the deciding step alone.
"""

from __future__ import annotations

import dataclasses
import re
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar, cast, get_args, get_origin

from fracas.dice.exact import DEFAULT_MAX_ROLLS
from fracas.dice.source import Dice
from fracas.errors import Refusal
from fracas.frozen import canonical, freeze, thaw
from fracas.grid import METRICS, Tile
from fracas.model import Action, Combatant, Encounter, Event
from fracas.steps import roll_all

__all__ = [
    "ActionSpec",
    "Detail",
    "DieSpec",
    "Presenter",
    "Reach",
    "Ruleset",
    "Shown",
    "StatusSpec",
    "TypedRuleset",
    "on_sheet",
    "plain",
    "sheet_as",
]

SheetT = TypeVar("SheetT")
OptionsT = TypeVar("OptionsT")


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """One action a ruleset offers: its name, its parameters and what it does."""

    name: str
    summary: str
    params: tuple[str, ...] = ()
    """Allowed keys besides ``actor``, ``do``, ``target``, ``at`` and ``dice``."""
    targets: str = "combatant"
    """``combatant``, ``combatant_or_tile``, ``combatants`` (a ``target``, or several as a
    ``targets: [ids]`` parameter), or ``none``."""
    off_turn: bool = False
    """Taken inside the current turn; advances nothing (reactions)."""
    required: tuple[str, ...] = ()
    """Parameters that must be given."""
    choices: Mapping[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    """Closed sets of values for some parameters."""
    types: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    """Types some parameters must have (``bool``, ``Annotated[int, Field(ge=0)]``),
    validated by the file reader; the action then holds the validated value."""
    combatant_params: tuple[str, ...] = ()
    """Parameters that name combatants: a list of ids or a mapping keyed by ids
    (``targets: [ana, bo]``, ``condition: {bo: dazed}``); the file reader checks each id."""
    calls: tuple[str, ...] = ()
    """Parameters that are the game master's judgement calls (advantage, a modifier,
    cover, unseen): at a table a player's action that makes one is a request the game
    master accepts or refuses, unless the table's policy lets players make it. Every
    other parameter is the player's choice (a target, a weapon, a called limb)."""


@dataclass(frozen=True, slots=True)
class DieSpec:
    """One dice label of the contract."""

    label: str
    sides: int
    when: str
    per_combatant: bool = False
    odds_relevant: bool = True
    """False for a die that never changes who is hit, the damage or who is down (it only
    feeds bookkeeping, like rounds fired): exact odds then do not branch on it. A test
    checks every such declaration against the full enumeration."""


@dataclass(frozen=True, slots=True)
class Detail:
    """One detail of a status (``turns`` of ``burning``): its type and its default (None:
    it must be given)."""

    type: type[int] | type[str]
    default: int | str | None = None
    summary: str = ""


@dataclass(frozen=True, slots=True)
class StatusSpec:
    """A status the rules read, with the details they read of it. ``set statuses:`` and
    the table's status edits are checked against it (a status the rules do not know is a
    game master's free-form mark, kept and shown, with int or text details)."""

    name: str
    summary: str
    details: Mapping[str, Detail] = dataclasses.field(default_factory=dict)
    on_sheet: str | None = None
    """The sheet field that holds it, where the rules keep it on the sheet (a tuple of
    names: escalation's ``conditions``, ES-12) rather than among the statuses; the
    table's status edits add the name to that field and take it off."""


@dataclass(frozen=True, slots=True)
class Shown:
    """One thing a face shows of a combatant or the encounter: a short ``label`` and
    ``value`` (``AP`` ``3/5``), and a longer ``detail`` for a tooltip or ``status NAME``."""

    label: str
    value: str
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Reach:
    """One range a face draws around a combatant as a ring: a ``label`` (``pistol close``)
    and the farthest tile it reaches, by the ruleset's metric."""

    label: str
    tiles: int


class Ruleset(ABC):
    """A rule system. Subclasses are stateless but for their options (and the cache of
    decisions that :meth:`decided` keeps, a pure function's memo)."""

    name: ClassVar[str]
    title: ClassVar[str]
    seed_file: ClassVar[str]
    summary: ClassVar[str]
    options_type: ClassVar[type[Any]]
    """A frozen dataclass: one field per option, with the default."""
    sheet_type: ClassVar[type[Any]]
    """A frozen dataclass: the ruleset's own sheet fields, with defaults."""
    item_type: ClassVar[type[Any] | None] = None
    item_shorthands: ClassVar[tuple[str, ...]] = ()
    actions: ClassVar[tuple[ActionSpec, ...]]
    dice: ClassVar[tuple[DieSpec, ...]]
    default_max_hp: ClassVar[int]
    metric: ClassVar[str] = "chebyshev"
    """The distance metric, a name from :data:`fracas.grid.METRICS`."""
    encounter_values: ClassVar[tuple[str, ...]] = ()
    """Names of encounter-wide values reported beside ``round``."""
    odds_max_rolls: ClassVar[int] = DEFAULT_MAX_ROLLS
    """Exact odds: rolls along one dice path before it is cut and its mass reported as
    truncated. A ruleset whose dice explode picks a depth that keeps its odds fast."""
    move_spec: ClassVar[ActionSpec | None] = None
    """What the ruleset adds to the core ``move``: its extra ``params`` (with ``types``,
    validated by the file reader like any action's) and a ``summary`` appended to the
    core one. None: ``move`` takes ``to`` alone. See :meth:`move_is_own`, :meth:`move`."""

    statuses: ClassVar[tuple[StatusSpec, ...]] = ()
    """The statuses the rules read (``burning``), with their details."""
    refusal_rules: ClassVar[Mapping[str, str]] = {}
    """Each refusal code's rule IDs, as the rules text's table of refusals gives them
    (``out_of_reach``: ``WL-26``): cited after the words of a refusal that cites none
    (:meth:`cite`), so a game master reads words first and the rule after them."""
    presenter_type: ClassVar[type[Presenter]]
    """What faces show of the state (set below: :class:`Presenter` by default)."""

    DECISIONS: ClassVar[int] = 512
    """Decisions kept by :meth:`decided` (oldest dropped first)."""

    def __init__(self, options: Any) -> None:
        # hashable however built, and equal options one object (the rules' memos)
        self.options = canonical(freeze(options))
        self._decisions: dict[tuple[Encounter, Action], Hashable] = {}

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (to an odds or win-bar worker) without the kept decisions: a memo,
        which was most of the bytes (240 KB, 80 ms to pickle after 40 turns)."""
        return {**self.__dict__, "_decisions": {}}

    def forget(self) -> None:
        """Drop every kept decision (a table whose state moved on: they were about the
        states before, and held them)."""
        self._decisions = {}

    # --- an action: decide, then roll --------------------------------------

    @abstractmethod
    def decide(self, state: Encounter, action: Action) -> Hashable:
        """Check ``action`` in ``state`` (the actor's turn already begun) and compute
        everything that needs no die: a hashable decision for :meth:`roll`.

        Raises :class:`~fracas.errors.Refusal` when the rules forbid the action. Pure:
        no dice, no printing; the same (state, action) always decides the same.
        """

    @abstractmethod
    def roll(self, state: Encounter, decision: Any, dice: Dice) -> list[Event]:
        """The events of a decided action: every die is asked of ``dice``; never refuses.

        Pure: reads ``state`` and ``decision``, asks ``dice``, returns events.
        """

    def roll_all(self, state: Encounter, decision: Any, dice: Dice) -> list[Event]:
        """:meth:`roll` with every step it asks for (``fracas.steps.Then``), in order."""
        return roll_all(self, state, decision, dice)

    def decide_cited(self, state: Encounter, action: Action) -> Hashable:
        """:meth:`decide`, its refusal's words followed by the rule they apply
        (:meth:`cite`)."""
        try:
            return self.decide(state, action)
        except Refusal as exc:
            cited = self.cite(exc)
            if cited is exc:
                raise
            raise cited from None

    def cite(self, refusal: Refusal) -> Refusal:
        """``refusal`` with its rule IDs (:attr:`refusal_rules`) after its words, where its
        words cite no rule yet: ``'bo' is 2 tiles away; melee reaches 1 tile, diagonals
        included (DC-6)``; unchanged where its code has no rule or it cites one."""
        rules = self.refusal_rules.get(refusal.code)
        if not rules or RULE_ID.search(refusal.message) or type(refusal) is not Refusal:
            return refusal
        return Refusal(refusal.code, f"{refusal.message} ({rules})")

    def resolve(self, state: Encounter, action: Action, dice: Dice) -> list[Event]:
        """Decide (kept per state and action) and roll, in one call."""
        return self.roll_all(state, self.decided(state, action), dice)

    def decided(self, state: Encounter, action: Action) -> Hashable:
        """:meth:`decide`, kept per (state, action): exact odds and "may do now" ask the
        same decision many times. A refusal is raised each time, never kept."""
        key = (state, action)
        kept = self._decisions  # one memo throughout, though another thread forget()s
        found = kept.get(key)
        if found is None:
            found = self.decide_cited(state, action)
            if len(kept) >= self.DECISIONS:
                kept.pop(next(iter(kept), key), None)
            kept[key] = found
        return found

    # --- optional hooks ---------------------------------------------------

    def prepare(self, combatant: Combatant) -> Combatant:
        """Adjust a freshly loaded combatant (marks that depend on its sheet)."""
        return combatant

    def initiative(self, state: Encounter, dice: Dice) -> tuple[str, ...]:
        """The turn order when the file gives none: the file's order."""
        return tuple(state.combatants)

    def roll_initiative(self, state: Encounter, dice: Dice) -> tuple[tuple[str, ...], list[Event]]:
        """The turn order when the file gives none, with the events that record how it was
        found (rolled initiative kept on the sheet, a log line); they open the encounter's
        first record. Default: :meth:`initiative`'s order and no events."""
        return self.initiative(state, dice), []

    def settle(self, c: Combatant, given: frozenset[str]) -> Combatant:
        """Make ``c``'s derived fields agree after a file or a ``set`` gave the fields named
        in ``given`` (core and sheet names), e.g. an HP derived from damage taken.

        Raises:
            FracasError: ``bad_value`` where the given fields cannot agree.
        """
        return c

    def order_after_set(
        self, state: Encounter, actor: str, given: frozenset[str]
    ) -> tuple[str, ...] | None:
        """The turn order after a ``set`` of ``actor`` that gave the fields named in
        ``given`` (``state`` is after the edit), e.g. an initiative that orders turns; None
        keeps the order. The turn in progress goes on; the next is the one after it in the
        new order. Default: None."""
        return None

    def turn_start(self, state: Encounter, actor: str, dice: Dice) -> list[Event]:
        """Events at the start of ``actor``'s turn (after TurnStarted)."""
        return []

    def turn_end(self, state: Encounter, actor: str, dice: Dice) -> list[Event]:
        """Events at the end of ``actor``'s turn (before TurnEnded)."""
        return []

    def move_is_own(self, action: Action) -> bool:
        """Whether this ``move`` is its actor's own movement, taken in its turn (the turns
        before it end first, as for a ruleset action); by default every move is a game
        master's move that takes no turn."""
        return False

    def move(self, state: Encounter, action: Action) -> list[Event]:
        """The events of a ``move`` before the core ``Moved`` (its cost), in ``state``
        after any turn advance. Raises :class:`~fracas.errors.Refusal` when the rules
        forbid it. Default: none (the move is logged, not checked)."""
        return []

    def walk(self, state: Encounter, actor: str, to: Tile) -> Action | None:
        """The ``move`` that is ``actor``'s own movement to ``to`` in its turn, as a
        player or the balance lab's tactics take it (whether it is allowed is the
        engine's to say). Default: the table's walk (``walk: true``, up to ``table:
        {move: N}`` tiles a turn); None where the table walks nobody (``move: 0``)."""
        if state.table.move <= 0:
            return None
        return Action(actor, "move", params={"to": to, "walk": True})

    def param_choices(
        self, state: Encounter, actor: str, spec: ActionSpec
    ) -> dict[str, tuple[str, ...]]:
        """The values of ``spec``'s parameters that depend on ``actor``'s sheet, for "may
        do now" and completion: by default ``weapon`` lists the names of the sheet's
        ``weapons`` (or of its ``hand`` and ``inventory`` items), ``item`` those of its
        ``inventory``."""
        sheet = state.get(actor).sheet
        out: dict[str, tuple[str, ...]] = {}
        inventory = tuple(getattr(sheet, "inventory", ()) or ())
        if "item" in spec.params:
            out["item"] = _names(inventory)
        if "weapon" in spec.params and "weapon" not in spec.choices:
            weapons = getattr(sheet, "weapons", None)
            if weapons is None:
                hand = getattr(sheet, "hand", None)
                weapons = (*((hand,) if hand is not None else ()), *inventory)
            out["weapon"] = _names(tuple(weapons))
        return out

    def max_hp_default(self) -> int:
        """The ``max_hp`` of a combatant whose file gives none: the option ``max_hp`` where
        the ruleset has one, else :attr:`default_max_hp`."""
        return int(getattr(self.options, "max_hp", self.default_max_hp))

    def is_down(self, c: Combatant) -> bool:
        """Out of the fight (knocked out, dying, dead)."""
        return c.hp == 0

    def chain_key(self, state: Encounter) -> Encounter:
        """The state the balance lab's exact chain keys ``state`` by: one whose fight goes
        on exactly as ``state``'s does under the lab's tactics (which reload when an
        attack needs it), where the rules make the two the same; the chain then follows
        one of them instead of both. Default: ``state`` itself. dice-combat fills a
        magazine that reloads for free (DC-10). A test checks every override against the
        chain without it, exactly."""
        return state

    def sheet_json_raw(self, c: Combatant) -> dict[str, Any]:
        """The sheet fields of ``c`` as a file would give them (what ``set`` edits)."""
        return {f.name: plain(getattr(c.sheet, f.name)) for f in dataclasses.fields(c.sheet)}

    def sheet_json(self, c: Combatant) -> dict[str, Any]:
        """The sheet fields of ``c`` for ``--json`` output (derived values included): by
        default the raw fields, a ``hand`` and ``inventory`` item by item (:meth:`item_json`)."""
        out = self.sheet_json_raw(c)
        hand = getattr(c.sheet, "hand", None)
        if "hand" in out:
            out["hand"] = self.item_json(hand) if hand is not None else None
        if "inventory" in out:
            out["inventory"] = [self.item_json(i) for i in c.sheet.inventory]
        return out

    def item_json(self, item: Any) -> dict[str, Any]:
        """One item of a sheet's ``hand`` or ``inventory`` for ``--json`` output: every field
        (a ruleset adds what its options derive of it)."""
        return {f.name: getattr(item, f.name) for f in dataclasses.fields(item)}

    def combatant_json(self, state: Encounter, c: Combatant) -> dict[str, Any]:
        """``c``'s ruleset fields for ``--json`` output where they depend on the encounter
        (whose turn it is); by default its :meth:`sheet_json`."""
        return self.sheet_json(c)

    def presenter(self) -> Presenter:
        """What faces show of this ruleset's state."""
        return self.presenter_type(self)

    def initial_values(self) -> dict[str, int]:
        """Encounter-wide values as the encounter starts (an option may set them)."""
        return {}

    def dice_specs(self) -> tuple[DieSpec, ...]:
        """The dice labels as the options make them (an option may set a die's sides);
        given faces are checked against these. By default :attr:`dice`."""
        return self.dice

    def values_json(self, state: Encounter) -> dict[str, Any]:
        """Encounter-wide values for ``--json`` output."""
        return {k: state.values[k] for k in self.encounter_values if k in state.values}

    # --- helpers ----------------------------------------------------------

    def metric_name(self) -> str:
        """The distance metric in use, a name from :data:`fracas.grid.METRICS`: by default
        :attr:`metric` (a ruleset whose options pick it says so here)."""
        return self.metric

    def distance(self, a: Tile, b: Tile) -> int:
        """Tiles between ``a`` and ``b`` by the ruleset's metric."""
        return METRICS[self.metric_name()](a, b)

    @classmethod
    def action_spec(cls, name: str) -> ActionSpec | None:
        return next((spec for spec in cls.actions if spec.name == name), None)

    @classmethod
    def status_spec(cls, name: str) -> StatusSpec | None:
        return next((spec for spec in cls.statuses if spec.name == name), None)

    @classmethod
    def check_status(cls, name: str, details: Mapping[str, Any]) -> dict[str, int | str]:
        """A status's details checked against :attr:`statuses`, defaults filled in. A
        status the rules do not read is a free-form mark: any int or text details.

        Raises:
            Refusal: ``unknown_detail``, ``missing_detail`` or ``bad_value``, naming the
                valid details.
        """
        spec = cls.status_spec(name)
        out: dict[str, int | str] = {}
        if spec is None:
            for key, value in details.items():
                if type(value) not in (int, str):
                    raise Refusal(
                        "bad_value", f"status {name} {key}: {value!r} is not a number or a text"
                    )
                out[key] = value
            return out
        valid = ", ".join(
            f"{k} ({d.type.__name__}{'' if d.default is None else f', default {d.default}'})"
            for k, d in spec.details.items()
        )
        for key, value in details.items():
            detail = spec.details.get(key)
            if detail is None:
                raise Refusal(
                    "unknown_detail",
                    f"status {name}: {key!r} is not one of its details; valid: {valid or 'none'}",
                )
            if type(value) is not detail.type:
                raise Refusal(
                    "bad_value",
                    f"status {name} {key}: {value!r} is not a {detail.type.__name__}; "
                    f"valid: {valid}",
                )
            out[key] = value
        for key, detail in spec.details.items():
            if key not in out:
                if detail.default is None:
                    raise Refusal(
                        "missing_detail", f"status {name} needs {key!r}; its details: {valid}"
                    )
                out[key] = detail.default
        return out

    def die_spec(self, label: str) -> DieSpec | None:
        """The dice label ``label`` as the options make it (:meth:`dice_specs`)."""
        return next((spec for spec in self.dice_specs() if spec.label == label), None)

    @classmethod
    def option_defaults(cls) -> Mapping[str, Any]:
        return {f.name: _default(f) for f in dataclasses.fields(cls.options_type)}

    def option_values(self) -> dict[str, Any]:
        return {
            f.name: plain(getattr(self.options, f.name)) for f in dataclasses.fields(self.options)
        }

    def sheet_fields(self) -> Sequence[str]:
        return [f.name for f in dataclasses.fields(self.sheet_type)]


class TypedRuleset(Ruleset, Generic[SheetT, OptionsT]):
    """A ruleset typed by its sheet and options: ``self.options`` and :meth:`sheet` give
    them with their own types (no per-ruleset accessor), and the two type arguments are
    its :attr:`~Ruleset.sheet_type` and :attr:`~Ruleset.options_type`
    (``class Soak(TypedRuleset[Sheet, Options])``)."""

    options: OptionsT

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for base in getattr(cls, "__orig_bases__", ()):
            if get_origin(base) is TypedRuleset:
                cls.sheet_type, cls.options_type = get_args(base)

    def sheet(self, c: Combatant) -> SheetT:
        """``c``'s sheet, as this ruleset's sheet type."""
        return cast(SheetT, c.sheet)


S = TypeVar("S")

RULE_ID = re.compile(r"\b(?:P-)?[A-Z]{2,3}-[A-Z]?\d+\b")
"""A rule ID in words (``DC-37``, ``WL-G16``, ``P-TD-4``)."""


def on_sheet(ruleset: Ruleset, c: Combatant) -> tuple[str, ...]:
    """The statuses ``c``'s sheet holds (:attr:`StatusSpec.on_sheet`: escalation's
    conditions), in the order the sheet holds them."""
    fields = dict.fromkeys(s.on_sheet for s in ruleset.statuses if s.on_sheet is not None)
    known = {s.name for s in ruleset.statuses if s.on_sheet is not None}
    return tuple(
        name for field in fields for name in getattr(c.sheet, field or "", ()) if name in known
    )


def sheet_as(c: Combatant, kind: type[S]) -> S:
    """``c``'s sheet as the ruleset's sheet type ``kind`` (for event and helper modules
    outside the ruleset class; inside it, :meth:`TypedRuleset.sheet`)."""
    sheet = c.sheet
    assert isinstance(sheet, kind), f"{c.id}'s sheet is a {type(sheet).__name__}"
    return sheet


class Presenter:
    """What a face shows of a ruleset's state: words and numbers, never a decision.

    A ruleset's own presenter (``presenter_type``) adds what its sheet holds that a
    game master watches (AP and MAP, limbs, Energy, wounds, ammunition, ...).
    """

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset

    def gear(self, state: Encounter, c: Combatant) -> str:
        """What ``c`` fights with, in a few words: by default the ``hand`` item (with its
        ammunition) or the names of the ``weapons``."""
        info = self.ruleset.combatant_json(state, c)
        hand = info.get("hand")
        if isinstance(hand, dict):
            text = str(hand.get("name", ""))
            loaded, capacity = hand.get("loaded"), hand.get("capacity")
            if isinstance(loaded, bool):
                text += " loaded" if loaded else " empty"
            elif loaded is not None and capacity is not None:
                text += f" {loaded}/{capacity}"
            return text
        weapons = info.get("weapons")
        if isinstance(weapons, list):
            return ", ".join(str(w.get("name", "")) for w in weapons if isinstance(w, dict))
        return ""

    def fields(self, state: Encounter, c: Combatant) -> tuple[Shown, ...]:
        """The ruleset's own state of ``c`` for a row of the status table (short)."""
        return ()

    def full(self, state: Encounter, c: Combatant) -> tuple[Shown, ...]:
        """Everything of ``c``: :meth:`fields`, then every sheet field (``status NAME``)."""
        shown = list(self.fields(state, c))
        seen = {s.label for s in shown}
        for key, value in self.ruleset.combatant_json(state, c).items():
            if key not in seen:
                shown.append(Shown(key, _words(value)))
        return tuple(shown)

    def statuses(self, state: Encounter, c: Combatant) -> tuple[Shown, ...]:
        """``c``'s statuses, each with its details (``burning`` ``turns=2 damage=1``)."""
        return tuple(
            Shown(name, " ".join(f"{k}={v}" for k, v in details.items()))
            for name, details in c.statuses.items()
        )

    def encounter(self, state: Encounter) -> tuple[Shown, ...]:
        """The encounter-wide values (``Escalation`` ``3``)."""
        return tuple(Shown(k, str(v)) for k, v in self.ruleset.values_json(state).items())

    def ranges(self, state: Encounter, c: Combatant) -> tuple[Reach, ...]:
        """The ranges of what ``c`` holds, nearest first, for rings around it on a map
        (band edges, maximum ranges, reaches). Default: none."""
        return ()

    ranges_button: ClassVar[str] = "Ranges"
    """The words of the map's button that draws the rings (a ruleset's own name for it)."""

    def rings(self, state: Encounter, c: Combatant) -> tuple[Reach, ...]:
        """Rings the rule texts ask for beside the hand's ranges (dice-combat's throw
        range, 15 and 20 tiles, DC-A5), nearest first; a face's tile counter does not
        read them as bands. Default: none."""
        return ()

    def gear_note(self, state: Encounter, c: Combatant) -> str:
        """A line a face shows on ``c``'s weapon where a rule changes what it does now
        (dice-combat's scrap, DC-11 and DC-26, only where they apply). Default: none."""
        return ""

    def choice_words(
        self, state: Encounter, c: Combatant, param: str, value: str
    ) -> tuple[str, str] | None:
        """How a face names ``value`` of ``c``'s parameter ``param`` (an item its action
        would take: ``knife (scrap)``), and the line :meth:`gear_note` would show on it
        in the hand (empty where no rule changes what it does); None: as given."""
        return None


Ruleset.presenter_type = Presenter


def _names(items: tuple[Any, ...]) -> tuple[str, ...]:
    """The distinct ``name`` of each item, in order."""
    out: list[str] = []
    for item in items:
        name = getattr(item, "name", None)
        if isinstance(name, str) and name not in out:
            out.append(name)
    return tuple(out)


def _words(value: Any) -> str:
    """A JSON value in a few words: mappings ``k v, ...``, lists ``a, b``."""
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {_words(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(_words(v) for v in value)
    if value is None:
        return "-"
    return str(value)


def _default(f: dataclasses.Field[Any]) -> Any:
    """A dataclass field's default as plain data (as :meth:`Ruleset.option_values` gives
    values), made by its factory where it has one (a mapping)."""
    if f.default_factory is not dataclasses.MISSING:
        return plain(f.default_factory())
    return plain(f.default)


def plain(value: Any) -> Any:
    """A sheet value as plain data (:func:`fracas.frozen.thaw`)."""
    return thaw(value)
