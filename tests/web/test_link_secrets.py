"""Issue 32, item 1: link tokens kept as secrets.

The store holds no token in clear (its bytes, with the WAL and its index, grepped for
every token ever minted, the game master's included); a store of an older fracas, its
tokens in clear, is migrated at the first ``fracas serve`` (said once; the same links
open the same tables; the clear bytes gone from its files); a start under another
secret refuses with ``wrong_secret`` until ``--new-links`` makes links that work; the
store, its WAL, its secret and the directories fracas makes are its owner's alone.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import stat
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from fracas.io.store import NewEncounter, open_store
from fracas.table import TableService
from fracas.web.links import LinkError, Links, secret_for
from fracas.web.serve import start_links
from tests.web.multiprocess import FIGHT, ROOT, Server


@pytest.fixture(autouse=True)
def umask() -> Iterator[None]:
    """The usual umask (022): what fracas makes is 0600 / 0700 by its own doing."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def store_bytes(db: Path) -> bytes:
    """The store's file, its WAL and the WAL's index, as anyone who can read them has them."""
    out = b""
    for end in ("", "-wal", "-shm"):
        part = Path(f"{db}{end}")
        if part.exists():
            out += part.read_bytes()
    return out


def in_clear(db: Path, tokens: list[str]) -> list[str]:
    found = store_bytes(db)
    return [t for t in tokens if t.encode() in found]


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def state(port: int, token: str) -> tuple[int, dict[str, object]]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/state", headers={"Authorization": f"Bearer {token}"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_no_token_is_in_the_store_in_clear(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite3"
    store = open_store(db)
    table = TableService(store).create(FIGHT, "fight.yaml", name="fight", seed=1)
    links = Links(store)
    minted = [links.gm("fight"), links.gm("fight")]  # the first one replaced
    gm, players = start_links(links, table)
    minted += [gm, *(token for _, _, token in players)]
    pat, token = links.add("fight", "Pat", ["ana"])
    minted.append(token)
    links.assign("fight", pat.id, ["ana", "cy"])
    links.revoke("fight", pat.id)
    minted += links.renew("fight").values()
    assert links.identify(gm)[1].id == "gm"
    with pytest.raises(LinkError):
        links.identify(token)  # revoked
    assert Path(f"{db}-wal").exists()  # the WAL is read too, while the store is open
    assert len(minted) == 8 and not in_clear(db, minted)
    # the store's text holds none of them either (as a dump of it would)
    text = store.extra("fight", "links") or b""
    assert b'"token"' not in text and not [t for t in minted if t.encode() in text]
    store.close()
    assert not in_clear(db, minted)


def test_what_fracas_makes_is_its_owners_alone(tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir(mode=0o755)
    db = mine / "made" / "by" / "fracas" / "s.sqlite3"
    store = open_store(db)
    TableService(store).create(FIGHT, "fight.yaml", name="fight", seed=1)
    Links(store).gm("fight")
    for part in (db, Path(f"{db}-wal"), Path(f"{db}-shm"), Path(f"{db}.secret")):
        assert mode(part) == 0o600, part
    for directory in (mine / "made", db.parent.parent, db.parent):
        assert mode(directory) == 0o700, directory
    assert mode(mine) == 0o755  # not fracas's: left as it was
    assert len(Path(f"{db}.secret").read_bytes()) == 32
    store.close()
    # a store an older fracas made 0644: 0600 from its next open
    for part in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
        if part.exists():
            part.chmod(0o644)
    open_store(db).close()
    assert mode(db) == 0o600


def old_links(tokens: dict[str, str]) -> bytes:
    """Links as fracas kept them before issue 32: every token in clear."""
    links = {
        lid: {"id": lid, "name": "gm" if lid == "gm" else f"Player {lid}", "token": token,
              "owns": [] if lid == "gm" else ["ana"], "revoked": False}
        for lid, token in tokens.items()
    }  # fmt: skip
    return json.dumps({"version": 2, "links": links}).encode()


def test_clear_tokens_are_migrated_once_and_leave_the_files(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite3"
    store = open_store(db)
    tokens: dict[str, dict[str, str]] = {}
    for i in range(3):
        name = store.create(NewEncounter("fight.yaml", FIGHT, "dice-combat", i), [], f"old-{i}")
        tokens[name] = {"gm": secrets.token_urlsafe(32), "p1": secrets.token_urlsafe(32)}
        store.put_extra(name, "links", old_links(tokens[name]))
    store.close()
    every = [t for links in tokens.values() for t in links.values()]
    assert in_clear(db, every) == every  # as an older fracas left them
    # the first start migrates them (said once), and prints the same game master's link
    first = Server(str(db), "old-1", tmp_path)
    try:
        said = "\n".join(first.lines)
        assert "migrated the links of 3 encounters: tokens are now kept as keyed hashes" in said
        assert first.tokens["gm"] == tokens["old-1"]["gm"]
        assert not in_clear(db, every)  # with the server running: file, WAL and index
        for kept in tokens.values():
            for token in kept.values():
                assert state(first.port, token)[0] == 200
        assert state(first.port, secrets.token_urlsafe(32))[0] == 403
    finally:
        first.stop()
    again = Server(str(db), "old-2", tmp_path)
    try:
        assert not [line for line in again.lines if "migrated the links" in line]
        assert again.tokens["gm"] == tokens["old-2"]["gm"]
    finally:
        again.stop()
    store = open_store(db)
    served = Links(store)
    for name, kept in tokens.items():
        for lid, token in kept.items():
            encounter, link = served.identify(token)
            assert (encounter, link.id) == (name, lid)
    store.close()
    assert not in_clear(db, every)


@pytest.fixture
def short_tmp() -> Iterator[Path]:
    """A directory with a short path: the refusal names the secret file whole only while
    its message stays under ``fracas.errors.MESSAGE_LIMIT``, and an xdist worker's
    ``tmp_path`` is longer (``.../popen-gw0/...``)."""
    path = Path(tempfile.mkdtemp(prefix="fracas-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def test_another_secret_refuses_until_new_links(short_tmp: Path) -> None:
    tmp_path = short_tmp
    db = tmp_path / "s.sqlite3"
    (tmp_path / "fight.yaml").write_text(FIGHT)
    first = Server(str(db), str(tmp_path / "fight.yaml"), tmp_path)
    old = first.tokens
    first.stop()
    secret = Path(f"{db}.secret")
    secret.unlink()  # lost (or the store copied without it): fracas makes another
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    command = [sys.executable, "-m", "fracas", "serve", "fight", "--db", str(db), "--port", "0"]
    refused = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=env, timeout=60)
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert "wrong_secret" in refused.stderr and str(secret) in refused.stderr
    assert "--new-links" in refused.stderr
    assert "/t/" not in refused.stdout
    renewed = Server(str(db), "fight", tmp_path, "--new-links")
    try:
        assert set(renewed.tokens) == set(old)
        for who, token in renewed.tokens.items():
            assert token != old[who]
            assert state(renewed.port, token)[0] == 200
            assert state(renewed.port, old[who])[0] == 403
    finally:
        renewed.stop()
    # and in-process: the same refusal, the same way out
    store = open_store(db)
    table = TableService(store).open("fight")
    other = Links(store, secret_for(store, tmp_path / "elsewhere.secret"))
    with pytest.raises(LinkError) as err:
        other.gm("fight", renew=False)
    assert err.value.code == "wrong_secret" and "elsewhere.secret" in err.value.message
    gm, players = start_links(other, table, renew=True)
    assert other.identify(gm)[0] == "fight"
    assert all(other.identify(token)[0] == "fight" for _, _, token in players)
    store.close()
