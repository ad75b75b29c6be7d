"""A served table for the web tests: a store in a temporary directory, links kept in
memory, odds in a thread pool."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.applications import Starlette

from fracas.io.store import open_store
from fracas.table import Table, TableService
from fracas.web.app import create_app
from fracas.web.links import Links

FIGHT = """\
ruleset: dice-combat
seed: 5
order: [ana, bo, cy]
combatants:
  - {id: ana, name: Ana, side: players, at: [0, 0], hand: {is: pistol, loaded: 6}}
  - {id: bo, name: Bo, side: raiders, at: [1, 0], hand: knife}
  - {id: cy, name: Cy, side: players, at: [4, 0], hand: club}
"""


@dataclass
class Served:
    app: Starlette
    table: Table
    links: Links
    gm: str
    """The game master's token."""
    ana: str
    """Pat's token: plays Ana."""
    bo: str
    """Sam's token: plays Bo (the raiders' side)."""


@contextmanager
def served(tmp: Path, text: str = FIGHT, policy: dict[str, Any] | None = None) -> Iterator[Served]:
    """A served table; ``policy``: fields of the encounter's policy over its file's."""
    store = open_store(tmp / "s.sqlite3", durable=False)
    service = TableService(store, policy)
    table = service.create(text, "fight.yaml", name="fight", seed=11)
    links = Links(store)
    gm = links.gm("fight")
    _, ana = links.add("fight", "Pat", ["ana"])
    _, bo = links.add("fight", "Sam", ["bo"])
    with ThreadPoolExecutor(1) as pool:
        yield Served(create_app(service, links, pool), table, links, gm, ana, bo)
    store.close()
