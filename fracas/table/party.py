"""A party that carries over from fight to fight (issue 36): a campaign's player
characters, kept in the store beside the encounters and belonging to none of them.

What lasts of a combatant between fights is its ruleset's to say, as data
(:class:`~fracas.rulesets.base.Lasting`, on the ruleset's ``about``): its HP, the sheet
fields that last whole (ammo spent and items used, injuries, wounds, conditions), the
statuses that outlast a fight, and what a rest gives back. Nothing here names a
ruleset.

The round trip, through the table service and nothing else:

* :func:`start`: a new encounter from a file's text with the party brought in: each of
  the file's combatants whose id or name is a member's takes the member's lasting
  values over the file's (the rest, a turn's AP, cover, initiative, is the file's
  afresh); a lasting status is set by the game master's ``set`` as the fight opens,
  logged like any edit. The encounter remembers its party (:data:`KEY`, a store extra).
  :func:`start_file` is the same from a file's path, the one door of the three commands
  that bring a party in (``fracas party start``, ``fracas serve FILE --party``,
  ``fracas play FILE --party``): a party comes in as a fight starts, so a stored
  encounter (resumed, already begun) is refused.
* :func:`write_back`: what lasts, from an encounter's state now, into the party. Never at
  the instant the last blow lands: the game master writes back (or starts the next
  fight, :func:`next_fight`, which writes back first), so an undo of the fight's last
  action before that still counts. Writing back twice writes the same values: a member
  holds values, never changes.
* :func:`rest` (the ruleset's own rest rule) and :func:`set_member` (the game master's
  hand).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import yaml

from fracas.errors import FileError, FracasError
from fracas.io.files import parse_text, read_text
from fracas.io.store import NAME_PATTERN, EncounterStore
from fracas.model import Combatant
from fracas.model.frozen import thaw
from fracas.rulesets import find_ruleset
from fracas.rulesets.base import Lasting, Ruleset
from fracas.table.projection import players_side
from fracas.table.service import TableService
from fracas.table.table import GAME_MASTER, Table

__all__ = [
    "KEY",
    "Member",
    "Parties",
    "Party",
    "Started",
    "lasting_of",
    "next_fight",
    "rest",
    "set_member",
    "start",
    "start_file",
    "write_back",
]

KEY = "party"
"""The store extra of an encounter naming the party it brought in (or was written back
to): a later write-back of that encounter goes to it without being told."""


@dataclass(frozen=True, slots=True)
class Member:
    """One of a party's characters, as the last fight left it: who it is, its HP and
    what else of it lasts (the ruleset's :class:`Lasting` fields and statuses), as plain
    data a file would hold."""

    id: str
    name: str
    side: str
    hp: int
    max_hp: int
    fields: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    statuses: Mapping[str, Mapping[str, Any]] = dataclasses.field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "side": self.side,
            "hp": self.hp,
            "max_hp": self.max_hp,
            "fields": dict(self.fields),
            "statuses": {k: dict(v) for k, v in self.statuses.items()},
        }

    def matches(self, c: Combatant | Mapping[str, Any]) -> bool:
        """Whether combatant ``c`` (of a state, or a file's entry) is this member: by id,
        else by name."""
        if isinstance(c, Combatant):
            return self.id == c.id or self.name == c.name
        return self.id == c.get("id") or self.name == (c.get("name") or c.get("id"))


@dataclass(frozen=True, slots=True)
class Party:
    """A party: its ``name``, its ``ruleset``, its members, and the fight last written
    back into it (``encounter`` at record ``seq``; None: none yet)."""

    name: str
    ruleset: str
    members: tuple[Member, ...] = ()
    encounter: str | None = None
    seq: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "ruleset": self.ruleset,
            "encounter": self.encounter,
            "seq": self.seq,
            "members": [m.to_json() for m in self.members],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Party:
        members = tuple(Member(**m) for m in data.get("members", ()))
        return cls(data["name"], data["ruleset"], members, data.get("encounter"), data.get("seq"))

    def member(self, who: str) -> Member:
        """The member whose id or name is ``who``.

        Raises:
            FracasError: ``unknown_member``, naming the members.
        """
        for m in self.members:
            if who in (m.id, m.name):
                return m
        raise FracasError(
            "unknown_member",
            f"party {self.name!r} has no member {who!r}; its members: "
            f"{', '.join(m.id for m in self.members) or 'none'}",
        )


def lasting_of(ruleset: str | Ruleset | type[Ruleset]) -> Lasting:
    """What lasts between fights in ``ruleset`` (a name, a ruleset or its class)."""
    kind = find_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    return kind.about.lasting


class Parties:
    """The parties of one store."""

    def __init__(self, store: EncounterStore) -> None:
        self.store = store

    def find(self, name: str) -> Party | None:
        body = self.store.party(name)
        return None if body is None else Party.from_json(json.loads(body))

    def get(self, name: str) -> Party:
        """Party ``name``.

        Raises:
            FracasError: ``unknown_party``, naming the parties there are.
        """
        party = self.find(name)
        if party is None:
            raise FracasError(
                "unknown_party",
                f"no party {name!r} in {self.store.location}; parties: "
                f"{', '.join(self.store.parties()) or 'none yet'}",
            )
        return party

    def put(self, party: Party) -> Party:
        check_name(party.name)
        self.store.put_party(party.name, json.dumps(party.to_json(), separators=(",", ":")))
        return party

    def all(self) -> list[Party]:
        return [Party.from_json(json.loads(b)) for b in self.store.parties().values()]

    def delete(self, name: str) -> None:
        self.get(name)
        self.store.put_party(name, None)


def check_name(name: str) -> None:
    """Refuse a party name that is not an id (``bad_name``)."""
    if not NAME_PATTERN.match(name):
        raise FracasError(
            "bad_name", f"party name {name!r} must match [a-z0-9][a-z0-9_-]* (like an encounter's)"
        )


# --- a member from a fight, and into the next -----------------------------------------


def member_of(ruleset: Ruleset, c: Combatant) -> Member:
    """What lasts of combatant ``c`` (its ruleset's :class:`Lasting`), as plain data."""
    lasting = ruleset.about.lasting
    fields = {f: thaw(getattr(c.sheet, f)) for f in lasting.sheet}
    statuses = {k: thaw(v) for k, v in c.statuses.items() if k in lasting.statuses}
    return Member(c.id, c.name, c.side, c.hp, c.max_hp, fields, statuses)


def brought_in(
    party: Party, data: Mapping[str, Any]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """An encounter file's data with ``party`` brought in: each combatant that is a member
    takes the member's lasting values; and the game master's ``set`` actions of the
    lasting statuses, to take as the fight opens.

    Raises:
        FracasError: ``wrong_ruleset`` (the file's ruleset is not the party's).
    """
    out = dict(data)
    if out.get("ruleset") != party.ruleset:
        raise FracasError(
            "wrong_ruleset",
            f"party {party.name!r} plays {party.ruleset}; the file's ruleset is "
            f"{out.get('ruleset')!r}: give a {party.ruleset} encounter",
        )
    lasting = lasting_of(party.ruleset)
    combatants: list[Any] = []
    sets: list[dict[str, Any]] = []
    for entry in out.get("combatants") or ():
        member = next(
            (m for m in party.members if isinstance(entry, dict) and m.matches(entry)), None
        )
        if member is None:
            combatants.append(entry)
            continue
        entry = {**entry, **member.fields, "max_hp": member.max_hp}
        if lasting.hp:
            entry["hp"] = member.hp
        else:  # the sheet's lasting fields make the HP (soak's track)
            entry.pop("hp", None)
        combatants.append(entry)
        if member.statuses:
            statuses = {k: dict(v) for k, v in member.statuses.items()}
            sets.append({"actor": entry["id"], "do": "set", "statuses": statuses})
    out["combatants"] = combatants
    return out, sets


def start(
    tables: TableService,
    party: str,
    text: str,
    source: str,
    *,
    name: str | None = None,
    seed: int | None = None,
) -> Table:
    """A new stored encounter from a file's text with party ``party`` brought in (see
    :func:`brought_in`); it remembers its party (:data:`KEY`).

    Raises:
        FracasError: ``unknown_party``, ``wrong_ruleset``; the file's own refusals.
    """
    known = Parties(tables.store).get(party)
    return _start(tables, known, text, source, name=name, seed=seed).table


@dataclass(frozen=True, slots=True)
class Started:
    """A fight started from a file with a party brought in (:func:`start_file`): its
    table, the party, and the ids of the members the file holds (matched by id or name)."""

    table: Table
    party: Party
    members: tuple[str, ...]


def start_file(
    tables: TableService,
    party: str,
    target: str,
    *,
    name: str | None = None,
    seed: int | None = None,
) -> Started:
    """A new stored encounter from encounter file ``target`` (a path) with party
    ``party`` brought in (:func:`start`). ``fracas party start``, ``fracas serve FILE
    --party`` and ``fracas play FILE --party`` all start here, so the three agree. A
    file that holds none of the party's members is refused: the command asked for the
    party and would bring nothing of it in.

    Raises:
        FracasError: ``bad_command`` (``target`` is a stored encounter: a party comes in
            as a fight starts, never into one resumed); ``unknown_party``,
            ``wrong_ruleset``, ``no_member``; the file's own refusals
            (``unreadable_file``, ...). Nothing is stored then.
    """
    if NAME_PATTERN.match(target) and target in tables.names():
        raise FracasError(
            "bad_command",
            f"--party {party!r} with {target!r}, a stored encounter: a party comes in as a "
            f"fight starts, never into one resumed; give an encounter FILE to start the next "
            f"fight with it, or resume {target!r} without --party",
        )
    known = Parties(tables.store).get(party)  # before the file: a mistyped party said first
    return _start(tables, known, read_text(target), target, name=name, seed=seed, need=True)


def _start(
    tables: TableService,
    known: Party,
    text: str,
    source: str,
    *,
    name: str | None,
    seed: int | None,
    need: bool = False,
) -> Started:
    """:func:`start` of a party read; ``need``: refuse a file with none of its members
    (``no_member``), before anything is stored."""
    parse_text(text, source)  # a bad file says what is wrong with it, on its own lines
    data = json.loads(text) if source.endswith(".json") else yaml.safe_load(text)
    data, sets = brought_in(known, data)
    entries = [e for e in data["combatants"] if isinstance(e, dict)]
    ids = tuple(m.id for m in known.members if any(m.matches(e) for e in entries))
    if need and not ids:
        raise FracasError(
            "no_member",
            f"{source!r} holds no member of party {known.name!r}: a member comes in where "
            f"a combatant has its id or name; valid: {', '.join(m.id for m in known.members)}",
        )
    table = tables.create_from(data, source, name=name, seed=seed)
    for action in sets:
        table.act(action, GAME_MASTER)
    tables.store.put_extra(table.name, KEY, known.name.encode())
    return Started(table, known, ids)


def party_of(tables: TableService, encounter: str) -> str | None:
    """The party encounter ``encounter`` brought in or was written back to (None: none)."""
    raw = tables.store.extra(encounter, KEY)
    return None if raw is None else raw.decode()


def write_back(tables: TableService, encounter: str, party: str | None = None) -> Party:
    """What lasts, from encounter ``encounter`` as it stands now, into ``party`` (None:
    the party it brought in). A member in the fight (by id, else name) takes its values
    there; a member not in it keeps its own; a combatant of the party's side that is no
    member joins. A party not yet stored is made of the fight's players' side.

    Raises:
        FracasError: ``no_party`` (none given, none brought in); ``wrong_ruleset``;
            ``unknown_encounter``.
    """
    table = tables.open(encounter)
    party = party or party_of(tables, encounter)
    if party is None:
        raise FracasError(
            "no_party",
            f"encounter {encounter!r} brought in no party: name the party to write it back to",
        )
    check_name(party)
    parties = Parties(tables.store)
    ruleset = table.ruleset
    state = table.state
    known = parties.find(party) or Party(party, ruleset.about.name)
    if known.ruleset != ruleset.about.name:
        raise FracasError(
            "wrong_ruleset",
            f"party {party!r} plays {known.ruleset}; encounter {encounter!r} is "
            f"{ruleset.about.name}",
        )
    members = list(known.members)
    side = members[0].side if members else players_side(state)
    for c in state.combatants.values():
        at = next((i for i, m in enumerate(members) if m.matches(c)), None)
        if at is not None:
            members[at] = dataclasses.replace(member_of(ruleset, c), id=members[at].id)
        elif c.side == side and c.id not in state.hidden:
            members.append(member_of(ruleset, c))
    written = Party(party, known.ruleset, tuple(members), encounter, table.seq)
    parties.put(written)
    tables.store.put_extra(encounter, KEY, party.encode())
    return written


def next_fight(
    tables: TableService,
    encounter: str,
    text: str,
    source: str,
    *,
    party: str | None = None,
    name: str | None = None,
) -> Table:
    """The game master's "Next fight with this party": what lasts of ``encounter`` is
    written back (:func:`write_back`), then the next encounter starts from the file's
    text with the party brought in (:func:`start`)."""
    written = write_back(tables, encounter, party)
    return start(tables, written.name, text, source, name=name)


# --- rest, and the game master's hand -------------------------------------------------


def rest(party: Party, who: Iterable[str] = ()) -> Party:
    """``party`` after a rest by its ruleset's own rule (:attr:`Lasting.rest`,
    :attr:`Lasting.rest_heals`), for the members named in ``who`` (none: all). A ruleset
    whose text gives no rest rule changes nothing: the game master's hand does
    (:func:`set_member`)."""
    lasting = lasting_of(party.ruleset)
    names = set(who)
    for n in names:
        party.member(n)
    members = []
    for m in party.members:
        if names and not names & {m.id, m.name}:
            members.append(m)
            continue
        fields = {**m.fields, **{k: thaw(v) for k, v in lasting.rest if k in m.fields}}
        hp = m.max_hp if lasting.rest_heals else m.hp
        members.append(dataclasses.replace(m, fields=fields, hp=hp))
    return dataclasses.replace(party, members=tuple(members))


def set_member(party: Party, who: str, changes: Mapping[str, Any]) -> Party:
    """``party`` with member ``who``'s ``hp``, ``max_hp``, ``name`` or lasting sheet fields
    set by the game master's hand, checked and settled as a file's combatant is (a soak
    member's ``hp`` becomes its superficial damage).

    Raises:
        FracasError: ``unknown_member``; ``unknown_field`` (not a lasting value, the
            valid ones named); the file reader's refusal of the value.
    """
    m = party.member(who)
    lasting = lasting_of(party.ruleset)
    valid = ("name", "hp", "max_hp", *lasting.sheet)
    for key in changes:
        if key not in valid:
            raise FracasError(
                "unknown_field",
                f"{key!r} is not what lasts of a {party.ruleset} member; valid: {', '.join(valid)}",
            )
    entry: dict[str, Any] = {"id": m.id, "name": m.name, "side": m.side, "max_hp": m.max_hp}
    entry.update(m.fields)
    if lasting.hp:
        entry["hp"] = min(m.hp, int(changes.get("max_hp", m.max_hp)))
    entry.update(changes)
    if "hp" in changes and not lasting.hp:  # the HP makes the fields that make it
        for key in lasting.sheet:
            if key not in changes:
                entry.pop(key, None)
    new = settled(party.ruleset, entry)
    new = dataclasses.replace(new, fields={**m.fields, **new.fields})
    return dataclasses.replace(party, members=tuple(new if x is m else x for x in party.members))


def settled(ruleset: str, entry: Mapping[str, Any]) -> Member:
    """A member from a file's combatant entry, read and settled as a one-combatant file's.

    Raises:
        FracasError: the file reader's refusal (its code, and the field in its words).
    """
    text = yaml.safe_dump({"ruleset": ruleset, "combatants": [dict(entry)]}, sort_keys=False)
    try:
        ef = parse_text(text, f"{entry['id']}.yaml")
    except FileError as exc:
        raise FracasError(exc.code, f"member {entry['id']}: {exc.message}") from None
    return member_of(ef.ruleset, ef.start.combatants[entry["id"]])
