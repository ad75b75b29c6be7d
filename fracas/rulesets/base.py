"""What a ruleset is: two values (:class:`About`, :class:`Contract`), a move table and a
few hooks.

The engine calls a small set of hooks; everything a system does differently is one of
them or a field of its contract, never a branch on its name in the core. An action is
taken in two steps (``docs/writing-a-ruleset.md``):

1. its :class:`ActionSpec`'s ``decide(rules, state, action)`` checks it against the
   rules and computes everything that needs no die (the weapon, the range band, the
   modifiers, who is in the blast). Every refusal is raised here. It returns a frozen
   :class:`Decision`.
2. the decision's :meth:`Decision.roll` asks the dice for every roll and returns the
   events (maybe ending with ``fracas.rulesets.steps.Then(step)``, a step being a decision too).

The engine keeps the decision per (ruleset, options, state, action) in a memo (the
process's, or its table's: :func:`decided`), so exact odds replay only the rolling
step on every dice path, and "what may the actor do now" asks the deciding step alone.
The deciding step and its memos are :mod:`fracas.rulesets.memo`'s, named here too.
"""

from __future__ import annotations

import dataclasses
import typing
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar, get_args, get_origin

from fracas.dice.exact import DEFAULT_MAX_ROLLS
from fracas.dice.source import Dice
from fracas.errors import FracasError, Refusal
from fracas.model import Action, Combatant, Encounter, Event
from fracas.model.frozen import canonical, freeze, thaw
from fracas.model.grid import METRICS, Tile
from fracas.model.state import kept_action
from fracas.rulesets.memo import (
    RULE_ID,
    Decisions,
    ReadMemo,
    cite,
    decide,
    decided,
    decision_of,
    fields_but_combatants,
    forget_decisions,
    keeping_decisions,
    memos,
    memos_on,
)
from fracas.rulesets.shown import (
    Presenter,
    Reach,
    Shown,
    choice_words,
    encounter_shown,
    full_shown,
    gear_note,
    item_json,
    rings,
    sheet_json_raw,
    statuses_shown,
    values_json,
)
from fracas.rulesets.steps import roll_all

__all__ = [
    "RULE_ID",
    "About",
    "ActionSpec",
    "Contract",
    "Cost",
    "Decide",
    "Decision",
    "Decisions",
    "Detail",
    "DieSpec",
    "Lasting",
    "Presenter",
    "Reach",
    "ReadMemo",
    "Rules",
    "Ruleset",
    "Shown",
    "StatusSpec",
    "TypedRuleset",
    "ValueSpec",
    "can_roll",
    "choice_words",
    "cite",
    "costs_of",
    "decide",
    "decided",
    "decision_of",
    "decision_types",
    "dice_specs",
    "die_spec",
    "distance",
    "encounter_shown",
    "fields_but_combatants",
    "forget_decisions",
    "full_shown",
    "gear_note",
    "is_down",
    "item_json",
    "keeping_decisions",
    "max_hp_default",
    "memos",
    "memos_on",
    "metric_name",
    "move_is_own",
    "option_values",
    "plain",
    "presenter_of",
    "resolve",
    "rings",
    "roll",
    "sheet_as",
    "sheet_json_raw",
    "statuses_shown",
    "values_json",
    "walk",
]

SheetT = TypeVar("SheetT")
OptionsT = TypeVar("OptionsT")
OptionsT_co = TypeVar("OptionsT_co", covariant=True)


# --- what a ruleset is, in words ------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Lasting:
    """What of a combatant lasts from one fight to the next (issue 36: a party that
    carries over), as the ruleset's rule text says: data, read by the table's party
    (``fracas.table.party``), never a branch on a ruleset's name. Everything else of a
    combatant (a turn's AP, cover, initiative, a fire that burns out with the fight) is
    the next encounter file's afresh."""

    hp: bool = True
    """The HP lasts as it is (False where the sheet's fields make it: soak's track)."""
    sheet: tuple[str, ...] = ()
    """Sheet fields that last, whole (ammo spent and items used live in ``inventory``
    or ``weapons``; injuries in ``limbs``; wounds; conditions kept on the sheet)."""
    statuses: tuple[str, ...] = ()
    """Statuses that outlast a fight (escalation's ``dead``)."""
    rest: tuple[tuple[str, Any], ...] = ()
    """What a rest sets, by the rule text's own rest rule: (sheet field, its value)
    pairs, as a file gives them (wasteland's once-per-Long-Rest abilities:
    ``("rest_uses", ())``, WL-19). Tuples, so that the declaration hashes."""
    rest_heals: bool = False
    """A rest brings HP back to its maximum (tier-duel's "temporarily removed", TD-5)."""
    rules: str = ""
    """The rule IDs the declaration follows, for the party's words and the tests."""


