"""How exact odds read a node's paths (``fracas.odds.folds``): the summary of a finished
path and the state a path leaves, each change made once for all the paths that share it
and each combatant's own changes followed apart, must be exactly what folding every
event, one after the other, gives. Checked on every dice path of the last action of
every example and of the benchmark's frag grenade on three victims (P-WL-3), of a soak
attack (its damage is a ruleset event of its own, SK-15) and on events written out."""

from __future__ import annotations

import json
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from fracas.dice.exact import enumerate_exact
from fracas.dice.source import Dice, GivenDice, RandomDice
from fracas.engine.play import advance_to
from fracas.io.files import EncounterFile, load, parse_text, play_file
from fracas.model import (
    Attempted,
    Damaged,
    Encounter,
    Event,
    FieldsSet,
    StatusCleared,
    StatusSet,
    ValueSet,
    fold,
)
from fracas.model.events import changes_one
from fracas.odds.action import action_odds
from fracas.odds.folds import Finals, Folds, finished, merge, relevant, summary
from fracas.rulesets.base import decided, roll
from fracas.rulesets.soak.events import Harmed
from fracas.rulesets.steps import run_steps
from fracas.rulesets.wasteland.events import EffectGained
from fracas.rulesets.wasteland.turn_events import PeekEnded
from tests.rulesets.wasteland.support import act, doc, who

ROOT = Path(__file__).resolve().parents[2]
FRAG = {"name": "frag", "kind": "explosive", "damage": "3d6", "ap": 4, "count": 1}
FRAG_ON_THREE = doc(
    who("a", per_mod=1, skills={"explosives": 2}, weapons=[FRAG]),
    who("b", at=(4, 0)),
    who("c", at=(4, 1), dt={"physical": 2}),
    who("d", at=(5, 1), dt={"physical": 1}, dr={"physical": 10}),
    actions=[act("a", "throw", "b")],
)
"""The benchmark's frag on three (bench/odds_cases.py), the last with DR as well."""


def _files() -> dict[str, EncounterFile]:
    files = {p.stem: load(str(p)) for p in sorted((ROOT / "examples").glob("*.yaml"))}
    files["frag on three"] = parse_text(json.dumps(FRAG_ON_THREE), "frag.json")
    return files


FILES = _files()


def _paths(ef: EncounterFile) -> tuple[Encounter, list[tuple[Event, ...]]]:
    """The state before the file's last action and every event of each dice path of it
    (its whole roll, step after step), over every class of every pool."""
    engine = play_file(ef, len(ef.actions) - 1).engine
    ruleset, action, before = ef.ruleset, ef.actions[-1], engine.state
    if before.turn.actor != action.actor:  # the turns before it end first, as in play
        dice = GivenDice(action.dice, RandomDice(engine.seed))
        before = fold(before, advance_to(ruleset, before, action.actor, dice))
    decision = decided(ruleset, before, action)

    def events(dice: Dice) -> tuple[Event, ...]:
        return tuple(run_steps(partial(roll, ruleset), before, decision, dice))

    dist = enumerate_exact(events, max_rolls=8)
    return before, [*dist.outcomes, *dist.cut]


@pytest.mark.parametrize("name", FILES)
def test_every_paths_summary_and_state_equal_a_plain_fold(name: str) -> None:
    ef = FILES[name]
    ruleset = ef.ruleset
    before, paths = _paths(ef)
    assert len(paths) > 1
    finals, folds = Finals(ruleset, before), Folds(before)
    downs = 0
    for events in paths:
        whole = fold(before, events)
        known = merge((), events)
        want = summary(ruleset, known, whole)
        assert finals.path((), finished(events)) == (known, want), events
        assert finals.path((), events) == (known, want), events
        assert merge((), finished(events)) == known
        assert folds.fold(relevant(events)) == whole
        downs += sum(down for *_, down in want)
    if name == "frag on three":  # the blast takes some of them down on some paths
        assert downs > 0


def test_a_change_of_more_than_one_combatant_between_them_is_folded_in_order() -> None:
    ef = FILES["wasteland"]
    before = play_file(ef, len(ef.actions) - 1).engine.state
    raider, vera = before.get("raider"), before.get("vera")
    runs: list[tuple[Event, ...]] = [
        (Damaged("raider", raider.hp), StatusSet("vera", "dying", {})),
        (
            Damaged("raider", raider.hp - 1, "a cause"),
            FieldsSet("raider", {"hp": 5}, {}),  # not of one combatant: 5 HP, then 0
            Damaged("raider", 5),
            StatusCleared("vera", "dying"),
        ),
        (
            Damaged("raider", raider.hp - 1),
            ValueSet("opening", 1),
            Damaged("vera", vera.hp),
        ),
        (StatusSet("vera", "dying", {}), StatusCleared("vera", "dying")),
    ]
    finals = Finals(ef.ruleset, before)
    downs = []
    so_far = (("raider", True, 0), ("vera", None, 0))
    for events in runs * 2:  # the second time through, every change is known already
        known = merge(so_far, events)
        got = finals.path(so_far, events)
        assert got == (known, summary(ef.ruleset, known, fold(before, events)))
        downs.append([down for *_, down in got[1]])
    assert downs == [[True, True], [True, False], [False, True], [False, False]] * 2


def _kinds() -> list[tuple[type[Any], bool]]:
    return [
        (Damaged, True),
        (StatusSet, True),
        (StatusCleared, True),
        (EffectGained, True),  # a StatusSet with its own line
        (PeekEnded, True),
        (Harmed, True),  # SK-15: the health track and hp, its target's alone
        (Attempted, False),
        (FieldsSet, False),
        (ValueSet, False),
    ]


@pytest.mark.parametrize(("kind", "one"), _kinds(), ids=lambda k: getattr(k, "__name__", ""))
def test_changes_one_is_said_of_the_core_events_of_one_combatant_only(
    kind: type[Event], one: bool
) -> None:
    assert changes_one(kind) is one


def test_P_WL_3_the_frag_on_three_equals_the_plain_enumeration_exactly() -> None:
    """Without CRIT dice (``explosive_crits: false``) nothing is cut: every figure of the
    fast enumeration (pools classed from totals, paths read as above) equals rolling
    every die and following every path whole."""
    hurt = [{**c, "max_hp": 9} if c["id"] == "d" else c for c in FRAG_ON_THREE["combatants"]]
    d = {**FRAG_ON_THREE, "combatants": hurt, "options": {"explosive_crits": False}}
    ef = parse_text(json.dumps(d), "frag.json")
    state = play_file(ef, 0).engine.state
    fast = action_odds(ef.ruleset, state, ef.actions[-1], seconds=None)
    plain = action_odds(ef.ruleset, state, ef.actions[-1], seconds=None, steps=False, pools=False)
    assert fast.truncated == plain.truncated == 0
    # WL-27: d20 + PER 1 + explosives 2 must exceed 10: 8..20 throw the 3d6, 1..7 miss
    assert fast.paths < plain.paths == 7 + 13 * 6**3
    assert fast.combatants == plain.combatants
    assert fast.combatants["b"].hit == Fraction(13, 20)
    assert fast.combatants["d"].down > 0  # 9 HP: 3d6 of 16 or more, less DT 6, DR 10%
