"""escalation refusals (escalation.md 2.3): each is reported with its code, the first of
the table that applies, and consumes nothing (README: "An illegal action consumes
nothing: no die, no ammo, no item, no action").

Each test builds an encounter whose last action is the illegal one and checks:

- the action is refused with the expected code;
- the state is exactly the state of the same encounter without the illegal action
  (HP, Energy, conditions, statuses, Escalation, round, whose turn, actions used and
  attacks counted), and so are the log and the random generator;
- no die was consumed: a seeded follow-up rolls and does exactly what it does without
  the refused action before it (``Engine.act`` restores the generator).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
import yaml

from fracas.errors import Refusal
from fracas.model import Encounter
from tests.helpers import play
from tests.rulesets.builders import refused_consuming_nothing
from tests.rulesets.escalation.support import ESCALATION, SWORD

Combatants = list[dict[str, Any]]
Actions = list[dict[str, Any]]

SEED = 20260601

# Far from everyone: the follow-up is zed's blast at yan and xi (two trigger dice).
BYSTANDERS: Combatants = [
    {"id": "zed", "side": "enemies", "at": [60, 60], "weapons": ["whelm"]},
    {"id": "yan", "side": "enemies", "at": [61, 60]},
    {"id": "xi", "side": "enemies", "at": [62, 60], "size": "small"},
]
FOLLOW_UP: dict[str, Any] = {"actor": "zed", "do": "attack", "targets": ["yan", "xi"]}


def encounter(combatants: Combatants, actions: Actions, options: dict[str, Any] | None) -> str:
    data = ESCALATION.doc(*combatants, *BYSTANDERS, actions=actions, options=options, seed=SEED)
    return yaml.safe_dump(data, sort_keys=False)


def assert_refused(
    combatants: Combatants,
    actions: Actions,
    code: str,
    options: dict[str, Any] | None = None,
) -> Encounter:
    """The last action is refused with ``code`` (a ``Refusal``, no subclass) and consumes
    nothing."""

    def text(acts: Sequence[dict[str, Any]]) -> str:
        return encounter(combatants, list(acts), options)

    checked = refused_consuming_nothing(text, actions, code, FOLLOW_UP)
    assert type(checked.error) is Refusal, repr(checked.error)
    assert len(checked.follow_up.rolls) == 2  # the follow-up really draws from the seed
    return checked.state


def ana(**fields: Any) -> dict[str, Any]:
    return {"id": "ana", "side": "players", "at": [0, 0], "level": 2, "weapons": [SWORD], **fields}


def bo(**fields: Any) -> dict[str, Any]:
    return {"id": "bo", "side": "enemies", "at": [1, 0], "weapons": [SWORD], **fields}


def hit(actor: str = "ana", target: str | None = "bo", **params: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"actor": actor, "do": "attack", **params}
    if target is not None:
        out["target"] = target
    return out


def test_the_check_sees_a_consumed_action() -> None:
    """Not blind: a legal attack changes the state, the log and the generator."""
    after = play(encounter([ana(), bo()], [hit()], None))
    before = play(encounter([ana(), bo()], [], None))
    assert after.error is None
    assert after.state != before.state
    assert after.engine.random.getstate() != before.engine.random.getstate()
    assert len(after.records) == len(before.records) + 1


# --- each code ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sheet", "statuses"), [({"hp": 0}, None), ({}, {"dead": {"by": "bo"}})], ids=["0hp", "dead"]
)
@pytest.mark.parametrize("do", ["attack", "act"])
def test_down(sheet: dict[str, Any], statuses: dict[str, Any] | None, do: str) -> None:
    """ES-G3, ES-20: an actor at 0 HP or dead. bo's turn would also have to advance."""
    setup: Actions = []
    if statuses is not None:
        setup = [{"actor": "ana", "do": "set", "statuses": statuses}]
    action = hit(free=True) if do == "attack" else {"actor": "ana", "do": "act"}
    people = [bo(), ana(**sheet)]  # bo first in the file; players still go first
    refused = assert_refused(people, [*setup, {"actor": "ana", "do": "end_turn"}, action], "down")
    assert refused.turn.actor == "bo"


def test_down_may_still_end_turn_move_and_set() -> None:
    p = play(
        encounter(
            [ana(hp=0), bo()],
            [
                {"actor": "ana", "do": "move", "to": [1, 1]},
                {"actor": "ana", "do": "set", "hp": 4},
                {"actor": "ana", "do": "attack", "target": "bo", "dice": {"trigger": 5}},
            ],
            None,
        )
    )
    assert p.error is None
    assert p.state.get("bo").hp == 20 - 1


@pytest.mark.parametrize("do", ["attack", "act"])
def test_no_action_left(do: str) -> None:
    """ES-1: both actions of the round used."""
    last = hit() if do == "attack" else {"actor": "ana", "do": "act", "note": "one more"}
    refused = assert_refused(
        [ana(), bo()], [hit(), {"actor": "ana", "do": "act"}, last], "no_action_left"
    )
    assert refused.turn.actions_used == 2


def test_unknown_weapon() -> None:
    assert_refused([ana(), bo()], [hit(weapon="axe")], "unknown_weapon")


def test_unknown_weapon_when_unarmed() -> None:
    assert_refused([ana(weapons=[]), bo()], [hit()], "unknown_weapon")


