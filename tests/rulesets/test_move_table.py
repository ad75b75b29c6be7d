"""The move table (issue 24): each action's spec names its decide, and each decision a
decide returns (and each step a roll pauses on) rolls itself. A ruleset that breaks this
is refused when its class is created, naming the action."""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import Any

import pytest

from fracas.dice.source import Dice
from fracas.errors import FracasError
from fracas.model import Action, Encounter, Event
from fracas.rulesets import RULESETS
from fracas.rulesets.base import (
    About,
    ActionSpec,
    Contract,
    Decision,
    DieSpec,
    Rules,
    Ruleset,
    TypedRuleset,
    can_roll,
    decision_types,
)

ABOUT = About(name="bad", title="bad", rule_text="", summary="")


@dataclass(frozen=True, slots=True)
class Sheet:
    pool: int = 1


@dataclass(frozen=True, slots=True)
class Options:
    pass


@dataclass(frozen=True, slots=True)
class Hit(Decision):
    target: str

    def roll(self, rules: Rules[Options], state: Encounter, dice: Dice) -> list[Event]:
        return []


@dataclass(frozen=True, slots=True)
class NoRoll:
    target: str


@dataclass(frozen=True, slots=True)
class AbstractRoll(Decision):
    target: str


def decide_no_roll(rules: Rules[Options], state: Encounter, action: Action) -> NoRoll:
    return NoRoll("b")


def decide_abstract(rules: Rules[Options], state: Encounter, action: Action) -> Hit | AbstractRoll:
    return Hit("b")


def _contract(*actions: ActionSpec) -> Contract:
    return Contract(
        sheet=Sheet,
        options=Options,
        actions=actions,
        dice=(DieSpec("pool", 6, "every attack"),),
        default_max_hp=10,
    )


def test_an_action_without_a_decide_is_refused_by_name() -> None:
    with pytest.raises(FracasError) as info:

        class Bad(TypedRuleset[Sheet, Options, Hit]):
            about = ABOUT
            contract = _contract(ActionSpec("attack", "attack the target"))

    assert info.value.code == "no_decide"
    assert "Bad: action 'attack' has no decide" in info.value.message


@pytest.mark.parametrize("decide", [decide_no_roll, decide_abstract], ids=["plain", "abstract"])
def test_a_decision_type_without_a_roll_is_refused_by_name(decide: Any) -> None:
    with pytest.raises(FracasError) as info:

        class Bad(TypedRuleset[Sheet, Options, Hit]):
            about = ABOUT
            contract = _contract(ActionSpec("shove", "push the target", decide=decide))

    assert info.value.code == "no_roll"
    assert "action 'shove' decides a" in info.value.message
    assert "which has no roll" in info.value.message


def test_the_generics_and_the_contract_name_the_same_sheet_and_options() -> None:
    with pytest.raises(FracasError) as info:

        class Bad(TypedRuleset[Options, Options, Hit]):
            about = ABOUT
            contract = _contract()

    assert info.value.code == "bad_contract"


def _decisions_of(ruleset: type[Ruleset]) -> list[type[Decision]]:
    """Every Decision class the ruleset's package defines (decisions and the steps a roll
    pauses on)."""
    package = ruleset.__module__.rsplit(".", 1)[0]
    for info in pkgutil.iter_modules(importlib.import_module(package).__path__):
        importlib.import_module(f"{package}.{info.name}")
    out: list[type[Decision]] = []
    todo = list(Decision.__subclasses__())
    while todo:
        kind = todo.pop()
        todo += kind.__subclasses__()
        if kind.__module__.startswith(package + "."):
            out.append(kind)
    return out


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.about.name)
def test_every_action_has_a_decide_and_every_decision_a_roll(ruleset: type[Ruleset]) -> None:
    for spec in ruleset.contract.actions:
        assert spec.decide is not None, spec.name
        kinds = decision_types(spec.decide)
        assert kinds, f"{spec.name}: its decide names no decision type"
        assert all(can_roll(k) for k in kinds), spec.name
    found = _decisions_of(ruleset)
    assert found, ruleset.about.name
    assert [k.__name__ for k in found if not can_roll(k)] == []


def test_no_rulesets_code_branches_on_the_actions_name() -> None:
    """The move table dispatches: no ruleset module compares ``action.do`` (dice-combat's
    attack and throw each have their own decide, the throw's passed on as ``throw``)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "fracas" / "rulesets"
    found = [
        f"{path.relative_to(root)}:{n}"
        for path in sorted(root.rglob("*.py"))
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"action\.do\s*(==|!=|in\b|not in\b)", line)
    ]
    assert found == []
