"""Crash safety in CI: ``fracas play`` killed with SIGKILL at 10 random moments of a
scripted session (attacks, undo, redo, manual dice), each time checked and resumed.

``tests/play/crash.py`` says what is checked; ``bench/stress_crash.py`` runs the same
trial hundreds of times by hand (``--trials 200``).
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from tests.play.crash import script, trial

TRIALS = 10


def test_killed_at_random_moments_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    s = script(tmp_path)
    rng = random.Random(20261130)
    results = [trial(tmp_path, s, rng) for _ in range(TRIALS)]
    # the trials did land at different places of the session
    assert len(Counter(r.stored for r in results)) >= 3
