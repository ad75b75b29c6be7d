"""A map image the game master uploads, laid under the grid: PNG, JPEG or WebP, at most
:data:`MAX_BYTES`, recognised by its first bytes (never by the name or the type a
browser claims), its size in pixels read from its header (never decoded: at most
:data:`MAX_SIDE` on a side and :data:`MAX_PIXELS` in all, what every page would hold
decoded), kept with the encounter in its store (an extra of the store protocol: SQLite
and PostgreSQL alike) and served to every page of the table. Put and removed through
the table (:meth:`~fracas.table.Table.put_map_image`), whose state carries its version
(:func:`image_version`): every open page sees a new image at once."""

from __future__ import annotations

import hashlib
import struct

from fracas.errors import FracasError

__all__ = [
    "KEY",
    "MAX_BYTES",
    "MAX_PIXELS",
    "MAX_SIDE",
    "MapImageError",
    "image_size",
    "image_type",
    "image_version",
]

KEY = "map-image"
"""The store extra the image is kept under."""
MAX_BYTES = 4 * 1024 * 1024
"""The largest image, in bytes (4 MiB: a phone's photo of a battle map, or a 200 by 200
tile map at a few pixels a tile)."""
MAX_SIDE = 4096
"""The widest and tallest image, in pixels (a 200 by 200 tile map at 20 pixels a tile)."""
MAX_PIXELS = 4096 * 4096
"""The most pixels in all (16 megapixels: 64 MiB decoded, in every page that shows it)."""


class MapImageError(FracasError):
    """Not an image a map may have (``bad_image``), too big (``too_big``), or too many
    pixels (``map_too_large``)."""


def image_type(data: bytes) -> str:
    """The media type of ``data`` from its magic bytes, once its header's size in pixels
    is within :data:`MAX_SIDE` and :data:`MAX_PIXELS`.

    Raises:
        MapImageError: ``too_big`` past :data:`MAX_BYTES`; ``bad_image`` unless PNG, JPEG
            or WebP whose size its header gives; ``map_too_large`` past the pixel limits.
    """
    kind = _magic(data)
    width, height = image_size(data, kind)
    if width > MAX_SIDE or height > MAX_SIDE or width * height > MAX_PIXELS:
        raise MapImageError(
            "map_too_large",
            f"a map image of {width:,} x {height:,} pixels; at most {MAX_SIDE:,} on a side "
            f"and {MAX_PIXELS:,} pixels in all (16 megapixels): upload a smaller one",
        )
    return kind


def _magic(data: bytes) -> str:
    """The media type its first bytes say (``too_big``, ``bad_image`` as above)."""
    if len(data) > MAX_BYTES:
        raise MapImageError(
            "too_big", f"a map image of {len(data):,} bytes; at most {MAX_BYTES:,} (4 MiB)"
        )
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    start = data[:8].hex(" ") or "nothing"
    raise MapImageError(
        "bad_image",
        f"not a PNG, JPEG or WebP image (it begins {start}); upload one of those",
    )


def image_size(data: bytes, kind: str) -> tuple[int, int]:
    """The width and height in pixels that the header of ``data`` (of media type
    ``kind``) gives: PNG's IHDR, JPEG's frame header (SOFn), WebP's VP8, VP8L or VP8X
    header. Nothing is decoded.

    Raises:
        MapImageError: ``bad_image``: the header is cut short or does not say (a size of
            0 included).
    """
    size = {"image/png": _png, "image/jpeg": _jpeg, "image/webp": _webp}[kind](data)
    if size is None or size[0] < 1 or size[1] < 1:
        name = kind.split("/")[1].upper()
        raise MapImageError(
            "bad_image",
            f"a {name} image whose header gives no size in pixels (cut short or damaged); "
            "upload a whole image",
        )
    return size


def _png(data: bytes) -> tuple[int, int] | None:
    """The IHDR chunk, first after the signature: length, ``IHDR``, width, height."""
    if len(data) < 24 or data[12:16] != b"IHDR":
        return None
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
"""JPEG's frame headers (SOF0..SOF15), not DHT, JPG or DAC, which share the range."""


def _jpeg(data: bytes) -> tuple[int, int] | None:
    """The first frame header, found by walking the segments from the start (their
    lengths skip what they hold: an Exif thumbnail's own header is not the image's)."""
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # a fill byte
            i += 1
            continue
        if marker == 0x01 or 0xD0 <= marker <= 0xD7:  # no length
            i += 2
            continue
        if marker in (0xD9, 0xDA):  # the end, or the scan: no frame header before it
            return None
        (length,) = struct.unpack(">H", data[i + 2 : i + 4])
        if marker in _SOF:
            if i + 9 > len(data) or length < 7:
                return None
            height, width = struct.unpack(">HH", data[i + 5 : i + 9])
            return int(width), int(height)
        if length < 2:
            return None
        i += 2 + length
    return None


def _webp(data: bytes) -> tuple[int, int] | None:
    """The first chunk after ``RIFF....WEBP``: lossy (``VP8 ``: its key frame's header),
    lossless (``VP8L``) or extended (``VP8X``: the canvas)."""
    chunk, body = data[12:16], data[20:]
    if chunk == b"VP8 " and len(body) >= 10 and body[3:6] == b"\x9d\x01\x2a":
        width, height = struct.unpack("<HH", body[6:10])
        return int(width) & 0x3FFF, int(height) & 0x3FFF
    if chunk == b"VP8L" and len(body) >= 5 and body[0] == 0x2F:
        (bits,) = struct.unpack("<I", body[1:5])
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X" and len(body) >= 10:
        width = int.from_bytes(body[4:7], "little") + 1
        height = int.from_bytes(body[7:10], "little") + 1
        return width, height
    return None


def image_version(data: bytes | None) -> str | None:
    """The version of a stored map image: its bytes' digest, the same for the same image
    in every process (None: no image)."""
    return None if data is None else hashlib.sha256(data).hexdigest()[:16]
