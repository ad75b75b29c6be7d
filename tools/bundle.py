"""Build the table page's script, ``fracas/web/static/app.bundle.js`` (issue 35, "as few
requests as the page needs"), from ``app.js`` and the panels it imports, with esbuild
(pinned in package.json: :data:`ESBUILD`). Run by hand after changing a module of the
page, and commit the result::

    .venv/bin/python tools/bundle.py

The page's modules stay as they are written, each a file under ``static/``; the bundle
is what ``index.html`` loads. A first load asked for some fifteen modules over the
browser's six connections, one wave after another; the bundle is one file. Left out of
it, and loaded as themselves: ``state.js`` (the page's one state: a test or a panel
loaded later imports that very module), ``socket.js`` (index.html runs it first, async),
``dom.js`` (both import it), and the panels loaded only when asked for (``gmsheet.js``,
``party.js``), so those keep one instance each. ``tests/web/test_bundle.py`` builds it
again and fails when the file differs: a module changed without this being run.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "fracas" / "web" / "static"
ENTRY = "app.js"
BUNDLE = "app.bundle.js"
KEPT_APART = ("state.js", "socket.js", "dom.js", "gmsheet.js", "party.js")
"""Modules the bundle imports rather than holds (see the module's docstring)."""
ESBUILD: str = json.loads((ROOT / "package.json").read_text())["devDependencies"]["esbuild"]
"""The esbuild the bundle is built with: package.json's pin (one version, one output)."""
NPM_INSTALL = "npm ci --no-audit --no-fund -q"
"""The one command that brings package.json's packages (esbuild, and axe-core for the
accessibility tests) into node_modules, from the repository root; ``.ci/test`` runs it."""
BANNER = (
    "// Built by tools/bundle.py (esbuild {version}) from app.js and the panels it imports:"
    " do not edit; edit the modules and run `.venv/bin/python tools/bundle.py`."
)


class BundleError(Exception):
    """Why the bundle could not be built: one line for a person."""


def esbuild() -> Path:
    """The pinned esbuild, where :data:`NPM_INSTALL` puts it."""
    found = ROOT / "node_modules" / ".bin" / "esbuild"
    if not found.exists():
        raise BundleError(
            f"esbuild is not installed at {found}: run `{NPM_INSTALL}` in {ROOT} "
            "(README's test command, .ci/test, does)"
        )
    version = subprocess.run([found, "--version"], capture_output=True, text=True).stdout.strip()
    if version != ESBUILD:
        raise BundleError(
            f"esbuild {version!r} is at {found}, but the bundle is built with {ESBUILD}: "
            f"run `{NPM_INSTALL}` in {ROOT}"
        )
    return found


def build(out: Path) -> None:
    """Write the bundle to ``out`` (relative paths in its comments: run from any folder)."""
    args = [
        str(esbuild()),
        str(Path("fracas", "web", "static", ENTRY)),
        "--bundle",
        "--format=esm",
        "--charset=utf8",
        f"--banner:js={BANNER.format(version=ESBUILD)}",
        f"--outfile={out}",
        "--log-level=warning",
        *(f"--external:./{name}" for name in KEPT_APART),
    ]
    done = subprocess.run(args, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise BundleError(f"esbuild failed: {done.stderr.strip()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=STATIC / BUNDLE, help="where to write it")
    args = parser.parse_args()
    try:
        build(args.out.resolve())
    except BundleError as e:
        sys.exit(f"error: {e}")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
