"""Links kept in the store (issue 22) against the JSON links file of before: the cost of
``Links.identify`` (every socket message and API request names its token), interleaved,
median of 7 runs of 300, 10 encounters of 4 links; and of one link's QR code (segno),
made and cached.

    git show 7443e43:fracas/web/links.py > /tmp/oldlinks.py
    PYTHONPATH=. .venv/bin/python bench/bench_links.py /tmp/oldlinks.py
"""

from __future__ import annotations

import importlib.util
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from fracas.io.store import open_store
from fracas.table import TableService
from fracas.web.links import Links
from fracas.web.qr import qr_svg
from tests.web.support import FIGHT


def old_links(path: str) -> Any:
    spec = importlib.util.spec_from_file_location("oldlinks", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["oldlinks"] = module
    spec.loader.exec_module(module)
    return module.Links


def per_call(links: Any, tokens: list[str], n: int = 300) -> float:
    """Microseconds per ``identify``."""
    start = time.perf_counter()
    for k in range(n):
        links.identify(tokens[k % len(tokens)])
    return (time.perf_counter() - start) / n * 1e6


def main() -> None:
    before_type = old_links(sys.argv[1] if len(sys.argv) > 1 else "/tmp/oldlinks.py")
    with tempfile.TemporaryDirectory() as d:
        store = open_store(Path(d) / "s.sqlite3")
        service = TableService(store)
        after, before = Links(store), before_type(Path(d) / "links.json")
        new_tokens: list[str] = []
        old_tokens: list[str] = []
        for i in range(10):
            service.create(FIGHT, "f.yaml", name=f"t{i}", seed=i)
            for j in range(4):
                new_tokens.append(after.add(f"t{i}", f"P{j}", ["ana"])[1])
                old_tokens.append(before.add(f"t{i}", f"P{j}", ["ana"])[1])
        old_runs, new_runs = [], []
        for _ in range(7):
            old_runs.append(per_call(before, old_tokens))
            new_runs.append(per_call(after, new_tokens))
        print(
            f"identify: before (JSON file) median {statistics.median(old_runs):.1f} us, "
            f"after (the store) median {statistics.median(new_runs):.1f} us"
        )
        made = []
        for tok in new_tokens[:7]:
            start = time.perf_counter()
            qr_svg(f"http://127.0.0.1:8765/t/{tok}", "x")
            made.append((time.perf_counter() - start) * 1e3)
        start = time.perf_counter()
        qr_svg(f"http://127.0.0.1:8765/t/{new_tokens[0]}", "x")
        cached = (time.perf_counter() - start) * 1e3
        print(f"qr_svg: made median {statistics.median(made):.1f} ms, cached {cached:.3f} ms")
        store.close()


if __name__ == "__main__":
    main()
