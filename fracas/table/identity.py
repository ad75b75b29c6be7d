"""Who acts at a table, and what each may do: the permission decisions, in one place.

Three roles (a tracker's usual ones): the game master may do anything; a player
acts only for the combatants it owns (and undoes only its own latest action, where
the table allows); a viewer watches. Faces pass an :class:`Identity` with every
call; none of them decides a permission itself.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from fracas.errors import FracasError
from fracas.model import Action

__all__ = ["GM_ONLY", "HP_SHOWN", "Forbidden", "Identity", "Role", "TableRules"]


class Role(enum.Enum):
    GM = "gm"
    PLAYER = "player"
    VIEWER = "viewer"


class Forbidden(FracasError):
    """The identity may not do that at this table (``forbidden``)."""


GM_ONLY = frozenset(
    {
        "set",
        "move",
        "add",
        "remove",
        "heal",
        "damage",
        "status",
        "initiative",
        "hide",
        "show",
        "note",
    }
)
"""Core actions only a game master takes (edits of the table, not moves of a combatant).

``move`` is the game master's unless the ruleset makes it the actor's own movement."""


@dataclass(frozen=True, slots=True)
class TableRules:
    """How a table shares control."""

    player_undo: bool = True
    """A player may undo its own latest action (when it is the latest of the log)."""
    enemy_hp: str = "label"
    """What a player (or a viewer) sees of the HP of a combatant on no side of its own:
    ``exact``, a ``label`` (healthy, hurt, bloodied, down) or ``hidden``."""

    def __post_init__(self) -> None:
        if self.enemy_hp not in HP_SHOWN:
            raise FracasError(
                "bad_option",
                f"enemy HP shown as {self.enemy_hp!r}; valid: {', '.join(HP_SHOWN)}",
            )


HP_SHOWN = ("exact", "label", "hidden")
"""The ways a table may show an enemy's HP to players (:attr:`TableRules.enemy_hp`)."""


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

    def check_act(self, action: Action, own_move: bool) -> None:
        """Refuse ``action`` unless this identity may take it (``own_move``: the ruleset
        makes this ``move`` the actor's own movement).

        Raises:
            Forbidden: ``forbidden``, saying what this identity may do.
        """
        if self.role is Role.GM:
            return
        if self.role is Role.VIEWER:
            raise Forbidden("forbidden", f"{self.name!r} watches this table and cannot act")
        if action.do in GM_ONLY and not (action.do == "move" and own_move):
            raise Forbidden(
                "forbidden", f"{action.do!r} is the game master's; {self.name!r} is a player"
            )
        if action.actor not in self.owns:
            mine = ", ".join(sorted(self.owns)) or "none"
            raise Forbidden(
                "forbidden",
                f"{self.name!r} does not play {action.actor!r}; its combatants: {mine}",
            )

    def check_gm(self, what: str) -> None:
        """Refuse ``what`` (managing links, downloading the encounter) unless this is the
        game master.

        Raises:
            Forbidden: ``forbidden``.
        """
        if self.role is not Role.GM:
            raise Forbidden("forbidden", f"only the game master may {what}; {self.name!r} may not")

    def sees_hp(self, rules: TableRules, sides: frozenset[str], side: str) -> str:
        """How this identity sees the HP of a combatant of ``side`` (``sides``: the sides
        of the combatants it owns): ``exact`` for the game master and for its own sides,
        else the table's :attr:`TableRules.enemy_hp`."""
        if self.role is Role.GM or side in sides:
            return "exact"
        return rules.enemy_hp

    def check_undo(self, rules: TableRules, latest_by: str | None, redo: bool = False) -> None:
        """Refuse an undo (or redo) unless this identity may take back the latest action,
        done by ``latest_by``.

        Raises:
            Forbidden: ``forbidden``.
        """
        what = "redo" if redo else "undo"
        if self.role is Role.GM:
            return
        if self.role is Role.VIEWER:
            raise Forbidden("forbidden", f"{self.name!r} watches this table and cannot {what}")
        if not rules.player_undo:
            raise Forbidden("forbidden", f"at this table only the game master may {what}")
        if latest_by != self.name:
            raise Forbidden(
                "forbidden",
                f"{self.name!r} may {what} only its own latest action; the latest is "
                f"{latest_by or 'the game master'}'s",
            )
