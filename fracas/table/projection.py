"""What one identity sees of a table, as plain data: the state, the log and the options
(the odds: :meth:`~fracas.table.questions.OddsQuestion.shown`), projected from a frozen
:class:`~fracas.table.table.Snapshot` with what it may not see left out. Every face that
shows a table to a player projects through here, on the server side: hidden HP never
leaves it.

Redaction works on values, never on words: an event, an action, a status names
combatants in its fields (:func:`mentions`), and what names a combatant the identity
may not see is left out. No sentence is made here: the log is projected as
:class:`Entry` values (which record, what kind of line, the action or event that
survived, whom it names), the state's words likewise (the die asked for, a request,
the outcome, whose turn it is) as values, and a face makes the words of what survived
(``fracas.words.render``). An event whose fields hold words rather than values
(:attr:`~fracas.model.Event.prose`: a ruleset's ``attacks Cy with the pistol``, a free
text) may name anyone: in a record where a combatant the identity may not see takes
part, it has no line.

The game master sees everything. A player sees its own sides exactly; a combatant of
another side shows its HP as the table's policy says (``exact``, a ``label``: healthy,
hurt, bloodied, down, or ``hidden``), without its ruleset fields (which hold wounds,
limbs and the like), and the log's HP figures for it, and the odds' chance that it
goes down, are left out likewise, as is every line of an event that
:attr:`~fracas.model.Event.reveals` its HP-like state (the event's :meth:`veiled` line).
The ranges of what a combatant holds (rings on a map) go to the game master and to
its own player.

A combatant the game master hides (``hide``) is not sent to a player or a viewer at
all: not in the state, the turn order, the log, the options' targets or the odds. The
game master's notes (``note``) and the tactics presets the lab plays each combatant by
(``tactics``) are sent to the game master alone, and a player's log has no line of
their records.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fracas.engine.catalogue import calls_in, is_private, spec_of
from fracas.engine.may_do import Option, param_flags, param_numbers, relation
from fracas.engine.table_actions import judgement_calls, rolls_initiative
from fracas.errors import FracasError
from fracas.model import (
    NO_ACTOR,
    PRESETS,
    Action,
    Combatant,
    CombatantAdded,
    Damaged,
    Encounter,
    Event,
    FieldsSet,
    policy_words,
)
from fracas.rulesets.base import (
    Presenter,
    Ruleset,
    Shown,
    choice_words,
    encounter_shown,
    gear_note,
    is_down,
    metric_name,
    on_sheet,
    presenter_of,
    rings,
    statuses_shown,
)
from fracas.table.identity import Identity, Role, closed
from fracas.table.outcome import outcome
from fracas.table.physical import DieNeeded, Pending

if TYPE_CHECKING:
    from fracas.table.commands import Request
    from fracas.table.table import Snapshot

__all__ = ["Asked", "Entry", "View", "hp_label", "mentions", "named", "player_ids", "players_side"]


def players_side(state: Encounter) -> str:
    """The players' side: the side of the file's first combatant (as files are
    written)."""
    return next(iter(state.combatants.values())).side


def player_ids(state: Encounter) -> list[str]:
    """The ids of the players' side but its hidden combatants: those a player link is
    made for, and whom a players' view of the log reads as."""
    side = players_side(state)
    return [c.id for c in state.combatants.values() if c.side == side and c.id not in state.hidden]


def hp_label(ruleset: Ruleset, c: Combatant) -> str:
    """The HP band a player sees of an enemy: ``down``, ``healthy`` (full), ``hurt``
    (above half) or ``bloodied`` (half or less)."""
    if is_down(ruleset, c):
        return "down"
    if c.hp >= c.max_hp:
        return "healthy"
    return "hurt" if 2 * c.hp > c.max_hp else "bloodied"


def _shown(items: Iterable[Shown]) -> list[dict[str, str]]:
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


