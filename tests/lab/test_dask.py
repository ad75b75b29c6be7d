"""``fracas lab sim --executor dask://``: the same result as the local pool, through a
Dask ``LocalCluster`` (the extra fracas[dask])."""

from __future__ import annotations

import pytest

from fracas.errors import FracasError
from fracas.lab.sim import simulate
from tests.lab.duels import ESCALATION, duel


def test_dask_local_cluster_equals_local_pool() -> None:
    distributed = pytest.importorskip("distributed")
    text = duel(ESCALATION, 9, 10)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        address = cluster.scheduler_address.removeprefix("tcp://")
        on_dask = simulate(text, "duel", 600, seed=5, executor=f"dask://{address}").to_json()
    assert on_dask == simulate(text, "duel", 600, seed=5, workers=1).to_json()


def test_executor_must_be_dask_url() -> None:
    with pytest.raises(FracasError) as err:
        simulate(duel(ESCALATION, 3, 3), "duel", 10, executor="spark://x:1")
    assert err.value.code == "bad_value" and "dask://HOST:PORT" in err.value.message
