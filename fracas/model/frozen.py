"""Immutable, hashable containers for the state: :class:`FrozenDict` and :func:`freeze`.

The encounter state is a value: equal states, however they were reached, compare
and hash equal, so exact odds can merge paths by state and a Markov chain can key
its states. A :class:`FrozenDict` is a ``dict`` that cannot change after it is
built (C-speed lookups, JSON-ready as it is) and hashes by its items, whatever
their insertion order.

>>> a = FrozenDict({"turns": 2, "damage": 1})
>>> a == FrozenDict({"damage": 1, "turns": 2}) and hash(a) == hash(FrozenDict(damage=1, turns=2))
True
>>> a.set("turns", 1)
FrozenDict({'turns': 1, 'damage': 1})
>>> a["turns"] = 1
Traceback (most recent call last):
TypeError: a FrozenDict cannot change; build a new one (set, merged)
>>> freeze({"limbs": {"head": [1, 2]}})
FrozenDict({'limbs': FrozenDict({'head': (1, 2)})})
>>> thaw(freeze({"limbs": {"head": [1, 2]}, "marks": {"b", "a"}}))
{'limbs': {'head': [1, 2]}, 'marks': ['a', 'b']}
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, NoReturn, TypeVar

__all__ = [
    "EMPTY",
    "SCALARS",
    "FrozenDict",
    "HashKept",
    "canonical",
    "evolve",
    "freeze",
    "kept_hash",
    "thaw",
]

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")


class HashKept:
    """A slot for a value's hash, kept once it is first asked for: the state's values
    are hashed again and again (the exact odds and the lab key dicts by them). Not a
    field: ``dataclasses.fields``, pickling, :func:`evolve` and ``replace`` never see
    it, so a copy or a value from another process hashes afresh. A frozen dataclass
    deriving from it says ``__hash__ = kept_hash`` (or writes its own that keeps it)."""

    __slots__ = ("_hash",)
    _hash: int


def kept_hash(obj: Any) -> int:
    """The hash of a :class:`HashKept` dataclass's fields, as a frozen dataclass's own,
    worked out once: for a decision hashed at every node of the exact odds."""
    try:
        return obj._hash  # type: ignore[no-any-return]
    except AttributeError:
        h = hash(tuple([getattr(obj, name) for name in obj.__dataclass_fields__]))
        object.__setattr__(obj, "_hash", h)
        return h


class FrozenDict(dict[K, V]):
    """A ``dict`` that never changes and hashes by its items (order-independent)."""

    __slots__ = ("_hash",)
    _hash: int

    def __hash__(self) -> int:  # type: ignore[override]
        try:
            return self._hash
        except AttributeError:
            h = self._hash = hash(frozenset(self.items()))
            return h

    def _refuse(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("a FrozenDict cannot change; build a new one (set, merged)")

    __setitem__ = __delitem__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse
    __ior__ = _refuse

    def __repr__(self) -> str:
        return f"FrozenDict({dict.__repr__(self)})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenDict, (dict(self),))

    def __copy__(self) -> FrozenDict[K, V]:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenDict[K, V]:
        return self

    def set(self, key: K, value: V) -> FrozenDict[K, V]:
        """A copy with ``key`` set to ``value``."""
        out = dict(self)
        out[key] = value
        return FrozenDict(out)

    def merged(self, other: Mapping[K, V]) -> FrozenDict[K, V]:
        """A copy with every item of ``other`` set."""
        return FrozenDict({**self, **other})


EMPTY: FrozenDict[Any, Any] = FrozenDict()
"""The empty frozen mapping (a default for dataclass fields)."""

_CANONICAL: dict[Any, Any] = {}
CANONICAL_KEPT = 4096
"""Values :func:`canonical` keeps before it starts afresh."""


def canonical(value: T) -> T:
    """The first value met equal to ``value`` (``value`` itself the first time): equal
    values of the rules (options, a weapon, a victim) then are one object, and a memo
    keyed by them (``functools.lru_cache``) finds them at once, by identity, instead of
    comparing every field of two equal copies (a file loaded again, a state rebuilt).
    An unhashable value is given back as it is."""
    try:
        found: T | None = _CANONICAL.get(value)
    except TypeError:
        return value
    if found is None:
        if len(_CANONICAL) >= CANONICAL_KEPT:
            _CANONICAL.clear()
        found = _CANONICAL[value] = value
    return found


def freeze(value: Any) -> Any:
    """``value`` made immutable all the way down: mappings to :class:`FrozenDict`, lists
    and tuples to tuples, sets to frozensets, dataclass instances with their fields frozen
    (rebuilt only where something changed)."""
    if type(value) in SCALARS:  # the common case (event details, sheet numbers): at once
        return value
    if type(value) is FrozenDict:
        if all(_is_frozen(v) for v in value.values()):
            return value
        return FrozenDict({k: freeze(v) for k, v in value.items()})
    if isinstance(value, Mapping):
        return FrozenDict({freeze(k): freeze(v) for k, v in value.items()})
    if type(value) is tuple and all([type(v) in SCALARS for v in value]):
        return value  # a tuple of numbers or names (a sheet's list): frozen already
    if isinstance(value, list | tuple):
        items = tuple(freeze(v) for v in value)
        if isinstance(value, tuple) and type(value) is not tuple:  # a NamedTuple keeps its type
            return value if items == tuple(value) else type(value)(*items)
        return items
    if isinstance(value, set | frozenset):
        return frozenset(freeze(v) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {}
        for f in dataclasses.fields(value):
            old = getattr(value, f.name)
            new = freeze(old)
            if new is not old:
                changes[f.name] = new
        return dataclasses.replace(value, **changes) if changes else value
    return value


SCALARS = frozenset({str, int, float, bool, type(None)})
"""The types of value that are frozen as they are."""


def _is_frozen(value: Any) -> bool:
    return isinstance(value, str | int | float | bool | type(None) | FrozenDict | frozenset) or (
        isinstance(value, tuple) and all(_is_frozen(v) for v in value)
    )


def thaw(value: Any) -> Any:
    """``value`` as plain data, what JSON and YAML writers take: dataclass instances and
    mappings to dicts (keys as text), tuples and lists to lists, sets to lists in one
    order (whatever the hash seed)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: thaw(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): thaw(v) for k, v in value.items()}
    if isinstance(value, frozenset | set):
        return sorted((thaw(v) for v in value), key=repr)
    if isinstance(value, tuple | list):
        return [thaw(v) for v in value]
    return value