def named(value: Any, ids: frozenset[str]) -> frozenset[str]:
    """The ids of ``ids`` that ``value`` (an event, an action, nested data) names, as
    :func:`mentions` finds them."""
    if not ids:
        return frozenset()
    if isinstance(value, str):
        return frozenset((value,)) if value in ids else frozenset()
    if isinstance(value, Combatant):
        return frozenset((value.id,)) if value.id in ids else frozenset()
    found: frozenset[str] = frozenset()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            found |= named(getattr(value, f.name), ids)
    elif isinstance(value, Mapping):
        for k, v in value.items():
            found |= named(k, ids) | named(v, ids)
    elif isinstance(value, Iterable):
        for v in value:
            found |= named(v, ids)
    return found


ENTRY_KINDS = ("title", "covered", "undo", "redo", "event", "veiled", "damage", "added", "hp_set")
"""What an :class:`Entry` of the log is (its ``kind``)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of the log as an identity may read it, in values: a face makes its words
    (``fracas.words.render.entry_words``)."""

    seq: int
    """The record it belongs to (its index in the log)."""
    kind: str
    """``title``: an action's heading; ``covered``: the heading of a record the identity
    may not read (its number alone); ``undo``, ``redo``: the heading of a record that
    takes back or puts back ``action``; ``event``: the event's own line; ``veiled``: an
    event that tells the HP-like state of a combatant whose HP the identity does not
    see (the event's :meth:`~fracas.model.Event.veiled` line); ``damage``: damage to
    such a combatant (``label``: its HP band after, ``""`` where its HP is hidden);
    ``added``: a combatant the game master adds, without its sheet; ``hp_set``: the
    game master's change of the HP of a combatant whose HP it does not see."""
    tone: str
    """``title`` for a heading, else the event's :attr:`~fracas.model.Event.tone`."""
    number: int = 0
    """A heading's record number (``#4``)."""
    action: Action | None = None
    """A heading's action as shown (an edit of HP the identity does not see: without
    its parameters)."""
    taken: int = 0
    """``undo``, ``redo``: the number of the record taken back or put back."""
    event: Event | None = None
    before: Encounter | None = None
    """The state just before ``event`` (its line reads names from it)."""
    label: str = ""
    """``damage``: the HP band shown after it."""
    names: frozenset[str] = frozenset()
    """The combatants the entry names (ids)."""


@dataclass(frozen=True, slots=True)
class Asked:
    """The die an action waits for, as an identity may know of it."""

    yours: bool
    """Whether this identity gives it."""
    cancel: bool
    """Whether this identity may cancel the action."""
    covered: bool = False
    """The action names a combatant the identity may not see: nothing else is told
    (the game master rolls)."""
    need: DieNeeded | None = None
    action: Action | None = None
    """The action, without its dice."""
    number: int = 0
    """The table's seq (the action's heading)."""
    by: str | None = None
    """The player who asked for the action; None: the game master."""
    played: bool = True
    """Whether a player plays the die's owner (else the game master alone gives it)."""
    given: Mapping[str, tuple[int, ...]] = dataclasses.field(default_factory=dict)


