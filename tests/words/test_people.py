"""Issue 35, "Words for people" (``fracas.words.people``): what the page reads. Real
refusals of the five rulesets, produced on the bundled examples through the table, read
as plain words with names (never a quoted id, a snake_case command, a backtick or a
rule ID in the sentence) and carry their rule IDs apart; a log heading is a sentence
(``Ana attacks Bo``), an undo says what it took back, a note is "Note on Bo: ...", a
record of an action with no verb of its own reads in a generic sentence; a summary
reads in words."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from fracas.engine.catalogue import core_actions
from fracas.errors import FracasError
from fracas.io.store import MEMORY, open_store
from fracas.model import Action
from fracas.rulesets import rulesets
from fracas.rulesets.base import RULE_ID
from fracas.table import GAME_MASTER, Act, Identity, Table, TableService, View
from fracas.words.people import (
    Said,
    action_sentence,
    line_said,
    plain,
    refusal_words,
    request_sentence,
    summary_words,
    words,
)

EXAMPLES = Path(__file__).parents[2] / "examples"
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")
RAW = re.compile(r"#\d+ \w+:")
QUOTED_ID = re.compile(r"'[a-z0-9_-]+'")


def _table(example: str) -> Table:
    text = (EXAMPLES / f"{example}.yaml").read_text().split("\nactions:")[0]
    return TableService(open_store(MEMORY)).create(text, f"{example}.yaml", name="f", seed=5)


def _refused(table: Table, *actions: Mapping[str, Any], by: Identity = GAME_MASTER) -> Said:
    """Play ``actions`` on ``table``; the last one is refused: its people's words."""
    *played, last = actions
    for action in played:
        table.submit(Act(action), by)
    with pytest.raises(FracasError) as refused:
        table.submit(Act(last), by)
    return refusal_words(refused.value.code, refused.value.message, table.state)


def _plain(said: Said) -> None:
    """No developer's text in the sentence."""
    text = said.text
    assert not SNAKE.search(text) and "`" not in text, text
    assert not RULE_ID.search(text) and not QUOTED_ID.search(text) and not RAW.search(text), text


ATTACK_BO = {"actor": "ana", "do": "attack", "target": "bo"}


@pytest.mark.parametrize(
    ("example", "actions", "sentence", "rules"),
    [
        (
            "dice-combat",
            [ATTACK_BO, ATTACK_BO],
            "Ana has used its action this turn — end your turn to go on",
            ("DC-23",),
        ),
        (
            "dice-combat",
            [{"actor": "ana", "do": "end_turn"}, {"actor": "bo", "do": "throw", "target": "ana"}],
            "Explosives cannot be used in the first round of combat (round 1)",
            ("DC-28",),
        ),
        (
            "tier-duel",
            [ATTACK_BO, ATTACK_BO],
            "Ana has spent its contested action this round — end your turn to go on",
            ("TD-G6",),
        ),
        (
            "tier-duel",
            [{"actor": "ana", "do": "reload"}],
            "Ana holds sword: only a crossbow or firearm is reloaded",
            (),
        ),
        (
            "wasteland",
            [{"actor": "vera", "do": "peek"}],
            "Vera is not in full cover: no need to peek",
            ("WL-32",),
        ),
        (
            "wasteland",
            [
                {"actor": "vera", "do": "move", "to": [2, 0], "ap": 2},
                {"actor": "vera", "do": "attack", "target": "raider", "burst": True},
                {"actor": "vera", "do": "attack", "target": "raider", "burst": True},
            ],
            "Vera has 3 AP; this costs 4 — end your turn to go on",
            ("WL-5", "WL-34"),
        ),
        (
            "escalation",
            [{"actor": "ana", "do": "attack", "target": "ogre"}] * 3,
            "Ana has used both its actions this round — end your turn to go on, or make it a "
            "free attack",
            ("ES-1",),
        ),
        (
            "soak",
            [{"actor": "mara", "do": "attack", "target": "brute"}],
            "The Brute is 8 tiles away; a sword attack reaches 1 tile, diagonals included",
            (),
        ),
        (
            "soak",
            [
                {"actor": "mara", "do": "move", "to": [7, 0]},
                *[{"actor": "mara", "do": "attack", "target": "brute"}] * 4,
            ],
            "Mara has 0 AP; the attack costs 1 — end your turn to go on",
            ("SK-1", "SK-G1"),
        ),
    ],
    ids=[
        "dice-combat-DC-23",
        "dice-combat-DC-28",
        "tier-duel-TD-G6",
        "tier-duel-reload",
        "wasteland-WL-32",
        "wasteland-ap",
        "escalation-ES-1",
        "soak-reach",
        "soak-ap",
    ],
)
def test_a_rulesets_refusal_reads_in_words_with_its_rules_apart(
    example: str, actions: list[Mapping[str, Any]], sentence: str, rules: tuple[str, ...]
) -> None:
    said = _refused(_table(example), *actions)
    assert said == Said(sentence, rules)
    _plain(said)


