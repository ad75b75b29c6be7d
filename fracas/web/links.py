"""The links of ``fracas serve``: who a page is, from the token in its address.

A link is a random token (32 bytes, 256 bits, URL-safe). Each encounter has one game
master's link and any number of player links, each with a name (the log's) and the
combatants it plays. They are kept with the encounter in its store (an extra of the
store protocol, :meth:`fracas.io.store.EncounterStore.put_extra`, SQLite and PostgreSQL
alike), but no token is: the store keeps each token's keyed hash (its *lookup*,
HMAC-SHA256 under the server's :class:`Secret`) and the token sealed (encrypted)
under that secret, which is kept apart from the store (a file beside a SQLite store,
``--secret-file`` for PostgreSQL). So a copy of the store alone opens no table; the
game master's page still lists every link with its address, and ``fracas serve`` run
again goes on with the same links, so a player's page reconnects by itself. A
``--new-links`` start mints new tokens and the old ones stop working. A revoked link
stays listed, refused, its token forgotten.

A token is found by its lookup in one indexed read of the store
(:meth:`fracas.io.store.EncounterStore.find`): that row's encounter and its links, read
again at each look (a revoke by another server process on the same store is a revoke
here at once); an unknown token is answered from that read alone.

Who may manage links is decided by :meth:`fracas.table.Identity.check_gm`.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import json
import os
import re
import secrets
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fracas.errors import FracasError
from fracas.io.store import MEMORY, EncounterStore, data_dir, private_dir
from fracas.table import Identity, Table, player_ids

__all__ = [
    "GM_ID",
    "KEY",
    "SECRET_ENV",
    "Link",
    "LinkError",
    "Links",
    "Secret",
    "add_player_links",
    "secret_for",
]

NAME = re.compile(r"^[^\x00-\x1f\x7f-\x9f]{1,40}$")
"""A player's name: 1 to 40 characters, no control character."""

GM_ID = "gm"
KEY = "links"
"""The store extra the links are kept under."""
FORMAT = 3
"""The links' stored format: 3 keeps lookups and sealed tokens (2 kept clear tokens)."""
SECRET_BYTES = 32
SECRET_ENV = "FRACAS_SECRET_FILE"
"""Where a PostgreSQL store's secret file is, when ``--secret-file`` is not given."""
TOKEN_MAX = 100
"""Longer than any token minted (43 characters): refused without a look."""
_NONCE = 16
_TAG = 16


class LinkError(FracasError):
    """A link that does not open the table (``bad_token``), a bad link edit, or a
    secret that cannot be used (``bad_secret``, ``wrong_secret``)."""


class Secret:
    """The server secret: it keys the tokens' lookups and seals the tokens.

    Sealing is HMAC-SHA256 in counter mode (stdlib only): a fresh random nonce, the
    keystream ``HMAC(secret, "seal" + nonce + counter)`` XORed with the token, and a
    tag ``HMAC(secret, "tag" + nonce + ciphertext)`` that refuses another secret's seal.
    """

    def __init__(self, key: bytes, where: str) -> None:
        self._key = key
        self.where = where
        """The secret, for messages: its file, or this process's memory."""
        self.fingerprint = self._mac(b"fingerprint")[:8].hex()
        """Kept with the links: tells a start whose secret is another."""

    @classmethod
    def random(cls) -> Secret:
        """A secret of this process alone (a store in memory, or none)."""
        return cls(secrets.token_bytes(SECRET_BYTES), "this process's secret (in memory)")

    @classmethod
    def file(cls, path: Path) -> Secret:
        """The secret in file ``path``, made (0600, 32 random bytes) when there is none.

        Raises:
            LinkError: ``bad_secret``: it cannot be read or made, or is too short.
        """
        where = f"the secret file {str(path)!r}"
        try:
            if not path.exists():
                _make_secret(path)
            key = path.read_bytes()
        except OSError as exc:
            raise LinkError(
                "bad_secret",
                f"cannot use {where}: {exc.strerror or exc}; give a readable one "
                "(--secret-file) or a directory fracas may write to",
            ) from None
        if len(key) < SECRET_BYTES:
            raise LinkError(
                "bad_secret",
                f"{where} holds {len(key)} bytes; it needs at least {SECRET_BYTES} random "
                "bytes (remove it and fracas makes one; then start with --new-links)",
            )
        return cls(key, where)

    def _mac(self, data: bytes) -> bytes:
        return hmac.new(self._key, data, hashlib.sha256).digest()

    def lookup(self, token: str) -> str:
        """``token``'s keyed hash: what the store finds its link by."""
        return self._mac(b"lookup" + token.encode("utf-8", "surrogatepass")).hex()

    def _stream(self, nonce: bytes, size: int) -> bytes:
        blocks = (size + 31) // 32
        return b"".join(self._mac(b"seal" + nonce + i.to_bytes(4, "big")) for i in range(blocks))[
            :size
        ]

    def seal(self, token: str) -> str:
        """``token`` encrypted under the secret (base64 text)."""
        nonce = secrets.token_bytes(_NONCE)
        clear = token.encode()
        sealed = bytes(a ^ b for a, b in zip(clear, self._stream(nonce, len(clear)), strict=True))
        tag = self._mac(b"tag" + nonce + sealed)[:_TAG]
        return base64.b64encode(nonce + sealed + tag).decode()

    def unseal(self, text: str) -> str | None:
        """The token :meth:`seal` sealed (None: not sealed under this secret)."""
        try:
            raw = base64.b64decode(text, validate=True)
        except ValueError:
            return None
        nonce, sealed, tag = raw[:_NONCE], raw[_NONCE:-_TAG], raw[-_TAG:]
        if len(raw) < _NONCE + _TAG or not hmac.compare_digest(
            tag, self._mac(b"tag" + nonce + sealed)[:_TAG]
        ):
            return None
        clear = bytes(a ^ b for a, b in zip(sealed, self._stream(nonce, len(sealed)), strict=True))
        try:
            return clear.decode()
        except UnicodeDecodeError:
            return None


