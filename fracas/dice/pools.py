"""Pools: several dice (exploding, kept highest or lowest) asked for as one draw.

A rule that uses a total of dice, an exploding die or the best of two d20s asks for the
whole draw at once::

    faces = roll_pool(dice, Pool((6, 6)), "damage", key=total)

Live, typed-in and replayed dice roll every die in order with ``dice.roll`` (an
explosion's extra die right after the die that exploded) and record every face, so the
log, the manual-dice prompt and replays are those of the single rolls. The exact
enumerator instead branches once per distinct value of ``key`` over the whole draw,
with its exact weight, and answers with a representative set of faces of that class
(:meth:`Pool.classes`). So a rule must read of the faces only what ``key`` tells apart:
``key(faces)`` is the same for every draw of a class. "Read" as the exact odds read:
the summary (attempts, damage dealt) and who is down at the end; what only feeds a log
line, or an event that declares ``keeps_down`` and that nothing later in the roll reads
(a limb's CT, ``fracas.odds.outcomes``), may come from the representative. Per die,
the enumerator keeps
apart the sum of its faces and whether it showed its maximum (an explosion or a
maximum) and nothing else; a key may use those. Tests check every pooled roll against
the die-by-die enumeration.

``key`` must be hashable and compare by value (a module function, or a frozen
dataclass with ``__call__`` for a key that depends on the decision, such as a
threshold): the classes are computed once per (pool, key, depth) and kept.

A :class:`Joint` draw is several pools rolled one after the other, each under its own
label, a later one only when a test of the faces before it says so (damage dice, then
the CRIT dice if the damage got through): live, die by die in that order; the
enumerator branches once per class of ``key`` over every part together, so a total
that is only added to another is convolved instead of followed value by value. The
key must tell apart all the odds read of the faces: what changes the state or the
summary (damage dealt, whether it was stopped); the faces a class answers with are
one representative draw of it, so a log line that shows other faces is prose only.

A joint key that reads each later part apart from the others once the first part's
faces are known (an attack d20, then each victim's Defend d20 against its total) says
so by deriving from :class:`Apart`: its classes are then worked out per first draw and
per part, and combined, instead of over every joint draw (20 x 20^3 draws for a blast
on three): the very same classes, representatives and order.
"""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol, runtime_checkable

from fracas.dice.source import Dice

__all__ = [
    "Apart",
    "Class",
    "Faces",
    "Joint",
    "JointClass",
    "JointKey",
    "Key",
    "Part",
    "Pool",
    "PoolDice",
    "keep_highest",
    "keep_lowest",
    "roll_joint",
    "roll_pool",
    "total",
]

Faces = tuple[tuple[int, ...], ...]
"""Per die of the pool, the faces it showed: one face, or an explosion chain."""

Key = Callable[[Faces], Hashable]
JointKey = Callable[[tuple[Faces, ...]], Hashable]
"""A joint draw's key: over the faces of every part (``()`` for a part not rolled)."""


@dataclass(frozen=True, slots=True)
class Pool:
    """Dice rolled together: their sizes, in order, and how they explode.

    ``explode``: ``None`` (never), ``"once"`` (a die at its maximum is rolled once more
    and added) or ``"repeat"`` (again while the maximum repeats).
    """

    sides: tuple[int, ...]
    explode: str | None = None

    def roll_each(
        self, dice: Dice, label: str, *, of: str | None = None, n: int | None = None
    ) -> Faces:
        """Every die in order, each explosion right after the die that exploded."""
        out: list[tuple[int, ...]] = []
        for sides in self.sides:
            face = dice.roll(sides, label, of=of, n=n)
            chain = [face]
            if self.explode is not None:
                while face == sides:
                    face = dice.roll(sides, label, of=of, n=n)
                    chain.append(face)
                    if self.explode == "once":
                        break
            out.append(tuple(chain))
        return tuple(out)

    def classes(self, key: Key, depth: int) -> tuple[Class, ...]:
        """The distinct values of ``key`` over every draw, each with its probability and a
        representative draw; a die exploding ``depth`` times is cut there, its mass a
        class of its own marked ``cut`` whose faces are the least such chain."""
        return _classes(self, key, depth)


@dataclass(frozen=True, slots=True)
class Class:
    """One outcome class of a pool: a representative draw, its weight over ``den``, and
    whether it stands for draws cut at the depth (its faces then the least of them)."""

    faces: Faces
    weight: int
    den: int
    cut: bool


