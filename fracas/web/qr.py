"""A link as a QR code (SVG, made here by segno: pure Python), for a phone at the table
to scan from the game master's page."""

from __future__ import annotations

import functools
import io

import segno

__all__ = ["qr_svg"]


@functools.lru_cache(maxsize=256)
def qr_svg(text: str, title: str) -> str:
    """``text`` as a QR code: a standalone SVG document (black on white, a 2-module quiet
    zone, error correction M), titled ``title`` for screen readers; made once per link
    (about 19 ms each), then kept."""
    out = io.BytesIO()
    segno.make(text, error="m", micro=False).save(
        out, kind="svg", scale=4, border=2, xmldecl=False, title=title, dark="#000", light="#fff"
    )
    return out.getvalue().decode()
