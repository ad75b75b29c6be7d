"""The golden corpus: what fracas prints for every example and saved session.

``python tests/golden/capture.py`` writes ``expected.json``; ``test_golden.py``
compares the current output with it. A change that alters an output on purpose
rewrites the file in the same commit and names the difference in its message.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from fracas.main import main

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
EXPECTED = HERE / "expected.json"


def cases() -> list[tuple[str, list[str]]]:
    """(name, fracas arguments) of every golden case."""
    out: list[tuple[str, list[str]]] = []
    for example in sorted((ROOT / "examples").glob("*.yaml")):
        rel = str(example.relative_to(ROOT))
        out.append((f"run-json {rel}", ["run", rel, "--json"]))
        out.append((f"run {rel}", ["run", rel]))
        out.append((f"odds-json {rel}", ["odds", rel, "--json"]))
        for seed in ("1", "2"):
            out.append((f"run-json {rel} seed {seed}", ["run", rel, "--json", "--seed", seed]))
    for session in sorted((HERE / "sessions").glob("*.yaml")):
        rel = str(session.relative_to(ROOT))
        out.append((f"run-json {rel}", ["run", rel, "--json"]))
        out.append((f"run {rel}", ["run", rel]))
    return out


def output(args: list[str]) -> dict[str, Any]:
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    text = result.stdout
    body: Any = json.loads(text) if "--json" in args else text.splitlines()
    return {"exit": result.exit_code, "out": body}


def main_() -> None:
    import os

    os.chdir(ROOT)
    data = {name: output(args) for name, args in cases()}
    EXPECTED.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"{len(data)} cases -> {EXPECTED}", file=sys.stderr)


if __name__ == "__main__":
    main_()
