"""The table layer speaks in values, the faces in words (issue 32, item 10): no module
of ``fracas.table`` imports the words module (``fracas.words.render``), none holds the
sentences a page shows, and a view's log is :class:`~fracas.table.Entry` values (no
``text``), its state's die, requests and outcome values too."""

from __future__ import annotations

import ast
from pathlib import Path

from fracas.io.store import open_store
from fracas.model import Action
from fracas.table import Asked, Entry, Identity, SetDice, TableService, View
from tests.table.support import PISTOL_FIGHT as FIGHT

TABLE = Path(__file__).parents[2] / "fracas" / "table"

SENTENCES = (
    "the game master acts",
    "takes damage",
    "GM adds",
    "GM changes",
    "'s turn",
    "asks for",
    "The fight is over",
    "the game master rolls",
    "player or the game master",
    "plays out of sight",
)
"""The words a page shows that the table layer once made."""


def _strings(path: Path) -> list[str]:
    """The string constants of a module's code, its docstrings and its refusals' messages
    (an error's one line, ``Forbidden(code, message)``) aside."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skip.add(id(node.value))  # a docstring
        if isinstance(node, ast.Call) and len(node.args) >= 2:
            skip |= {id(n) for n in ast.walk(node.args[1])}  # an error's message
        if isinstance(node, ast.Raise) and node.exc is not None:
            skip |= {id(n) for n in ast.walk(node.exc)}
    return [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in skip
    ]


def test_no_module_of_the_table_imports_the_words_module() -> None:
    found = []
    for path in sorted(TABLE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
            found += [f"{path.name}: {n}" for n in names if n.startswith("fracas.words.render")]
    assert found == []


def test_no_module_of_the_table_holds_a_pages_sentences() -> None:
    found = [
        f"{path.name}: {words!r}"
        for path in sorted(TABLE.rglob("*.py"))
        for words in SENTENCES
        for text in _strings(path)
        if words in text
    ]
    assert found == []


def test_a_views_log_and_state_are_values(tmp_path: Path) -> None:
    store = open_store(tmp_path / "s.sqlite3", durable=False)
    try:
        table = TableService(store).create(FIGHT, "fight.yaml", name="t", seed=1)
        table.act(Action("ana", "attack", "bo"))
        table.submit(SetDice(True))
        pat = Identity.player("Pat", "ana")
        view = View(table.snapshot(), pat)
        entries = view.lines()
        assert entries and all(isinstance(e, Entry) for e in entries)
        assert {e.kind for e in entries} >= {"title", "event", "damage"}
        assert not any(hasattr(e, "text") for e in entries)
        damage = next(e for e in entries if e.kind == "damage")
        assert (damage.names, damage.label) == (frozenset({"bo"}), "hurt")
        state = view.state()
        assert "turn_words" not in state and "words" not in (state["outcome"] or {})
        assert state["pending"] is None or isinstance(state["pending"], Asked)
    finally:
        store.close()
