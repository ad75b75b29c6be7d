"""Pydantic validation turned into fracas errors that name the field and what is valid."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Annotated, Any, get_args

from pydantic import BeforeValidator, TypeAdapter, ValidationError
from pydantic_core import PydanticCustomError
from pydantic_core.core_schema import ErrorType

from fracas.errors import FileError, brief
from fracas.model.frozen import freeze

__all__ = [
    "CONTROL",
    "Locator",
    "TileInput",
    "adapter",
    "build",
    "check_names",
    "control_in",
    "validate",
]

Locator = Callable[[Sequence[str | int]], str]
"""Turns a path inside the file (``("combatants", 0, "traits", 1)``) into ``file:line: field``."""

CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
"""A control character (C0, DEL, C1): no name, id or other text a file names things
with may hold one (a tab breaks a link's name; an escape retitles a terminal)."""


def control_in(text: str) -> str | None:
    """The first control character of ``text`` (None: it has none)."""
    found = CONTROL.search(text)
    return None if found is None else found.group()


def check_names(value: Any, locate: Locator, at: tuple[str | int, ...] = ()) -> None:
    """Refuse a control character in any text of ``value`` (its keys too), with the
    file's one-line error (``bad_name``) at the text's place.

    Raises:
        FileError: ``bad_name``, quoting the text (escaped) and the character.
    """
    todo: list[tuple[Any, tuple[str | int, ...]]] = [(value, at)]
    while todo:
        v, path = todo.pop()
        if isinstance(v, str):
            char = control_in(v)
            if char is not None:
                raise FileError(
                    "bad_name",
                    f"{brief(v)} holds the control character {char!a}: give printable text "
                    "(no tab, newline or escape)",
                    locate(path),
                )
        elif isinstance(v, dict):
            for k, x in reversed(v.items()):
                todo.append((x, (*path, k)))
                todo.append((k, (*path, k)))
        elif isinstance(v, list | tuple):
            todo.extend((x, (*path, i)) for i, x in reversed(list(enumerate(v))))


_CODES = {
    "extra_forbidden": "unknown_field",
    "unexpected_keyword_argument": "unknown_field",  # pydantic dataclasses' extra="forbid"
    "missing": "missing_field",
    "missing_argument": "missing_field",
    "not_a_tile": "bad_value",
}


_ADAPTERS: dict[Any, TypeAdapter[Any]] = {}


def _tile_shape(value: Any) -> Any:
    if isinstance(value, list | tuple) and len(value) == 2:
        return value  # pydantic checks the two numbers
    raise PydanticCustomError("not_a_tile", "not a tile")


TileInput = Annotated[tuple[int, int], BeforeValidator(_tile_shape)]
"""A tile as a file gives it, ``[x, y]``; anything else is ``bad_value`` "is not a tile"."""


def adapter(kind: Any) -> TypeAdapter[Any]:
    """One cached validator per type."""
    found = _ADAPTERS.get(kind)
    if found is None:
        found = _ADAPTERS[kind] = TypeAdapter(kind)
    return found


def build(kind: Any, raw: Any) -> Any:
    """A value the rules read that a ruleset makes from its own data (a built-in weapon):
    ``raw`` validated as ``kind`` and frozen all the way down, as the state's values are
    (:func:`validate` returns what pydantic built: plain dicts, a field's default
    ``{}``). The rules hash such values with the state's (a decision, a cached function's
    arguments), so a value made outside the state must be as frozen as one inside it."""
    return freeze(adapter(kind).validate_python(raw))


def validate(
    kind: Any,
    raw: Any,
    locate: Locator,
    at: tuple[str | int, ...] = (),
    *,
    valid_fields: Sequence[str] = (),
    unknown_code: str = "unknown_field",
    context: Any = None,
) -> Any:
    """Validate ``raw`` as ``kind``; the first problem becomes a :class:`FileError`.

    Args:
        kind: the dataclass (or type) to build.
        raw: the data read from the file.
        locate: names the file and line of a path.
        at: the path of ``raw`` inside the file.
        valid_fields: listed in the message of an unknown field.
        unknown_code: the code of an unknown field (``unknown_option`` for options).
        context: handed to validators that depend on more than the value (a sheet's
            validators read the ruleset's options, e.g. a list of valid names).
    """
    try:
        return adapter(kind).validate_python(raw, context=context)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        loc = at + _data_path(raw, err["loc"])
        kind_ = err["type"]
        code = _CODES.get(kind_, "bad_value" if kind_ in _PYDANTIC_TYPES else kind_)
        given = err.get("input")
        if code == "unknown_field" and kind_ != "unknown_field":
            name = loc[-1] if loc else given
            valid = ", ".join(valid_fields) if valid_fields else "none"
            raise FileError(
                unknown_code, f"{brief(name)} is not a known field; valid: {valid}", locate(loc)
            ) from None
        if code == "missing_field":
            raise FileError(code, f"{loc[-1]!r} is required", locate(loc[:-1]), loc) from None
        message = err["msg"]
        if kind_ == "not_a_tile":
            name = f"{loc[-1]}: " if loc and isinstance(loc[-1], str) else ""
            raise FileError(
                "bad_value", f"{name}{brief(given)} is not a tile; give [x, y]", locate(loc)
            ) from None
        if code == "bad_value":
            message = f"{brief(given)}: {message[0].lower()}{message[1:]}"
        raise FileError(code, message, locate(loc)) from None


_PYDANTIC_TYPES = frozenset(get_args(ErrorType))
"""pydantic's own error types; any other type is one of our codes, raised by a validator."""


def _data_path(raw: Any, loc: Sequence[str | int]) -> tuple[str | int, ...]:
    """The part of pydantic's error location that names places in the data.

    pydantic adds union members and validator names (``int``, ``function-after``)
    to locations; only keys and indexes that exist in the data (and a final
    missing key) name something a user wrote.
    """
    out: list[str | int] = []
    cur = raw
    for i, part in enumerate(loc):
        in_dict = isinstance(cur, dict) and part in cur
        in_list = isinstance(cur, list | tuple) and isinstance(part, int) and 0 <= part < len(cur)
        if in_dict or in_list:
            cur = cur[part]
        elif i == len(loc) - 1 and isinstance(part, str) and isinstance(cur, dict):
            pass  # a missing or unknown key
        else:
            continue
        out.append(part)
    return tuple(out)
