"""Benchmark: the page on a phone (issue 22), in Debian's Chromium, by hand from the
repository root (it is not a test)::

    .venv/bin/python -m bench.bench_page [--rounds 5] [--before COMMIT]
        [--serve [--serve-before REF] [--serve-pause SECONDS]]

For each example's start, on a touch phone (390x844, ``has_touch``, ``is_mobile``):

(a) first page load: ``goto`` until the turn order is drawn, and the page's weight
    (the document, scripts and style, in bytes as sent);
(b) tap -> odds visible: the game master taps the acting combatant's first action
    with targets, then each target in turn, timed from the tap until that target's
    odds line is on the page. Each is timed twice: by the driver (Playwright's own
    round trips and its actionability waits included), and in the page, what a person
    sees: from the navigation's start, or the tap's pointerdown, to the moment the turn
    order, or the odds line, is in the document (a MutationObserver). Before
    (``--before``, default main's 7443e43, whose static files are taken with ``git
    archive``) a tap acts at once, so its figure is hover -> odds visible, the only
    preview it had.

Before and after are interleaved round by round on the same server code (only the
static files differ); p50/p95 over every round and target. The machine is shared:
say so beside the figures.

(c) ``--serve``: a ``fracas serve`` just started on each example's start, its own
    process (its workers and caches cold), on the phone, in the page: the first load,
    the first tap's odds (the first the server works out; tapped ``--serve-pause`` s
    after the page is drawn, 1 by default: a person reads the page first) and the
    first "Suggest"'s list; with ``--serve-before REF``, REF's server too (its code
    taken out with ``git archive``), rounds interleaved.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import fracas.web.app as web_app
from bench.trees import before_tree
from fracas.web.serve import free_port
from tests.web.test_browser import Server, launched

ROOT = Path(__file__).parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
}


def _static_of(commit: str, into: Path) -> Path:
    archive = subprocess.run(
        ["git", "archive", commit, "fracas/web/static"], cwd=ROOT, check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into / "fracas" / "web" / "static"


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


WATCH = """
window.__seen = {};
window.__down = null;
document.addEventListener("pointerdown", () => { window.__down = performance.now(); }, true);
new MutationObserver(() => {
  if (window.__seen.order === undefined && document.querySelector("#order li"))
    window.__seen.order = performance.now();
  if (window.__down !== null && document.querySelector("#odds .odds-line")) {
    window.__seen.odds = performance.now() - window.__down;
    window.__down = null;
  }
}).observe(document, { childList: true, subtree: true });
"""
"""In the page: when the turn order is first drawn (ms since the navigation began), and
how long after a pointerdown the odds line came (the hover path sets no pointerdown: its
start is the driver's hover, so its in-page figure is the mouseenter's)."""
SIZES = """() => {
  const all = [
    ...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")];
  const sum = (k) => all.reduce((n, e) => n + e[k], 0);
  return [sum("decodedBodySize"), sum("encodedBodySize")];
}"""
"""The page's bytes so far, as files and as sent (what the navigation and every request
of the page fetched; the socket's frames are not counted)."""


def _one(
    browser: Any, static: Path, example: Path, after: bool
) -> tuple[float, int, int, list[float], float, list[float]]:
    web_app.STATIC = static
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp), example.read_text().split("\nactions:")[0])
        try:
            context = browser.new_context(**PHONE)
            page = context.new_page()
            page.add_init_script(WATCH)
            started = time.perf_counter()
            page.goto(f"{server.base}/t/{server.gm}")
            page.wait_for_selector("#order li")
            load = time.perf_counter() - started
            page_load = float(page.wait_for_function("window.__seen.order").json_value()) / 1000
            # the bytes, from the page's own resource timing once loaded: the body and
            # the body as sent (gzipped where the server gzips, issue 35); before, a
            # response hook fetched each body through the driver while the page loaded,
            # and slowed the load it timed
            weight, sent = page.evaluate(SIZES)
            taps: list[float] = []
            seen: list[float] = []
            buttons = page.locator("#actions h3 + .row").first.locator("button:not([disabled])")
            for i in range(buttons.count()):
                buttons.nth(i).tap()
                targets = page.locator("#actions .targets button")
                if targets.count():
                    break
                buttons.nth(i).tap()  # unchosen again: an action without targets
            targets = page.locator("#actions .targets button")
            for j in range(targets.count()):
                target = targets.nth(j)
                # the odds box emptied: through the classic scripts' global where the
                # page has one (the "before" pages), else its lines removed (ES modules)
                page.evaluate(
                    "typeof hideOdds === 'function' ? hideOdds() : "
                    "document.querySelectorAll('#odds .odds-line').forEach(e => e.remove()); "
                    "window.__seen.odds = undefined"
                )
                if not after:  # the hover's start, in the page
                    target.evaluate(
                        "b => b.addEventListener('mouseenter', () => "
                        "{ window.__down = performance.now(); }, { once: true })"
                    )
                started = time.perf_counter()
                if after:
                    target.tap()
                else:
                    target.hover()
                page.wait_for_selector("#odds .odds-line")
                taps.append(time.perf_counter() - started)
                got = page.wait_for_function("window.__seen.odds").json_value()
                seen.append(float(got) / 1000)
            context.close()
            return load, weight, sent, taps, page_load, seen
        finally:
            server.stop()


