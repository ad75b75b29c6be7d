"""The game master's table events (made by :mod:`fracas.engine.table_actions`): edits of
HP, the order,
who is in the fight, hidden or noted, the tactics presets, and free rolls. Import them from
:mod:`fracas.model`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar

from fracas.model.events import Event, FieldsSet
from fracas.model.frozen import evolve
from fracas.model.state import HP_SHOWN, NO_ACTOR, Combatant, Encounter, Policy

__all__ = [
    "CombatantAdded",
    "CombatantRemoved",
    "Concealed",
    "Ended",
    "HpChanged",
    "InitiativeEachRound",
    "NoteWritten",
    "OrderSet",
    "PolicySet",
    "RevealSet",
    "Revealed",
    "Rolled",
    "TacticsSet",
    "TurnSkipped",
]


@dataclass(frozen=True, slots=True)
class HpChanged(FieldsSet):
    """A game master's heal (``amount`` > 0) or damage (< 0): a ``set hp`` by an amount,
    with the fields the ruleset derived from the new HP."""

    amount: int = 0

    def describe(self, state: Encounter) -> str | None:
        c = state.get(self.actor)
        verb = "heals" if self.amount > 0 else "damages"
        after = self.apply(state).get(self.actor).hp
        return f"GM {verb} {c.name} {abs(self.amount)}: HP {c.hp} -> {after}"


@dataclass(frozen=True, slots=True)
class OrderSet(Event):
    """The turn order changes (a game master's reorder or delay)."""

    order: tuple[str, ...]

    def apply(self, state: Encounter) -> Encounter:
        return evolve(state, order=self.order)

    def describe(self, state: Encounter) -> str | None:
        return f"GM sets the order: {', '.join(state.name(cid) for cid in self.order)}"


@dataclass(frozen=True, slots=True)
class CombatantAdded(Event):
    """A combatant joins the fight; ``order`` is the turn order with it placed."""

    combatant: Combatant
    order: tuple[str, ...]

    def apply(self, state: Encounter) -> Encounter:
        return evolve(state.with_combatant(self.combatant), order=self.order)

    def describe(self, state: Encounter) -> str | None:
        c = self.combatant
        names = ", ".join(c.name if cid == c.id else state.name(cid) for cid in self.order)
        return f"GM adds {c.name} ({c.side}, HP {c.hp}/{c.max_hp}): order {names}"


@dataclass(frozen=True, slots=True)
class CombatantRemoved(Event):
    """A combatant leaves the fight (out of the state and the order)."""

    actor: str

    def apply(self, state: Encounter) -> Encounter:
        return evolve(
            state,
            combatants={k: v for k, v in state.combatants.items() if k != self.actor},
            order=tuple(cid for cid in state.order if cid != self.actor),
            hidden=state.hidden - {self.actor},
            reveal_on_turn=state.reveal_on_turn - {self.actor},
            notes={k: v for k, v in state.notes.items() if k != self.actor},
            presets={k: v for k, v in state.presets.items() if k != self.actor},
        )

    def describe(self, state: Encounter) -> str | None:
        return f"GM removes {state.name(self.actor)} from the fight"


@dataclass(frozen=True, slots=True)
class TurnSkipped(Event):
    """A down combatant's turn came up and was skipped (``HouseRules.skip_down``)."""

    actor: str
    tone: ClassVar[str] = "down"

    def describe(self, state: Encounter) -> str | None:
        return f"{state.name(self.actor)} is down: turn skipped"


@dataclass(frozen=True, slots=True)
class Rolled(Event):
    """A free roll of dice notation (``2d6+1``, ``4d6kh3``, ``1d20 [fire]``), for the
    table: it changes nothing.

    The notation is d20's (issue 36). One the older parser reads the same way
    (``2d6+1``, ``3d8!``: :func:`~fracas.dice.d20_free.is_legacy`) keeps its older
    terms, one per signed term; any other has one term: sign 1, every face in the order
    rolled, the total; it is shown as d20 shows it, rolled again from those faces. No
    field was added, so the rolls stored before replay to the same events."""

    actor: str
    """Who rolls: a player's combatant, or :data:`~fracas.model.state.NO_ACTOR` (the
    game master's own roll, "The game master rolls ...")."""
    notation: str
    terms: tuple[tuple[int, tuple[int, ...], int], ...]
    """Per term: its sign, the faces rolled (a number: itself), the value it counts
    (the kept faces' sum)."""
    total: int

    def describe(self, state: Encounter) -> str | None:
        # here, not at the top: d20's grammar takes ~60 ms to load, and only a roll needs it
        from fracas.dice.d20_free import is_legacy, shown

        text = None
        if len(self.terms) == 1 and not is_legacy(self.notation):
            text = shown(self.notation, self.terms[0][1])
        if text is None:
            text = self._terms_text()
        who = state.name(self.actor)
        if self.actor == NO_ACTOR:  # the game master's: a sentence begins with it
            who = who[:1].upper() + who[1:]
        return f"{who} rolls {self.notation}: {text} = {self.total}"

    def _terms_text(self) -> str:
        text = ""
        for i, (sign, faces, value) in enumerate(self.terms):
            shown = " + ".join(str(f) for f in faces)
            if sum(faces) != value:  # some faces not kept (2d20kh1)
                shown = f"({', '.join(str(f) for f in faces)} -> {value})"
            elif sign < 0 and len(faces) > 1:
                shown = f"({shown})"
            if i == 0:
                text = ("-" if sign < 0 else "") + shown
            else:
                text += f" {'+' if sign > 0 else '-'} {shown}"
        return text


@dataclass(frozen=True, slots=True)
class Concealed(Event):
    """The game master hides a combatant from the players, or shows it again."""

    actor: str
    hidden: bool

    def apply(self, state: Encounter) -> Encounter:
        if self.hidden:
            return dataclasses.replace(state, hidden=state.hidden | {self.actor})
        return _shown(state, self.actor)

    def describe(self, state: Encounter) -> str | None:
        what = "hides" if self.hidden else "shows"
        return f"GM {what} {state.name(self.actor)}" + (" from the players" if self.hidden else "")


def _shown(state: Encounter, actor: str) -> Encounter:
    """``state`` with ``actor`` shown to the players: no longer hidden, nor marked to be
    revealed (:class:`RevealSet`)."""
    hidden, marked = state.hidden - {actor}, state.reveal_on_turn - {actor}
    if marked == state.reveal_on_turn:  # a show as before the mark existed: one field
        return dataclasses.replace(state, hidden=hidden)
    return dataclasses.replace(state, hidden=hidden, reveal_on_turn=marked)


@dataclass(frozen=True, slots=True)
class RevealSet(Event):
    """The game master marks a hidden combatant to be shown to the players when its
    turn next begins (``reveal``; ``on`` false: the mark is taken off). Never sent to
    a player (the ``reveal`` action is private)."""

    actor: str
    on: bool

    def apply(self, state: Encounter) -> Encounter:
        marked = state.reveal_on_turn
        marked = marked | {self.actor} if self.on else marked - {self.actor}
        return dataclasses.replace(state, reveal_on_turn=marked)

    def describe(self, state: Encounter) -> str | None:
        name = state.name(self.actor)
        if self.on:
            return f"GM: {name} will be shown to the players when its turn begins"
        return f"GM: {name} stays hidden when its turn begins"


@dataclass(frozen=True, slots=True)
class Revealed(Event):
    """A hidden combatant the game master marked (:class:`RevealSet`) is shown to the
    players as its turn begins."""

    actor: str

    def apply(self, state: Encounter) -> Encounter:
        return _shown(state, self.actor)

    def describe(self, state: Encounter) -> str | None:
        return f"{state.name(self.actor)} is revealed as its turn begins"


@dataclass(frozen=True, slots=True)
class InitiativeEachRound(Event):
    """The game master has initiative rolled again at each new round, or no longer
    (``initiative`` with ``each_round``; ``HouseRules.reroll_initiative``)."""

    on: bool

    def apply(self, state: Encounter) -> Encounter:
        return dataclasses.replace(
            state, table=dataclasses.replace(state.table, reroll_initiative=self.on)
        )

    def describe(self, state: Encounter) -> str | None:
        if self.on:
            return "GM: initiative is rolled again at the start of each round"
        return "GM: the turn order stays from round to round"


@dataclass(frozen=True, slots=True)
class Ended(Event):
    """The game master ends the fight (``finish``), or reopens it (``reopen``)."""

    ended: bool

    def apply(self, state: Encounter) -> Encounter:
        return dataclasses.replace(state, ended=self.ended)

    def describe(self, state: Encounter) -> str | None:
        return "GM ends the fight" if self.ended else "GM reopens the fight"


@dataclass(frozen=True, slots=True)
class NoteWritten(Event):
    """The game master's note on a combatant (an empty text clears it)."""

    actor: str
    text: str

    def apply(self, state: Encounter) -> Encounter:
        notes = {k: v for k, v in state.notes.items() if k != self.actor}
        if self.text:
            notes[self.actor] = self.text
        return dataclasses.replace(state, notes=notes)

    def describe(self, state: Encounter) -> str | None:
        name = state.name(self.actor)
        return f"GM notes on {name}: {self.text}" if self.text else f"GM clears the note on {name}"


@dataclass(frozen=True, slots=True)
class TacticsSet(Event):
    """The game master sets the tactics preset a combatant plays by in the win bar and
    the advisor (``tactics``): table state, never read by the rules."""

    actor: str
    preset: str

    def apply(self, state: Encounter) -> Encounter:
        return dataclasses.replace(state, presets={**state.presets, self.actor: self.preset})

    def describe(self, state: Encounter) -> str | None:
        name = state.name(self.actor)
        was = state.presets.get(self.actor, "default")
        same = " (as before)" if was == self.preset else ""
        return f"GM sets the tactics of {name}: {self.preset}{same}"


@dataclass(frozen=True, slots=True)
class PolicySet(Event):
    """The game master changes the table's policy (``policy``): who may undo, which
    judgement calls players make themselves, what players see."""

    policy: Policy

    def apply(self, state: Encounter) -> Encounter:
        return dataclasses.replace(state, policy=self.policy)

    def describe(self, state: Encounter) -> str | None:
        changed = [
            line
            for line, was in zip(policy_words(self.policy), policy_words(state.policy), strict=True)
            if line != was
        ]
        return "GM sets the table: " + ("; ".join(changed) if changed else "no change")


def policy_words(policy: Policy) -> tuple[str, ...]:
    """The policy in words a player reads, one phrase per setting, always in this order."""
    calls = ", ".join(sorted(policy.player_calls))
    hp = {
        "exact": "players see enemy HP exactly",
        "label": "players see enemy HP as a label (healthy, hurt, bloodied, down)",
        "hidden": "players do not see enemy HP",
    }
    assert policy.enemy_hp in HP_SHOWN
    return (
        "players may undo their own latest action when it rolled no die"
        if policy.player_undo
        else "only the game master undoes",
        f"players make these calls themselves: {calls}"
        if calls
        else "the game master makes every judgement call (players ask)",
        hp[policy.enemy_hp],
        "players see the win bar" if policy.winbar else "the win bar is the game master's",
        "players move their own tokens in their turn"
        if policy.player_move
        else "only the game master moves tokens",
        "players may ask the advisor" if policy.advisor else "the advisor is the game master's",
    )
