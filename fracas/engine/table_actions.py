"""The game master's table actions, in every ruleset: ``set``, ``heal``, ``damage``,
``status``, ``add``, ``remove``, ``initiative``, ``delay``, ``roll``, ``hide``, ``show``,
``reveal``, ``note``, ``tactics``, ``policy``, ``finish`` and ``reopen``.

They take no turn (like ``set``): the engine plans them without advancing to the
actor's turn, they are records of the log like any action (undo and redo work on
them), and each refusal is a :class:`~fracas.errors.Refusal` with a stable code that
quotes the input and says what is valid. Where an action moves the turn (removing
or delaying the combatant whose turn it is), the engine adds the turn's passing
(``fracas.engine.play``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from fracas.dice import notation
from fracas.dice.source import Dice, RandomDice
from fracas.engine.catalogue import _STATUSES, NOTE_MAX, ROLL_LABEL, SET_ONLY_FIELDS, core_actions
from fracas.engine.combatants import CORE_FIELDS, ID, check_free, check_tile, read_combatant
from fracas.errors import FileError, FracasError, Refusal, Where
from fracas.model import (
    Action,
    Combatant,
    CombatantAdded,
    CombatantRemoved,
    Concealed,
    Encounter,
    Ended,
    Event,
    FieldsSet,
    HpChanged,
    InitiativeEachRound,
    NoteWritten,
    OrderSet,
    Policy,
    PolicySet,
    Revealed,
    RevealSet,
    Rolled,
    StatusCleared,
    StatusSet,
    TacticsSet,
)
from fracas.model.frozen import EMPTY, freeze, thaw
from fracas.model.validation import check_names, validate
from fracas.rulesets.base import Ruleset, on_sheet, plain, sheet_json_raw

__all__ = [
    "added_ids",
    "change_hp",
    "initiative_each_round",
    "judgement_calls",
    "marks_at_end",
    "marks_at_start",
    "plan_gm",
    "policy_of",
    "reveals_at_start",
    "rolled_initiative",
    "rolls_initiative",
    "set_fields",
]


def plan_gm(ruleset: Ruleset, state: Encounter, action: Action, dice: Dice) -> list[Event]:
    """The events of one table action (not the turn passing it may cause)."""
    params = action.params
    actor = action.actor
    if action.do == "set":
        return [set_fields(ruleset, state, actor, params)]
    if action.do in ("heal", "damage"):
        amount = params["amount"]
        return [change_hp(ruleset, state, actor, amount if action.do == "heal" else -amount)]
    if action.do == "status":
        return _status(ruleset, state, actor, params.get("add"), params.get("remove"))
    if action.do == "add":
        raw, after = params["combatant"], params.get("after")
        copy = params.get("copy")
        added = (
            _add(ruleset, state, raw, after)
            if copy is None
            else _copy(ruleset, state, copy, raw, after)
        )
        return [added, Concealed(added.combatant.id, True)] if params.get("hidden") else [added]
    if action.do == "remove":
        if len(state.combatants) == 1:
            raise Refusal(
                "last_combatant", f"remove {actor!r}: the encounter's only combatant stays"
            )
        return [CombatantRemoved(actor)]
    if action.do == "initiative":
        return _initiative(ruleset, state, params, dice)
    if action.do == "delay":
        return [OrderSet(delayed(state, actor, params["after"]))]
    if action.do in ("hide", "show"):
        hide = action.do == "hide"
        if (actor in state.hidden) == hide:
            now = "hidden" if hide else "shown"
            raise Refusal(
                f"already_{now}", f"{action.do} {actor!r}: {state.name(actor)} is already {now}"
            )
        return [Concealed(actor, hide)]
    if action.do == "reveal":
        return [_reveal(state, actor, params["on"])]
    if action.do == "note":
        text = params["text"].strip()
        if len(text) > NOTE_MAX:
            raise Refusal(
                "bad_value", f"note: {len(text)} characters; a note has at most {NOTE_MAX}"
            )
        return [NoteWritten(actor, text)]
    if action.do in ("finish", "reopen"):
        ending = action.do == "finish"
        if state.ended == ending:
            now = "ended" if ending else "open"
            raise Refusal(
                "already_ended" if ending else "not_ended",
                f"{action.do}: the fight is {now} already",
            )
        return [Ended(ending)]
    if action.do == "tactics":
        return [TacticsSet(actor, params["preset"])]
    if action.do == "policy":
        return [PolicySet(policy_of(ruleset, state.policy, params, "policy"))]
    assert action.do == "roll", action.do
    return [_roll(actor, params["notation"], dice)]


def policy_of(ruleset: Ruleset, policy: Policy, changes: Mapping[str, Any], what: str) -> Policy:
    """``policy`` with ``changes`` (a ``policy`` action's or a file's ``policy:``
    fields), every judgement call named checked against ``ruleset``'s action specs.

    Raises:
        Refusal: ``unknown_call``, naming the judgement calls of the ruleset.
    """
    fields = dict(changes)
    if "player_calls" in fields:
        valid = judgement_calls(ruleset)
        for name in fields["player_calls"]:
            if name not in valid:
                raise Refusal(
                    "unknown_call",
                    f"{what} player_calls: {name!r} is not a judgement call of "
                    f"{ruleset.about.name}; valid: {', '.join(valid) or 'none'}",
                )
        fields["player_calls"] = frozenset(fields["player_calls"])
    return dataclasses.replace(policy, **fields)


def judgement_calls(ruleset: Ruleset) -> tuple[str, ...]:
    """Every parameter a spec of ``ruleset`` marks as the game master's call, once each,
    in the order of its actions (the core ``move``'s last)."""
    out: list[str] = []
    for spec in (*ruleset.contract.actions, *core_actions(ruleset)):
        out += [p for p in spec.calls if p not in out]
    return tuple(out)


def added_ids(action: Action) -> tuple[str, ...]:
    """The id a well-formed ``add`` action gives its new combatant (for a reader that
    checks the ids later actions name); none for any other action."""
    if action.do != "add":
        return ()
    combatant = action.params.get("combatant")
    cid = combatant.get("id") if isinstance(combatant, Mapping) else None
    return (cid,) if isinstance(cid, str) else ()


# --- HP ----------------------------------------------------------------------------


def change_hp(ruleset: Ruleset, state: Encounter, actor: str, amount: int) -> HpChanged:
    """Heal (``amount`` > 0) or damage (< 0) ``actor`` as ``set hp`` would, HP kept in
    0..max_hp. Where the ruleset refuses the full change (soak: HP above what its
    aggravated damage allows), the largest change it takes is made."""
    c = state.get(actor)
    goal = min(c.max_hp, max(0, c.hp + amount))
    step = -1 if amount > 0 else 1
    refused: Refusal | None = None
    for hp in range(goal, c.hp + step, step):
        try:
            fields = set_fields(ruleset, state, actor, {"hp": hp})
        except Refusal as exc:
            refused = refused or exc
            continue
        return HpChanged(actor, fields.core, fields.sheet, fields.order, amount)
    assert refused is not None
    raise refused


def set_fields(
    ruleset: Ruleset, state: Encounter, actor: str, fields: Mapping[str, Any]
) -> FieldsSet:
    """Validate a ``set`` action's fields against the sheet; refuse what does not fit."""
    c = state.get(actor)
    try:  # a new name, side or sheet name: printable text, as a file's
        check_names(dict(fields), _where)
    except FileError as exc:
        raise Refusal(exc.code, f"set {exc.where}: {exc.message}") from None
    core = {k: v for k, v in fields.items() if k in CORE_FIELDS or k in SET_ONLY_FIELDS}
    sheet_raw = {k: v for k, v in fields.items() if k not in core}
    try:
        merged = {**{k: plain(v) for k, v in sheet_json_raw(c).items()}, **sheet_raw}
        sheet = freeze(
            validate(
                ruleset.contract.sheet,
                merged,
                _where,
                valid_fields=ruleset.contract.sheet_fields(),
                context=ruleset.options,
            )
        )
        if "statuses" in core:
            statuses = validate(_STATUSES, core["statuses"], _where, ("statuses",))
    except FileError as exc:
        raise Refusal(exc.code, f"set {exc.where}: {exc.message}") from None
    if "statuses" in core:  # the details the rules read, checked (a status's own schema)
        try:
            core["statuses"] = {k: ruleset.contract.check_status(k, v) for k, v in statuses.items()}
        except Refusal as exc:
            raise Refusal(exc.code, f"set statuses: {exc.message}") from None
    if "at" in core and core["at"] is not None:
        core["at"] = tuple(core["at"])
    max_hp = core.get("max_hp", c.max_hp)
    hp = core.get("hp", min(c.hp, max_hp))
    if not isinstance(max_hp, int) or max_hp < 1:
        raise Refusal("bad_value", f"set max_hp: {max_hp!r} is not an int >= 1")
    if not isinstance(hp, int) or not 0 <= hp <= max_hp:
        raise Refusal("bad_value", f"set hp: {hp!r} is not in 0..{max_hp}")
    if hp != c.hp:
        core["hp"] = hp
    changed = {k: getattr(sheet, k) for k in sheet_raw}
    # The ruleset derives what follows from the given fields (an HP from damage taken).
    given = dataclasses.replace(c, sheet=sheet, **core)
    try:
        settled = ruleset.settle(given, frozenset(fields))
    except FracasError as exc:
        raise Refusal(exc.code, f"set: {exc.message}") from None
    for k in CORE_FIELDS:
        if getattr(settled, k) != getattr(given, k):
            core[k] = getattr(settled, k)
    for f in dataclasses.fields(settled.sheet):
        if getattr(settled.sheet, f.name) != getattr(sheet, f.name):
            changed[f.name] = getattr(settled.sheet, f.name)
    edit = FieldsSet(actor, core, changed)
    # The ruleset's turn order after the edit (an initiative set), where it changes.
    order = ruleset.order_after_set(edit.apply(state), actor, frozenset(fields))
    if order is None or order == state.order:
        return edit
    return dataclasses.replace(edit, order=tuple(order))


def _where(path: Sequence[str | int]) -> str:
    """A field's path in a table action's message: ``combatant.weapons.0`` (the path
    kept as data: the error's ``field``, for a page to point at the control)."""
    return Where(".".join(str(p) for p in path), tuple(path))


# --- statuses ----------------------------------------------------------------------


def _status(ruleset: Ruleset, state: Encounter, actor: str, add: Any, remove: Any) -> list[Event]:
    """Remove then add statuses of ``actor``; the others stay. A status the rules keep on
    the sheet (:attr:`StatusSpec.on_sheet`: escalation's conditions, ES-12) is taken off
    or put on that sheet field, by one edit as ``set`` makes it."""
    if add is None and remove is None:
        raise Refusal(
            "missing_field",
            "status needs `add: NAME` (or `add: {NAME: {details}}`) and/or `remove: NAME`",
        )
    c = state.get(actor)
    events: list[Event] = []
    sheet: dict[str, tuple[str, ...]] = {}  # on-sheet fields as the edits leave them

    def held(field: str) -> tuple[str, ...]:
        return sheet.get(field, tuple(getattr(c.sheet, field, ())))

    for name in [remove] if isinstance(remove, str) else list(remove or ()):
        spec = ruleset.contract.status(name) if isinstance(name, str) else None
        field = spec.on_sheet if spec is not None else None
        if field is not None and name in held(field):
            sheet[field] = tuple(n for n in held(field) if n != name)
            continue
        if name not in c.statuses:
            has = ", ".join((*c.statuses, *on_sheet(ruleset, c))) or "none"
            raise Refusal(
                "unknown_status",
                f"status remove {name!r}: {c.name} has no such status; it has: {has}",
            )
        events.append(StatusCleared(actor, name))
    added: Mapping[str, Mapping[str, Any]] = {add: {}} if isinstance(add, str) else add or {}
    for name, details in added.items():
        if not name.strip():
            raise Refusal("bad_value", f"status add {name!r}: give a status name (burning)")
        try:
            checked = ruleset.contract.check_status(name, details)
        except Refusal as exc:
            raise Refusal(exc.code, f"status add: {exc.message}") from None
        spec = ruleset.contract.status(name)
        if spec is None:  # the game master's own mark: how long it lasts
            checked = _lasting(state, name, checked)
        if spec is not None and spec.on_sheet is not None:
            if name in held(spec.on_sheet):  # a set: held once (escalation's ES-13)
                raise Refusal(
                    "already_held",
                    f"status add {name!r}: {c.name} is {name} already; remove it first to "
                    "give it again",
                )
            sheet[spec.on_sheet] = (*held(spec.on_sheet), name)
            continue
        events.append(StatusSet(actor, name, checked))
    if sheet:
        events.insert(0, set_fields(ruleset, state, actor, sheet))
    return events


# --- the order and who is in it ----------------------------------------------------


def _known(state: Encounter, cid: str, what: str) -> None:
    if cid not in state.combatants:
        raise Refusal(
            "unknown_combatant",
            f"{what} {cid!r}: not a combatant in the fight; valid: {', '.join(state.order)}",
        )


def _permutation(state: Encounter, order: Sequence[str]) -> tuple[str, ...]:
    for i, cid in enumerate(order):
        _known(state, cid, "initiative order")
        if list(order).index(cid) != i:
            raise Refusal("bad_order", f"initiative order: {cid!r} appears twice")
    missing = [cid for cid in state.order if cid not in order]
    if missing:
        raise Refusal(
            "bad_order",
            f"initiative order {list(order)!r} must name every combatant once; "
            f"missing: {', '.join(missing)}",
        )
    return tuple(order)


def delayed(state: Encounter, actor: str, after: str) -> tuple[str, ...]:
    """The order with ``actor`` moved to just after ``after``."""
    _known(state, after, "delay after")
    if after == actor:
        raise Refusal(
            "bad_value", f"delay after {after!r}: give another combatant than the one delayed"
        )
    return _placed(tuple(cid for cid in state.order if cid != actor), actor, after)


def _placed(order: tuple[str, ...], cid: str, after: str) -> tuple[str, ...]:
    """``order`` with ``cid`` placed just after ``after``."""
    i = order.index(after) + 1
    return (*order[:i], cid, *order[i:])


def _add(
    ruleset: Ruleset, state: Encounter, raw: Mapping[str, Any], after: str | None
) -> CombatantAdded:
    try:
        c = read_combatant(
            ruleset,
            thaw(raw),  # frozen action data as a file gives it
            _where,
            ("combatant",),
            taken=state.combatants,
            map_size=state.table.map_size,
        )
    except FileError as exc:
        refusal = Refusal(exc.code, f"add {exc.where}: {exc.message}")
        refusal.field = exc.field  # the new combatant's field it is about (a page's control)
        raise refusal from None
    return _added(ruleset, state, c, after)


def _added(ruleset: Ruleset, state: Encounter, c: Combatant, after: str | None) -> CombatantAdded:
    """``c`` added, on a free tile (:func:`check_free`), in the order after ``after``
    (default: last)."""
    if c.at is not None:
        try:
            check_free(ruleset, state, c, c.at)
        except Refusal as exc:
            exc.field = "combatant.at"
            raise
    if after is None:
        return CombatantAdded(c, (*state.order, c.id))
    _known(state, after, "add after")
    return CombatantAdded(c, _placed(state.order, c.id, after))


_COPY_FIELDS = ("id", "name", "side", "at")


def _copy(
    ruleset: Ruleset, state: Encounter, source: str, raw: Mapping[str, Any], after: str | None
) -> CombatantAdded:
    """A copy of ``source`` (its sheet and side, full HP, no statuses) as ``raw`` names it
    (``id``, ``name``, ``side``, ``at``)."""
    _known(state, source, "add copy")
    extra = sorted(set(raw) - set(_COPY_FIELDS))
    if extra:
        raise Refusal(
            "unknown_field",
            f"add copy: {', '.join(extra)} cannot be given with a copy; give only "
            f"{', '.join(_COPY_FIELDS)}",
        )
    cid = raw.get("id")
    if not isinstance(cid, str) or not ID.match(cid):
        raise Refusal("bad_id", f"add combatant.id {cid!r}: give an id matching [a-z0-9_-]+")
    if cid in state.combatants:
        raise Refusal("duplicate_id", f"add combatant.id {cid!r}: a combatant has that id")
    src = state.get(source)
    name, side = raw.get("name") or cid, raw.get("side") or src.side
    if not isinstance(name, str) or not isinstance(side, str):
        raise Refusal("bad_value", f"add: name {name!r} and side {side!r} are texts")
    try:
        check_names({"name": name, "side": side}, _where, ("combatant",))
    except FileError as exc:
        raise Refusal(exc.code, f"add {exc.where}: {exc.message}") from None
    at = raw.get("at")
    tile: tuple[int, int] | None = None
    if at is not None:
        if not (isinstance(at, (list, tuple)) and len(at) == 2 and all(type(v) is int for v in at)):
            raise Refusal("bad_value", f"add combatant.at {at!r}: give a tile [x, y]")
        tile = (at[0], at[1])
        try:
            check_tile(tile, state.table.map_size, _where, ("combatant", "at"))
        except FileError as exc:
            raise Refusal(exc.code, f"add {exc.where}: {exc.message}") from None
    fresh = dataclasses.replace(
        src, id=cid, name=name, side=side, at=tile, hp=src.max_hp, statuses=EMPTY, marks=frozenset()
    )
    try:  # the fields the ruleset derives from HP follow the full HP (a file's way)
        c: Combatant = freeze(ruleset.settle(fresh, frozenset({"hp"}), fresh=True))
    except FracasError as exc:
        raise Refusal(exc.code, f"add copy {source!r}: {exc.message}") from None
    return _added(ruleset, state, c, after)


# --- a free roll -------------------------------------------------------------------


class _Faces:
    """Passes rolls on and keeps their faces."""

    def __init__(self, dice: Dice) -> None:
        self._dice = dice
        self.faces: list[int] = []

    def roll(self, sides: int, label: str, *, of: str | None = None, n: int | None = None) -> int:
        face = self._dice.roll(sides, label, of=of, n=n)
        self.faces.append(face)
        return face


def _roll(actor: str, text: str, dice: Dice) -> Rolled:
    """A free roll in d20's notation (issue 36); one the older parser reads the same way
    keeps its older terms (:func:`~fracas.dice.d20_free.is_legacy`: stored logs replay
    to the same events)."""
    from fracas.dice.d20_free import is_legacy, roll_notation  # d20's grammar: ~60 ms

    if not is_legacy(text):
        try:
            out = roll_notation(text, dice, ROLL_LABEL)
        except FracasError as exc:
            raise Refusal(exc.code, f"roll: {exc.message}") from None
        return Rolled(actor, out.notation, ((1, out.faces, out.total),), out.total)
    expr = notation.parse(text)
    terms: list[tuple[int, tuple[int, ...], int]] = []
    for sign, term in expr.terms:
        faces = _Faces(dice)
        value = term.roll(faces, ROLL_LABEL)
        terms.append((sign, tuple(faces.faces) if faces.faces else (value,), value))
    total = sum(sign * value for sign, _, value in terms)
    return Rolled(actor, str(expr), tuple(terms), total)


# --- how long a mark lasts ---------------------------------------------------------

UNTIL = ("start", "end")
"""The turn of the combatant ``of`` a game master's mark lasts until (``until``): the
start or the end of its next turn."""


def _lasting(state: Encounter, name: str, details: Mapping[str, int | str]) -> dict[str, int | str]:
    """A free mark's details with its duration checked: ``turns: N`` (N turns of its
    bearer, :func:`marks_at_start`), ``until: start|end`` with ``of: ID`` (until the start
    or the end of that combatant's next turn; for the end, ``left`` counts the ends to
    pass: two where it is set in that combatant's own turn, whose end is not its next),
    or neither (until removed).

    Raises:
        Refusal: ``bad_value`` (an ``until`` that is neither, ``of`` without ``until``,
            both ``turns`` and ``until``), ``unknown_combatant`` (``of``).
    """
    until, of = details.get("until"), details.get("of")
    if until is None and of is None:
        return dict(details)
    if until not in UNTIL:
        raise Refusal(
            "bad_value",
            f"status add {name} until: {until!r}: give start or end (of the next turn of `of: ID`)",
        )
    if not isinstance(of, str) or of not in state.combatants:
        raise Refusal(
            "unknown_combatant",
            f"status add {name} of: {of!r} is not a combatant in the fight; valid: "
            f"{', '.join(state.order)}",
        )
    if "turns" in details:
        raise Refusal(
            "bad_value",
            f"status add {name}: give `turns: N` or `until: {until}` with `of`, not both",
        )
    out = {k: v for k, v in details.items() if k != "left"}
    if until == "end":
        out["left"] = 2 if state.turn.actor == of else 1
    return out


def _marks(
    ruleset: Ruleset, state: Encounter, actor: str, *, own: bool
) -> Iterator[tuple[str, str, Mapping[str, int | str]]]:
    """The free-form marks (statuses the ruleset does not read) that ``actor``'s turn
    may end: those that name it (``of``), and with ``own`` its own: bearer, name, details."""
    for c in state.combatants.values():
        for name, details in c.statuses.items():
            names = (own and c.id == actor) or details.get("of") == actor
            if names and ruleset.contract.status(name) is None:
                yield c.id, name, details


def marks_at_start(ruleset: Ruleset, state: Encounter, actor: str) -> list[Event]:
    """The game master's marks at the start of ``actor``'s turn: ``actor``'s own with a
    whole number of ``turns`` count one down (gone when none is left); anyone's that
    lasts ``until: start`` of ``actor``'s next turn ends. The ruleset's own statuses
    tick by its rules."""
    out: list[Event] = []
    for bearer, name, details in _marks(ruleset, state, actor, own=True):
        if details.get("until") == "start" and details.get("of") == actor:
            out.append(StatusCleared(bearer, name))
            continue
        turns = details.get("turns")
        if bearer != actor or type(turns) is not int or "until" in details:
            continue
        if turns <= 1:
            out.append(StatusCleared(bearer, name))
        else:
            out.append(StatusSet(bearer, name, {**details, "turns": turns - 1}))
    return out


def marks_at_end(ruleset: Ruleset, state: Encounter, actor: str) -> list[Event]:
    """The game master's marks at the end of ``actor``'s turn: anyone's that lasts
    ``until: end`` of ``actor``'s next turn counts the end (``left``) and ends at its
    last."""
    out: list[Event] = []
    for bearer, name, details in _marks(ruleset, state, actor, own=False):
        if details.get("until") != "end":
            continue
        left = details.get("left")
        if type(left) is not int or left <= 1:
            out.append(StatusCleared(bearer, name))
        else:
            out.append(StatusSet(bearer, name, {**details, "left": left - 1}))
    return out


# --- initiative --------------------------------------------------------------------


def _initiative(
    ruleset: Ruleset, state: Encounter, params: Mapping[str, Any], dice: Dice
) -> list[Event]:
    """A new turn order: the one given (``order``), or initiative rolled again
    (``roll: true``, :func:`rolled_initiative`)."""
    order = params.get("order")
    each_round = params.get("each_round")
    if each_round is not None:
        if order is not None or "roll" in params:
            raise Refusal(
                "bad_value", "initiative: give `each_round` alone, not with `order` or `roll`"
            )
        if each_round and not rolls_initiative(ruleset, state):
            raise Refusal(
                "no_initiative_roll",
                f"initiative each_round: {ruleset.about.name} rolls no initiative here; "
                "the order is the game master's to set",
            )
        return [InitiativeEachRound(each_round)]
    if params.get("roll") is True:
        if order is not None:
            raise Refusal("bad_value", "initiative: give `order: [ids]` or `roll: true`, not both")
        return rolled_initiative(ruleset, state, dice)
    if order is None:
        raise Refusal(
            "missing_field",
            "initiative needs `order: [ids]` (every combatant once) or `roll: true`",
        )
    return [OrderSet(_permutation(state, order))]


def rolled_initiative(ruleset: Ruleset, state: Encounter, dice: Dice) -> list[Event]:
    """Initiative rolled again mid-fight by the ruleset's own rule
    (:meth:`~fracas.rulesets.base.Ruleset.initiative`), every combatant's kept value
    (:attr:`~fracas.rulesets.base.Contract.initiative_field`) cleared first so that each
    rolls, its dice through ``dice`` (physical dice and a replay give them): the
    ruleset's events (the values kept, the log's lines), then the new order.

    Raises:
        Refusal: ``no_initiative_roll`` where the ruleset keeps no rolled initiative or
            rolls no die for it (an option that orders turns by the file).
    """
    field = ruleset.contract.initiative_field
    faces = _Faces(dice)
    rolled: tuple[tuple[str, ...], list[Event]] = ((), [])
    if field is not None:
        cleared = state
        for cid in state.combatants:
            cleared = cleared.with_sheet(cid, **{field: None})
        rolled = ruleset.initiative(cleared, faces)
    if not faces.faces:
        raise Refusal(
            "no_initiative_roll",
            f"initiative roll: {ruleset.about.name} rolls no initiative here; give the "
            "order: `order: [ids]`",
        )
    order, events = rolled
    return [*events, OrderSet(_permutation(state, order))]


def rolls_initiative(ruleset: Ruleset, state: Encounter) -> bool:
    """Whether initiative may be rolled again in ``state`` (:func:`rolled_initiative`
    rolls a die), asked of seeded dice: nothing is kept."""
    try:
        rolled_initiative(ruleset, state, RandomDice(0))
    except FracasError:
        return False
    return True


def initiative_each_round(ruleset: Ruleset, state: Encounter, dice: Dice) -> list[Event]:
    """At the start of a new round, where the table rolls initiative again each round
    (``HouseRules.reroll_initiative``, the game master's ``initiative`` with
    ``each_round``): :func:`rolled_initiative` through ``dice`` (the ruleset's own rule:
    physical dice, a replay and undo work as for any roll); none otherwise, nor where
    the ruleset rolls no die for it (a file's order)."""
    if not state.table.reroll_initiative:
        return []
    try:
        return rolled_initiative(ruleset, state, dice)
    except Refusal as exc:
        if exc.code == "no_initiative_roll":  # raised before any die: nothing rolled
            return []
        raise


# --- a hidden combatant revealed on its turn ---------------------------------------


def _reveal(state: Encounter, actor: str, on: bool) -> RevealSet:
    """The game master's mark on a hidden ``actor`` (``reveal``): shown to the players
    when its turn next begins (:func:`reveals_at_start`); ``on`` false: the mark is off.

    Raises:
        Refusal: ``not_hidden`` (a mark on a combatant the players see), ``already_set``.
    """
    if on and actor not in state.hidden:
        raise Refusal(
            "not_hidden",
            f"reveal {actor!r}: {state.name(actor)} is not hidden; hide it first",
        )
    if on == (actor in state.reveal_on_turn):
        now = "marked to be revealed" if on else "not marked"
        raise Refusal("already_set", f"reveal {actor!r}: {state.name(actor)} is {now} already")
    return RevealSet(actor, on)


def reveals_at_start(state: Encounter, actor: str) -> list[Event]:
    """At the start of ``actor``'s turn: its reveal, where the game master marked it
    (``reveal``) and it is hidden still."""
    if actor in state.reveal_on_turn and actor in state.hidden:
        return [Revealed(actor)]
    return []
