"""The prompt's tab completion offers parameter values (weapons, items, limbs), and its
odds fold a long tail of rare outcomes into one line, as `fracas odds` does; the table
service imports no terminal or web library."""

from __future__ import annotations

import ast
from pathlib import Path

from fracas.io.store import open_store
from fracas.play.choices import completions
from fracas.play.loop import Prompt
from fracas.rulesets import RULESETS, Ruleset
from fracas.table import TableService, options_now
from tests.play.support import EXAMPLES, ScriptedTerminal, example_file

PACKAGE = Path(__file__).resolve().parents[2] / "fracas"


def _none(*_: object) -> list[str]:
    return []


def test_completion_offers_weapon_item_and_called_values() -> None:
    """Before: `weapon=`, `called=` and `item=` completed to nothing."""
    wl = example_file(next(r for r in _rulesets() if r.about.name == "wasteland"))
    actor = wl.start.turn.actor
    weapons = [w.name for w in wl.start.get(actor).sheet.weapons]
    got = completions(f"{actor} attack {_other(wl, actor)} weapon=", wl, wl.start, _none)
    assert got == sorted(f"weapon={w}" for w in weapons)
    called = completions(f"{actor} attack {_other(wl, actor)} called=", wl, wl.start, _none)
    assert "called=head" in called and "called=torso" in called
    dc = example_file(next(r for r in _rulesets() if r.about.name == "dice-combat"))
    assert completions("ana equip item=", dc, dc.start, _none) == ["item=knife"]


def test_prompt_odds_fold_the_tail_of_exploding_damage(tmp_path: Path) -> None:
    """Before: `odds` at the prompt printed every outcome (135 lines for one wasteland
    shot) where `fracas odds` folds the tail."""
    store = open_store(tmp_path / "s.sqlite3", durable=False)
    table = TableService(store).create((EXAMPLES / "soak.yaml").read_text(), "soak.yaml")
    actor = table.state.turn.actor
    attack = next(o for o in options_now(table.ruleset, table.state) if o.spec.name == "attack")
    terminal = ScriptedTerminal([f"odds {actor} attack {attack.targets[0]}"])
    Prompt(table, terminal).run()
    lines = [line for line in terminal.lines if not line.startswith("r")]
    assert any("outcomes up to" in line for line in lines), lines
    assert len(lines) <= 2 + 2 * 22  # heading, cut note; per combatant a line and <= 21 rows


def test_the_table_service_imports_no_terminal_or_web_library() -> None:
    faces = {"rich", "click", "readline", "starlette", "uvicorn", "pexpect", "fracas.play"}
    for path in sorted((PACKAGE / "table").glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert not any(name == f or name.startswith(f + ".") for f in faces), (path, name)


def _rulesets() -> list[type[Ruleset]]:
    return list(RULESETS)


def _other(ef: object, actor: str) -> str:
    from fracas.io.files import EncounterFile

    assert isinstance(ef, EncounterFile)
    return next(c for c in ef.start.combatants if c != actor)
