"""Joint draws (``fracas.dice.pools.Joint``): several pools drawn as one class of a key,
a later part rolled only when a test of the faces before it passes. The classes must
give the die-by-die enumeration's distribution exactly, and live dice roll every die
of every part that is rolled, in order, under its own label."""

from __future__ import annotations

from fractions import Fraction

from fracas.dice.exact import enumerate_exact
from fracas.dice.pools import Faces, Joint, Part, Pool, roll_joint, total
from fracas.dice.source import Dice, GivenDice


def _over(limit: int):  # type: ignore[no-untyped-def]
    def when(faces: tuple[Faces, ...]) -> bool:
        return total(faces[0]) > limit

    return when


def _sum_all(faces: tuple[Faces, ...]) -> int:
    return sum(total(f) for f in faces)


def _rolled(faces: tuple[Faces, ...]) -> tuple[int, bool]:
    return sum(total(f) for f in faces), bool(faces[1])


GATED = Joint((
    Part(Pool((6, 4)), "damage"),
    Part(Pool((6,), "once"), "crit", when=_over(6)),
))  # fmt: skip
"""A d6 and a d4, then a d6 exploding once, rolled only when the two show over 6."""


def _distribution(joint: Joint, key, pools: bool):  # type: ignore[no-untyped-def]
    def fn(dice: Dice):  # type: ignore[no-untyped-def]
        return key(roll_joint(dice, joint, key=key))

    return enumerate_exact(fn, pools=pools)


def test_a_gated_joint_draw_equals_the_die_by_die_enumeration() -> None:
    for key in (_sum_all, _rolled):
        pooled = _distribution(GATED, key, True)
        plain = _distribution(GATED, key, False)
        assert pooled.outcomes == plain.outcomes
        assert sum(pooled.outcomes.values()) == 1
        assert pooled.paths < plain.paths
    # By hand: d6 + d4 over 6 (10 of 24) rolls the CRIT d6, which never shows 0.
    d = _distribution(GATED, _rolled, True).outcomes
    assert sum(p for (_, rolled), p in d.items() if rolled) == Fraction(10, 24)
    assert d[(5, False)] == Fraction(4, 24)  # 1+4, 2+3, 3+2, 4+1


def test_a_skipped_part_keeps_its_whole_mass_in_the_class_weights() -> None:
    classes = GATED.classes(_rolled, 10)
    den = classes[0].den
    assert all(c.den == den for c in classes)
    assert sum(c.weight for c in classes) == den
    assert den == 6 * 4 * 36  # the CRIT d6 exploding once: 36 chains
    skipped = sum(c.weight for c in classes if not c.faces[1])
    assert Fraction(skipped, den) == Fraction(14, 24)


def test_an_exploding_part_is_cut_at_the_depth_like_a_pool() -> None:
    joint = Joint((Part(Pool((4,)), "damage"), Part(Pool((6,), "repeat"), "crit")))
    pooled = enumerate_exact(lambda dice: _sum_all(roll_joint(dice, joint, key=_sum_all)),
                             max_rolls=5)  # fmt: skip
    # The CRIT die cut after 5 sixes: its mass 1/6**5, each such path at least 4 sixes,
    # then the least, so the damage 1 + 30 + 1 for the least damage face.
    assert pooled.truncated == Fraction(1, 6**5)
    assert min(pooled.cut) == 1 + 6 * 5 + 1
    assert sum(pooled.outcomes.values()) + pooled.truncated == 1
    # Below every cut path, each total has exactly its die-by-die probability.
    plain = enumerate_exact(
        lambda dice: _sum_all(roll_joint(dice, joint, key=_sum_all)), max_rolls=7, pools=False
    )
    for value in range(2, 31):
        assert pooled.outcomes.get(value) == plain.outcomes.get(value), value


class _Log:
    def __init__(self, faces: list[int]) -> None:
        self.faces = faces
        self.rolls: list[tuple[str, int]] = []

    def roll(self, sides: int, label: str, *, of: str | None = None, n: int | None = None) -> int:
        face = self.faces.pop(0)
        self.rolls.append((label, face))
        return face


def test_live_dice_roll_every_die_in_order_and_skip_a_refused_part() -> None:
    low = _Log([2, 3])
    assert roll_joint(low, GATED, key=_sum_all) == (((2,), (3,)), ())
    assert low.rolls == [("damage", 2), ("damage", 3)]
    high = _Log([6, 4, 6, 2])
    assert roll_joint(high, GATED, key=_sum_all) == (((6,), (4,)), ((6, 2),))
    assert high.rolls == [("damage", 6), ("damage", 4), ("crit", 6), ("crit", 2)]
    given = GivenDice({"damage": [5, 4], "crit": [3]}, None)
    assert roll_joint(given, GATED, key=_sum_all) == (((5,), (4,)), ((3,),))
