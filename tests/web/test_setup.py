"""The setup page's API (``fracas serve`` with no FILE) without a browser: only the setup
token opens it; the form's schema comes from each ruleset's types; a setup is refused
exactly as the same encounter file is (code, message, and the field named); a started
encounter is stored, opened by its game master's link, and downloaded as a file that
``fracas run`` replays to the same state."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from starlette.testclient import TestClient

from fracas.errors import FileError, FracasError
from fracas.io.files import parse_text
from fracas.io.store import open_store
from fracas.model import Action
from fracas.rulesets import RULESETS
from fracas.table import TableService
from fracas.web.app import create_app
from fracas.web.links import Links
from fracas.web.setup import MAX_SETUP, SetupKey, ruleset_forms

ROOT = Path(__file__).parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))


@dataclass
class Setup:
    client: TestClient
    tables: TableService
    links: Links
    token: str

    def post(self, path: str, body: Any, token: str | None = None) -> Any:
        return self.client.post(
            f"/api/setup/{path}",
            content=body if isinstance(body, bytes) else json.dumps(body),
            headers={"Authorization": f"Bearer {self.token if token is None else token}"},
        )

    def get(self, path: str, token: str | None = None) -> Any:
        return self.client.get(
            f"/api/setup/{path}",
            headers={"Authorization": f"Bearer {self.token if token is None else token}"},
        )


@pytest.fixture
def s(tmp_path: Path) -> Iterator[Setup]:
    store = open_store(tmp_path / "s.sqlite3", durable=False)
    tables = TableService(store)
    links = Links(store)
    key = SetupKey()
    token = key.mint()
    with ThreadPoolExecutor(1) as pool:
        yield Setup(TestClient(create_app(tables, links, pool, key)), tables, links, token)
    store.close()


FIGHT: dict[str, Any] = {
    "ruleset": "dice-combat",
    "name": "gate",
    "seed": "7",
    "map": {"width": "10", "height": "6"},
    "options": {"revision": "B", "ties_hit": False},
    "combatants": [
        {
            "id": "ana",
            "name": "Ana",
            "side": "players",
            "at": ["0", "0"],
            "attack_bonus": "1",
            "traits": "gunslinger",
            "hand": {"is": "pistol", "more": "loaded: 6"},
            "inventory": [{"is": "knife", "more": ""}, {"is": "knife", "more": "scrap: true"}],
        },
        {"id": "bo", "name": "Bo", "side": "raiders", "at": ["1", "0"], "hand": {"is": "club"}},
    ],
}

FIGHT_FILE = """\
ruleset: dice-combat
seed: 7
map: {width: 10, height: 6}
options: {revision: B, ties_hit: false}
combatants:
  - id: ana
    name: Ana
    side: players
    at: [0, 0]
    attack_bonus: 1
    traits: [gunslinger]
    hand: {is: pistol, loaded: 6}
    inventory: [knife, {is: knife, scrap: true}]
  - {id: bo, name: Bo, side: raiders, at: [1, 0], hand: club}