class View:
    """One identity's view of one table at one moment (a :class:`Snapshot`)."""

    def __init__(
        self, snapshot: Snapshot, identity: Identity, played: frozenset[str] | None = None
    ) -> None:
        self.snap = snapshot
        self.identity = identity
        self.played = played
        """The combatants some player plays (a face's links), where known: a die of one
        nobody plays waits for the game master alone."""

    # --- who sees what --------------------------------------------------------------

    @property
    def gm(self) -> bool:
        return self.identity.role is Role.GM

    def unseen(self, state: Encounter, also: Iterable[str] = ()) -> frozenset[str]:
        """The combatants this identity may not see in ``state``: the hidden ones (none
        for the game master), and ``also``."""
        if self.gm:
            return frozenset()
        return state.hidden | frozenset(also)

    def _sides(self, state: Encounter) -> frozenset[str]:
        return frozenset(c.side for c in state.combatants.values() if c.id in self.identity.owns)

    def hp_shown(self, state: Encounter, cid: str) -> str:
        """``exact``, ``label`` or ``hidden``: how this identity sees ``cid``'s HP in
        ``state``, as the table's policy says now (the whole log is shown as it says)."""
        c = state.get(cid)
        return self.identity.sees_hp(self.snap.state.policy, self._sides(state), c.side)

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
        this identity sees, the policy, what waits (``pending``: an :class:`Asked` or
        None; ``requests``: the :class:`~fracas.table.commands.Request` values this
        identity sees), the outcome; a face adds the words (whose turn it is, ...)."""
        snap = self.snap
        state, ruleset = snap.state, snap.ruleset
        presenter = presenter_of(ruleset)
        unseen = self.unseen(state)
        order = [cid for cid in state.order if cid not in unseen]
        acting = state.turn.actor
        combatants = []
        everyone = list(state.order) + [c for c in state.combatants if c not in state.order]
        for cid in everyone:
            if cid not in unseen:
                combatants.append(self._combatant(state, state.combatants[cid], unseen))
        bounds = snap.file.bounds
        policy = state.policy
        return {
            "encounter": snap.name,
            "ruleset": ruleset.about.name,
            "title": ruleset.about.title,
            "seq": snap.seq,
            "round": state.round,
            "turn": acting if acting not in unseen else None,
            "next": _next(state.order, acting, unseen),
            "order": order,
            "bounds": list(bounds) if bounds is not None else None,
            "map_image": snap.map_image,
            "metric": metric_name(ruleset),
            "values": _shown(encounter_shown(presenter, state)),
            "dice": "physical" if snap.physical else "fracas",
            "pending": None if snap.pending is None else self._pending(snap.pending, unseen),
            "requests": [r for r in snap.requests if self._sees_request(r)],
            "policy": {
                "words": list(policy_words(policy)),
                "calls": list(judgement_calls(ruleset)),
                "player_undo": policy.player_undo,
                "player_calls": sorted(policy.player_calls),
                "enemy_hp": policy.enemy_hp,
                "winbar": policy.winbar,
                "player_move": policy.player_move,
                "advisor": policy.advisor,
            },
            "combatants": combatants,
            "status_list": _status_list(ruleset) if self.gm else [],
            "presets": list(PRESETS) if self.gm else [],
            "ranges_button": ruleset.about.ranges_button,
            "initiative_roll": self.gm and rolls_initiative(ruleset, state),
            "initiative_each_round": self.gm and state.table.reroll_initiative,
            "move_params": list(move.params) if (move := spec_of(ruleset, "move")) else [],
            "outcome": _outcome(ruleset, state, unseen),
            "you": {
                "name": self.identity.name,
                "role": self.identity.role.value,
                "owns": sorted(self.identity.owns - unseen),
                "undo": self._may_take_back(redo=False),
                "redo": self._may_take_back(redo=True),
                "advise": self._may_advise(),
                "end_turn": self._may_end_turn(),
            },
        }

    def _combatant(self, state: Encounter, c: Combatant, unseen: frozenset[str]) -> dict[str, Any]:
        ruleset = self.snap.ruleset
        presenter = presenter_of(ruleset)
        shown = self.hp_shown(state, c.id)
        # a status whose details name an unseen combatant is not shown (it would tell)
        if unseen and mentions(c.statuses, unseen):
            kept = {k: v for k, v in c.statuses.items() if not mentions(v, unseen)}
            c = dataclasses.replace(c, statuses=kept)
        entry: dict[str, Any] = {
            "id": c.id,
            "name": c.name,
            "side": c.side,
            "at": list(c.at) if c.at is not None else None,
            "down": is_down(ruleset, c),
            "acting": c.id == state.turn.actor,
            "mine": c.id in self.identity.owns,
            "hp_shown": shown,
            "statuses": _shown(
                (*statuses_shown(state, c), *(Shown(n, "") for n in on_sheet(ruleset, c)))
            ),
            "gear": presenter.gear(state, c),
            "gear_note": gear_note(presenter, state, c),
        }
        word, value = _order_value(ruleset, presenter, state, c)
        if value is not None:  # what the turn order goes by, where any
            entry["initiative_word"], entry["initiative"] = word, value
        if self.gm:
            entry["hidden"] = c.id in state.hidden
            entry["reveal_on_turn"] = c.id in state.reveal_on_turn  # the GM's only
            entry["note"] = state.notes.get(c.id, "")
            tactic = self.snap.file.tactics.get(c.id)
            entry["tactics"] = state.presets.get(c.id) or (
                tactic.preset if tactic is not None else "default"
            )
        if self.gm or c.id in self.identity.owns:
            entry["ranges"] = [
                {"label": r.label, "tiles": r.tiles}
                for r in presenter.ranges(state, c)
                if not r.ring
            ]
            entry["rings"] = [
                {"label": r.label, "tiles": r.tiles} for r in rings(presenter, state, c)
            ]
        if shown == "exact":
            entry["hp"], entry["max_hp"] = c.hp, c.max_hp
            entry["fields"] = _shown(presenter.fields(state, c))
        elif shown == "label":
            entry["hp_label"] = hp_label(ruleset, c)
        return entry

    def _may_take_back(self, *, redo: bool) -> bool:
        """Whether this identity's undo (redo) would be taken now, as the policy says."""
        snap = self.snap
        latest = snap.redoable if redo else snap.undoable
        if latest is None or self.identity.role is Role.VIEWER:
            return False
        try:
            self.identity.check_undo(snap.state.policy, latest, redo=redo)
        except FracasError:
            return False
        return True

    def _may_end_turn(self) -> bool:
        """Whether this identity's end of the turn in progress would be taken now (its
        own combatant's turn, the fight not over), as the table checks it."""
        state = self.snap.state
        if self.identity.role is Role.VIEWER:
            return False
        try:
            self.identity.check_act(self.snap.ruleset, state, Action(state.turn.actor, "end_turn"))
        except FracasError:
            return False
        return True

    def _may_advise(self) -> bool:
        """Whether this identity may ask the advisor now (the page's "Suggest"), as
        :meth:`~fracas.table.identity.Identity.check_advice` decides."""
        try:
            self.identity.check_advice(self.snap.state)
        except FracasError:
            return False
        return True

    def _pending(self, pending: Pending, unseen: frozenset[str]) -> Asked:
        """The die an action waits for, and whether this identity gives it (or may
        cancel the action)."""
        if mentions(pending.action, unseen) or pending.needed.owner in unseen:
            return Asked(yours=False, cancel=False, covered=True)
        need = pending.needed
        return Asked(
            yours=pending.may_give(self.identity),
            cancel=pending.may_cancel(self.identity),
            need=need,
            action=dataclasses.replace(pending.action, dice={}),
            number=pending.seq,
            by=None if pending.by.role is Role.GM else pending.by.name,
            played=need.owner != NO_ACTOR and (self.played is None or need.owner in self.played),
            given=dict(pending.action.dice),
        )

    def _sees_request(self, request: Request) -> bool:
        return self.gm or request.by == self.identity.name

    # --- the log ------------------------------------------------------------------------

    def _kind(self, event: Event, state: Encounter) -> tuple[str, str]:
        """What line ``event`` has for this identity (an :class:`Entry`'s kind), and the
        HP band a ``damage`` line shows; ``state``: the state before it."""
        if isinstance(event, Damaged) and event.target in state.combatants:
            shown = self.hp_shown(state, event.target)
            if shown == "exact":
                return "event", ""
            if shown == "hidden":
                return "damage", ""
            after = event.apply(state).get(event.target)
            return "damage", hp_label(self.snap.ruleset, after)
        cid = getattr(event, event.reveals, None) if event.reveals else None
        if isinstance(cid, str) and cid in state.combatants:
            # a ruleset's line that tells HP-like state (wounds, a limb's damage, armour)
            return ("event" if self.hp_shown(state, cid) == "exact" else "veiled"), ""
        if isinstance(event, CombatantAdded):
            sides = self._sides(state)
            seen = self.identity.sees_hp(self.snap.state.policy, sides, event.combatant.side)
            return ("event" if seen == "exact" else "added"), ""
        if isinstance(event, FieldsSet) and event.actor in state.combatants:
            touched = {"hp", "max_hp"} & set(event.core)
            if touched and self.hp_shown(state, event.actor) != "exact":
                return "hp_set", ""
        return "event", ""

    def lines(self, since: int = 0) -> list[Entry]:
        """The log's lines from record ``since`` on, as :class:`Entry` values.

        For a player or a viewer: no line of a note's record (or of its undo or redo),
        none of an event that names a combatant hidden after the record or now; a
        record whose action names one is ``covered`` (its number only), and in a record
        where one takes part no line of an event whose fields hold words (a free text,
        a ruleset's ``attacks Cy with ...``: :attr:`~fracas.model.Event.prose`)."""
        snap = self.snap
        log, before, now = snap.log, snap.before, snap.state
        out: list[Entry] = []
        for i in range(max(0, since), len(log)):
            record = log[i]
            done = log[record.target] if record.target is not None else record
            if not self.gm and done.action is not None and is_private(done.action):
                continue
            after = before[i + 1] if i + 1 < len(before) else now
            unseen = self.unseen(after, now.hidden)
            known = frozenset(before[i].combatants) | frozenset(after.combatants)
            known |= frozenset(now.combatants)
            events = () if record.kind == "undo" else done.events
            hits = [mentions(e, unseen) for e in events]
            secret = bool(unseen) and done.action is not None and mentions(done.action, unseen)
            veil = secret or any(hits)
            if record.kind in ("undo", "redo") or record.action is not None:
                assert done.action is not None
                if secret:
                    out.append(Entry(i, "covered", "title", record.seq))
                else:
                    action = done.action
                    if self._hp_edit(action, before[i]):
                        action = dataclasses.replace(action, params={})
                    kind = record.kind if record.kind in ("undo", "redo") else "title"
                    names = named(action, known)
                    out.append(Entry(i, kind, "title", record.seq, action, done.seq, names=names))
            state = before[i]
            for event, hit in zip(events, hits, strict=True):
                if not hit and not (veil and event.prose):
                    kind, label = self._kind(event, state)
                    names = named(event, known)
                    out.append(
                        Entry(
                            i, kind, event.tone, event=event, before=state, label=label, names=names
                        )
                    )
                state = event.apply(state)
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

    # --- what may be done -------------------------------------------------------------

    def options(self) -> dict[str, list[dict[str, Any]]]:
        """Per actor this identity plays now: every action, allowed (targets, tile,
        parameter values) or refused with the reason, as the rules and the table's
        policy say; none naming a hidden combatant (a player's are tried on the
        combatants it sees only)."""
        snap = self.snap
        state = snap.state
        unseen = self.unseen(state)
        out = {
            actor: [
                self._option(o, unseen)
                for o in snap.options(actor, unseen)
                if self._offered(o.spec.name, actor)
            ]
            for actor in self.actors(state)
        }
        if self.gm:  # the game master's own combatants' reactions, off turn (issue 35)
            for actor in self._reactors(state):
                found = [self._option(o, unseen) for o in snap.options(actor, unseen)]
                found = [o for o in found if o["react"]]
                if found:
                    out[actor] = found
        return out

    def _reactors(self, state: Encounter) -> list[str]:
        """Who, besides the acting combatant, may have a reaction the game master takes:
        those no player plays (all, where that is not known) that stand, where the rules
        have an off-turn action on a target at all."""
        ruleset = self.snap.ruleset
        if not any(s.off_turn and s.targets != "none" for s in ruleset.contract.actions):
            return []
        return [
            cid
            for cid in state.order
            if cid != state.turn.actor
            and (self.played is None or cid not in self.played)
            and not is_down(ruleset, state.combatants[cid])
        ]

    def _offered(self, do: str, actor: str) -> bool:
        """Whether the page offers ``do`` to this identity at all (a player is never
        offered the game master's actions)."""
        return self.identity.takes(self.snap.ruleset, Action(actor, do))

    def _option(self, o: Option, unseen: frozenset[str]) -> dict[str, Any]:
        snap = self.snap
        state = snap.state
        # the table's own refusal (the fight is over, or ended) before the rules'
        why = closed(snap.ruleset, state, Action(o.actor, o.spec.name)) or o.refusal
        refusal = None if why is None else {"code": why.code, "message": why.message}
        spec = spec_of(snap.ruleset, o.spec.name) or o.spec
        calls = list(spec.calls)
        mine = set(state.policy.player_calls)
        targets = [t for t in o.targets if t not in unseen]
        return {
            "do": o.spec.name,
            "summary": o.spec.summary,
            "actor": o.actor,
            "targets": targets if o.spec.targets != "none" else None,
            "marks": {  # what each target is to the actor, and whether it is down
                t: {
                    "relation": relation(state, o.actor, t),
                    "down": is_down(snap.ruleset, state.combatants[t]),
                }
                for t in targets
            },
            "target_kind": o.spec.targets,
            "tile": o.tile,
            "params": list(o.spec.params),
            "required": list(o.spec.required),
            "choices": {k: [v for v in vs if v not in unseen] for k, vs in o.choices.items()},
            "choice_words": self._choice_words(o),
            "flags": list(param_flags(o.spec)),
            "numbers": list(param_numbers(o.spec)),
            "calls": calls,
            "ask": [] if self.gm else [c for c in calls if c not in mine],
            "allowed": why is None,
            "refusal": refusal,
            "costs": [c.to_json() for c in o.costs],  # before any die (issue 35)
            "react": self._react(o, targets) if why is None else [],
        }

    def _react(self, o: Option, targets: list[str]) -> list[str]:
        """The standing enemies on whom ``o``, an off-turn action (a reaction) of a
        combatant whose turn it is not, may be taken now: its owner's page prompts for
        each (issue 35)."""
        state = self.snap.state
        if not o.spec.off_turn or o.actor == state.turn.actor or o.spec.targets == "none":
            return []
        return [
            t
            for t in targets
            if relation(state, o.actor, t) == "enemy"
            and not is_down(self.snap.ruleset, state.combatants[t])
        ]

    def _choice_words(self, o: Option) -> dict[str, dict[str, dict[str, str]]]:
        """Per parameter, the values the ruleset names otherwise (``knife (scrap)``),
        each with its rule's line (``note``: empty where none applies, DC-11)."""
        state = self.snap.state
        if o.actor not in state.combatants:
            return {}
        presenter = presenter_of(self.snap.ruleset)
        c = state.combatants[o.actor]
        out: dict[str, dict[str, dict[str, str]]] = {}
        for param, values in o.choices.items():
            for value in values:
                said = choice_words(presenter, state, c, param, value)
                if said is not None:
                    out.setdefault(param, {})[value] = {"words": said[0], "note": said[1]}
        return out

    def asks(self, action: Action) -> tuple[str, ...]:
        """The judgement calls ``action`` would ask the game master for, from this
        identity (none from the game master)."""
        if self.gm:
            return ()
        policy = self.snap.state.policy
        return tuple(c for c in calls_in(self.snap.ruleset, action) if c not in policy.player_calls)


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


