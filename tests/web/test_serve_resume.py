"""Issue 22, item 4: ``fracas serve FILE`` again goes on with that file's latest
encounter while it is unfinished; once one side alone stands (or the game master
finished it), the same command starts a new one; ``--new`` always does."""

from __future__ import annotations

from pathlib import Path

from fracas.io.store import open_store
from fracas.model import Action
from fracas.table import GAME_MASTER, Act, TableService
from fracas.web.serve import _opening

START = Path(__file__).parents[2] / "examples" / "start" / "dice-combat.yaml"


def test_the_same_file_resumes_until_its_fight_is_over(tmp_path: Path) -> None:
    store = open_store(tmp_path / "s.sqlite3", durable=False)
    service = TableService(store)
    said: list[str] = []
    target = str(START)
    _, first, new = _opening(store, service, target, said.append)
    assert first is not None and new and first.name == "dice-combat"
    _, again, new = _opening(store, service, target, said.append)
    assert again is not None and not new and again.name == "dice-combat"
    assert said[-1].startswith(f"going on with 'dice-combat', the unfinished fight of {target}")
    _, other, new = _opening(store, service, target, said.append, new=True)
    assert other is not None and new and other.name == "dice-combat-2"
    # the latest (dice-combat-2) finished by the game master: the next start is new
    other.submit(Act(Action("ana", "finish")), GAME_MASTER)
    _, third, new = _opening(store, service, target, said.append)
    assert third is not None and third.name == "dice-combat" and not new  # the older one
    # dice-combat won by the players (Bo and Cy down): nothing unfinished left
    for raider in ("bo", "cy"):
        third.submit(Act(Action(raider, "damage", params={"amount": 12})), GAME_MASTER)
    assert third.outcome() is not None
    _, fourth, new = _opening(store, service, target, said.append)
    assert fourth is not None and new and fourth.name == "dice-combat-3"
    store.close()