@dataclass(frozen=True, slots=True, kw_only=True)
class About:
    """A ruleset in words: its ``name`` (files and the CLI say it), a ``title``, the
    ``rule_text`` it follows (a seed file) and a one-line ``summary``."""

    name: str
    title: str
    rule_text: str
    summary: str
    ranges_button: str = "Ranges"
    """The words of the map's button that draws a combatant's range rings."""
    lasting: Lasting = Lasting()
    """What of a combatant lasts between fights (issue 36); default: its HP alone."""


# --- the declarative contract ---------------------------------------------


class Decision(ABC):
    """What a ``decide`` returns, and every step a roll pauses on: frozen, hashable, and
    able to roll itself. A ruleset's decisions are frozen dataclasses deriving from it."""

    __slots__ = ()

    tile_too: ClassVar[bool] = True
    """Whether the same action may be taken at a tile (``at``, an action that takes
    ``combatant_or_tile``) where the rules take it at a combatant with this decision:
    False for a decision whose aim can only be a combatant (dice-combat's strike: a tile
    needs an explosive in hand, DC-31), and the tactics then try no tile for it (issue
    34, item 3). Default True: they try each tile next to an enemy."""

    @abstractmethod
    def roll(self, rules: Rules[Any], state: Encounter, dice: Dice) -> list[Event]:
        """The events of this decision: every die is asked of ``dice``; never refuses.
        Pure: reads ``state``, the decision and ``rules.options``, asks ``dice``."""

    def costs(self, rules: Rules[Any], state: Encounter) -> tuple[Cost, ...]:
        """What this decision (made in ``state``) spends of its actor's resources before
        any die (AP, a reaction of the round), read from what it decided, the same that
        its events spend: a face shows it before the action is confirmed (issue 35).
        Default: none."""
        return ()


@dataclass(frozen=True, slots=True)
class Cost:
    """What a decided action spends of one of its actor's resources before any die
    (:meth:`Decision.costs`), as data a face shows before the action is confirmed
    (issue 35): ``spent`` of ``what`` (points, ``AP``; or, with ``uses``, one use of a
    counted thing: a reaction of the round, a shot of an allowance), the actor's
    ``before`` and ``after``; ``owed``: what the next turn pays (an overflow)."""

    actor: str
    what: str
    spent: int
    before: int
    after: int
    owed: int = 0
    uses: bool = False

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


class Rules(Protocol[OptionsT_co]):
    """What a decide or a roll reads of the ruleset: its values and its options."""

    @property
    def about(self) -> About: ...
    @property
    def contract(self) -> Contract: ...
    @property
    def options(self) -> OptionsT_co: ...


Decide = Callable[[Any, Encounter, Action], Decision]
"""An action's deciding step: (rules, state, action) -> a :class:`Decision`."""


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
    decide: Decide | None = dataclasses.field(default=None, compare=False)
    """The action's deciding step, ``decide(rules, state, action) -> Decision``: raises
    :class:`~fracas.errors.Refusal` where the rules forbid it. Every action of a
    contract has one (the ``move_spec`` none: the core moves)."""


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
    sides_option: str | None = None
    """The option that gives the die's sides, where one does (``sides`` is then the
    default's)."""


