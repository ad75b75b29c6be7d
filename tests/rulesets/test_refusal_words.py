"""Refusals in words with the rule ID after them (issue 22, item 8): a game master reads
what is wrong first and the rule it applies after it ("'bo' is 3 tiles away; melee
reaches 1 tile, diagonals included (DC-6)"), never a rule ID alone or first. Each
ruleset's table of refusals (``refusal_rules``, its rules text's "Refusals" table)
names the rules of each code; the words that cite none get them (Ruleset.cite).

Walked here: every refusal the examples meet in "may do now" (what the page shows
under each greyed action) at every state of every example, each ruleset's table, and
one refusal per ruleset through the engine, word for word."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fracas.engine.may_do import options_now
from fracas.errors import FracasError, Refusal
from fracas.io.files import parse_text, play_file
from fracas.rulesets import RULESETS
from fracas.rulesets.base import RULE_ID, Ruleset, cite
from fracas.words.rule_text import rule_texts
from tests.helpers import play

ROOT = Path(__file__).parents[2] / "examples"
EXAMPLES = sorted([*ROOT.glob("*.yaml"), *(ROOT / "start").glob("*.yaml")])


def words_then_rule(ruleset: Ruleset, refusal: FracasError) -> bool:
    """No rule ID first; where the code has rules, words, then a rule ID."""
    message = refusal.message
    first = RULE_ID.search(message)
    if first is not None and not re.search(r"[a-z]{3}", message[: first.start()]):
        return False  # a rule ID first, or alone
    return refusal.code not in ruleset.contract.refusal_rules or first is not None


@pytest.mark.parametrize("example", EXAMPLES, ids=[f"{p.parent.name}/{p.name}" for p in EXAMPLES])
def test_every_refusal_an_example_meets_reads_words_then_its_rule(example: Path) -> None:
    ef = parse_text(example.read_text(), example.name)
    played = play_file(ef)
    ruleset = ef.ruleset
    cited: set[str] = set()
    for state in [*played.before, played.engine.state]:
        for actor in state.combatants:
            for option in options_now(ruleset, state, actor):
                refusal = option.refusal
                if refusal is None:
                    continue
                assert words_then_rule(ruleset, refusal), (refusal.code, refusal.message)
                if refusal.code in ruleset.contract.refusal_rules:
                    cited.add(refusal.code)
    print(f"{example.name}: codes cited {sorted(cited)}")


@pytest.mark.parametrize("ruleset", RULESETS, ids=[r.about.name for r in RULESETS])
def test_each_code_of_the_refusals_table_cites_rules_that_have_a_statement(
    ruleset: type[Ruleset],
) -> None:
    texts = rule_texts(ruleset.about.name)
    assert ruleset.contract.refusal_rules  # every ruleset has a table
    for code, ids in ruleset.contract.refusal_rules.items():
        named = RULE_ID.findall(ids)
        assert named and ", ".join(named) == ids, (code, ids)
        assert all(i in texts for i in named), (code, ids)


def test_cite_puts_the_rules_after_the_words_and_leaves_a_cited_refusal_alone() -> None:
    ruleset = parse_text(
        "ruleset: wasteland\ncombatants:\n  - {id: a}\n  - {id: b}\n", "w.yaml"
    ).ruleset
    plain = Refusal("out_of_reach", "'b' is 3 tiles away; the knife reaches 1 tile")
    assert cite(ruleset, plain).message == ("'b' is 3 tiles away; the knife reaches 1 tile (WL-26)")
    cited = Refusal("not_cardinal", "'b' is diagonal (WL-26)")
    assert cite(ruleset, cited) is cited
    other = Refusal("self_target", "A cannot attack itself")  # no rule in the table
    assert cite(ruleset, other) is other


FIGHTS: dict[str, tuple[str, str, str]] = {
    "dice-combat": (
        """
        ruleset: dice-combat
        order: [ana, bo]
        combatants:
          - {id: ana, side: players, at: [0, 0], hand: knife}
          - {id: bo, side: raiders, at: [3, 0], hand: knife}
        actions:
          - {actor: ana, do: attack, target: bo}
        """,
        "out_of_reach",
        "'bo' is 3 tiles away; melee reaches 1 tile, diagonals included (DC-6)",
    ),
    "wasteland": (
        """
        ruleset: wasteland
        combatants:
          - id: vera
            side: players
            at: [0, 0]
            weapons: [{name: knife, kind: melee, damage: 1d4, ap: 2}]
          - {id: rat, side: raiders, at: [3, 0]}
        actions:
          - {actor: vera, do: attack, target: rat}
        """,
        "out_of_reach",
        "'rat' is 3 tiles away; the knife reaches 1 tile (WL-26)",
    ),
    "soak": (
        """
        ruleset: soak
        combatants:
          - {id: ana, at: [0, 0], hp: 0, weapons: [{name: sword, dice: 1d8}]}
          - {id: bo, at: [1, 0]}
        actions:
          - {actor: ana, do: attack, target: bo}
        """,
        "down",
        "'ana' is down (0 HP: the health track is full) (SK-G4)",
    ),
    "tier-duel": (
        """
        ruleset: tier-duel
        combatants:
          - {id: ana, at: [0, 0], hp: 0}
          - {id: bo, at: [1, 0]}
        actions:
          - {actor: ana, do: attack, target: bo}
        """,
        "down",
        "'ana' is down (0 HP) and cannot act (TD-G1)",
    ),
    "escalation": (
        """
        ruleset: escalation
        combatants:
          - {id: ana, at: [0, 0], hp: 0, weapons: [{is: melee, name: axe}]}
          - {id: bo, at: [1, 0]}
        actions:
          - {actor: ana, do: attack, target: bo}
        """,
        "down",
        "'ana' has 0 HP and cannot act (ES-G3)",
    ),
}


@pytest.mark.parametrize("name", sorted(FIGHTS))
def test_a_refusal_through_the_engine_reads_words_then_its_rule(name: str) -> None:
    text, code, message = FIGHTS[name]
    p = play(text)
    assert p.error is not None
    refusal = p.error[1]
    assert refusal.code == code
    assert refusal.message == message
    assert words_then_rule(p.file.ruleset, refusal)
