"""The benchmarks' two trees: the code of a "before" commit taken out beside this one,
and a measurement run in a fresh process on either (its ``PYTHONPATH`` picks the tree)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

__all__ = ["ROOT", "before_tree", "in_tree"]


def in_tree(
    script: str,
    tree: Path,
    case: str,
    *options: str,
    flag: str = "--measure",
    own: bool = True,
) -> dict[str, Any]:
    """``script --measure case options...`` (or another ``flag``) in a fresh process
    importing ``tree``'s fracas; the JSON of its last line. Another tree is measured by
    its own copy of the script where it has one (its imports name that tree's modules:
    the packages moved in issue 33), unless ``own`` is False (a measurement the other
    tree's copy does not know, of modules both trees have)."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    mine = tree / "bench" / Path(script).name
    if own and tree.resolve() != ROOT and mine.is_file():
        script = str(mine)
    args = [sys.executable, str(Path(script).resolve()), flag, case, *options]
    done = subprocess.run(args, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    out: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return out


def before_tree(ref: str, into: Path) -> Path:
    """``ref`` as a folder: an existing checkout, or the commit taken out with git archive."""
    if Path(ref).is_dir():
        return Path(ref)
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", ref, "fracas", "bench", "examples"],
        capture_output=True,
        check=True,
    )
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into
