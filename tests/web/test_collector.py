"""The server's garbage collector (``fracas.web.collector``): what the server holds at
its start, and what survives each full collection, is left out of the next ones; every
``thaw`` seconds one walks everything again, and a cycle that became garbage meanwhile
is freed then."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from fracas.web.collector import THAW, Collector


class Node:
    """An object that can hold a cycle and be watched by a weak reference."""

    me: Node | None = None


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Iterator[Clock]:
    yield Clock()
    gc.unfreeze()  # whatever a test left, the others start from the usual collector


def _walked(obj: object) -> bool:
    """Whether a collection would walk ``obj`` (it is not frozen)."""
    return any(o is obj for o in gc.get_objects())


def test_what_is_there_at_the_start_and_what_survives_a_full_collection_is_frozen(
    clock: Clock,
) -> None:
    held = [Node()]
    collector = Collector(clock=clock)
    collector.start()
    try:
        assert not _walked(held) and gc.get_freeze_count() > 0
        later = [Node()]
        assert _walked(later)
        gc.collect(1)  # a younger collection freezes nothing
        assert _walked(later)
        gc.collect()
        assert not _walked(later) and collector.thaws == 0
    finally:
        collector.stop()
    assert _walked(held) and _walked(later)  # stopped: the collector as it was
    assert collector._after not in gc.callbacks


def test_every_thaw_seconds_a_full_collection_walks_all_and_frees_dead_cycles(
    clock: Clock,
) -> None:
    collector = Collector(clock=clock)
    collector.start()
    try:
        node = Node()
        node.me = node  # a cycle: freed by the collector alone
        alive = weakref.ref(node)
        gc.collect()
        assert not _walked(node)
        del node
        clock.now = THAW - 1
        gc.collect()
        assert alive() is not None  # frozen: no collection walks it
        clock.now = THAW
        gc.collect()  # the survivors given back
        assert collector.thaws == 1 and gc.get_freeze_count() == 0
        gc.collect()  # walks everything, then freezes again
        assert alive() is None and gc.get_freeze_count() > 0
    finally:
        collector.stop()
