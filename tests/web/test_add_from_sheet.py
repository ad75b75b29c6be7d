"""A new combatant added mid-fight from the ruleset's sheet form, and the list of
combatants kept with the encounter (issue 35, game-master staples), in Debian's Chromium
and on raw sockets: the setup page's form (sheetform.js) on the game master's page, its
values turned into a file's combatant by the setup page's own conversion and added by
the table's ``add`` action; a refusal at its field; a player may neither add nor see
the kept list, which outlives a restart of the server."""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from fracas.io.store import open_store
from fracas.table import TableService
from fracas.web.app import create_app
from fracas.web.links import Links
from tests.web.support import served
from tests.web.test_browser import NEEDS_CHROMIUM, Server


def _page(browser: Any, base: str, token: str, width: int = 1280) -> Any:
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.goto(f"{base}/t/{token}")
    page.wait_for_selector("#order li")
    return page


def _open_sheet(gm: Any) -> Any:
    """The game master's sheet form, opened; its fieldset."""
    gm.get_by_text("New combatant from the sheet, and the kept list").click()
    form = gm.locator("#sheet-form fieldset.combatant")
    form.get_by_label("id", exact=True).wait_for()
    return form


def _seq(page: Any, n: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.seq) >= {n}", timeout=10000)


def _card(page: Any, name: str) -> Any:
    return page.locator("#order li", has=page.locator("strong", has_text=name))


@NEEDS_CHROMIUM
def test_the_game_master_adds_a_new_combatant_from_the_sheet_form(
    server: Server, browser: Any
) -> None:
    """Name, side, tile, HP and a weapon typed into the ruleset's sheet form (dice-combat):
    the game master's and Pat's pages show Zed in the order with HP 9/12; the table holds
    the sheet as typed (a pistol loaded with 3)."""
    gm = _page(browser, server.base, server.gm)
    pat = _page(browser, server.base, server.ana)
    seq = server.table.seq
    form = _open_sheet(gm)
    # the setup page's controls, from the same schema: core fields, the items, the rest
    assert form.get_by_label("hand: short-hand").count() == 1
    assert gm.locator("#sheet-form details summary").first.inner_text().startswith("Sheet fields")
    form.get_by_label("name", exact=True).fill("Zed")
    assert form.get_by_label("id", exact=True).input_value() == "zed"  # made from the name
    form.get_by_label("side", exact=True).fill("players")
    form.get_by_label("at x", exact=True).fill("5")
    form.get_by_label("y", exact=True).fill("4")
    form.get_by_label("hp", exact=True).fill("9")
    form.get_by_label("hand: short-hand").select_option("pistol")
    form.get_by_label("hand: more fields").fill("loaded: 3")
    gm.get_by_role("button", name="Add this combatant").click()
    _seq(gm, seq + 1)
    _seq(pat, seq + 1)
    zed = server.table.state.combatants["zed"]
    assert (zed.name, zed.side, zed.at, zed.hp, zed.max_hp) == ("Zed", "players", (5, 4), 9, 12)
    assert (zed.sheet.hand.name, zed.sheet.hand.loaded) == ("pistol", 3)
    assert server.table.state.order[-1] == "zed"
    for page in (gm, pat):
        card = _card(page, "Zed")
        card.wait_for()
        assert "HP 9/12" in card.inner_text()
        assert page.locator("#order li strong").all_inner_texts()[-1] == "Zed"
    assert gm.locator("#sheet-said").inner_text() == "Zed added to the fight."


