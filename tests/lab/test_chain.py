"""``fracas lab win``: the chain's exact odds against Markov chains written here, from
the single-attack distributions of ``fracas.odds.action`` (plain Fractions over (HP, HP, whose
turn)), and against icepool's absorbing chain."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from pathlib import Path

import icepool
import pytest

from fracas.errors import FracasError
from fracas.io.files import parse_text
from fracas.lab.chain import _passed_through, win_odds
from fracas.lab.exact_solve import solve_exact
from fracas.lab.fight import file_start
from fracas.lab.policy import Policy
from fracas.model import Action, Encounter
from fracas.odds.action import action_odds
from fracas.rulesets.base import Ruleset
from tests.lab.duels import DC_MELEE, DC_PISTOL, ESCALATION, TIER, duel

Joint = dict[tuple[int, int], Fraction]
"""One attack's HP losses (ana's, bo's) with their probabilities."""


def attack_dist(ruleset: Ruleset, state: Encounter, actor: str) -> Joint:
    """The single attack's joint loss distribution, from the exact per-combatant odds
    (only one side can lose HP in one attack: the target, or in a tier-duel contest
    whoever loses it; the test checks they exclude each other)."""
    target = "bo" if actor == "ana" else "ana"
    odds = action_odds(ruleset, state.with_turn(actor=actor), Action(actor, "attack", target))
    a = odds.combatants.get("ana")
    b = odds.combatants.get("bo")
    out: Joint = {}
    hurt = Fraction(0)
    for who, o in (("ana", a), ("bo", b)):
        if o is None:
            continue
        for d, p in o.damage.items():
            if d > 0:
                key = (d, 0) if who == "ana" else (0, d)
                out[key] = out.get(key, Fraction(0)) + p
                hurt += p
    assert hurt <= 1
    out[(0, 0)] = out.get((0, 0), Fraction(0)) + 1 - hurt
    return {k: p for k, p in out.items() if p}


def duel_dp(
    hp: tuple[int, int],
    attacks: int,
    dist: Callable[[str, int], Joint],
    escalates: bool,
) -> tuple[Fraction, Fraction]:
    """P(ana wins), P(bo wins): a plain DP over (HP, HP, whose turn[, level])."""

    def turn(actor: str, a: int, b: int, level: int) -> Joint:
        now: Joint = {(a, b): Fraction(1)}
        for _ in range(attacks):
            nxt: Joint = {}
            for (x, y), p in now.items():
                if x <= 0 or y <= 0:
                    nxt[(x, y)] = nxt.get((x, y), Fraction(0)) + p
                    continue
                for (la, lb), q in dist(actor, level).items():
                    key = (max(0, x - la), max(0, y - lb))
                    nxt[key] = nxt.get(key, Fraction(0)) + p * q
            now = nxt
        return now

    @cache
    def value(a: int, b: int, actor: str, level: int) -> Fraction:
        if b == 0:
            return Fraction(1)
        if a == 0:
            return Fraction(0)
        other = "bo" if actor == "ana" else "ana"
        up = level + 1 if escalates and actor == "bo" else level
        if escalates:
            return sum(
                (p * value(x, y, other, up) for (x, y), p in turn(actor, a, b, level).items()),
                Fraction(0),
            )
        # no level: a turn that changes nothing hands the same HPs to the other side
        ta, tb = turn("ana", a, b, level), turn("bo", a, b, level)
        sa, sb = ta.get((a, b), Fraction(0)), tb.get((a, b), Fraction(0))
        ra = sum(
            (p * value(x, y, "bo", 0) for (x, y), p in ta.items() if (x, y) != (a, b)), Fraction(0)
        )
        rb = sum(
            (p * value(x, y, "ana", 0) for (x, y), p in tb.items() if (x, y) != (a, b)), Fraction(0)
        )
        x = (ra + sa * rb) / (1 - sa * sb)
        return x if actor == "ana" else rb + sb * x

    win = value(hp[0], hp[1], "ana", 1 if escalates else 0)
    return win, 1 - win


def _chain(text: str) -> tuple[Ruleset, Encounter, Fraction, Fraction]:
    ef = parse_text(text)
    start = file_start(ef)
    w = win_odds(ef.ruleset, start)
    sides = list(w.sides)
    assert w.draw == 0
    return ef.ruleset, start, w.sides[sides[0]], w.sides[sides[1]]


