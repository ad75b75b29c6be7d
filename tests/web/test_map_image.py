"""Issue 22, item 7: the game master's map image. Uploaded as raw bytes, checked by its
magic bytes to be a PNG, JPEG or WebP image of at most 4 MiB, kept with the encounter
in the store (SQLite here, PostgreSQL in the store contract), served to every link of
the table, refused to a player; and in Chromium, laid under the grid."""

from __future__ import annotations

import hashlib
import struct
import zlib
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from fracas.errors import FracasError
from fracas.table import Identity
from fracas.table.table import resume
from fracas.web.mapimage import KEY, MAX_BYTES
from tests.web.support import Served, served
from tests.web.test_browser import NEEDS_CHROMIUM, SHOTS, Server


def png(width: int, height: int, rgb: tuple[int, int, int] = (200, 170, 120)) -> bytes:
    """A real PNG of one colour."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def s(tmp_path: Path) -> Any:
    with served(tmp_path) as s:
        yield s


def test_the_game_master_uploads_a_png_every_link_sees_it(s: Served) -> None:
    client = TestClient(s.app)
    image = png(8, 6)
    r = client.put("/api/map", content=image, headers=bearer(s.gm))
    assert r.status_code == 200 and r.json() == {
        "type": "image/png",
        "bytes": len(image),
        "path": "/map/",
    }
    assert s.table.store.extra("fight", KEY) == image  # kept with the encounter
    for token in (s.gm, s.ana, s.bo):
        got = client.get(f"/map/{token}")
        assert got.status_code == 200 and got.content == image
        assert got.headers["content-type"] == "image/png"
        assert got.headers["x-content-type-options"] == "nosniff"
    assert client.get("/map/not-a-token").status_code == 403
    assert client.delete("/api/map", headers=bearer(s.gm)).json() == {"removed": True}
    assert client.get(f"/map/{s.ana}").status_code == 404


@pytest.mark.parametrize(
    ("body", "kind"),
    [
        (  # an APP0 segment, then the frame header: 8 x 6 pixels
            b"\xff\xd8\xff\xe0\x00\x04\x00\x00\xff\xc0\x00\x11\x08\x00\x06\x00\x08\x03"
            + b"\x00" * 60,
            "image/jpeg",
        ),
        (  # a lossy key frame's header: 8 x 6 pixels
            b"RIFF\x10\x00\x00\x00WEBPVP8 \x00\x00\x00\x00\x00\x00\x00\x9d\x01\x2a"
            b"\x08\x00\x06\x00" + b"\x00" * 40,
            "image/webp",
        ),
    ],
    ids=["jpeg", "webp"],
)
def test_jpeg_and_webp_are_taken_by_their_magic_bytes(s: Served, body: bytes, kind: str) -> None:
    client = TestClient(s.app)
    assert client.put("/api/map", content=body, headers=bearer(s.gm)).json()["type"] == kind
    assert client.get(f"/map/{s.ana}").headers["content-type"] == kind


@pytest.mark.parametrize(
    ("body", "status", "code", "message"),
    [
        (
            b"GIF89a\x01\x00\x01\x00",
            400,
            "bad_image",
            "not a PNG, JPEG or WebP image (it begins 47 49 46 38 39 61 01 00); upload one "
            "of those",
        ),
        (
            b"<svg onload=alert(1)>",
            400,
            "bad_image",
            "not a PNG, JPEG or WebP image (it begins 3c 73 76 67 20 6f 6e 6c); upload one "
            "of those",
        ),
        (
            b"",
            400,
            "bad_image",
            "not a PNG, JPEG or WebP image (it begins nothing); upload one of those",
        ),
        (
            b"\x89PNG\r\n\x1a\n" + b"\x00" * MAX_BYTES,
            413,
            "too_big",
            f"a map image of more than {MAX_BYTES:,} bytes; at most 4 MiB: upload a smaller one",
        ),
    ],
    ids=["gif", "svg-script", "empty", "too-big"],
)
def test_what_is_not_a_bounded_image_is_refused_and_nothing_kept(
    s: Served, body: bytes, status: int, code: str, message: str
) -> None:
    r = TestClient(s.app).put("/api/map", content=body, headers=bearer(s.gm))
    assert r.status_code == status and r.json() == {"code": code, "message": message}
    assert s.table.store.extra("fight", KEY) is None


def test_a_player_may_not_upload_or_remove_the_map_image(s: Served) -> None:
    client = TestClient(s.app)
    r = client.put("/api/map", content=png(2, 2), headers=bearer(s.ana))
    assert r.status_code == 403 and r.json() == {
        "code": "forbidden",
        "message": "only the game master may upload the map image; 'Pat' may not",
    }
    assert client.delete("/api/map", headers=bearer(s.bo)).status_code == 403
    assert s.table.store.extra("fight", KEY) is None


def test_the_tables_state_carries_the_images_version_and_every_socket_hears_it(
    s: Served,
) -> None:
    """Item 7: the image is put through the table service, whose state carries its
    version (its bytes' digest): every page's socket is synced with it at once; a
    removal syncs None; a table resumed from the store reads it back."""
    client = TestClient(s.app)
    image = png(4, 4)
    version = hashlib.sha256(image).hexdigest()[:16]
    with client.websocket_connect(f"/ws?token={s.ana}") as pat:
        pat.send_json({"type": "hello", "seq": 0})
        first = pat.receive_json()
        assert first["type"] == "sync" and first["state"]["map_image"] is None
        assert client.put("/api/map", content=image, headers=bearer(s.gm)).status_code == 200
        heard = _sync(pat)
        assert heard["state"]["map_image"] == version and heard["seq"] == first["seq"]
        assert client.delete("/api/map", headers=bearer(s.gm)).status_code == 200
        assert _sync(pat)["state"]["map_image"] is None
    assert s.table.snapshot().map_image is None
    assert s.table.put_map_image(image) == version
    again = resume(s.table.store, "fight")
    assert again.snapshot().map_image == version  # read back from the store
    with pytest.raises(FracasError) as err:
        s.table.put_map_image(b"GIF89a", Identity.player("Pat", "ana"))
    assert err.value.code == "forbidden"
    with pytest.raises(FracasError) as err:
        s.table.put_map_image(b"GIF89a")
    assert err.value.code == "bad_image" and s.table.snapshot().map_image == version


def _sync(ws: Any) -> dict[str, Any]:
    for _ in range(10):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "sync":
            return message
    raise AssertionError("no sync")


def _shown(page: Any, version: str | None) -> None:
    """Wait until ``page`` draws the image of ``version`` (None: none drawn)."""
    if version is None:
        page.wait_for_function(
            "(() => { const i = document.getElementById('map-image');"
            " return i && !i.getAttribute('href') && i.getAttribute('display') === 'none'; })()"
        )
        return
    page.wait_for_function(
        "v => { const i = document.getElementById('map-image');"
        " return i && i.getAttribute('data-version') === v"
        " && i.getAttribute('display') === null && i.getBBox().width > 0; }",
        arg=version,
    )


@NEEDS_CHROMIUM
def test_the_uploaded_image_lies_under_the_grid_on_every_page(tmp_path: Path, browser: Any) -> None:
    SHOTS.mkdir(exist_ok=True)
    server = Server(tmp_path)
    try:
        path = tmp_path / "map.png"
        path.write_bytes(png(320, 240, (90, 140, 80)))
        gm = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        gm.goto(f"{server.base}/t/{server.gm}")
        gm.wait_for_selector("#map-upload")
        # the player's page is open before the upload: it sees every new image without
        # a reload (item 7: the table's state carries the image's version)
        phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        phone.goto(f"{server.base}/t/{server.ana}")
        phone.wait_for_selector("#order li")
        _shown(phone, None)
        phone.evaluate("window.sameLoad = true")  # a reload would lose it
        gm.set_input_files("#map-upload", str(path))
        gm.wait_for_function(
            "(() => { const i = document.getElementById('map-image');"
            " return i && i.getAttribute('display') === null && i.getBBox().width > 0; })()"
        )
        image = gm.locator("#map-image")
        size = [image.get_attribute("width"), image.get_attribute("height")]
        drawn = gm.evaluate(
            "async () => (await import('/static/state.js')).store.mapSize"
        )  # no map in the file: the grid the page draws
        assert size == [str(drawn[0] * 40), str(drawn[1] * 40)]
        # under the grid: before it in the SVG
        order = gm.evaluate(
            "[...document.getElementById('map').children].map(e => e.id).filter(Boolean)"
        )
        assert order.index("map-image") < order.index("grid-rect")
        gm.locator("#map-box").screenshot(path=str(SHOTS / "map-image-gm.png"))
        first = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
        _shown(phone, first)
        assert phone.locator("#map-upload").count() == 0  # the game master's only
        # another image: the open page fetches it (its version in the address)
        path.write_bytes(png(320, 240, (60, 90, 160)))
        second = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
        gm.set_input_files("#map-upload", str(path))
        _shown(phone, second)
        assert phone.get_attribute("#map-image", "href") == f"/map/{server.ana}?v={second}"
        phone.locator("#map-box").screenshot(path=str(SHOTS / "map-image-player-live.png"))
        gm.locator("#map-remove").click()
        _shown(phone, None)
        _shown(gm, None)
        assert phone.evaluate("window.sameLoad === true")  # never reloaded
        assert phone.evaluate("document.body.dataset.seq") == str(server.table.seq)
    finally:
        server.stop()
