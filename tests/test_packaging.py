"""The installed distribution's metadata: ``pip install fracas`` brings everything
``fracas serve``, the main job, needs (issue 20, 5: Starlette, uvicorn and websockets
were the ``web`` extra, and ``fracas serve`` a ``ModuleNotFoundError``)."""

from __future__ import annotations

import importlib.metadata

from packaging.requirements import Requirement


def test_the_web_stack_is_required_without_an_extra() -> None:
    requires = [Requirement(line) for line in importlib.metadata.requires("fracas") or []]
    unconditional = {r.name.lower() for r in requires if r.marker is None}
    assert {"starlette", "uvicorn", "websockets"} <= unconditional, sorted(unconditional)
    # `pip install 'fracas[web]'` (older instructions) still installs: an empty extra
    extras = importlib.metadata.metadata("fracas").get_all("Provides-Extra") or []
    assert "web" in extras
    assert [
        r for r in requires if r.marker is not None and r.marker.evaluate({"extra": "web"})
    ] == []