def test_dc_melee_duel_equals_dp_crits_and_fumbles() -> None:
    """DC-29 melee (club vs knife) with DC-13 crits and fumbles: the chain equals the DP."""
    rs, start, a, b = _chain(duel(DC_MELEE, 7, 6))
    dists = {who: attack_dist(rs, start, who) for who in ("ana", "bo")}
    assert max(d for (_, d) in dists["ana"]) > 3  # a crit adds damage: crits are in it
    assert (a, b) == duel_dp((7, 6), 1, lambda who, _: dists[who], escalates=False)


def test_tier_duel_contest_either_side_damages_equals_dp() -> None:
    """TD-6 melee contest: either side may deal damage, whoever attacks."""
    rs, start, a, b = _chain(duel(TIER, 14, 12))
    dists = {who: attack_dist(rs, start, who) for who in ("ana", "bo")}
    assert any(la > 0 for (la, _) in dists["ana"]) and any(lb > 0 for (_, lb) in dists["ana"])
    assert (a, b) == duel_dp((14, 12), 1, lambda who, _: dists[who], escalates=False)


def test_escalation_duel_damage_grows_equals_dp() -> None:
    """ES-3: damage = Escalation + rating - rating, Escalation +1 after the enemies' turn;
    two attacks a turn (ES-2)."""
    ef = parse_text(duel(ESCALATION, 9, 10))
    start = file_start(ef)
    w = win_odds(ef.ruleset, start)

    @cache
    def dist(who: str, level: int) -> Joint:
        at = start.with_turn(actor=who)
        leveled = dataclasses.replace(at, values={"escalation": level})
        return attack_dist(ef.ruleset, leveled, who)

    assert w.draw == 0
    assert (w.sides["players"], w.sides["enemies"]) == duel_dp((9, 10), 2, dist, escalates=True)


def test_pistol_duel_equals_icepool_absorbing_chain() -> None:
    """DC-9 pistols: the chain equals icepool's absorbing Markov chain (ammo: a free
    reload, DC-10, never changes the fight)."""
    rs, start, a, b = _chain(duel(DC_PISTOL, 4, 5))
    dists = {who: attack_dist(rs, start, who) for who in ("ana", "bo")}
    dies = {
        who: icepool.Die({k: int(v * 10**12) for k, v in d.items()}) for who, d in dists.items()
    }
    den = {who: sum(int(v * 10**12) for v in d.values()) for who, d in dists.items()}
    assert all(v == 10**12 for v in den.values())  # the weights are exact

    def step(a_hp: int, b_hp: int, turn: int) -> object:
        if a_hp == 0 or b_hp == 0:
            return (a_hp, b_hp, turn)
        who = "ana" if turn == 0 else "bo"
        return dies[who].map(
            lambda la, lb: (max(0, a_hp - la), max(0, b_hp - lb), 1 - turn), star=True
        )

    end = icepool.Die([(4, 5, 0)]).map(step, star=True, repeat="inf")
    ana = sum((Fraction(q, end.denominator()) for o, q in end.items() if o[1] == 0), Fraction(0))
    assert a == ana and b == 1 - ana


def test_too_many_states_refused_suggests_sim() -> None:
    ef = parse_text(duel(DC_PISTOL, 12, 12))
    with pytest.raises(FracasError) as err:
        win_odds(ef.ruleset, file_start(ef), max_states=50)
    assert err.value.code == "too_many_states"
    assert "fracas lab sim" in err.value.message


SOAK = """
ruleset: soak
order: [mara, brute]
combatants:
  - {id: mara, name: Mara, side: a, at: [0, 0], hp: 5, max_hp: 5, agility: 3,
     skills: {dueling: 3}, proficiencies: [sword], ev: 13, av: 1,
     weapons: [{name: sword, dice: 1d8}]}
  - {id: brute, name: Brute, side: b, at: [1, 0], hp: 5, max_hp: 5, agility: 1,
     skills: {dueling: 2}, proficiencies: [axe], ev: 11, av: 1,
     weapons: [{name: axe, dice: 1d6}]}
"""


