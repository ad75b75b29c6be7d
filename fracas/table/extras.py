"""What a table keeps beside its log: the version of the map image under the grid
(:class:`MapImage`, the image itself an extra of the store: :mod:`fracas.table.mapimage`),
and the encounter exported as a file (:func:`exported`)."""

from __future__ import annotations

from typing import Any

from fracas.errors import FracasError
from fracas.io.files import export
from fracas.model.frozen import thaw
from fracas.table.mapimage import KEY, image_type, image_version
from fracas.table.writer import Writer

__all__ = ["MapImage", "exported"]


class MapImage:
    """The version of a table's map image: read from the store once (a table not yet
    stored, or a store away for now: none yet), then kept as it is put."""

    def __init__(self, writer: Writer) -> None:
        self._writer = writer
        self._version: str | None = None
        self._known = False

    def version(self) -> str | None:
        """The map image's version (None: none, or not read yet)."""
        w = self._writer
        if not self._known and w.name:
            try:
                self._version = image_version(w.store.extra(w.name, KEY))
            except FracasError:
                return self._version
            self._known = True
        return self._version

    def put(self, data: bytes | None) -> str | None:
        """Put ``data`` in the store as the image (None: remove it), with the writer's
        lock held; its new version.

        Raises:
            MapImageError: ``too_big``; ``bad_image`` (not a PNG, JPEG or WebP image).
        """
        if data is not None:
            image_type(data)
        w = self._writer
        w.store.put_extra(w.name, KEY, data)
        self._version, self._known = image_version(data), True
        return self._version


def exported(writer: Writer) -> dict[str, Any]:
    """The encounter as a file whose actions carry the dice as rolled (``fracas run``
    reproduces the same end state)."""
    engine = writer.engine
    out: dict[str, Any] = thaw(
        export(
            writer.file,
            [engine.log[0], *engine.effective],
            engine.state.order,
            engine.state.presets,
        )
    )
    return out