def test_the_tables_refusals_read_in_words() -> None:
    table = _table("dice-combat")
    pat = Identity.player("Pat", "cy")
    attack = {"actor": "cy", "do": "attack", "target": "ana"}
    assert _refused(table, attack, by=pat) == Said(
        "It is Ana's turn; Cy may attack only in its own turn (or the game master may)"
    )
    heal = {"actor": "cy", "do": "heal", "amount": 2}
    assert _refused(table, heal, by=pat) == Said("Only the game master may heal; Pat is a player")
    other = {"actor": "dee", "do": "attack", "target": "bo"}
    assert _refused(table, other, by=pat) == Said("Pat does not play Dee; its combatants: Cy")


def test_the_example_in_the_issue_reads_as_the_issue_asks() -> None:
    table = _table("dice-combat")
    message = "'dee' has used its 1 action(s) this turn; end_turn to go on (DC-23)"
    assert refusal_words("no_action_left", message, table.state) == Said(
        "Dee has used its action this turn — end your turn to go on", ("DC-23",)
    )
    # a combatant the reader may not see is nobody it could name
    hidden = refusal_words("no_action_left", message, table.state, {"dee"})
    assert hidden.text.startswith("Someone has used its action")


def test_every_option_refused_on_the_examples_reads_in_words() -> None:
    """Every option's refusal and summary, for the game master and each combatant's
    player, at every record of every example played from its start."""
    import yaml

    from fracas.web.shown import page_options

    checked = 0
    for example in ("dice-combat", "wasteland", "soak", "tier-duel", "escalation"):
        table = _table(example)
        actions = yaml.safe_load((EXAMPLES / f"{example}.yaml").read_text())["actions"]
        for i in range(len(actions) + 1):
            readers = [GAME_MASTER, *(Identity.player("P", c) for c in table.state.combatants)]
            for reader in readers:
                for options in page_options(View(table.snapshot(), reader)).values():
                    for o in options:
                        _plain(Said(o["summary_words"]))
                        if o["refusal"] is not None:
                            _plain(Said(o["refusal"]["words"]))
                            assert set(o["refusal"]["rules"]) >= set(
                                RULE_ID.findall(o["refusal"]["message"])
                            )
                            checked += 1
            if i < len(actions):
                table.submit(Act(actions[i]))
    assert checked > 50


def test_the_one_pass() -> None:
    names = {"bo": "Bo", "raider": "the raider"}
    assert plain(
        "'bo' is 2 tiles away; melee reaches 1 tile(s), diagonals included (DC-6)", names
    ) == (Said("Bo is 2 tiles away; melee reaches 1 tile, diagonals included", ("DC-6",)))
    assert plain("has used its 2 reaction(s)") == Said("Has used its 2 reactions")
    assert plain("'raider' has no position on the map", names).text == (
        "The raider has no position on the map"
    )
    assert plain("[4, 1] is 5 tiles away").text == "Tile 4, 1 is 5 tiles away"
    assert plain("aims at tile [4, 1]").text == "Aims at tile 4, 1"
    assert plain("armor (reduced, never below 0; TD-13): HP 15 -> 13") == Said(
        "Armor (reduced, never below 0): HP 15 -> 13", ("TD-13",)
    )
    assert plain("a melee attack (WL-5 to WL-26)") == Said("A melee attack", ("WL-5", "WL-26"))
    assert plain("set `mode: single|burst` with `clear_shot: true`").text == (
        "Set mode single or burst with clear shot"
    )
    assert plain("may not undo #3: it rolled dice").text == "May not undo action 3: it rolled dice"
    assert words("accuracy_mod") == "accuracy modifier" and words("max_hp") == "max HP"


