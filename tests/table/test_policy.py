"""The table's policy is part of the encounter: read from the file's ``policy:``,
changed by the game master as a ``policy`` record (logged, undone like any), exported in
the file, stored and resumed, and shown to players in words."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from fracas.errors import FileError, FracasError
from fracas.io.files import parse_text, play_file
from fracas.io.store import open_store
from fracas.model import Action, Policy
from fracas.table import Identity, SetPolicy, TableService, View
from fracas.words.render import entry_words

FIGHT = """\
ruleset: dice-combat
seed: 5
order: [ana, bo]
policy: {enemy_hp: exact, player_calls: [edge]}
combatants:
  - {id: ana, name: Ana, side: players, at: [0, 0], hand: {is: pistol, loaded: 6}}
  - {id: bo, name: Bo, side: raiders, at: [1, 0], hand: knife}
"""


def test_a_files_policy_is_the_encounters() -> None:
    ef = parse_text(FIGHT, "fight.yaml")
    assert ef.start.policy == Policy(enemy_hp="exact", player_calls=frozenset({"edge"}))
    assert parse_text(FIGHT.replace("policy: {enemy_hp: exact, player_calls: [edge]}\n", ""),
                      "f.yaml").start.policy == Policy()  # fmt: skip


@pytest.mark.parametrize(
    ("policy", "code", "says"),
    [
        ("{player_calls: [luck]}", "unknown_call", "'luck' is not a judgement call of dice-combat"),
        ("{enemy_hp: sometimes}", "bad_value", "enemy_hp"),
        ("{undo: true}", "unknown_field", "'undo' is not a known field; valid: player_undo"),
    ],
)
def test_a_bad_policy_is_refused_naming_its_line(policy: str, code: str, says: str) -> None:
    text = FIGHT.replace("{enemy_hp: exact, player_calls: [edge]}", policy)
    with pytest.raises(FileError) as err:
        parse_text(text, "fight.yaml")
    assert err.value.code == code
    assert says in f"{err.value.where} {err.value.message}"
    assert err.value.where.startswith("fight.yaml:4: policy")


def test_a_policy_change_is_a_logged_record_undone_exported_and_resumed(tmp_path: Path) -> None:
    store = open_store(tmp_path / "s.sqlite3", durable=False)
    service = TableService(store)
    table = service.create(FIGHT, "fight.yaml", seed=1)
    seq = table.seq
    table.submit(SetPolicy({"player_undo": True, "enemy_hp": "label"}))
    assert table.seq == seq + 1 and table.state.policy.player_undo
    lines = [entry_words(e) for e in View(table.snapshot(), Identity.gm()).lines(seq)]
    assert lines[-1] == (
        "GM sets the table: players may undo their own latest action when it rolled no "
        "die; players see enemy HP as a label (healthy, hurt, bloodied, down)"
    )
    pat = View(table.snapshot(), Identity.player("Pat", "ana")).state()["policy"]
    assert pat["enemy_hp"] == "label" and pat["words"][0].startswith("players may undo")
    exported = table.export()
    again = play_file(parse_text(yaml.safe_dump(exported), "again.yaml"))
    assert again.refused is None and again.engine.state.policy == table.state.policy
    resumed = TableService(open_store(tmp_path / "s.sqlite3", durable=False)).open(table.name)
    assert resumed.state.policy == table.state.policy
    table.undo()
    assert table.state.policy == Policy(enemy_hp="exact", player_calls=frozenset({"edge"}))
    with pytest.raises(FracasError) as err:
        table.submit(SetPolicy({"player_undo": True}), Identity.player("Pat", "ana"))
    assert err.value.code == "forbidden"
    with pytest.raises(FracasError) as err:
        table.submit(SetPolicy({"enemy_hp": "often"}))
    assert err.value.code == "bad_value" and table.state.policy.enemy_hp == "exact"
    store.close()


def test_wl31_a_reaction_is_taken_off_turn_and_an_attack_is_not() -> None:
    """What a ruleset declares off-turn (WL-31's Reactions) reaches the rules in another's
    turn: Knox's player is refused by the rules (Knox has no Hit the Deck), not by the
    turn; an attack in Vera's turn is ``not_your_turn``."""
    example = (Path(__file__).parents[2] / "examples" / "wasteland.yaml").read_text()
    table = TableService(open_store(":memory:")).create(
        example.split("\nactions:")[0] + "\n", "w.yaml", seed=1
    )
    knox = Identity.player("Kit", "knox")
    assert table.state.turn.actor == "vera"
    seq = table.seq
    with pytest.raises(FracasError) as err:
        table.act(Action("knox", "reaction", params={"name": "hit_the_deck"}), knox)
    assert err.value.code == "not_available"
    assert err.value.message == "'knox' cannot hit the deck (needs hit_the_deck) (WL-31, WL-36)"
    with pytest.raises(FracasError) as err:
        table.act(Action("knox", "attack", "vera"), knox)
    assert err.value.code == "not_your_turn"
    assert table.seq == seq
