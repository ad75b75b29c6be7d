"""Small builders shared by the soak tests (tests/rulesets/soak/test_*.py).

An encounter is written as Python data and handed to :func:`tests.helpers.play` as
JSON (which YAML accepts), so each test states only what its rule needs. Unless a
test says otherwise the file gives `order` (no initiative dice) and a seed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from fracas.engine import Engine
from fracas.model import Action, Encounter
from fracas.odds import Odds, action_odds
from fracas.render import log_lines
from fracas.rulesets.soak.events import AttackRolled, DamageRolled, Soaked
from fracas.rulesets.soak.sheet import Sheet
from tests.helpers import Played, load_text, play

__all__ = [
    "SWORD",
    "act",
    "attack_roll",
    "damage_roll",
    "doc",
    "fight",
    "log",
    "odds_of",
    "ok",
    "refusal",
    "rolled",
    "sheet",
    "soaked",
    "who",
]

SWORD: dict[str, Any] = {"name": "sword", "dice": "1d8"}


def who(cid: str, at: Sequence[int] | None = (0, 0), **fields: Any) -> dict[str, Any]:
    """One combatant: id, tile and any sheet fields."""
    out: dict[str, Any] = {"id": cid, **fields}
    if at is not None:
        out["at"] = list(at)
    return out


def act(actor: str, do: str, target: str | None = None, **params: Any) -> dict[str, Any]:
    """One action; ``dice=``, ``weapon=``, ``disadvantage=`` … go in as given."""
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
    """A soak encounter file as data; ``order=()`` means the combatants' own order,
    ``order=None`` no order at all (initiative is rolled)."""
    out: dict[str, Any] = {"ruleset": "soak", "seed": 1, **top}
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
    """Play a soak encounter (see :func:`doc`)."""
    return play(json.dumps(doc(*combatants, actions=actions, options=options, order=order, **top)))


def ok(p: Played) -> Played:
    """The played encounter, after checking that no action was refused."""
    assert p.error is None, f"action {p.error[0]} refused: {p.error[1]}"
    return p


def refusal(p: Played) -> tuple[int, str]:
    """The number and code of the refused action."""
    assert p.error is not None, "expected a refusal, every action was played"
    return p.error[0], p.error[1].code


def sheet(p: Played, cid: str) -> Sheet:
    s: Sheet = p.state.combatants[cid].sheet
    return s


def _one(p: Played, kind: type[Any], action: int) -> Any:
    found = [e for e in p.records[action].events if isinstance(e, kind)]
    assert len(found) == 1, found
    return found[0]


def attack_roll(p: Played, action: int = -1) -> AttackRolled:
    roll: AttackRolled = _one(p, AttackRolled, action)
    return roll


def damage_roll(p: Played, action: int = -1) -> DamageRolled:
    roll: DamageRolled = _one(p, DamageRolled, action)
    return roll


def soaked(p: Played, action: int = -1) -> Soaked:
    event: Soaked = _one(p, Soaked, action)
    return event


def rolled(p: Played, action: int = -1) -> list[tuple[str, int, int]]:
    """The dice a played action rolled, in order: (label, sides, face)."""
    return [(r.label, r.sides, r.value) for r in p.records[action].rolls]


def log(p: Played) -> list[str]:
    """The log lines a game master reads."""
    return log_lines(p.start, p.records)


def odds_of(text_or_doc: str | dict[str, Any], max_rolls: int | None = None) -> Odds:
    """Exact odds of the file's last action, every earlier action played first."""
    text = text_or_doc if isinstance(text_or_doc, str) else json.dumps(text_or_doc)
    ef = load_text(text)
    engine = Engine(ef.ruleset, ef.start, ef.seed)
    engine.begin(ef.dice, ef.order)
    for action in ef.actions[:-1]:
        engine.act(action)
    return action_odds(ef.ruleset, engine.state, ef.actions[-1], max_rolls=max_rolls)


def state_and_action(d: dict[str, Any]) -> tuple[Any, Encounter, Action]:
    """The ruleset, the state before the file's last action, and that action."""
    ef = load_text(json.dumps(d))
    engine = Engine(ef.ruleset, ef.start, ef.seed)
    engine.begin(ef.dice, ef.order)
    for action in ef.actions[:-1]:
        engine.act(action)
    return ef.ruleset, engine.state, ef.actions[-1]
