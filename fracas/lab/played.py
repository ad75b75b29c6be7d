"""The turns a simulation already played, kept per state as the tactics' choice and the
rules' answer to each dice path met (issue 34, item 4: sampling from the transitions
already computed rather than replaying the rules).

A simulated fight asks, in every state, the tactics' action (a pure function of the
state) and the rules' events for it on random dice. Both are pure: the same state and
the same faces give the same events, and the faces asked depend only on the state and
the faces before. So each state keeps its action and a tree of the dice paths played
from it: a node is one roll (how many sides), a branch per face met, a leaf the state
the path leads to. A later visit draws the same faces from the same random dice as the
rules would, one roll per node, and follows the tree; only a face not met before makes
the rules play, replaying the faces drawn so far, and the tree grows by that path.

The random dice are asked exactly what the rules would have asked, in the same order:
a fight gives the same states, the same tally and leaves the dice where the rules would,
whatever the tree holds (cold or warm, in any process, with any number of workers).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fracas.dice.source import Dice
from fracas.engine.play import plan
from fracas.lab.policy import Policy
from fracas.model import Action, Encounter, fold

__all__ = ["Played"]

_CACHE = 100_000
"""States kept before the trees are dropped (a long simulation's memory: about 90 MB
in a 2 v 2 dice-combat fight)."""


class _Roll:
    """One roll of a dice path: its sides, and where each face met leads."""

    __slots__ = ("kids", "label", "sides")

    def __init__(self, sides: int, label: str) -> None:
        self.sides = sides
        self.label = label
        self.kids: dict[int, _Roll | Encounter] = {}


_Tree = _Roll | Encounter
"""A state's dice paths: its first roll, or the next state where the action rolls none."""


class _Replay:
    """The faces already drawn on a path, then the random dice, every roll recorded."""

    __slots__ = ("dice", "faces", "rolls")

    def __init__(self, dice: Dice, faces: list[int]) -> None:
        self.dice = dice
        self.faces = faces
        self.rolls: list[tuple[int, str, int]] = []

    def roll(self, sides: int, label: str, *, of: str | None = None, n: int | None = None) -> int:
        i = len(self.rolls)
        face = self.faces[i] if i < len(self.faces) else self.dice.roll(sides, label, of=of, n=n)
        self.rolls.append((sides, label, face))
        return face


@dataclass
class Played:
    """The turns played under ``policy``, per state (this process's, shared by every
    fight of one encounter file)."""

    policy: Policy
    limit: int = _CACHE
    """States kept before the trees are dropped."""
    rules: int = 0
    """Times the rules played an action (a state or a dice path not met before)."""
    walked: int = 0
    """Actions answered from the trees, without the rules."""
    replayed: int = 0
    """Of :attr:`rules`, paths the rules played again from a face a tree had not met."""
    _at: dict[Encounter, tuple[Action, _Tree]] = field(default_factory=dict, repr=False)

    def step(self, state: Encounter, dice: Dice) -> tuple[Action, Encounter]:
        """The action of whoever's turn it is in ``state`` and the state it leads to on
        ``dice``: what ``fold(state, plan(ruleset, state, policy.choose(state), dice))``
        gives, the dice asked the same rolls."""
        found = self._at.get(state)
        if found is None:
            action = self.policy.choose(state)
            after, tree = self._play(state, action, dice, [], None)
            if len(self._at) >= self.limit:
                self._at.clear()
            self._at[state] = (action, tree)
            return action, after
        action, tree = found
        node = tree
        faces: list[int] = []
        while type(node) is _Roll:
            face = dice.roll(node.sides, node.label)
            faces.append(face)
            nxt = node.kids.get(face)
            if nxt is None:
                self.replayed += 1
                after, _ = self._play(state, action, dice, faces, tree)
                return action, after
            node = nxt
        self.walked += 1
        return action, node  # type: ignore[return-value]

    def _play(
        self, state: Encounter, action: Action, dice: Dice, faces: list[int], tree: _Tree | None
    ) -> tuple[Encounter, _Tree]:
        """The rules on the faces drawn so far, then ``dice``; the path added to
        ``tree`` (a new tree where None)."""
        self.rules += 1
        replay = _Replay(dice, faces)
        after = fold(state, plan(self.policy.ruleset, state, action, replay))
        rolls = replay.rolls
        if not rolls:
            return after, after if tree is None else tree
        root = tree if type(tree) is _Roll else _Roll(rolls[0][0], rolls[0][1])
        node = root
        for i, (sides, _, face) in enumerate(rolls):
            if node.sides != sides:  # not a pure rule: keep nothing of this path
                return after, root
            nxt = node.kids.get(face)
            if i == len(rolls) - 1:
                node.kids[face] = after
            elif type(nxt) is _Roll:
                node = nxt
            else:
                sides_next, label_next, _ = rolls[i + 1]
                node.kids[face] = node = _Roll(sides_next, label_next)
        return after, root