@runtime_checkable
class PoolDice(Protocol):
    """A dice source that answers a whole pool at once (the exact enumerator)."""

    def draw(self, pool: Pool, key: Key, label: str, of: str | None, n: int | None) -> Faces: ...


@dataclass(frozen=True, slots=True)
class Part:
    """One part of a :class:`Joint` draw: a pool under its own label, rolled only when
    ``when`` (given the faces of the parts before it) is true; None: always."""

    pool: Pool
    label: str
    n: int | None = None
    of: str | None = None
    when: Callable[[tuple[Faces, ...]], bool] | None = None


@dataclass(frozen=True, slots=True)
class Joint:
    """Pools rolled one after the other as one draw (a part may be skipped)."""

    parts: tuple[Part, ...]

    def roll_each(self, dice: Dice) -> tuple[Faces, ...]:
        """Every part in order, die by die; a part its ``when`` refuses is ``()``."""
        out: list[Faces] = []
        for part in self.parts:
            if part.when is not None and not part.when(tuple(out)):
                out.append(())
                continue
            out.append(part.pool.roll_each(dice, part.label, of=part.of, n=part.n))
        return tuple(out)

    def classes(self, key: JointKey, depth: int) -> tuple[JointClass, ...]:
        """The distinct values of ``key`` over every joint draw, as :meth:`Pool.classes`."""
        return _joint_classes(self, key, depth)


@dataclass(frozen=True, slots=True)
class JointClass:
    """One outcome class of a joint draw (as :class:`Class`): faces per part."""

    faces: tuple[Faces, ...]
    weight: int
    den: int
    cut: bool


def roll_joint(dice: Dice, joint: Joint, *, key: JointKey) -> tuple[Faces, ...]:
    """The faces of every part of ``joint``: die by die, or one branch per class of
    ``key`` where the source can (the exact enumerator).

    >>> from fracas.dice.source import GivenDice
    >>> big = Joint((Part(Pool((6,)), "damage"),
    ...              Part(Pool((6,), "repeat"), "crit", when=lambda f: total(f[0]) > 3)))
    >>> roll_joint(GivenDice({"damage": [2, 5], "crit": [6, 1]}, None), big, key=repr)
    (((2,),), ())
    """
    draw = getattr(dice, "draw_joint", None)
    if draw is not None:
        return draw(joint, key)  # type: ignore[no-any-return]
    return joint.roll_each(dice)


def roll_pool(
    dice: Dice,
    pool: Pool,
    label: str,
    *,
    key: Key,
    of: str | None = None,
    n: int | None = None,
) -> Faces:
    """The faces of ``pool`` rolled under ``label``: die by die, or as one draw where the
    source can (the exact enumerator), branching on ``key``'s classes.

    >>> from fracas.dice.source import GivenDice
    >>> roll_pool(GivenDice({"damage": [6, 2, 3]}, None), Pool((6, 4), "repeat"), "damage",
    ...           key=total)
    ((6, 2), (3,))
    """
    draw = getattr(dice, "draw", None)  # a PoolDice (a getattr: an isinstance costs more)
    if draw is not None:
        return draw(pool, key, label, of, n)  # type: ignore[no-any-return]
    return pool.roll_each(dice, label, of=of, n=n)


def total(faces: Faces) -> int:
    """The sum of every face of the draw."""
    return sum(map(sum, faces))


def keep_highest(faces: Faces) -> int:
    """The highest die (an edge's kept d20)."""
    return max(sum(chain) for chain in faces)


def keep_lowest(faces: Faces) -> int:
    """The lowest die."""
    return min(sum(chain) for chain in faces)


_Chain = tuple[tuple[int, ...], int, bool]


def _chains(sides: int, explode: str | None, depth: int) -> tuple[list[_Chain], int]:
    """One die's outcomes: each chain with its weight over the returned denominator, and
    whether it is the cut tail (the maximum ``depth`` times in a row; least of them: a 1
    after)."""
    if explode is None:
        return [((f,), 1, False) for f in range(1, sides + 1)], sides
    if explode == "once":
        once: list[_Chain] = [((f,), sides, False) for f in range(1, sides)]
        return once + [((sides, g), 1, False) for g in range(1, sides + 1)], sides * sides
    den = sides**depth
    out: list[_Chain] = []
    for k in range(depth):  # k explosions, then a face under the maximum
        out += [((sides,) * k + (f,), sides ** (depth - k - 1), False) for f in range(1, sides)]
    return [*out, ((sides,) * depth + (1,), 1, True)], den


_Grouped = tuple[tuple[tuple[tuple[int, ...], int, bool], ...], ...]


