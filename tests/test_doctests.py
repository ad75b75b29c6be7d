"""The package's doctests, collected only from the modules that have any.

``--doctest-modules`` over all of ``fracas`` imported every module of the package at
collection (about 19 s) to find doctests in a handful. Here the modules are found by
their text (a ``>>>`` in the source, as ``grep -rl '>>>' fracas`` finds them), so a
module that gains a doctest, or moves, is collected without a list to keep; each
docstring's examples are one test, run as pytest ran them (``ELLIPSIS``, the module's
globals)."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
PACKAGE = ROOT / "fracas"


def modules_with_doctests() -> list[str]:
    """The dotted names of the package's modules whose source has a ``>>>``."""
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if ">>>" in path.read_text(encoding="utf-8"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def doctests(module: str) -> list[doctest.DocTest]:
    """The docstrings of ``module`` that have examples."""
    found = doctest.DocTestFinder().find(importlib.import_module(module))
    return sorted((t for t in found if t.examples), key=lambda t: t.name)


MODULES = modules_with_doctests()
CASES = [pytest.param(t, id=t.name) for m in MODULES for t in doctests(m)]


def test_every_module_with_a_prompt_has_doctests_that_run_here() -> None:
    """A ``>>>`` outside a docstring would be a doctest that runs nowhere."""
    assert MODULES, "no module of the package has a doctest"
    assert [m for m in MODULES if not doctests(m)] == []


@pytest.mark.parametrize("test", CASES)
def test_doctest(test: doctest.DocTest) -> None:
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    out: list[str] = []
    result = runner.run(test, out=out.append)
    assert result.failed == 0, "".join(out)
