"""The game master's "Next fight with this party" (issue 36, item 5), in Debian's
Chromium: once the fight is over, the game master names the party, picks the next
encounter (a stored one's setup) and lands on its page, where the party's HP and ammo
spent are as the first fight left them and the enemies are whole; a player may not ask.
And the setup page's party choice, through its routes."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from fracas.io.store import open_store
from fracas.table import TableService
from fracas.table import party as parties
from fracas.table.party import Parties
from fracas.web.app import create_app
from fracas.web.links import Links
from fracas.web.setup import SetupKey
from tests.web.test_browser import EXAMPLE, NEEDS_CHROMIUM, Server

START = EXAMPLE.read_text().split("actions:")[0]


@NEEDS_CHROMIUM
def test_issue_36_next_fight_with_this_party_from_the_game_masters_page(
    server: Server, browser: Any
) -> None:
    table = server.table
    table.act({"actor": "ana", "do": "attack", "target": "bo"})  # DC-7: the ammo die fires 2
    for cid in ("bo", "cy"):  # the raiders fall: the fight is over
        table.act({"actor": cid, "do": "set", "hp": 0})
    page = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    page.goto(f"{server.base}/t/{server.gm}")
    page.locator("#party-box").wait_for()
    # no other encounter stored: the select says so and waits for a file
    page.wait_for_selector("#party-next:disabled option", state="attached")
    assert page.locator("#party-next").inner_text() == "no other encounter stored: choose a file"
    server.tables.create(START, "dice-combat.yaml", name="camp", seed=3)  # the next fight
    ana = table.state.get("ana")
    assert (ana.hp, ana.sheet.hand.loaded, table.outcome() is not None) == (12, 4, True)
    with TestClient(server.app) as client:  # the controls are the game master's alone
        asked = client.get("/api/party", headers={"Authorization": f"Bearer {server.ana}"})
        assert (asked.status_code, asked.json()["code"]) == (403, "forbidden")
    page.reload()
    page.locator("#party-box").wait_for()
    page.wait_for_function("document.querySelector('#party-next option') !== null")
    page.fill("#party-name", "crew")
    page.select_option("#party-next", "camp")
    page.click("#party-go")
    page.wait_for_url(lambda url: server.gm not in url)
    page.wait_for_selector("#order li")
    party = Parties(server.store).get("crew")
    assert [(m.id, m.hp) for m in party.members] == [("ana", 12), ("dee", 12)]
    name = next(i.name for i in server.tables.list() if i.name.startswith("camp-"))
    state = server.tables.open(name).state
    assert (state.get("ana").sheet.hand.loaded, state.get("bo").hp, state.round) == (4, 12, 1)
    assert page.locator("#party-box").is_hidden()  # the new fight is not over


def test_issue_36_the_setup_page_brings_a_party_in(tmp_path: Path) -> None:
    """The setup page's party choice (no browser: its two routes, behind the setup key):
    the parties listed; an encounter set up on the page starts with the party's Ana as
    the first fight left her (DC-7: 7 HP, her pistol emptied, a knife in hand)."""
    store = open_store(tmp_path / "s.sqlite3", durable=False)
    tables = TableService(store)
    one = tables.create(EXAMPLE.read_text(), "dice-combat.yaml", name="one", seed=1)
    parties.write_back(tables, one.name, "crew")
    key = SetupKey()
    token = key.mint()
    form = {
        "ruleset": "dice-combat",
        "name": "gate",
        "combatants": [
            {"id": "ana", "name": "Ana", "side": "players", "at": ["0", "0"]},
            {"id": "rat", "name": "Rat", "side": "rats", "at": ["3", "0"]},
        ],
    }
    with ThreadPoolExecutor(1) as pool:
        client = TestClient(create_app(tables, Links(store), pool, key))
        auth = {"Authorization": f"Bearer {token}"}
        listed = client.get("/api/setup/parties", headers=auth).json()
        assert listed == [{"name": "crew", "ruleset": "dice-combat", "members": ["Ana", "Dee"]}]
        body = json.dumps({"party": "crew", "form": form})
        assert client.post("/api/setup/party-start", content=body).status_code == 403
        started = client.post("/api/setup/party-start", content=body, headers=auth).json()
        assert started["name"] == "gate" and started["gm"].startswith("/t/")
        wrong = json.dumps({"party": "nobody", "form": form})
        refused = client.post("/api/setup/party-start", content=wrong, headers=auth).json()
        assert refused["code"] == "unknown_party"
    ana = tables.open("gate").state.get("ana")
    assert (ana.hp, ana.sheet.hand.name, ana.sheet.inventory[0].loaded) == (7, "knife", 0)
    store.close()
