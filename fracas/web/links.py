"""The links of ``fracas serve``: who a page is, from the token in its address.

A link is a random token (32 bytes, 256 bits, URL-safe). Each encounter has one game
master's link and any number of player links, each with a name (the log's) and the
combatants it plays. They are kept with the encounter in its store (an extra of the
store protocol, :meth:`fracas.store.EncounterStore.put_extra`, SQLite and PostgreSQL
alike), tokens included: the game master's page lists every link with its address, and
``fracas serve`` run again goes on with the same links, so a player's page reconnects
by itself. (The store holds the whole fight already and is the game master's; a
``--new-links`` start mints new tokens and the old ones stop working.) A revoked link
stays listed, refused. Every read looks at the store again: a revoke by another server
process on the same store is a revoke here.

Who may manage links is decided by :meth:`fracas.table.Identity.check_gm`.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import threading
from dataclasses import asdict, dataclass, field
from typing import Any

from fracas.errors import FracasError
from fracas.store import EncounterStore
from fracas.table import Identity, Table

__all__ = ["GM_ID", "KEY", "Link", "LinkError", "Links", "add_player_links", "player_side"]

NAME = re.compile(r"^[^\x00-\x1f\x7f]{1,40}$")
"""A player's name: 1 to 40 characters, no control character."""

GM_ID = "gm"
KEY = "links"
"""The store extra the links are kept under."""


class LinkError(FracasError):
    """A link that does not open the table (``bad_token``), or a bad link edit."""


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Link:
    """One link of an encounter."""

    id: str
    name: str
    token: str
    owns: list[str] = field(default_factory=list)
    revoked: bool = False

    @property
    def identity(self) -> Identity:
        if self.id == GM_ID:
            return Identity.gm()
        return Identity.player(self.name, *self.owns)

    def public(self) -> dict[str, Any]:
        """What a page is told of it (the game master's list adds the address)."""
        return {"id": self.id, "name": self.name, "owns": list(self.owns), "revoked": self.revoked}


