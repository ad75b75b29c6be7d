"""Small pieces of log wording that several rulesets share."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["signed_terms"]


def signed_terms(parts: Sequence[tuple[str, int]]) -> str:
    """A roll's modifiers as the log writes them: `` + 2 agi - 2 burst`` (zeros left out).

    >>> signed_terms((("agi", 2), ("luck", 0), ("burst", -2)))
    ' + 2 agi - 2 burst'
    """
    return "".join(f" {'+' if v > 0 else '-'} {abs(v)} {name}" for name, v in parts if v)
