"""What one identity sees of a table, as plain data: the state, the log, the options
and the odds, with what it may not see left out (every face that shows a table to a
player projects through here, on the server side: hidden HP never leaves it).

The game master sees everything. A player sees its own sides exactly; a combatant of
another side shows its HP as the table's :attr:`~fracas.table.TableRules.enemy_hp`
says (``exact``, a ``label``: healthy, hurt, bloodied, down, or ``hidden``), without
its ruleset fields (which hold wounds, limbs and the like), and the log's HP figures
for it, and the odds' chance that it goes down, are left out likewise. The ranges of
what a combatant holds (rings on a map) go to the game master and to its own player.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from fracas.model import (
    Action,
    Combatant,
    CombatantAdded,
    Damaged,
    Encounter,
    Event,
    FieldsSet,
)
from fracas.odds import Odds
from fracas.render import action_title, record_entries
from fracas.rulesets.base import Ruleset, Shown
from fracas.table.choices import Option
from fracas.table.identity import Identity, Role
from fracas.table.table import Table

__all__ = ["View", "hp_label"]


def hp_label(ruleset: Ruleset, c: Combatant) -> str:
    """The HP band a player sees of an enemy: ``down``, ``healthy`` (full), ``hurt``
    (above half) or ``bloodied`` (half or less)."""
    if ruleset.is_down(c):
        return "down"
    if c.hp >= c.max_hp:
        return "healthy"
    return "hurt" if 2 * c.hp > c.max_hp else "bloodied"


def _shown(items: tuple[Shown, ...]) -> list[dict[str, str]]:
    return [{"label": s.label, "value": s.value, "detail": s.detail} for s in items]


class View:
    """One identity's view of one table."""

    def __init__(self, table: Table, identity: Identity) -> None:
        self.table = table
        self.identity = identity

    # --- who sees what --------------------------------------------------------------

    def _sides(self, state: Encounter) -> frozenset[str]:
        return frozenset(c.side for c in state.combatants.values() if c.id in self.identity.owns)

    def hp_shown(self, state: Encounter, cid: str) -> str:
        """``exact``, ``label`` or ``hidden``: how this identity sees ``cid``'s HP."""
        c = state.get(cid)
        return self.identity.sees_hp(self.table.rules, self._sides(state), c.side)

    def actors(self, state: Encounter) -> list[str]:
        """Whose actions this identity is offered: the game master, the acting combatant;
        a player, its own combatants (the acting one first)."""
        if self.identity.role is Role.GM:
            return [state.turn.actor]
        if self.identity.role is Role.VIEWER:
            return []
        mine = [cid for cid in state.order if cid in self.identity.owns]
        mine += sorted(cid for cid in self.identity.owns if cid not in mine)
        mine = [cid for cid in mine if cid in state.combatants]
        return sorted(mine, key=lambda cid: cid != state.turn.actor)

    # --- the state --------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The table now: round, turn, who is next, the order, the map, every combatant."""
        table = self.table
        with table._lock:
            state, seq = table.state, table.seq
        ruleset = table.ruleset
        presenter = ruleset.presenter()
        order = list(state.order)
        acting = state.turn.actor
        nxt = order[(order.index(acting) + 1) % len(order)] if acting in order else None
        bounds = table.file.bounds
        combatants = []
        for cid in order + [c for c in state.combatants if c not in order]:
            c = state.combatants[cid]
            shown = self.hp_shown(state, cid)
            entry: dict[str, Any] = {
                "id": c.id,
                "name": c.name,
                "side": c.side,
                "at": list(c.at) if c.at is not None else None,
                "down": ruleset.is_down(c),
                "acting": cid == acting,
                "mine": cid in self.identity.owns,
                "hp_shown": shown,
                "statuses": _shown(presenter.statuses(state, c)),
                "gear": presenter.gear(state, c),
            }
            if self.identity.role is Role.GM or cid in self.identity.owns:
                entry["ranges"] = [
                    {"label": r.label, "tiles": r.tiles} for r in presenter.ranges(state, c)
                ]
            if shown == "exact":
                entry["hp"], entry["max_hp"] = c.hp, c.max_hp
                entry["fields"] = _shown(presenter.fields(state, c))
            elif shown == "label":
                entry["hp_label"] = hp_label(ruleset, c)
            combatants.append(entry)
        return {
            "encounter": table.name,
            "ruleset": ruleset.name,
            "title": ruleset.title,
            "seq": seq,
            "round": state.round,
            "turn": acting,
            "next": nxt,
            "order": order,
            "bounds": list(bounds) if bounds is not None else None,
            "metric": ruleset.metric_name(),
            "values": _shown(presenter.encounter(state)),
            "combatants": combatants,
            "you": {
                "name": self.identity.name,
                "role": self.identity.role.value,
                "owns": sorted(self.identity.owns),
            },
        }

    # --- the log ------------------------------------------------------------------------

    def _redact(self, event: Event, state: Encounter) -> str | None:
        if isinstance(event, Damaged) and event.target in state.combatants:
            shown = self.hp_shown(state, event.target)
            if shown == "exact":
                return None
            c = state.get(event.target)
            if shown == "hidden":
                return f"  {c.name} takes damage"
            after = event.apply(state).get(event.target)
            return f"  {c.name} takes damage: {hp_label(self.table.ruleset, after)}"
        if isinstance(event, CombatantAdded):
            c = event.combatant
            sides = self._sides(state)
            if self.identity.sees_hp(self.table.rules, sides, c.side) != "exact":
                names = ", ".join(c.name if i == c.id else state.name(i) for i in event.order)
                return f"GM adds {c.name} ({c.side}): order {names}"
            return None
        if isinstance(event, FieldsSet) and event.actor in state.combatants:
            touched = {"hp", "max_hp"} & set(event.core)
            if touched and self.hp_shown(state, event.actor) != "exact":
                return f"GM changes {state.name(event.actor)}'s HP"
        return None

    def lines(self, since: int = 0) -> list[dict[str, Any]]:
        """The log's lines from record ``since`` on: ``seq``, ``text``, ``tone``."""
        table = self.table
        with table._lock:
            log, before = list(table.log), list(table.before)
        out: list[dict[str, Any]] = []
        for i in range(max(0, since), len(log)):
            record = log[i]
            done = log[record.target] if record.target is not None else record
            hidden = done.action is not None and self._hp_edit(done.action, before[i])
            for line in record_entries(log, before[i], record, self._redact):
                text = line.text
                if hidden and line.tone == "title":
                    assert done.action is not None
                    shown = dataclasses.replace(done.action, params={})
                    text = text.replace(
                        action_title(done.seq, done.action), action_title(done.seq, shown)
                    )
                out.append({"seq": i, "text": text, "tone": line.tone})
        return out

    def _hp_edit(self, action: Action, state: Encounter) -> bool:
        """A game master's edit of the HP of a combatant whose HP this identity does not
        see (its amount or value would tell it), or a new combatant's sheet (a player
        sees the new combatant as the state shows it)."""
        if action.do == "add":
            return self.identity.role is not Role.GM
        if action.actor not in state.combatants or self.hp_shown(state, action.actor) == "exact":
            return False
        return action.do in ("heal", "damage") or (
            action.do == "set" and bool({"hp", "max_hp"} & set(action.params))
        )

    # --- what may be done, and its odds -----------------------------------------------

    def options(self) -> dict[str, list[dict[str, Any]]]:
        """Per actor this identity plays now: every action, allowed (targets, tile,
        parameter values) or refused with the reason."""
        state = self.table.state
        return {
            actor: [_option(o) for o in self.table.options(actor)] for actor in self.actors(state)
        }

    def odds(self, result: Odds) -> dict[str, Any]:
        """The odds as ``fracas odds --json`` gives them (floats and exact), without the
        chance of going down of a combatant whose HP this identity does not see."""
        out = result.to_json()
        state = self.table.state
        for cid in list(out["combatants"]):
            if cid in state.combatants and self.hp_shown(state, cid) != "exact":
                out["combatants"][cid].pop("down", None)
                out["exact"]["combatants"][cid].pop("down", None)
        return out


def _option(o: Option) -> dict[str, Any]:
    refusal = None if o.refusal is None else {"code": o.refusal.code, "message": o.refusal.message}
    return {
        "do": o.spec.name,
        "summary": o.spec.summary,
        "actor": o.actor,
        "targets": list(o.targets) if o.spec.targets != "none" else None,
        "target_kind": o.spec.targets,
        "tile": o.tile,
        "params": list(o.spec.params),
        "required": list(o.spec.required),
        "choices": {k: list(v) for k, v in o.choices.items()},
        "allowed": o.allowed,
        "refusal": refusal,
    }
