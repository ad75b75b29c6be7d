"""Issue 35, "as few requests as the page needs": the table page loads app.js and its
panels as one file, ``static/app.bundle.js``, built by ``tools/bundle.py`` with esbuild
(pinned) and committed. Built again here: a module changed without the bundle being
built again fails, naming the command. esbuild is installed by README's test command
(.ci/test); without it this test fails, saying how to get it, never skips."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
sys.path.append(str(ROOT / "tools"))

import bundle  # noqa: E402  (tools/bundle.py: run by hand, not a package)


def _reached(apart: set[str]) -> set[str]:
    """The modules app.js imports (statically), itself or through another, but not
    through a module in ``apart``."""
    seen = {bundle.ENTRY}
    todo = [bundle.ENTRY]
    while todo:
        text = (bundle.STATIC / todo.pop()).read_text()
        for found in re.findall(r'(?:from|import)\s*"\./([a-z]+\.js)"', text):
            if found not in seen and found not in apart:
                seen.add(found)
                todo.append(found)
    return seen


def test_the_committed_bundle_is_the_one_built_from_the_modules(tmp_path: Path) -> None:
    try:
        bundle.build(tmp_path / bundle.BUNDLE)
    except bundle.BundleError as e:
        pytest.fail(str(e), pytrace=False)
    built = (tmp_path / bundle.BUNDLE).read_text()
    assert built.startswith(f"// Built by tools/bundle.py (esbuild {bundle.ESBUILD})")
    if built != (bundle.STATIC / bundle.BUNDLE).read_text():
        pytest.fail(
            "fracas/web/static/app.bundle.js is not built from the modules as they are: "
            "run `.venv/bin/python tools/bundle.py` and commit it",
            pytrace=False,
        )


def test_the_bundle_holds_every_panel_and_imports_only_the_modules_kept_apart() -> None:
    text = (bundle.STATIC / bundle.BUNDLE).read_text()
    held = set(re.findall(r"^// fracas/web/static/([a-z]+\.js)$", text, re.MULTILINE))
    # app.js and every panel it imports, but what is kept apart
    assert held == _reached(set(bundle.KEPT_APART)) and len(held) >= 10
    # its own imports: state.js and dom.js (and socket.js through state.js) at load,
    # the game master's sheet and party only when asked for
    assert set(re.findall(r'from "\./([a-z]+\.js)"', text)) == {"state.js", "dom.js"}
    assert set(re.findall(r'import\("\./([a-z]+\.js)"\)', text)) == {"gmsheet.js", "party.js"}
