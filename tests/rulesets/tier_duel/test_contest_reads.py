"""TD-5, issue 34: a contest keeps of its two fighters what its roll reads, not their
HP nor their temporary damage (``contest.rolled``), so one exact enumeration of a
contest serves every HP (the lab's transitions key it by the decision).

That is sound only while the roll reads neither through the decision: checked here by
rolling every contest of the bundled examples, on every dice path, with both fighters'
HP, max HP and temporary damage replaced by a value that refuses any use.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NoReturn

import pytest

from fracas.dice.exact import enumerate_exact
from fracas.dice.source import Dice
from fracas.engine.play import Engine
from fracas.io.files import load
from fracas.model import Action, Combatant, Encounter
from fracas.model.frozen import FrozenDict, evolve
from fracas.rulesets.memo import decide, decision_of
from fracas.rulesets.steps import roll_all
from fracas.rulesets.tier_duel.contest import Contest
from fracas.rulesets.tier_duel.sheet import Sheet

ROOT = Path(__file__).parents[3] / "examples"
FILES = [ROOT / "tier-duel.yaml", ROOT / "start" / "tier-duel.yaml"]


class Refused(AssertionError):
    pass


class Untouchable:
    """An HP nobody may read: any comparison, arithmetic or printing fails. It hashes
    (a memo of the roll keys by the whole decision) and equals only itself."""

    def _refuse(self, *_: object) -> NoReturn:
        raise Refused("the contest's roll read an HP or the temporary damage")

    def __hash__(self) -> int:
        return 0x5EED_F00D  # not an HP's own (0 hashes as 0)

    def __eq__(self, other: object) -> bool:
        if other is self:
            return True
        self._refuse()


_USES = (
    "__ne__ __lt__ __le__ __gt__ __ge__ __bool__ __index__ __int__ __add__ __radd__ "
    "__sub__ __rsub__ __mul__ __rmul__ __str__ __repr__ __format__"
)
for _name in _USES.split():
    setattr(Untouchable, _name, Untouchable._refuse)


NEVER: Any = Untouchable()


def _untouchable(c: Combatant) -> Combatant:
    never = NEVER  # one for every contest: the roll's memo compares the ones it kept
    sheet = c.sheet
    assert isinstance(sheet, Sheet)
    return evolve(c, hp=never, max_hp=never, sheet=evolve(sheet, temporary_damage=never))


def _contests() -> list[tuple[str, Encounter, Action, Contest]]:
    """Every contest the examples' actions decide, with the state it was decided in."""
    out: list[tuple[str, Encounter, Action, Contest]] = []
    for path in FILES:
        ef = load(str(path))
        engine = Engine(ef.ruleset, ef.start, ef.seed if ef.seed is not None else 1)
        engine.begin(ef.dice, ef.order)
        for i, action in enumerate(ef.actions):
            state = engine.state
            found = decision_of(ef.ruleset, state, action)
            if isinstance(found, Contest):
                out.append((f"{path.parent.name}-{path.stem}-{i + 1}", state, action, found))
            engine.act(action)
    return out


CONTESTS = _contests()
IDS = [where for where, *_ in CONTESTS]
RULES = load(str(FILES[0])).ruleset


def test_the_examples_decide_contests_of_each_kind() -> None:
    assert {c.event for *_, c in CONTESTS} == {"melee", "stealth"}


@pytest.mark.parametrize(("where", "state", "action", "contest"), CONTESTS, ids=IDS)
def test_TD_5_a_contests_roll_reads_no_hp_of_its_fighters(
    where: str, state: Encounter, action: Action, contest: Contest
) -> None:
    blind = evolve(contest, actor=_untouchable(contest.actor), target=_untouchable(contest.target))

    def roll(dice: Dice) -> int:
        return len(roll_all(RULES, state, blind, dice))

    assert enumerate_exact(roll).paths > 1  # every path rolled, no HP read


@pytest.mark.parametrize(("where", "state", "action", "contest"), CONTESTS, ids=IDS)
def test_TD_5_a_contest_decided_at_other_hp_is_the_same_decision(
    where: str, state: Encounter, action: Action, contest: Contest
) -> None:
    hurt = {
        cid: evolve(c, hp=max(1, c.hp - 3), sheet=evolve(c.sheet, temporary_damage=5))
        for cid, c in state.combatants.items()
    }
    other = evolve(state, combatants=FrozenDict(hurt))
    assert other != state
    assert decide(RULES, other, action) == contest
