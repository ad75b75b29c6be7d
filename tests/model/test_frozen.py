"""``fracas.model.frozen.canonical``: equal values of the rules are one object, so the rules'
memos (wasteland's harm, keyed by options, weapon and victim) find a file loaded again
by identity. A value is never changed by it: only which of equal copies is given."""

from __future__ import annotations

import json

from fracas.io.files import parse_text, play_file
from fracas.model.frozen import FrozenDict, canonical
from fracas.rulesets.base import decide
from fracas.rulesets.wasteland.explosives import Throw
from tests.odds.test_folds import FRAG_ON_THREE


def test_the_first_equal_value_is_given_and_an_unhashable_one_as_it_is() -> None:
    first = FrozenDict({"dr": 10, "limbs": (1, 2)})
    again = FrozenDict({"limbs": (1, 2), "dr": 10})
    assert again is not first and canonical(first) is first and canonical(again) is first
    other = FrozenDict({"dr": 20})
    assert canonical(other) is other
    loose = {"dr": 10}
    assert canonical(loose) is loose  # a dict: not hashable, not kept


def _throw() -> tuple[Throw, object]:
    ef = parse_text(json.dumps(FRAG_ON_THREE), "frag.json")
    state = play_file(ef, 0).engine.state
    throw = decide(ef.ruleset, state, ef.actions[-1]).family  # type: ignore[attr-defined]
    assert isinstance(throw, Throw)
    return throw, ef.ruleset.options


def test_P_WL_3_a_file_loaded_again_throws_with_the_same_options_weapon_and_victims() -> None:
    (one, options), (two, again) = _throw(), _throw()
    assert one is not two and one == two
    assert again is options
    assert two.weapon is one.weapon
    assert all(b is a for a, b in zip(one.victims, two.victims, strict=True))
    assert [v.id for v in one.victims] == ["b", "c", "d"]
