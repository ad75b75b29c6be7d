"""A map image the game master uploads, laid under the grid: PNG, JPEG or WebP, at most
:data:`MAX_BYTES`, recognised by its first bytes (never by the name or the type a
browser claims), kept with the encounter in its store (an extra of the store protocol:
SQLite and PostgreSQL alike) and served to every page of the table. Put and removed
through the table (:meth:`~fracas.table.Table.put_map_image`), whose state carries its
version (:func:`image_version`): every open page sees a new image at once."""

from __future__ import annotations

import hashlib

from fracas.errors import FracasError

__all__ = ["KEY", "MAX_BYTES", "MapImageError", "image_type", "image_version"]

KEY = "map-image"
"""The store extra the image is kept under."""
MAX_BYTES = 4 * 1024 * 1024
"""The largest image, in bytes (4 MiB: a phone's photo of a battle map, or a 200 by 200
tile map at a few pixels a tile)."""


class MapImageError(FracasError):
    """Not an image a map may have (``bad_image``), or too big (``too_big``)."""


def image_type(data: bytes) -> str:
    """The media type of ``data`` from its magic bytes.

    Raises:
        MapImageError: ``too_big`` past :data:`MAX_BYTES`; ``bad_image`` unless PNG, JPEG
            or WebP.
    """
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


def image_version(data: bytes | None) -> str | None:
    """The version of a stored map image: its bytes' digest, the same for the same image
    in every process (None: no image)."""
    return None if data is None else hashlib.sha256(data).hexdigest()[:16]
