"""Issue 32, item 6: a map image's size in pixels is read from its header (PNG's IHDR,
JPEG's frame header, WebP's VP8/VP8L/VP8X), never decoded, and one over 4096 on a side
or 16 megapixels in all is refused (``map_too_large``, its size and the limit said),
as is a header that does not give a size: through the page's endpoint and through the
table service alike, nothing kept. The issue's image: a 1.2 MB PNG of 20000 x 20000,
which every page decoded to 2.1 GB; here a header of a few dozen bytes claims it."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from fracas.table import Identity
from fracas.web.mapimage import KEY, MAX_PIXELS, MAX_SIDE, MapImageError, image_size, image_type
from tests.web.support import Served, served


def png_header(width: int, height: int) -> bytes:
    """A PNG's signature and IHDR claiming ``width`` x ``height`` (no pixels follow)."""
    ihdr = b"IHDR" + struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + struct.pack(">I", 13)
        + ihdr
        + struct.pack(">I", zlib.crc32(ihdr))
        + struct.pack(">I", 0)
        + b"IEND"
        + struct.pack(">I", zlib.crc32(b"IEND"))
    )


def jpeg_header(width: int, height: int) -> bytes:
    """SOI, an APP1 segment holding a thumbnail's frame header of 1 x 1 (skipped by its
    length), then the image's baseline frame header."""
    thumbnail = b"\xff\xc0\x00\x11\x08" + struct.pack(">HH", 1, 1) + b"\x03" + b"\x00" * 9
    app1 = b"\xff\xe1" + struct.pack(">H", 2 + len(thumbnail)) + thumbnail
    sof = b"\xff\xc0\x00\x11\x08" + struct.pack(">HH", height, width) + b"\x03" + b"\x00" * 9
    return b"\xff\xd8" + app1 + sof + b"\xff\xd9"


def webp_header(chunk: bytes, width: int, height: int) -> bytes:
    if chunk == b"VP8 ":
        body = b"\x00\x00\x00\x9d\x01\x2a" + struct.pack("<HH", width, height)
    elif chunk == b"VP8L":
        body = b"\x2f" + struct.pack("<I", (width - 1) | (height - 1) << 14)
    else:
        body = b"\x00" * 4 + (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little")
    riff = b"WEBP" + chunk + struct.pack("<I", len(body)) + body
    return b"RIFF" + struct.pack("<I", len(riff)) + riff


HUGE = png_header(20_000, 20_000)
HUGE_MESSAGE = (
    "a map image of 20,000 x 20,000 pixels; at most 4,096 on a side and 16,777,216 pixels "
    "in all (16 megapixels): upload a smaller one"
)


@pytest.mark.parametrize(
    ("data", "size"),
    [
        (png_header(640, 480), (640, 480)),
        (jpeg_header(640, 480), (640, 480)),
        (webp_header(b"VP8 ", 640, 480), (640, 480)),
        (webp_header(b"VP8L", 640, 480), (640, 480)),
        (webp_header(b"VP8X", 640, 480), (640, 480)),
    ],
    ids=["png", "jpeg", "webp-lossy", "webp-lossless", "webp-extended"],
)
def test_the_size_is_read_from_each_kinds_header(data: bytes, size: tuple[int, int]) -> None:
    assert image_size(data, image_type(data)) == size


def test_real_images_sizes_match_their_headers() -> None:
    """Where Pillow is installed: images it writes (progressive JPEG, Exif, lossy,
    lossless and animated WebP) read as their size."""
    image = pytest.importorskip("PIL.Image")
    import io

    for kind, options in [
        ("PNG", {}),
        ("JPEG", {"progressive": True}),
        ("JPEG", {"exif": image.Exif()}),
        ("WEBP", {"lossless": False}),
        ("WEBP", {"lossless": True}),
    ]:
        sink = io.BytesIO()
        image.new("RGB", (300, 17)).save(sink, kind, **options)
        data = sink.getvalue()
        assert image_size(data, image_type(data)) == (300, 17), (kind, options)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (HUGE, HUGE_MESSAGE),
        (
            png_header(MAX_SIDE + 1, 1),
            "a map image of 4,097 x 1 pixels; at most 4,096 on a side and 16,777,216 "
            "pixels in all (16 megapixels): upload a smaller one",
        ),
        (jpeg_header(5000, 5000), None),
        (webp_header(b"VP8X", 16_000, 16_000), None),
    ],
    ids=["png-20000", "png-4097-wide", "jpeg", "webp"],
)
def test_past_the_pixel_limits_the_image_is_refused(data: bytes, message: str | None) -> None:
    with pytest.raises(MapImageError) as err:
        image_type(data)
    assert err.value.code == "map_too_large"
    if message is not None:
        assert err.value.message == message


def test_the_limits_themselves_are_taken() -> None:
    assert image_type(png_header(MAX_SIDE, MAX_SIDE)) == "image/png"
    assert MAX_SIDE * MAX_SIDE == MAX_PIXELS


@pytest.mark.parametrize(
    "data",
    [
        b"\x89PNG\r\n\x1a\n" + b"\x00" * 40,  # no IHDR
        png_header(0, 10),
        b"\xff\xd8\xff\xe0\x00\x10" + b"\x00" * 14 + b"\xff\xda\x00\x02",  # a scan, no frame
        b"\xff\xd8\xff\xe0\x00\x10",  # cut short
        b"RIFF\x10\x00\x00\x00WEBPVP8 " + b"\x00" * 40,  # no key frame's start code
    ],
    ids=["png-no-ihdr", "png-0-wide", "jpeg-no-frame", "jpeg-cut", "webp-no-frame"],
)
def test_a_header_that_gives_no_size_is_refused(data: bytes) -> None:
    with pytest.raises(MapImageError) as err:
        image_type(data)
    assert err.value.code == "bad_image"
    assert "whose header gives no size in pixels" in err.value.message


@pytest.fixture
def s(tmp_path: Path) -> Any:
    with served(tmp_path) as s:
        yield s


def test_the_pages_endpoint_refuses_it_and_keeps_nothing(s: Served) -> None:
    client = TestClient(s.app)
    r = client.put("/api/map", content=HUGE, headers={"Authorization": f"Bearer {s.gm}"})
    assert r.status_code == 400
    assert r.json() == {"code": "map_too_large", "message": HUGE_MESSAGE}
    assert s.table.store.extra("fight", KEY) is None
    assert client.get(f"/map/{s.ana}").status_code == 404


def test_the_table_service_refuses_it_and_keeps_nothing(s: Served) -> None:
    seq = s.table.seq
    with pytest.raises(MapImageError) as err:
        s.table.put_map_image(HUGE, Identity.gm())
    assert err.value.code == "map_too_large" and err.value.message == HUGE_MESSAGE
    assert s.table.store.extra("fight", KEY) is None
    assert s.table.snapshot().map_image is None and s.table.seq == seq


def test_one_kept_before_the_limit_is_not_sent_to_pages(s: Served) -> None:
    """An image a store kept before this limit (put there behind the table's back) is
    answered 404 with the reason, not sent to every page."""
    s.table.store.put_extra("fight", KEY, HUGE)
    r = TestClient(s.app).get(f"/map/{s.ana}")
    assert r.status_code == 404 and r.text == HUGE_MESSAGE + "\n"
