"""The wasteland tests' builders (tests/rulesets/wasteland/test_*.py): the shared ones of
:mod:`tests.rulesets.builders` and readers of wasteland's events, sheet and limbs. Unless
a test says otherwise the file gives ``order`` (the combatants' own order) and a seed."""

from __future__ import annotations

from typing import Any

from fracas.model import Attempted, Encounter
from fracas.rulesets.wasteland.data import LimbName
from fracas.rulesets.wasteland.events import LimbDamaged, LimbHit, ShotRolled
from fracas.rulesets.wasteland.sheet import Sheet
from fracas.rulesets.wasteland.stats import LimbView, limb_view
from tests.helpers import Played, play
from tests.rulesets.builders import (
    Encounters,
    act,
    damage,
    events,
    log,
    odds_of,
    ok,
    refusal,
    rolls,
    sheet_of,
    who,
)

__all__ = [
    "PISTOL",
    "SMG",
    "act",
    "attempts",
    "damage",
    "doc",
    "fight",
    "hits",
    "hp",
    "limb",
    "limb_damage",
    "log",
    "odds_of",
    "ok",
    "play_text",
    "refusal",
    "rolled",
    "sheet",
    "shoot_b",
    "shots",
    "who",
]

PISTOL: dict[str, Any] = {"name": "pistol", "damage": "1d6", "ap": 4}
SMG: dict[str, Any] = {"name": "smg", "damage": "1d6", "ap": 3, "burst": 3}

WASTELAND = Encounters("wasteland", order=())
doc = WASTELAND.doc
fight = WASTELAND.fight
play_text = play
"""Play an encounter given as YAML text."""


def shoot_b(
    dice: dict[str, Any],
    *,
    weapon: dict[str, Any],
    a: dict[str, Any] | None = None,
    b: dict[str, Any] | None = None,
    others: tuple[dict[str, Any], ...] = (),
    options: dict[str, Any] | None = None,
    **params: Any,
) -> Played:
    """One attack by ``a`` with ``weapon`` on ``b`` 3 tiles east (``a``, ``b``: their
    sheet fields; ``others``: more combatants), every die in ``dice``; ``params`` go into
    the action. Played, and not refused."""
    shooter = who("a", weapons=[weapon], **(a or {}))
    target = who("b", at=(3, 0), **(b or {}))
    attack = act("a", "attack", "b", dice=dice, **params)
    return ok(fight(shooter, target, *others, options=options, actions=[attack]))


def hp(p: Played, cid: str = "b") -> int:
    """``cid``'s HP now (``b``: the target of :func:`shoot_b`)."""
    return p.state.get(cid).hp


def sheet(p: Played, cid: str) -> Sheet:
    return sheet_of(p, cid, Sheet)


def limb(p: Played, cid: str, name: LimbName, state: Encounter | None = None) -> LimbView:
    """The effective limb (CT, DT, injury) of ``cid`` now (or in ``state``)."""
    options = p.file.ruleset.options
    return limb_view(sheet_of(state or p, cid, Sheet), name, options)


def shots(p: Played, action: int = -1) -> list[ShotRolled]:
    """The shots a played action rolled, in order."""
    return events(p, ShotRolled, action)


def hits(p: Played, action: int = -1) -> list[LimbHit]:
    """Every hit on a limb of a played action, in order."""
    return events(p, LimbHit, action)


def limb_damage(p: Played, action: int = -1) -> list[LimbDamaged]:
    return events(p, LimbDamaged, action)


def attempts(p: Played, action: int = -1) -> dict[str, bool]:
    """Per combatant an action tried to hit: whether any shot landed."""
    out: dict[str, bool] = {}
    for e in events(p, Attempted, action):
        out[e.target] = out.get(e.target, False) or e.landed
    return out


def rolled(p: Played, action: int = -1) -> list[tuple[str, int]]:
    """The dice a played action rolled, in order: (label, face)."""
    return [(r.label, r.value) for r in rolls(p, action)]
