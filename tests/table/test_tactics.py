"""A combatant's tactics preset at the table (issue 23, item 1: "Presets per combatant in
the file's ``tactics:`` (and on the page)"): read from the file's ``tactics:`` into the
encounter state, changed by the game master's ``tactics`` action (logged for the game
master alone, undone like any, refused to a player), played by the win bar and the
advisor, exported in the file's ``tactics:``, stored and resumed."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from fracas.errors import FracasError
from fracas.io.files import parse_text, play_file
from fracas.io.store import open_store
from fracas.lab.chain import win_odds
from fracas.lab.fight import file_start
from fracas.lab.policy import Policy
from fracas.model import Action
from fracas.table import Act, Identity, Table, TableService, View
from fracas.web.winbar import WIN_LIMITS
from fracas.words.render import entry_words
from tests.lab.mirrors import mirror

GM = Identity.gm()
PAT = Identity.player("Pat", "ana")


def exact(tactics: str) -> dict[str, Fraction]:
    """Each side's exact chance in the dice-combat mirror, Bo first and under
    ``tactics``."""
    ef = parse_text(mirror("dice-combat", "bo", tactics), "mirror.yaml")
    return win_odds(ef.ruleset, file_start(ef), Policy(ef.ruleset, ef.tactics)).sides


def bar(table: Table) -> dict[str, Any]:
    """The game master's win bar of the table now, asked until it is final."""
    for _ in range(200):
        q = table.win_question(GM, WIN_LIMITS)
        assert q is not None
        answer = q.answer()
        if answer["final"]:
            return answer
    raise AssertionError("the bar never became final")


def preset(action: str) -> Act:
    return Act(Action("bo", "tactics", params={"preset": action}))


def test_a_files_tactics_preset_is_the_states_and_the_pages() -> None:
    ef = parse_text(mirror("dice-combat", "ana", "naive"), "mirror.yaml")
    assert ef.start.presets == {"bo": "naive"}
    assert parse_text(mirror("dice-combat", "ana", "default"), "m.yaml").start.presets == {}


def test_the_game_masters_tactics_action_is_logged_undone_exported_and_resumed(
    tmp_path: Path,
) -> None:
    store = open_store(tmp_path / "s.sqlite3", durable=False)
    table = TableService(store).create(mirror("dice-combat", "ana", "default"), "m.yaml", seed=1)
    seq, before = table.seq, table.state
    gm_view = View(table.snapshot(), GM).state()
    assert gm_view["presets"] == ["default", "naive", "random"]
    assert {c["id"]: c["tactics"] for c in gm_view["combatants"]} == {
        "ana": "default",
        "bo": "default",
    }

    # a player (and a viewer) is refused, with its code, and nothing changes
    for who in (PAT, Identity.player("Sam", "bo"), Identity.viewer()):
        with pytest.raises(FracasError) as err:
            table.submit(preset("naive"), who)
        assert err.value.code == "forbidden"
        assert (table.seq, table.state) == (seq, before)
    with pytest.raises(FracasError) as err:
        table.submit(preset("smart"))
    assert err.value.code == "bad_value" and "'smart'" in err.value.message
    assert "default, naive, random" in err.value.message

    table.submit(preset("naive"))
    assert table.seq == seq + 1 and table.state.presets == {"bo": "naive"}
    assert table.state.combatants == before.combatants and table.state.turn == before.turn
    gm_lines = [entry_words(e) for e in View(table.snapshot(), GM).lines(seq)]
    assert gm_lines[-1] == "GM sets the tactics of Bo: naive"
    # the player's page: no line of it, no preset of anyone
    assert all("tactics" not in entry_words(e) for e in View(table.snapshot(), PAT).lines(seq))
    pat_view = View(table.snapshot(), PAT).state()
    assert pat_view["presets"] == [] and all("tactics" not in c for c in pat_view["combatants"])
    shown = View(table.snapshot(), GM).state()["combatants"]
    assert {c["id"]: c["tactics"] for c in shown} == {"ana": "default", "bo": "naive"}

    # exported in the file's `tactics:`, and its actions replay to the same state
    exported = table.export()
    assert exported["tactics"] == {"bo": {"preset": "naive"}}
    again = parse_text(yaml.safe_dump(exported), "again.yaml")
    assert again.tactics["bo"].preset == "naive"
    played = play_file(again)
    assert played.refused is None and played.engine.state == table.state
    resumed = TableService(open_store(tmp_path / "s.sqlite3", durable=False)).open(table.name)
    assert resumed.state.presets == {"bo": "naive"}

    table.undo()
    assert table.state == before and table.state.presets == {}
    assert "tactics" not in table.export()
    # back to default: written as default in the state, no preset in the export
    table.redo()
    table.submit(preset("default"))
    assert table.state.presets == {"bo": "default"}
    assert "tactics" not in table.export()
    store.close()


def test_the_win_bar_and_the_advisor_play_the_preset(tmp_path: Path) -> None:
    """The dice-combat mirror, Bo first: a default Bo closes in and strikes first, a
    naive one never walks (Ana closes in and strikes first); the bar and the advisor
    (Bo's turn: the raiders' chance now) give the exact chain's figures of whichever
    preset the game master sets for Bo at the table."""
    default, naive = exact("default"), exact("naive")
    print(
        f"\nBo first: Ana wins {float(default['a']):.6f} against a default Bo, "
        f"{float(naive['a']):.6f} against a naive one"
    )
    assert default["a"] < Fraction(1, 2) < naive["a"]
    store = open_store(tmp_path / "s.sqlite3", durable=False)
    table = TableService(store).create(mirror("dice-combat", "bo", "default"), "m.yaml", seed=1)
    first = bar(table)
    assert first["method"] == "exact" and first["sides"]["a"]["win"] == float(default["a"])
    advice = table.advice_question(GM, table.seq).answer()
    assert (advice["actor"], advice["method"]) == ("bo", "exact")
    assert advice["win"] == pytest.approx(float(default["b"]), abs=1e-12)
    assert advice["preset"] == "default" and advice["choices"][0]["tactics"]

    table.submit(preset("naive"))
    now = bar(table)
    assert now["method"] == "exact" and now["sides"]["a"]["win"] == float(naive["a"])
    advice = table.advice_question(GM, table.seq).answer()
    assert advice["win"] == pytest.approx(float(naive["b"]), abs=1e-12)
    # the advisor still ranks by the default's score; a naive Bo does not take its first
    # choice, so none is called "the tactics' choice"
    assert advice["preset"] == "naive" and not any(c["tactics"] for c in advice["choices"])

    table.undo()
    assert bar(table)["sides"]["a"]["win"] == float(default["a"])
    store.close()
