"""Random encounter files, valid and broken, of every ruleset through the command line
(in-process, click's runner): `fracas run`, `run --json`, `odds` and `odds --json` never
print a traceback and end with exit status 0 or 1; with `--json` stdout is one JSON
object (a result, or `{"error": ...}`); the plain command and its `--json` twin end
alike: the same status, the same `error:` line, which says what the JSON's error holds,
and the same log. A file without a seed rolls from a fresh one each time (the contract's
default): `run` is given one (``--seed 0``) to compare, and its odds are not compared.

The files come from :mod:`tests.random_files`. ``--hypothesis-show-statistics`` shows
how they ended (played through, an action refused, a file error) per ruleset.
"""

from __future__ import annotations

import json
import traceback
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, Phase, event, given, settings

from fracas.cli import main
from tests.random_files import RULESET_NAMES, encounter_file

ODDS_BUDGET = ("--budget", "250")
"""Each odds request's time budget (ms): past it, a marked estimate (as for any file)."""


def _seeded(text: str) -> bool:
    """Whether the file names its seed (one that is no mapping is an error either way)."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return True
    return not isinstance(data, dict) or "seed" in data


def _invoke(args: tuple[str, ...], path: Path) -> Result:
    result = CliRunner().invoke(main, [*args, str(path)])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        crash = "".join(traceback.format_exception(result.exception))
        raise AssertionError(f"fracas {' '.join(args)} FILE crashed:\n{crash}")
    return result


def _error_line(error: dict[str, Any]) -> str:
    """The ``error:`` line a JSON error stands for."""
    code, message, where = error["code"], error["message"], error["where"]
    if "action" in error:
        return f"error: action {error['action']} ({where}): {code}: {message}"
    return f"error: {where}{': ' if where else ''}{code}: {message}"


def check(path: Path) -> str:
    """Every property of the module for the file at ``path``; how ``run`` ended."""
    ended = ""
    seeded = _seeded(path.read_text(encoding="utf-8"))
    run = ("run",) if seeded else ("run", "--seed", "0")
    for plain_args, json_args in (
        (run, (*run, "--json")),
        (("odds", *ODDS_BUDGET), ("odds", "--json", *ODDS_BUDGET)),
    ):
        plain, as_json = _invoke(plain_args, path), _invoke(json_args, path)
        for r in (plain, as_json):
            assert r.exit_code in (0, 1), (r.exit_code, r.stdout, r.stderr)
            assert "Traceback" not in r.stdout + r.stderr
            lines = r.stderr.splitlines()
            assert (r.exit_code == 1) == (lines != []), r.stderr
            assert len(lines) <= 1 and all(line.startswith("error: ") for line in lines)
        out = json.loads(as_json.stdout)
        assert isinstance(out, dict)
        assert ("error" in out) == (as_json.exit_code == 1), as_json.stdout[-500:]
        if as_json.exit_code == 1:
            assert as_json.stderr == _error_line(out["error"]) + "\n"
        if not seeded and plain_args[0] == "odds":
            continue  # the actions before the last rolled from two fresh seeds
        assert (plain.exit_code, plain.stderr) == (as_json.exit_code, as_json.stderr), (
            plain.stderr,
            as_json.stderr,
        )
        if plain_args == run:
            ended = "played" if plain.exit_code == 0 else "file error"
            if "action" in out.get("error", {}):
                ended = f"action {out['error']['action']} refused"
            if "log" in out:  # played (in full or up to the refused action): the same log
                shown = plain.stdout.splitlines()
                assert all(line in shown for line in out["log"])
    return ended


@pytest.fixture(scope="module")
def here(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("random-files")


def _check_made(here: Path, made: tuple[str, str, str]) -> None:
    ruleset, name, text = made
    path = here / name
    path.write_text(text, encoding="utf-8")
    event(f"{ruleset}: {check(path)}")


_SETTINGS: dict[str, Any] = {
    "deadline": None,
    # No shrinking: a failure prints the whole file, and shrinking a file that is played
    # as it is made takes minutes.
    "phases": [Phase.explicit, Phase.reuse, Phase.generate],
    "suppress_health_check": [HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
}


@settings(max_examples=40, **_SETTINGS)
@given(made=encounter_file())
def test_random_files_end_with_a_result_or_one_error_line(here: Path, made: Any) -> None:
    _check_made(here, made)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESET_NAMES)
def test_many_random_files_end_with_a_result_or_one_error_line(here: Path, ruleset: str) -> None:
    """600 files in all, 120 of each ruleset (one test each: the two workers share them)."""

    @settings(max_examples=120, **_SETTINGS)
    @given(made=encounter_file((ruleset,)))
    def each(made: Any) -> None:
        _check_made(here, made)

    each()