@dataclass(frozen=True, slots=True)
class Detail:
    """One detail of a status (``turns`` of ``burning``): its type and its default (None:
    it must be given), the values it may take (``choices``) or its ``minimum``."""

    type: type[int] | type[str]
    default: int | str | None = None
    summary: str = ""
    choices: tuple[str, ...] = ()
    minimum: int | None = None


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
class ValueSpec:
    """An encounter-wide value reported beside ``round`` (escalation's ``escalation``):
    its name in the state, and what a face shows of it."""

    name: str
    label: str = ""
    """Its words on a face (default: the name)."""
    summary: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Contract:
    """What a ruleset declares: its types, actions, dice and statuses. Data only."""

    sheet: type[Any]
    """A frozen dataclass: the ruleset's own sheet fields, with defaults."""
    options: type[Any]
    """A frozen dataclass: one field per option, with the default."""
    actions: tuple[ActionSpec, ...]
    """The move table: each action with its ``decide``."""
    dice: tuple[DieSpec, ...]
    default_max_hp: int
    """The ``max_hp`` of a combatant whose file gives none (an option ``max_hp``, where
    the options have one, says otherwise)."""
    item_type: type[Any] | None = None
    item_shorthands: tuple[str, ...] = ()
    metric: str = "chebyshev"
    """The distance metric, a name from :data:`fracas.model.grid.METRICS` (an option
    ``metric``, where the options have one, says otherwise)."""
    encounter_values: tuple[ValueSpec, ...] = ()
    """Encounter-wide values reported beside ``round``."""
    odds_max_rolls: int = DEFAULT_MAX_ROLLS
    """Exact odds: rolls along one dice path before it is cut and its mass reported as
    truncated. A ruleset whose dice explode picks a depth that keeps its odds fast."""
    move_spec: ActionSpec | None = None
    """What the ruleset adds to the core ``move``: its extra ``params`` (with ``types``,
    validated by the file reader like any action's) and a ``summary`` appended to the
    core one. None: ``move`` takes ``to`` alone. See ``own_move``, :meth:`Ruleset.move`."""
    own_move: str | None = None
    """The ``move`` parameter that makes a move its actor's own movement, taken in its
    turn, costing that many points (wasteland's ``ap``); a walk gives it the tiles
    walked. None: every move is a game master's move that takes no turn, and a walk is
    the table's (``walk: true``)."""
    statuses: tuple[StatusSpec, ...] = ()
    """The statuses the rules read (``burning``), with their details."""
    down_statuses: tuple[str, ...] = ()
    """Statuses that put a combatant out of the fight besides 0 HP (``dead``)."""
    share_tiles: bool = False
    """Whether two combatants may stand on one tile (an option ``share_tiles``, where
    the options have one, says otherwise). Default: no two tokens on one tile (none of
    the five rule texts lets two stand on one; wasteland's stray shots, WL-24, and
    dice-combat's blasts, DC-32, read who stands on which tile)."""
    refusal_rules: Mapping[str, str] = dataclasses.field(default_factory=dict)
    """Each refusal code's rule IDs, as the rules text's table of refusals gives them
    (``out_of_reach``: ``WL-26``): cited after the words of a refusal that cites none
    (:func:`cite`), so a game master reads words first and the rule after them."""
    presenter: type[Presenter] = Presenter
    """What faces show of the state."""
    chain_key: Callable[[Any, Encounter], Encounter] | None = None
    """The state the balance lab's exact chain keys a state by, ``(rules, state) ->
    state``: one whose fight goes on exactly as the state's does under the lab's
    tactics, where the rules make the two the same (the chain then follows one of them
    instead of both). None: the state itself."""
    order_by: str | None = None
    """The value the turn order goes by, where it is no sheet field of its own (a
    derived one): a key of :meth:`Presenter.sheet_json`'s, shown beside each combatant
    in a page's turn order with its key's word (wasteland's ``sequence``, WL-1). None:
    :attr:`initiative_field`'s value, where kept."""
    initiative_field: str | None = None
    """The sheet field that keeps a combatant's rolled initiative (soak's ``initiative``,
    SK-1): a face shows it in the turn order, and the game master's ``initiative`` with
    ``roll: true`` clears it on every sheet and asks :meth:`Ruleset.initiative` again, so
    that every combatant rolls (``fracas.engine.table_actions.rolled_initiative``).
    None: no initiative kept on the sheet, none rolled again."""

    def action(self, name: str) -> ActionSpec | None:
        """The action named ``name``, or None."""
        return next((spec for spec in self.actions if spec.name == name), None)

    def status(self, name: str) -> StatusSpec | None:
        """The status named ``name`` the rules read, or None."""
        return next((spec for spec in self.statuses if spec.name == name), None)

    def check_status(self, name: str, details: Mapping[str, Any]) -> dict[str, int | str]:
        """A status's details checked against :attr:`statuses`, defaults filled in. A
        status the rules do not read is a free-form mark: any int or text details.

        Raises:
            Refusal: ``unknown_detail``, ``missing_detail`` or ``bad_value``, naming the
                valid details.
        """
        spec = self.status(name)
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
        for key, detail in spec.details.items():
            value = out[key]
            if detail.choices and value not in detail.choices:
                raise Refusal(
                    "bad_value",
                    f"status {name} {key}: {value!r}: give one of {', '.join(detail.choices)}",
                )
            if detail.minimum is not None and int(value) < detail.minimum:
                raise Refusal(
                    "bad_value",
                    f"status {name} {key}: {value!r} is negative; give {detail.minimum} or more"
                    if detail.minimum == 0
                    else f"status {name} {key}: {value!r} is below {detail.minimum}; give "
                    f"{detail.minimum} or more",
                )
        return out

    def option_defaults(self) -> Mapping[str, Any]:
        """Each option's default, as plain data."""
        return {f.name: _default(f) for f in dataclasses.fields(self.options)}

    def sheet_fields(self) -> Sequence[str]:
        """The names of the sheet's own fields."""
        return [f.name for f in dataclasses.fields(self.sheet)]


