"""The party's routes of the game master's page (issue 36, item 5), as the page's
"Write back to the party" and "Next fight with this party" call them, in each of the
five rulesets: fight 1 written back, fight 2 started from a file with the party brought
in, what the ruleset declares lasting as fight 1 left it (the same fights as
tests/table/test_party.py, through the page's door), the enemies afresh; a player's
token refused. The browser's click is tests/web/test_party_browser.py's."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from fracas.io.store import open_store
from fracas.rulesets import RULESETS
from fracas.table import TableService
from fracas.web.app import create_app
from fracas.web.links import Links
from tests.table.test_party import LASTS, _files, _seen


@pytest.mark.parametrize("ruleset", [r.about.name for r in RULESETS])
def test_issue_36_next_fight_with_this_party_through_the_pages_routes(
    tmp_path: Path, ruleset: str
) -> None:
    first, second = _files(ruleset)
    store = open_store(tmp_path / "s.sqlite3", durable=False)
    tables = TableService(store)
    one = tables.create(first, f"{ruleset}.yaml", name="one", seed=1)
    links = Links(store)
    gm = {"Authorization": f"Bearer {links.gm('one')}"}
    who, hp, lasting = LASTS[ruleset]
    _, player = links.add("one", "Pat", [who])
    with ThreadPoolExecutor(1) as pool:
        client = TestClient(create_app(tables, links, pool))
        body = json.dumps({"party": "crew", "text": second, "source": f"{ruleset}.yaml"})
        refused = client.post(
            "/api/party/next", content=body, headers={"Authorization": f"Bearer {player}"}
        )
        assert (refused.status_code, refused.json()["code"]) == (403, "forbidden")
        written = client.post("/api/party/write-back", content='{"party": "crew"}', headers=gm)
        assert written.status_code == 200
        member = next(m for m in written.json()["party"]["members"] if m["id"] == who)
        assert member["hp"] == hp
        started = client.post("/api/party/next", content=body, headers=gm)
        assert started.status_code == 200, started.text
        answer = started.json()
        assert answer["gm"].startswith("/t/")
        page = client.get(answer["gm"])
        assert page.status_code == 200  # the new fight's game master's page
    two = tables.open(answer["name"]).state
    fresh = tables.create(second, f"{ruleset}.yaml", name="fresh", seed=1).state
    now = two.combatants[who]
    assert (now.hp, _seen(ruleset, now), two.round) == (hp, lasting, 1)
    side = one.state.get(who).side
    for cid, c in two.combatants.items():
        if c.side != side:  # the enemies whole, as the file has them
            assert c == fresh.combatants[cid]
    store.close()