def test_every_summary_reads_in_words() -> None:
    for ruleset in rulesets():
        for spec in (*ruleset.contract.actions, *core_actions(ruleset)):
            said = summary_words(spec.summary)
            _plain(said)
            assert said.rules == tuple(dict.fromkeys(RULE_ID.findall(spec.summary)))
    assert summary_words("take `item` from the inventory into the hand") == Said(
        "Take item from the inventory into the hand"
    )


NAMES = {"ana": "Ana", "bo": "Bo", "cy": "Cy"}


@pytest.mark.parametrize(
    ("action", "sentence"),
    [
        (Action("ana", "attack", "bo"), "Ana attacks Bo"),
        (Action("ana", "attack", params={"targets": ("bo", "cy")}), "Ana attacks Bo, Cy"),
        (Action("ana", "throw", at=(2, 3)), "Ana throws at tile 2, 3"),
        (Action("ana", "attack", "bo", params={"burst": True, "called": "head"}),
         "Ana attacks Bo (burst, called: head)"),
        (Action("ana", "equip", params={"item": "knife"}), "Ana equips the knife"),
        (Action("ana", "cast", "bo", params={"spell": "firebolt"}), "Ana casts firebolt at Bo"),
        (Action("ana", "end_turn"), "Ana ends its turn"),
        (Action("ana", "move", params={"to": (4, 1)}), "Ana moves to tile 4, 1"),
        (Action("ana", "move", params={"to": (4, 1), "walk": True}), "Ana walks to tile 4, 1"),
        (Action("ana", "overwatch_attack", "bo"), "Ana takes an overwatch shot at Bo"),
        (Action("ana", "whirl_about", "bo"), "Ana uses whirl about on Bo"),
        (Action("bo", "heal", params={"amount": 3}), "The game master heals Bo by 3"),
        (Action("bo", "damage"), "The game master damages Bo"),
        (Action("bo", "note", params={"text": "key"}), "The game master writes a note on Bo"),
        (Action("bo", "status", params={"add": "burning"}), "The game master gives Bo burning"),
        (Action("bo", "hide"), "The game master hides Bo from the players"),
        (Action("ana", "policy", params={"winbar": True}),
         "The game master turns the win bar on for players"),
        (Action("ana", "policy", params={"player_calls": ["defend_edge"]}),
         "The game master lets players make these calls themselves: defend edge"),
        (Action("ana", "roll", params={"notation": "2d6+1"}), "A free roll of 2d6+1"),
        (Action("ana", "finish"), "The game master ends the fight"),
    ],
)  # fmt: skip
def test_an_action_reads_as_a_sentence(action: Action, sentence: str) -> None:
    assert action_sentence(action, NAMES) == sentence
    _plain(Said(sentence))


def test_a_request_reads_in_words() -> None:
    action = Action("ana", "attack", "bo", params={"edge": "advantage", "aim": True})
    assert request_sentence("Pat", action, ["edge", "aim"], NAMES) == (
        "Pat asks for advantage and aim on Ana's attack"
    )


def test_the_log_of_a_played_table_reads_as_sentences() -> None:
    """Headings, events, a note, a policy change, an undo and a redo, and a covered
    record, as the game master and a player read them."""
    table = _table("dice-combat")
    for action in (
        ATTACK_BO,
        {"actor": "bo", "do": "note", "text": "has the vault key"},
        {"actor": "ana", "do": "policy", "winbar": True},
        {"actor": "ana", "do": "end_turn"},
        {"actor": "cy", "do": "hide"},
        {"actor": "cy", "do": "move", "to": [3, 3]},
    ):
        table.submit(Act(action))
    table.undo()
    table.redo()
    snap = table.snapshot()

    def lines(reader: Identity) -> list[str]:
        view = View(snap, reader)
        return [
            line_said(e, snap.before[e.seq], view.unseen(snap.state)).text for e in view.lines()
        ]

    gm = lines(GAME_MASTER)
    assert "Ana attacks Bo" in gm and "Note on Bo: has the vault key" in gm
    assert "The game master turns the win bar on for players" in gm
    undone = gm.index("Taken back: Cy moves to tile 3, 3")
    assert gm[undone + 1 :] == ["Put back: Cy moves to tile 3, 3", "Cy moves to tile 3, 3"]
    pat = lines(Identity.player("Pat", "ana"))
    assert "The game master acts out of sight" in pat and not any("vault" in t for t in pat)
    for text in gm + pat:
        _plain(Said(text))
