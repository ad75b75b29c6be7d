"""What one identity sees of a table, as plain data: the state, the log, the options
and the odds, with what it may not see left out (every face that shows a table to a
player projects through here, on the server side: hidden HP never leaves it).

The game master sees everything. A player sees its own sides exactly; a combatant of
another side shows its HP as the table's :attr:`~fracas.table.TableRules.enemy_hp`
says (``exact``, a ``label``: healthy, hurt, bloodied, down, or ``hidden``), without
its ruleset fields (which hold wounds, limbs and the like), and the log's HP figures
for it, and the odds' chance that it goes down, are left out likewise, as is every
line of an event that :attr:`~fracas.model.Event.reveals` its HP-like state (a
ruleset's wounds, limb damage, armour worn down: the event's :meth:`veiled` line). The ranges of
what a combatant holds (rings on a map) go to the game master and to its own player.

A combatant the game master hides (``hide``, table state) is not sent to a player or a
viewer at all: not in the state, the turn order, the log, the options' targets or the
odds, and no text sent names it (a line that would is left out; a message has
"someone" in its place). The game master's notes (``note``) are sent to the game master
alone, and a player's log has no line of a note's record.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping
from typing import Any

from fracas.engine import Record
from fracas.gm import PRIVATE_ACTIONS
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
from fracas.table.choices import Option, param_flags, param_numbers
from fracas.table.identity import Identity, Role
from fracas.table.physical import Pending
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


def mentions(value: Any, ids: frozenset[str]) -> bool:
    """Whether ``value`` (an event, an action, a combatant, nested data) names one of
    ``ids``: a string equal to one, or a combatant with that id."""
    if not ids:
        return False
    if isinstance(value, str):
        return value in ids
    if isinstance(value, Combatant):
        return value.id in ids
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return any(mentions(getattr(value, f.name), ids) for f in dataclasses.fields(value))
    if isinstance(value, Mapping):
        return any(mentions(k, ids) or mentions(v, ids) for k, v in value.items())
    if isinstance(value, Iterable):
        return any(mentions(v, ids) for v in value)
    return False


class Unseen:
    """The combatants one identity may not see, and the words that would name them."""

    def __init__(self, state: Encounter, ids: Iterable[str]) -> None:
        self.ids = frozenset(ids)
        words = set(self.ids)
        for cid in self.ids:
            if cid in state.combatants:
                words.add(state.name(cid))
        alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
        self._words = re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)") if words else None

    def __bool__(self) -> bool:
        return bool(self.ids)

    def named(self, text: str) -> bool:
        """Whether ``text`` names one of them (by id or name, as a whole word)."""
        return self._words is not None and self._words.search(text) is not None

    def clean(self, text: str) -> str:
        """``text`` with each of them named "someone"."""
        return text if self._words is None else self._words.sub("someone", text)


class View:
    """One identity's view of one table."""

    def __init__(self, table: Table, identity: Identity) -> None:
        self.table = table
        self.identity = identity

    # --- who sees what --------------------------------------------------------------

    @property
    def gm(self) -> bool:
        return self.identity.role is Role.GM

    def unseen(self, state: Encounter, also: Iterable[str] = ()) -> Unseen:
        """What this identity may not see in ``state``: its hidden combatants (none for
        the game master), and ``also``."""
        if self.gm:
            return Unseen(state, ())
        return Unseen(state, state.hidden | frozenset(also))

    def _sides(self, state: Encounter) -> frozenset[str]:
        return frozenset(c.side for c in state.combatants.values() if c.id in self.identity.owns)

    def hp_shown(self, state: Encounter, cid: str) -> str:
        """``exact``, ``label`` or ``hidden``: how this identity sees ``cid``'s HP."""
        c = state.get(cid)
        return self.identity.sees_hp(self.table.rules, self._sides(state), c.side)

    def actors(self, state: Encounter) -> list[str]:
        """Whose actions this identity is offered: the game master, the acting combatant;
        a player, its own combatants that it sees (the acting one first)."""
        if self.gm:
            return [state.turn.actor]
        if self.identity.role is Role.VIEWER:
            return []
        mine = [cid for cid in state.order if cid in self.identity.owns]
        mine += sorted(cid for cid in self.identity.owns if cid not in mine)
        mine = [cid for cid in mine if cid in state.combatants and cid not in state.hidden]
        return sorted(mine, key=lambda cid: cid != state.turn.actor)

    # --- the state --------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The table now: round, turn, who is next, the order, the map, every combatant
        this identity sees."""
        table = self.table
        with table._lock:
            state, seq, pending = table.state, table.seq, table.pending
        ruleset = table.ruleset
        presenter = ruleset.presenter()
        unseen = self.unseen(state)

        def seen(items: tuple[Shown, ...]) -> list[dict[str, str]]:
            return _shown(tuple(i for i in items if not unseen.named(f"{i.value} {i.detail}")))

        order = [cid for cid in state.order if cid not in unseen.ids]
        acting = state.turn.actor
        nxt = _next(state.order, acting, unseen.ids)
        bounds = table.file.bounds
        combatants = []
        everyone = list(state.order) + [c for c in state.combatants if c not in state.order]
        for cid in everyone:
            if cid in unseen.ids:
                continue
            c = state.combatants[cid]
            shown = self.hp_shown(state, cid)
            gear = presenter.gear(state, c)
            entry: dict[str, Any] = {
                "id": c.id,
                "name": c.name,
                "side": c.side,
                "at": list(c.at) if c.at is not None else None,
                "down": ruleset.is_down(c),
                "acting": cid == acting,
                "mine": cid in self.identity.owns,
                "hp_shown": shown,
                "statuses": seen(presenter.statuses(state, c)),
                "gear": "" if unseen.named(gear) else gear,
            }
            if self.gm:
                entry["hidden"] = cid in state.hidden
                entry["note"] = state.notes.get(cid, "")
            if self.gm or cid in self.identity.owns:
                entry["ranges"] = [
                    {"label": r.label, "tiles": r.tiles} for r in presenter.ranges(state, c)
                ]
            if shown == "exact":
                entry["hp"], entry["max_hp"] = c.hp, c.max_hp
                entry["fields"] = seen(presenter.fields(state, c))
            elif shown == "label":
                entry["hp_label"] = hp_label(ruleset, c)
            combatants.append(entry)
        return {
            "encounter": table.name,
            "ruleset": ruleset.name,
            "title": ruleset.title,
            "seq": seq,
            "round": state.round,
            "turn": acting if acting not in unseen.ids else None,
            "next": nxt,
            "order": order,
            "bounds": list(bounds) if bounds is not None else None,
            "metric": ruleset.metric_name(),
            "values": seen(presenter.encounter(state)),
            "dice": "physical" if table.physical else "fracas",
            "pending": None if pending is None else self._pending(pending, unseen),
            "combatants": combatants,
            "you": {
                "name": self.identity.name,
                "role": self.identity.role.value,
                "owns": sorted(self.identity.owns - unseen.ids),
            },
        }

    def _pending(self, pending: Pending, unseen: Unseen) -> dict[str, Any]:
        """The die an action waits for, and whether this identity gives it (or may
        cancel the action)."""
        if mentions(pending.action, unseen.ids) or pending.needed.owner in unseen.ids:
            return {"question": "the game master rolls", "yours": False, "cancel": False}
        need = pending.needed
        shown = dataclasses.replace(pending.action, dice={})
        return {
            "question": need.question,
            "label": need.label,
            "sides": need.sides,
            "owner": need.owner,
            "action": action_title(pending.seq, shown),
            "by": "the game master" if pending.by.role is Role.GM else pending.by.name,
            "given": {k: list(v) for k, v in pending.action.dice.items()},
            "yours": pending.may_give(self.identity),
            "cancel": pending.may_cancel(self.identity),
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
        cid = getattr(event, event.reveals, None) if event.reveals else None
        if isinstance(cid, str) and cid in state.combatants:
            # a ruleset's line that tells HP-like state (wounds, a limb's damage, armour)
            return None if self.hp_shown(state, cid) == "exact" else event.veiled(state)
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
        """The log's lines from record ``since`` on: ``seq``, ``text``, ``tone``.

        For a player or a viewer: no line of a note's record (or of its undo or redo),
        none that names a combatant hidden after the record or now (an action's title
        that would says only its number)."""
        table = self.table
        with table._lock:
            log, before, now = list(table.log), list(table.before), table.state
        out: list[dict[str, Any]] = []
        for i in range(max(0, since), len(log)):
            record = log[i]
            done = log[record.target] if record.target is not None else record
            if not self.gm and done.action is not None and done.action.do in PRIVATE_ACTIONS:
                continue
            after = before[i + 1] if i + 1 < len(before) else now
            unseen = self.unseen(after, now.hidden)
            unseen = Unseen(_known(before[i], after, now), unseen.ids) if unseen else unseen
            hidden = done.action is not None and self._hp_edit(done.action, before[i])
            secret = bool(unseen) and done.action is not None and mentions(done.action, unseen.ids)

            def redact(
                event: Event, state: Encounter, ids: frozenset[str] = unseen.ids
            ) -> str | None:
                if mentions(event, ids):
                    return ""  # no line
                return self._redact(event, state)

            for line in record_entries(log, before[i], record, redact):
                text = line.text
                if line.tone == "title" and (secret or unseen.named(text)):
                    text = _covered(record)
                elif hidden and line.tone == "title":
                    assert done.action is not None
                    shown = dataclasses.replace(done.action, params={})
                    text = text.replace(
                        action_title(done.seq, done.action), action_title(done.seq, shown)
                    )
                elif unseen.named(text):
                    continue
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
        parameter values) or refused with the reason (none naming a hidden combatant)."""
        state = self.table.state
        unseen = self.unseen(state)
        return {
            actor: [_option(o, unseen) for o in self.table.options(actor)]
            for actor in self.actors(state)
        }

    def odds(self, result: Odds) -> dict[str, Any]:
        """The odds as ``fracas odds --json`` gives them (floats and exact), without the
        chance of going down of a combatant whose HP this identity does not see, and
        without a hidden combatant."""
        out = result.to_json()
        state = self.table.state
        unseen = self.unseen(state)
        # per combatant: the figures, and the exact ones, an estimate's intervals or the
        # cut mass where the odds have them
        keyed: list[dict[str, Any]] = [
            out["combatants"],
            out.get("exact", {}).get("combatants", {}),
            out.get("estimate", {}).get("ci95", {}),
            out.get("truncated", {}).get("combatants", {}),
        ]
        for cid in list(out["combatants"]):
            if cid in unseen.ids or (cid not in state.combatants and not self.gm):
                for figures in keyed:
                    figures.pop(cid, None)
            elif cid in state.combatants and self.hp_shown(state, cid) != "exact":
                for figures in keyed:
                    figures.get(cid, {}).pop("down", None)
        return out

    def clean(self, text: str) -> str:
        """A message for this identity: a hidden combatant named "someone"."""
        return self.unseen(self.table.state).clean(text)


