"""What the lab reads of a fight: who is still standing, who won, and the exact
distribution of the states one action leads to (the engine's own planning, replayed
over every face by :func:`~fracas.dice.exact.enumerate_exact`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NoReturn

from fracas.dice.exact import enumerate_exact
from fracas.dice.source import Dice
from fracas.engine import TABLE_ACTIONS, Engine, plan
from fracas.errors import FracasError
from fracas.files import EncounterFile
from fracas.frozen import FrozenDict
from fracas.model import Action, Combatant, Encounter, Event, fold
from fracas.rulesets.base import Ruleset

__all__ = [
    "DRAW",
    "ROUND_FOLD",
    "Outcomes",
    "Transitions",
    "canonical",
    "file_start",
    "fold_runs",
    "next_states",
    "outcome",
    "sides_of",
    "standing",
]

DRAW = "draw"
"""The outcome where no side is left standing (every side down at once, a stalemate, or
the simulation's round cap)."""

ROUND_FOLD = 2
"""Rounds from this one on are one state of the chain (:func:`canonical`): the rules
read the round only to tell the first round from the rest (dice-combat's DC-28)."""


def sides_of(state: Encounter) -> list[str]:
    """Every side of the encounter, in the order they first appear."""
    out: list[str] = []
    for c in state.combatants.values():
        if c.side not in out:
            out.append(c.side)
    return out


def standing(ruleset: Ruleset, state: Encounter) -> list[str]:
    """The sides with at least one combatant that is not down."""
    out: list[str] = []
    for c in state.combatants.values():
        if c.side not in out and not ruleset.is_down(c):
            out.append(c.side)
    return out


def outcome(ruleset: Ruleset, state: Encounter) -> str | None:
    """The side that won, :data:`DRAW` (none left), or None while two or more stand."""
    up = standing(ruleset, state)
    if len(up) >= 2:
        return None
    return up[0] if up else DRAW


def canonical(state: Encounter) -> Encounter:
    """The chain's key of ``state``: the state with its round folded at
    :data:`ROUND_FOLD` (every other field as it is: equal states hash equal)."""
    if state.round <= ROUND_FOLD:
        return state
    return dataclasses.replace(state, round=ROUND_FOLD)


@dataclass(frozen=True)
class Outcomes:
    """The exact distribution of the states one action leads to."""

    states: dict[Encounter, Fraction]
    paths: int
    truncated: Fraction


def next_states(
    ruleset: Ruleset, state: Encounter, action: Action, *, max_paths: int, pin: bool = True
) -> Outcomes:
    """Every state ``action`` taken in ``state`` can lead to, with its exact probability.

    A ruleset action is decided once (its refusal raised here) and only its rolling
    step replayed on every dice path, as :func:`fracas.odds.action_odds` does; the state
    is folded once per distinct run of state-changing events. ``pin``: dice the ruleset
    declares irrelevant to the odds (``DieSpec.odds_relevant``) take face 1.

    Raises:
        FracasError: the action's refusal, or ``too_many_paths`` past ``max_paths``.
    """
    core = action.do in ("end_turn", "move") or action.do in TABLE_ACTIONS
    own = state.turn.actor == action.actor
    decision = None if core or not own else ruleset.decided(state, action)

    def events_of(dice: Dice) -> Hashable:
        if decision is None:
            events = plan(ruleset, state, action, dice)
        else:
            events = ruleset.roll(state, decision, dice)
        changing = tuple(e for e in events if type(e).apply is not Event.apply)
        try:
            hash(changing)
        except TypeError:  # an event with a mapping inside: fold it here
            return fold(state, changing)
        return changing

    skip = frozenset(d.label for d in ruleset.dice if not d.odds_relevant) if pin else frozenset()
    dist = enumerate_exact(
        events_of,
        given=action.dice,
        max_rolls=ruleset.odds_max_rolls,
        max_paths=max_paths,
        irrelevant=skip,
    )
    out: dict[Encounter, Fraction] = {}
    runs = [key for key in dist.outcomes if not isinstance(key, Encounter)]
    folded = fold_runs(state, runs)  # type: ignore[arg-type]
    for key, p in dist.outcomes.items():
        after = key if isinstance(key, Encounter) else folded[key]  # type: ignore[index]
        out[after] = out.get(after, Fraction(0)) + p
    return Outcomes(out, dist.paths, dist.truncated)


def fold_runs(
    state: Encounter, runs: Iterable[tuple[Event, ...]]
) -> dict[tuple[Event, ...], Encounter]:
    """Each run of events folded onto ``state``, as :func:`~fracas.model.fold` does, a
    shared first part once: the runs of one action mostly differ in their last event
    (the damage), so each event is applied once per distinct prefix, not once per run."""
    root: dict[Event, tuple[Encounter, dict[Event, Any]]] = {}
    out: dict[tuple[Event, ...], Encounter] = {}
    for run in runs:
        now, level = state, root
        for event in run:
            found = level.get(event)
            if found is None:
                found = level[event] = (event.apply(now), {})
            now, level = found
        out[run] = now
    return out


class _Touched:
    """Whether a traced number was used (any operation on it) since the last reset."""

    flag = False


def _touch(*_: object) -> NoReturn:
    _Touched.flag = True
    raise _Used


class _Used(Exception):
    """A traced HP was read by the rolling step: its result may depend on HP."""


class _Traced:
    """Stands for an HP and refuses every use of it: comparing, arithmetic, hashing,
    formatting, converting (``__index__``, ``__int__``: ``range(hp)``, ``seq[hp]``),
    any attribute. Not an ``int``: C code reads an int subclass's value without asking
    it. Only identity and type tests see it unrefused, and the rules make neither of an
    HP. A rolling step that finishes every dice path without a refusal never read one."""

    __slots__ = ()

    def __getattr__(self, name: str) -> NoReturn:
        if name.startswith("__"):  # a tool's probe (pytest, doctest): no HP read
            raise AttributeError(name)
        _touch()


_USES = (
    "__eq__ __ne__ __lt__ __le__ __gt__ __ge__ __hash__ __bool__ __index__ __int__ "
    "__float__ __complex__ __add__ __radd__ __sub__ __rsub__ __mul__ __rmul__ "
    "__floordiv__ __rfloordiv__ __truediv__ __rtruediv__ __mod__ __rmod__ __divmod__ "
    "__rdivmod__ __pow__ __rpow__ __neg__ __pos__ __abs__ __invert__ __and__ __rand__ "
    "__or__ __ror__ __xor__ __rxor__ __lshift__ __rlshift__ __rshift__ __rrshift__ "
    "__str__ __repr__ __format__ __round__ __trunc__ __floor__ __ceil__ __reduce__ "
    "__reduce_ex__ __copy__ __deepcopy__ __len__ __iter__ __contains__ __getitem__ "
    "__call__ __bytes__ __fspath__"
)
for _name in _USES.split():
    setattr(_Traced, _name, _touch)

_TRACED = _Traced()


def _leaks(value: object) -> bool:
    """Whether a traced HP sits anywhere inside ``value`` (an event kept it)."""
    if value is _TRACED:
        return True
    if isinstance(value, Encounter | Combatant):
        return True  # a whole state or combatant inside an event: not shared across HPs
    if isinstance(value, tuple | list | frozenset | set):
        return any(_leaks(v) for v in value)
    if isinstance(value, Mapping):
        return any(_leaks(k) or _leaks(v) for k, v in value.items())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return any(_leaks(getattr(value, f.name)) for f in dataclasses.fields(value))
    return False


_CACHE = 100_000
"""Entries a :class:`Transitions` keeps per cache before clearing it."""


class Transitions:
    """:func:`next_states` with two caches: per (state, action), and, where the rolling
    step never read an HP, per (the state without its HPs, action, decision), so one
    enumeration serves every HP the fight goes through.

    The second is checked, not assumed: the enumeration runs on a copy of the state
    whose ``hp`` and ``max_hp`` refuse every use; a rolling step that finishes every
    dice path without touching one, and returns events holding none, gives the same
    events whatever the HPs (only the fold, done on the real state, differs).
    """

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self._exact: dict[tuple[Encounter, Action], Outcomes] = {}
        self._blind: dict[tuple[Encounter, Action, Hashable], _Events] = {}
        self.enumerations = 0
        self.shared = 0

    def next_states(self, state: Encounter, action: Action, *, max_paths: int) -> Outcomes:
        key = (state, action)
        found = self._exact.get(key)
        if found is not None:
            return found
        found = self._compute(state, action, max_paths)
        if len(self._exact) >= _CACHE:
            self._exact.clear()
        self._exact[key] = found
        return found

    def _compute(self, state: Encounter, action: Action, max_paths: int) -> Outcomes:
        rs = self.ruleset
        core = action.do in ("end_turn", "move") or action.do in TABLE_ACTIONS
        if core or state.turn.actor != action.actor or action.dice:
            return next_states(rs, state, action, max_paths=max_paths)
        decision = rs.decided(state, action)
        try:
            blind_key = (_without_hp(state), action, decision)
            hash(blind_key)
        except TypeError:
            return next_states(rs, state, action, max_paths=max_paths)
        events = self._blind.get(blind_key)
        if events is None:
            self.enumerations += 1
            made = _roll_events(rs, state, decision, max_paths)
            if made is None:  # an unhashable event: the plain way
                return next_states(rs, state, action, max_paths=max_paths)
            events, shareable = made
            if shareable:
                if len(self._blind) >= _CACHE:
                    self._blind.clear()
                self._blind[blind_key] = events
        else:
            self.shared += 1
        return _fold_all(state, events)


@dataclass(frozen=True)
class _Events:
    outcomes: dict[Hashable, Fraction]
    paths: int
    truncated: Fraction


def _without_hp(state: Encounter) -> Encounter:
    return dataclasses.replace(
        state,
        combatants=FrozenDict(
            {cid: dataclasses.replace(c, hp=0, max_hp=0) for cid, c in state.combatants.items()}
        ),
    )


def _traced(state: Encounter) -> Encounter:
    traced: Any = _TRACED
    return dataclasses.replace(
        state,
        combatants=FrozenDict(
            {
                cid: dataclasses.replace(c, hp=traced, max_hp=traced)
                for cid, c in state.combatants.items()
            }
        ),
    )


def _roll_events(
    ruleset: Ruleset, state: Encounter, decision: Any, max_paths: int
) -> tuple[_Events, bool] | None:
    """The distribution of the rolling step's state-changing events, and whether it is
    the same for every HP (no traced HP used or kept). Where an HP was used, the
    enumeration runs again on the real state."""
    traced = _traced(state)
    _Touched.flag = False
    try:
        dist = _enumerate(ruleset, traced, decision, max_paths)
    except Exception:  # a refused use, or what the rules made of one
        dist = None
    if dist is not None and not _Touched.flag and not any(_leaks(k) for k in dist.outcomes):
        if _UNHASHABLE in dist.outcomes:
            return None
        return _Events(dist.outcomes, dist.paths, dist.truncated), True
    _Touched.flag = False
    dist = _enumerate(ruleset, state, decision, max_paths)
    if _UNHASHABLE in dist.outcomes:
        return None
    return _Events(dist.outcomes, dist.paths, dist.truncated), False


def _enumerate(ruleset: Ruleset, state: Encounter, decision: Any, max_paths: int) -> Any:
    def events_of(dice: Dice) -> Hashable:
        events = ruleset.roll(state, decision, dice)
        changing = tuple(e for e in events if type(e).apply is not Event.apply)
        try:
            hash(changing)
        except TypeError:
            return _UNHASHABLE
        return changing

    skip = frozenset(d.label for d in ruleset.dice if not d.odds_relevant)
    return enumerate_exact(
        events_of, max_rolls=ruleset.odds_max_rolls, max_paths=max_paths, irrelevant=skip
    )


_UNHASHABLE = "\0unhashable"
"""A path whose events do not hash (a mapping inside): that action goes the plain way."""


def _fold_all(state: Encounter, events: _Events) -> Outcomes:
    out: dict[Encounter, Fraction] = {}
    folded = fold_runs(state, events.outcomes)  # type: ignore[arg-type]
    for key, p in events.outcomes.items():
        after = folded[key]  # type: ignore[index]
        out[after] = out.get(after, Fraction(0)) + p
    return Outcomes(out, events.paths, events.truncated)


def file_start(ef: EncounterFile) -> Encounter:
    """The state after the file's actions (its start, then every action, dice not given
    from its seed): where the lab's fights begin."""
    engine = Engine(ef.ruleset, ef.start, ef.seed, ef.bounds)
    engine.begin(ef.dice, ef.order)
    for i, action in enumerate(ef.actions):
        where = ef.action_where[i] if i < len(ef.action_where) else ""
        try:
            engine.act(action)
        except FracasError as exc:
            raise FracasError(
                exc.code, f"{where}: {exc.message}" if where else exc.message
            ) from None
    return engine.state