_EVOLVERS: dict[type, Callable[[Any, dict[str, Any]], Any]] = {}


def evolve(obj: T, **changes: Any) -> T:
    """``dataclasses.replace`` for the state's frozen dataclasses, without re-running
    ``__init__`` (nor a validating one): the fields are copied, the changes set, and
    ``__post_init__`` (which freezes mappings) run. Folding events calls it for every
    change of state, on every path of the exact odds.

    >>> from fracas.model import Turn
    >>> evolve(Turn("ana"), actor="bo")
    Turn(actor='bo', actions_used=0, over=False, flags=frozenset(), used=FrozenDict({}), walked=0)
    """
    cls = type(obj)
    made = _EVOLVERS.get(cls)
    if made is None:
        made = _EVOLVERS[cls] = _evolver(cls)
    result: T = made(obj, changes)
    return result


def _evolver(cls: type) -> Callable[[Any, dict[str, Any]], Any]:
    """The copy-and-change function of one dataclass, written out field by field (as
    ``dataclasses`` writes its ``__init__``): no loop, no look-up of a field by name."""
    names = [f.name for f in dataclasses.fields(cls)]
    post = getattr(cls, "__post_init__", None)
    lines = ["def evolve(obj, changes):", "    new = make(cls)"]
    for name in names:
        lines.append(
            f"    put(new, {name!r}, changes[{name!r}] if {name!r} in changes else obj.{name})"
        )
    if post is not None:
        lines.append("    post(new)")
    lines.append("    return new")
    scope: dict[str, Any] = {
        "make": object.__new__,
        "put": object.__setattr__,
        "cls": cls,
        "post": post,
    }
    exec("\n".join(lines), scope)  # the code is made of field names only
    made: Callable[[Any, dict[str, Any]], Any] = scope["evolve"]
    return made
