"""The page's side of a PostgreSQL restart under a running server: an action sent while
the server is away is refused with ``store_unavailable`` (nothing written, the page's
view unchanged), the same action sent again once it is back is stored, once."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from fracas.io.store import open_store
from fracas.table import TableService
from fracas.web.app import create_app
from fracas.web.links import Links, Secret
from tests.store.pgcluster import Cluster
from tests.web.multiprocess import FIGHT, add_action


def reply(ws: Any) -> dict[str, Any]:
    """The next done or refused (pushed syncs skipped)."""
    for _ in range(10):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] in ("done", "refused"):
            return message
    raise AssertionError("no reply")


def test_an_action_while_postgres_restarts_is_refused_then_taken(
    pg_server: Cluster, tmp_path: Path
) -> None:
    store = open_store(pg_server.database(), durable=False)
    service = TableService(store)
    table = service.create(FIGHT, "fight.yaml", name="fight", seed=11)
    links = Links(store, Secret.random())  # not the user's data directory's (issue 32)
    gm = links.gm("fight")
    with (
        ThreadPoolExecutor(1) as pool,
        TestClient(create_app(service, links, pool)) as client,
        client.websocket_connect(f"/ws?token={gm}") as ws,
    ):
        ws.send_json({"type": "hello", "seq": 0})
        seq = ws.receive_json()["seq"]
        pg_server.stop("fast")
        try:
            ws.send_json({"type": "act", "id": 1, "seq": seq, "action": add_action(0)})
            refused = reply(ws)
            assert refused["type"] == "refused" and refused["code"] == "store_unavailable"
            assert "try again" in refused["message"] and "Traceback" not in str(refused)
            assert table.seq == seq
        finally:
            pg_server.start()
        ws.send_json({"type": "act", "id": 2, "seq": seq, "action": add_action(0)})
        done = reply(ws)
        assert done == {"type": "done", "id": 2, "seq": seq + 1}
    records = store.load("fight").records
    assert len(records) == seq + 1 and records[-1]["action"]["combatant"]["id"] == "z0"
    store.close()
