"""The map image's checks and store key, kept by the table service
(:mod:`fracas.table.mapimage`); named here for the web server and its tests."""

from fracas.table.mapimage import (
    KEY,
    MAX_BYTES,
    MAX_PIXELS,
    MAX_SIDE,
    MapImageError,
    image_size,
    image_type,
)

__all__ = [
    "KEY",
    "MAX_BYTES",
    "MAX_PIXELS",
    "MAX_SIDE",
    "MapImageError",
    "image_size",
    "image_type",
]