@NEEDS_CHROMIUM
def test_a_refusal_is_shown_at_its_field(server: Server, browser: Any) -> None:
    """An id a combatant has (the table's duplicate_id) is shown next to the id field,
    which is marked invalid and focused; a tile Ana stands on (tile_taken), next to the
    tile; text no file could hold (the server's conversion), next to HP. Nothing added."""
    gm = _page(browser, server.base, server.gm)
    seq, before = server.table.seq, server.table.state
    form = _open_sheet(gm)
    form.get_by_label("name", exact=True).fill("Bo the Second")
    form.get_by_label("id", exact=True).fill("bo")
    gm.get_by_role("button", name="Add this combatant").click()
    id_box = form.get_by_label("id", exact=True)
    error = form.locator(".field", has=gm.get_by_label("id", exact=True)).locator(".field-error")
    error.first.wait_for()
    assert error.count() == 1
    assert "id Bo is used by two combatants" in error.first.inner_text()
    assert id_box.get_attribute("aria-invalid") == "true"
    assert gm.evaluate("document.activeElement.id") == id_box.get_attribute("id")
    described = id_box.get_attribute("aria-describedby") or ""
    assert error.first.get_attribute("id") in described.split()
    # the id mended, a taken tile: the refusal moves to the tile
    id_box.fill("bo2")
    form.get_by_label("at x", exact=True).fill("0")
    form.get_by_label("y", exact=True).fill("0")
    gm.get_by_role("button", name="Add this combatant").click()
    at_error = form.locator(".field.kind-tile .field-error")
    at_error.wait_for()
    assert "Ana is on 0, 0" in at_error.inner_text()
    assert form.get_by_label("at x", exact=True).get_attribute("aria-invalid") == "true"
    assert id_box.get_attribute("aria-invalid") is None  # the earlier error cleared
    # text that is no value: refused by the conversion, at the HP field
    form.get_by_label("y", exact=True).fill("3")
    form.get_by_label("hp", exact=True).fill("[1")
    gm.get_by_role("button", name="Add this combatant").click()
    hp_error = form.locator(".field.kind-int", has=gm.get_by_label("hp", exact=True)).locator(
        ".field-error"
    )
    hp_error.wait_for()
    assert "[1" in hp_error.inner_text()
    time.sleep(0.3)
    assert (server.table.seq, server.table.state) == (seq, before)


@NEEDS_CHROMIUM
def test_the_kept_list_outlives_a_restart_and_adds(tmp_path: Path, browser: Any) -> None:
    """The game master keeps a new sheet (Grim) and Bo's; the server restarts; the
    reloaded page lists both, and "Add Bo" adds a fresh Bo (bo-2, full HP) to the fight."""
    first = Server(tmp_path)
    try:
        gm = _page(browser, first.base, first.gm)
        form = _open_sheet(gm)
        form.get_by_label("name", exact=True).fill("Grim")
        form.get_by_label("side", exact=True).fill("raiders")
        form.get_by_label("max_hp", exact=True).fill("7")
        form.get_by_label("hand: short-hand").select_option("club")
        gm.get_by_role("button", name="Keep it for later").click()
        gm.locator("#kept li", has_text="Grim").wait_for()
        gm.locator("#add-copy").select_option("bo")
        gm.get_by_role("button", name="Keep its sheet for later").click()
        gm.locator("#kept li", has_text="Bo").wait_for()
        seq = first.table.seq
        gm.context.close()
    finally:
        first.stop()
    again = Server(tmp_path, resume=True)
    try:
        gm = _page(browser, again.base, again.gm)
        _open_sheet(gm)
        rows = gm.locator("#kept li")
        rows.nth(1).wait_for()
        assert rows.all_inner_texts()[0].startswith("Grim (side raiders, max HP 7)")
        assert rows.all_inner_texts()[1].startswith("Bo (side raiders, max HP 12)")
        assert gm.locator("#kept-none").is_hidden()
        gm.get_by_role("button", name="Add Bo").click()
        _seq(gm, seq + 1)
        bo2 = again.table.state.combatants["bo-2"]
        bo = again.table.state.combatants["bo"]
        assert (bo2.name, bo2.side, bo2.hp, bo2.max_hp, bo2.at) == ("Bo", "raiders", 12, 12, None)
        assert bo2.sheet == bo.sheet
        gm.get_by_role("button", name="Add Grim").click()
        _seq(gm, seq + 2)
        grim = again.table.state.combatants["grim"]
        assert (grim.hp, grim.max_hp, grim.sheet.hand.name) == (7, 7, "club")
        assert "HP 7/7" in _card(gm, "Grim").inner_text()
        # dropped from the list: gone after a reload too
        gm.get_by_role("button", name="Drop Grim").click()
        gm.locator("#kept li", has_text="Grim").wait_for(state="detached")
        gm.reload()
        gm.wait_for_selector("#order li")
        _open_sheet(gm)
        gm.locator("#kept li").first.wait_for()
        assert [t.split(" (")[0] for t in gm.locator("#kept li .grow").all_inner_texts()] == ["Bo"]
    finally:
        again.stop()


