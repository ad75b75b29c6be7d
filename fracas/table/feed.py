"""The change feed of a table: every listener hears of every change, in order: records
appended (by this process or, caught up, by another) and changes that write no record
(a physical die asked for, the dice mode, a player's request waiting or answered)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from fracas.engine.play import Record

__all__ = ["Change", "Feed"]


@dataclass(frozen=True, slots=True)
class Change:
    """One change of a table: the records it appended (none for a change of what waits:
    a die asked for, the dice mode, a request)."""

    table: str
    records: tuple[Record, ...]
    seq: int
    """The sequence number the next record will take."""


Listener = Callable[[Change], None]


class Feed:
    """Listeners of one table. A listener is called in the writer's thread, after the
    records are durable; it must be quick (hand the change to a queue or a loop)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Hear every later change; returns the function that stops it."""
        with self._lock:
            self._listeners.append(listener)

        def stop() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return stop

    def publish(self, table: str, records: Sequence[Record], seq: int) -> None:
        """Tell every listener of ``records`` appended to ``table`` (now at ``seq``), or,
        with none, of a change that wrote no record."""
        change = Change(table, tuple(records), seq)
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            listener(change)

    def __len__(self) -> int:
        return len(self._listeners)