def _next(order: tuple[str, ...], acting: str, unseen: frozenset[str]) -> str | None:
    """Who comes after ``acting`` in ``order``, skipping the unseen."""
    if acting not in order:
        return None
    i = order.index(acting)
    for step in range(1, len(order) + 1):
        cid = order[(i + step) % len(order)]
        if cid not in unseen:
            return cid
    return None


def _known(*states: Encounter) -> Encounter:
    """A state whose combatants are those of all ``states`` (to name them all)."""
    merged = {cid: c for s in states for cid, c in s.combatants.items()}
    return dataclasses.replace(states[-1], combatants=merged)


def _covered(record: Record) -> str:
    """The title of a record the identity may not read."""
    return f"#{record.seq}: the game master acts"


def _option(o: Option, unseen: Unseen) -> dict[str, Any]:
    refusal = (
        None
        if o.refusal is None
        else {"code": o.refusal.code, "message": unseen.clean(o.refusal.message)}
    )
    targets = [t for t in o.targets if t not in unseen.ids]
    return {
        "do": o.spec.name,
        "summary": o.spec.summary,
        "actor": o.actor,
        "targets": targets if o.spec.targets != "none" else None,
        "target_kind": o.spec.targets,
        "tile": o.tile,
        "params": list(o.spec.params),
        "required": list(o.spec.required),
        "choices": {k: [v for v in vs if v not in unseen.ids] for k, vs in o.choices.items()},
        "flags": list(param_flags(o.spec)),
        "numbers": list(param_numbers(o.spec)),
        "allowed": o.allowed,
        "refusal": refusal,
    }