@lru_cache(maxsize=1024)
def _dice(pool: Pool, depth: int) -> tuple[_Grouped, int]:
    """Per die of ``pool``, its chains grouped by (sum, showed its maximum, cut), each
    (a chain, weight, cut); and the pool's denominator. Kept per (pool, depth): every
    key of the pool classes the same chains."""
    per_die = []
    den = 1
    for sides in pool.sides:
        grouped: dict[tuple[int, bool, bool], list[Any]] = {}
        chains, die_den = _chains(sides, pool.explode, max(1, depth))
        den *= die_den
        for chain, w, cut in chains:
            group = (sum(chain), sides in chain, cut)
            found = grouped.get(group)
            if found is None:
                grouped[group] = [chain, w, cut]
            else:
                found[1] += w
        per_die.append(tuple((chain, w, cut) for chain, w, cut in grouped.values()))
    return tuple(per_die), den


@lru_cache(maxsize=4096)
def _classes(pool: Pool, key: Key, depth: int) -> tuple[Class, ...]:
    per_die, den = _dice(pool, depth)
    classes: dict[tuple[Hashable, bool], list[Any]] = {}
    # Every draw (a chain per die): the dice but the last added one at a time (per
    # partial draw its faces, weight and whether it took a cut tail), then the last
    # die's chains classed as they are met.
    heads: list[tuple[Faces, int, bool]] = [((), 1, False)]
    for die in per_die[:-1]:
        heads = [
            ((*faces, chain), w * q, cut or c) for faces, w, cut in heads for chain, q, c in die
        ]
    last = per_die[-1] if per_die else [((), 1, False)]
    get = classes.get
    for head, w, cut in heads:
        for chain, q, c in last:
            faces = (*head, chain) if per_die else head
            k = (key(faces), cut or c)
            found = get(k)
            if found is None:
                classes[k] = [faces, w * q]  # the first draw met stands for its class
            else:
                found[1] += w * q
    return tuple(Class(rep, w, den, cut) for (_, cut), (rep, w) in classes.items())


def _add(classes: dict[tuple[Hashable, bool], list[Any]], k: Any, faces: Any, w: int) -> None:
    """Add a draw of weight ``w`` to its class (the first draw met stands for it)."""
    found = classes.get(k)
    if found is None:
        classes[k] = [faces, w]
    else:
        found[1] += w


def reads_totals(key: JointKey, joint: Joint) -> bool:
    """Whether ``key`` and every part's ``when`` of ``joint`` say they read of each part's
    faces nothing but its total (and whether it was rolled): a class attribute
    ``reads_totals = True`` on each. Its classes are then worked out from each part's
    totals (:func:`_part_draws`), the same classes with the same representatives."""
    return getattr(key, "reads_totals", False) is True and all(
        part.when is None or getattr(part.when, "reads_totals", False) is True
        for part in joint.parts
    )


@lru_cache(maxsize=1024)
def _part_draws(pool: Pool, depth: int, by_total: bool) -> tuple[tuple[Faces, int, bool], ...]:
    """Every draw of ``pool`` (a chain per die, in order), its weight and whether it took
    a cut tail; ``by_total``: one per (total, cut), its first draw standing for it, the
    weights summed (a key that reads only the total tells no more apart, and its first
    draws are those it would have met first)."""
    per_die, _ = _dice(pool, depth)
    draws: list[tuple[Faces, int, bool]] = []
    for combo in itertools.product(*per_die):
        q, c = 1, False
        for _, weight, chain_cut in combo:
            q *= weight
            c = c or chain_cut
        draws.append((tuple(chain for chain, _, _ in combo), q, c))
    if not by_total:
        return tuple(draws)
    grouped: dict[tuple[Hashable, bool], list[Any]] = {}
    for faces, q, c in draws:
        _add(grouped, (total(faces), c), faces, q)
    return tuple((faces, q, c) for (_, c), (faces, q) in grouped.items())


class Apart(ABC):
    """A joint key that, given the first part's faces, reads each later part apart from
    the others: :meth:`apart` gives a head and one key per later part (None: the part is
    not rolled), and the key of a joint draw is ``(head, value of each later part)``, a
    part not rolled None. Each later part's ``when`` must say the same as its key: rolled
    where its key is not None (a ``when`` that reads the first part only, as the key
    does; asked once per first draw, where they disagree an error). Its classes are
    worked out per first draw and per part (:func:`reads_apart`), the same as over every
    joint draw."""

    __slots__ = ()

    @abstractmethod
    def apart(self, first: Faces) -> tuple[Hashable, tuple[Key | None, ...]]:
        """The head of every draw whose first part shows ``first``, and each later
        part's key (None: not rolled)."""

    def __call__(self, faces: tuple[Faces, ...]) -> Hashable:
        head, keys = self.apart(faces[0])
        return (head, *[None if k is None else k(f) for k, f in zip(keys, faces[1:], strict=True)])


