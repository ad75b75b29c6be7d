"""Two ``fracas serve`` processes on one PostgreSQL, one SIGKILLed at a random moment of
a scripted session (``bench/stress_pg.py`` runs many by hand): the pages reconnect to
the other and catch up; no acknowledged action lost or doubled."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.store.pgcluster import Cluster
from tests.web.multiprocess import trial


@pytest.mark.parametrize("seed", [1, 2])
def test_a_server_killed_mid_session_loses_and_doubles_nothing(
    pg_server: Cluster, tmp_path: Path, seed: int
) -> None:
    result = trial(pg_server.database(), tmp_path, random.Random(seed))
    assert (result.lost, result.doubled) == (0, 0)
    assert result.acked + result.stored_unacked == 12


@pytest.mark.slow
def test_ten_kill_trials(pg_server: Cluster, tmp_path: Path) -> None:
    rng = random.Random(14)
    for i in range(10):
        home = tmp_path / str(i)
        home.mkdir()
        result = trial(pg_server.database(), home, rng)
        assert (result.lost, result.doubled) == (0, 0)
