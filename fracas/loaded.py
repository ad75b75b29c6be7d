"""What a process of fracas has loaded, kept out of the garbage collector's walks
(issue 34, item 5: what the profile of a process's first odds shows).

A fresh process holds some 46,000 objects its imports made: modules, classes,
functions, the rulesets' tables and contracts. CPython's cyclic collector walks every
object of its oldest generation in a full collection, and the first full collection
after the imports came during the first odds a process works out: in the wasteland
frag grenade on three victims it took 25 of the call's 57 ms (``bench/bench_odds.py``
(6)). Those objects live as long as the process and are never garbage, so
:func:`settle` moves everything the process holds now into the permanent generation
(:func:`gc.freeze`), which no collection walks; what is made afterwards is collected as
before. Only when collections walk changes, never what is computed.

Where: the command line once its command is imported, before it reads a file
(:mod:`fracas.cli`); a server's worker process once it has loaded what it answers
with (:mod:`fracas.web.workers`). A server itself freezes what it holds when it starts
to serve, and again after each full collection (:mod:`fracas.web.collector`).
"""

from __future__ import annotations

import gc

__all__ = ["settle"]


def settle() -> int:
    """Keep every object the process holds now out of the collector's walks; the
    number of objects so kept (all of them since the process began)."""
    gc.freeze()
    return gc.get_freeze_count()
