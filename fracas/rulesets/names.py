"""Sheet validators of names (pydantic): a name one of a closed set, weapons of distinct
names. Their errors carry a code and a message that quotes the name and lists the valid."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Protocol, TypeVar

from pydantic import ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

__all__ = ["check_listed", "not_one_of", "one_of", "unique_names"]


def not_one_of(
    code: str, what: str, given: str, valid: Sequence[str], more: str = ""
) -> PydanticCustomError:
    """The error of a name not in ``valid``: ``'x' is not a {what}; valid: a, b{more}``."""
    return PydanticCustomError(
        code,
        "{given} is not a {what}; valid: {valid}" + more,
        {"given": repr(given), "what": what, "valid": ", ".join(valid)},
    )


def one_of(name: str, valid: Sequence[str], code: str, what: str) -> str:
    """``name``, refused (:func:`not_one_of`) unless it is in ``valid``."""
    if name not in valid:
        raise not_one_of(code, what, name, valid)
    return name


def check_listed(
    model: str,
    field: str,
    named: Iterable[tuple[str | int, str]],
    valid: Sequence[str],
    code: str,
    what: str,
    more: str = "",
) -> None:
    """For a model's after-validator (the valid names depend on other fields): every
    ``(key, name)`` of ``field`` names one of ``valid``; the first that does not is a
    :func:`not_one_of` error at ``field[key]``."""
    for key, name in named:
        if name not in valid:
            error = not_one_of(code, what, name, valid, more)
            raise ValidationError.from_exception_data(
                model, [InitErrorDetails(type=error, loc=(field, key), input=name)]
            )


class _Named(Protocol):
    @property
    def name(self) -> str: ...


N = TypeVar("N", bound=_Named)


def unique_names(message: str) -> Callable[[tuple[N, ...]], tuple[N, ...]]:
    """A pydantic after-validator of a sheet's weapons: two of one name are refused
    (``duplicate_weapon``; actions name weapons). ``message`` is the ruleset's sentence,
    with ``{name}`` for the name given twice."""

    def check(weapons: tuple[N, ...]) -> tuple[N, ...]:
        seen: set[str] = set()
        for w in weapons:
            if w.name in seen:
                raise PydanticCustomError("duplicate_weapon", message, {"name": repr(w.name)})
            seen.add(w.name)
        return weapons

    return check