"""


def with_value(path: list[Any], value: Any) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(FIGHT))
    at = out
    for p in path[:-1]:
        at = at[p]
    at[path[-1]] = value
    return out


def file_error(text: str) -> FileError:
    with pytest.raises(FileError) as caught:
        parse_text(text, "f.yaml")
    return caught.value


# --- who may use it ----------------------------------------------------------------


def test_only_the_setup_token_opens_the_page_and_its_api(s: Setup) -> None:
    assert s.client.get(f"/setup/{s.token}").status_code == 200
    assert "setup.js" in s.client.get(f"/setup/{s.token}").text
    assert s.client.get("/setup/a-guess").status_code == 403
    for path in ("rulesets", "encounters", "export/gate"):
        r = s.get(path, token="a-guess")
        assert r.status_code == 403 and r.json()["code"] == "bad_token"
        assert s.client.get(f"/api/setup/{path}").status_code == 403  # no header at all
    for path in ("check", "start", "open"):
        r = s.post(path, FIGHT, token="a-guess")
        assert r.status_code == 403 and r.json()["code"] == "bad_token"
    assert s.tables.names() == []  # nothing was written


def test_a_game_masters_or_players_token_does_not_open_the_setup(s: Setup) -> None:
    started = s.post("start", FIGHT).json()
    gm = started["gm"].rsplit("/", 1)[1]
    _, player = s.links.add("gate", "Pat", ["ana"])
    for token in (gm, player):
        assert s.get("rulesets", token=token).status_code == 403
        assert s.post("start", {**FIGHT, "name": "other"}, token=token).status_code == 403
        assert s.client.get(f"/setup/{token}").status_code == 403
    assert s.tables.names() == ["gate"]


def test_an_app_without_a_setup_key_has_no_setup_routes(tmp_path: Path) -> None:
    store = open_store(tmp_path / "s.sqlite3", durable=False)
    with ThreadPoolExecutor(1) as pool:
        client = TestClient(create_app(TableService(store), Links(), pool))
        assert client.get("/setup/anything").status_code == 404
        assert client.post("/api/setup/start", content=b"{}").status_code == 404
    store.close()


def test_the_token_is_kept_hashed() -> None:
    key = SetupKey()
    token = key.mint()
    assert len(token) >= 43  # 32 random bytes, URL-safe base64
    assert token not in vars(key).values()
    key.check(token)
    again = key.mint()
    with pytest.raises(FracasError, match="does not open the setup page"):  # the old one
        key.check(token)
    key.check(again)


# --- the schema ----------------------------------------------------------------------


def test_the_schema_is_every_rulesets_options_sheet_and_short_hands(s: Setup) -> None:
    forms = {f["name"]: f for f in s.get("rulesets").json()}
    assert list(forms) == [r.about.name for r in RULESETS]
    for r in RULESETS:
        form = forms[r.about.name]
        assert [f["name"] for f in form["options"]] == list(r.contract.option_defaults())
        assert [f["name"] for f in form["core"]] == ["id", "name", "side", "at", "hp", "max_hp"]
        assert form["shorthands"] == list(r.contract.item_shorthands)
    dc = {f["name"]: f for f in forms["dice-combat"]["sheet"]}
    assert (dc["hand"]["kind"], dc["inventory"]["kind"]) == ("item", "items")
    assert dc["crit"] == {
        "name": "crit",
        "kind": "choice",
        "default": "normal",
        "meaning": "Critical profile, attack and defence (DC-36).",
        "choices": ["normal", "wildcard", "even_keel"],
        "nullable": False,
    }
    assert (dc["traits"]["kind"], dc["cover"]["kind"], dc["attack_bonus"]["kind"]) == (
        "list",
        "bool",
        "int",
    )
    wl = {f["name"]: f for f in forms["wasteland"]["sheet"]}
    assert wl["rest_uses"]["kind"] == "choices"
    assert wl["rest_uses"]["choices"] == ["deal_with_the_reaper", "too_stubborn_to_die"]
    assert (wl["limbs"]["kind"], wl["weapons"]["kind"]) == ("yaml", "items")
    assert "pistol" in forms["dice-combat"]["shorthands"]


def test_the_sheet_fields_of_the_schema_are_the_rulesets() -> None:
    import dataclasses

    for r, form in zip(RULESETS, ruleset_forms(), strict=True):
        fields = [f.name for f in dataclasses.fields(r.contract.sheet)]
        assert [f["name"] for f in form["sheet"]] == fields


def form_of(form: dict[str, Any], combatant: dict[str, Any]) -> dict[str, Any]:
    """A file's combatant as the page's controls would send it."""
    kinds = {f["name"]: f["kind"] for f in form["core"] + form["sheet"]}
    out: dict[str, Any] = {}
    for name, value in combatant.items():
        kind = kinds[name]
        if kind == "bool":
            out[name] = value
        elif kind in ("text", "choice"):
            out[name] = str(value)
        elif kind == "list":
            out[name] = ", ".join(value)
        elif kind == "choices":
            out[name] = list(value)
        elif kind == "tile":
            out[name] = [str(v) for v in value]
        elif kind in ("item", "items"):
            rows = [value] if kind == "item" else value
            sent = []
            for row in rows:
                if isinstance(row, str):
                    sent.append({"is": row, "more": ""})
                else:
                    rest = {k: v for k, v in row.items() if k != "is"}
                    sent.append({"is": row.get("is", ""), "more": json.dumps(rest)})
            out[name] = sent[0] if kind == "item" else sent
        else:  # int, yaml: the value as a file writes it (JSON is YAML)
            out[name] = json.dumps(value)
    return out


@pytest.mark.parametrize("example", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_examples_combatants_can_be_entered_in_the_form(s: Setup, example: Path) -> None:
    # every sheet field of every ruleset has a control that can give what the file gives
    data = yaml.safe_load(example.read_text())
    form = next(f for f in ruleset_forms() if f["name"] == data["ruleset"])
    sent = {
        "ruleset": data["ruleset"],
        "name": f"{example.stem}-form",
        "options": {
            k: json.dumps(v) if not isinstance(v, str) else v
            for k, v in data.get("options", {}).items()
        },
        "combatants": [form_of(form, c) for c in data["combatants"]],
    }
    assert s.post("check", sent).json() == {"ok": True}
    started = s.post("start", sent).json()
    stored = s.tables.open(started["name"]).text  # the file the setup wrote, as stored
    expected = parse_text(example.read_text(), "e.yaml")
    assert parse_text(stored, "s.yaml").start.combatants == expected.start.combatants


# --- the same refusals as a file ------------------------------------------------------


def test_a_setup_and_its_file_read_alike(s: Setup) -> None:
    assert s.post("check", FIGHT).json() == {"ok": True}
    started = s.post("start", FIGHT).json()
    table = s.tables.open(started["name"])
    assert parse_text(table.text).start.combatants == parse_text(FIGHT_FILE).start.combatants
    assert table.file.map is not None and (table.file.map.width, table.file.map.height) == (10, 6)
    assert table.ruleset.options.ties_hit is False


@pytest.mark.parametrize(
    ("path", "value", "replace", "field"),
    [
        # a value pydantic refuses (DC sheet: attack_bonus is an integer)
        (
            ["combatants", 0, "attack_bonus"],
            "abc",
            ("attack_bonus: 1", "attack_bonus: abc"),
            "combatants[0].attack_bonus",
        ),
        # above max_hp (12 in dice-combat, DC-1)
        (["combatants", 1, "hp"], "20", ("hand: club}", "hand: club, hp: 20}"), "combatants[1].hp"),
        # an item short-hand the ruleset lacks
        (
            ["combatants", 1, "hand"],
            {"is": "", "more": "is: laser"},
            ("hand: club}", "hand: {is: laser}}"),
            "combatants[1].hand",
        ),
        # a field an item lacks
        (
            ["combatants", 0, "hand"],
            {"is": "pistol", "more": "ammo: 6"},
            ("loaded: 6", "ammo: 6"),
            "combatants[0].hand",
        ),
        # off the map
        (["combatants", 1, "at"], ["12", "0"], ("at: [1, 0]", "at: [12, 0]"), "combatants[1].at"),
        # two combatants with one id
        (["combatants", 1, "id"], "ana", ("id: bo", "id: ana"), "combatants[1].id"),
        # a bad id
        (["combatants", 1, "id"], "Bo!", ("id: bo", "id: Bo!"), "combatants[1].id"),
        # an option out of its choices
        (["options", "revision"], "C", ("revision: B", "revision: C"), "options.revision"),
        # an unknown option
        (
            ["options", "speed"],
            "3",
            ("ties_hit: false", "ties_hit: false, speed: 3"),
            "options.speed",
        ),
        # an unknown ruleset
        (["ruleset"], "chess", ("ruleset: dice-combat", "ruleset: chess"), "ruleset"),
        # the map's size
        (["map", "width"], "0", ("width: 10", "width: 0"), "map.width"),
        # issue 22, item 7: at most 200 by 200, and no tile off it
        (["map", "width"], "100000", ("width: 10", "width: 100000"), "map.width"),
        (["map", "height"], "201", ("height: 6", "height: 201"), "map.height"),
        (["combatants", 1, "at"], ["-1", "0"], ("at: [1, 0]", "at: [-1, 0]"), "combatants[1].at"),
    ],
)
def test_a_bad_value_is_refused_as_in_a_file_at_its_field(
    s: Setup, path: list[Any], value: Any, replace: tuple[str, str], field: str
) -> None:
    expected = file_error(FIGHT_FILE.replace(*replace))
    r = s.post("check", with_value(path, value))
    assert r.status_code == 400
    assert r.json() == {"code": expected.code, "message": expected.message, "field": field}
    assert s.post("start", with_value(path, value)).status_code == 400
    assert s.tables.names() == []  # nothing stored


def test_a_missing_id_names_the_id_field(s: Setup) -> None:
    sent = json.loads(json.dumps(FIGHT))
    del sent["combatants"][1]["id"]
    r = s.post("check", sent).json()
    assert r == {
        "code": "missing_field",
        "message": "'id' is required",
        "field": "combatants[1].id",
    }


def test_no_combatant_is_refused_as_in_a_file(s: Setup) -> None:
    expected = file_error("ruleset: dice-combat\ncombatants: []\n")
    r = s.post("check", {"ruleset": "dice-combat", "combatants": []}).json()
    assert (r["code"], r["message"], r["field"]) == (expected.code, expected.message, "combatants")


def test_text_that_no_file_could_hold_is_bad_yaml_at_its_field(s: Setup) -> None:
    r = s.post(
        "check", with_value(["combatants", 0, "hand"], {"is": "pistol", "more": "loaded: [6"})
    )
    body = r.json()
    assert (r.status_code, body["code"], body["field"]) == (400, "bad_yaml", "combatants[0].hand")
    assert "'{loaded: [6}' is not a value a file could hold" in body["message"]


def test_a_text_field_is_kept_as_typed(s: Setup) -> None:
    # a file's `name: 007` would be the number 7 and refused; the form's name is text
    started = s.post("start", with_value(["combatants", 1, "name"], "007")).json()
    assert s.tables.open(started["name"]).state.get("bo").name == "007"


def test_bad_bodies_are_refused_and_write_nothing(s: Setup) -> None:
    for body, status, code in [
        (b"{", 400, "bad_json"),
        (b"[1]", 400, "bad_json"),
        (b"x" * (MAX_SETUP + 1), 413, "too_big"),  # refused from its length, unread
    ]:
        r = s.post("start", body)
        assert (r.status_code, r.json()["code"]) == (status, code)
    deep = "[" * 3000 + "]" * 3000
    nested = json.loads("[" * 40 + "]" * 40)
    for raw in [
        ("[" * 100_000).encode(),  # JSON past the recursion limit
        json.dumps(with_value(["options", "x"], nested)).encode(),  # past a file's 32 levels
    ]:
        r = s.post("start", raw)
        assert (r.status_code, r.json()["code"]) == (400, "too_large")
    r = s.post("start", with_value(["combatants", 0, "attack_bonus"], deep))
    body = r.json()
    assert (body["code"], body["field"]) == ("too_large", "combatants[0].attack_bonus")
    r = s.post("start", with_value(["combatants"], "ana"))
    assert (r.status_code, r.json()["field"]) == (400, "combatants")
    r = s.post("start", with_value(["combatants", 0, "cover"], "yes"))
    assert (r.json()["code"], r.json()["field"]) == ("bad_value", "combatants[0].cover")
    r = s.post("start", with_value(["name"], "../etc"))
    assert (r.json()["code"], r.json()["field"]) == ("bad_name", "name")
    assert s.tables.names() == []


# --- start, open, download -------------------------------------------------------------


def test_start_stores_the_encounter_and_gives_the_game_masters_link(s: Setup) -> None:
    started = s.post("start", FIGHT).json()
    assert started["name"] == "gate"
    gm = started["gm"].rsplit("/", 1)[1]
    assert s.client.get(started["gm"]).status_code == 200
    state = s.client.get("/api/state", headers={"Authorization": f"Bearer {gm}"}).json()
    assert state["you"]["role"] == "gm"
    assert {c["id"]: c["at"] for c in state["combatants"]} == {"ana": [0, 0], "bo": [1, 0]}
    listed = s.get("encounters").json()
    assert [(e["name"], e["ruleset"], e["records"]) for e in listed] == [("gate", "dice-combat", 1)]
    # the name is taken now: refused at the name field, nothing else stored
    again = s.post("start", FIGHT)
    assert (again.status_code, again.json()["code"], again.json()["field"]) == (
        400,
        "name_taken",
        "name",
    )
    # without a name, the store makes one from the ruleset's
    unnamed = s.post("start", with_value(["name"], "")).json()
    assert unnamed["name"] == "setup"
    assert sorted(s.tables.names()) == ["gate", "setup"]


def test_opening_a_stored_encounter_gives_one_game_masters_link(s: Setup) -> None:
    started = s.post("start", FIGHT).json()
    opened = s.post("open", {"name": "gate"}).json()
    assert opened == started  # the same link: an open game master's page keeps working
    gm = opened["gm"].rsplit("/", 1)[1]
    assert s.client.get("/api/state", headers={"Authorization": f"Bearer {gm}"}).status_code == 200
    r = s.post("open", {"name": "nope"})
    assert (r.status_code, r.json()["code"]) == (404, "unknown_encounter")


def test_a_downloaded_encounter_replays_with_fracas_run(s: Setup, tmp_path: Path) -> None:
    started = s.post("start", FIGHT).json()
    table = s.tables.open(started["name"])
    table.act(Action("ana", "attack", "bo"))
    table.act(Action("ana", "end_turn"))
    table.act(Action("bo", "attack", "ana"))
    r = s.get("export/gate")
    assert r.status_code == 200
    assert r.headers["content-disposition"] == 'attachment; filename="gate.yaml"'
    path = tmp_path / "gate.yaml"
    path.write_text(r.text)
    run = subprocess.run(
        [sys.executable, "-m", "fracas", "run", str(path), "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    replayed = json.loads(run.stdout)
    state = table.state
    assert {cid: c["hp"] for cid, c in replayed["combatants"].items()} == {
        cid: c.hp for cid, c in state.combatants.items()
    }
    assert (replayed["round"], replayed["turn"]) == (state.round, state.turn.actor)
    assert len(replayed["log"]) > 0
    assert s.get("export/nope").status_code == 404


def test_a_body_nested_past_the_parsers_limit_is_refused_by_the_links_api(s: Setup) -> None:
    # the game master's links API reads its body as the setup's does: a refusal, not a 500
    started = s.post("start", FIGHT).json()
    gm = started["gm"].rsplit("/", 1)[1]
    r = s.client.post(
        "/api/links", content=b"[" * 16_000, headers={"Authorization": f"Bearer {gm}"}
    )
    assert (r.status_code, r.json()["code"]) == (400, "bad_json")
    assert [link.name for link in s.links.of("gate")] == ["Ana"]  # the start's only


def test_an_encounter_started_from_the_setup_page_gets_a_player_link_per_player(
    s: Setup,
) -> None:
    """Issue 22, item 4: one link per player-side combatant (Ana; not the raider Bo),
    listed on the game master's page with its address, which opens Ana's page; the game
    master edits it like any other."""
    started = s.post("start", FIGHT).json()
    gm = {"Authorization": f"Bearer {started['gm'].rsplit('/', 1)[1]}"}
    listed = s.client.get("/api/links", headers=gm).json()
    assert [(x["name"], x["owns"], x["revoked"]) for x in listed] == [("Ana", ["ana"], False)]
    token = listed[0]["path"].rsplit("/", 1)[1]
    seen = s.client.get("/api/state", headers={"Authorization": f"Bearer {token}"}).json()
    assert seen["you"] == {**seen["you"], "name": "Ana", "role": "player", "owns": ["ana"]}
    moved = s.client.post(f"/api/links/{listed[0]['id']}", headers=gm, json={"owns": ["ana", "bo"]})
    assert moved.json()["owns"] == ["ana", "bo"]


@pytest.mark.parametrize("example", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_rulesets_download_replays_with_fracas_run(
    s: Setup, example: Path, tmp_path: Path
) -> None:
    # the setup page's download and the game master's are the same file, and `fracas run`
    # replays it to the state the table holds (every combatant's HP, the round, the turn)
    table = s.tables.create(example.read_text(), example.name, name=example.stem)
    table.act(Action(table.state.turn.actor, "end_turn"))
    text = s.get(f"export/{example.stem}").text
    gm = s.post("open", {"name": example.stem}).json()["gm"].rsplit("/", 1)[1]
    from_gm = s.client.get("/api/export", headers={"Authorization": f"Bearer {gm}"}).text
    assert text == from_gm
    path = tmp_path / f"{example.stem}.yaml"
    path.write_text(text)
    run = subprocess.run(
        [sys.executable, "-m", "fracas", "run", str(path), "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    replayed = json.loads(run.stdout)
    state = table.state
    assert {cid: c["hp"] for cid, c in replayed["combatants"].items()} == {
        cid: c.hp for cid, c in state.combatants.items()
    }
    assert (replayed["round"], replayed["turn"]) == (state.round, state.turn.actor)
