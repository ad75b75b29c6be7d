"""The one parse of what a page sends (issue 33): ``fracas.web.guard.json_object``, as
the links API, the setup API and the socket call it, each with its own refusal."""

from __future__ import annotations

import pytest

from fracas.errors import FracasError
from fracas.web.guard import json_object


@pytest.mark.parametrize(
    ("raw", "kwargs", "code"),
    [
        (b"{", {}, "bad_json"),
        (b"[" * 16_000, {}, "bad_json"),  # past the parser's recursion limit
        (b"[" * 16_000, {"too_deep": "too_large"}, "too_large"),
        (b"[1, 2]", {}, "bad_json"),
        ("[1, 2]", {"not_object": "bad_message"}, "bad_message"),
        (b'{"a": [[[[1]]]]}', {"deepest": 3, "too_deep": "too_large"}, "too_large"),
    ],
)
def test_a_refusal_names_its_code(raw: bytes | str, kwargs: dict[str, str], code: str) -> None:
    with pytest.raises(FracasError) as info:
        json_object(raw, FracasError, **kwargs)  # type: ignore[arg-type]
    assert info.value.code == code


def test_an_object_within_its_depth_is_read() -> None:
    assert json_object(b'{"a": [[[1]]]}', FracasError, deepest=4) == {"a": [[[1]]]}
    assert json_object(b"", FracasError) == {}  # an empty body: no fields
