"""Dice sources: the one protocol every rule asks for its rolls.

A rule calls ``dice.roll(20, "attack")``. It never knows whether the face
comes from a seeded generator, from a player's physical die typed in by the
game master, from a replayed log, or from the exact enumerator.

Labels (``../shared/rules/README.md``, "Dice"): every roll has a name (its role
in the rules). A roll made for one combatant of several passes ``of=id`` and is
labelled ``name:id``; the Nth of a repeated roll passes ``n=N`` and is labelled
``name:N``; both: ``name:id:N``. Given dice may use the full label or a
shorter one (``defend`` for ``defend:bo``) where only one such roll happens.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from fracas.errors import DiceError

__all__ = ["Dice", "GivenDice", "RandomDice", "Roll", "label_keys", "label_of"]


class Dice(Protocol):
    """Anything that can answer a roll."""

    def roll(self, sides: int, label: str, *, of: str | None = None, n: int | None = None) -> int:
        """Return one face in ``1..sides`` for the roll named ``label``."""
        ...


def label_of(name: str, of: str | None = None, n: int | None = None) -> str:
    """The full label of a roll: ``name``, ``name:id``, ``name:N`` or ``name:id:N``."""
    label = name
    if of is not None:
        label += f":{of}"
    if n is not None:
        label += f":{n}"
    return label


def label_keys(name: str, of: str | None, n: int | None) -> tuple[str, ...]:
    """Every key a given value may use for this roll, most specific first."""
    keys = [label_of(name, of, n)]
    if of is not None and n is not None:
        keys += [f"{name}:{of}", f"{name}:{n}"]
    if of is not None or n is not None:
        keys.append(name)
    return tuple(keys)


@dataclass(frozen=True, slots=True)
class Roll:
    """One die as rolled: its full label, its size and its face."""

    label: str
    sides: int
    value: int


class RandomDice:
    """Seeded random dice: the same seed gives the same faces, no global state."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**32)
        self._rng = random.Random(self.seed)

    def roll(self, sides: int, label: str, *, of: str | None = None, n: int | None = None) -> int:
        return self._rng.randint(1, sides)

    def getstate(self) -> object:
        """The generator's state, to put back when an action is refused."""
        return self._rng.getstate()

    def setstate(self, state: object) -> None:
        self._rng.setstate(state)  # type: ignore[arg-type]


class GivenDice:
    """Given faces by label first, the fallback source for the rest; records every roll.

    This is how physical dice and replays enter the rules: ``given`` maps a
    label to its faces in the order rolled. After the action,
    :meth:`check_used` refuses values the action never rolled and short labels
    that matched more than one roll.
    """

    def __init__(self, given: Mapping[str, Sequence[int]], fallback: Dice | None) -> None:
        self._given = {key: list(values) for key, values in given.items()}
        self._queues = {key: list(values) for key, values in given.items()}
        self._fallback = fallback
        self._matched: dict[str, set[str]] = {}
        self.rolls: list[Roll] = []

    def reset(self) -> None:
        """Forget what was taken, so the same given faces serve another replay."""
        self._queues = {key: list(values) for key, values in self._given.items()}
        self._matched.clear()
        self.rolls.clear()

    def roll(self, sides: int, label: str, *, of: str | None = None, n: int | None = None) -> int:
        full = label_of(label, of, n)
        value: int | None = None
        for key in label_keys(label, of, n):
            queue = self._queues.get(key)
            if queue is None:
                continue
            self._matched.setdefault(key, set()).add(full)
            if queue and value is None:
                value = queue.pop(0)
                if not 1 <= value <= sides:
                    raise DiceError(
                        "die_out_of_range",
                        f"die {key!r} = {value!r} is not a face of a d{sides}: give 1..{sides}",
                    )
        if value is None:
            if self._fallback is None:
                raise DiceError("missing_die", f"no value given for die {full!r} (a d{sides})")
            value = self._fallback.roll(sides, label, of=of, n=n)
        self.rolls.append(Roll(full, sides, value))
        return value

    def usage(self) -> dict[str, tuple[int, frozenset[str]]]:
        """Per given label: how many of its values this run took, and the rolls it matched."""
        return {
            key: (len(self._given[key]) - len(queue), frozenset(self._matched.get(key, ())))
            for key, queue in self._queues.items()
        }

    def check_used(self) -> None:
        """Refuse given values the action never rolled, and ambiguous short labels."""
        rolled = sorted({r.label for r in self.rolls})
        for key, queue in self._queues.items():
            matched = self._matched.get(key, set())
            if len(matched) > 1:
                raise DiceError(
                    "ambiguous_die_label",
                    f"die label {key!r} matches {len(matched)} rolls "
                    f"({', '.join(sorted(matched))}): name one of them",
                )
            if queue:
                if not matched:
                    what = ", ".join(rolled) if rolled else "no dice"
                    raise DiceError(
                        "unused_die",
                        f"die label {key!r} is never rolled by this action (it rolled: {what})",
                    )
                used = len(self._given[key]) - len(queue)
                raise DiceError(
                    "unused_die",
                    f"die label {key!r} has {len(self._given[key])} values but the action "
                    f"rolled it {used} time(s)",
                )