# --- the ruleset: its values and its hooks --------------------------------


class Ruleset(ABC):
    """A rule system: :attr:`about` and :attr:`contract` (values), and the hooks below,
    each with a default right for most systems. Stateless but for its options."""

    about: About
    contract: Contract
    options: Any

    def __init__(self, options: Any) -> None:
        # hashable however built, and equal options one object (the decisions' memo)
        self.options = canonical(freeze(options))

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "contract" in cls.__dict__:
            _check_moves(cls)

    def settle(self, c: Combatant, given: frozenset[str], fresh: bool = False) -> Combatant:
        """Make ``c``'s derived fields agree after a file or a ``set`` gave the fields named
        in ``given`` (core and sheet names), e.g. an HP derived from damage taken; with
        ``fresh`` ``c`` was just loaded (marks that depend on its sheet at the start).

        Raises:
            FracasError: ``bad_value`` where the given fields cannot agree.
        """
        return c

    def initiative(self, state: Encounter, dice: Dice) -> tuple[tuple[str, ...], list[Event]]:
        """The turn order when the file gives none, with the events that record how it was
        found (rolled initiative kept on the sheet, a log line); they open the encounter's
        first record. Default: the file's order and no events."""
        return tuple(state.combatants), []

    def order_after_set(
        self, state: Encounter, actor: str, given: frozenset[str]
    ) -> tuple[str, ...] | None:
        """The turn order after a ``set`` of ``actor`` that gave the fields named in
        ``given`` (``state`` is after the edit), e.g. an initiative that orders turns; None
        keeps the order. The turn in progress goes on; the next is the one after it in the
        new order. Default: None."""
        return None

    def initial_values(self) -> dict[str, int]:
        """Encounter-wide values as the encounter starts (an option may set them)."""
        return {}

    def turn_start(self, state: Encounter, actor: str, dice: Dice) -> list[Event]:
        """Events at the start of ``actor``'s turn (after TurnStarted)."""
        return []

    def turn_end(self, state: Encounter, actor: str, dice: Dice) -> list[Event]:
        """Events at the end of ``actor``'s turn (before TurnEnded)."""
        return []

    def move(self, state: Encounter, action: Action) -> list[Event]:
        """The events of a ``move`` before the core ``Moved`` (its cost), in ``state``
        after any turn advance. Raises :class:`~fracas.errors.Refusal` when the rules
        forbid it. Default: none (the move is logged, not checked)."""
        return []

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


DecisionT = TypeVar("DecisionT", bound=Decision)