def _make_secret(path: Path) -> None:
    """Write a new secret to ``path``, whole or not at all: written to a file of its own
    (0600), then linked to ``path``; another process that made one first wins."""
    private_dir(path.parent)
    spare = path.with_name(f".{path.name}.{secrets.token_hex(8)}")
    fd = os.open(spare, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(secrets.token_bytes(SECRET_BYTES))
            out.flush()
            os.fsync(out.fileno())
        with contextlib.suppress(FileExistsError):
            os.link(spare, path)
    finally:
        spare.unlink(missing_ok=True)


def secret_for(store: EncounterStore | None, secret_file: str | Path | None = None) -> Secret:
    """The secret of ``store``'s links: ``secret_file`` when given; else beside a SQLite
    store (``PATH.secret``); for PostgreSQL, the file ``$FRACAS_SECRET_FILE``, else
    ``secret`` in fracas's data directory (every process sharing the database must
    share it); a store in memory (or none): a secret of this process alone."""
    from fracas.io.store.sqlite import SQLiteStore

    if secret_file is not None:
        return Secret.file(Path(secret_file).expanduser())
    if store is None or store.location == MEMORY:
        return Secret.random()
    if isinstance(store, SQLiteStore):
        return Secret.file(Path(f"{store.path}.secret"))
    named = os.environ.get(SECRET_ENV)
    return Secret.file(Path(named).expanduser() if named else data_dir() / "secret")


@dataclass
class Link:
    """One link of an encounter."""

    id: str
    name: str
    token: str
    """In memory only (the store keeps it sealed); "" once revoked."""
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


def _refused() -> LinkError:
    return LinkError("bad_token", "this link does not open a table (unknown or revoked)")


class Links:
    """Every encounter's links, kept in ``store`` (None: in memory only), their tokens
    sealed under ``secret`` (default: :func:`secret_for` the store, read or made at
    its first use)."""

    def __init__(self, store: EncounterStore | None = None, secret: Secret | None = None) -> None:
        self.store = store
        self._secret = secret
        self._lock = threading.Lock()
        """Held by an edit, from its read to its write (never by a read)."""
        self._secret_lock = threading.Lock()
        self._memory: dict[str, dict[str, Link]] = {}
        self._found: dict[str, tuple[str, str]] = {}
        """Without a store: a lookup -> its encounter and link id."""

    @property
    def secret(self) -> Secret:
        if self._secret is None:
            with self._secret_lock:
                if self._secret is None:
                    self._secret = secret_for(self.store)
        return self._secret

    # --- the store ----------------------------------------------------------------------

    def _decode(
        self, body: bytes, encounter: str, *, any_secret: bool = False
    ) -> tuple[dict[str, Link], bool]:
        """The links in ``body``, and whether it keeps clear tokens (an older fracas's).

        Raises:
            LinkError: ``bad_links``; ``wrong_secret``: sealed under another secret (but
            with ``any_secret``: their tokens unknown, "").
        """
        try:
            data = json.loads(body)
            entries = data["links"].items()
            if data.get("version", 2) < FORMAT:
                clear = {k: Link(**v) for k, v in entries}
                return clear, True
            secret = self.secret
            if data.get("secret") != secret.fingerprint and not any_secret:
                raise LinkError(
                    "wrong_secret",
                    f"the links of {encounter!r} were sealed under another secret than "
                    f"{secret.where} (moved, replaced or lost?): put that secret back, or "
                    "start with --new-links for new links (the old ones stop working)",
                )
            links = {}
            for k, v in entries:
                sealed = v.get("sealed")
                token = (secret.unseal(sealed) if isinstance(sealed, str) else None) or ""
                links[k] = Link(v["id"], v["name"], token, list(v["owns"]), bool(v["revoked"]))
            return links, False
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise LinkError("bad_links", f"cannot read the links of {encounter!r}: {exc}") from None

    def _read(self, encounter: str, *, any_secret: bool = False) -> tuple[dict[str, Link], bool]:
        if self.store is None:
            return self._memory.setdefault(encounter, {}), False
        body = self.store.extra(encounter, KEY)
        return ({}, False) if body is None else self._decode(body, encounter, any_secret=any_secret)

    def _load(self, encounter: str, *, any_secret: bool = False) -> dict[str, Link]:
        return self._read(encounter, any_secret=any_secret)[0]

    def _save(self, encounter: str, links: dict[str, Link]) -> None:
        """Keep ``links``: each token sealed, its lookup the only way to it (a revoked
        link's token forgotten); the lookups and the links in one transaction."""
        secret = self.secret
        for link in links.values():
            if link.revoked:
                link.token = ""
        found = {secret.lookup(v.token): k for k, v in links.items() if v.token}
        if self.store is None:
            self._memory[encounter] = links
            kept = {k: v for k, v in self._found.items() if v[0] != encounter}
            self._found = kept | {k: (encounter, v) for k, v in found.items()}
            return
        entries = {}
        for k, link in links.items():
            entry: dict[str, Any] = {
                "id": link.id,
                "name": link.name,
                "owns": link.owns,
                "revoked": link.revoked,
            }
            if link.token:
                entry["sealed"] = secret.seal(link.token)
            entries[k] = entry
        data = {"version": FORMAT, "secret": secret.fingerprint, "links": entries}
        self.store.put_extra(encounter, KEY, json.dumps(data).encode(), found)

    def migrate(self) -> int:
        """Seal the clear tokens an older fracas kept (each encounter's links, their
        lookups and the secret's fingerprint in one write), then scrub the store of the
        clear bytes (:meth:`fracas.io.store.EncounterStore.scrub`). Returns how many
        encounters' links were migrated (0: none was left to)."""
        if self.store is None:
            return 0
        done = 0
        for encounter, body in self.store.extras(KEY).items():
            if b'"token"' not in body:
                continue
            with self._lock:
                links, clear = self._read(encounter)  # again: another process may have
                if clear:
                    self._save(encounter, links)
                    done += 1
        if done:
            self.store.scrub()
        return done

    # --- minting ----------------------------------------------------------------------

    def gm(self, encounter: str, *, renew: bool = True) -> str:
        """The game master's token for ``encounter``: a new one (the previous one stops
        working), or with ``renew=False`` the one kept, if any.

        Raises:
            LinkError: ``wrong_secret`` (but with ``renew``: a new token under this one).
        """
        with self._lock:
            links = self._load(encounter, any_secret=renew)
            kept = links.get(GM_ID)
            if kept is not None and kept.token and not renew:
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
        working; links sealed under another secret too): link id -> token."""
        out: dict[str, str] = {}
        with self._lock:
            links = self._load(encounter, any_secret=True)
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
        """Refuse ``link_id``'s token from now on (its lookup gone with the write)."""
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

    def gm_encounter(self, token: str, what: str) -> str:
        """The encounter ``token`` opens, where it is the game master's (``what``: what
        the game master's page asks, for the refusal's words).

        Raises:
            LinkError: ``bad_token``; Forbidden: ``forbidden`` (a player's link).
        """
        encounter, link = self.identify(token)
        link.identity.check_gm(what)
        return encounter

    def identify(self, token: str) -> tuple[str, Link]:
        """The encounter and link ``token`` opens: its lookup found in one indexed read
        of the store, with that encounter's links (a revoke or a new token there holds
        here at once). No lock: an unknown token costs one read, whatever the number of
        encounters.

        Raises:
            LinkError: ``bad_token``: unknown or revoked.
        """
        if not token or len(token) > TOKEN_MAX:
            raise _refused()
        lookup = self.secret.lookup(token)
        if self.store is None:
            hit = self._found.get(lookup)
            if hit is None:
                raise _refused()
            encounter, link_id = hit
            links = self._memory.get(encounter, {})
        else:
            row = self.store.find(lookup, KEY)
            if row is None:
                raise _refused()
            encounter, link_id, found = row
            links = {} if found is None else self._decode(found, encounter)[0]
        link = links.get(link_id)
        given = token.encode("utf-8", "surrogatepass")
        if link is None or link.revoked or not hmac.compare_digest(link.token.encode(), given):
            raise _refused()
        return encounter, link

    def of(self, encounter: str) -> list[Link]:
        """The player links of ``encounter``, revoked ones too."""
        return [v for k, v in self._load(encounter).items() if k != GM_ID]

    def link(self, encounter: str, link_id: str) -> Link | None:
        return self._load(encounter).get(link_id)


def add_player_links(links: Links, table: Table) -> None:
    """One player link per player-side combatant, named after it."""
    state = table.state
    taken = {link.name for link in links.of(table.name)}
    for cid in player_ids(state):
        name = state.combatants[cid].name.strip()[:40].strip() or cid  # a name of spaces
        name = name if name not in taken and name.lower() != "gm" else f"{name[:30]} ({cid})"[:40]
        taken.add(name)
        links.add(table.name, name, [cid])
