"""A joint draw whose key reads each later part apart once the first is known
(:class:`~fracas.dice.pools.Apart`) is classed per first draw and per part instead of
over every joint draw: the very same classes (representative faces, weights, cut), in
the same order, as classing every draw. dice-combat's thrown explosive (the attack d20
and each victim's Defend d20, DC-34, DC-39, DC-43) says so: a Molotov on three victims
is 20 x 20^3 joint draws, classed in a few hundred key calls."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import pytest

from fracas.dice.pools import Apart, Faces, Joint, Key, Part, Pool, reads_apart, total
from fracas.rulesets.dice_combat.damage import Guard
from fracas.rulesets.dice_combat.explosives import _throw

DEPTH = 12


@dataclass(frozen=True)
class Plain:
    """The same key, without saying it reads the parts apart: every draw is classed."""

    key: Any

    def __call__(self, faces: tuple[Faces, ...]) -> Any:
        return self.key(faces)


def _guard(target: str, bonus: int, crit: str = "normal") -> Guard:
    return Guard(target, True, (("bonus", bonus),) if bonus else (), bonus, crit)


THROWS: dict[str, tuple[int, str, str | None, tuple[Guard, ...]]] = {
    "Molotov on three": (0, "normal", None, (_guard("bo", 0), _guard("cy", 2), _guard("dee", 1))),
    "wildcard thrower, advantage": (1, "wildcard", "advantage", (_guard("bo", 0, "wildcard"),)),
    "one victim, disadvantage": (2, "even_keel", "disadvantage", (_guard("bo", 1),)),
}


@pytest.mark.parametrize("name", THROWS)
def test_classes_read_apart_equal_classing_every_draw(name: str) -> None:
    joint, key = _throw(*THROWS[name])
    assert reads_apart(key, joint)
    assert not reads_apart(Plain(key), joint)
    fast, plain = joint.classes(key, DEPTH), joint.classes(Plain(key), DEPTH)
    assert fast == plain
    assert sum(c.weight for c in fast) == fast[0].den
    assert len(fast) >= 3  # hit or not, fumbled, or (a thrower that fumbles) scattered


def _over(n: int) -> Any:
    def when(faces: tuple[Faces, ...]) -> bool:
        return total(faces[0]) > n

    return when


@dataclass(frozen=True)
class Sums(Apart):
    """A key that reads the first part's total and each later part's total against it;
    a later part is not rolled (its key None) when the first shows ``under`` or less."""

    under: int

    def apart(self, first: Faces) -> tuple[Hashable, tuple[Key | None, ...]]:
        head = total(first)
        if head <= self.under:
            return ("low", head), (None, None)
        return head % 3, (Beats(head), Beats(head + 1))


@dataclass(frozen=True)
class Beats:
    against: int

    def __call__(self, faces: Faces) -> Hashable:
        return total(faces) >= self.against


def test_exploding_parts_with_a_cut_and_parts_not_rolled_class_alike() -> None:
    joint = Joint((
        Part(Pool((6, 6)), "attack"),
        Part(Pool((6,), "repeat"), "a", when=_over(4)),
        Part(Pool((4,), "once"), "b", when=_over(4)),
    ))  # fmt: skip
    key = Sums(4)
    fast, plain = joint.classes(key, 3), joint.classes(Plain(key), 3)
    assert fast == plain
    assert any(c.cut for c in fast) and any(c.faces[1] == () for c in fast)
    assert sum(c.weight for c in fast) == fast[0].den


def test_a_key_that_disagrees_with_a_parts_condition_is_an_error() -> None:
    joint = Joint((
        Part(Pool((6, 6)), "attack"),
        Part(Pool((6,)), "a", when=_over(5)),  # rolled over 5, the key says over 4
        Part(Pool((4,)), "b", when=_over(4)),
    ))  # fmt: skip
    with pytest.raises(AssertionError, match="'a' is not rolled but has a key"):
        joint.classes(Sums(4), 2)
