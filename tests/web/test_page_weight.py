"""Issue 35, "speed and weight": the page's files are sent gzipped to a browser that
takes it, kept by the browser with their ETag and asked again at each load (a 304, no
body, when unchanged), app.js and its panels in one file (tools/bundle.py;
tests/web/test_bundle.py), the modules it imports asked for at once (modulepreload)
rather than one import after another, and an icon; the game master's first load is
under 60 KB on the wire."""

from __future__ import annotations

import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from starlette.testclient import TestClient

from fracas.table import TableService
from fracas.web.app import GZIP_FROM, STATIC, Static, _pages, create_app, warm
from fracas.web.setup import SetupKey
from tests.web.support import served

POOL = ThreadPoolExecutor(1)
"""The odds executor of these apps (no odds are asked)."""

PAGE_SCRIPT = "app.bundle.js"
"""The script index.html runs (tests/web/test_page_modules.py looks at it in the page)."""
FIRST_LOAD = 60_000
"""Bytes on the wire of the game master's first load, at most (issue 35)."""


def _imports(entry: str) -> set[str]:
    """Every module ``entry`` imports, itself or through another (the static files)."""
    seen: set[str] = set()
    todo = [entry]
    while todo:
        text = (STATIC / todo.pop()).read_text()
        for name in re.findall(r'(?:from|import)\s*"\./([a-z]+\.js)"', text):
            if name not in seen and name != entry:
                seen.add(name)
                todo.append(name)
    return seen


def _preloaded(page: str) -> set[str]:
    text = (STATIC / page).read_text()
    return set(re.findall(r'<link rel="modulepreload" href="/static/([a-z]+\.js)">', text))


def test_each_page_preloads_exactly_the_modules_its_script_imports() -> None:
    assert _preloaded("index.html") == _imports(PAGE_SCRIPT)
    assert _preloaded("setup.html") == _imports("setup.js")


def test_files_are_gzipped_kept_and_revalidated(tmp_path: Path) -> None:
    with served(tmp_path) as s:
        client = TestClient(create_app(TableService(s.table.store), s.links, POOL))
        plain = (STATIC / "app.js").read_bytes()
        r = client.get("/static/app.js", headers={"Accept-Encoding": "gzip"})
        assert r.status_code == 200 and r.headers["content-encoding"] == "gzip"
        assert r.content == plain  # decoded by the client: the file itself
        assert int(r.headers["content-length"]) < len(plain) // 3
        assert r.headers["cache-control"] == "no-cache"
        etag = r.headers["etag"]
        again = client.get("/static/app.js", headers={"If-None-Match": etag})
        assert (again.status_code, again.content) == (304, b"")
        # a browser that asks for no encoding gets the file as it is
        r = client.get("/static/app.js", headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in r.headers and r.content == plain
        # a body too small to gain is sent as it is (the security headers on both)
        small = client.get("/static/favicon.svg", headers={"Accept-Encoding": "gzip"})
        assert len((STATIC / "favicon.svg").read_bytes()) < GZIP_FROM
        assert "content-encoding" not in small.headers
        assert small.headers["x-content-type-options"] == "nosniff"
        assert r.headers["content-security-policy"].startswith("default-src 'self'")


def test_an_icon_on_every_page(tmp_path: Path) -> None:
    with served(tmp_path) as s:
        key = SetupKey()
        client = TestClient(create_app(TableService(s.table.store), s.links, POOL, key, {}))
        r = client.get("/favicon.ico")
        assert r.status_code == 200 and r.headers["content-type"] == "image/svg+xml"
        assert r.content == (STATIC / "favicon.svg").read_bytes()
        for page in ("index.html", "setup.html", "landing.html"):
            assert '<link rel="icon" href="/static/favicon.svg"' in (STATIC / page).read_text()
        assert client.get("/static/favicon.svg").status_code == 200


def test_the_game_masters_first_load_is_under_60_kb_on_the_wire(tmp_path: Path) -> None:
    """What a browser fetches for the game master's page (the page, its style, every
    module, the icon), as the server sends it to a browser that takes gzip."""
    with served(tmp_path) as s:
        client = TestClient(create_app(TableService(s.table.store), s.links, POOL))
        gzipped = {"Accept-Encoding": "gzip, deflate, br"}
        page = client.get(f"/t/{s.gm}", headers=gzipped)
        assert page.status_code == 200 and page.headers["content-encoding"] == "gzip"
        wire = int(page.headers["content-length"])  # the bytes sent, gzipped
        files = ["/static/app.css", f"/static/{PAGE_SCRIPT}", "/static/favicon.svg"]
        files += [f"/static/{m}" for m in sorted(_imports(PAGE_SCRIPT))]
        for path in files:
            r = client.get(path, headers=gzipped)
            assert r.status_code == 200, path
            wire += int(r.headers["content-length"])
        assert wire < FIRST_LOAD, wire


def test_warm_keeps_the_table_pages_files_before_a_first_load() -> None:
    """``fracas serve`` calls ``warm`` before it prints its links (issue 35, "speed"):
    the page and every file it names are kept (read, gzipped) and anyio's thread
    backend is loaded, so a fresh server's first load does not pay for them."""
    Static._kept.clear()
    _pages.clear()
    warm()
    named = re.findall(r'"/static/([\w.-]+)"', (STATIC / "index.html").read_text())
    assert set(named) == {"favicon.svg", "app.css", "app.bundle.js"} | _imports(PAGE_SCRIPT)
    assert {Path(p).name for p in Static._kept} == set(named)
    assert "index.html" in _pages
    # anyio's asyncio backend, loaded by warm and not before (a fresh process: this
    # one's test clients have loaded it already)
    backend = "anyio._backends._asyncio"
    probe = (
        f"import sys; from fracas.web.app import warm; before = {backend!r} in sys.modules; "
        f"warm(); print(before, {backend!r} in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.stdout.split() == ["False", "True"], done.stderr
