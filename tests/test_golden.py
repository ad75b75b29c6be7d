"""Golden: every example (three seeds) and every saved session prints what it printed
when the corpus was captured (``tests/golden/capture.py``): the ``--json`` states, the
logs, the events and the exact odds."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.golden.capture import EXPECTED, ROOT, cases, output

_EXPECTED: dict[str, Any] = json.loads(EXPECTED.read_text())


def test_corpus_covers_every_case() -> None:
    assert sorted(_EXPECTED) == sorted(name for name, _ in cases())


@pytest.mark.parametrize(("name", "args"), cases(), ids=[name for name, _ in cases()])
def test_golden(name: str, args: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    assert output(args) == _EXPECTED[name]