def test_no_energy() -> None:
    """ES-2 with double_attack_needs_energy: the second action-attack at 0 Energy."""
    refused = assert_refused(
        [ana(energy=0), bo()],
        [hit(dice={"trigger": 5}), hit()],
        "no_energy",
        {"double_attack_needs_energy": True},
    )
    assert refused.get("bo").hp == 20 - 1


def test_no_energy_not_for_a_single_or_a_free_attack() -> None:
    p = play(
        encounter(
            [ana(energy=0), bo()],
            [hit(dice={"trigger": 5}), hit(free=True, dice={"trigger": 5})],
            {"double_attack_needs_energy": True},
        )
    )
    assert p.error is None
    assert p.state.get("bo").hp == 18


def test_self_target() -> None:
    assert_refused([ana(), bo()], [hit(target="ana")], "self_target")


def test_self_target_among_several() -> None:
    whelm = ana(weapons=["whelm"])
    assert_refused([whelm, bo()], [hit(target=None, targets=["bo", "ana"])], "self_target")


def test_duplicate_target() -> None:
    whelm = ana(weapons=["whelm"])
    assert_refused([whelm, bo()], [hit(target=None, targets=["bo", "bo"])], "duplicate_target")


def test_too_many_targets() -> None:
    """ES-G6: a melee weapon attacks one target; a whelm three."""
    people = [ana(weapons=[SWORD, "whelm"]), bo(), {"id": "cy", "at": [0, 1]}]
    assert_refused(people, [hit(target=None, targets=["bo", "cy"])], "too_many_targets")
    people += [{"id": "dee", "at": [1, 1]}, {"id": "eve", "at": [2, 2]}]
    assert_refused(
        people,
        [hit(target=None, targets=["bo", "cy", "dee", "eve"], weapon="whelm")],
        "too_many_targets",
    )


def test_out_of_range() -> None:
    """ES-3: melee reaches 1 tile; one target out of range refuses the whole attack."""
    assert_refused([ana(), bo(at=[2, 1])], [hit()], "out_of_range")
    people = [ana(weapons=["whelm"]), bo(), {"id": "cy", "at": [7, 0]}]
    assert_refused(people, [hit(target=None, targets=["bo", "cy"])], "out_of_range")


def test_total_cover() -> None:
    """ES-17: "you cannot attack them at all"."""
    assert_refused([ana(), bo(cover="total")], [hit()], "total_cover")
    assert_refused([ana(), bo()], [hit(cover="total")], "total_cover")


@pytest.mark.parametrize("where", ["attacker", "target"])
def test_underwater(where: str) -> None:
    """ES-18: no attacks while underwater or against targets underwater."""
    people = [ana(underwater=where == "attacker"), bo(underwater=where == "target")]
    assert_refused(people, [hit()], "underwater")


@pytest.mark.parametrize(
    "condition", ["burning", "slowed", {"cy": "dazed"}, {"bo": "poisoned"}], ids=str
)
def test_bad_condition(condition: Any) -> None:
    """ES-12: the choice is one of the weapon's three, for one of the targets."""
    people = [ana(), bo(), {"id": "cy", "at": [0, 1]}]
    assert_refused(people, [hit(condition=condition)], "bad_condition")


# --- the first that applies --------------------------------------------------------------------

ORDER = (
    "down",
    "no_action_left",
    "unknown_weapon",
    "no_energy",
    "self_target",
    "duplicate_target",
    "too_many_targets",
    "out_of_range",
    "total_cover",
    "underwater",
    "bad_condition",
)


def everything_wrong(first: str) -> tuple[Combatants, Actions, dict[str, Any]]:
    """An encounter whose last action breaks every rule from ``first`` on (table order)."""
    broken = set(ORDER[ORDER.index(first) :])
    me: dict[str, Any] = {"id": "ana", "side": "players", "at": [0, 0]}
    me["weapons"] = [SWORD]  # one target at most
    target: dict[str, Any] = {"id": "bo", "side": "enemies", "at": [1, 0]}
    if "out_of_range" in broken:
        target["at"] = [5, 5]
    if "total_cover" in broken:
        target["cover"] = "total"
    # Actions used first (an attack, then `act`), then the game master breaks the sheet.
    setup: Actions = [{"actor": "ana", "do": "attack", "target": "cy", "dice": {"trigger": 5}}]
    if "no_action_left" in broken:
        setup.append({"actor": "ana", "do": "act"})
    edit = {"energy": 0, "hp": 0 if "down" in broken else 20, "underwater": "underwater" in broken}
    setup.append({"actor": "ana", "do": "set", **edit})
    free = "no_energy" not in broken
    targets = ["bo"]
    if "self_target" in broken:
        targets.append("ana")
    if "duplicate_target" in broken:
        targets.append("bo")
    if "too_many_targets" in broken:
        targets += ["cy"]
    last: dict[str, Any] = {"actor": "ana", "do": "attack", "targets": targets, "free": free}
    if "unknown_weapon" in broken:
        last["weapon"] = "axe"
    if "bad_condition" in broken:
        last["condition"] = "burning"
    people = [me, target, {"id": "cy", "side": "enemies", "at": [0, 1]}]
    return people, [*setup, last], {"double_attack_needs_energy": True}


@pytest.mark.parametrize("first", ORDER)
def test_the_first_refusal_of_the_table_applies(first: str) -> None:
    people, actions, options = everything_wrong(first)
    assert_refused(people, actions, first, options)
