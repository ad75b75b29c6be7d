"""Small builders shared by the wasteland tests (tests/rulesets/wasteland/test_*.py).

An encounter is written as Python data and handed to :func:`tests.helpers.play` as
JSON (which YAML accepts). Unless a test says otherwise the file gives ``order`` (the
combatants' own order) and a seed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from fracas.engine import Engine
from fracas.model import Attempted, Damaged, Encounter, Event
from fracas.odds import Odds, action_odds
from fracas.render import log_lines
from fracas.rulesets.base import sheet_as
from fracas.rulesets.wasteland.data import LimbName
from fracas.rulesets.wasteland.events import LimbDamaged, LimbHit, ShotRolled
from fracas.rulesets.wasteland.sheet import Sheet
from fracas.rulesets.wasteland.stats import LimbView, limb_view
from tests.helpers import Played, load_text, play

__all__ = [
    "PISTOL",
    "SMG",
    "act",
    "attempts",
    "damage",
    "doc",
    "fight",
    "hits",
    "limb",
    "limb_damage",
    "log",
    "odds_of",
    "ok",
    "play_text",
    "refusal",
    "rolled",
    "sheet",
    "shots",
    "who",
]

PISTOL: dict[str, Any] = {"name": "pistol", "damage": "1d6", "ap": 4}
SMG: dict[str, Any] = {"name": "smg", "damage": "1d6", "ap": 3, "burst": 3}


def who(cid: str, at: Sequence[int] | None = (0, 0), **fields: Any) -> dict[str, Any]:
    """One combatant: id, tile and any sheet fields."""
    out: dict[str, Any] = {"id": cid, **fields}
    if at is not None:
        out["at"] = list(at)
    return out


def act(actor: str, do: str, target: str | None = None, **params: Any) -> dict[str, Any]:
    """One action; ``dice=``, ``weapon=``, ``burst=`` … go in as given."""
    out: dict[str, Any] = {"actor": actor, "do": do}
    if target is not None:
        out["target"] = target
    out.update(params)
    return out


def doc(
    *combatants: dict[str, Any],
    actions: Sequence[dict[str, Any]] = (),
    options: dict[str, Any] | None = None,
    order: Sequence[str] | None = (),
    **top: Any,
) -> dict[str, Any]:
    """A wasteland encounter file as data; ``order=()`` means the combatants' own order,
    ``order=None`` no order at all (Sequence decides)."""
    out: dict[str, Any] = {"ruleset": "wasteland", "seed": 1, **top}
    if options:
        out["options"] = options
    if order is not None:
        out["order"] = list(order) or [c["id"] for c in combatants]
    out["combatants"] = list(combatants)
    out["actions"] = list(actions)
    return out


def fight(
    *combatants: dict[str, Any],
    actions: Sequence[dict[str, Any]] = (),
    options: dict[str, Any] | None = None,
    order: Sequence[str] | None = (),
    **top: Any,
) -> Played:
    """Play a wasteland encounter (see :func:`doc`)."""
    return play(json.dumps(doc(*combatants, actions=actions, options=options, order=order, **top)))


def play_text(text: str) -> Played:
    """Play an encounter given as YAML text."""
    return play(text)


def ok(p: Played) -> Played:
    """The played encounter, after checking that no action was refused."""
    assert p.error is None, f"action {p.error[0]} refused: {p.error[1]}"
    return p


def refusal(p: Played) -> tuple[int, str]:
    """The number and code of the refused action."""
    assert p.error is not None, "expected a refusal, every action was played"
    return p.error[0], p.error[1].code


def sheet(p: Played, cid: str) -> Sheet:
    return sheet_as(p.state.get(cid), Sheet)


def limb(p: Played, cid: str, name: LimbName, state: Encounter | None = None) -> LimbView:
    """The effective limb (CT, DT, injury) of ``cid`` now (or in ``state``)."""
    options = p.file.ruleset.options
    return limb_view(sheet_as((state or p.state).get(cid), Sheet), name, options)


def _events(p: Played, kind: type[Event], action: int) -> list[Any]:
    return [e for e in p.records[action].events if isinstance(e, kind)]


def shots(p: Played, action: int = -1) -> list[ShotRolled]:
    """The shots a played action rolled, in order."""
    return _events(p, ShotRolled, action)


def hits(p: Played, action: int = -1) -> list[LimbHit]:
    """Every hit on a limb of a played action, in order."""
    return _events(p, LimbHit, action)


def limb_damage(p: Played, action: int = -1) -> list[LimbDamaged]:
    return _events(p, LimbDamaged, action)


def attempts(p: Played, action: int = -1) -> dict[str, bool]:
    """Per combatant an action tried to hit: whether any shot landed."""
    out: dict[str, bool] = {}
    for e in _events(p, Attempted, action):
        out[e.target] = out.get(e.target, False) or e.landed
    return out


def damage(p: Played, action: int = -1) -> dict[str, int]:
    """Per combatant: the final damage an action dealt (after DT and DR)."""
    out: dict[str, int] = {}
    for e in _events(p, Damaged, action):
        out[e.target] = out.get(e.target, 0) + e.amount
    return out


def rolled(p: Played, action: int = -1) -> list[tuple[str, int]]:
    """The dice a played action rolled, in order: (label, face)."""
    return [(r.label, r.value) for r in p.records[action].rolls]


def log(p: Played) -> list[str]:
    """The log lines a game master reads."""
    return log_lines(p.start, p.records)


def odds_of(d: dict[str, Any], max_rolls: int | None = None) -> Odds:
    """Exact odds of the file's last action, every earlier action played first."""
    ef = load_text(json.dumps(d))
    engine = Engine(ef.ruleset, ef.start, ef.seed)
    engine.begin(ef.dice, ef.order)
    for action in ef.actions[:-1]:
        engine.act(action)
    return action_odds(ef.ruleset, engine.state, ef.actions[-1], max_rolls=max_rolls)
