"""Events that declare ``keeps_down`` (``fracas.odds.outcomes``: exact odds skip them when a
finished path is folded only to see who is down; ``fracas.lab.folds``: the tactics' gains
skip them) never change who is down nor anyone's HP: every action of every example, over
several seeds, folded with and without them."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.engine.play import Engine
from fracas.errors import FracasError
from fracas.io.files import load
from fracas.model import fold
from fracas.rulesets.base import is_down

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.yaml"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_keeps_down_events_never_change_who_is_down_nor_hp(path: Path) -> None:
    ef = load(str(path))
    skipped = 0
    for seed in range(1, 9):
        engine = Engine(ef.ruleset, ef.start, seed)
        engine.begin(ef.dice, ef.order)
        for action in ef.actions:
            before = engine.state
            try:
                events = engine.act(action).events
            except FracasError:  # this seed took the fight elsewhere
                break
            kept = [e for e in events if not getattr(type(e), "keeps_down", False)]
            skipped += len(events) - len(kept)
            whole, short = fold(before, events), fold(before, kept)
            for cid, c in whole.combatants.items():
                assert is_down(ef.ruleset, c) == is_down(ef.ruleset, short.get(cid)), (seed, cid)
                assert c.hp == short.get(cid).hp, (seed, cid)
    if path.stem in ("soak", "wasteland"):
        assert skipped > 0  # their AP, limbs, AV and wounds