def reads_apart(key: JointKey, joint: Joint) -> bool:
    """Whether ``key`` reads each later part of ``joint`` apart (an :class:`Apart`), the
    first part always rolled."""
    return isinstance(key, Apart) and len(joint.parts) > 1 and joint.parts[0].when is None


_PartClass = tuple[Hashable, bool, Faces, int]
"""A class of one part's draws under its key: the key's value, whether it took a cut
tail, its first draw and its weight."""


def _part_classes(draws: tuple[tuple[Faces, int, bool], ...], key: Key) -> tuple[_PartClass, ...]:
    """``draws`` classed by ``key`` (and the cut), in the order of their first draws."""
    classes: dict[tuple[Hashable, bool], list[Any]] = {}
    for faces, q, c in draws:
        _add(classes, (key(faces), c), faces, q)
    return tuple((value, c, faces, w) for (value, c), (faces, w) in classes.items())


def _apart_classes(joint: Joint, key: Apart, depth: int) -> tuple[JointClass, ...]:
    """:func:`_joint_classes` of a key that reads the later parts apart: per draw of the
    first part, each later part classed on its own (kept per part and key), the classes
    combined in the order their first joint draws come in. Every joint draw of a
    combination has the same key, and the combinations come in the order of their first
    draws (each part's classes in the order of theirs): the classes, representatives,
    weights and order of classing every joint draw."""
    first_part, *later = joint.parts
    firsts = _part_draws(first_part.pool, depth, False)
    parts = [(_part_draws(p.pool, depth, False), _dice(p.pool, depth)[1]) for p in later]
    den = _dice(first_part.pool, depth)[1]
    for _, part_den in parts:
        den *= part_den
    kept: dict[tuple[int, Key], tuple[_PartClass, ...]] = {}
    classes: dict[tuple[Hashable, bool], list[Any]] = {}
    for first, w, cut in firsts:
        head, keys = key.apart(first)
        per_part: list[tuple[_PartClass, ...]] = []
        before: list[Faces] = [first]
        for i, (part, (draws, part_den), k) in enumerate(zip(later, parts, keys, strict=True)):
            if part.when is None or part.when(tuple(before)):
                if k is None:
                    raise AssertionError(f"part {part.label!r} is rolled but its key is None")
                found = kept.get((i, k))
                if found is None:
                    found = kept[(i, k)] = _part_classes(draws, k)
            elif k is not None:
                raise AssertionError(f"part {part.label!r} is not rolled but has a key")
            else:
                found = ((None, False, (), part_den),)
            per_part.append(found)
            before.append(found[0][2])
        for combo in itertools.product(*per_part):
            q, c = w, cut
            for _, part_cut, _, weight in combo:
                q *= weight
                c = c or part_cut
            value = (head, *[v for v, _, _, _ in combo])
            _add(classes, (value, c), (first, *[faces for _, _, faces, _ in combo]), q)
    return tuple(JointClass(rep, w, den, cut) for (_, cut), (rep, w) in classes.items())


@lru_cache(maxsize=1024)
def _joint_classes(joint: Joint, key: JointKey, depth: int) -> tuple[JointClass, ...]:
    if isinstance(key, Apart) and reads_apart(key, joint):
        return _apart_classes(joint, key, depth)
    by_total = reads_totals(key, joint)
    parts = [(_part_draws(part.pool, depth, by_total), _dice(part.pool, depth)[1])
             for part in joint.parts]  # fmt: skip
    den = 1
    for _, part_den in parts:
        den *= part_den
    classes: dict[tuple[Hashable, bool], list[Any]] = {}

    def walk(i: int, faces: tuple[Faces, ...], w: int, cut: bool) -> None:
        if i == len(parts):
            _add(classes, (key(faces), cut), faces, w)
            return
        draws, part_den = parts[i]
        when = joint.parts[i].when
        if when is not None and not when(faces):  # not rolled: the part's whole mass
            walk(i + 1, (*faces, ()), w * part_den, cut)
            return
        for drawn, q, c in draws:
            walk(i + 1, (*faces, drawn), w * q, cut or c)

    walk(0, (), 1, False)
    return tuple(JointClass(rep, w, den, cut) for (_, cut), (rep, w) in classes.items())
