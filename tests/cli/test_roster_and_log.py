"""Issue 36, "Rosters in and out", on the command line: ``fracas roster import`` writes
the encounter file a CSV roster makes (which ``fracas run`` plays) or names every bad
cell on its own line and writes nothing; ``fracas log`` prints a stored encounter's log
as Markdown, the players' view unless ``--gm``."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from fracas.io.store import open_store
from fracas.model import Action
from fracas.table import TableService
from tests.helpers import cli

ROOT = Path(__file__).parents[2]
ROSTER = """\
name,side,x,y,hand
Ana,players,0,0,club
Bo,raiders,1,0,knife
"""


def test_roster_import_writes_an_encounter_file_that_runs(tmp_path: Path) -> None:
    (tmp_path / "party.csv").write_text(ROSTER, encoding="utf-8")
    out = tmp_path / "fight.yaml"
    result = cli(
        "roster", "import", str(tmp_path / "party.csv"), "--ruleset", "dice-combat",
        "--out", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert result.stderr == f"2 combatants imported into {out}\n"
    assert yaml.safe_load(out.read_text(encoding="utf-8")) == {
        "ruleset": "dice-combat",
        "combatants": [
            {"id": "ana", "name": "Ana", "side": "players", "hand": "club", "at": [0, 0]},
            {"id": "bo", "name": "Bo", "side": "raiders", "hand": "knife", "at": [1, 0]},
        ],
    }
    ran = json.loads(cli("run", str(out), "--json").stdout)
    assert list(ran["combatants"]) == ["ana", "bo"]


def test_roster_import_names_every_bad_cell_and_writes_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("name,hand,max hp\nAna,banana,12\nBo,club,-3\n", encoding="utf-8")
    out = tmp_path / "fight.yaml"
    result = cli("roster", "import", str(bad), "--ruleset", "dice-combat", "--out", str(out))
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[0].startswith("  row 2, column 'hand': ")
    assert lines[1].startswith("  row 3, column 'max hp': bad_value: -3")
    assert lines[2].startswith(f"error: bad_roster: 2 bad cells in '{bad}', nothing imported")
    assert len(lines) == 3 and not out.exists()
    as_json = json.loads(
        cli("roster", "import", str(bad), "--ruleset", "dice-combat", "--json").stdout
    )
    assert [(c["row"], c["column"]) for c in as_json["error"]["cells"]] == [
        (2, "hand"),
        (3, "max hp"),
    ]


def test_log_prints_the_players_markdown_and_the_game_masters_with_gm(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite3"
    store = open_store(db)
    try:
        text = (ROOT / "examples" / "dice-combat.yaml").read_text().split("actions:")[0]
        table = TableService(store).create(text, "dice-combat.yaml", name="gate", seed=3)
        table.act(Action("bo", "note", params={"text": "wants revenge"}))
    finally:
        store.close()
    players = cli("log", "gate", "--db", str(db))
    assert players.exit_code == 0, players.stderr
    assert players.stdout.splitlines()[0] == "# gate: Dice Combat - Weapons & Damage"
    assert "revenge" not in players.stdout
    gm = cli("log", "gate", "--db", str(db), "--gm").stdout
    assert "  - Note on Bo: wants revenge" in gm.splitlines()
    missing = cli("log", "nope", "--db", str(db))
    assert missing.exit_code == 1
    assert missing.stderr.startswith("error: unknown_encounter: ")
