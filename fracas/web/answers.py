"""What the server's worker processes run (:mod:`fracas.web.workers`): a question of
the table answered (a tap's odds, the advisor's list, a win bar's slice), and what a
worker loads before its first question (:func:`ready`). Light on purpose: a task is
pickled by its function's name, and unpickling it imports this module, not the web's
stack (Starlette, the sockets), which a worker never uses."""

from __future__ import annotations

import importlib
from typing import Protocol, TypeVar

from fracas.rulesets import rulesets

__all__ = ["answer", "ready"]

_T = TypeVar("_T")
_T_co = TypeVar("_T_co", covariant=True)


class _Question(Protocol[_T_co]):
    """A question of the table (:mod:`fracas.table.questions`): it answers itself."""

    def answer(self) -> _T_co: ...


def answer(question: _Question[_T]) -> _T:
    """A worker's task: ``question`` answered (the odds' worker: a tap's odds and the
    advisor's list; the bar's: a win bar's slice and the advisor's chances to win)."""
    return question.answer()


def ready() -> None:
    """A worker's start (:func:`fracas.web.workers.pool`'s ``ready``): what its first
    question would load, loaded before it is asked: every ruleset (a question's state
    holds one) and the lab's advisor and bar (the advice and the win bar's questions
    import them where they are asked). On a fresh server the first tap's odds waited
    0.55 s for the worker to start and load them."""
    for name in _ANSWERED_WITH:
        importlib.import_module(name)
    rulesets()


_ANSWERED_WITH = ("fracas.lab.advisor", "fracas.lab.bar", "fracas.lab.keep")
"""The modules the table's questions import where they are asked."""
