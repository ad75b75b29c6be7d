"""What the memo of decisions by what was read keeps (issue 34, item 2): a decision is
kept only where deciding left nothing holding the traced state or its traced
combatants (``fracas.rulesets.memo._held``, reference counts); a decision of plain
values is kept, and found again for a state that differs in a combatant it never read;
a refusal that read neither the action's target nor its tile is marked as refusing
every target (issue 34, item 3)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from fracas.engine.may_do import _required_values, param_choices
from fracas.engine.play import Engine
from fracas.errors import FracasError
from fracas.io.files import load
from fracas.lab.fight import file_start
from fracas.model import Action, Encounter
from fracas.rulesets import memo
from fracas.rulesets.base import Ruleset, decide, decision_of

EXAMPLE = Path("examples/dice-combat.yaml")
EXAMPLES = sorted(Path("examples").glob("*.yaml"))


@dataclasses.dataclass(frozen=True)
class _Holding:
    """A decision that holds something of the state it was decided in."""

    held: Any


@pytest.fixture
def fresh() -> Iterator[None]:
    """The process's memo of decisions by what was read, empty for the test and after."""
    memo._by_reads.forget()
    yield
    memo._by_reads.forget()


def _start() -> tuple[Ruleset, Encounter]:
    ef = load(EXAMPLE)
    return ef.ruleset, file_start(ef)


def _deciding(monkeypatch: pytest.MonkeyPatch, make: Callable[[Encounter], Any]) -> list[bool]:
    """``decide`` answering ``make(state)`` after reading the actor alone; per call,
    whether it was asked in a traced state (it keeps no state: that would count)."""
    asked: list[bool] = []

    def decide(rules: Ruleset, state: Encounter, action: Action) -> Any:
        asked.append(type(state.combatants) is memo._Traced)
        state.get(action.actor)  # read: the actor's record, by id
        return make(state)

    monkeypatch.setattr(memo, "decide", decide)
    return asked


def _hurt(state: Encounter, cid: str) -> Encounter:
    c = state.get(cid)
    return state.with_combatant(dataclasses.replace(c, hp=c.hp - 1))


@pytest.mark.usefixtures("fresh")
@pytest.mark.parametrize(
    "make",
    [
        lambda s: _Holding(s),  # the traced state itself
        lambda s: _Holding(s.combatants),  # its traced combatants
        lambda s: _Holding(lambda: s.get("bo")),  # a closure that looks later
        lambda s: _Holding(iter(s.combatants.values())),  # a view over them
    ],
    ids=["state", "combatants", "closure", "iterator"],
)
def test_a_decision_holding_the_traced_state_is_not_kept(
    monkeypatch: pytest.MonkeyPatch, make: Callable[[Encounter], Any]
) -> None:
    rules, state = _start()
    asked = _deciding(monkeypatch, make)
    action = Action(state.turn.actor, "end_turn")
    kept = len(memo._by_reads)
    first = decision_of(rules, state, action)
    again = decision_of(rules, _hurt(state, "bo"), action)
    assert len(memo._by_reads) == kept  # nothing kept
    # traced, then the plain way with the real state, each time
    assert asked == [True, False, True, False]
    assert again is not first


@pytest.mark.usefixtures("fresh")
def test_a_decision_of_values_is_kept_and_found_by_what_was_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rules, state = _start()
    asked = _deciding(monkeypatch, lambda s: _Holding((s.turn.actor, 3)))
    action = Action(state.turn.actor, "end_turn")
    other = next(cid for cid in state.combatants if cid != state.turn.actor)
    kept = len(memo._by_reads)
    first = decision_of(rules, state, action)
    assert len(memo._by_reads) == kept + 1 and len(asked) == 1
    assert decision_of(rules, _hurt(state, other), action) is first  # never read: found
    assert len(asked) == 1
    decision_of(rules, _hurt(state, state.turn.actor), action)  # read: decided again
    assert len(asked) == 2


def _played_states(path: Path) -> list[tuple[Ruleset, Encounter]]:
    """Every state of the example's fight, before each of its actions and after them."""
    ef = load(path)
    engine = Engine(ef.ruleset, ef.start, ef.seed if ef.seed is not None else 1)
    engine.begin(ef.dice, ef.order)
    out = [(ef.ruleset, engine.state)]
    for action in ef.actions:
        engine.act(action)
        out.append((ef.ruleset, engine.state))
    return out


@pytest.mark.usefixtures("fresh")
def test_issue_34_item_3_a_refusal_that_read_no_target_refuses_every_target() -> None:
    """A refusal whose deciding read neither the action's target nor its tile is marked
    ``any_target``; deciding the same action at every other combatant of the five
    examples' fights, state by state, refuses it with the same words (the lab then
    asks one target, not each). A refusal that read the target (DC-6's reach, a
    self-target) is not marked."""
    marked = unmarked = 0
    states = [one for path in EXAMPLES for one in _played_states(path)]
    for rules, state in states:
        actor = state.turn.actor
        for spec in rules.contract.actions:
            choices = param_choices(rules, state, actor, spec)
            if spec.targets == "none" or spec.off_turn:
                continue
            if any(not choices.get(p) for p in spec.required):
                continue
            for params in _required_values(spec, choices):
                tries = [Action(actor, spec.name, cid, params=params) for cid in state.combatants]
                for t in tries:
                    got = decision_of(rules, state, t)
                    if not isinstance(got, FracasError):
                        continue
                    if not getattr(got, "any_target", False):
                        unmarked += 1
                        continue
                    marked += 1
                    for other in tries:
                        with pytest.raises(FracasError) as refused:
                            decide(rules, state, other)
                        assert (refused.value.code, str(refused.value)) == (got.code, str(got))
    assert marked > 0 and unmarked > 0, (marked, unmarked)
