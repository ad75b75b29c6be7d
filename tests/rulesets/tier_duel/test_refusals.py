"""tier-duel refusals (tier-duel.md 2.3): each code, the table's order, and that a refused
action consumes nothing (README: "An illegal action consumes nothing: no die, no ammo,
no item, no action").

Each test builds an encounter whose last action is the illegal one and checks:

- the action is refused with the expected code;
- the state is exactly the state of the same encounter without the illegal action:
  HP, temporary damage, hands (``loaded``) and inventories, statuses, whose turn, the
  turn's spent actions, and the log;
- no die was consumed: the generator's state is unchanged, and a seeded follow-up
  action rolls and does exactly what it does without the refused action before it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
import yaml

from fracas.engine.play import Engine
from fracas.errors import DiceError, FracasError, Refusal
from tests.helpers import Played, play
from tests.rulesets.builders import Checked, refused_consuming_nothing
from tests.rulesets.tier_duel.support import TIER_DUEL

Combatants = list[dict[str, Any]]
Actions = list[dict[str, Any]]

SEED = 20240611

# Two bystanders far from everyone: the follow-up is zed's bare-handed melee on yan,
# which rolls `attack` and `defend` from the seed.
BYSTANDERS: Combatants = [{"id": "zed", "at": [60, 60]}, {"id": "yan", "at": [61, 60]}]
FOLLOW_UP: dict[str, Any] = {"actor": "zed", "do": "attack", "target": "yan"}


def encounter(
    combatants: Combatants, actions: Actions, options: dict[str, Any] | None = None
) -> str:
    """The YAML text of a tier-duel encounter; the bystanders come last in the order."""
    people = [*combatants, *BYSTANDERS]
    data = TIER_DUEL.doc(*people, actions=actions, options=options, order=(), seed=SEED)
    return yaml.safe_dump(data, sort_keys=False)


def snapshot(engine: Engine) -> dict[str, Any]:
    """Everything a refused action must leave alone, spelled out."""
    state = engine.state
    out: dict[str, Any] = {
        "round": state.round,
        "turn": state.turn,
        "log": len(engine.log),
        "random": engine.random.getstate(),
    }
    for cid, c in state.combatants.items():
        out[f"{cid}.hp"] = c.hp
        out[f"{cid}.sheet"] = c.sheet  # temporary_damage, hand (loaded), inventory
        out[f"{cid}.statuses"] = dict(c.statuses)
        out[f"{cid}.at"] = c.at
    return out


def assert_refused(
    combatants: Combatants,
    actions: Actions,
    code: str,
    options: dict[str, Any] | None = None,
    kind: type[FracasError] = Refusal,
) -> Checked:
    """The last action is refused with ``code`` (an error of type ``kind``, no subclass)
    and consumes nothing (every field of :func:`snapshot` too)."""

    def text(acts: Sequence[dict[str, Any]]) -> str:
        return encounter(combatants, list(acts), options)

    checked = refused_consuming_nothing(
        text, actions, code, FOLLOW_UP, kind=kind, snapshot=snapshot
    )
    assert type(checked.error) is kind, repr(checked.error)
    labels = [r.label for r in checked.follow_up.rolls]
    assert labels == ["attack", "defend"]  # the follow-up draws from the seed
    return checked


def legal(combatants: Combatants, actions: Actions, **options: Any) -> Played:
    """Every action is played (the boundary next to a refusal)."""
    played = play(encounter(combatants, actions, options))
    assert played.error is None, played.error
    return played


def atk(actor: str, target: str, **extra: Any) -> dict[str, Any]:
    return {"actor": actor, "do": "attack", "target": target, **extra}


def sneak(actor: str, target: str, **extra: Any) -> dict[str, Any]:
    return {"actor": actor, "do": "stealth", "target": target, "behind": True, **extra}


SWORDS: Combatants = [
    {"id": "ana", "at": [0, 0], "hand": "sword", "skills": {"stealth": 2}},
    {"id": "bo", "at": [1, 0], "hand": "sword"},
]
CROSSBOW: Combatants = [
    {"id": "ana", "at": [0, 0], "skills": {"crossbow": 3}, "hand": "crossbow_1h"},
    {"id": "bo", "at": [2, 0]},
]
FIREBALL = {"name": "fireball", "type": "spell", "damage": 3}


def test_the_snapshot_sees_a_consumed_action() -> None:
    """The comparison is not blind: a legal crossbow shot changes what a refusal must not."""
    after = play(encounter(CROSSBOW, [atk("ana", "bo")]))
    before = play(encounter(CROSSBOW, []))
    a, b = snapshot(after.engine), snapshot(before.engine)
    for key in ("turn", "log", "ana.sheet", "bo.hp", "bo.sheet"):
        assert a[key] != b[key], key
    melee = play(encounter(SWORDS, [atk("ana", "bo")]))
    assert snapshot(melee.engine)["random"] != b["random"]


# --- down ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    [
        atk("bo", "ana"),
        sneak("bo", "ana"),
        {"actor": "bo", "do": "cast", "target": "ana", "spell": "fireball"},
        {"actor": "bo", "do": "reload"},
        {"actor": "bo", "do": "equip", "item": "fireball"},
    ],
    ids=["attack", "stealth", "cast", "reload", "equip"],
)
def test_down_refuses_every_ruleset_action(action: dict[str, Any]) -> None:
    """TD-G1: at 0 HP; bo is not the current actor, and the turn must not advance either."""
    people: Combatants = [
        SWORDS[0],
        {"id": "bo", "at": [1, 0], "hp": 0, "hand": "crossbow_1h", "inventory": [FIREBALL]},
    ]
    checked = assert_refused(people, [action], "down")
    assert checked.state.turn.actor == "ana"


def test_down_may_still_end_turn_move_and_set_and_be_attacked() -> None:
    people: Combatants = [{**SWORDS[0], "hp": 0}, SWORDS[1]]
    played = legal(
        people,
        [
            {"actor": "ana", "do": "move", "to": [0, 1]},
            {"actor": "ana", "do": "set", "reflex": 3},
            {"actor": "ana", "do": "end_turn"},
            atk("bo", "ana", dice={"attack": 2, "defend": 10}),  # it still rolls, and wins
        ],
    )
    assert played.state.get("ana").sheet.reflex == 3
    assert played.state.get("bo").hp == 20 - (11 + 0 + 1)  # 13 vs 2, sword Tier 1


# --- the round's actions ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (atk("ana", "bo", dice={"attack": 5, "defend": 5}), atk("ana", "bo")),
        (atk("ana", "bo", dice={"attack": 5, "defend": 5}), sneak("ana", "bo")),
        (sneak("ana", "bo", dice={"stealth": 1, "notice": 20}), atk("ana", "bo")),
    ],
    ids=["attack-attack", "attack-stealth", "lost-stealth-attack"],
)
def test_no_contested_action(first: dict[str, Any], second: dict[str, Any]) -> None:
    """TD-G6, TD-22: one contested action per round; a lost stealth contest spends it."""
    checked = assert_refused(SWORDS, [first, second], "no_contested_action")
    assert checked.state.turn.used == {"contested": 1}


def test_no_contested_action_for_a_crossbow_beyond_its_skill() -> None:
    """TD-G3: the contested shot needs the contested action; the free equip does not."""
    people: Combatants = [
        {**CROSSBOW[0], "hand": "sword", "inventory": ["crossbow_1h"]},
        {"id": "bo", "at": [1, 0], "hand": "sword"},
        {"id": "cy", "at": [9, 0]},  # beyond crossbow skill 3
    ]
    actions: Actions = [
        atk("ana", "bo", dice={"attack": 5, "defend": 5}),
        {"actor": "ana", "do": "equip", "item": "crossbow_1h"},
        atk("ana", "cy"),
    ]
    checked = assert_refused(people, actions, "no_contested_action")
    assert checked.state.get("ana").sheet.hand.name == "crossbow_1h"
    assert checked.state.get("ana").sheet.hand.loaded is True


@pytest.mark.parametrize(
    ("people", "first", "second"),
    [
        (CROSSBOW, atk("ana", "bo"), {"actor": "ana", "do": "reload"}),
        (
            [{**CROSSBOW[0], "inventory": [FIREBALL]}, CROSSBOW[1]],
            {"actor": "ana", "do": "cast", "target": "bo", "spell": "fireball"},
            atk("ana", "bo"),
        ),
        (
            [{"id": "ana", "at": [0, 0], "hand": "firearm", "inventory": [FIREBALL]}, CROSSBOW[1]],
            atk("ana", "bo"),
            {"actor": "ana", "do": "cast", "target": "bo", "spell": "fireball"},
        ),
        (
            # the order: no_noncontested_action comes before not_reloadable
            [{"id": "ana", "at": [0, 0], "hand": "sword", "inventory": [FIREBALL]}, CROSSBOW[1]],
            {"actor": "ana", "do": "cast", "target": "bo", "spell": "fireball"},
            {"actor": "ana", "do": "reload"},
        ),
    ],
    ids=["shot-reload", "cast-shot", "gun-cast", "cast-reload-sword"],
)
def test_no_noncontested_action(
    people: Combatants, first: dict[str, Any], second: dict[str, Any]
) -> None:
    """TD-G6: one non-contested action per round (crossbow and guaranteed shots, cast,
    reload)."""
    checked = assert_refused(people, [first, second], "no_noncontested_action")
    assert checked.state.turn.used == {"noncontested": 1}


def test_one_of_each_kind_in_a_round_is_legal() -> None:
    """TD-G6: a crossbow shot and a melee attack in the same turn; both restored next turn."""
    people: Combatants = [{**CROSSBOW[0], "inventory": ["sword"]}, {"id": "bo", "at": [1, 0]}]
    played = legal(
        people,
        [
            atk("ana", "bo"),
            {"actor": "ana", "do": "equip", "item": "sword"},
            atk("ana", "bo", dice={"attack": 10, "defend": 10}),
            {"actor": "bo", "do": "end_turn"},
            atk("ana", "bo", dice={"attack": 10, "defend": 10}),
        ],
    )
    assert played.state.turn.used == {"contested": 1}
    assert played.state.round == 2


# --- targets, items, spells ------------------------------------------------------------


@pytest.mark.parametrize(
    "action", [atk("ana", "ana"), sneak("ana", "ana")], ids=["attack", "stealth"]
)
def test_self_target(action: dict[str, Any]) -> None:
    assert_refused(SWORDS, [action], "self_target")


def test_self_target_comes_after_the_spent_action() -> None:
    actions: Actions = [atk("ana", "bo", dice={"attack": 5, "defend": 5}), atk("ana", "ana")]
    assert_refused(SWORDS, actions, "no_contested_action")


def test_a_spell_may_be_cast_on_oneself() -> None:
    people: Combatants = [{"id": "ana", "at": [0, 0], "hand": FIREBALL}, CROSSBOW[1]]
    played = legal(people, [{"actor": "ana", "do": "cast", "target": "ana", "spell": "fireball"}])
    assert played.state.get("ana").hp == 17


@pytest.mark.parametrize(
    "action",
    [
        {"actor": "ana", "do": "equip", "item": "axe"},
        {"actor": "ana", "do": "equip", "item": "sword"},  # the hand's own: not in the inventory
        {"actor": "ana", "do": "cast", "target": "bo", "spell": "frost"},
    ],
    ids=["equip", "equip-hand", "cast"],
)
def test_not_in_inventory(action: dict[str, Any]) -> None:
    people: Combatants = [{**SWORDS[0], "inventory": ["spear", FIREBALL]}, SWORDS[1]]
    assert_refused(people, [action], "not_in_inventory")


@pytest.mark.parametrize("spell", ["sword", "spear"], ids=["hand", "inventory"])
def test_not_a_spell(spell: str) -> None:
    people: Combatants = [{**SWORDS[0], "inventory": ["spear"]}, SWORDS[1]]
    action = {"actor": "ana", "do": "cast", "target": "bo", "spell": spell}
    assert_refused(people, [action], "not_a_spell")


def test_use_cast() -> None:
    """TD-19: a spell is cast, not attacked with."""
    people: Combatants = [{"id": "ana", "at": [0, 0], "hand": FIREBALL}, SWORDS[1]]
    assert_refused(people, [atk("ana", "bo")], "use_cast")
    assert_refused(people, [atk("ana", "ana")], "self_target")  # the order


@pytest.mark.parametrize("hand", ["crossbow_1h", "crossbow_2h", "firearm"])
def test_not_loaded(hand: str) -> None:
    people: Combatants = [
        {
            "id": "ana",
            "at": [0, 0],
            "skills": {"crossbow": 3},
            "hand": {"is": hand, "loaded": False},
        },
        CROSSBOW[1],
    ]
    assert_refused(people, [atk("ana", "bo")], "not_loaded")


@pytest.mark.parametrize("hand", [None, "sword", "bow", "javelin", FIREBALL], ids=str)
def test_not_reloadable(hand: Any) -> None:
    people: Combatants = [{"id": "ana", "at": [0, 0], "hand": hand}, CROSSBOW[1]]
    assert_refused(people, [{"actor": "ana", "do": "reload"}], "not_reloadable")


@pytest.mark.parametrize("hand", ["crossbow_2h", "firearm"])
def test_already_loaded(hand: str) -> None:
    people: Combatants = [{"id": "ana", "at": [0, 0], "hand": hand}, CROSSBOW[1]]
    assert_refused(people, [{"actor": "ana", "do": "reload"}], "already_loaded")


# --- stealth --------------------------------------------------------------------------


@pytest.mark.parametrize("behind", [None, False])
def test_not_behind(behind: bool | None) -> None:
    """TD-20: only from behind; `behind` missing or false."""
    action: dict[str, Any] = {"actor": "ana", "do": "stealth", "target": "bo"}
    if behind is not None:
        action["behind"] = behind
    assert_refused(SWORDS, [action], "not_behind")
    people: Combatants = [{**SWORDS[0], "hand": "firearm"}, SWORDS[1]]
    assert_refused(people, [action], "not_behind")  # the order: before no_stealth_formula


@pytest.mark.parametrize("hand", ["crossbow_1h", "crossbow_2h", "firearm", FIREBALL], ids=str)
def test_no_stealth_formula(hand: Any) -> None:
    """TD-23 gives melee, thrown and bow only."""
    people: Combatants = [{"id": "ana", "hand": hand}, {"id": "bo"}]  # no positions: the order
    assert_refused(people, [sneak("ana", "bo")], "no_stealth_formula")


# --- distance ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "people",
    [
        [{"id": "ana", "hand": "sword"}, {"id": "bo", "at": [1, 0]}],
        [{"id": "ana", "at": [0, 0], "hand": "bow"}, {"id": "bo"}],
    ],
    ids=["actor", "target"],
)
@pytest.mark.parametrize("do", ["attack", "stealth"])
def test_no_position(people: Combatants, do: str) -> None:
    action = {
        "actor": "ana",
        "do": do,
        "target": "bo",
        **({"behind": True} if do == "stealth" else {}),
    }
    assert_refused(people, [action], "no_position")
    played = legal(
        people, [{**action, "distance": 1, "dice": {"attack" if do == "attack" else "stealth": 1}}]
    )
    assert played.state.turn.used == {"contested": 1}  # `distance: n` stands in


@pytest.mark.parametrize("do", ["attack", "stealth"])
def test_out_of_reach(do: str) -> None:
    """TD-6: melee where neither side reaches the other."""
    people: Combatants = [{**SWORDS[0]}, {"id": "bo", "at": [2, 0], "hand": "sword"}]
    action = {
        "actor": "ana",
        "do": do,
        "target": "bo",
        **({"behind": True} if do == "stealth" else {}),
    }
    assert_refused(people, [action], "out_of_reach")
    people[1]["hand"] = "spear"  # bo reaches 2: the event is legal
    legal(people, [{**action, "dice": {"attack": 1} if do == "attack" else {"stealth": 1}}])


@pytest.mark.parametrize(
    ("hand", "x", "options"),
    [
        ("bow", 21, {}),
        ("javelin", 7, {}),
        ({"is": "bow", "range": 3}, 4, {}),
        ("crossbow_2h", 21, {}),
        ("crossbow_1h", 4, {"crossbow_beyond_skill": "refuse"}),
        ("firearm", 16, {}),
        ({"is": "firearm", "contested_zone": 8}, 9, {}),
    ],
    ids=str,
)
def test_out_of_range(hand: Any, x: int, options: dict[str, Any]) -> None:
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "skills": {"crossbow": 3}, "hand": hand},
        {"id": "bo", "at": [x, 0]},
    ]
    assert_refused(people, [atk("ana", "bo")], "out_of_range", options)
    people[1]["at"] = [x - 1, 0]  # one tile closer: legal
    legal(people, [atk("ana", "bo")], **options)


def test_out_of_range_for_a_stealth_shot() -> None:
    people: Combatants = [{"id": "ana", "at": [0, 0], "hand": "bow"}, {"id": "bo", "at": [21, 0]}]
    assert_refused(people, [sneak("ana", "bo")], "out_of_range")


def test_no_position_comes_before_reach() -> None:
    people: Combatants = [{"id": "ana", "hand": "sword"}, {"id": "bo", "at": [5, 0]}]
    assert_refused(people, [atk("ana", "bo")], "no_position")


# --- dice errors consume nothing either -----------------------------------------------------


def test_a_die_the_action_never_rolls() -> None:
    """An automatic crossbow hit rolls nothing: a given `attack` is an error, and the shot,
    the bolt and the action are not spent."""
    checked = assert_refused(
        CROSSBOW, [atk("ana", "bo", dice={"attack": 12})], "unused_die", kind=DiceError
    )
    assert checked.state.get("ana").sheet.hand.loaded is True


def test_the_strike_die_on_a_lost_contest() -> None:
    action = sneak("ana", "bo", dice={"stealth": 1, "notice": 20, "strike": 5})
    assert_refused(SWORDS, [action], "unused_die", kind=DiceError)