class Links:
    """Every encounter's links, kept in ``store`` (None: in memory only)."""

    def __init__(self, store: EncounterStore | None = None) -> None:
        self.store = store
        self._lock = threading.Lock()
        self._memory: dict[str, dict[str, Link]] = {}
        self._index: dict[str, str] = {}
        """A token's hash -> its encounter, as last read (only a hint: checked again)."""

    # --- the store ----------------------------------------------------------------------

    @staticmethod
    def _decode(body: bytes, encounter: str) -> dict[str, Link]:
        try:
            data = json.loads(body)
            return {k: Link(**v) for k, v in data["links"].items()}
        except (ValueError, KeyError, TypeError) as exc:
            raise LinkError("bad_links", f"cannot read the links of {encounter!r}: {exc}") from None

    def _load(self, encounter: str) -> dict[str, Link]:
        if self.store is None:
            return self._memory.setdefault(encounter, {})
        body = self.store.extra(encounter, KEY)
        return {} if body is None else self._decode(body, encounter)

    def _save(self, encounter: str, links: dict[str, Link]) -> None:
        if self.store is None:
            self._memory[encounter] = links
            return
        data = {"version": 2, "links": {k: asdict(v) for k, v in links.items()}}
        self.store.put_extra(encounter, KEY, json.dumps(data).encode())

    def _all(self) -> dict[str, dict[str, Link]]:
        if self.store is None:
            return self._memory
        return {enc: self._decode(b, enc) for enc, b in self.store.extras(KEY).items()}

    # --- minting ----------------------------------------------------------------------

    def gm(self, encounter: str, *, renew: bool = True) -> str:
        """The game master's token for ``encounter``: a new one (the previous one stops
        working), or with ``renew=False`` the one kept, if any."""
        with self._lock:
            links = self._load(encounter)
            kept = links.get(GM_ID)
            if kept is not None and not renew:
                return kept.token
            token = secrets.token_urlsafe(32)
            links[GM_ID] = Link(GM_ID, "gm", token)
            self._save(encounter, links)
        return token

    def add(self, encounter: str, name: str, owns: list[str]) -> tuple[Link, str]:
        """A new player link called ``name`` playing ``owns``; returns it and its token.

        Raises:
            LinkError: ``bad_name`` (not a name, or taken at this encounter).
        """
        name = name.strip()
        if not NAME.match(name) or name.lower() == "gm":
            raise LinkError(
                "bad_name",
                f"player name {name!r}: 1 to 40 characters, no control character, not 'gm'",
            )
        token = secrets.token_urlsafe(32)
        with self._lock:
            links = self._load(encounter)
            if any(link.name == name and not link.revoked for link in links.values()):
                raise LinkError("bad_name", f"a player called {name!r} has a link already")
            number = 1 + sum(1 for k in links if k != GM_ID)
            while f"p{number}" in links:
                number += 1
            link = Link(f"p{number}", name, token, sorted(set(owns)))
            links[link.id] = link
            self._save(encounter, links)
        return link, token

    def renew(self, encounter: str) -> dict[str, str]:
        """New tokens for every player link of ``encounter`` not revoked (the old ones stop
        working): link id -> token."""
        out: dict[str, str] = {}
        with self._lock:
            links = self._load(encounter)
            for link in links.values():
                if link.id != GM_ID and not link.revoked:
                    link.token = out[link.id] = secrets.token_urlsafe(32)
            self._save(encounter, links)
        return out

    # --- edits --------------------------------------------------------------------------

    @staticmethod
    def _get(links: dict[str, Link], link_id: str) -> Link:
        link = links.get(link_id)
        if link is None or link_id == GM_ID:
            valid = ", ".join(k for k in links if k != GM_ID) or "none"
            raise LinkError("unknown_link", f"no player link {link_id!r}; links: {valid}")
        return link

    def revoke(self, encounter: str, link_id: str) -> Link:
        """Refuse ``link_id``'s token from now on."""
        with self._lock:
            links = self._load(encounter)
            link = self._get(links, link_id)
            link.revoked = True
            self._save(encounter, links)
            return link

    def assign(self, encounter: str, link_id: str, owns: list[str]) -> Link:
        """Make ``link_id`` play exactly ``owns``."""
        with self._lock:
            links = self._load(encounter)
            link = self._get(links, link_id)
            link.owns = sorted(set(owns))
            self._save(encounter, links)
            return link

    # --- reading ------------------------------------------------------------------------

    def identify(self, token: str) -> tuple[str, Link]:
        """The encounter and link ``token`` opens (read again from the store: a revoke
        or a new token there holds here at once; a token seen before reads its own
        encounter's links alone, any other every encounter's).

        Raises:
            LinkError: ``bad_token``: unknown or revoked.
        """
        digest = _hash(token)
        with self._lock:
            known = self._index.get(digest)
            if known is not None:
                for link in self._load(known).values():
                    if secrets.compare_digest(_hash(link.token), digest):
                        if link.revoked:
                            break
                        return known, link
            every = self._all()
            self._index = {
                _hash(link.token): enc for enc, links in every.items() for link in links.values()
            }
        for encounter, links in every.items():
            for link in links.values():
                if secrets.compare_digest(_hash(link.token), digest):
                    if link.revoked:
                        break
                    return encounter, link
        raise LinkError("bad_token", "this link does not open a table (unknown or revoked)")

    def of(self, encounter: str) -> list[Link]:
        """The player links of ``encounter``, revoked ones too."""
        with self._lock:
            return [v for k, v in self._load(encounter).items() if k != GM_ID]

    def link(self, encounter: str, link_id: str) -> Link | None:
        with self._lock:
            return self._load(encounter).get(link_id)


def player_side(table: Table) -> list[str]:
    """The ids of the players' side: the side of the file's first combatant (as files
    are written) but hidden combatants."""
    state = table.state
    first = next(iter(state.combatants.values()))
    return [
        c.id for c in state.combatants.values() if c.side == first.side and c.id not in state.hidden
    ]


def add_player_links(links: Links, table: Table) -> None:
    """One player link per player-side combatant, named after it."""
    state = table.state
    taken = {link.name for link in links.of(table.name)}
    for cid in player_side(table):
        name = state.combatants[cid].name[:40]
        name = name if name not in taken and name.lower() != "gm" else f"{name[:30]} ({cid})"[:40]
        taken.add(name)
        links.add(table.name, name, [cid])
