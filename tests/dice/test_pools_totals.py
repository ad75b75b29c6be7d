"""A joint draw whose key says it reads each part's total only (``reads_totals``) is
classed from every part's totals instead of every draw of its dice: the very same
classes (representative faces, weights, cut), in the same order, as classing every
draw. wasteland's blast (P-WL-3, WL-27, WL-28) and single shot with its CRIT dice
(WL-9, WL-13, WL-14, WL-A4) say so."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest

from fracas.dice.pools import Faces, Joint, Part, Pool, reads_totals, total
from fracas.io.files import parse_text, play_file
from fracas.rulesets.base import decided
from fracas.rulesets.wasteland.damage import CritGate, CritHit, Mitigation
from fracas.rulesets.wasteland.explosives import Throw
from tests.odds.test_folds import FRAG_ON_THREE

DEPTH = 24
"""wasteland's exact odds depth (``odds_max_rolls``): a CRIT die cut after 24 sixes."""


@dataclass(frozen=True)
class Plain:
    """The same key, without saying what it reads: every draw is classed."""

    key: Any

    def __call__(self, faces: tuple[Faces, ...]) -> Any:
        return self.key(faces)


def _throw() -> Throw:
    ef = parse_text(json.dumps(FRAG_ON_THREE), "frag.json")
    state = play_file(ef, 0).engine.state
    decision = decided(ef.ruleset, state, ef.actions[-1])
    throw = decision.family  # type: ignore[attr-defined]
    assert isinstance(throw, Throw)
    return throw


def _shot(resistance: int | None, gate: bool) -> tuple[Joint, CritHit]:
    mitigation = Mitigation(1, 0, resistance, False, 2)
    when = CritGate(mitigation, True, False) if gate else None
    joint = Joint((
        Part(Pool((6, 6)), "damage"),
        Part(Pool((6,), "repeat"), "crit", when=when),
    ))  # fmt: skip
    return joint, CritHit(mitigation)


def _cases() -> dict[str, tuple[Joint, Any]]:
    draws = _throw().draws
    return {
        "blast, 3d6": (draws.damage, draws.blasted),
        "blast, 3d6 and CRIT": (draws.with_crit, draws.blasted),
        "shot, 2d6 and CRIT": _shot(None, gate=False),
        "shot in cover, CRIT gated": _shot(4, gate=True),
    }


CASES = _cases()


@pytest.mark.parametrize("name", CASES)
def test_classes_from_the_totals_equal_classing_every_draw(name: str) -> None:
    joint, key = CASES[name]
    assert reads_totals(key, joint)
    assert not reads_totals(Plain(key), joint)
    fast, plain = joint.classes(key, DEPTH), joint.classes(Plain(key), DEPTH)
    assert fast == plain
    assert len(fast) > 10
    assert sum(c.weight for c in fast) == fast[0].den
    assert any(c.cut for c in fast) == ("CRIT" in name)


def test_a_condition_that_does_not_say_it_reads_totals_classes_every_draw() -> None:
    def over_7(faces: tuple[Faces, ...]) -> bool:
        return total(faces[0]) > 7

    joint, key = _shot(None, gate=False)
    gated = Joint((joint.parts[0], Part(joint.parts[1].pool, "crit", when=over_7)))
    assert not reads_totals(key, gated)
    assert gated.classes(key, DEPTH) == gated.classes(Plain(key), DEPTH)