def test_exploding_dice_cut_mass_is_reported() -> None:
    """SK-7: proficient damage dice explode without end; the chain cuts them at soak's
    odds_max_rolls and reports the mass cut: wins, draws and the cut sum to 1."""
    ef = parse_text(SOAK)
    w = win_odds(ef.ruleset, file_start(ef))
    assert 0 < w.truncated < Fraction(1, 10**6)
    assert sum(w.sides.values()) + w.draw + w.truncated == 1
    assert "truncated" in w.to_json()


def test_solver_gamblers_ruin_through_certain_states_and_a_ring() -> None:
    """The sparse elimination, with states passed through: a gambler's ruin on 0..4
    (up with 1/3 through a state that leads on for certain, one round each step up;
    down with 2/3), and from the start a 1/5 chance to fall into a ring of two states
    that lead to each other for certain (a stalemate). Known answers: reaching 4 from
    1 is (1 - 2) / (1 - 2**4) = 1/15 of the rest."""
    labels = ["a", "b", "draw", "\0cut", "\0stalemate"]
    ends = {0: "b", 4: "a"}
    third, two_thirds = Fraction(1, 3), Fraction(2, 3)
    # nodes 0..4: money; 5..7: the certain states on the way up from 1..3; 8, 9: the ring
    edges: list[list[tuple[int, Fraction, int]]] = [[] for _ in range(11)]
    for k in (1, 2, 3):
        edges[k] = [(4 + k, third, 0), (k - 1, two_thirds, 0)]
        edges[4 + k] = [(k + 1, Fraction(1), 1)]
    edges[8] = [(9, Fraction(1), 0)]
    edges[9] = [(8, Fraction(1), 0)]
    edges[10] = [(1, Fraction(4, 5), 0), (8, Fraction(1, 5), 0)]  # the start
    through = _passed_through(edges, ends)
    assert through[1] == [(2, third, 1), (0, two_thirds, 0)]
    assert through[8] == [(9, Fraction(1), 0)]  # the ring is left as it is
    values, _ = solve_exact(through, ends, labels)
    assert values[1][0] == Fraction(1, 15) and values[2][0] == Fraction(1, 5)
    assert values[10] == [Fraction(4, 75), Fraction(56, 75), 0, 0, Fraction(1, 5)]
    plain, rounds = solve_exact(edges, ends, labels)
    assert plain[10] == values[10]
    assert rounds[1] == solve_exact(through, ends, labels)[1][1]


def test_stalemate_is_a_draw() -> None:
    """Two fighters out of each other's reach who do not walk (``approach: false``): the
    fight cannot end; the chain says so (a draw, all of it a stalemate)."""
    ef = parse_text(
        DC_MELEE.replace("at: [1, 0]", "at: [5, 0]").replace("HP_A", "5").replace("HP_B", "5")
        + "tactics: {ana: {approach: false}, bo: {approach: false}}\n"
    )
    w = win_odds(ef.ruleset, file_start(ef), Policy(ef.ruleset, ef.tactics))
    assert w.draw == w.stalemate == 1 and set(w.sides.values()) == {0}


def test_who_only_ends_their_turns_is_named_idle(tmp_path: Path) -> None:
    """A knife fighter 5 tiles from a pistol who does not walk (``approach: false``) only
    ends its turns in every state of the chain: the odds name it; the same duel where it
    walks (the default) names nobody. ``fracas lab win`` says so in words."""
    from tests.helpers import cli

    far = """
ruleset: dice-combat
order: [ana, bo]
combatants:
  - {id: ana, name: Ana, side: a, at: [0, 0], hp: 3, hand: {is: pistol, loaded: 8}}
  - {id: bo, name: Bo, side: b, at: [5, 0], hp: 3, hand: knife}
"""
    still = far + "tactics: {bo: {approach: false}}\n"
    ef = parse_text(still)
    odds = win_odds(ef.ruleset, file_start(ef), Policy(ef.ruleset, ef.tactics))
    assert odds.idle == ("bo",) and odds.to_json()["idle"] == ["bo"]
    assert odds.sides["a"] == 1  # Ana shoots him down, unanswered
    walking = parse_text(far)
    assert win_odds(walking.ruleset, file_start(walking)).idle == ()
    path = tmp_path / "still.yaml"
    path.write_text(still)
    result = cli("lab", "win", str(path))
    assert result.exit_code == 0, result.stderr
    assert "Bo only ends its turn here" in result.stdout
    assert "approach: false" in result.stdout
