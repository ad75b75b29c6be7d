"""Free rolls off the table (issue 36): ``fracas roll`` and ``fracas odds --roll``
read d20's notation through here, the table's door, as the faces read everything else.
A roll at the table is an action (``roll``, :mod:`fracas.engine.table_actions`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fracas.dice.d20_odds import FreeOdds as FreeOdds  # the type the faces read

__all__ = ["free_roll_json", "free_roll_odds"]


def free_roll_json(text: str, seed: int | None) -> dict[str, object]:
    """A free notation rolled with seeded dice: ``{"notation", "total", "dice", "shown",
    "seed"}``.

    Raises:
        FracasError: the notation refused (see :func:`fracas.dice.d20_tree.parse_free`).
    """
    from fracas.dice.d20_free import roll_json  # d20's grammar (~60 ms): only for a roll

    return roll_json(text, seed)


def free_roll_odds(text: str, depth: int | None = None) -> FreeOdds:
    """The exact odds of a free notation's total (an estimate only where an explosion
    is cut at ``depth`` new dice: :class:`~fracas.dice.d20_odds.FreeOdds`).

    Raises:
        FracasError: the notation refused, or ``odds_too_large``.
    """
    from fracas.dice.d20_free import free_odds_of

    return free_odds_of(text, depth)
