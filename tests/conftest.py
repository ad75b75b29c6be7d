"""The slow tests (the longest property tests) run with ``--slow`` (CI, README's test
command); a developer's plain ``pytest`` leaves them out and takes under a minute."""

from __future__ import annotations

import pytest

from tests.store.pgcluster import pg_server  # noqa: F401  (the session's throwaway PostgreSQL)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", help="also run the tests marked slow (CI does)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --slow (CI does)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
