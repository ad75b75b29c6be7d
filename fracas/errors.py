"""The one root error type, with a stable code on every refusal.

Every error fracas raises on purpose is a :class:`FracasError`. Its ``code`` is
stable (tests, JSON output and later the web tracker match on it); its message
quotes the bad input with ``!r`` and says what would be valid.

Every message is cut here to a readable line (:data:`MESSAGE_LIMIT`): a quoted
value of any size ends as a few of its items and ``…`` (:func:`brief`), and a
message still too long keeps its start (the value) and its end (what is valid).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = [
    "MESSAGE_LIMIT",
    "VALID_LIMIT",
    "DiceError",
    "FileError",
    "FracasError",
    "Path",
    "PluginError",
    "Refusal",
    "UnknownRuleError",
    "UnknownRulesetError",
    "Where",
    "brief",
    "cut",
    "dotted",
]

MESSAGE_LIMIT = 240
"""Characters of a message (and of a ``where``) before its middle is cut."""
VALID_LIMIT = 1000
"""Characters of a message's list of what is valid before its middle is cut."""

_ITEMS = 3
"""Items of a mapping or list that :func:`brief` shows."""
_TEXT = 40
"""Characters of a string that :func:`brief` shows."""
_DIGITS = 20
"""Digits of an integer that :func:`brief` shows."""


def brief(value: Any, width: int = 60) -> str:
    """``repr(value)``, elided where longer than ``width``: ``{'a': [1, 2, …]}``.

    Never builds the whole ``repr`` of a large value (nor the digits of a huge int).
    """
    text = _brief(value, 0, full=True)
    return text if len(text) <= width else _brief(value, 0, full=False)


def _brief(value: Any, depth: int, *, full: bool) -> str:
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        if value.bit_length() > 3 * _DIGITS:  # about 18 digits: do not print them all
            digits = int(value.bit_length() * 0.30103) + 1
            return f"<an integer of about {digits} digits>"
        return repr(value)
    if isinstance(value, str):
        if (full and len(value) <= 4 * _TEXT) or len(value) <= _TEXT:
            return repr(value)
        return repr(value[:_TEXT])[:-1] + "…" + repr(value[:_TEXT])[-1]
    if isinstance(value, dict):
        items = list(value.items())
        shown = items if full and len(items) <= 4 * _ITEMS else items[:_ITEMS]
        if depth >= 2 and not full:
            shown = []
        parts = [
            f"{_brief(k, depth + 1, full=full)}: {_brief(v, depth + 1, full=full)}"
            for k, v in shown
        ]
        if len(shown) < len(items):
            parts.append("…")
        return "{" + ", ".join(parts) + "}"
    if isinstance(value, list | tuple | set | frozenset):
        seq = sorted(value, key=repr) if isinstance(value, set | frozenset) else list(value)
        shown = seq if full and len(seq) <= 4 * _ITEMS else seq[:_ITEMS]
        if depth >= 2 and not full:
            shown = []
        parts = [_brief(v, depth + 1, full=full) for v in shown]
        if len(shown) < len(seq):
            parts.append("…")
        if isinstance(value, tuple):
            return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
        if isinstance(value, list):
            return "[" + ", ".join(parts) + "]"
        return "{" + ", ".join(parts) + "}"
    text = repr(value)
    return text if len(text) <= 4 * _TEXT else text[: 4 * _TEXT] + "…"


def cut(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` cut to ``limit`` characters: its start and its end, `` … `` between.

    A list of what is valid (after ``valid:``) is what a user needs: it is kept whole
    (up to :data:`VALID_LIMIT`), and the part before it is cut to ``limit``.
    """
    head, sep, valid = text.partition("valid: ")
    if sep and len(text) > limit:
        return _middle(head, limit) + sep + _middle(valid, VALID_LIMIT)
    return _middle(text, limit)


def _middle(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    tail = limit // 3
    head = limit - tail - 3
    return f"{text[:head]} … {text[-tail:]}"


class FracasError(Exception):
    """Root of every error fracas raises on purpose."""

    def __init__(self, code: str, message: str) -> None:
        message = cut(message)
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled whole, so an error raised in a worker process (the odds' process pool)
        arrives as itself, whatever its class's constructor takes."""
        return (_restore, (type(self), self.args, dict(self.__dict__)))


def _restore(cls: type[FracasError], args: tuple[Any, ...], state: dict[str, Any]) -> FracasError:
    error = cls.__new__(cls)
    Exception.__init__(error, *args)
    error.__dict__.update(state)
    return error


class Refusal(FracasError, ValueError):
    """An action the rules refuse. Raised before any die is rolled; consumes nothing.
    ``field``: the action's field it is about, where one is (``combatant.hp`` of an
    ``add``; ``""``: none), for a page to point at its control."""

    field: str = ""


class DiceError(FracasError, ValueError):
    """Dice given for an action that do not fit it (out of range, never rolled, ambiguous)."""


Path = tuple[str | int, ...]
"""A place inside a file: ``("combatants", 0, "hp")``."""


class Where(str):
    """A ``where`` text (``FILE:LINE: combatants[0].hp``) that keeps the path it names
    as data (:attr:`path`), so no face parses it back out of the words."""

    path: Path

    def __new__(cls, text: str, path: Path = ()) -> Where:
        made = super().__new__(cls, text)
        made.path = tuple(path)
        return made


def dotted(path: Sequence[str | int]) -> str:
    """A path inside a file as a field name: ``actions[2].dice.attack``."""
    out = ""
    for p in path:
        if isinstance(p, str) and len(p) > _KEY:  # a key of any size as a short name
            p = p[:_KEY] + "…"
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else p)
    return out


_KEY = 40
"""Characters of a key shown in a field's name."""


class FileError(FracasError, ValueError):
    """An encounter file that cannot be read or does not validate.

    ``where`` names the file, and the line and field where known; ``path`` is the field
    as data (``("combatants", 1, "hp")``; a missing field's own name included), and
    :attr:`field` the same as a dotted name.
    """

    def __init__(self, code: str, message: str, where: str = "", path: Path | None = None) -> None:
        super().__init__(code, message)
        self.path: Path = tuple(path) if path is not None else getattr(where, "path", ())
        self.where = cut(where)

    @property
    def field(self) -> str:
        """The field it is about, dotted (``combatants[1].hp``; ``""``: the whole file)."""
        return dotted(self.path)

    def __str__(self) -> str:
        prefix = f"{self.where}: " if self.where else ""
        return f"{prefix}{self.code}: {self.message}"


class UnknownRulesetError(FracasError, LookupError):
    """A ruleset name that is not registered."""


class UnknownRuleError(FracasError, LookupError):
    """A rule ID that is not one of the ruleset's (``fracas rules RULESET RULE_ID``)."""


class PluginError(FracasError):
    """An installed ruleset that fails to load: an entry point of the group
    ``fracas.rulesets`` whose module does not import, whose object is not a ruleset
    class, or whose ruleset's name is taken. ``plugin`` is the entry point's name; fracas
    plays every other ruleset, and names this one with its error."""

    def __init__(self, code: str, message: str, plugin: str = "") -> None:
        super().__init__(code, message)
        self.plugin = plugin
