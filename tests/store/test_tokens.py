"""Issue 32: the stores' lookups (a link token's keyed hash -> its encounter and link,
in one indexed read), on SQLite, in memory and on PostgreSQL; stores of the previous
schema gain them; and on PostgreSQL, no token in clear in ``fracas_extras`` and the
default secret file its owner's alone."""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from fracas.io.store import MEMORY, EncounterStore, NewEncounter, StoreError, open_store
from fracas.table import TableService
from fracas.web.links import Links
from tests.store.pgcluster import Cluster
from tests.web.support import FIGHT

NEW = NewEncounter("fight.yaml", "ruleset: x\n", "x", 7)


@pytest.fixture(params=["sqlite", "memory", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EncounterStore]:
    if request.param == "postgres":
        cluster: Cluster = request.getfixturevalue("pg_server")
        opened = open_store(cluster.database())
    else:
        opened = open_store(MEMORY if request.param == "memory" else tmp_path / "s.sqlite3")
    yield opened
    opened.close()


def test_a_lookup_finds_its_encounter_label_and_extra_in_one_read(store: EncounterStore) -> None:
    one = store.create(NEW, [], "one")
    two = store.create(NEW, [], "two")
    store.put_extra(one, "links", b"ONE", {"a1": "gm", "a2": "p1"})
    store.put_extra(two, "links", b"TWO", {"b1": "gm"})
    assert store.find("a2", "links") == ("one", "p1", b"ONE")
    assert store.find("b1", "links") == ("two", "gm", b"TWO")
    assert store.find("b1", "map") == ("two", "gm", None)  # no such extra
    assert store.find("zz", "links") is None
    # a write's lookups replace the encounter's own, with its extra, in one transaction
    store.put_extra(one, "links", b"ONE'", {"a3": "p1"})
    assert store.find("a1", "links") is None and store.find("a2", "links") is None
    assert store.find("a3", "links") == ("one", "p1", b"ONE'")
    store.put_extra(one, "links", b"ONE''")  # no lookups given: the ones there stay
    assert store.find("a3", "links") == ("one", "p1", b"ONE''")
    with pytest.raises(StoreError):  # another encounter's lookup: refused, nothing written
        store.put_extra(one, "links", b"X", {"b1": "p9"})
    assert store.find("a3", "links") == ("one", "p1", b"ONE''")
    assert store.find("b1", "links") == ("two", "gm", b"TWO")
    store.delete(two)  # its lookups go with it
    assert store.find("b1", "links") is None


def test_a_version_2_sqlite_store_gains_the_lookups(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite3"
    store = open_store(db)
    name = store.create(NEW, [], "one")
    store.put_extra(name, "links", b"{}")
    store.close()
    raw = sqlite3.connect(db)
    raw.execute("DROP TABLE lookups")
    raw.execute("PRAGMA user_version = 2")
    raw.commit()
    raw.close()
    again = open_store(db)
    assert again.extra(name, "links") == b"{}"
    again.put_extra(name, "links", b"{}", {"k": "gm"})
    assert again.find("k", "links") == ("one", "gm", b"{}")
    again.close()
    raw = sqlite3.connect(db)
    assert raw.execute("PRAGMA user_version").fetchone() == (3,)
    raw.close()


def test_a_version_2_postgres_store_gains_the_lookups(pg_server: Cluster) -> None:
    import psycopg

    from fracas.io.store.postgres import MIGRATIONS, SCHEMA_VERSION

    location = pg_server.database()
    with psycopg.connect(location, autocommit=True) as conn:  # as fracas left it before
        for step in MIGRATIONS[:2]:
            conn.execute(step)
        conn.execute("UPDATE fracas_schema SET version = 2")
    store = open_store(location)
    name = store.create(NEW, [], "one")
    store.put_extra(name, "links", b"{}", {"k": "gm"})
    assert store.find("k", "links") == ("one", "gm", b"{}")
    store.close()
    with psycopg.connect(location) as conn:
        assert conn.execute("SELECT version FROM fracas_schema").fetchone() == (SCHEMA_VERSION,)


def test_no_token_in_clear_in_postgres_and_its_secret_is_private(
    pg_server: Cluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What anyone who can read ``fracas_extras`` (or a dump of it) has: no token; the
    default secret file (fracas's data directory) 0600 in a 0700 directory."""
    import psycopg

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("FRACAS_SECRET_FILE", raising=False)
    old = os.umask(0o022)
    try:
        location = pg_server.database()
        store = open_store(location)
        TableService(store).create(FIGHT, "fight.yaml", name="fight", seed=1)
        links = Links(store)
        minted = [links.gm("fight"), links.gm("fight")]
        link, token = links.add("fight", "Pat", ["ana"])
        minted.append(token)
        _, token = links.add("fight", "Lee", ["cy"])
        minted.append(token)
        links.revoke("fight", link.id)
        minted += links.renew("fight").values()  # Lee's again
        assert links.identify(minted[-1])[0] == "fight"
        # a clear token an older fracas kept is migrated: gone from the rows
        clear = secrets.token_urlsafe(32)
        store.create(NEW, [], "old")
        gm = {"id": "gm", "name": "gm", "token": clear, "owns": [], "revoked": False}
        store.put_extra("old", "links", json.dumps({"version": 2, "links": {"gm": gm}}).encode())
        assert links.migrate() == 1 and links.identify(clear)[0] == "old"
        minted.append(clear)
        with psycopg.connect(location) as conn:
            rows = conn.execute("SELECT body FROM fracas_extras").fetchall()
            found = conn.execute("SELECT lookup, label FROM fracas_lookups").fetchall()
        text = b"".join(bytes(r[0]) for r in rows) + str(found).encode()
        assert len(minted) == 6 and not [t for t in minted if t.encode() in text]
        secret = tmp_path / "data" / "fracas" / "secret"
        assert stat.S_IMODE(secret.stat().st_mode) == 0o600
        assert stat.S_IMODE(secret.parent.stat().st_mode) == 0o700
        store.close()
    finally:
        os.umask(old)
