"""The slow tests (the longest property tests) run with ``--slow`` (CI, README's test
command); a developer's plain ``pytest`` leaves them out and takes under a minute.

CI runs the tests on two pytest-xdist workers (``-n 2 --dist loadgroup``, ``.ci/test``);
plain ``pytest`` runs them in one process as before. The tests that must not share the
machine with their like run on one worker, in an ``xdist_group`` (:func:`group_of`):
those of the session's one throwaway PostgreSQL cluster (one cluster per worker would be
two), and those on a terminal or timed against the clock (floods, limits, kills).

The run leaves no process behind: it reaps its descendants' orphans
(:func:`tests.procs.become_subreaper`) and, at its end, fails naming every process
of it still running (:func:`tests.procs.leftovers`), which it then kills. Under xdist
each worker checks its own descendants and hands what it found to the controller, which
reports them with its own (checked once its workers have been shut down)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tests import procs
from tests.store.pgcluster import pg_server  # noqa: F401  (the session's throwaway PostgreSQL)

PG = "postgresql"
"""The group of the tests that use the PostgreSQL cluster (``pg_server``, or one of
their own from ``tests/store/pgcluster.py``)."""
SERIAL = "serial"
"""The group of the tests on a terminal (pexpect) or timed against the clock."""
TIMED = {
    "tests/play/test_crash.py",
    "tests/play/test_play_pty.py",
    "tests/web/test_browser_crash.py",
    "tests/web/test_fuzz_slow.py",
    "tests/web/test_limits.py",
    "tests/web/test_link_flood.py",
}
"""Modules of :data:`SERIAL` by name (besides every ``*kill*`` and pexpect module)."""
LEFTOVERS = "fracas_leftovers"
"""The key under which an xdist worker hands the controller the processes it left."""
_left_by_workers: list[str] = []


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", help="also run the tests marked slow (CI does)")


def pytest_configure(config: pytest.Config) -> None:
    procs.become_subreaper()


@cache
def _source(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def group_of(item: pytest.Item) -> str | None:
    """The xdist group ``item`` runs in, None for the tests any worker may run."""
    text = _source(item.path) if item.path.suffix == ".py" else ""
    if "pg_server" in getattr(item, "fixturenames", ()) or "pg_server" in text:
        return PG
    if "pgcluster" in text:
        return PG
    try:
        relative = item.path.relative_to(item.config.rootpath).as_posix()
    except ValueError:  # a test outside the project (a run of a test's own)
        relative = ""
    if relative in TIMED or "kill" in item.path.name or "import pexpect" in text:
        return SERIAL
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        group = group_of(item)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --slow (CI does)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """The controller: a worker is done; keep what it found left behind."""
    output: dict[str, Any] = getattr(node, "workeroutput", None) or {}
    _left_by_workers.extend(output.get(LEFTOVERS, ()))


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """After every fixture's teardown (and, in the controller, after xdist has shut its
    workers down): no process of the run may still run."""
    left = procs.leftovers()
    workeroutput: dict[str, Any] | None = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker: the controller reports
        worker = session.config.workerinput["workerid"]  # type: ignore[attr-defined]
        workeroutput[LEFTOVERS] = [f"{worker}: {line}" for line in left]
        return
    left = _left_by_workers + left
    if not left:
        return
    reporter: pytest.TerminalReporter | None = session.config.pluginmanager.get_plugin(
        "terminalreporter"
    )
    title = f"the test run left {len(left)} process(es) behind (now killed)"
    if reporter is not None:
        reporter.ensure_newline()
        reporter.write_sep("=", title, red=True)
        for line in left:
            reporter.write_line(line, red=True)
    else:
        print(title, *left, sep="\n")
    session.exitstatus = pytest.ExitCode.TESTS_FAILED
