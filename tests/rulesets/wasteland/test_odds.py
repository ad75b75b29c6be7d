"""wasteland exact odds (README "Command line", wasteland.md 2.8): a single shot and a
burst, from the same resolution code as play (no per-ruleset odds code)."""

from __future__ import annotations

from fractions import Fraction as F

from tests.rulesets.wasteland.support import PISTOL, SMG, act, doc, odds_of, who


def test_single_shot_exact_distribution() -> None:
    # Total = natural + 2 against Evasion 10: naturals 9..20 hit (20 a CRIT), 1..8 miss.
    # A hit deals 1d6; a CRIT adds an exploding 1d6.
    d = doc(
        who("a", weapons=[PISTOL], skills={"guns": 2}),
        who("b", at=(3, 0)),
        actions=[act("a", "attack", "b")],
    )
    o = odds_of(d)
    b = o.combatants["b"]
    # Cut CRIT explosions: the CRIT die is cut after 24 sixes in a row (the ruleset's
    # depth, per exploding die); that mass is reported, never counted in the damage.
    assert o.truncated == F(1, 20) * F(1, 6) ** 24
    assert b.hit == F(3, 5)  # WL-7: decided by the d20, before any CRIT die explodes
    assert b.damage[0] == F(2, 5)
    assert b.damage[1] == F(11, 20) * F(1, 6)
    assert b.damage[2] == F(11, 120) + F(1, 20) * F(1, 36)
    assert b.damage[6] == F(11, 120) + F(1, 20) * F(5, 36)
    assert sum(b.damage.values()) + o.truncated == 1
    # Die by die: misses; hits without CRIT (20 locations x 6 damage); CRITs with a CRIT
    # die chain of 1..21 rolls ending on 1..5. Drawn as classes (the d20's result, the
    # limb, the damage total, the CRIT total), far fewer.
    assert o.paths < (8 + 11 * 20 * 6 + 20 * 6 * 21 * 5) // 3


def test_single_shot_dt_per_limb_makes_the_location_count() -> None:
    # Torso (faces 3-8) DT 6 stops any 1d6; the other 14 faces take it whole.
    d = doc(
        who("a", weapons=[PISTOL], skills={"guns": 2}, crit_min=21),
        who("b", at=(3, 0), limbs={"torso": {"dt": {"physical": 6}}}),
        actions=[act("a", "attack", "b")],
    )
    b = odds_of(d).combatants["b"]
    assert b.hit == F(3, 5)
    assert b.damage[0] == F(2, 5) + F(3, 5) * F(6, 20)
    assert b.damage[4] == F(3, 5) * F(14, 20) * F(1, 6)


def test_burst_exact_distribution_with_fixed_locations_and_damage() -> None:
    # Totals = naturals (guns 2, burst -2) against Evasion 10. Each hit deals 3; a first-
    # shot CRIT hits with all three and adds one exploding d6.
    dice = {f"{k}:{n}": v for n in (1, 2, 3) for k, v in (("location", 5), ("damage", 3))}
    d = doc(
        who("a", weapons=[SMG], skills={"guns": 2}),
        who("b", at=(3, 0)),
        actions=[act("a", "attack", "b", burst=True, dice=dice)],
    )
    o = odds_of(d)
    b = o.combatants["b"]
    assert o.truncated == F(1, 20) * F(1, 6) ** 24  # the CRIT die cut after 24 sixes
    # the cut path's first shot hit before its CRIT die was cut (a step before): known
    assert b.hit == F(7, 8)
    assert b.cut == o.truncated
    assert b.damage[0] == F(1, 8)
    assert b.damage[3] == F(29, 80)
    assert b.damage[6] == F(7, 20)
    assert b.damage[9] == F(9, 80)
    assert b.damage[10] == F(1, 20) * F(1, 6)  # a CRIT: 9 + a CRIT die of 1
    # No first-shot CRIT: 19 x 20 x 20; a CRIT: one CRIT die chain of 1..23 rolls.
    assert o.paths <= 19 * 20 * 20 + 23 * 5  # die by die at most


def test_burst_odds_list_every_creature_on_the_line_of_fire() -> None:
    dice = {f"{k}:{n}": v for n in (1, 2, 3) for k, v in (("location", 5), ("damage", 3))}
    d = doc(
        who("a", weapons=[SMG], skills={"guns": 2}, crit_min=21, critfail_max=0),
        who("b", at=(3, 0)),
        who("c", at=(6, 0), evasion_mod=-5),
        actions=[act("a", "attack", "b", burst=True, dice=dice)],
    )
    o = odds_of(d)
    assert o.paths <= 20**3  # die by die: 20**3; the d20s drawn as classes
    # A shot misses b with naturals 1..10; it then hits c (Evasion 5) with 6..10.
    c = o.combatants["c"]
    assert c.hit == 1 - (1 - F(1, 4)) ** 3
    assert c.damage[9] == F(1, 4) ** 3
