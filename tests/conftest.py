"""The slow tests (the longest property tests) run with ``--slow`` (CI, README's test
command); a developer's plain ``pytest`` leaves them out and takes under a minute.

The run leaves no process behind: it reaps its descendants' orphans
(:func:`tests.procs.become_subreaper`) and, at its end, fails naming every process
of it still running (:func:`tests.procs.leftovers`), which it then kills."""

from __future__ import annotations

import pytest

from tests import procs
from tests.store.pgcluster import pg_server  # noqa: F401  (the session's throwaway PostgreSQL)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", help="also run the tests marked slow (CI does)")


def pytest_configure(config: pytest.Config) -> None:
    procs.become_subreaper()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --slow (CI does)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """After every fixture's teardown: no process of the run may still run."""
    left = procs.leftovers()
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
