"""Who acts at a table, and what each may do: every permission decision, in one place.

Three roles (a tracker's usual ones): the game master may do anything; a player acts
only for the combatants it owns, as the table's policy (:class:`~fracas.model.Policy`,
part of the encounter) allows; a viewer watches. Faces pass an :class:`Identity` with
every command; none of them decides a permission itself.

What a player may do, whatever the ruleset (``docs/ARCHITECTURE.md``, "The table
policy"):

- **dice**: the table rolls every die; a player's action carries none (with physical
  dice, the table asks each die of its owner or the game master);
- **turns**: a player acts in its own combatant's turn, except what the ruleset takes
  off-turn (reactions) and a free roll (:func:`fracas.engine.catalogue.who_takes`);
- **table actions** (the order, HP, statuses, who is in the fight, the policy, moving
  someone's token) are the game master's;
- **undo**: only where the policy lets players, its own latest action, and only when it
  rolled no die (an undo never becomes a re-roll);
- **judgement calls** (``ActionSpec.calls``: advantage, modifiers, cover, ...) a player
  makes are a request the game master answers, unless the policy lets players make them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from fracas.engine.catalogue import CORE_WHO, Who, calls_in, walks, who_takes
from fracas.engine.play import Record
from fracas.errors import FracasError, Refusal
from fracas.model import NO_ACTOR, Action, Encounter, Policy
from fracas.rulesets.base import Ruleset, move_is_own
from fracas.table.outcome import outcome

__all__ = ["Forbidden", "Identity", "Role", "closed"]


class Role(enum.Enum):
    GM = "gm"
    PLAYER = "player"
    VIEWER = "viewer"


class Forbidden(FracasError):
    """The identity may not do that at this table (``forbidden``)."""


@dataclass(frozen=True, slots=True)
class Identity:
    """One person at the table: a name for the log, a role, the combatants it owns."""

    name: str
    role: Role
    owns: frozenset[str] = frozenset()

    @classmethod
    def gm(cls, name: str = "gm") -> Identity:
        return cls(name, Role.GM)

    @classmethod
    def player(cls, name: str, *owns: str) -> Identity:
        return cls(name, Role.PLAYER, frozenset(owns))

    @classmethod
    def viewer(cls, name: str = "viewer") -> Identity:
        return cls(name, Role.VIEWER)

    @property
    def is_gm(self) -> bool:
        return self.role is Role.GM

    @property
    def by(self) -> str | None:
        """The name a record keeps of who took it (None: the game master)."""
        return None if self.is_gm else self.name

    # --- acting -----------------------------------------------------------------------

    def takes(self, ruleset: Ruleset, action: Action) -> bool:
        """Whether this identity takes actions of ``action``'s kind at all: the game
        master every one; a player none of the game master's (:func:`who_takes`). The one
        decision behind :meth:`check_act`'s ``forbidden`` and what a page is offered."""
        return self.is_gm or who_takes(ruleset, action) is not Who.GM

    def check_act(
        self, ruleset: Ruleset, state: Encounter, action: Action, *, asking: bool = False
    ) -> None:
        """Refuse ``action`` in ``state`` unless this identity may take it now
        (``asking``: only its odds are asked, which change nothing: any turn, any dice).

        Raises:
            Forbidden: ``forbidden``, saying what this identity may do.
            Refusal: ``not_your_turn``: a player's action outside its combatant's turn;
                ``fight_ended``: a rules action while the game master has ended the fight;
                ``fight_over``: a turn's end or a rules action once one side won
                (:func:`closed`).
        """
        if not asking:
            why = closed(ruleset, state, action)
            if why is not None:
                raise why
        if self.is_gm:
            return
        if self.role is Role.VIEWER:
            raise Forbidden("forbidden", f"{self.name!r} watches this table and cannot act")
        who = who_takes(ruleset, action)
        if not self.takes(ruleset, action):
            raise Forbidden(
                "forbidden", f"{action.do!r} is the game master's; {self.name!r} is a player"
            )
        if action.actor == NO_ACTOR:
            mine = ", ".join(sorted(self.owns)) or "none"
            raise Forbidden(
                "forbidden",
                f"a {action.do} with no actor is the game master's; {self.name!r} rolls as a "
                f"combatant it plays (actor: {mine})",
            )
        if action.actor not in self.owns:
            mine = ", ".join(sorted(self.owns)) or "none"
            raise Forbidden(
                "forbidden",
                f"{self.name!r} does not play {action.actor!r}; its combatants: {mine}",
            )
        if action.do == "move" and not state.policy.player_move:
            raise Forbidden(
                "forbidden",
                f"at this table only the game master moves tokens; {self.name!r} may not move "
                f"{action.actor!r}",
            )
        if who is Who.MOVE:  # a token put anywhere: the game master's
            own = (
                ruleset.contract.move_spec.summary
                if ruleset.contract.move_spec is not None
                else "walk: true"
            )
            raise Forbidden(
                "forbidden",
                f"a player moves its token in its turn as the rules let it ({own}); "
                f"{self.name!r} may not put {action.actor!r} anywhere",
            )
        if asking:
            return
        if action.dice:
            labels = ", ".join(action.dice)
            raise Forbidden(
                "forbidden",
                f"the table rolls every die: a player's action gives none (it gave {labels}); "
                "with physical dice, the table asks each die of its owner",
            )
        if who in (Who.TURN, Who.MOVE) and state.turn.actor != action.actor:
            now = state.turn.actor
            whose = "someone" if now in state.hidden else state.name(now)
            raise Refusal(
                "not_your_turn",
                f"it is {whose}'s turn; {state.name(action.actor)} takes {action.do!r} in "
                "its own turn (or the game master takes it)",
            )

    def check_do(self, do: object) -> None:
        """Refuse at once an action a player may never take (``do``, before the action is
        read): a game master's table action.

        Raises:
            Forbidden: ``forbidden``.
        """
        if not self.is_gm and isinstance(do, str) and CORE_WHO.get(do) is Who.GM:
            raise Forbidden("forbidden", f"{do!r} is the game master's; {self.name!r} is a player")

    def check_dice(self, dice: object) -> None:
        """Refuse at once a player's action that gives dice (before the action is read:
        whatever their labels): the table rolls every die.

        Raises:
            Forbidden: ``forbidden``.
        """
        if not self.is_gm and dice:
            raise Forbidden(
                "forbidden",
                "the table rolls every die: a player's action gives none; with physical "
                "dice, the table asks each die of its owner",
            )

    def calls_to_ask(self, ruleset: Ruleset, policy: Policy, action: Action) -> tuple[str, ...]:
        """The judgement calls ``action`` makes that this identity must ask the game
        master for (none for the game master, none the policy lets players make)."""
        if self.is_gm:
            return ()
        return tuple(c for c in calls_in(ruleset, action) if c not in policy.player_calls)

    def check_advice(self, state: Encounter) -> None:
        """Refuse the advisor (every choice of whoever's turn it is, ranked) unless this
        identity may ask it now: the game master always; a player only where the table's
        policy lets players ask it (``Policy.advisor``), and only in the turn of a
        combatant it plays; a viewer never.

        Raises:
            Forbidden: ``forbidden``.
        """
        if self.is_gm:
            return
        if self.role is Role.VIEWER:
            raise Forbidden("forbidden", f"{self.name!r} watches this table and cannot ask")
        if not state.policy.advisor:
            raise Forbidden(
                "forbidden",
                f"at this table only the game master asks the advisor; {self.name!r} may "
                "not (the game master's policy `advisor` lets players ask it)",
            )
        now = state.turn.actor
        if now not in self.owns:
            whose = "someone" if now in state.hidden else state.name(now)
            mine = ", ".join(sorted(self.owns)) or "none"
            raise Forbidden(
                "forbidden",
                f"the advisor advises whose turn it is, {whose}'s; {self.name!r} plays {mine}",
            )

    def check_gm(self, what: str) -> None:
        """Refuse ``what`` (managing links, the dice, a request, downloading the
        encounter) unless this is the game master.

        Raises:
            Forbidden: ``forbidden``.
        """
        if not self.is_gm:
            raise Forbidden("forbidden", f"only the game master may {what}; {self.name!r} may not")

    # --- seeing -----------------------------------------------------------------------

    def sees_hp(self, policy: Policy, sides: frozenset[str], side: str) -> str:
        """How this identity sees the HP of a combatant of ``side`` (``sides``: the sides
        of the combatants it owns): ``exact`` for the game master and for its own sides,
        else the policy's :attr:`~fracas.model.Policy.enemy_hp`."""
        if self.is_gm or side in sides:
            return "exact"
        return policy.enemy_hp

    # --- taking back ------------------------------------------------------------------

    def check_undo(self, policy: Policy, latest: Record | None, redo: bool = False) -> None:
        """Refuse an undo (or redo) unless this identity may take back (put back) the
        ``latest`` action record.

        Raises:
            Forbidden: ``forbidden``.
        """
        what = "redo" if redo else "undo"
        if self.is_gm:
            return
        if self.role is Role.VIEWER:
            raise Forbidden("forbidden", f"{self.name!r} watches this table and cannot {what}")
        if not policy.player_undo:
            raise Forbidden("forbidden", f"at this table only the game master may {what}")
        if latest is None:
            return  # nothing to undo: the engine says so
        if latest.by != self.name:
            raise Forbidden(
                "forbidden",
                f"{self.name!r} may {what} only its own latest action; the latest is "
                f"{latest.by or 'the game master'}'s",
            )
        if latest.rolls:
            raise Forbidden(
                "forbidden",
                f"{self.name!r} may not {what} #{latest.seq}: it rolled dice (an undo is "
                "never a re-roll); the game master may",
            )


def closed(ruleset: Ruleset, state: Encounter, action: Action) -> Refusal | None:
    """Why the table takes ``action`` from nobody now, the game master included (None:
    it may be taken): while the game master has ended the fight, no rules action
    (``fight_ended``); once one side alone stands (:func:`~fracas.table.outcome.outcome`),
    no turn's end, rules action or own move (``fight_over``). The table's edits by decree
    (HP, conditions, notes, a token put somewhere), a free roll and undo stay the game
    master's: an undo of the winning action, or a heal, reopens the fight."""
    who = who_takes(ruleset, action)
    if state.ended and who is not Who.GM:
        return Refusal(
            "fight_ended",
            f"the game master ended the fight; {action.do!r} waits until the game master "
            "reopens it",
        )
    if who is Who.GM or action.do == "roll":
        return None
    if action.do == "move" and not (move_is_own(ruleset, action) or walks(action)):
        return None  # a token put somewhere by decree
    done = outcome(ruleset, state)
    if done is None:
        return None
    result = f"{done.side} won" if done.side is not None else "nobody is left standing"
    return Refusal(
        "fight_over",
        f"the fight is over ({result}); {action.do!r} is not taken: the game master can "
        "reopen it by undoing the last action",
    )
