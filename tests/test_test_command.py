"""README's test command is what CI runs, and it brings what the tests need beyond
Python: axe-core for the accessibility tests, which fail (never skip) without it."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from tests.web.test_a11y import AXE_DEFAULT, AXE_INSTALL, ROOT, require_axe

sys.path.append(str(ROOT / "tools"))
import bundle  # tools/bundle.py: run by hand, not a package


def _readme_test_command() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"Set up and run the tests.*?```sh\n(.*?)\n```", readme, re.S)
    assert block is not None, "README has no test command"
    return block[1].strip()


def test_ci_runs_readmes_test_command_literally() -> None:
    command = _readme_test_command()
    assert command in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()


def test_readmes_test_command_installs_axe_core_where_the_a11y_tests_look() -> None:
    """The command is a script that runs the one install command the a11y tests and the
    bundle's tool name (``npm ci``: package.json's pins, into node_modules), from the
    repository root, before pytest (with the slow tests)."""
    script = (ROOT / _readme_test_command()).read_text(encoding="utf-8").splitlines()
    assert AXE_INSTALL in script and AXE_INSTALL == bundle.NPM_INSTALL
    pytest_line = next(i for i, line in enumerate(script) if "-m pytest -q --slow" in line)
    assert script.index(AXE_INSTALL) < pytest_line
    assert 'cd "$(dirname "$0")/.."' in script[: script.index(AXE_INSTALL)]
    assert AXE_DEFAULT == ROOT / "node_modules" / "axe-core" / "axe.min.js"
    pins = json.loads((ROOT / "package.json").read_text())["devDependencies"]
    assert set(pins) == {"axe-core", "esbuild"} and pins["esbuild"] == bundle.ESBUILD
    locked = json.loads((ROOT / "package-lock.json").read_text())["packages"]
    assert {n: locked[f"node_modules/{n}"]["version"] for n in pins} == pins


def test_without_axe_core_the_a11y_tests_fail_naming_the_command(tmp_path: Path) -> None:
    with pytest.raises(pytest.fail.Exception) as failed:
        require_axe(tmp_path / "axe.min.js")
    assert str(failed.value) == (
        f"axe-core is not installed at {tmp_path / 'axe.min.js'}: run `{AXE_INSTALL}` "
        "(README's test command, .ci/test, does), or name an axe.min.js in FRACAS_AXE"
    )
    require_axe(Path(__file__))  # a file that exists: nothing to say
