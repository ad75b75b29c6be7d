"""Benchmark: the setup page of ``fracas serve`` (no FILE) on loopback, one process.

Run by hand from the repository root (it is not a test)::

    .venv/bin/python bench/bench_setup.py [--loads 20] [--stored 20]

(a) The page over HTTP: setup.html, setup.js, setup.css and the two JSON answers it
    asks for (every ruleset's form schema, the stored encounters), median of
    ``--loads``, and the weight of it all (uncompressed; the server sends no gzip).
(b) In Chromium (where ``chromium`` is on the PATH): from navigation to the form drawn
    (the first combatant's fieldset), median of 5 fresh contexts.
(c) A setup checked (``POST /api/setup/check``: the form turned into a file and loaded)
    and started (``POST /api/setup/start``: loaded, played, stored), median of 20.

Bounded: a temporary store with ``--stored`` encounters, loopback only.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import tempfile
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import uvicorn

from fracas.io.store import open_store
from fracas.table import TableService
from fracas.web.app import create_app
from fracas.web.links import Links
from fracas.web.serve import free_port
from fracas.web.setup import SetupKey

EXAMPLE = Path(__file__).parents[1] / "examples" / "dice-combat.yaml"
FORM: dict[str, Any] = {
    "ruleset": "dice-combat",
    "combatants": [
        {"id": "ana", "side": "players", "at": ["0", "0"], "hand": {"is": "pistol"}},
        {"id": "bo", "side": "raiders", "at": ["3", "0"], "hand": {"is": "club"}},
    ],
}


def fetch(url: str, token: str, body: Any = None) -> bytes:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="GET" if body is None else "POST")
    request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request) as response:
        out: bytes = response.read()
        return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=20)
    parser.add_argument("--stored", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(Path(tmp) / "s.sqlite3", durable=False)
        tables = TableService(store)
        text = EXAMPLE.read_text()
        for i in range(args.stored):
            tables.create(text, "dice-combat.yaml", name=f"fight-{i}")
        key = SetupKey()
        token = key.mint()
        port = free_port("127.0.0.1")
        base = f"http://127.0.0.1:{port}"
        with ThreadPoolExecutor(1) as pool:
            app = create_app(tables, Links(), pool, key)
            server = uvicorn.Server(
                uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
            )
            thread = threading.Thread(target=server.run, daemon=True)
            thread.start()
            while not server.started:
                time.sleep(0.02)
            try:
                run(base, token, args)
            finally:
                server.should_exit = True
                thread.join(10)
        store.close()


def run(base: str, token: str, args: argparse.Namespace) -> None:
    paths = {
        "setup.html": f"/setup/{token}",
        "setup.js": "/static/setup.js",
        "setup.css": "/static/setup.css",
        "schema": "/api/setup/rulesets",
        "stored": "/api/setup/encounters",
    }
    loads, sizes = [], {}
    for _ in range(args.loads):
        start = time.perf_counter()
        for label, path in paths.items():
            sizes[label] = len(fetch(base + path, token))
        loads.append(time.perf_counter() - start)
    weight = sum(sizes.values())
    print(
        f"(a) setup page over HTTP (HTML+JS+CSS+schema+list of {args.stored}) median "
        f"{1000 * statistics.median(loads):.1f} ms; weight {weight / 1024:.1f} KB "
        f"({', '.join(f'{k} {v / 1024:.1f}' for k, v in sizes.items())})"
    )
    chromium = shutil.which("chromium")
    if chromium is None:
        print("(b) skipped: no chromium on the PATH")
    else:
        from playwright.sync_api import sync_playwright

        drawn = []
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=chromium, args=["--no-sandbox", "--disable-gpu"]
            )
            for _ in range(5):
                page = browser.new_context().new_page()
                start = time.perf_counter()
                page.goto(f"{base}/setup/{token}")
                page.wait_for_selector("fieldset.combatant")
                page.wait_for_selector("#stored tbody tr")
                drawn.append(time.perf_counter() - start)
                page.context.close()
            browser.close()
        median = 1000 * statistics.median(drawn)
        print(f"(b) in Chromium, navigation to the form drawn: median {median:.0f} ms")
    checks, starts = [], []
    for i in range(20):
        start = time.perf_counter()
        fetch(f"{base}/api/setup/check", token, FORM)
        checks.append(time.perf_counter() - start)
        start = time.perf_counter()
        fetch(f"{base}/api/setup/start", token, {**FORM, "name": f"new-{i}"})
        starts.append(time.perf_counter() - start)
    print(
        f"(c) check median {1000 * statistics.median(checks):.1f} ms; "
        f"start (stored) median {1000 * statistics.median(starts):.1f} ms"
    )


if __name__ == "__main__":
    main()
