"""Items and weapons described by a short-hand: ``pistol`` or ``{is: pistol, loaded: 2}``.

Several rulesets let a file name a base item and override some of its fields;
this is the one pydantic before-validator that expands it and refuses unknown
short-hands and fields with a message listing the valid ones.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic_core import PydanticCustomError

__all__ = ["expand_shorthand"]


def expand_shorthand(
    value: Any,
    shorthands: Mapping[str, Mapping[str, Any]],
    kind: type[Any],
    *,
    what: str,
    unknown_code: str,
    name_it: bool = True,
) -> Any:
    """A short-hand string, or a mapping with ``is:``, becomes the base's fields with the
    given ones on top; any other key than the fields of the dataclass ``kind`` is refused.

    Args:
        value: what the file gives.
        shorthands: base fields by short-hand name.
        kind: the item or weapon dataclass.
        what: ``item`` or ``weapon``, for messages.
        unknown_code: the code of an unknown short-hand.
        name_it: the short-hand becomes the ``name`` unless the file gives one.
    """
    if isinstance(value, str):
        value = {"is": value}
    if isinstance(value, dict) and "is" in value:
        base_name = value["is"]
        base = shorthands.get(base_name) if isinstance(base_name, str) else None
        if base is None:
            raise PydanticCustomError(
                unknown_code,
                "{given} is not a {what} short-hand; valid: {valid}",
                {"given": repr(base_name), "what": what, "valid": ", ".join(shorthands)},
            )
        rest = {k: v for k, v in value.items() if k != "is"}
        value = {"name": base_name, **base, **rest} if name_it else {**base, **rest}
    if isinstance(value, dict):
        fields = kind.__dataclass_fields__
        unknown = [k for k in value if k not in fields]
        if unknown:
            raise PydanticCustomError(
                "unknown_field",
                "{given} is not a {what} field; valid: {valid}",
                {"given": repr(unknown[0]), "what": what, "valid": ", ".join(["is", *fields])},
            )
    return value