def _fresh_serve(
    browser: Any, example: Path, tree: Path, pause: float
) -> tuple[float, float, float]:
    """A `fracas serve` of ``tree``'s code just started on the example's start (its own
    process, its workers and caches cold, its win bar asked for), as a game master meets
    it on a phone, in the page: the seconds from the navigation's start to the turn
    order drawn; from the first tap on a target to its odds line (the first odds the
    server works out), the action tapped ``pause`` seconds after the page is drawn (a
    person reads it first); and from the first tap on "Suggest" to the advisor's list."""
    from tests.web.test_serve_command import link, ready

    with tempfile.TemporaryDirectory() as tmp:
        start_file = Path(tmp) / example.name
        start_file.write_text(example.read_text().split("\nactions:")[0])
        port = str(free_port("127.0.0.1"))
        db = str(Path(tmp) / "s.sqlite3")
        proc = subprocess.Popen(
            [sys.executable, "-m", "fracas", "serve", str(start_file), "--db", db, "--port", port],
            cwd=tree,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(tree)},
        )
        try:
            lines = ready(proc)
            context = browser.new_context(**PHONE)
            page = context.new_page()
            page.add_init_script(WATCH)
            page.goto(link(lines, "game master"))
            page.wait_for_selector("#order li")
            seen = float(page.wait_for_function("window.__seen.order").json_value()) / 1000
            time.sleep(pause)
            buttons = page.locator("#actions h3 + .row").first.locator("button:not([disabled])")
            for i in range(buttons.count()):
                buttons.nth(i).tap()
                if page.locator("#actions .targets button").count():
                    break
                buttons.nth(i).tap()
            page.locator("#actions .targets button").first.tap()
            page.wait_for_selector("#odds .odds-line")
            odds = float(page.wait_for_function("window.__seen.odds").json_value()) / 1000
            started = time.perf_counter()
            page.get_by_role("button", name="Suggest").tap()
            page.wait_for_selector("#advisor-list li")
            advice = time.perf_counter() - started
            context.close()
            return seen, odds, advice
        finally:
            proc.send_signal(signal.SIGINT)
            proc.communicate(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--before", default="7443e43")
    parser.add_argument(
        "--serve",
        action="store_true",
        help="also a `fracas serve` just started, as a game master meets it: the first load, "
        "the first tap's odds, the first Suggest (the in-process figures above keep their "
        "server warm)",
    )
    parser.add_argument(
        "--serve-before",
        default=None,
        metavar="REF",
        help="with --serve: the same of commit REF's server too, side by side",
    )
    parser.add_argument(
        "--serve-pause",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help="with --serve: seconds between the page drawn and the first tap (a person "
        "reads the page first; 0: at once)",
    )
    args = parser.parse_args()
    now = web_app.STATIC
    with tempfile.TemporaryDirectory() as tmp, launched() as browser:
        before = _static_of(args.before, Path(tmp))
        figures: dict[str, dict[str, list[float]]] = {
            k: {"load": [], "weight": [], "wire": [], "odds": [], "page_load": [], "page_odds": []}
            for k in ("before", "after")
        }
        for _ in range(args.rounds):
            for example in EXAMPLES:
                for which, static in (("before", before), ("after", now)):
                    load, weight, sent, taps, page_load, seen = _one(
                        browser, static, example, which == "after"
                    )
                    figures[which]["page_load"].append(page_load)
                    figures[which]["page_odds"].extend(seen)
                    figures[which]["load"].append(load)
                    figures[which]["weight"].append(weight)
                    figures[which]["wire"].append(sent)
                    figures[which]["odds"].extend(taps)
    print("issue 22's page on a phone, the five examples' starts, before | after")
    print("(both served by this tree's server: 'sent' is gzipped for both where it gzips)")
    for which in ("before", "after"):
        f = figures[which]
        how = "tap" if which == "after" else "hover"
        print(
            f"{which:6}: first load p50 {1000 * statistics.median(f['load']):.0f} ms; "
            f"weight {max(f['weight']) / 1024:.1f} KB ({max(f['wire']) / 1024:.1f} KB sent); "
            f"{how} -> odds p50 "
            f"{1000 * _pct(f['odds'], 0.5):.0f} ms, p95 {1000 * _pct(f['odds'], 0.95):.0f} ms "
            f"(n={len(f['odds'])}); in the page: first load p50 "
            f"{1000 * statistics.median(f['page_load']):.0f} ms, {how} -> odds p50 "
            f"{1000 * _pct(f['page_odds'], 0.5):.0f} ms, "
            f"p95 {1000 * _pct(f['page_odds'], 0.95):.0f} ms"
        )
    if args.serve:
        _serve_figures(args)


def _serve_figures(args: argparse.Namespace) -> None:
    """A fresh `fracas serve` of each example's start, as a game master meets it: this
    tree's, and with ``--serve-before REF`` that commit's (its code taken out with git
    archive), rounds interleaved; p50 and p95 over every round and example."""
    trees = {"after": ROOT}
    with tempfile.TemporaryDirectory() as tmp, launched() as browser:
        if args.serve_before:
            trees = {"before": before_tree(args.serve_before, Path(tmp)), **trees}
        got: dict[str, list[tuple[float, float, float]]] = {k: [] for k in trees}
        for _ in range(args.rounds):
            for example in EXAMPLES:
                for which, tree in trees.items():
                    start = tree / "examples" / example.name
                    got[which].append(_fresh_serve(browser, start, tree, args.serve_pause))
    for which, runs in got.items():
        load, odds, advice = (sorted(r[i] for r in runs) for i in range(3))
        print(
            f"a fresh `fracas serve` ({which}"
            f"{': ' + args.serve_before if which == 'before' else ': this tree'}), in the page: "
            f"first load p50 {1000 * _pct(load, 0.5):.0f} ms, p95 {1000 * _pct(load, 0.95):.0f}; "
            f"first tap ({args.serve_pause:g} s after it) -> odds p50 "
            f"{1000 * _pct(odds, 0.5):.0f} ms, "
            f"p95 {1000 * _pct(odds, 0.95):.0f}; first Suggest -> list p50 "
            f"{1000 * _pct(advice, 0.5):.0f} ms, p95 {1000 * _pct(advice, 0.95):.0f} "
            f"(n={len(runs)})"
        )


if __name__ == "__main__":
    main()
