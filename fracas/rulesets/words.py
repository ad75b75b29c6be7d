"""Small pieces of log wording that several rulesets share."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["attached_terms", "signed_terms"]


def signed_terms(parts: Sequence[tuple[str, int]]) -> str:
    """A roll's modifiers as the log writes them: `` + 2 agi - 2 burst`` (zeros left out).

    >>> signed_terms((("agi", 2), ("luck", 0), ("burst", -2)))
    ' + 2 agi - 2 burst'
    """
    return "".join(f" {'+' if v > 0 else '-'} {abs(v)} {name}" for name, v in parts if v)


def attached_terms(parts: Sequence[tuple[str, int]]) -> str:
    """A roll's modifiers with the sign on the number: `` +2 agi +0 luck -2 burst`` (zeros
    kept).

    >>> attached_terms((("agi", 2), ("luck", 0), ("burst", -2)))
    ' +2 agi +0 luck -2 burst'
    """
    return "".join(f" {'+' if v >= 0 else '-'}{abs(v)} {name}" for name, v in parts)
