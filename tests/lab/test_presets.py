"""The tactics' presets (issue 23): mirror duels in every ruleset, both turn orders, Ana
under the default tactics against Bo as ``default``, ``naive`` (never walks) or
``random`` (a seeded pick of the default's choices). The win chances are printed
(``pytest -s``): exact where the chain holds the duel, else (wasteland) by the method
``fracas lab win`` answers with (:func:`fracas.lab.win.win`). The default is asserted to
beat ``random`` where the rules let tactics matter (by more than an estimate's
interval), and to equal itself in the mirror."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import pytest

from fracas.io.files import parse_text
from fracas.lab.chain import win_odds
from fracas.lab.fight import file_start
from fracas.lab.policy import Policy
from fracas.lab.win import win
from fracas.model import Action
from tests.lab.mirrors import LARGE, MIRRORS, mirror


@dataclass(frozen=True)
class Chances:
    """Ana's chances to win (Ana first, Bo first), Bo's summed over both orders, how
    they were found, and how far each may be off (an estimate's widest half-interval;
    a float chain's residual; 0 when exact)."""

    ana: tuple[float, float]
    bo: float
    method: str
    off: float
    exact: tuple[Fraction, Fraction] | None = None


def chances(ruleset: str, tactics: str) -> Chances:
    """The mirror's chances, exact where :data:`MIRRORS` holds it, else as ``fracas lab
    win`` finds them (the same seed every run)."""
    ana: list[float] = []
    exact: list[Fraction] = []
    bo, off, methods = 0.0, 0.0, set()
    for first in ("ana", "bo"):
        text = mirror(ruleset, first, tactics)
        if ruleset in LARGE:
            w = win(text, "mirror.yaml", seconds=20.0, workers=1)
            assert w.idle == ()
            methods.add(w.method)
            if w.method == "estimate":
                assert w.precise
                off = max(off, *(max(hi - w.sides[s], w.sides[s] - lo)
                                 for s, (lo, hi) in w.ci95.items() if s in w.sides))  # fmt: skip
            elif w.residual is not None:
                off = max(off, w.residual)
            if w.method == "exact":
                exact.append(w.exact["a"])
            ana.append(w.sides["a"])
            bo += w.sides["b"]
            continue
        ef = parse_text(text, "mirror.yaml")
        odds = win_odds(ef.ruleset, file_start(ef), Policy(ef.ruleset, ef.tactics))
        assert odds.idle == ()
        methods.add("exact")
        exact.append(odds.sides["a"])
        ana.append(float(odds.sides["a"]))
        bo += float(odds.sides["b"])
    assert len(methods) == 1
    return Chances(
        (ana[0], ana[1]),
        bo,
        methods.pop(),
        off,
        (exact[0], exact[1]) if len(exact) == 2 else None,
    )


@pytest.mark.parametrize("ruleset", [*sorted(MIRRORS), *LARGE])
def test_mirror_default_against_naive_and_random(ruleset: str) -> None:
    mirror_ = chances(ruleset, "default")
    naive = chances(ruleset, "naive")
    rand = chances(ruleset, "random")
    first, second = mirror_.ana
    print(
        f"\n{ruleset} ({mirror_.method}, within {max(mirror_.off, naive.off, rand.off):.2g}): "
        f"Ana (default) wins {first:.4f}/{second:.4f} against default, "
        f"{naive.ana[0]:.4f}/{naive.ana[1]:.4f} against naive, "
        f"{rand.ana[0]:.4f}/{rand.ana[1]:.4f} against random (Ana first/Bo first); "
        f"over both orders: {sum(naive.ana) / 2:.4f} against naive, "
        f"{sum(rand.ana) / 2:.4f} against random"
    )
    if mirror_.exact is None or naive.exact is None or rand.exact is None:
        # an estimate (or a float chain): each figure within its interval (residual)
        assert first + second == pytest.approx(1, abs=2 * mirror_.off + 1e-9)
        # over both orders Ana wins more often than Bo against random, by more than
        # the figures may be off
        assert sum(rand.ana) - rand.bo > 4 * rand.off
        return
    # the mirror: who goes first has the other's chance when the other goes first
    assert sum(mirror_.exact) == 1
    # naive never walks: the default closes in and strikes first in either order
    assert naive.exact[0] == naive.exact[1] == mirror_.exact[0]
    if ruleset == "tier-duel":
        # TD: an attack is a contest either side may win, the same odds both ways, so
        # whoever starts it and when changes nothing: every choice is worth 1/2
        assert naive.exact == rand.exact == (Fraction(1, 2), Fraction(1, 2))
    else:
        # over both orders Ana wins more often than Bo (the random side may stall into
        # a stalemate, a draw: dice-combat's random Bo ends its turn out of reach)
        assert sum(rand.ana) > rand.bo and sum(naive.exact) > 1


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
        ef = parse_text(text.replace("seed: 1", f"seed: {seed}"), "m.yaml")
        a = Policy(ef.ruleset, ef.tactics).choose(file_start(ef))
        b = Policy(ef.ruleset, ef.tactics).choose(file_start(ef))
        assert a == b
        picks.add(a)
    assert len(picks) > 1
