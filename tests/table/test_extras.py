"""What a table keeps beside its log (:mod:`fracas.table.extras`): the map image's
version, read from the store once and kept as it is put; the export of the encounter."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.errors import FracasError
from fracas.io.store import open_store
from fracas.model import Action
from fracas.table import Feed, TableService
from fracas.table.extras import MapImage, exported
from fracas.table.mapimage import image_version
from fracas.table.writer import Writer, load
from tests.play.support import EXAMPLES
from tests.web.test_map_image import png

EXAMPLE = (EXAMPLES / "dice-combat.yaml").read_text().split("actions:")[0]


def test_the_map_images_version_is_read_once_and_kept_as_put(tmp_path: Path) -> None:
    store = open_store(tmp_path / "s.sqlite3", durable=False)
    name = TableService(store).create(EXAMPLE, "dice-combat.yaml", seed=3).name
    loaded = load(store, name)
    writer = Writer(store, name, loaded.file, loaded.engine, Feed(), lambda: None)
    image = MapImage(writer)
    assert image.version() is None
    data = png(4, 3)
    assert image.put(data) == image_version(data) == MapImage(writer).version()  # stored
    with pytest.raises(FracasError) as bad:
        image.put(b"not an image")
    assert bad.value.code == "bad_image" and image.version() == image_version(data)
    assert image.put(None) is None and MapImage(writer).version() is None
    unnamed = Writer(store, "", loaded.file, loaded.engine, Feed(), lambda: None)
    assert MapImage(unnamed).version() is None  # not stored yet: none


def test_the_export_is_the_tables(tmp_path: Path) -> None:
    store = open_store(tmp_path / "s.sqlite3", durable=False)
    table = TableService(store).create(EXAMPLE, "dice-combat.yaml", seed=3)
    table.act(Action("ana", "attack", "bo"))
    table.act(Action("ana", "end_turn"))
    loaded = load(store, table.name)
    writer = Writer(store, table.name, loaded.file, loaded.engine, Feed(), lambda: None)
    out = exported(writer)
    assert out == table.export()
    assert [a["do"] for a in out["actions"]] == ["attack", "end_turn"]