class TypedRuleset(Ruleset, Generic[SheetT, OptionsT, DecisionT]):
    """A ruleset typed by its sheet, its options and its decisions: ``self.options``
    has its own type (``class Soak(TypedRuleset[Sheet, Options, Decision])``); the first
    two must be its contract's ``sheet`` and ``options``."""

    options: OptionsT

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for base in getattr(cls, "__orig_bases__", ()):
            if get_origin(base) is TypedRuleset and "contract" in cls.__dict__:
                sheet, options, _ = get_args(base)
                if (sheet, options) != (cls.contract.sheet, cls.contract.options):
                    raise FracasError(
                        "bad_contract",
                        f"{cls.__name__}: TypedRuleset[{sheet.__name__}, {options.__name__}, "
                        "...] but its contract's sheet and options are "
                        f"{cls.contract.sheet.__name__} and {cls.contract.options.__name__}",
                    )


def _check_moves(cls: type[Ruleset]) -> None:
    """Every action of ``cls``'s contract has a decide, and every decision type a decide
    says it returns can roll.

    Raises:
        FracasError: ``no_decide`` or ``no_roll``, naming the action.
    """
    for spec in cls.contract.actions:
        if spec.decide is None:
            raise FracasError(
                "no_decide",
                f"{cls.__name__}: action {spec.name!r} has no decide: give its ActionSpec "
                "decide=a function (rules, state, action) -> Decision",
            )
        for kind in decision_types(spec.decide):
            if not can_roll(kind):
                raise FracasError(
                    "no_roll",
                    f"{cls.__name__}: action {spec.name!r} decides a {kind.__name__}, which "
                    "has no roll: make it a Decision with roll(rules, state, dice)",
                )


def decision_types(decide_fn: Decide) -> tuple[type[Any], ...]:
    """The decision types ``decide_fn``'s return annotation names (a class or a union of
    classes); none where it names none."""
    returned = getattr(decide_fn, "__annotations__", {}).get("return")
    if isinstance(returned, str):  # resolved now: the ruleset's class may not exist yet
        returned = eval(returned, getattr(decide_fn, "__globals__", {}))
    if returned is None:
        return ()
    args = get_args(returned) if get_origin(returned) in (typing.Union, _UnionType) else ()
    return tuple(a for a in (args or (returned,)) if isinstance(a, type))


_UnionType = type(int | str)


def can_roll(kind: type[Any]) -> bool:
    """Whether ``kind`` is a :class:`Decision` with a roll of its own."""
    return (
        isinstance(kind, type)
        and issubclass(kind, Decision)
        and not getattr(kind.roll, "__isabstractmethod__", False)
    )


# --- the pipeline: what the engine calls ------------------------------------


def roll(rules: Ruleset, state: Encounter, decision: Decision, dice: Dice) -> list[Event]:
    """One rolling step: ``decision``'s roll (maybe ending with a ``Then``)."""
    return decision.roll(rules, state, dice)


def resolve(rules: Ruleset, state: Encounter, action: Action, dice: Dice) -> list[Event]:
    """Decide (kept per state and action) and roll with every step, in one call."""
    return roll_all(rules, state, decided(rules, state, action), dice)


# --- what the contract and the options give ---------------------------------


def costs_of(rules: Ruleset, state: Encounter, action: Action) -> tuple[Cost, ...]:
    """What ``action`` would spend in ``state`` before any die (its decision's
    :meth:`Decision.costs`); none where the rules refuse it."""
    try:
        decision = decide(rules, state, action)
    except FracasError:
        return ()
    return decision.costs(rules, state)


def is_down(rules: Rules[Any], c: Combatant) -> bool:
    """Out of the fight: 0 HP, or a status of the contract's ``down_statuses``."""
    if c.hp == 0:
        return True
    statuses = c.statuses
    if statuses:  # a loop, not any() over a generator: the lab asks this of every state
        for s in rules.contract.down_statuses:
            if s in statuses:
                return True
    return False


def metric_name(rules: Rules[Any]) -> str:
    """The distance metric in use, a name from :data:`fracas.model.grid.METRICS`: the option
    ``metric`` where the options have one, else the contract's."""
    return str(getattr(rules.options, "metric", rules.contract.metric))


