"""wasteland properties over random dice and sheets: HP, CT and injuries stay within
their rules (WL-14, WL-19 to WL-22), a burst rolls the to-hit dice WL-15 says, a played
attack replays exactly from its recorded dice, and exact odds sum to 1."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.engine.play import Engine
from fracas.model import Damaged
from fracas.rulesets.wasteland.data import LIMBS
from fracas.rulesets.wasteland.events import CritRolled, LimbHit
from tests.rulesets.wasteland.support import (
    SMG,
    act,
    doc,
    fight,
    limb,
    odds_of,
    ok,
    shots,
    who,
)

_CT = st.integers(0, 10)
_TARGET = st.fixed_dictionaries(
    {
        "hp": st.integers(1, 20),
        "dt": st.fixed_dictionaries({"physical": st.integers(0, 4)}),
        "dr": st.fixed_dictionaries({"physical": st.integers(0, 100)}),
        "limbs": st.fixed_dictionaries(
            {name: st.fixed_dictionaries({"ct": _CT}) for name in ("head", "torso", "left_leg")}
        ),
        "perks": st.sampled_from([[], ["deal_with_the_reaper"]]),
        "cover": st.sampled_from([None, {"type": "half", "hardness": 2}]),
    }
)


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    burst=st.booleans(),
    called=st.sampled_from([None, "head", "left_leg"]),
    target=_TARGET,
    guns=st.integers(0, 12),
)
def test_attack_invariants(
    seed: int, burst: bool, called: str | None, target: dict[str, Any], guns: int
) -> None:
    params: dict[str, Any] = {"burst": burst}
    if called is not None:
        params["called"] = called
    p = ok(
        fight(
            who("a", weapons=[{**SMG, "effects": {"bleed": 1}}], skills={"guns": guns}),
            who("b", at=(3, 0), **target),
            who("c", at=(6, 0)),
            actions=[act("a", "attack", "b", **params)],
            seed=seed,
        )
    )
    before, after = p.start, p.state
    events = p.records[-1].events
    for cid in ("b", "c"):
        dealt = sum(e.amount for e in events if isinstance(e, Damaged) and e.target == cid)
        old, new = before.get(cid), after.get(cid)
        assert dealt >= 0
        # WL-19: HP loses the final damage and stops at 0, or a save leaves 1.
        assert new.hp in (max(0, old.hp - dealt), 1)
        assert (new.hp == 0) == ("dying" in new.statuses)
        posts = sum(e.post for e in events if isinstance(e, LimbHit) and e.target == cid)
        crit = sum(e.total for e in events if isinstance(e, CritRolled)) if cid == "b" else 0
        assert dealt <= posts + crit  # WL-14: DR only reduces
        for name in LIMBS:
            was, now = limb(p, cid, name, before), limb(p, cid, name)
            assert 0 <= now.ct <= was.ct <= now.ct_max  # WL-20: CT only falls, floor 0
            if was.injury == "none" and now.injury != "none":
                assert now.ct == 0  # WL-21: an injury comes with CT 0
            if was.injury == "major":
                assert now.injury == "major"  # WL-G6: major stays major
    rolled = shots(p)
    if burst:  # WL-15: after a first-shot CRIT no more to-hit dice
        crit = rolled[0].result == "crit"
        assert [s.natural is None for s in rolled] == [False, crit, crit]
    # Replay from the recorded dice gives the same events (the log is the truth).
    engine = Engine(p.file.ruleset, p.file.start, p.file.seed)
    for record in p.records:
        assert engine.replay(record, p.file.order).events == record.events


@settings(max_examples=25, deadline=None)
@given(natural=st.integers(2, 19), dt=st.integers(0, 6), dr=st.integers(0, 100))
def test_odds_of_a_given_roll_sum_to_one(natural: int, dt: int, dr: int) -> None:
    d = doc(
        who("a", weapons=[SMG]),
        who("b", at=(3, 0), dr={"physical": dr}, limbs={"torso": {"dt": {"physical": dt}}}),
        actions=[act("a", "attack", "b", dice={"attack": natural})],
    )
    o = odds_of(d)
    b = o.combatants["b"]
    assert sum(b.damage.values()) + o.truncated == 1
    assert b.hit == (1 if natural > 10 else 0)
    # limbs and damage drawn as classes; a miss: the attack's step and the shot's, a
    # path each (the given die carried from the one to the other)
    assert o.paths <= (20 * 6 if natural > 10 else 2)
    assert all(k >= 0 for k in b.damage)
    assert b.mean <= Fraction(7, 2)
