"""Work counted, not timed: the instructions a process executes, counted by valgrind's
callgrind (a simulated CPU), for before/after figures the machine's load cannot move.

On the shared 2-core machine the same code's wall time varies by up to 1.7× between
runs a few minutes apart, so a change of 10% cannot be told from the noise by timing
it. An instruction count of the same process is the same on a quiet and a busy
machine (within a few tenths of a percent with ``PYTHONHASHSEED`` fixed). It is work,
not time: a cache miss or a slow allocation costs more than its count says, so wall
times stay the goal's measure and the count is read beside them.

A measurement is the difference of two processes that do the same set-up and then
differ by the calls measured (``k`` calls less ``k - 1``): the interpreter's start, the
imports and the set-up cancel out. Under callgrind a process runs about 15× slower.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

__all__ = ["available", "count", "counts"]

_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def available() -> bool:
    """Whether valgrind is installed (Debian: ``apt-get install -y valgrind``)."""
    return shutil.which("valgrind") is not None


def count(args: Sequence[str], tree: Path) -> int:
    """The instructions ``args`` (a Python command line) execute with ``tree`` first on
    its ``PYTHONPATH``, the hash seed fixed."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *args]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    found = _COLLECTED.search(done.stderr)
    if done.returncode != 0 or found is None:
        raise RuntimeError(f"{' '.join(args)} under callgrind: {done.stderr[-2000:]}")
    return int(found.group(1))


def counts(jobs: Sequence[tuple[Sequence[str], Path]], workers: int = 2) -> list[int]:
    """:func:`count` of each job, ``workers`` at a time (one per core), in order."""
    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(lambda job: count(*job), jobs))