@NEEDS_CHROMIUM
def test_the_sheet_form_fits_a_phone(server: Server, browser: Any) -> None:
    """At 360 px the opened form and kept list scroll no page sideways; every control
    has a name (labels), reached by the keyboard."""
    gm = _page(browser, server.base, server.gm, width=360)
    form = _open_sheet(gm)
    form.locator("details summary").click()  # every sheet field shown
    gm.locator("#sheet-form").scroll_into_view_if_needed()
    width = gm.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, width
    widest = gm.evaluate(
        "() => Math.max(...[...document.querySelectorAll('#sheet-box *')]"
        ".map(n => n.getBoundingClientRect().right))"
    )
    assert widest <= 360, widest
    unnamed = gm.evaluate(
        """() => [...document.querySelectorAll('#sheet-box :is(input, select, button)')]
        .filter(n => !n.labels?.length && !n.getAttribute('aria-label')
        && !n.textContent.trim()).map(n => n.outerHTML)"""
    )
    assert unnamed == []
    form.get_by_label("name", exact=True).focus()
    gm.keyboard.type("Kit")
    assert form.get_by_label("id", exact=True).input_value() == "kit"


# --- raw sockets: only the game master adds; the kept list never reaches a player ------


def _hello(ws: Any) -> dict[str, Any]:
    ws.send_json({"type": "hello", "seq": 0})
    message: dict[str, Any] = ws.receive_json()
    return message


def _answer(ws: Any) -> dict[str, Any]:
    while True:
        m: dict[str, Any] = ws.receive_json()
        if m["type"] in ("refused", "done"):
            return m


def test_a_player_may_not_add_nor_use_the_sheet_routes(tmp_path: Path) -> None:
    """Pat's raw ``add`` frame is refused (forbidden), nothing written; the sheet form,
    the conversion and the kept list answer Pat's token 403; the game master's add of
    the same combatant is made."""
    with served(tmp_path) as s:
        client = TestClient(s.app)
        seq, state = s.table.seq, s.table.state
        zed = {"id": "zed", "name": "Zed", "side": "players", "hp": 9, "hand": "pistol"}
        action = {"actor": "ana", "do": "add", "combatant": zed}
        with client.websocket_connect(f"/ws?token={s.ana}") as pat:
            _hello(pat)
            pat.send_json({"type": "act", "id": 1, "seq": seq, "action": action})
            reply = _answer(pat)
        assert (reply["type"], reply["code"]) == ("refused", "forbidden"), reply
        assert (s.table.seq, s.table.state) == (seq, state)
        auth = {"Authorization": f"Bearer {s.ana}"}
        for method, path, body in (
            ("GET", "/api/sheet", None),
            ("POST", "/api/sheet/combatant", {"values": {"id": "zed"}}),
            ("POST", "/api/sheet/kept", {"values": {"id": "zed"}}),
            ("POST", "/api/sheet/kept", {"from": "bo"}),
            ("DELETE", "/api/sheet/kept/0", None),
        ):
            r = client.request(method, path, headers=auth, json=body)
            assert (r.status_code, r.json()["code"]) == (403, "forbidden"), (path, r.json())
        with client.websocket_connect(f"/ws?token={s.gm}") as gm:
            _hello(gm)
            gm.send_json({"type": "act", "id": 1, "seq": seq, "action": action})
            assert _answer(gm)["type"] == "done"
        assert s.table.state.combatants["zed"].hp == 9


