"""Pydantic validation turned into fracas errors that name the field and what is valid."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pydantic import TypeAdapter, ValidationError

from fracas.errors import FileError

__all__ = ["Locator", "adapter", "validate"]

Locator = Callable[[Sequence[str | int]], str]
"""Turns a path inside the file (``("combatants", 0, "traits", 1)``) into ``file:line: field``."""

_CODES = {
    "extra_forbidden": "unknown_field",
    "unexpected_keyword_argument": "unknown_field",  # pydantic dataclasses' extra="forbid"
    "missing": "missing_field",
    "literal_error": "bad_value",
    "int_parsing": "bad_value",
    "int_type": "bad_value",
    "bool_parsing": "bad_value",
    "bool_type": "bad_value",
    "string_type": "bad_value",
}


_ADAPTERS: dict[Any, TypeAdapter[Any]] = {}


def adapter(kind: Any) -> TypeAdapter[Any]:
    """One cached validator per type."""
    found = _ADAPTERS.get(kind)
    if found is None:
        found = _ADAPTERS[kind] = TypeAdapter(kind)
    return found


def validate(
    kind: type[Any],
    raw: Any,
    locate: Locator,
    at: tuple[str | int, ...] = (),
    *,
    valid_fields: Sequence[str] = (),
    unknown_code: str = "unknown_field",
) -> Any:
    """Validate ``raw`` as ``kind``; the first problem becomes a :class:`FileError`.

    Args:
        kind: the dataclass (or type) to build.
        raw: the data read from the file.
        locate: names the file and line of a path.
        at: the path of ``raw`` inside the file.
        valid_fields: listed in the message of an unknown field.
        unknown_code: the code of an unknown field (``unknown_option`` for options).
    """
    try:
        return adapter(kind).validate_python(raw)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        loc: tuple[str | int, ...] = at + tuple(
            p for p in err["loc"] if not (isinstance(p, str) and p.startswith("function-"))
        )
        code = _CODES.get(err["type"], err["type"])
        given = err.get("input")
        if code == "unknown_field" and err["type"] != "unknown_field":
            name = loc[-1] if loc else given
            valid = ", ".join(valid_fields) if valid_fields else "none"
            raise FileError(
                unknown_code, f"{name!r} is not a known field; valid: {valid}", locate(loc)
            ) from None
        if code == "missing_field":
            raise FileError(code, f"{loc[-1]!r} is required", locate(loc[:-1])) from None
        message = err["msg"]
        if code == "bad_value":
            message = f"{given!r}: {message[0].lower()}{message[1:]}"
        raise FileError(code, message, locate(loc)) from None