def distance(rules: Rules[Any], a: Tile, b: Tile) -> int:
    """Tiles between ``a`` and ``b`` by the ruleset's metric."""
    return METRICS[metric_name(rules)](a, b)


def max_hp_default(rules: Rules[Any]) -> int:
    """The ``max_hp`` of a combatant whose file gives none: the option ``max_hp`` where
    the options have one, else the contract's ``default_max_hp``."""
    return int(getattr(rules.options, "max_hp", rules.contract.default_max_hp))


def dice_specs(rules: Rules[Any]) -> tuple[DieSpec, ...]:
    """The dice labels as the options make them (a die's ``sides_option``); given faces
    are checked against these."""
    return tuple(
        spec
        if spec.sides_option is None
        else dataclasses.replace(spec, sides=int(getattr(rules.options, spec.sides_option)))
        for spec in rules.contract.dice
    )


def die_spec(rules: Rules[Any], label: str) -> DieSpec | None:
    """The dice label ``label`` as the options make it (:func:`dice_specs`)."""
    return next((spec for spec in dice_specs(rules) if spec.label == label), None)


def option_values(rules: Rules[Any]) -> dict[str, Any]:
    """Each option's value, as plain data."""
    return {
        f.name: plain(getattr(rules.options, f.name)) for f in dataclasses.fields(rules.options)
    }


def move_is_own(rules: Rules[Any], action: Action) -> bool:
    """Whether this ``move`` is its actor's own movement, taken in its turn (the turns
    before it end first, as for a ruleset action): one that gives the contract's
    ``own_move`` parameter; without one every move is a game master's."""
    own = rules.contract.own_move
    return own is not None and own in action.params


def walk(rules: Rules[Any], state: Encounter, actor: str, to: Tile) -> Action | None:
    """The ``move`` that is ``actor``'s own movement to ``to`` in its turn, as a player or
    the balance lab's tactics take it (whether it is allowed is the engine's to say):
    with the contract's ``own_move``, that parameter set to the tiles walked (None for a
    combatant off the map); else the table's walk (``walk: true``, up to ``table:
    {move: N}`` tiles a turn), None where the table walks nobody (``move: 0``)."""
    own = rules.contract.own_move
    if own is not None:
        here = state.get(actor).at
        if here is None:
            return None
        return kept_action(actor, "move", params={"to": to, own: distance(rules, here, to)})
    if state.table.move <= 0:
        return None
    return kept_action(actor, "move", params={"to": to, "walk": True})


def presenter_of(rules: Ruleset) -> Presenter:
    """What faces show of this ruleset's state."""
    return rules.contract.presenter(rules)


S = TypeVar("S")


def on_sheet(ruleset: Ruleset, c: Combatant) -> tuple[str, ...]:
    """The statuses ``c``'s sheet holds (:attr:`StatusSpec.on_sheet`: escalation's
    conditions), in the order the sheet holds them."""
    fields = dict.fromkeys(s.on_sheet for s in ruleset.contract.statuses if s.on_sheet is not None)
    known = {s.name for s in ruleset.contract.statuses if s.on_sheet is not None}
    return tuple(
        name for field in fields for name in getattr(c.sheet, field or "", ()) if name in known
    )


def sheet_as(c: Combatant, kind: type[S]) -> S:
    """``c``'s sheet as the ruleset's sheet type ``kind``."""
    sheet = c.sheet
    assert isinstance(sheet, kind), f"{c.id}'s sheet is a {type(sheet).__name__}"
    return sheet


def _names(items: tuple[Any, ...]) -> tuple[str, ...]:
    """The distinct ``name`` of each item, in order."""
    out: list[str] = []
    for item in items:
        name = getattr(item, "name", None)
        if isinstance(name, str) and name not in out:
            out.append(name)
    return tuple(out)


def _default(f: dataclasses.Field[Any]) -> Any:
    """A dataclass field's default as plain data (as :func:`option_values` gives values),
    made by its factory where it has one (a mapping)."""
    if f.default_factory is not dataclasses.MISSING:
        return plain(f.default_factory())
    return plain(f.default)


def plain(value: Any) -> Any:
    """A sheet value as plain data (:func:`fracas.model.frozen.thaw`)."""
    return thaw(value)
