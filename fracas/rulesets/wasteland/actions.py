"""wasteland's actions as the contract names them (wasteland.md 2.5): parameters, their
types, which take a target, which are taken inside another's turn."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, StrictBool, StrictInt, StrictStr

from fracas.rulesets.base import ActionSpec
from fracas.rulesets.wasteland.data import REACTIONS

__all__ = ["ACTIONS"]

_SHOT = Annotated[StrictInt, Field(ge=1)]
_TYPES: dict[str, Any] = {
    "weapon": StrictStr,
    "called": StrictStr,
    "burst": StrictBool,
    "sneak": StrictBool,
    "flanking": StrictBool,
    "clear_shot": StrictBool,
    "accuracy_mod": StrictInt,
    "evasion_mod": StrictInt,
    "behind": list[StrictStr],
    "creature_cover": dict[StrictStr, list[_SHOT]],
    "limb": StrictStr,
}
_IDS = ("behind", "creature_cover")
_ATTACK = ("weapon", "called", "burst", "sneak", "flanking", "clear_shot", "accuracy_mod",
           "evasion_mod", "behind", "creature_cover")  # fmt: skip
_WATCH = ("called", "flanking", "clear_shot", "accuracy_mod", "evasion_mod", *_IDS)
_MELEE = ("weapon", "called", "flanking", "accuracy_mod", "evasion_mod")


def _types(params: tuple[str, ...]) -> dict[str, Any]:
    return {k: v for k, v in _TYPES.items() if k in params}


_CALLS = (
    "sneak",
    "flanking",
    "clear_shot",
    "accuracy_mod",
    "evasion_mod",
    "behind",
    "creature_cover",
)
"""The game master's judgement calls among the attack parameters (ActionSpec.calls):
who is unseen, flanked, in the clear, behind or in a creature's cover, and the
modifiers; the weapon, the called limb and a burst are the attacker's choice."""


def _calls(params: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(p for p in params if p in _CALLS)


ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec(
        "attack",
        "attack the target with `weapon` (default: the first, else unarmed); `called: limb`, "
        "`burst`, `sneak`, `flanking`, `clear_shot: true`; `accuracy_mod`, `evasion_mod`; "
        "`behind: [ids]`, `creature_cover: {id: [shots]}` (WL-5 to WL-26)",
        _ATTACK,
        types=_types(_ATTACK),
        combatant_params=_IDS,
        calls=_calls(_ATTACK),
    ),
    ActionSpec(
        "throw",
        "throw an explosive `weapon` at a tile `at` or a target's tile (WL-27, WL-28)",
        ("weapon", "accuracy_mod", "clear_shot"),
        "combatant_or_tile",
        types=_types(("weapon", "accuracy_mod", "clear_shot")),
        calls=_calls(("weapon", "accuracy_mod", "clear_shot")),
    ),
    ActionSpec(
        "defend",
        "Final Action: all remaining AP up to 3, +1 Evasion each until the next turn (WL-29)",
        (),
        "none",
    ),
    ActionSpec(
        "overwatch",
        "Final Action: `mode: single|burst` with `weapon`; (AP / mode AP) + 1 shots (WL-30)",
        ("mode", "weapon"),
        "none",
        choices={"mode": ("single", "burst")},
        types={"weapon": StrictStr},
    ),
    ActionSpec(
        "overwatch_attack",
        "off-turn: one Overwatch shot at the target, in the chosen mode, no AP (WL-30)",
        _WATCH,
        off_turn=True,
        types=_types(_WATCH),
        combatant_params=_IDS,
        calls=_calls(_WATCH),
    ),
    ActionSpec(
        "opportunity_attack",
        "off-turn Free Reaction: a melee attack, Melee +3, 1 per round (WL-31, WL-36)",
        _MELEE,
        off_turn=True,
        types=_types(_MELEE),
        calls=_calls(_MELEE),
    ),
    ActionSpec(
        "riposte",
        "off-turn Free Reaction: a melee attack on one who missed you in melee, Melee +7 "
        "(WL-31, WL-36)",
        _MELEE,
        off_turn=True,
        types=_types(_MELEE),
        calls=_calls(_MELEE),
    ),
    ActionSpec(
        "reaction",
        "off-turn Reaction `name` (1 per round), logged; the GM applies it (WL-31)",
        ("name",),
        "none",
        off_turn=True,
        required=("name",),
        choices={"name": tuple(REACTIONS)},
    ),
    ActionSpec("peek", "free: full cover counts as half until the turn ends (WL-32)", (), "none"),
    ActionSpec(
        "injury_test",
        "any time: END + Survival vs the major injury's DC on `limb` (WL-21)",
        ("limb",),
        "none",
        off_turn=True,
        required=("limb",),
        types={"limb": StrictStr},
    ),
)
