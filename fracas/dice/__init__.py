"""Dice: the source protocol, seeded and given sources, the exact enumerator and its
budget, notation."""

from fracas.dice.budget import Budget, Cancel
from fracas.dice.exact import Distribution, enumerate_exact
from fracas.dice.notation import Expression, parse
from fracas.dice.source import Dice, GivenDice, RandomDice, Roll, label_keys, label_of

__all__ = [
    "Budget",
    "Cancel",
    "Dice",
    "Distribution",
    "Expression",
    "GivenDice",
    "RandomDice",
    "Roll",
    "enumerate_exact",
    "label_keys",
    "label_of",
    "parse",
]