def _status_list(ruleset: Ruleset) -> list[dict[str, Any]]:
    """The statuses the ruleset's rules read, with their details (the game master's
    conditions list: a name, a line of help, each detail's type and default)."""
    return [
        {
            "name": spec.name,
            "summary": spec.summary,
            "details": [
                {"name": k, "type": d.type.__name__, "default": d.default, "summary": d.summary}
                for k, d in spec.details.items()
            ],
        }
        for spec in ruleset.contract.statuses
    ]


def _outcome(ruleset: Ruleset, state: Encounter, unseen: frozenset[str]) -> dict[str, Any] | None:
    """Who won, as this identity may read it (an unseen combatant standing is not named;
    while one stands on another side, the fight is not over for anyone), or that the
    game master ended the fight (``ended``; ``over``: False, no side won)."""
    done = outcome(ruleset, state)
    if done is None:
        if not state.ended:
            return None
        return {"side": None, "standing": [], "ended": True, "over": False}
    hidden = {state.combatants[c].name for c in state.combatants if c in unseen}
    shown = [n for n in done.standing if n not in hidden]
    return {"side": done.side, "standing": shown, "ended": state.ended, "over": True}


def _order_value(
    ruleset: Ruleset, presenter: Presenter, state: Encounter, c: Combatant
) -> tuple[str, int | None]:
    """The value the turn order goes by and its word: the derived value the contract's
    ``order_by`` names (wasteland's ``sequence``, WL-1), else the rolled initiative its
    ``initiative_field`` keeps (soak's, SK-1), else none."""
    by, held = ruleset.contract.order_by, ruleset.contract.initiative_field
    if by is not None:
        value = presenter.sheet_json(state, c).get(by)
    else:
        value = getattr(c.sheet, held, None) if held is not None else None
    return by or "initiative", value if isinstance(value, int) else None
