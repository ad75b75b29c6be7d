"""Issue 32, item 9: a SQLite store damaged in the middle is refused when it is opened
(``damaged_store``, naming the file and what to do), by the store and by `fracas serve`
and `fracas play` (one line, exit status 1, no traceback), not only when the encounter
on the damaged page is read."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from fracas.io.store import NewEncounter, StoreError, open_store

NEW = NewEncounter("fight.yaml", "ruleset: x\n", "x", 7)
BODY = "x" * 300
"""A record's filler: a few encounters of 40 records fill many pages of the records."""


def damaged(tmp_path: Path, whole: bool = True) -> Path:
    """A store of five encounters whose records table has a page in the middle of its
    b-tree (not page 1, not its root) overwritten with junk (``whole``; else only its
    cells' pointers: SQLite reads the page, its check says where it is wrong)."""
    path = tmp_path / "s.sqlite3"
    store = open_store(path, durable=False)
    for i in range(5):
        store.create(NEW, [{"seq": s, "kind": "action", "tag": BODY} for s in range(40)], f"f{i}")
    store.close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # every page in the file itself
    size = db.execute("PRAGMA page_size").fetchone()[0]
    (root,) = db.execute("SELECT rootpage FROM sqlite_schema WHERE name = 'records'").fetchone()
    try:  # a leaf of the records' b-tree, from the middle of the file
        leaves = [
            n
            for (n,) in db.execute(
                "SELECT pageno FROM dbstat WHERE name = 'records' AND pagetype = 'leaf' "
                "ORDER BY pageno"
            )
        ]
        page = leaves[len(leaves) // 2]
    except sqlite3.OperationalError:  # a SQLite without dbstat: the table's root
        page = root
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.close()
    assert 1 < page < pages
    with path.open("r+b") as file:
        if whole:
            file.seek((page - 1) * size)
            file.write(bytes(range(256)) * (size // 256))
        else:
            file.seek((page - 1) * size + 8)  # past the page's header: its cell pointers
            file.write(b"\xff\xfe" * 20)
    return path


@pytest.mark.parametrize("whole", [True, False], ids=["page", "cells"])
def test_a_store_damaged_mid_file_is_refused_at_open(tmp_path: Path, whole: bool) -> None:
    path = damaged(tmp_path, whole)
    with pytest.raises(StoreError) as err:
        open_store(path)
    assert err.value.code == "damaged_store"
    message = err.value.message
    assert repr(str(path)) in message and "restore a backup" in message
    assert message.endswith("recover it: sqlite3 FILE .recover | sqlite3 NEW, then --db NEW")
    assert "\n" not in str(err.value)


def test_a_sound_store_opens_and_its_check_reads_every_page(tmp_path: Path) -> None:
    """The check leaves a sound store as it was: it opens, every encounter in it."""
    path = tmp_path / "s.sqlite3"
    store = open_store(path, durable=False)
    names = [store.create(NEW, [{"seq": 0, "kind": "start"}], f"f{i}") for i in range(3)]
    store.close()
    store = open_store(path)
    try:
        assert sorted(i.name for i in store.list()) == sorted(names)
    finally:
        store.close()


@pytest.mark.parametrize(
    "args", [["play", "--list"], ["serve", "--port", "0"]], ids=["play", "serve"]
)
def test_fracas_serve_and_play_say_so_in_one_line(tmp_path: Path, args: list[str]) -> None:
    path = damaged(tmp_path)
    before = path.read_bytes()
    run = subprocess.run(
        [sys.executable, "-m", "fracas", *args, "--db", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: damaged_store: the store "), lines
    assert str(path) in lines[0]
    assert path.read_bytes() == before  # nothing written to it
