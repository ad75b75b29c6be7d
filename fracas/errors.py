"""The one root error type, with a stable code on every refusal.

Every error fracas raises on purpose is a :class:`FracasError`. Its ``code`` is
stable (tests, JSON output and later the web tracker match on it); its message
quotes the bad input with ``!r`` and says what would be valid.
"""

from __future__ import annotations

__all__ = [
    "DiceError",
    "FileError",
    "FracasError",
    "Refusal",
    "UnknownRuleError",
    "UnknownRulesetError",
]


class FracasError(Exception):
    """Root of every error fracas raises on purpose."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


class Refusal(FracasError, ValueError):
    """An action the rules refuse. Raised before any die is rolled; consumes nothing."""


class DiceError(FracasError, ValueError):
    """Dice given for an action that do not fit it (out of range, never rolled, ambiguous)."""


class FileError(FracasError, ValueError):
    """An encounter file that cannot be read or does not validate.

    ``where`` names the file, and the line and field where known.
    """

    def __init__(self, code: str, message: str, where: str = "") -> None:
        super().__init__(code, message)
        self.where = where

    def __str__(self) -> str:
        prefix = f"{self.where}: " if self.where else ""
        return f"{prefix}{self.code}: {self.message}"


class UnknownRulesetError(FracasError, LookupError):
    """A ruleset name that is not registered."""


class UnknownRuleError(FracasError, LookupError):
    """A rule ID that is not one of the ruleset's (``fracas rules RULESET RULE_ID``)."""
