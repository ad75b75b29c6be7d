"""The links of ``fracas serve``: who a page is, from the token in its address.

A link is a random token (32 bytes, 256 bits, URL-safe); only its SHA-256 is kept,
in a small JSON file beside the encounter store (``encounters.sqlite3.links.json``),
so the file names no usable link. Each encounter has one game master's link and any
number of player links, each with a name (the log's) and the combatants it plays.
A revoked link stays in the file, refused. The game master's token is minted again
at each start of the server (a link printed by an earlier run stops working), and so
are the player links' (``fracas serve`` prints them all): a token is never stored in
the clear, so none can be printed twice.

Who may manage links is decided by :meth:`fracas.table.Identity.check_gm`.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fracas.errors import FracasError
from fracas.table import Identity

__all__ = ["Link", "LinkError", "Links", "links_path"]

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.'-]{0,39}$")
"""A player's name: 1 to 40 letters, digits, spaces and ``_.'-``."""

GM_ID = "gm"


class LinkError(FracasError):
    """A link that does not open the table (``bad_token``), or a bad link edit."""


def links_path(db: str | Path) -> Path:
    """The links file beside the store at ``db`` (a PostgreSQL store's: in the user's data
    directory, named after its database URL without the password)."""
    text = str(db)
    if "://" in text:
        from fracas.store import default_db_path
        from fracas.store.postgres import redact

        digest = hashlib.sha256(redact(text).encode()).hexdigest()[:16]
        return default_db_path().parent / f"postgres-{digest}.links.json"
    p = Path(db).expanduser()
    return p.with_name(p.name + ".links.json")


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Link:
    """One link of an encounter (its token's hash, never the token)."""

    id: str
    name: str
    hash: str
    owns: list[str] = field(default_factory=list)
    revoked: bool = False

    @property
    def identity(self) -> Identity:
        if self.id == GM_ID:
            return Identity.gm()
        return Identity.player(self.name, *self.owns)

    def public(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "owns": list(self.owns), "revoked": self.revoked}


class Links:
    """Every encounter's links, kept in ``path`` (None: in memory only)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._links: dict[str, dict[str, Link]] = {}
        self._seen: tuple[int, int, int] | None = None
        self._by_hash: dict[str, tuple[str, Link]] = {}
        self._read()

    def _stat(self) -> tuple[int, int, int] | None:
        try:
            st = self.path.stat() if self.path is not None else None
        except OSError:
            return None
        return (st.st_mtime_ns, st.st_size, st.st_ino) if st is not None else None

    def _read(self) -> None:
        """Read the file, and again whenever another process (a second ``fracas serve``
        on the same store) changed it: a revoke there is a revoke here."""
        path = self.path
        seen = self._stat()
        if path is not None and seen is not None and seen != self._seen:
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                self._links = {
                    enc: {k: Link(**v) for k, v in links.items()}
                    for enc, links in data["encounters"].items()
                }
            except (OSError, ValueError, KeyError, TypeError) as exc:
                raise LinkError(
                    "bad_links", f"cannot read the links file {str(path)!r}: {exc}"
                ) from None
            self._seen = seen
            self._by_hash = {
                link.hash: (enc, link)
                for enc, links in self._links.items()
                for link in links.values()
            }

    def _save(self) -> None:
        self._by_hash = {
            link.hash: (enc, link) for enc, links in self._links.items() for link in links.values()
        }
        if self.path is None:
            return
        data = {
            "version": 1,
            "encounters": {
                enc: {k: vars(v) for k, v in links.items()} for enc, links in self._links.items()
            },
        }
        tmp = self.path.with_name(f".{self.path.name}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
            tmp.chmod(0o600)
            tmp.replace(self.path)
            self._seen = self._stat()
        except OSError as exc:
            raise LinkError(
                "save_failed", f"cannot write {str(self.path)!r}: {exc.strerror}"
            ) from None

    # --- minting ----------------------------------------------------------------------

    def gm(self, encounter: str) -> str:
        """A new game master's token for ``encounter`` (the previous one stops working)."""
        token = secrets.token_urlsafe(32)
        with self._lock:
            self._read()
            self._links.setdefault(encounter, {})[GM_ID] = Link(GM_ID, "gm", _hash(token))
            self._save()
        return token

    def add(self, encounter: str, name: str, owns: list[str]) -> tuple[Link, str]:
        """A new player link called ``name`` playing ``owns``; returns it and its token.

        Raises:
            LinkError: ``bad_name`` (not a name, or taken at this encounter).
        """
        if not NAME.match(name) or name == "gm":
            raise LinkError(
                "bad_name",
                f"player name {name!r}: 1 to 40 letters, digits, spaces or _.'- and not 'gm'",
            )
        token = secrets.token_urlsafe(32)
        with self._lock:
            self._read()
            links = self._links.setdefault(encounter, {})
            if any(link.name == name and not link.revoked for link in links.values()):
                raise LinkError("bad_name", f"a player called {name!r} has a link already")
            number = 1 + sum(1 for k in links if k != GM_ID)
            while f"p{number}" in links:
                number += 1
            link = Link(f"p{number}", name, _hash(token), sorted(set(owns)))
            links[link.id] = link
            self._save()
        return link, token

    def renew(self, encounter: str) -> dict[str, str]:
        """New tokens for every player link of ``encounter`` not revoked (the old ones stop
        working): link id -> token."""
        out: dict[str, str] = {}
        with self._lock:
            self._read()
            for link in self._links.get(encounter, {}).values():
                if link.id != GM_ID and not link.revoked:
                    token = secrets.token_urlsafe(32)
                    link.hash = _hash(token)
                    out[link.id] = token
            self._save()
        return out

    # --- edits --------------------------------------------------------------------------

    def _get(self, encounter: str, link_id: str) -> Link:
        links = self._links.get(encounter, {})
        link = links.get(link_id)
        if link is None or link_id == GM_ID:
            valid = ", ".join(k for k in links if k != GM_ID) or "none"
            raise LinkError("unknown_link", f"no player link {link_id!r}; links: {valid}")
        return link

    def revoke(self, encounter: str, link_id: str) -> Link:
        """Refuse ``link_id``'s token from now on."""
        with self._lock:
            self._read()
            link = self._get(encounter, link_id)
            link.revoked = True
            self._save()
            return link

    def assign(self, encounter: str, link_id: str, owns: list[str]) -> Link:
        """Make ``link_id`` play exactly ``owns``."""
        with self._lock:
            self._read()
            link = self._get(encounter, link_id)
            link.owns = sorted(set(owns))
            self._save()
            return link

    # --- reading ------------------------------------------------------------------------

    def identify(self, token: str) -> tuple[str, Link]:
        """The encounter and link ``token`` opens.

        Raises:
            LinkError: ``bad_token``: unknown or revoked.
        """
        with self._lock:
            self._read()
            found = self._by_hash.get(_hash(token))
        if found is None or found[1].revoked:
            raise LinkError("bad_token", "this link does not open a table (unknown or revoked)")
        return found

    def of(self, encounter: str) -> list[Link]:
        """The player links of ``encounter``, revoked ones too."""
        with self._lock:
            self._read()
            return [v for k, v in self._links.get(encounter, {}).items() if k != GM_ID]

    def link(self, encounter: str, link_id: str) -> Link | None:
        with self._lock:
            self._read()
            return self._links.get(encounter, {}).get(link_id)
