"""What the server's worker processes run (:mod:`fracas.web.workers`): the table's
questions answered (a tap's odds, the advisor's list, a win bar's slice), and what a
worker loads before its first question (:func:`ready`). Light on purpose: a task is
pickled by its function's name, and unpickling it imports this module, not the web's
stack (Starlette, the sockets), which a worker never uses."""

from __future__ import annotations

import importlib
from typing import Any

from fracas.rulesets import rulesets
from fracas.table import AdviceQuestion, Odds, OddsQuestion, WinQuestion

__all__ = ["advice", "odds", "ready", "win"]


def odds(question: OddsQuestion) -> Odds:
    """The odds' worker: a tap's odds (off the event loop, another core)."""
    return question.answer()


def win(question: WinQuestion) -> dict[str, Any]:
    """The bar's worker: one slice of a win bar."""
    return question.answer()


def advice(question: AdviceQuestion) -> dict[str, Any]:
    """The advisor's list (the odds' worker) or its chances to win (the bar's)."""
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