def test_the_form_values_become_a_file_combatant_and_a_refusal_names_its_field(
    tmp_path: Path,
) -> None:
    """The conversion is the setup page's (a short-hand with more fields, a tile, HP
    read as a file reads it); the table's refusal on the socket names the field."""
    with served(tmp_path) as s:
        client = TestClient(s.app)
        auth = {"Authorization": f"Bearer {s.gm}"}
        values = {
            "id": "zed",
            "name": "Zed",
            "side": "players",
            "at": ["1", "0"],
            "hp": "9",
            "hand": {"is": "pistol", "more": "loaded: 3"},
        }
        r = client.post("/api/sheet/combatant", headers=auth, json={"values": values})
        combatant = r.json()["combatant"]
        assert combatant == {
            "id": "zed",
            "name": "Zed",
            "side": "players",
            "at": [1, 0],
            "hp": 9,
            "hand": {"is": "pistol", "loaded": 3},
        }
        bad = client.post("/api/sheet/combatant", headers=auth, json={"values": {"hp": "[1"}})
        assert (bad.status_code, bad.json()["code"], bad.json()["field"]) == (
            400,
            "bad_yaml",
            "combatant.hp",
        )
        form = client.get("/api/sheet", headers=auth).json()["form"]
        assert form["name"] == "dice-combat" and "pistol" in form["shorthands"]
        seq = s.table.seq
        with client.websocket_connect(f"/ws?token={s.gm}") as gm:
            _hello(gm)
            act = {"actor": "ana", "do": "add", "combatant": combatant}  # Bo is on 1, 0
            gm.send_json({"type": "act", "id": 1, "seq": seq, "action": act})
            taken = _answer(gm)
            act = {"actor": "ana", "do": "add", "combatant": {**combatant, "id": "bo"}}
            gm.send_json({"type": "act", "id": 2, "seq": seq, "action": act})
            twice = _answer(gm)
        assert (taken["code"], taken["field"]) == ("tile_taken", "combatant.at")
        assert (twice["code"], twice["field"]) == ("duplicate_id", "combatant.id")
        assert s.table.seq == seq


def test_the_kept_list_never_reaches_a_player(tmp_path: Path) -> None:
    """The kept sheets are the game master's preparation: not in any sync a player's
    socket receives (raw JSON), nor in the state route, nor in the game master's own
    sync (it is no record of play); a new service over the same store still has them."""
    with served(tmp_path) as s:
        client = TestClient(s.app)
        auth = {"Authorization": f"Bearer {s.gm}"}
        values = {"id": "zorgrim", "name": "Zorgrim Kept", "side": "raiders"}
        r = client.post("/api/sheet/kept", headers=auth, json={"values": values})
        assert [k["combatant"]["name"] for k in r.json()["kept"]] == ["Zorgrim Kept"]
        with (
            client.websocket_connect(f"/ws?token={s.ana}") as pat,
            client.websocket_connect(f"/ws?token={s.bo}") as sam,
        ):
            for ws in (pat, sam):
                ws.send_json({"type": "hello", "seq": 0})
                raw = ws.receive_text()
                assert json.loads(raw)["type"] == "sync"
                assert "zorgrim" not in raw.lower() and "kept" not in raw.lower()
            # a change of the table synced to both: still nothing of the kept list
            with client.websocket_connect(f"/ws?token={s.gm}") as gm:
                _hello(gm)
                gm.send_json(
                    {
                        "type": "act",
                        "id": 1,
                        "seq": s.table.seq,
                        "action": {"actor": "bo", "do": "damage", "amount": 1},
                    }
                )
                assert _answer(gm)["type"] == "done"
            for ws in (pat, sam):
                raw = ws.receive_text()
                assert json.loads(raw)["type"] == "sync"
                assert "zorgrim" not in raw.lower()
        for token in (s.ana, s.bo):
            state = client.get("/api/state", headers={"Authorization": f"Bearer {token}"}).text
            assert "zorgrim" not in state.lower()
        assert "zorgrim" not in json.dumps(s.table.export()).lower()
        # kept with the encounter in the store: a new service and app read it again
    store = open_store(tmp_path / "s.sqlite3", durable=False)  # as a new process opens it
    try:
        with ThreadPoolExecutor(1) as pool:
            again = create_app(TableService(store), Links(store), pool)
            kept = TestClient(again).get("/api/sheet", headers=auth).json()["kept"]
        assert [k["combatant"]["id"] for k in kept] == ["zorgrim"]
    finally:
        store.close()
