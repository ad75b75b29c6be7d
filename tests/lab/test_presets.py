"""The tactics' presets (issue 23): mirror duels in every ruleset the exact chain holds,
both turn orders, Ana under the default tactics against Bo as ``default``, ``naive``
(never walks) or ``random`` (a seeded pick of the default's choices). The win chances
are printed (``pytest -s``); the default is asserted to beat ``random`` where the rules
let tactics matter, and to equal itself in the mirror."""

from __future__ import annotations

from fractions import Fraction

import pytest

from fracas.files import parse_text
from fracas.lab.chain import win_odds
from fracas.lab.fight import file_start
from fracas.lab.policy import Policy
from fracas.model import Action
from tests.lab.mirrors import MIRRORS, mirror


def ana_wins(ruleset: str, tactics: str) -> tuple[Fraction, Fraction]:
    """Ana's exact chance to win with Ana first, then with Bo first."""
    return wins(ruleset, tactics)[0]


def wins(ruleset: str, tactics: str) -> tuple[tuple[Fraction, Fraction], Fraction]:
    """Ana's exact chances to win (Ana first, Bo first), and Bo's summed over both."""
    out = []
    bo = Fraction(0)
    for first in ("ana", "bo"):
        ef = parse_text(mirror(ruleset, first, tactics), "mirror.yaml")
        w = win_odds(ef.ruleset, file_start(ef), Policy(ef.ruleset, ef.tactics))
        assert w.idle == ()
        out.append(w.sides["a"])
        bo += w.sides["b"]
    return (out[0], out[1]), bo


@pytest.mark.parametrize("ruleset", sorted(MIRRORS))
def test_mirror_default_against_naive_and_random(ruleset: str) -> None:
    mirror_first, mirror_second = ana_wins(ruleset, "default")
    # the mirror: who goes first has the other's chance when the other goes first
    assert mirror_first + mirror_second == 1
    naive = ana_wins(ruleset, "naive")
    rand, bo_random = wins(ruleset, "random")
    print(
        f"\n{ruleset}: Ana (default) wins {float(mirror_first):.4f}/{float(mirror_second):.4f} "
        f"against default, {float(naive[0]):.4f}/{float(naive[1]):.4f} against naive, "
        f"{float(rand[0]):.4f}/{float(rand[1]):.4f} against random (Ana first/Bo first)"
    )
    # naive never walks: the default closes in and strikes first in either order
    assert naive[0] == naive[1] == mirror_first
    if ruleset == "tier-duel":
        # TD: an attack is a contest either side may win, the same odds both ways, so
        # whoever starts it and when changes nothing: every choice is worth 1/2
        assert naive == rand == (Fraction(1, 2), Fraction(1, 2))
    else:
        # over both orders Ana wins more often than Bo (the random side may stall into
        # a stalemate, a draw: dice-combat's random Bo ends its turn out of reach)
        assert sum(rand) > bo_random and sum(naive) > 1


def test_naive_attacks_the_first_enemy_it_can_and_never_walks() -> None:
    text = mirror("dice-combat", "bo", "naive")
    ef = parse_text(text, "mirror.yaml")
    policy = Policy(ef.ruleset, ef.tactics)
    assert policy.choose(file_start(ef)) == Action("bo", "end_turn")  # Ana is 4 tiles off
    near = parse_text(text.replace("at: [4, 0]", "at: [1, 0]"), "near.yaml")
    assert Policy(near.ruleset, near.tactics).choose(file_start(near)) == Action(
        "bo", "attack", "ana"
    )


def test_random_is_a_seeded_function_of_the_state() -> None:
    text = mirror("dice-combat", "bo", "random")
    picks = set()
    for seed in range(6):
        ef = parse_text(text.replace("preset: random", f"preset: random, seed: {seed}"), "m.yaml")
        a = Policy(ef.ruleset, ef.tactics).choose(file_start(ef))
        b = Policy(ef.ruleset, ef.tactics).choose(file_start(ef))
        assert a == b
        picks.add(a)
    assert len(picks) > 1
