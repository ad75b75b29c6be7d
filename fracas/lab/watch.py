"""Combatants that note who was looked at: the one tracing device of the lab's two
proofs (``transitions``: what a rolling step read; ``folds``: what a fold read).

:func:`watched` makes a :class:`~fracas.model.frozen.FrozenDict` class whose look-ups by id
note the id in a :class:`Notes`, and whose wider looks (iterating, counting, copying,
hashing, comparing) note that everything was read. :meth:`set` (what
``Encounter.with_combatant`` calls) keeps the watch on the mapping it makes, without
reading the others.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, cast

from fracas.model import Combatant
from fracas.model.frozen import FrozenDict

__all__ = ["Notes", "peek", "watched"]


class Notes:
    """What watched combatants were asked for since the last :meth:`reset`."""

    def __init__(self) -> None:
        self.ids: set[str] = set()
        self.wide = False

    def reset(self) -> None:
        self.ids, self.wide = set(), False


def peek(combatants: Mapping[str, Combatant], cid: str) -> Combatant | None:
    """``combatants.get(cid)`` past the notes (a look that is not the traced code's)."""
    return dict.get(cast(dict[str, Combatant], combatants), cid)


def watched(notes: Notes) -> type[FrozenDict[str, Combatant]]:
    """A FrozenDict class of combatants noting its look-ups in ``notes``."""

    def wide(method: str) -> Callable[..., Any]:
        real = getattr(FrozenDict, method)

        def look(self: FrozenDict[str, Combatant], *args: Any) -> Any:
            notes.wide = True
            return real(self, *args)

        return look

    class Watched(FrozenDict[str, Combatant]):
        __slots__ = ()

        def __getitem__(self, cid: str) -> Combatant:
            notes.ids.add(cid)
            return dict.__getitem__(self, cid)

        def get(self, cid: str, default: Any = None) -> Any:
            notes.ids.add(cid)
            return dict.get(self, cid, default)

        def __contains__(self, cid: object) -> bool:
            notes.ids.add(str(cid))
            return dict.__contains__(self, cid)

        def __iter__(self) -> Iterator[str]:
            notes.wide = True
            return dict.__iter__(self)

        def set(self, key: str, value: Combatant) -> FrozenDict[str, Combatant]:
            out = dict(dict.items(self))  # dict's own view: not a look of the code's
            out[key] = value
            return Watched(out)

        __len__ = wide("__len__")
        keys = wide("keys")
        values = wide("values")
        items = wide("items")
        copy = wide("copy")
        merged = wide("merged")
        __hash__ = wide("__hash__")
        __eq__ = wide("__eq__")
        __ne__ = wide("__ne__")
        __or__ = wide("__or__")
        __ror__ = wide("__ror__")
        __reversed__ = wide("__reversed__")
        __reduce__ = wide("__reduce__")
        __repr__ = wide("__repr__")

    return Watched
